"""``HexagonGame``: Battlehexagon behind the common :class:`~shared.games.base.Game` interface.

This module only wires the pieces together; the rules live in ``moves`` (bitboard
moves), ``ending`` (end and legal moves), ``play`` (checks with reasons, effects),
``notation``, ``record``, ``view`` and ``kernels`` (numba perft).
"""

from __future__ import annotations

from typing import Any

from shared.games.base import BadNotation, Game, GameError, MoveInfo, Outcome
from shared.games.hexagon import ending, play, record, view
from shared.games.hexagon.board import N_CELLS
from shared.games.hexagon.ending import HexagonReason
from shared.games.hexagon.moves import PASS
from shared.games.hexagon.notation import move_text, position_text
from shared.games.hexagon.options import DEFAULTS, new_setup, normalize_options, setup_from_position
from shared.games.hexagon.picture import picture
from shared.games.hexagon.state import DRAW_CLOCK, State, advance, initial


def _fast_perft_allowed(state: State, depth: int) -> bool:
    """Whether neither draw rule can end a line within ``depth`` (see kernels).

    A position can come back at the earliest 4 moves later (a jump cannot be undone by
    the reply, two passes in a row end the game), so: a key already seen twice can
    end a line after one move; other keys seen once after five; the root alone after
    eight.
    """
    if state.clock + depth > DRAW_CLOCK:
        return False
    if max(state.seen.count(key) for key in set(state.seen)) >= 2:
        return depth <= 1
    if len(state.seen) > 1:
        return depth <= 5
    return depth <= 8


def _slow_perft(state: State, depth: int) -> int:
    moves = ending.legal(state)
    if depth == 1:
        return len(moves)
    return sum(_slow_perft(advance(state, m), depth - 1) for m in moves)


