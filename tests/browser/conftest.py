"""Fixtures of the browser tests (the Chromium and the services they drive are in tests/browser_fixtures.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser_fixtures import SCREENSHOT_DIR_ENV


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where a test's screenshots go: SCREENSHOT_DIR when set (to look at them after a UI change), else the test's temp dir."""
    folder = Path(os.environ.get(SCREENSHOT_DIR_ENV) or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
