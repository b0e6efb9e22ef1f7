"""Every program the deploy and routing tests run is installed where the suite must be complete.

Each of those tests asks ``tests.required_tools`` for its program and skips without it when run by
hand; this test lists them all at once, so a machine missing one fails ``make test`` and CI here too,
whichever module would have skipped.
"""

from __future__ import annotations

import pytest

from tests.required_tools import EVERY_TOOL, REQUIRE_ENV, Tool, tools_required


def test_every_tool_the_suite_runs_is_installed() -> None:
    missing = [f"{tool.name} ({tool.install})" for tool in EVERY_TOOL if not tool.find()]
    if missing and not tools_required():
        pytest.skip("missing, so their tests skip: " + "; ".join(missing))
    assert missing == [], f"missing with {REQUIRE_ENV}=1 or CI set: " + "; ".join(missing)


@pytest.mark.parametrize(("environment", "required"), [
    ({}, False), ({"CI": "true"}, True), ({"CI": "false"}, False),
    ({REQUIRE_ENV: "1"}, True), ({REQUIRE_ENV: "0", "CI": "true"}, False),
])
def test_tools_are_required_under_make_test_and_in_ci(monkeypatch: pytest.MonkeyPatch, environment: dict,
                                                      required: bool) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv(REQUIRE_ENV, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert tools_required() is required


def test_a_missing_tool_fails_its_test_when_required_and_skips_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    absent = Tool("no-such-program", lambda: None, "nowhere")
    monkeypatch.setenv(REQUIRE_ENV, "1")
    with pytest.raises(pytest.fail.Exception, match="no-such-program is not installed"):
        absent.path()
    monkeypatch.setenv(REQUIRE_ENV, "0")
    with pytest.raises(pytest.skip.Exception, match="no-such-program is not installed: nowhere"):
        absent.path()
