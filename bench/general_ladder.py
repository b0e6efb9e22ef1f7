"""Battlegeneral Stark against the previous Stark (or Mittel) at equal fixed effort, with
how each side wins and loses.

    .venv/bin/python -m bench.general_ladder play --opponent previous --games 100 \\
        --samples 40 --out /tmp/general_vs_previous.jsonl
    .venv/bin/python -m bench.general_ladder play --opponent mittel --games 20 --samples 40 --out FILE
    .venv/bin/python -m bench.general_ladder summary --opponent previous --samples 40 --out FILE

    .venv/bin/python -m bench.general_ladder play --opponent previous --games 100 \\
        --samples 0 --budget-s 1.5 --out FILE   # the issue's proof: 1.5 s a move, hours
    .venv/bin/python -m bench.general_ladder play --opponent previous --games 100 \\
        --samples 0 --budget-s 0.1 --cpu --shard 0/2 --out FILE   # equal CPU time, two processes

``previous`` is the frozen former Stark (:mod:`bench.general_previous`), ``mittel`` the
current Mittel.  Both Stark sides search exactly ``--samples`` sampled positions a move
(the effort of the issue's "equal time" made load-independent: on this machine the
new Stark's samples cost about as much as the old one's, see ``speed``), every side
gets a generous safety deadline.  Colours alternate (game i: the new Stark has seat
i % 2); each side draws its own setup from the game seed.  A game still running after
``--max-plies`` is judged by material (``bench.ai_general``).  ``play`` appends one JSON
line per game to ``--out`` and skips games already there, so an interrupted ladder
goes on; the summary (score share of the new Stark, a draw counting half, with a 95 %
Wilson interval) is printed as JSON.

Per game and side it records the failure modes the outside check found: how the game
ended, pieces lost, movable pieces left at the end, Minen struck by pieces that are
no Mineur (``mine_strikes``) and by rank 8 and up (``high_mine_strikes``), and the
Feldmarschall lost to the Spion (``marshal_by_spy``), the fights it started and those it
met as [won, traded, lost], and each Mine strike by a piece
that is no Mineur with its context (``mine_strike_log``: ply, rank, own Mineure and
movable pieces left, enemy pieces never moved).

With ``--cpu`` the budget is CPU time: each side's clock is this process's CPU clock while it
thinks (``time.process_time``), so the load of a shared machine costs neither side anything and
both get exactly the same.  ``--shard i/n`` plays only the games whose index is ``i`` modulo
``n`` (several processes, one ``--out`` each; ``summary`` reads them all).

``speed --samples N``: seconds per move of each player at ``N`` samples over positions
of a few real games (the same positions for both), for the "equal effort" claim.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import ladder_results
from bench.ai_general import ADJUDICATION_MARGIN, wilson_interval
from bench.general_previous import player as previous_player
from services.ai_worker.players import general as new_player
from services.ai_worker.players.general_search import material_balance
from shared.games import get_game
from shared.games.general.pieces import ATTACKER_WINS, BOTH_LOSE, MARSHAL, MINE, MINER, MOVABLE_MAX, SPY, fight
from shared.games.general.state import MOVED, ply_records

GAME = get_game("general")
SAFETY_S = 120.0
MAX_PLIES = 1000
# A player's choose_move: the previous player's module function, the new one's Player method.
ChooseMove = Callable[..., str]
NEW_CHOOSE_MOVE: ChooseMove = new_player.PLAYER.choose_move
# opponent name -> (choose_move, strength)
OPPONENTS: dict[str, tuple[ChooseMove, str]] = {
    "previous": (previous_player.choose_move, "stark"),
    "mittel": (NEW_CHOOSE_MOVE, "mittel"),
}
HIGH_RANK = 8
# The modules whose ``time.monotonic`` is a Stark's clock (the player and its search).
CLOCKED = ("services.ai_worker.players.general", "services.ai_worker.players.general_search",
           "services.ai_worker.players.player",
           "bench.general_previous.player", "bench.general_previous.search")


class _CpuClock:
    monotonic = staticmethod(time.process_time)


def _think(choose_move: ChooseMove, view: dict[str, Any], strength: str, rng: random.Random, samples: int,
           budget_s: float | None, cpu: bool) -> str:
    """One move by ``choose_move``: ``samples`` sampled positions, or (``samples`` 0) until ``budget_s``
    of wall time, or of CPU time with ``cpu``."""
    if not cpu or samples or not budget_s:
        deadline = time.monotonic() + (budget_s if not samples and budget_s else SAFETY_S)
        return choose_move(view, strength, deadline, rng, max_samples=samples or None)
    clocked = [sys.modules[name] for name in CLOCKED if name in sys.modules]
    for mod in clocked:
        mod.time = _CpuClock
    try:
        return choose_move(view, strength, time.process_time() + budget_s, rng, max_samples=None)
    finally:
        for mod in clocked:
            mod.time = time


def side_report(state: Any, seat: int) -> dict[str, Any]:
    """What happened to ``seat``'s army over the game (see the module docstring)."""
    lo = seat * 40
    alive = [state.ranks[p] for p in range(lo, lo + 40) if state.pos[p] >= 0]
    mine_strikes = high_mine_strikes = marshal_by_spy = 0
    # fights this side started / met: [won, traded, lost]
    struck = [0, 0, 0]
    met = [0, 0, 0]
    for mover, _piece, _frm, _to, fight_code, _h in ply_records(state):
        if not fight_code:
            continue
        attacker, defender = divmod(fight_code, 16)
        result = fight(attacker, defender)
        if mover == seat:
            struck[0 if result == ATTACKER_WINS else 1 if result == BOTH_LOSE else 2] += 1
        else:
            met[2 if result == ATTACKER_WINS else 1 if result == BOTH_LOSE else 0] += 1
        if mover == seat and defender == MINE and attacker != MINER:
            mine_strikes += 1
            high_mine_strikes += attacker >= HIGH_RANK
        if mover != seat and attacker == SPY and defender == MARSHAL:
            marshal_by_spy += 1
    return {
        "lost": 40 - len(alive),
        "movable_left": sum(r <= MOVABLE_MAX for r in alive),
        "mine_strikes": mine_strikes,
        "high_mine_strikes": high_mine_strikes,
        "marshal_by_spy": marshal_by_spy,
        "struck_won_traded_lost": struck,
        "met_won_traded_lost": met,
    }


