"""The setup phase: both seats place their 40 pieces at the same time.

Setup moves (text, German keywords, any case):

* ``setze a1 10`` — place a rank (token ``S``, ``2``…``10``, ``B``, ``F``) on an
  empty square of your half (Red ranks 1–4, Blue 7–10).
* ``entferne a1`` — take your piece off that square.
* ``aufstellung <Name>`` / ``aufstellung <Name> gespiegelt`` — replace the whole
  setup by a preset (:mod:`.setups`), optionally mirrored left to right.
* ``spiegeln`` — mirror the current setup left to right.
* ``fertig`` — done; only with all 40 pieces placed.  A ready seat makes no more
  setup moves.  When both are ready, play begins (ids handed out in square order).

Internal forms: ``("setze", square, rank)``, ``("entferne", square)``,
``("aufstellung", name, mirrored)``, ``("spiegeln",)``, ``("fertig",)``.

Click to place: :func:`next_piece` is the highest-ranked piece not yet placed in the
order Feldmarschall, General, … Aufklärer, Spion, then Minen, the Fahne last
(:data:`.pieces.PLACEMENT_ORDER`).
"""

from __future__ import annotations

from typing import Any

from shared.games.base import BadNotation, IllegalMove
from shared.games.general.board import LAKES, mirror_square, parse_square, setup_half, square_name
from shared.games.general.pieces import ARMY, ARMY_SIZE, NAMES, PLACEMENT_ORDER, TOKENS, parse_rank_token
from shared.games.general.setups import PRESET_NAMES, preset_name, preset_squares
from shared.games.general.state import State

SetupMove = tuple[Any, ...]


def _illegal(code: str, de: str, en: str) -> IllegalMove:
    return IllegalMove(code, de, en)


def parse_setup_text(text: str) -> SetupMove | None:
    """Setup text → internal form; None if the text is not a setup move at all.
    Raises :class:`BadNotation` for a setup keyword with bad arguments."""
    words = text.split() if isinstance(text, str) else []
    if not words:
        return None
    keyword = words[0].lower()
    if keyword == "setze":
        square = parse_square(words[1]) if len(words) == 3 else None
        rank = parse_rank_token(words[2]) if len(words) == 3 else None
        if square is None or rank is None:
            raise BadNotation("bad_notation", "So: setze a1 10 (Feld, dann Rang S, 2–10, B, F)", "Like this: setze a1 10 (square, then rank S, 2–10, B, F)")
        return ("setze", square, rank)
    if keyword == "entferne":
        square = parse_square(words[1]) if len(words) == 2 else None
        if square is None:
            raise BadNotation("bad_notation", "So: entferne a1", "Like this: entferne a1")
        return ("entferne", square)
    if keyword == "aufstellung":
        mirrored = len(words) > 2 and words[-1].lower() == "gespiegelt"
        name = preset_name(" ".join(words[1 : len(words) - 1 if mirrored else len(words)]))
        if name is None:
            raise BadNotation(
                "unknown_setup",
                "Unbekannte Aufstellung; es gibt: " + ", ".join(PRESET_NAMES),
                "Unknown setup; there are: " + ", ".join(PRESET_NAMES),
            )
        return ("aufstellung", name, mirrored)
    if keyword in ("spiegeln", "fertig") and len(words) == 1:
        return (keyword,)
    return None


def setup_text(move: SetupMove) -> str:
    kind = move[0]
    if kind == "setze":
        return f"setze {square_name(move[1])} {TOKENS[move[2]]}"
    if kind == "entferne":
        return f"entferne {square_name(move[1])}"
    if kind == "aufstellung":
        return f"aufstellung {move[1]}" + (" gespiegelt" if move[2] else "")
    return kind


def remaining(placed: dict[int, int]) -> dict[int, int]:
    """Rank → how many of it are still to be placed."""
    left = dict(ARMY)
    for rank in placed.values():
        left[rank] -= 1
    return left


