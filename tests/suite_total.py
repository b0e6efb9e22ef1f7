"""One closing line for a suite run in parts: ``python -m tests.suite_total REPORT.xml ...``.

``make test`` runs the parallel part and then the serial part as two pytest runs; each
writes a JUnit report, and this adds them up, so the last line counts every test.
Exits 1 when a report is missing or names a failure or an error.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def totals(reports: list[Path]) -> dict[str, int]:
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for report in reports:
        for suite in ET.parse(report).getroot().iter("testsuite"):
            for key in counts:
                counts[key] += int(suite.get(key, 0))
    return counts


def main(argv: list[str]) -> int:
    reports = [Path(a) for a in argv]
    missing = [str(r) for r in reports if not r.is_file()]
    if missing:
        print(f"suite: no report {', '.join(missing)} (a part did not run)")
        return 1
    c = totals(reports)
    failed = c["failures"] + c["errors"]
    passed = c["tests"] - failed - c["skipped"]
    print(f"suite: {passed} passed, {failed} failed, {c['skipped']} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
