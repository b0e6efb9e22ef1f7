"""The Handelskasten's "why not" in the browser agrees with the engine, word for word.

The browser cannot run the engine, so ``web/src/boards/hanse_selection.ts`` explains a
selection from the seat's view alone.  Here both run over the same positions and
selections: the engine's ``describe_selection`` on the full state, the client module
(bundled by esbuild, run by node) on ``view(state, seat)``.  They must give the same
verdict, the same reason code and the same German and English sentence — and a legal
selection must be the same move.  Because the client only ever gets the view, its
answer cannot depend on anything the seat may not see; a second check feeds the
client views whose hidden parts differ and requires identical answers.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from shared.games import get_game
from shared.games.hanse.selection import describe_selection

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "web"
ESBUILD = WEB / "node_modules" / ".bin" / "esbuild"
ENGINE = get_game("hanse")

RUNNER = """
import { explainSelection } from "./hanse_selection.mjs";
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(0, "utf8"));
const out = cases.map((c) => {
  const r = explainSelection(c.view, c.seat, c.selection);
  return { ok: r.ok, code: r.code, de: r.de, en: r.en, move: r.move ? r.move.text : null };
});
process.stdout.write(JSON.stringify(out));
"""


def run_client(cases: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    """explainSelection for every case, in node, from the TypeScript source as the page ships it."""
    subprocess.run([str(ESBUILD), str(WEB / "src/boards/hanse_selection.ts"), "--bundle", "--format=esm",
                    "--platform=node", f"--outfile={tmp_path / 'hanse_selection.mjs'}", "--log-level=warning"],
                   check=True, cwd=WEB, timeout=60)
    (tmp_path / "run.mjs").write_text(RUNNER)
    done = subprocess.run(["node", str(tmp_path / "run.mjs")], input=json.dumps(cases), capture_output=True,
                          text=True, check=True, timeout=60)
    return json.loads(done.stdout)


def positions(count: int, rng: random.Random) -> list[Any]:
    """Positions with the seat to move, from play that takes often (so hands reach the limit)."""
    found = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = ENGINE.new_game({"seals_to_win": 1}, seed)
        for _ in range(rng.randrange(0, 40)):
            if ENGINE.view(state, 0)["phase"] != "spiel":
                break
            moves = ENGINE.legal_moves(state)
            takes = [m for m in moves if m.effect["type"] == "nimm"]
            move = rng.choice(takes) if takes and rng.random() < 0.7 else rng.choice(moves)
            state = ENGINE.apply(state, move.text, ENGINE.to_move(state)[0])
        if ENGINE.view(state, 0)["phase"] == "spiel":
            found.append(state)
    return found


def selections(view: dict[str, Any], seat: int, rng: random.Random, n: int) -> list[dict[str, Any]]:
    """Random selections a player can tap: subsets of the market, the hand and the stable."""
    market = view["market"]
    hand = [c["card"] for c in view["players"][seat]["hand"]]
    stable = view["players"][seat]["stable"]
    out = [{"market": [], "hand": [], "stable": 0}]
    out += [{"market": [c], "hand": [], "stable": 0} for c in market]
    out += [{"market": [], "hand": [c], "stable": 0} for c in hand]
    for _ in range(n):
        out.append({
            "market": [c for c in market if rng.random() < 0.4],
            "hand": [c for c in hand if rng.random() < 0.35],
            "stable": rng.randrange(0, stable + 1) if stable and rng.random() < 0.5 else 0,
        })
    return out


def engine_answer(state: Any, seat: int, selection: dict[str, Any]) -> dict[str, Any]:
    got = describe_selection(state, seat, selection["market"], selection["hand"], selection["stable"])
    return {"ok": got["ok"], "code": got["code"], "de": got["text_de"], "en": got["text_en"], "move": got["move_text"]}


def test_client_reasons_match_the_engine_in_many_positions(tmp_path: Path) -> None:
    rng = random.Random(7)
    cases, expected = [], []
    for state in positions(40, rng):
        seat = ENGINE.to_move(state)[0]
        view = ENGINE.view(state, seat)
        for selection in selections(view, seat, rng, 40):
            cases.append({"view": view, "seat": seat, "selection": selection})
            expected.append(engine_answer(state, seat, selection))
    got = run_client(cases, tmp_path)
    assert len(got) == len(expected)
    mismatches = [(c["selection"], e, g) for c, e, g in zip(cases, expected, got, strict=True) if e != g]
    assert not mismatches, mismatches[:3]
    codes = {e["code"] for e in expected}
    # The positions reach every reason a tap can produce, and legal moves of every kind.
    assert {"ok", "incomplete", "take_horse", "hand_full", "exchange_too_few", "exchange_unequal",
            "exchange_same_good", "sell_mixed", "precious_single"} <= codes, codes
    assert {g["move"].split()[0] for g in got if g["ok"]} >= {"nimm", "pferde", "tausch", "verkauf"}


def test_client_answer_depends_only_on_what_the_seat_sees(tmp_path: Path) -> None:
    """Two deals that agree on everything seat 0 sees (different opponent hand and deck)
    give the same answers; the view carries nothing else to answer from."""
    rng = random.Random(11)
    state = positions(1, rng)[0]
    seat = ENGINE.to_move(state)[0]
    view = ENGINE.view(state, seat)
    assert view["hidden"] is None and view["players"][1 - seat]["hand"] is None
    altered = json.loads(json.dumps(view))
    altered["players"][1 - seat]["hand_count"] += 1
    altered["deck_count"] -= 1
    chosen = selections(view, seat, rng, 30)
    cases = [{"view": v, "seat": seat, "selection": s} for v in (view, altered) for s in chosen]
    got = run_client(cases, tmp_path)
    assert got[: len(chosen)] == got[len(chosen):]
