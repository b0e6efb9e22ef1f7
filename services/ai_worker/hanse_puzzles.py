"""The batch job that makes the 24 Handelsaufgaben (Battlehanse puzzles).

    python -m services.ai_worker.hanse_puzzles [--out shared/data/hanse_puzzles.json]

Plays Stark against Stark with fixed match seeds (a fixed number of sampled deals per
move instead of a clock, so every machine plays the same matches) and looks at every
position from ply :data:`MIN_PLY` on where a seat is to move, as that seat sees it:

* "Punkte": at least :data:`MIN_SCORING_MOVES` moves take points (sales of at least
  :data:`MIN_SCORING_GOODS` goods); one takes the most and leads the next by at least
  one point; and the obvious answer misleads: that move is not both the sale with the
  most Zinnmarken and the sale of the most cards (points as in
  :func:`services.lobby.hanse_puzzles.move_points`).
* "Bester Zug": Stark's values of every legal move (``analyse`` then ``value_of``
  over :data:`SOLVE_SAMPLES` sampled deals, seeded from the view) put one move ahead
  of the second best by at least :data:`~services.lobby.hanse_puzzles.CLEAR_GAP`.

At most :data:`PER_MATCH` puzzles of a kind come from one match and a position
serves one puzzle only, so the positions differ; the first twelve of each kind found
in seed order are kept.  The output holds the position (full, hidden cards included),
the solving seat and every legal move's value, best first.  Running it again writes the same file.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from services.ai_worker.players import hanse as player
from services.lobby.hanse_puzzles import CLEAR_GAP, DATA_FILE, PUZZLES_PER_KIND, points_table
from shared.games import get_game

MATCH_SEEDS = range(1000, 1100)
PLAY_SAMPLES = 6  # Stark's sampled deals per move while playing the source matches
SOLVE_SAMPLES = 24  # per position when valuing the moves for "Bester Zug"
MIN_SCORING_MOVES = 3
MIN_SCORING_GOODS = 2  # Punkte: sales of at least two different goods to weigh
MIN_LEGAL_MOVES = 6
MIN_PLY = 6  # skip the opening moves of a match: the first deals are alike and thin
PER_MATCH = 1
MAX_PLIES = 400
NO_DEADLINE = float("inf")


def stark_values(view: dict[str, Any], samples: int = SOLVE_SAMPLES) -> list[dict[str, Any]]:
    """Stark's value of every legal move of ``view``, best first (ties in the view's order).

    ``analyse`` fixes the sampled deals (seeded from the view) and searches its own
    candidates; ``value_of`` searches each remaining move over the same deals."""
    rng = random.Random(0)  # unused by the analysis (its samples come from the view)
    ranked = dict(player.analyse(view, NO_DEADLINE, rng, limit=1000, max_samples=samples))
    for move in view["legal_moves"]:
        if move["text"] not in ranked:
            ranked[move["text"]] = player.value_of(view, move["text"], NO_DEADLINE, rng, max_samples=samples)
    order = {m["text"]: i for i, m in enumerate(view["legal_moves"])}
    rows = [{"move": text, "value": round(value, 3)} for text, value in ranked.items()]
    return sorted(rows, key=lambda row: (-row["value"], order[row["move"]]))


def _points_puzzle(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    table = points_table(view)
    scoring = [row for row in table if row["value"] > 0]
    goods = {row["move"].split()[-1] for row in scoring}  # "verkauf 3 Salz" -> "Salz"
    if len(scoring) < MIN_SCORING_MOVES or len(goods) < MIN_SCORING_GOODS:
        return None
    if table[0]["value"] - table[1]["value"] < 1:
        return None
    # Only where the obvious answer misleads: the sale with the most Zinnmarken or the one
    # of the most cards is not the one that takes the most points (a Ratsmarke decides, or
    # a short pile gives nothing for extra cards).
    effects = {m["text"]: m["effect"] for m in view["legal_moves"]}
    most_zinn = max(scoring, key=lambda row: effects[row["move"]]["zinn_sum"])["move"]
    most_cards = max(scoring, key=lambda row: len(effects[row["move"]]["hand_out"]))["move"]
    if table[0]["move"] == most_zinn == most_cards:
        return None
    return table


def _best_move_puzzle(view: dict[str, Any]) -> list[dict[str, Any]] | None:
    if len(view["legal_moves"]) < MIN_LEGAL_MOVES:
        return None
    table = stark_values(view)
    if table[0]["value"] - table[1]["value"] < CLEAR_GAP:
        return None
    return table


def _entry(kind: str, number: int, view_state: Any, options: dict[str, Any], seat: int, seed: int, ply: int,
           table: list[dict[str, Any]]) -> dict[str, Any]:
    engine = get_game("hanse")
    return {
        "id": f"{kind}-{number:02d}",
        "kind": kind,
        "seat": seat,
        "options": options,
        "position": engine.to_position(view_state),
        "source": {"match_seed": seed, "ply": ply},
        "moves": table,
    }


def make_puzzles(seeds: range = MATCH_SEEDS, log: Any = print) -> dict[str, Any]:
    """Play the source matches and pick the puzzles (see the module docstring)."""
    engine = get_game("hanse")
    options = engine.default_options()
    found: dict[str, list[dict[str, Any]]] = {"punkte": [], "bester_zug": []}
    finders = {"punkte": _points_puzzle, "bester_zug": _best_move_puzzle}
    for seed in seeds:
        if all(len(v) >= PUZZLES_PER_KIND for v in found.values()):
            break
        state = engine.new_game(options, seed)
        taken = dict.fromkeys(found, 0)
        rng = random.Random(seed)
        for ply in range(MAX_PLIES):
            if engine.outcome(state) is not None:
                break
            to_move = engine.to_move(state)
            if not to_move:  # the round pause: the next round is dealt
                state = engine.apply(state, "weiter", None)
                continue
            seat = to_move[0]
            if ply < MIN_PLY:
                move = player.PLAYER.choose_move(engine.view(state, seat), "stark", NO_DEADLINE, rng, max_samples=PLAY_SAMPLES)
                state = engine.apply(state, move, seat)
                continue
            # The puzzle is the position as the position text keeps it (no history), so
            # its view — and Stark's samples seeded from it — are what the service shows.
            bare = engine.from_position(engine.to_position(state), options)
            view = engine.view(bare, seat)
            for kind, finder in finders.items():
                if len(found[kind]) >= PUZZLES_PER_KIND or taken[kind] >= PER_MATCH:
                    continue
                table = finder(view)
                if table is not None:
                    found[kind].append(_entry(kind, len(found[kind]) + 1, bare, options, seat, seed, ply, table))
                    taken[kind] += 1
                    log(f"{kind} {len(found[kind])}: match {seed} ply {ply} best {table[0]}")
                    break  # one puzzle per position
            move = player.PLAYER.choose_move(engine.view(state, seat), "stark", NO_DEADLINE, rng, max_samples=PLAY_SAMPLES)
            state = engine.apply(state, move, seat)
    return {
        "generated_by": "python -m services.ai_worker.hanse_puzzles",
        "parameters": {"match_seeds": [seeds.start, seeds.stop], "play_samples": PLAY_SAMPLES,
                       "solve_samples": SOLVE_SAMPLES, "clear_gap": CLEAR_GAP,
                       "min_scoring_moves": MIN_SCORING_MOVES, "min_scoring_goods": MIN_SCORING_GOODS,
                       "min_legal_moves": MIN_LEGAL_MOVES, "min_ply": MIN_PLY, "per_match": PER_MATCH},
        "puzzles": found["punkte"] + found["bester_zug"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Make the Battlehanse Handelsaufgaben from Stark vs Stark matches.")
    parser.add_argument("--out", type=Path, default=DATA_FILE)
    args = parser.parse_args(argv)
    data = make_puzzles()
    counts = {kind: sum(1 for p in data["puzzles"] if p["kind"] == kind) for kind in ("punkte", "bester_zug")}
    if any(n < PUZZLES_PER_KIND for n in counts.values()):
        print(f"not enough positions found: {counts}")
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {counts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
