"""Battlegeneral (Stratego) behind the common :class:`~shared.games.base.Game` interface."""

from __future__ import annotations

from typing import Any

from shared.games.base import BadNotation, BadOptions, Game, IllegalMove, MoveInfo, Outcome
from shared.games.general import moves as fast
from shared.games.general.board import RAYS, square_name
from shared.games.general.creation import from_position as position_to_state
from shared.games.general.json_form import from_json as json_to_state
from shared.games.general.json_form import to_json as state_to_json
from shared.games.general.legality import check_play_move
from shared.games.general.moves import GeneralReason
from shared.games.general.notation import format_move, parse_move_text
from shared.games.general.notation import to_position as state_to_position
from shared.games.general.pieces import TOKENS
from shared.games.general.record import read_record, write_record
from shared.games.general.setup_phase import (
    SetupMove,
    apply_setup,
    check_setup_move,
    parse_setup_text,
    setup_effect,
    setup_moves,
    setup_text,
)
from shared.games.general.state import PIECES, PLAY, REVEALED, State, new_setup_state, ply_records
from shared.games.general.view import build_view

DEFAULT_OPTIONS: dict[str, Any] = {"max_quiet_moves": 200}


def _illegal(code: str, de: str, en: str) -> IllegalMove:
    return IllegalMove(code, de, en)


