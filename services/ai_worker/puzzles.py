"""The batch job that makes the Aufgaben of Battlehexagon, Battlebullet and Battlegeneral.

    python -m services.ai_worker.puzzles --game hexagon --count 300 [--seed 1] [--merge] [--out FILE]

and the Celery task ``ai.puzzles`` (queue ``batch``) with the same arguments, which
writes the same file.  ``--merge`` adds ``count`` new puzzles to the stored file and
changes none of its puzzles (a new seed: by default the one after the file's runs);
without it the file is made anew from the seed.

It plays computer-against-computer games (Stark at a fixed node or sample limit, the
first few plies at random from the seed's rng so that the games differ) and looks at
every position from :data:`MIN_PLY` on: a position where one move is clearly best at
the review effort and again at the deeper check effort is a candidate, its line
extended while it stays forced (:mod:`shared.puzzles.finder`).  Battlegeneral's
positions are judged from the solver's knowledge only (:mod:`shared.puzzles.general_sure`).
Of a game's candidates :func:`select` keeps the longest lines first and those with a
theme before plain ones: at most :data:`PER_GAME` per game, at least :data:`SPACING`
plies apart, at most :data:`SINGLE_PER_GAME` of one move and :data:`PLAIN_PER_GAME`
without a theme; a position (board and side to move) serves one puzzle only.  A
puzzle's id is :func:`shared.puzzles.catalog.stable_id`, never its place.  Every effort
is a depth or a sample count, never a clock: the same seed writes the same file on
every machine.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any

from services.ai_worker.app import app
from shared.games import get_game
from shared.puzzles import catalog, finder, general_sure, themes
from shared.puzzles.finder import Efforts, Values

MIN_PLY = 8  # openings are alike: puzzles from the middle game on
PER_GAME = 4
SINGLE_PER_GAME = 2  # puzzles of one solver move per source game (a source may allow fewer)
PLAIN_PER_GAME = 1  # puzzles with no theme but their length per source game
SPACING = 6  # plies between two puzzles of one game
OPENING_RANDOM = 4  # random plies at the start of each source game
MAX_PLIES = 300
NO_DEADLINE = float("inf")


class Source(ABC):
    """One game's search, its source-game player and its puzzle parameters."""

    name: str
    efforts: Efforts
    options_cycle: tuple[dict[str, Any], ...]
    opening_plies = OPENING_RANDOM  # plies :meth:`opening` plays
    single_per_game = SINGLE_PER_GAME

    def __init__(self) -> None:
        self.engine = get_game(self.name)

    @abstractmethod
    def values(self, state: Any, effort: int) -> Values:
        """Every legal move with its value at ``effort``, best first."""

    def judge(self, state: Any) -> tuple[str, Values] | None:
        """The clearly best move (at the review and the check effort) and its values."""
        return finder.judge(state, self.values, self.efforts)

    def follow(self, state: Any) -> tuple[str, Values] | None:
        """The same for a later solver move of the line (the follow gap)."""
        return finder.judge(state, self.values, self.efforts, follow=True)

    def reply(self, state: Any) -> str:
        """The computer's best reply: the first of the values at the check effort."""
        return self.values(state, self.efforts.deep)[0][0]

    @abstractmethod
    def play(self, state: Any, rng: random.Random) -> str:
        """The source game's next move, as text."""

    def advance(self, state: Any, rng: random.Random) -> Any:
        """The source game's next move played."""
        return self.engine.apply(state, self.play(state, rng))

    def opening(self, state: Any, rng: random.Random) -> Any:
        """The first :data:`OPENING_RANDOM` plies at random, so that the games differ."""
        for _ in range(OPENING_RANDOM):
            if self.engine.outcome(state) is not None:
                break
            state = self.engine.apply(state, rng.choice(self.engine.legal_moves(state)).text)
        return state

    def key(self, state: Any) -> str:
        """Board and side to move (counters left out): the duplicate check."""
        return " ".join(self.engine.to_position(state).split()[:2])

    def public_key(self, state: Any) -> str:
        """What the solver sees of the position (for the puzzle's id): here everything."""
        return self.key(state)

    def bare(self, state: Any, options: dict[str, Any]) -> Any:
        """The position without its history: what the puzzle starts from."""
        return self.engine.from_position(self.engine.to_position(state), options)