def _strike_context(state: Any, seat: int, ply: int, rank: int) -> list[int]:
    """[ply, striking rank, own Mineure left, own movable pieces, enemy pieces never moved]
    just before ``seat`` struck a Mine."""
    lo, elo = seat * 40, (1 - seat) * 40
    alive = [state.ranks[p] for p in range(lo, lo + 40) if state.pos[p] >= 0]
    unmoved = sum(1 for p in range(elo, elo + 40) if state.pos[p] >= 0 and not state.flags[p] & MOVED)
    return [ply, rank, alive.count(MINER), sum(r <= MOVABLE_MAX for r in alive), unmoved]


def play_game(sides: tuple[tuple[ChooseMove, str], tuple[ChooseMove, str]], seed: int, samples: int,
              max_plies: int = MAX_PLIES, budget_s: float | None = None, cpu: bool = False) -> dict[str, Any]:
    """One game, ``sides[seat]`` = (its choose_move, strength); Stark sides search ``samples``,
    or with ``samples`` 0 until ``budget_s`` after the move was asked for."""
    rng = random.Random(seed)
    state = GAME.new_game({}, seed)
    for seat in (0, 1):
        choose_move, strength = sides[seat]
        while seat in GAME.to_move(state):
            view = GAME.view(state, seat)
            state = GAME.apply(state, choose_move(view, strength, time.monotonic() + SAFETY_S, rng), seat)
    seconds = [0.0, 0.0]
    moves = [0, 0]
    strikes: list[list[list[int]]] = [[], []]
    plies = 0
    while GAME.outcome(state) is None and plies < max_plies:
        seat = GAME.to_move(state)[0]
        choose_move, strength = sides[seat]
        started = time.process_time() if cpu else time.monotonic()
        text = _think(choose_move, GAME.view(state, seat), strength, rng, samples, budget_s, cpu)
        seconds[seat] += (time.process_time() if cpu else time.monotonic()) - started
        moves[seat] += 1
        before = state
        state = GAME.apply(state, text, seat)
        plies += 1
        fight_code = state.plies[4]
        if fight_code and fight_code & 15 == MINE and fight_code >> 4 != MINER:
            strikes[seat].append(_strike_context(before, seat, plies, fight_code >> 4))
    outcome = GAME.outcome(state)
    if outcome is None:
        margin = material_balance(state, 0)
        winner = 0 if margin >= ADJUDICATION_MARGIN else 1 if margin <= -ADJUDICATION_MARGIN else None
        reason = "adjudicated"
    else:
        winner, reason = outcome.winner, outcome.reason
    return {
        "winner": winner,
        "reason": reason,
        "plies": plies,
        "sides": [{**side_report(state, seat), "mine_strike_log": strikes[seat]} for seat in (0, 1)],
        "last_move": GAME.history(state)[-1] if plies else None,
        "seconds_per_move": [round(seconds[s] / moves[s], 4) if moves[s] else None for s in (0, 1)],
    }