class HexagonGame(Game[State, int]):
    """Battlehexagon; also offers :class:`~shared.games.capabilities.FastPlay` and
    :class:`~shared.games.capabilities.Bitboards` for the computer opponents."""

    name = "hexagon"
    title = "Battlehexagon"
    seat_names = (("Rubin", "Ruby"), ("Perle", "Pearl"))
    reasons = HexagonReason

    # ---- options and creation -------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULTS)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return normalize_options(options)

    def new_game(self, options: dict[str, Any], seed: int) -> State:
        return initial(new_setup(options, seed))

    # ---- play ----------------------------------------------------------------
    def to_move(self, state: State) -> tuple[int, ...]:
        return () if ending.end_of(state) is not None else (state.side,)

    def legal_moves(self, state: State, seat: int | None = None) -> list[MoveInfo]:
        return [MoveInfo(move_text(m), play.effect(state, m)) for m in play.legal_for(state, seat)]

    def parse_move(self, state: State, text: str, seat: int | None = None) -> int:
        if not isinstance(text, str):
            raise BadNotation("not_text", "Ein Zug muss Text sein", "A move must be text")
        return play.resolve(state, text, seat)

    def move_text(self, state: State, move: int) -> str:
        return move_text(move)

    def apply(self, state: State, move: int | str, seat: int | None = None) -> State:
        return advance(state, play.resolve(state, move, seat))

    def outcome(self, state: State) -> Outcome | None:
        return ending.end_of(state)

    def help_info(self, state: State, seat: int) -> dict[str, list[str]]:
        """*Hilfe an*: cells ``seat`` can clone into, its stones the opponent could turn next."""
        return view.help_info(state, seat)

    # ---- what a seat may see -------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    # ---- text forms ----------------------------------------------------------
    def to_position(self, state: State) -> str:
        return position_text(state.red, state.white, state.setup.holes, state.side, state.clock)

    def from_position(self, text: str, options: dict[str, Any] | None = None) -> State:
        return initial(setup_from_position(text, options))

    def to_json(self, state: State) -> dict[str, Any]:
        setup = state.setup
        return {
            "game": "hexagon",
            "version": 1,
            "options": dict(setup.options),
            "seed": setup.seed,
            "start": setup.start,
            "moves": [move_text(m) for m in state.moves()],
            "position": self.to_position(state),
        }

    def from_json(self, data: dict[str, Any]) -> State:
        def bad(de: str, en: str) -> BadNotation:
            return BadNotation("bad_json", f"Ungültiger Spielstand: {de}", f"Invalid game state: {en}")

        if not isinstance(data, dict) or data.get("game") != "hexagon" or data.get("version") != 1:
            raise bad("kein Battlehexagon-Spielstand (Version 1)", "not a Battlehexagon state (version 1)")
        moves = data.get("moves")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise bad("Zugliste fehlt", "move list missing")
        try:
            options = data.get("options")
            if not isinstance(options, dict):
                raise bad("Optionen fehlen", "options missing")
            if data.get("start") is not None:
                if options.get("map") == "eigen":
                    options = {"end_rule": options.get("end_rule")}
                state = initial(setup_from_position(data["start"], options))
            else:
                state = initial(new_setup(options, data.get("seed")))
            for text in moves:
                state = advance(state, play.resolve(state, text, None))
        except BadNotation:
            raise
        except GameError as exc:
            raise bad(exc.de, exc.en) from exc
        if "position" in data and data["position"] != self.to_position(state):
            raise bad("Stellung passt nicht zu den Zügen", "position does not match the moves")
        return state

    def render(self, state: State) -> str:
        symbols = []
        for cell in range(N_CELLS):
            bit = 1 << cell
            symbols.append(
                "R" if state.red & bit else "P" if state.white & bit else "#" if state.setup.holes & bit else "."
            )
        outcome = ending.end_of(state)
        if outcome is None:
            status = f"am Zug / to move: {'Rubin (R)' if state.side == 0 else 'Perle (P)'}"
        else:
            winner = {0: "Rubin", 1: "Perle", None: "Remis / draw"}[outcome.winner]
            status = f"Ende / over: {winner} — {outcome.de} / {outcome.en}"
        head = (
            f"Battlehexagon  Karte/map: {state.setup.options['map']}  Endregel/end rule: "
            f"{state.setup.options['end_rule']}\n"
            f"Rubin {state.red.bit_count()} : {state.white.bit_count()} Perle   {status}   "
            f"ohne Verdoppeln/no clone: {state.clock}\n"
        )
        return head + picture(symbols) + "\n" + self.to_position(state)

    # ---- records -------------------------------------------------------------
    def record(self, state: State, headers: dict[str, str]) -> str:
        return record.record(state, headers)

    def parse_record(self, text: str) -> State:
        return record.parse_record(text, lambda state, token: self.apply(state, token))

    # ---- analysis ------------------------------------------------------------
    def perft(self, state: State, depth: int) -> int:
        if depth <= 0:
            return 1
        if ending.end_of(state) is not None:
            return 0
        if not _fast_perft_allowed(state, depth):
            return _slow_perft(state, depth)
        from shared.games.hexagon import kernels  # lazy: numba only where perft is used

        return kernels.perft(state.me, state.opp, state.setup.playable, state.setup.passes, depth)

    def history(self, state: State) -> list[str]:
        return [move_text(m) for m in state.moves()]

    # ---- fast internal API for the computer opponents ----------------------------
    def fast_moves(self, state: State) -> list[int]:
        """Legal move ints (clones, jumps, or the lone PASS); [] when the game is over.

        Same list as the checked path, generated by the numba kernel (imported on first
        use, so only the computer opponents pay for loading numba)."""
        if ending.end_of(state) is not None:
            return []
        from shared.games.hexagon import kernels

        return kernels.move_list(state.me, state.empty) or [PASS]

    def fast_apply(self, state: State, move: int) -> State:
        """The state after a move int taken from :meth:`fast_moves` (not re-checked)."""
        return advance(state, move)

    def fast_board(self, state: State) -> tuple[int, int, int, int]:
        """``(me, opp, empty, side)`` bitboards from the side to move's view."""
        return state.me, state.opp, state.empty, state.side


GAME = HexagonGame()
