"""The position format: one line, 19 fields separated by spaces (FEN-like).

Cards are letters (:data:`~.cards.LETTERS`): B Bernstein, G Gold, S Silber, T Tuch,
Z Salz, P Pelz, H Packpferd.  ``-`` stands for an empty field.  Fields, in order:

 1. market cards, e.g. ``HHHPB``
 2. hand of seat 0: goods, ``/``, stable size, e.g. ``BBGPS/0``
 3. hand of seat 1
 4. gemerkte Karten of seat 0 (goods the opponent saw it take), e.g. ``B``
 5. gemerkte Karten of seat 1
 6. deck, next card first
 7. Zinnmarken left per good (B,G,S,T,Z,P), e.g. ``5,5,5,7,7,9``
 8. Ratsmarken piles (3 / 4 / 5+), top first, values ``.``-separated, e.g. ``1.2.3.2.1.3.2/4.5.6.6.4.5/8.8.9.10.10``
 9. Zinnmarken won this round by seat 0, e.g. ``7.5.3``
10. Zinnmarken won by seat 1
11. Ratsmarken won this round by seat 0 (values)
12. Ratsmarken won by seat 1
13. goods sold this round, per good, e.g. ``0,0,0,3,0,0``
14. seat to move (during the pause: the seat that begins the next round)
15. seat that began this round
16. round number
17. seals, e.g. ``1-0``
18. phase: ``spiel``, ``pause`` or ``ende``
19. seed for dealing the next rounds

A full deal therefore fixes everything the rest of the round depends on, so perft from
a position is well defined.  The options ``first`` and ``seals_to_win`` come from the
options argument.  History and finished Rundentafeln are not part of a position.
"""

from __future__ import annotations

from shared.games.base import BadNotation
from shared.games.hanse.cards import GOODS, HORSE, KINDS, LETTERS
from shared.games.hanse.serial import check_state
from shared.games.hanse.state import PHASE_NAMES, State


def _letters(counts: tuple[int, ...]) -> str:
    text = "".join(LETTERS[k] * n for k, n in enumerate(counts))
    return text or "-"


def _values(values: tuple[int, ...]) -> str:
    return ".".join(str(v) for v in values) or "-"


def to_position(state: State) -> str:
    fields = [
        _letters(state.market),
        *(f"{_letters(h[:GOODS])}/{h[HORSE]}" for h in state.hands),
        *(_letters(k) for k in state.known),
        "".join(LETTERS[c] for c in reversed(state.deck)) or "-",
        ",".join(str(n) for n in state.zinn_left),
        "/".join(_values(tuple(reversed(p))) for p in state.rats_piles),
        *(_values(z) for z in state.zinn_won),
        *(_values(r) for r in state.rats_won),
        ",".join(str(n) for n in state.discard),
        str(state.turn),
        str(state.starter),
        str(state.round_no),
        f"{state.seals[0]}-{state.seals[1]}",
        PHASE_NAMES[state.phase],
        str(state.seed),
    ]
    return " ".join(fields)


def _parse_letters(text: str, kinds: int) -> tuple[int, ...]:
    counts = [0] * kinds
    if text != "-":
        for ch in text.upper():
            k = LETTERS.find(ch)
            if k < 0 or k >= kinds:
                raise ValueError(f"unknown card letter {ch!r}")
            counts[k] += 1
    return tuple(counts)


def _parse_values(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(int(v) for v in text.split("."))


def _parse_counts(text: str) -> tuple[int, ...]:
    counts = tuple(int(v) for v in text.split(","))
    if len(counts) != GOODS or min(counts) < 0:
        raise ValueError("expected six counts")
    return counts


def _parse_hand(text: str) -> tuple[int, ...]:
    goods, slash, stable = text.partition("/")
    if not slash:
        raise ValueError("a hand is GOODS/STABLE")
    return _parse_letters(goods, GOODS) + (int(stable),)


def _seat(text: str) -> int:
    if text not in ("0", "1"):
        raise ValueError("a seat is 0 or 1")
    return int(text)


def from_position(text: str, first: int, seals_to_win: int) -> State:
    try:
        fields = text.split()
        if len(fields) != 19:
            raise ValueError(f"expected 19 fields, got {len(fields)}")
        state = State.__new__(State)
        state.first = first
        state.seals_to_win = seals_to_win
        state.market = _parse_letters(fields[0], KINDS)
        state.hands = (_parse_hand(fields[1]), _parse_hand(fields[2]))
        state.known = (_parse_letters(fields[3], GOODS), _parse_letters(fields[4], GOODS))
        deck = [] if fields[5] == "-" else [LETTERS.index(ch) if ch in LETTERS else -1 for ch in fields[5].upper()]
        if -1 in deck:
            raise ValueError("unknown card letter in the deck")
        state.deck = tuple(reversed(deck))
        state.zinn_left = _parse_counts(fields[6])
        piles = fields[7].split("/")
        if len(piles) != 3:
            raise ValueError("expected three Ratsmarken piles")
        state.rats_piles = tuple(tuple(reversed(_parse_values(p))) for p in piles)  # type: ignore[assignment]
        state.zinn_won = (_parse_values(fields[8]), _parse_values(fields[9]))
        state.rats_won = (_parse_values(fields[10]), _parse_values(fields[11]))
        state.discard = _parse_counts(fields[12])
        state.turn = _seat(fields[13])
        state.starter = _seat(fields[14])
        state.round_no = int(fields[15])
        a, dash, b = fields[16].partition("-")
        if not dash:
            raise ValueError("seals are A-B")
        state.seals = (int(a), int(b))
        if fields[17] not in PHASE_NAMES:
            raise ValueError("phase is spiel, pause or ende")
        state.phase = PHASE_NAMES.index(fields[17])
        state.seed = int(fields[18])
        state.rounds = ()
        state.history = ()
        state.reshuffles = ()
        if state.round_no < 1 or min(state.seals) < 0 or min(state.hands[0] + state.hands[1]) < 0:
            raise ValueError("numbers out of range")
        check_state(state)
        return state
    except (ValueError, IndexError, AttributeError) as exc:
        raise BadNotation("bad_position", f"Ungültige Stellung: {exc}", f"Invalid position: {exc}") from None
