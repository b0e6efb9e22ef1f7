"""What a seat may see: the only form in which a state leaves toward a client.

docs/rules.md: a seat knows its own ranks; of each enemy piece only whether it has moved,
whether it has moved more than one square in a line, and a rank shown in a fight.
Spectators (seat None) know only what both sides know.  After the game: everything.

Ranks appear in exactly three places, so a test can check them: ``rank`` of a piece
in ``pieces`` (None when this seat may not know it), ``rank`` of a captured piece
(every captured piece fought, so its rank was shown to both), and the fight
annotations of the move list (both ranks of a fight are public).  During setup a
seat sees its own placement and of the opponent only whether it is ready — not how
many pieces it placed, nor where.

Keys: ``game``, ``phase`` (``setup``/``play``/``over``), ``seat``, ``to_move``,
``options``, ``lakes``, ``legal_moves`` (``[{text, effect}]`` when this seat may act; a play
move's effect is ``{from, to, piece, path, attack, target}`` — ``attack`` says a fight
happens, never how it ends), ``outcome``; in setup ``setup`` = ``{ready, own,
next_piece, remaining, standard_setups}``; in play ``pieces`` =
``[{id, owner, square, moved, scouted, revealed, rank}]``, ``captured`` (per seat
``[{id, rank}]``), ``history`` (move texts with fight annotations), ``last_move``
(``{seat, id, from, to, fight}``), ``quiet_moves``, ``ply``; after the end also
``start_position`` (both setups).  A game the table ended during the setup
(``GeneralGame.conclude``) shows ``setups`` (both placements as far as they got,
``{square: rank}`` per seat) and those pieces, ranks included, in ``pieces``.
"""

from __future__ import annotations

from typing import Any

from shared.games.general.board import LAKES, square_name
from shared.games.general.notation import format_move
from shared.games.general.pieces import TOKENS
from shared.games.general.setup_phase import next_piece, remaining
from shared.games.general.setups import STANDARD_SETUPS
from shared.games.general.state import MOVED, PLAY, REVEALED, SCOUTED, State, ply_records


def _both_setups(st: State) -> list[dict[str, Any]]:
    """Every placed piece of both seats with its rank, as ``pieces`` (ids in square order per seat)."""
    pieces = []
    for seat in (0, 1):
        for index, (square, rank) in enumerate(sorted(st.setups[seat].items())):
            pieces.append({"id": seat * 40 + index, "owner": seat, "square": square_name(square), "moved": False,
                           "scouted": False, "revealed": False, "rank": TOKENS[rank]})
    return pieces


def build_view(st: State, seat: int | None, to_move: tuple[int, ...], moves: list[dict[str, Any]],
               open_all: bool = False) -> dict[str, Any]:
    """``open_all``: a finished game's replay, every rank and both placements of this moment open."""
    over = st.outcome is not None
    view: dict[str, Any] = {
        "game": "general",
        "phase": "over" if over else ("play" if st.phase == PLAY else "setup"),
        "seat": seat,
        "to_move": list(to_move),
        "options": dict(st.options),
        "lakes": [square_name(sq) for sq in sorted(LAKES)],
        "legal_moves": moves,
        "outcome": st.outcome.to_dict() if over else None,
    }
    if st.phase != PLAY:
        own = st.setups[seat] if seat is not None else {}
        view["setup"] = {
            "ready": list(st.ready),
            "own": {square_name(sq): TOKENS[rank] for sq, rank in sorted(own.items())} if seat is not None else None,
            "next_piece": (TOKENS[n] if (n := next_piece(own)) is not None else None) if seat is not None else None,
            "remaining": {TOKENS[r]: c for r, c in remaining(own).items()} if seat is not None else None,
            "standard_setups": list(STANDARD_SETUPS),
        }
        view["pieces"] = _both_setups(st) if over or open_all else []
        view["captured"] = [[], []]
        view["history"] = []
        view["last_move"] = None
        if over or open_all:
            # Ended during the setup (resigned, left, out of time): both placements, as far as they got.
            view["setups"] = [{square_name(sq): TOKENS[rank] for sq, rank in sorted(setup.items())} for setup in st.setups]
        return view
    pieces = []
    captured: list[list[dict[str, Any]]] = [[], []]
    for piece, square in enumerate(st.pos):
        owner = piece // 40
        flags = st.flags[piece]
        if square < 0:
            captured[owner].append({"id": piece, "rank": TOKENS[st.ranks[piece]]})
            continue
        known = over or open_all or owner == seat or bool(flags & REVEALED)
        pieces.append(
            {
                "id": piece,
                "owner": owner,
                "square": square_name(square),
                "moved": bool(flags & MOVED),
                "scouted": bool(flags & SCOUTED),
                "revealed": bool(flags & REVEALED),
                "rank": TOKENS[st.ranks[piece]] if known else None,
            }
        )
    records = ply_records(st)
    view["pieces"] = pieces
    view["captured"] = captured
    view["history"] = [format_move(frm, to, fight) for _m, _p, frm, to, fight, _h in records]
    view["last_move"] = None
    if records:
        mover, piece, frm, to, fight, _h = records[-1]
        view["last_move"] = {"seat": mover, "id": piece, "from": square_name(frm), "to": square_name(to), "fight": bool(fight)}
    view["quiet_moves"] = st.quiet
    view["ply"] = st.ply
    if over or open_all:
        view["start_position"] = st.start
    return view