def next_piece(placed: dict[int, int]) -> int | None:
    """The rank a click on an empty square places next, or None when all 40 stand."""
    left = remaining(placed)
    for rank in PLACEMENT_ORDER:
        if left[rank] > 0:
            return rank
    return None


def check_setup_move(st: State, seat: int, move: SetupMove) -> None:
    """Raise :class:`IllegalMove` with the reason if ``seat`` may not make ``move``."""
    if st.ready[seat]:
        raise _illegal("already_ready", "Deine Aufstellung ist schon fertig", "Your setup is already done")
    placed = st.setups[seat]
    kind = move[0]
    if kind in ("setze", "entferne"):
        square = move[1]
        if square in LAKES:
            raise _illegal("lake", "Das Feld ist ein See", "That square is a lake")
        if square not in setup_half(seat):
            raise _illegal("wrong_half", "Das Feld liegt nicht in deiner Bretthälfte", "That square is not in your half")
        if kind == "entferne":
            if square not in placed:
                raise _illegal("no_own_piece", "Auf dem Feld steht keine eigene Figur", "There is no piece of yours on that square")
            return
        if square in placed:
            raise _illegal("occupied", "Das Feld ist nicht frei", "The square is not empty")
        rank = move[2]
        if remaining(placed)[rank] <= 0:
            raise _illegal(
                "none_left",
                f"Alle {NAMES[rank][0]} (×{ARMY[rank]}) stehen schon",
                f"All {NAMES[rank][1]} pieces (×{ARMY[rank]}) are already placed",
            )
    elif kind == "fertig":
        if len(placed) != ARMY_SIZE:
            raise _illegal(
                "setup_incomplete",
                f"Es stehen erst {len(placed)} von 40 Figuren",
                f"Only {len(placed)} of 40 pieces are placed",
            )


def apply_setup(st: State, seat: int, move: SetupMove) -> State:
    """The state after a checked setup move (play begins when both are ready)."""
    from shared.games.general.creation import begin_play  # creation builds on notation and moves

    kind = move[0]
    placed = dict(st.setups[seat])
    ready = list(st.ready)
    if kind == "setze":
        placed[move[1]] = move[2]
    elif kind == "entferne":
        del placed[move[1]]
    elif kind == "aufstellung":
        placed = preset_squares(move[1], seat, move[2])
    elif kind == "spiegeln":
        placed = {mirror_square(square): rank for square, rank in placed.items()}
    else:
        ready[seat] = True
    new = st.copy()
    new.setups = (placed, st.setups[1]) if seat == 0 else (st.setups[0], placed)
    new.ready = (ready[0], ready[1])
    new.setup_log = st.setup_log + ((seat, setup_text(move)),)
    if ready[0] and ready[1]:
        return begin_play(new, new.setups)
    return new


def setup_moves(st: State, seat: int) -> list[SetupMove]:
    """Every legal setup move of ``seat`` (empty once it is ready)."""
    if st.ready[seat]:
        return []
    placed = st.setups[seat]
    left = [rank for rank in PLACEMENT_ORDER if remaining(placed)[rank] > 0]
    moves: list[SetupMove] = []
    for square in setup_half(seat):
        if square in placed:
            moves.append(("entferne", square))
        else:
            moves.extend(("setze", square, rank) for rank in left)
    for name in PRESET_NAMES:
        moves.append(("aufstellung", name, False))
        moves.append(("aufstellung", name, True))
    moves.append(("spiegeln",))
    if len(placed) == ARMY_SIZE:
        moves.append(("fertig",))
    return moves


def setup_effect(move: SetupMove) -> dict[str, Any]:
    kind = move[0]
    if kind == "setze":
        return {"kind": kind, "square": square_name(move[1]), "rank": TOKENS[move[2]]}
    if kind == "entferne":
        return {"kind": kind, "square": square_name(move[1])}
    if kind == "aufstellung":
        return {"kind": kind, "name": move[1], "mirrored": move[2]}
    return {"kind": kind}
