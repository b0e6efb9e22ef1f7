"""Engine speed for all four games, as one JSON document.

Each game's own benchmark lives in ``bench/engine_<game>.py`` and exposes ``run()``;
this collects them so ``make bench`` prints one figure set.  Run on one core with
nothing else busy for numbers worth comparing.
"""

from __future__ import annotations

import importlib
import json
import platform
import sys

from shared.games import GAME_NAMES


def main(argv: list[str]) -> int:
    games = argv or list(GAME_NAMES)
    results: dict[str, object] = {"python": platform.python_version(), "machine": platform.machine()}
    for name in games:
        module = importlib.import_module(f"bench.engine_{name}")
        results[name] = module.run()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