class GeneralGame(Game[State, int | SetupMove]):
    """Battlegeneral; a move is a play move int (``from * 100 + to``) or a setup tuple."""

    name = "general"
    title = "Battlegeneral"
    seat_names = (("Rot", "Red"), ("Blau", "Blue"))
    reasons = GeneralReason

    # ---- options and creation ------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise BadOptions("bad_options", "Optionen müssen ein Objekt sein", "Options must be an object")
        unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
        if unknown:
            raise BadOptions(
                "unknown_option",
                f"Unbekannte Option: {', '.join(map(str, unknown))} (erlaubt: max_quiet_moves)",
                f"Unknown option: {', '.join(map(str, unknown))} (allowed: max_quiet_moves)",
            )
        result = self.default_options()
        limit = options.get("max_quiet_moves", result["max_quiet_moves"])
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10000:
            raise BadOptions(
                "bad_option_value",
                "max_quiet_moves muss eine ganze Zahl von 1 bis 10000 sein",
                "max_quiet_moves must be a whole number from 1 to 10000",
            )
        result["max_quiet_moves"] = limit
        return result

    def new_game(self, options: dict[str, Any], seed: int) -> State:
        # Nothing in Battlegeneral is random; the seed is kept for the record.
        return new_setup_state(self.normalize_options(options), int(seed))

    # ---- play ----------------------------------------------------------------
    def to_move(self, state: State) -> tuple[int, ...]:
        if state.outcome is not None:
            return ()
        if state.phase != PLAY:
            return tuple(seat for seat in (0, 1) if not state.ready[seat])
        return (state.to_move,)

    def _seat(self, state: State, seat: int | None) -> int:
        """The acting seat; raises IllegalMove when it may not act now."""
        if state.outcome is not None:
            raise _illegal("game_over", "Die Partie ist schon vorbei", "The game is already over")
        movers = self.to_move(state)
        if seat is None:
            if len(movers) != 1:
                raise _illegal("seat_required", "Beide stellen gerade auf: welcher Sitz?", "Both are setting up: which seat?")
            return movers[0]
        if seat not in movers:
            if state.phase != PLAY and seat in (0, 1):
                raise _illegal("already_ready", "Deine Aufstellung ist schon fertig", "Your setup is already done")
            raise _illegal("not_your_turn", "Du bist nicht am Zug", "It is not your turn")
        return seat

    def legal_moves(self, state: State, seat: int | None = None) -> list[MoveInfo]:
        if state.outcome is not None:
            return []
        if seat is not None and seat not in self.to_move(state):
            return []
        seat = self._seat(state, seat)
        if state.phase != PLAY:
            return [MoveInfo(setup_text(m), setup_effect(m)) for m in setup_moves(state, seat)]
        return [MoveInfo(format_move(m // 100, m % 100), self._effect(state, m)) for m in fast.fast_moves(state)]

    @staticmethod
    def _effect(state: State, move: int) -> dict[str, Any]:
        """What a move visibly does, without the fight's result (the defender's rank
        may be unknown to the mover)."""
        frm, to = divmod(move, 100)
        path = [to]
        for ray in RAYS[frm]:
            if to in ray:
                path = list(ray[: ray.index(to) + 1])
        target = state.board[to]
        return {
            "from": square_name(frm),
            "to": square_name(to),
            "piece": state.board[frm] - 1,
            "path": [square_name(sq) for sq in path],
            "attack": bool(target),
            "target": target - 1 if target else None,
        }

    def parse_move(self, state: State, text: str, seat: int | None = None) -> int | SetupMove:
        if not isinstance(text, str):
            raise BadNotation("bad_notation", "Ein Zug ist Text, z. B. a4-a5", "A move is text, e.g. a4-a5")
        setup_move = parse_setup_text(text)
        if setup_move is None:
            frm, to, _annotation = parse_move_text(text)
        seat = self._seat(state, seat)
        if state.phase != PLAY:
            if setup_move is None:
                raise _illegal("setup_running", "Erst die Aufstellung abschließen", "Finish the setup first")
            check_setup_move(state, seat, setup_move)
            return setup_move
        if setup_move is not None:
            raise _illegal("setup_over", "Die Aufstellung ist vorbei", "The setup phase is over")
        return check_play_move(state, frm, to)

    def move_text(self, state: State, move: int | SetupMove) -> str:
        if isinstance(move, tuple):
            return setup_text(move)
        return format_move(move // 100, move % 100)

    def apply(self, state: State, move: int | SetupMove | str, seat: int | None = None) -> State:
        if isinstance(move, str):
            move = self.parse_move(state, move, seat)
            seat = self._seat(state, seat)
        else:
            seat = self._seat(state, seat)
            if isinstance(move, tuple):
                if state.phase == PLAY:
                    raise _illegal("setup_over", "Die Aufstellung ist vorbei", "The setup phase is over")
                check_setup_move(state, seat, move)
            elif isinstance(move, int) and not isinstance(move, bool) and state.phase == PLAY:
                if move not in fast.fast_moves(state):
                    if not 0 <= move < 10000:
                        raise BadNotation("bad_move", "Unbekannter Zug", "Unknown move")
                    check_play_move(state, move // 100, move % 100)
            else:
                raise BadNotation("bad_move", "Unbekannter Zug", "Unknown move")
        if isinstance(move, tuple):
            return apply_setup(state, seat, move)
        return fast.fast_apply(state, move)

    def outcome(self, state: State) -> Outcome | None:
        return state.outcome

    def conclude(self, state: State, outcome: Outcome) -> State:
        """The table ended the game (resignation, time, agreement, leaving): with the
        outcome set, the view shows every rank and both setups, the record holds them."""
        if state.outcome is not None:
            return state
        ended = state.copy()
        ended.outcome = outcome
        return ended

    # ---- a take-back -------------------------------------------------------------
    def takeback_mark(self, before: State, kept: State, seed: int | None) -> int | None:
        """The pieces whose rank a fight in the moves taken back showed, as a bit set of
        piece ids: what both players saw stays seen (the computer's knowledge too)."""
        mark = sum(1 << piece for piece in range(PIECES)
                   if before.flags[piece] & REVEALED and not kept.flags[piece] & REVEALED)
        return mark or None

    def after_takeback(self, state: State, mark: int) -> State:
        """``state`` with the pieces of ``mark`` (a :meth:`takeback_mark`) revealed."""
        if state.phase != PLAY or not mark:
            return state
        kept = state.copy()
        kept.flags = [flags | REVEALED if mark >> piece & 1 else flags for piece, flags in enumerate(state.flags)]
        return kept

    # ---- views and text forms --------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat not in (0, 1, None):
            raise _illegal("bad_seat", "Unbekannter Sitz", "Unknown seat")
        movers = self.to_move(state)
        moves = [m.to_dict() for m in self.legal_moves(state, seat)] if seat is not None and seat in movers else []
        return build_view(state, seat, movers, moves)

    def sealed_view(self, state: State, seat: int | None) -> dict[str, Any]:
        """After the end too, only the ranks play showed (own pieces, revealed ones)."""
        if state.outcome is None:
            return self.view(state, seat)
        playing = state.copy()
        playing.outcome = None
        view = build_view(playing, seat, (), [])
        view["outcome"] = state.outcome.to_dict()
        return view

    def open_view(self, state: State) -> dict[str, Any]:
        return build_view(state, None, self.to_move(state), [], open_all=True)

    def to_position(self, state: State) -> str:
        return state_to_position(state)

    def from_position(self, text: str, options: dict[str, Any] | None = None) -> State:
        return position_to_state(text, self.normalize_options(options or {}))

    def to_json(self, state: State) -> dict[str, Any]:
        return state_to_json(state)

    def from_json(self, data: dict[str, Any]) -> State:
        if not isinstance(data, dict):
            raise BadNotation("bad_json", "Ungültiger Spielstand (JSON)", "Invalid game state (JSON)")
        return json_to_state(data)

    def render(self, state: State) -> str:
        """Red's pieces in upper case, Blue's in lower case, ranks as tokens; lakes ~."""
        from shared.games.general.board import LAKES

        cells: dict[int, str] = {}
        if state.phase == PLAY:
            for piece, square in enumerate(state.pos):
                if square >= 0:
                    token = TOKENS[state.ranks[piece]]
                    cells[square] = token if piece < 40 else token.lower()
        else:
            for seat in (0, 1):
                for square, rank in state.setups[seat].items():
                    cells[square] = TOKENS[rank] if seat == 0 else TOKENS[rank].lower()
        lines = []
        for rank_index in range(9, -1, -1):
            row = []
            for file in range(10):
                square = rank_index * 10 + file
                row.append("~~" if square in LAKES else cells.get(square, ".").rjust(2))
            lines.append(f"{rank_index + 1:>2} " + " ".join(row))
        lines.append("    " + "  ".join("abcdefghij"))
        if state.outcome is not None:
            lines.append(f"Ende: {state.outcome.de} / {state.outcome.en}")
        elif state.phase == PLAY:
            lines.append(f"Am Zug: {self.seat_names[state.to_move][0]} ({state.quiet} Züge ohne Kampf)")
        else:
            lines.append(f"Aufstellung; fertig: Rot {state.ready[0]}, Blau {state.ready[1]}")
        return "\n".join(lines)

    # ---- records and analysis ---------------------------------------------------
    def record(self, state: State, headers: dict[str, str]) -> str:
        return write_record(self, state, headers)

    def parse_record(self, text: str) -> State:
        return read_record(self, text)

    def perft(self, state: State, depth: int) -> int:
        if state.phase != PLAY:
            raise _illegal("setup_running", "Perft gibt es erst in der Spielphase", "Perft needs the play phase")
        return fast.perft(state, depth)

    def history(self, state: State) -> list[str]:
        return [format_move(frm, to, fight) for _m, _p, frm, to, fight, _h in ply_records(state)]
