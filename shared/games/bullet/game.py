"""Battlebullet behind the :class:`shared.games.base.Game` interface."""

from __future__ import annotations

from typing import Any

from shared.games.base import BadNotation, BadOptions, Game, GameError, IllegalMove, MoveInfo, Outcome
from shared.games.bullet import record as record_text
from shared.games.bullet.board import LAYOUTS
from shared.games.bullet.effects import effect
from shared.games.bullet.legality import refuse
from shared.games.bullet.movegen import BY_KEY, MOVE_COUNT, TEXT, FastState, fast_perft, is_legal
from shared.games.bullet.movegen import fast_apply as _fast_apply
from shared.games.bullet.movegen import fast_count as _fast_count
from shared.games.bullet.movegen import fast_moves as _fast_moves
from shared.games.bullet.notation import read_move
from shared.games.bullet.options import DEFAULTS, normalize
from shared.games.bullet.position import format_position, parse_position
from shared.games.bullet.state import BulletReason, BulletState, play, settle
from shared.games.bullet.view import danger, legal_ids, own_and_enemy, render, view


def _game_over() -> IllegalMove:
    return IllegalMove("game_over", "Die Partie ist vorbei", "The game is over")


class BulletGame(Game[BulletState, int]):
    """Battlebullet; its :class:`~shared.games.capabilities.FastPlay` works on a
    :data:`~.movegen.FastState` (:meth:`fast_state`), not on the state itself."""

    name = "bullet"
    title = "Battlebullet"
    seat_names = (("Weiß", "White"), ("Schwarz", "Black"))
    reasons = BulletReason

    # ---- options and creation -------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULTS)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        return normalize(options)

    def new_game(self, options: dict[str, Any], seed: int) -> BulletState:
        opts = normalize(options)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise BadOptions("bad_seed", "Der Startwert muss eine ganze Zahl sein", "The seed must be an integer")
        white, black = LAYOUTS[opts["layout"]]
        key = (white, black, 0)
        state = BulletState(
            layout=opts["layout"], win_target=opts["win_target"], move_limit=opts["move_limit"], seed=seed,
            start=None, white=white, black=black, side=0, out=(0, 0), ply=0, moves=(), seen=(key,), outcome=None,
        )  # fmt: skip
        return settle(state, None)

    def from_position(self, text: str, options: dict[str, Any] | None = None, seed: int = 0) -> BulletState:
        opts = normalize(options)
        white, black, side, out, ply = parse_position(text)
        if out[0] >= opts["win_target"] and out[1] >= opts["win_target"]:
            raise BadNotation(
                "bad_position",
                "Ungültige Stellung: beide Seiten haben das Siegziel erreicht",
                "Invalid position: both sides reached the win target",
            )
        start = format_position(white, black, side, out, ply)
        state = BulletState(
            layout=opts["layout"], win_target=opts["win_target"], move_limit=opts["move_limit"], seed=seed,
            start=start, white=white, black=black, side=side, out=out, ply=ply, moves=(),
            seen=((white, black, side),), outcome=None,
        )  # fmt: skip
        return settle(state, None)

    # ---- play ----------------------------------------------------------------
    def to_move(self, state: BulletState) -> tuple[int, ...]:
        return () if state.outcome is not None else (state.side,)

    def legal_moves(self, state: BulletState, seat: int | None = None) -> list[MoveInfo]:
        if state.outcome is not None or (seat is not None and seat != state.side):
            return []
        return [MoveInfo(TEXT[m], effect(m)) for m in legal_ids(state)]

    def parse_move(self, state: BulletState, text: str, seat: int | None = None) -> int:
        group, direction = read_move(text)
        self._check_turn(state, seat)
        own, enemy = own_and_enemy(state, state.side)
        mask = 0
        for cell in group:
            mask |= 1 << cell
        for pushed in (0, 1, 2):
            move = BY_KEY.get((mask, direction, pushed))
            if move is not None and is_legal(own, enemy, move):
                return move
        raise refuse(own, enemy, group, direction)

    def move_text(self, state: BulletState, move: int) -> str:
        if isinstance(move, bool) or not isinstance(move, int) or not 0 <= move < MOVE_COUNT:
            raise BadNotation("bad_move_id", "Unbekannter Zug", "Unknown move")
        return TEXT[move]

    def apply(self, state: BulletState, move: int | str, seat: int | None = None) -> BulletState:
        if isinstance(move, str):
            return play(state, self.parse_move(state, move, seat))
        self._check_turn(state, seat)
        text = self.move_text(state, move)
        own, enemy = own_and_enemy(state, state.side)
        if not is_legal(own, enemy, move):
            group, direction = read_move(text)
            raise refuse(own, enemy, group, direction)
        return play(state, move)

    def outcome(self, state: BulletState) -> Outcome | None:
        return state.outcome

    def _check_turn(self, state: BulletState, seat: int | None) -> None:
        if state.outcome is not None:
            raise _game_over()
        if seat is not None and seat != state.side:
            raise IllegalMove("not_your_turn", "Du bist nicht am Zug", "It is not your turn")

    # ---- what a seat may see ---------------------------------------------------
    def view(self, state: BulletState, seat: int | None) -> dict[str, Any]:
        return view(state, seat)

    def danger_info(self, state: BulletState, seat: int) -> list[str]:
        """*Gefahr an*: cells of ``seat``'s marbles the opponent could push out next move."""
        return danger(state, seat)

    # ---- text forms ---------------------------------------------------------------
    def to_position(self, state: BulletState) -> str:
        return format_position(state.white, state.black, state.side, state.out, state.ply)

    def to_json(self, state: BulletState) -> dict[str, Any]:
        return {
            "game": "bullet",
            "options": state.options,
            "seed": state.seed,
            "start": state.start,
            "moves": [TEXT[m] for m in state.moves],
            "position": self.to_position(state),
        }

    def from_json(self, data: dict[str, Any]) -> BulletState:
        if not isinstance(data, dict) or data.get("game") != "bullet":
            raise BadNotation("bad_json", "Kein Battlebullet-Spielstand", "Not a Battlebullet state")
        try:
            options, seed, start, moves = data["options"], data["seed"], data["start"], data["moves"]
            position = data["position"]
        except KeyError as exc:
            raise BadNotation("bad_json", f"Spielstand unvollständig: {exc}", f"State incomplete: {exc}") from None
        if (
            not isinstance(moves, list)
            or not isinstance(seed, int)
            or (start is not None and not isinstance(start, str))
        ):
            raise BadNotation("bad_json", "Spielstand fehlerhaft", "Malformed state")
        try:
            state = self._replay(options, seed, start, moves)
        except GameError as exc:
            raise BadNotation("bad_json", f"Spielstand fehlerhaft: {exc.de}", f"Malformed state: {exc.en}") from None
        if self.to_position(state) != position:
            raise BadNotation("bad_json", "Spielstand passt nicht zu seinen Zügen", "State does not match its moves")
        return state

    def _replay(self, options: dict[str, Any], seed: int, start: str | None, moves: list[str]) -> BulletState:
        state = self.new_game(options, seed) if start is None else self.from_position(start, options, seed)
        for number, text in enumerate(moves, start=1):
            if not isinstance(text, str):  # move ids are internal; stored games hold text only
                raise BadNotation("bad_move_text", f"Zug {number} ist kein Text", f"Move {number} is not text")
            try:
                state = self.apply(state, text)
            except GameError as exc:
                raise record_text.wrap(exc, number, str(text)) from None
        return state

    def render(self, state: BulletState) -> str:
        return render(state)

    # ---- records -------------------------------------------------------------------
    def record(self, state: BulletState, headers: dict[str, str]) -> str:
        return record_text.write(state, headers)

    def parse_record(self, text: str) -> BulletState:
        headers, moves = record_text.read(text)
        if not headers.get("Seed", "0").lstrip("-").isdigit():
            raise BadNotation("bad_record", "Kopfzeile Seed: keine Zahl", "Header Seed: not a number")
        try:
            options = record_text.options_from(headers)
            state = self._replay(options, int(headers.get("Seed", "0")), headers.get("Start"), moves)
        except GameError as exc:
            raise BadNotation(
                "bad_record", f"Partiedatei fehlerhaft: {exc.de}", f"Malformed record: {exc.en}"
            ) from None
        final = headers.get("Final")
        if final is not None and final != self.to_position(state):
            raise BadNotation(
                "bad_record",
                "Die Schlussstellung passt nicht zu den Zügen",
                "The final position does not match the moves",
            )
        return state

    # ---- analysis --------------------------------------------------------------------
    def perft(self, state: BulletState, depth: int) -> int:
        """Leaves at ``depth``; the end rules apply at the root, the win target below it."""
        if depth <= 0:
            return 1
        if state.outcome is not None:
            return 0
        return fast_perft(self.fast_state(state), depth, state.win_target)

    def history(self, state: BulletState) -> list[str]:
        return [TEXT[m] for m in state.moves]

    # ---- fast API for the computer opponents -----------------------------------------
    @staticmethod
    def fast_state(state: BulletState) -> FastState:
        return (state.white, state.black, state.side, state.out[0], state.out[1])

    fast_moves = staticmethod(_fast_moves)
    fast_apply = staticmethod(_fast_apply)
    fast_count = staticmethod(_fast_count)