class HexagonSource(Source):
    name = "hexagon"
    # Depth 2 (own move and reply) for the review, 4 for the check; gap: three cells,
    # the review's "red" line.
    efforts = Efforts(review=2, deep=4, ladder=(1, 2), gap=3.0, follow_gap=2.0)
    options_cycle = tuple({"map": m, "end_rule": "auffuellen"}
                          for m in ("klassisch", "dreiloch", "krater", "burggraben", "saeulen"))
    PLAY_NODES = 3000
    single_per_game = 1  # forced lines are rare here: one single-move puzzle per game leaves room for them

    def __init__(self) -> None:
        super().__init__()
        from services.ai_worker.players import hexagon

        self.player = hexagon

    def values(self, state: Any, effort: int) -> Values:
        from services.ai_worker.players.hexagon import HexagonRules
        from services.ai_worker.players.search import AlphaBeta
        from shared.games.hexagon.notation import move_text

        rules = HexagonRules(state.setup.passes)
        search = AlphaBeta(rules, NO_DEADLINE, None, None)
        rows = search.root_values((state.me, state.opp, state.empty, state.clock), effort)
        return [(move_text(m), round(float(v), 3)) for m, v in rows]

    def play(self, state: Any, rng: random.Random) -> str:
        view = self.engine.view(state, state.side)
        return self.player.PLAYER.choose_move(view, "stark", NO_DEADLINE, rng, node_limit=self.PLAY_NODES)


class BulletSource(Source):
    """Battlebullet: Stark's search, judging and playing with the hand-set weights
    (``bullet_search.HAND_SET_WEIGHTS``), not Stark's own: what a stored solution is must not
    change when Stark is tuned again (the files were made with these)."""

    name = "bullet"
    efforts = Efforts(review=2, deep=4, ladder=(1, 2), gap=1.0)
    options_cycle = tuple({"layout": layout, "win_target": 6, "move_limit": None}
                          for layout in ("standard", "belgisch", "deutsch"))
    PLAY_NODES = 2000

    def __init__(self) -> None:
        super().__init__()
        from services.ai_worker.players import bullet

        self.player = bullet

    def values(self, state: Any, effort: int) -> Values:
        from services.ai_worker.players import bullet_search
        from shared.games.bullet.movegen import TEXT

        rows, _ctx = bullet_search.stark_values(bullet_search.make_root(state, frozenset()), effort, NO_DEADLINE, None,
                                                bullet_search.HAND_SET_WEIGHTS)
        return [(TEXT[m], round(float(v), 3)) for m, v in rows]

    def play(self, state: Any, rng: random.Random) -> str:
        from services.ai_worker.players import bullet_search

        view = self.engine.view(state, state.side)
        return self.player.PLAYER.choose_move(view, "stark", NO_DEADLINE, rng, node_limit=self.PLAY_NODES,
                                              weights=bullet_search.HAND_SET_WEIGHTS)