def _row(opponent: str, index: int, samples: int, max_plies: int, budget_s: float | None,
         cpu: bool = False) -> dict[str, Any]:
    new_seat = index % 2
    sides = [OPPONENTS[opponent], OPPONENTS[opponent]]
    sides[new_seat] = (NEW_CHOOSE_MOVE, "stark")
    started = time.monotonic()
    result = play_game((sides[0], sides[1]), 5000 + index, samples, max_plies, budget_s, cpu)
    return {"opponent": opponent, "samples": samples, "budget_s": None if samples else budget_s,
            "cpu": bool(cpu and not samples), "index": index, "new_seat": new_seat, **result,
            "seconds": round(time.monotonic() - started, 1)}


def read_rows(out: Path | list[Path], opponent: str, samples: int, budget_s: float | None = None,
              cpu: bool = False) -> list[dict[str, Any]]:
    """The games of one pairing and effort in ``out`` (one file or several)."""
    def same(r: dict[str, Any]) -> bool:
        return (r["opponent"] == opponent and r["samples"] == samples
                and (samples or (r.get("budget_s") == budget_s and r.get("cpu", False) == cpu)))

    rows = []
    for path in out if isinstance(out, list) else [out]:
        rows.extend(ladder_results.read_rows(path, same))
    return rows


def _mean(rows: list[dict[str, Any]], who: str, key: str) -> float | None:
    values = [r["sides"][r["new_seat"] if who == "new" else 1 - r["new_seat"]][key] for r in rows]
    return round(statistics.fmean(values), 2) if values else None


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    score, wins, draws = ladder_results.tally(rows, lambda r: r["new_seat"])
    reasons: dict[str, int] = {}
    for r in rows:
        who = "draw" if r["winner"] is None else "new" if r["winner"] == r["new_seat"] else "opponent"
        key = f"{who}:{r['reason']}"
        reasons[key] = reasons.get(key, 0) + 1
    first = rows[0] if rows else {}
    sides = ("lost", "movable_left", "mine_strikes", "high_mine_strikes", "marshal_by_spy")
    return {
        "opponent": first.get("opponent"),
        "samples_per_move": first.get("samples"),
        "games": len(rows),
        "new_score_share": round(score / len(rows), 3) if rows else None,
        "wilson_95": list(wilson_interval(score, len(rows))),
        "wins_draws_losses": [wins, draws, len(rows) - wins - draws],
        "endings": dict(sorted(reasons.items())),
        "mean_plies": round(statistics.fmean(r["plies"] for r in rows), 1) if rows else None,
        "new_per_game": {k: _mean(rows, "new", k) for k in sides},
        "opponent_per_game": {k: _mean(rows, "opponent", k) for k in sides},
    }


