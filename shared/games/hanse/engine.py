"""The Battlehanse engine behind :class:`shared.games.base.Game`.

Round pause: when a round ends and the match is not decided, the state enters the
*pause* (phase ``pause``): the Rundentafel is in ``state.rounds`` and in the view, the
clocks should stand still, ``to_move`` is ``()`` and ``outcome`` is ``None``.  The only
legal move is ``weiter`` (any seat, or the service with ``seat=None``), which deals
the next round; the loser of the round begins it (on a full tie the same player as
before).  When a round gives the deciding seal the match ends at once (no pause).
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

from shared.games.base import BadNotation, BadOptions, Game, MoveInfo, Outcome, Seat
from shared.games.hanse.cards import GOODS, HORSE, NAMES_DE, ZINN
from shared.games.hanse.conclusion import conclude, end_header, table_outcome
from shared.games.hanse.determinize import state_from_view
from shared.games.hanse.effects import effect
from shared.games.hanse.moves import legal, step
from shared.games.hanse.notation import format_move
from shared.games.hanse.position import from_position, to_position
from shared.games.hanse.record import read_record, write_record
from shared.games.hanse.replay import play, to_move_int, undo_and_reshuffle
from shared.games.hanse.reshuffle import reshuffle_unseen
from shared.games.hanse.selection import describe_selection, sale_value
from shared.games.hanse.serial import from_json, to_json
from shared.games.hanse.state import OVER, PAUSE, PHASE_NAMES, PLAY, State, new_match
from shared.games.hanse.view import build_view

DEFAULT_OPTIONS = {"first": 0, "seals_to_win": 2}


class HanseReason(StrEnum):
    """How the rules end a match of Battlehanse: one seat holds the seals it needed."""

    SEALS = "ratssiegel"


class HanseGame(Game[State, int]):
    """Battlehanse; also offers :class:`~shared.games.capabilities.RoundPauses`,
    :class:`~shared.games.capabilities.Reshuffles` and :class:`~shared.games.capabilities.FastPlay`."""

    name = "hanse"
    title = "Battlehanse"
    seat_names = (("Spieler 1", "Player 1"), ("Spieler 2", "Player 2"))
    reasons = HanseReason

    # ---- options and creation -------------------------------------------------
    def default_options(self) -> dict[str, Any]:
        return dict(DEFAULT_OPTIONS)

    def normalize_options(self, options: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(options, dict):
            raise BadOptions("bad_options", "Optionen müssen ein Objekt sein.", "Options must be an object.")
        unknown = sorted(set(options) - set(DEFAULT_OPTIONS))
        if unknown:
            raise BadOptions(
                "unknown_option",
                f"Unbekannte Option(en) für Battlehanse: {', '.join(map(str, unknown))}",
                f"Unknown option(s) for Battlehanse: {', '.join(map(str, unknown))}",
            )
        out = dict(DEFAULT_OPTIONS)
        out.update(options)
        if type(out["first"]) is not int or out["first"] not in (0, 1):
            raise BadOptions(
                "bad_first", "„first“ muss 0 oder 1 sein (wer die erste Runde beginnt).", "'first' must be 0 or 1."
            )
        if type(out["seals_to_win"]) is not int or out["seals_to_win"] not in (1, 2, 3):
            raise BadOptions(
                "bad_seals_to_win",
                "„seals_to_win“ muss 1, 2 oder 3 sein.",
                "'seals_to_win' must be 1, 2 or 3.",
            )
        return out

    def new_game(self, options: dict[str, Any], seed: int) -> State:
        opts = self.normalize_options(options)
        if type(seed) is not int:
            raise BadOptions("bad_seed", "Der Seed muss eine ganze Zahl sein.", "The seed must be an integer.")
        return new_match(opts["first"], opts["seals_to_win"], seed)

    # ---- play ----------------------------------------------------------------
    def to_move(self, state: State) -> tuple[int, ...]:
        return (state.turn,) if state.phase == PLAY else ()

    def legal_moves(self, state: State, seat: int | None = None) -> list[MoveInfo]:
        if state.phase == PLAY and seat is not None and seat != state.turn:
            return []
        return [MoveInfo(format_move(m), effect(state, m)) for m in legal(state)]

    def parse_move(self, state: State, text: str, seat: int | None = None) -> int:
        return to_move_int(state, text, seat)

    def move_text(self, state: State, move: int) -> str:
        return format_move(move)

    def apply(self, state: State, move: int | str, seat: int | None = None) -> State:
        return play(state, to_move_int(state, move, seat))

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        ended_by_table = table_outcome(state)
        if ended_by_table is not None:
            return ended_by_table
        winner = 0 if state.seals[0] >= state.seals_to_win else 1
        # Neutral words: the same text follows "Gewonnen!" and "Verloren." (the seals stand behind it).
        return Outcome(
            winner,
            HanseReason.SEALS,
            "Entschieden nach Ratssiegeln",
            "decided on council seals",
            (float(state.seals[0]), float(state.seals[1])),
        )

    def conclude(self, state: State, outcome: Outcome) -> State:
        """The table ended the match: over, so the view shows every hand, the deck order
        and the Ratsmarken, and the record every deal (:mod:`.conclusion`)."""
        return conclude(state, outcome)

    def view(self, state: State, seat: Seat) -> dict[str, Any]:
        result = self.outcome(state)
        return build_view(state, seat, result.to_dict() if result else None)

    def sealed_view(self, state: State, seat: Seat) -> dict[str, Any]:
        """After the end too, no hand but ``seat``'s, no deck order, no Ratsmarken piles,
        no Ratsmarke of the opponent from a round without its Rundentafel."""
        result = self.outcome(state)
        return build_view(state, seat, result.to_dict() if result else None, sealed=True)

    def open_view(self, state: State) -> dict[str, Any]:
        result = self.outcome(state)
        return build_view(state, None, result.to_dict() if result else None, open_all=True)

    # ---- text forms ----------------------------------------------------------
    def to_position(self, state: State) -> str:
        return to_position(state)

    def from_position(self, text: str, options: dict[str, Any] | None = None) -> State:
        if not isinstance(text, str):
            raise BadNotation("bad_position", "Stellung muss Text sein.", "A position must be text.")
        opts = self.normalize_options(options or {})
        return from_position(text, opts["first"], opts["seals_to_win"])

    def to_json(self, state: State) -> dict[str, Any]:
        return to_json(state)

    def from_json(self, data: dict[str, Any]) -> State:
        return from_json(data)

    def render(self, state: State) -> str:
        def cards(counts: tuple[int, ...], kinds: int = GOODS) -> str:
            return ", ".join(f"{n}× {NAMES_DE[k]}" for k, n in enumerate(counts[:kinds]) if n) or "–"

        lines = [
            f"Battlehanse  Runde {state.round_no}  Phase {PHASE_NAMES[state.phase]}  "
            f"Siegel {state.seals[0]}:{state.seals[1]}  am Zug: Spieler {state.turn + 1}",
            f"Markt:   {cards(state.market, 7)}",
            f"Stapel:  {len(state.deck)} Karten",
        ]
        for p in (0, 1):
            hand = state.hands[p]
            lines.append(
                f"Spieler {p + 1}: Hand {cards(hand)} | Stall {hand[HORSE]} | gemerkt {cards(state.known[p])} | "
                f"Zinn {sum(state.zinn_won[p])} {list(state.zinn_won[p])} | Rat {list(state.rats_won[p])}"
            )
        piles = "  ".join(
            f"{NAMES_DE[k]}: {' '.join(map(str, ZINN[k][len(ZINN[k]) - state.zinn_left[k] :])) or '–'}"
            for k in range(GOODS)
        )
        lines.append(f"Zinnmarken: {piles}")
        lines.append(f"Ratsmarken übrig: {[len(p) for p in state.rats_piles]}")
        return "\n".join(lines)

    # ---- records -------------------------------------------------------------
    def record(self, state: State, headers: dict[str, str]) -> str:
        result = self.outcome(state)
        if result is None:
            return write_record(state, headers, "*", "läuft / running")
        ended_by_table = table_outcome(state)
        if ended_by_table is not None:
            headers = {**headers, **end_header(ended_by_table)}
        return write_record(state, headers, f"{state.seals[0]}-{state.seals[1]}", f"{result.de} / {result.en}")

    def parse_record(self, text: str) -> State:
        return read_record(text)

    # ---- analysis ------------------------------------------------------------
    def perft(self, state: State, depth: int) -> int:
        return perft(state, depth)

    def history(self, state: State) -> list[str]:
        return [entry[2] for entry in state.history]

    # ---- extras for the table, the UI and the computer opponents -------------
    def is_round_pause(self, state: State) -> bool:
        """True while the Rundentafel shows between two rounds (clocks stand still)."""
        return state.phase == PAUSE

    def undo_and_reshuffle(self, state: State, seed: int) -> State:
        return undo_and_reshuffle(state, seed)

    def reshuffle_unseen(self, state: State, seed: int) -> State:
        """Zug zurück at a computer table: deck and Ratsmarken piles mixed anew (:mod:`.reshuffle`)."""
        return reshuffle_unseen(state, seed)

    def takeback_mark(self, before: State, kept: State, seed: int | None) -> int | None:
        """Zug zurück against the computer mixes the unseen cards anew: the mix's seed."""
        return seed

    def after_takeback(self, state: State, mark: int) -> State:
        return reshuffle_unseen(state, mark)

    def describe_selection(
        self, state: State, seat: int, market: list[str], hand: list[str], stable: int = 0
    ) -> dict[str, Any]:
        return describe_selection(state, seat, market, hand, stable)

    def sale_value(self, state: State, good: str, n: int) -> dict[str, Any]:
        if good not in NAMES_DE[:GOODS]:
            raise BadNotation("bad_card", f"Unbekannte Ware: {good!r}", f"Unknown good: {good!r}")
        return sale_value(state, NAMES_DE.index(good), n)

    def state_from_view(self, view: dict[str, Any], rng: random.Random) -> State:
        return state_from_view(view, rng)

    fast_moves = staticmethod(legal)
    fast_apply = staticmethod(step)


def perft(state: State, depth: int) -> int:
    """Leaf count; the last ply is counted from the move list without applying."""
    if depth <= 0:
        return 1
    moves = legal(state)
    if depth == 1:
        return len(moves)
    return sum(perft(step(state, m), depth - 1) for m in moves)
