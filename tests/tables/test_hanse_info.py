"""Battlehanse's Karten-Info (``web/src/boards/hanse_info.ts``) against the engine.

The window says "what it means for you now": what selling your cards of a good would
bring, whether you can still take it, who would get the Stallmarke, which tokens
remain.  Here the client module (bundled by esbuild, run by node) reads many views and
its numbers are compared with the engine's own (``sale_value``, the hand limit, the
stables, the piles).  A spectator's window speaks of no hand at all.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from shared.games import get_game
from shared.games.hanse.cards import GOODS, HAND_LIMIT, HORSE, NAMES_DE, PRECIOUS
from shared.games.hanse.selection import sale_value
from tests.tables.test_hanse_selection import ESBUILD, WEB, positions

ENGINE = get_game("hanse")
RANGES = {3: "1–3", 4: "4–6", 5: "8–10"}

RUNNER = """
import { cardInfo } from "./hanse_info.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((c) => cardInfo(c.target, c.view, c.you, c.lang))));
"""


def run_info(cases: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    subprocess.run([str(ESBUILD), str(WEB / "src/boards/hanse_info.ts"), "--bundle", "--format=esm", "--platform=node",
                    f"--outfile={tmp_path / 'hanse_info.mjs'}", "--log-level=warning"], check=True, cwd=WEB, timeout=60)
    (tmp_path / "run.mjs").write_text(RUNNER)
    done = subprocess.run(["node", str(tmp_path / "run.mjs")], input=json.dumps(cases), capture_output=True, text=True,
                          check=True, timeout=60)
    return json.loads(done.stdout)


def expected_sale(state: Any, seat: int, kind: int) -> str:
    """The sentence for selling all of ``kind`` now, from the engine's numbers."""
    n = state.hands[seat][kind]
    good = NAMES_DE[kind]
    if n == 0:
        return f"Du hast kein {good} auf der Hand."
    if PRECIOUS[kind] and n < 2:
        return f"Mit 1 {good} kannst du noch nicht verkaufen (Edelware: mindestens 2)."
    value = sale_value(state, kind, n)
    tokens = f"{' + '.join(map(str, value['zinn']))} = {value['zinn_sum']}" if value["zinn"] else "0"
    rats = f" und eine Ratsmarke ({RANGES[value['ratsmarke']]})" if value["ratsmarke"] else ""
    points = "Punkt" if value["zinn"] and value["zinn_sum"] == 1 else "Punkte"
    return f"Verkaufst du jetzt deine {n} {good}: {tokens} {points}{rats}."


def test_karten_info_numbers_are_the_engines(tmp_path: Path) -> None:
    rng = random.Random(5)
    cases, checks = [], []
    for state in positions(30, rng):
        for seat in (0, 1):
            view = ENGINE.view(state, seat)
            for kind in range(GOODS):
                cases.append({"target": {"kind": "good", "card": NAMES_DE[kind]}, "view": view, "you": seat, "lang": "de"})
                checks.append(("good", state, seat, kind))
            cases.append({"target": {"kind": "stallmarke"}, "view": view, "you": seat, "lang": "de"})
            checks.append(("stall", state, seat, None))
        spectator = ENGINE.view(state, None)
        cases.append({"target": {"kind": "good", "card": "Gold"}, "view": spectator, "you": None, "lang": "de"})
        checks.append(("spectator", state, None, None))
    infos = run_info(cases, tmp_path)
    sale_lines = 0
    for info, (what, state, seat, kind) in zip(infos, checks, strict=True):
        text = "\n".join(info["lines"])
        if what == "good":
            assert expected_sale(state, seat, kind) in info["lines"], (text, expected_sale(state, seat, kind))
            sale_lines += "Verkaufst du jetzt" in text
            goods = sum(state.hands[seat][:GOODS])
            assert ("Aufnehmen geht nicht" in text) == (goods >= HAND_LIMIT)
            left = ENGINE.view(state, seat)["zinn_piles"][kind]["left"]
            assert (f"Zinnmarken übrig (oben zuerst): {' · '.join(map(str, left))}." in text) == bool(left)
        elif what == "stall":
            mine, theirs = state.hands[seat][HORSE], state.hands[1 - seat][HORSE]
            expected = "keiner bekäme" if mine == theirs else "bekämst du" if mine > theirs else "bekäme dein Gegner"
            assert expected in text
        else:
            assert "deine" not in text.lower() and "Aufnehmen" not in text
    assert sale_lines > 50


def test_the_english_window_is_english(tmp_path: Path) -> None:
    state = positions(1, random.Random(2))[0]
    view = ENGINE.view(state, 0)
    targets = [{"kind": "good", "card": "Packpferd"}, {"kind": "deck"}, {"kind": "zinn", "good": "Salz"},
               {"kind": "rats"}, {"kind": "stallmarke"}, {"kind": "good", "card": "Pelz"}]
    infos = run_info([{"target": t, "view": view, "you": 0, "lang": "en"} for t in targets], tmp_path)
    for info in infos:
        text = " ".join(info["lines"])
        assert info["lines"] and not any(word in text.split() for word in ("Karten", "noch", "Du", "und", "dein"))