class GeneralSource(Source):
    """Battlegeneral: the review effort is :mod:`shared.puzzles.general_sure` (the
    solver's move better than every other in every world the solver cannot tell
    apart); the check effort is Stark's sampled search, which must rank it first too."""

    name = "general"
    # review=0 stands for the sure rule (no samples); deep and the ladder are Stark's sample counts.
    efforts = Efforts(review=0, deep=16, ladder=(1, 4), gap=general_sure.GAP)
    options_cycle = ({"max_quiet_moves": 200},)
    opening_plies = 0  # the setup phase only
    PLAY_SAMPLES = 3

    def __init__(self) -> None:
        super().__init__()
        from services.ai_worker.players import general

        self.player = general

    def judge(self, state: Any) -> tuple[str, Values] | None:
        seat = self.engine.to_move(state)
        if len(seat) != 1:
            return None
        view = self.engine.view(state, seat[0])
        if view["phase"] != "play":
            return None
        moves = [m["text"] for m in view["legal_moves"]]
        sure = general_sure.sure_best(general_sure.knowledge(view), moves)
        if sure is None:
            return None
        best, rows = sure
        if self.values(state, self.efforts.deep)[0][0] != best:
            return None
        return best, [(rows[0].move, rows[0].lo)] + [(b.move, b.hi) for b in rows[1:]]

    def follow(self, state: Any) -> tuple[str, Values] | None:
        """A later solver move: the same sure rule."""
        return self.judge(state)

    def public_key(self, state: Any) -> str:
        """The solver's view of the board (hidden ranks left out: the id reaches the browser,
        and a hash of the full position would let a client test guesses against it)."""
        seat = self.engine.to_move(state)[0]
        view = self.engine.view(state, seat)
        pieces = sorted((p["owner"], p["square"], p["moved"], p["scouted"], p["revealed"], p["rank"])
                        for p in view["pieces"] if p["square"] is not None)
        captured = [sorted(str(c["rank"]) for c in side) for side in view["captured"]]
        return json.dumps([seat, pieces, captured], separators=(",", ":"))

    def values(self, state: Any, effort: int) -> Values:
        """Stark's sampled values (``effort`` samples, seeded from the view), best first."""
        seat = self.engine.to_move(state)[0]
        view = self.engine.view(state, seat)
        rows = self.player.analyse(view, NO_DEADLINE, random.Random(0), limit=10_000, max_samples=effort)
        return [(text, float(value)) for text, value in rows]

    def reply(self, state: Any) -> str:
        seat = self.engine.to_move(state)[0]
        view = self.engine.view(state, seat)
        return self.player.PLAYER.choose_move(view, "stark", NO_DEADLINE, random.Random(self.player.view_seed(view)),
                                              max_samples=self.efforts.deep)

    def opening(self, state: Any, rng: random.Random) -> Any:
        """The setup phase: each side a random computer setup (mirrored half of the time)."""
        while self.engine.outcome(state) is None and len(self.engine.to_move(state)) == 2:
            for seat in (0, 1):
                if seat in self.engine.to_move(state):
                    view = self.engine.view(state, seat)
                    state = self.engine.apply(state, self.player.PLAYER.choose_move(view, "stark", NO_DEADLINE, rng), seat)
        return state

    def play(self, state: Any, rng: random.Random) -> str:
        view = self.engine.view(state, self.engine.to_move(state)[0])
        return self.player.PLAYER.choose_move(view, "stark", NO_DEADLINE, rng, max_samples=self.PLAY_SAMPLES)

    def advance(self, state: Any, rng: random.Random) -> Any:
        """The engine applies a Battlegeneral move for the seat that makes it."""
        return self.engine.apply(state, self.play(state, rng), self.engine.to_move(state)[0])


SOURCES: dict[str, Callable[[], Source]] = {"hexagon": HexagonSource, "bullet": BulletSource,
                                            "general": GeneralSource}


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def parameters(source: Source) -> dict[str, Any]:
    """The generator's parameters, stored in the file's head."""
    return {"review_effort": source.efforts.review, "deep_effort": source.efforts.deep,
            "ladder": list(source.efforts.ladder), "gap": source.efforts.gap,
            "max_solver_moves": source.efforts.max_solver_moves, "min_ply": MIN_PLY, "per_game": PER_GAME,
            "single_per_game": source.single_per_game, "follow_gap": source.efforts.gap_at(True),
            "plain_per_game": PLAIN_PER_GAME, "spacing": SPACING, "opening_random": OPENING_RANDOM,
            "options_cycle": list(source.options_cycle)}


def command(game: str, count: int, seed: int, merge: bool) -> str:
    return f"python -m services.ai_worker.puzzles --game {game} --count {count} --seed {seed}" + \
        (" --merge" if merge else "")