def play(opponent: str, games: int, samples: int, out: Path, max_plies: int,
         budget_s: float | None = None, cpu: bool = False, shard: tuple[int, int] = (0, 1)) -> dict[str, Any]:
    done = {r["index"] for r in read_rows(out, opponent, samples, budget_s, cpu)}
    with out.open("a") as sink:
        for index in range(games):
            if index in done or index % shard[1] != shard[0]:
                continue
            row = _row(opponent, index, samples, max_plies, budget_s, cpu)
            sink.write(json.dumps(row) + "\n")
            sink.flush()
            print(f"game {index}: winner {row['winner']} (new seat {row['new_seat']}) {row['reason']} "
                  f"{row['plies']} plies {row['seconds']} s", file=sys.stderr, flush=True)
    rows = [r for r in read_rows(out, opponent, samples, budget_s, cpu) if r["index"] < games]
    return summary(sorted(rows, key=lambda r: r["index"]))


def speed(samples: int, positions: int = 12, seed: int = 3) -> dict[str, Any]:
    """Seconds per move of the new and the previous Stark at ``samples`` on the same
    positions (every 20th ply of Mittel games), measured in turn in this process."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"new": [], "previous": []}
    game_seed = seed
    taken = 0
    while taken < positions:
        state = GAME.new_game({}, game_seed)
        game_seed += 1
        for seat in (0, 1):
            while seat in GAME.to_move(state):
                state = GAME.apply(state, NEW_CHOOSE_MOVE(GAME.view(state, seat), "mittel",
                                                          time.monotonic() + SAFETY_S, rng), seat)
        ply = 0
        while GAME.outcome(state) is None and taken < positions and ply < 400:
            seat = GAME.to_move(state)[0]
            view = GAME.view(state, seat)
            if ply % 20 == 10:
                for name, choose_move in (("new", NEW_CHOOSE_MOVE), ("previous", previous_player.choose_move)):
                    started = time.monotonic()
                    choose_move(view, "stark", started + SAFETY_S, random.Random(ply), max_samples=samples)
                    times[name].append(time.monotonic() - started)
                taken += 1
            state = GAME.apply(state, NEW_CHOOSE_MOVE(view, "mittel", time.monotonic() + SAFETY_S, rng), seat)
            ply += 1
    return {
        "samples": samples,
        "positions": taken,
        "new_s_per_move": round(statistics.fmean(times["new"]), 4),
        "previous_s_per_move": round(statistics.fmean(times["previous"]), 4),
        "new_over_previous": round(sum(times["new"]) / sum(times["previous"]), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("play", "summary"):
        cmd = sub.add_parser(name)
        cmd.add_argument("--opponent", choices=sorted(OPPONENTS), default="previous")
        cmd.add_argument("--games", type=int, default=100)
        cmd.add_argument("--samples", type=int, default=40)
        cmd.add_argument("--out", type=Path, required=True, nargs="+" if name == "summary" else None)
        cmd.add_argument("--max-plies", type=int, default=MAX_PLIES)
        cmd.add_argument("--budget-s", type=float, default=None,
                         help="with --samples 0: each side thinks this long a move (the issue's 1.5 s)")
        cmd.add_argument("--cpu", action="store_true", help="--budget-s is CPU time of this process, not wall time")
    sub.choices["play"].add_argument("--shard", default="0/1", help="i/n: only the games whose index is i modulo n")
    fast = sub.add_parser("speed")
    fast.add_argument("--samples", type=int, default=40)
    fast.add_argument("--positions", type=int, default=12)
    args = parser.parse_args()
    if args.command == "play":
        shard = tuple(int(part) for part in args.shard.split("/"))
        result = play(args.opponent, args.games, args.samples, args.out, args.max_plies, args.budget_s, args.cpu,
                      (shard[0], shard[1]))
    elif args.command == "summary":
        rows = [r for r in read_rows(args.out, args.opponent, args.samples, args.budget_s, args.cpu)
                if r["index"] < args.games]
        result = summary(sorted(rows, key=lambda r: r["index"]))
    else:
        result = speed(args.samples, args.positions)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
