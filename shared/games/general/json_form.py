"""The full state as JSON (server side only: it holds every hidden rank).

Keys: ``v`` (format 1), ``options``, ``seed``, ``phase`` (``"setup"``/``"play"``),
``setups`` (per seat a list of ``[square, rank]``), ``ready``, ``setup_log``
(``[seat, text]``), ``pos``, ``ranks``, ``flags`` (80 ints each, see :mod:`.state`),
``to_move``, ``quiet``, ``ply``, ``hash``, ``plies`` (oldest first,
``[mover, piece, from, to, fight, hash_after]``), ``streaks``, ``start``, ``outcome``.
Only str/int/bool/list/dict/None; ``from_json(to_json(s))`` gives an equal state and
the same JSON.
"""

from __future__ import annotations

from typing import Any

from shared.games.base import BadNotation, Outcome
from shared.games.general.board import LAKES
from shared.games.general.pieces import ARMY
from shared.games.general.state import PIECES, PLAY, SETUP, State, board_from_pos, ply_records, position_hash


def to_json(st: State) -> dict[str, Any]:
    return {
        "v": 1,
        "options": dict(st.options),
        "seed": st.seed,
        "phase": "play" if st.phase == PLAY else "setup",
        "setups": [[[sq, rank] for sq, rank in sorted(setup.items())] for setup in st.setups],
        "ready": list(st.ready),
        "setup_log": [[seat, text] for seat, text in st.setup_log],
        "pos": list(st.pos),
        "ranks": list(st.ranks),
        "flags": list(st.flags),
        "to_move": st.to_move,
        "quiet": st.quiet,
        "ply": st.ply,
        "hash": st.hash,
        "plies": [list(record) for record in ply_records(st)],
        "streaks": [list(streak) for streak in st.streaks],
        "start": st.start,
        "outcome": st.outcome.to_dict() if st.outcome is not None else None,
    }


def _bad(detail: str) -> BadNotation:
    return BadNotation("bad_json", f"Ungültiger Spielstand (JSON): {detail}", f"Invalid game state (JSON): {detail}")


def from_json(data: dict[str, Any]) -> State:
    try:
        st = _build(data)
    except BadNotation:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise _bad(type(exc).__name__) from None
    if to_json(st) != data:
        raise _bad("not in canonical form")
    return st


def _build(data: dict[str, Any]) -> State:
    if data["v"] != 1:
        raise _bad("version")
    st = State.__new__(State)
    st.options = dict(data["options"])
    if not isinstance(st.options.get("max_quiet_moves"), int):
        raise _bad("options")
    st.seed = int(data["seed"])
    st.phase = {"setup": SETUP, "play": PLAY}[data["phase"]]
    st.setups = tuple({int(sq): int(rank) for sq, rank in setup} for setup in data["setups"])  # type: ignore[assignment]
    st.ready = tuple(bool(r) for r in data["ready"])  # type: ignore[assignment]
    st.setup_log = tuple((int(seat), str(text)) for seat, text in data["setup_log"])
    st.pos = [int(p) for p in data["pos"]]
    st.ranks = tuple(int(r) for r in data["ranks"])
    st.flags = [int(f) for f in data["flags"]]
    if len(st.setups) != 2 or len(st.ready) != 2 or len(st.pos) != PIECES or len(st.ranks) != PIECES or len(st.flags) != PIECES:
        raise _bad("lengths")
    if st.phase == PLAY:
        for seat in (0, 1):
            counts: dict[int, int] = {}
            for rank in st.ranks[seat * 40 : seat * 40 + 40]:
                counts[rank] = counts.get(rank, 0) + 1
            if counts != ARMY:
                raise _bad("army")
        on_board = [p for p in st.pos if p >= 0]
        if len(set(on_board)) != len(on_board) or any(p > 99 or p in LAKES for p in on_board):
            raise _bad("squares")
    st.board = board_from_pos(st.pos) if st.phase == PLAY else [0] * 100
    st.to_move = int(data["to_move"])
    st.quiet = int(data["quiet"])
    st.ply = int(data["ply"])
    st.hash = int(data["hash"])
    if st.phase == PLAY and st.hash != position_hash(st.pos, st.to_move):
        raise _bad("hash")
    node = None
    for record in data["plies"]:
        mover, piece, frm, to, fight, key = (int(x) for x in record)
        node = (mover, piece, frm, to, fight, key, node)
    st.plies = node
    st.streaks = tuple(tuple(int(x) for x in streak) for streak in data["streaks"])  # type: ignore[assignment]
    if len(st.streaks) != 2 or any(len(s) != 4 for s in st.streaks):
        raise _bad("streaks")
    st.start = str(data["start"])
    outcome = data["outcome"]
    st.outcome = None
    if outcome is not None:
        score = outcome.get("score")
        st.outcome = Outcome(
            outcome["winner"], outcome["reason"], outcome["de"], outcome["en"], tuple(score) if score is not None else None
        )
    return st