def make_puzzles(game: str, count: int, seed: int = 1, log: Callable[[str], None] = print,
                 max_games: int = 10_000, existing: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play source games until ``count`` new puzzles are found (see the module docstring).
    ``existing``: a stored file's data to add to (merge): its puzzles stay as they are and
    first, no new puzzle repeats one of their positions or ids, and the new ones follow."""
    source = SOURCES[game]()
    engine = source.engine
    kept = list(existing["puzzles"]) if existing else []
    seen = finder.Seen([source.key(catalog.state(catalog.Puzzle.from_dict(p))) for p in kept])
    ids = {p["id"] for p in kept}
    added: list[dict[str, Any]] = []
    for index in range(max_games):
        if len(added) >= count:
            break
        gseed = game_seed(seed, index)
        options = engine.normalize_options(source.options_cycle[index % len(source.options_cycle)])
        rng = random.Random(gseed)
        state = source.opening(engine.new_game(options, gseed), rng)
        candidates: list[tuple[int, str, dict[str, Any]]] = []
        for ply in range(source.opening_plies, MAX_PLIES):
            if engine.outcome(state) is not None:
                break
            if ply >= MIN_PLY:
                found = _puzzle_at(source, state, options, seen, {"seed": seed, "game": gseed, "ply": ply})
                if found is not None and found[1]["id"] not in ids and all(
                        found[0] != c[1] and found[1]["id"] != c[2]["id"] for c in candidates):
                    candidates.append((ply, *found))
            state = source.advance(state, rng)
        for ply, key, found in select(candidates, source.single_per_game)[: count - len(added)]:
            seen.add(key)
            ids.add(found["id"])
            added.append(found)
            log(f"{found['id']}: game {index} ply {ply} {found['solution']} {found['themes']} {found['rating']}")
    run = {"command": command(game, count, seed, existing is not None), "seed": seed, "count": count,
           "added": len(added)}
    if existing:
        return {**{k: v for k, v in existing.items() if k != "puzzles"},
                "parameters": parameters(source), "runs": [*existing.get("runs", []), run],
                "puzzles": kept + added}
    return {"generated_by": command(game, count, seed, False), "parameters": {"seed": seed, "count": count,
                                                                              **parameters(source)},
            "runs": [run], "puzzles": added}


def _plain(puzzle: dict[str, Any]) -> bool:
    """No theme beyond the line's length."""
    return set(puzzle["themes"]) <= {"einzuegig", "mehrzuegig"}


def select(candidates: list[tuple[int, str, dict[str, Any]]],
           single_per_game: int = SINGLE_PER_GAME) -> list[tuple[int, str, dict[str, Any]]]:
    """The puzzles one source game gives (in ply order), from every position that was one:
    the longest forced lines first, then those with a theme, then the earliest; at most
    :data:`PER_GAME`, :data:`SPACING` plies apart, at most ``single_per_game`` of one
    solver move and :data:`PLAIN_PER_GAME` without a theme."""
    chosen: list[tuple[int, str, dict[str, Any]]] = []
    singles = plain = 0
    for candidate in sorted(candidates, key=lambda c: (-len(c[2]["solution"]), _plain(c[2]), c[0])):
        ply, _key, puzzle = candidate
        single = len(puzzle["solution"]) == 1
        if len(chosen) >= PER_GAME or any(abs(ply - c[0]) < SPACING for c in chosen):
            continue
        if (single and singles >= single_per_game) or (_plain(puzzle) and plain >= PLAIN_PER_GAME):
            continue
        chosen.append(candidate)
        singles += single
        plain += _plain(puzzle)
    return sorted(chosen, key=lambda c: c[0])


def _puzzle_at(source: Source, state: Any, options: dict[str, Any], seen: finder.Seen,
               origin: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The position's duplicate key and its puzzle, or None (too easy, unclear, or a position
    that already serves one)."""
    engine = source.engine
    bare = source.bare(state, options)
    if len(engine.legal_moves(bare)) < 2:
        return None  # too easy
    key = source.key(bare)
    if key in seen.keys:
        return None
    line = finder.forced_line(engine, bare, source.judge, source.reply, source.efforts.max_solver_moves,
                              source.follow)
    if line is None:
        return None
    seat = engine.to_move(bare)[0]
    rung = finder.rung_needed(bare, source.values, source.efforts, line.moves[0])
    derived = themes.derive(source.name, engine, bare, line.moves, seat)
    puzzle = catalog.Puzzle(
        id=catalog.stable_id(source.name, source.public_key(bare)), game=source.name,
        options=dict(options), position=engine.to_json(bare), seat=seat, solution=line.moves,
        themes=derived.themes, task=derived.task,
        rating=finder.initial_rating(rung, (len(line.moves) + 1) // 2, len(engine.legal_moves(bare))), source=origin)
    return key, puzzle.to_dict()


def write(data: dict[str, Any], out: Path) -> None:
    """The file as JSON with one puzzle per line (short diffs, no page per position)."""
    head = {k: v for k, v in data.items() if k != "puzzles"}
    lines = [json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "puzzles": [']
    rows = [json.dumps(p, ensure_ascii=False, separators=(",", ":")) for p in data["puzzles"]]
    lines.append(",\n".join(rows))
    lines.append("]}")
    out.parent.mkdir(parents=True, exist_ok=True)
    part = out.with_name(out.name + ".part")  # renamed when complete: a reader never sees half a file
    part.write_text("\n".join(lines) + "\n", encoding="utf-8")
    part.replace(out)


def read(path: Path) -> dict[str, Any] | None:
    """A stored file's data, or None when there is none."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def next_seed(data: dict[str, Any] | None) -> int:
    """The seed after every run's of a file (1 for a new file)."""
    return max((int(r["seed"]) for r in (data or {}).get("runs", [])), default=0) + 1


def check_writable(out: Path) -> None:
    """Raise before the work, not after it: a run takes tens of minutes, and in the image the
    default file (the shipped catalogue) is read-only, so ``ai.puzzles`` without ``out``
    would compute everything and then fail to write it."""
    probe = out.with_name(out.name + ".part")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        probe.touch()
        probe.unlink()
    except OSError as exc:
        raise PermissionError(
            f"cannot write {out} ({exc.strerror or exc}): give --out (ai.puzzles: out=) a writable file, "
            "e.g. on the CronJob's volume /catalogue; the image's own catalogue is read-only") from exc


def run(game: str, count: int, seed: int | None = None, out: str | None = None, merge: bool = False) -> int:
    """Make and write the file; returns the number of puzzles made.  ``merge``: add them to the
    stored file (its puzzles unchanged); without a seed, the one after its runs'."""
    path = Path(out) if out else catalog.data_file(game)
    check_writable(path)
    existing = read(path) if merge else None
    if seed is None:
        seed = next_seed(existing)
    data = make_puzzles(game, count, seed, existing=existing)
    write(data, path)
    return int(data["runs"][-1]["added"])


# A full file is a batch job of minutes; the limit only ends a stuck run, and stays under
# the broker's visibility timeout so that a running task is not handed out twice.
TASK_TIME_LIMIT = 3000


@app.task(name="ai.puzzles", ignore_result=True, soft_time_limit=TASK_TIME_LIMIT, time_limit=TASK_TIME_LIMIT + 300)
def puzzles_task(game: str, count: int = 300, seed: int | None = None, out: str | None = None,
                 merge: bool = True) -> int:
    """``ai.puzzles`` (queue ``batch``): the same as the command, for ops to schedule; by default
    it adds ``count`` puzzles with the next seed to the file (merge), so a scheduled run never
    moves a stored puzzle.  In the image the default file is read-only: give ``out`` (the run
    refuses at once otherwise, :func:`check_writable`)."""
    return run(game, count, seed, out, merge)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m services.ai_worker.puzzles",
                                     description="Aufgaben aus Computerpartien / puzzles from computer games")
    parser.add_argument("--game", required=True, choices=sorted(SOURCES))
    parser.add_argument("--summary", action="store_true",
                        help="nur zählen / only print the stored file's count, ratings and themes")
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=None,
                        help="default: 1, with --merge the one after the file's runs")
    parser.add_argument("--merge", action="store_true",
                        help="zum Katalog hinzufügen / add to the stored file, its puzzles unchanged")
    parser.add_argument("--out", default=None, help="default: shared/data/puzzles/<game>.json")
    args = parser.parse_args(argv)
    if args.summary:
        print(json.dumps(catalog.summary(catalog.load(args.game)), ensure_ascii=False))
        return 0
    made = run(args.game, args.count, args.seed if args.seed is not None or args.merge else 1, args.out, args.merge)
    print(f"{made} puzzles / Aufgaben", flush=True)
    return 0 if made >= args.count else 1


if __name__ == "__main__":
    sys.exit(main())
