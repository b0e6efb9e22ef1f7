"""``python -m shared.migrate``: apply every pending SQL migration to DATABASE_URL.

Safe to run any number of times and from several processes at once: the runner in
``shared.db`` takes an advisory lock and skips what ``schema_migrations`` records.
"""

from __future__ import annotations

import json
import sys

from shared import settings
from shared.db import migrate


def main() -> int:
    applied = migrate(settings.load().database_url)
    print(json.dumps({"applied": applied}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
