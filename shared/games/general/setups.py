"""The 25 preset setups (``setups.txt``, copied from the shared data file).

File format: ``== Name`` then four rows of ten rank tokens, from the owner's back
row (board edge) to its front row (next to the lakes), each row left to right *as the
owner sees the board from behind its back row*.  On the board that means:

* Red (seat 0): row ``i`` is rank ``i + 1``, column ``k`` is file ``k`` (a…j).
* Blue (seat 1): row ``i`` is rank ``10 - i``, column ``k`` is file ``9 - k`` (j…a):
  Blue's "left" is Red's right, so both axes are mirrored.

"Gespiegelt" (mirrored left to right, as the computer often plays them) swaps the
columns in the owner's frame, which is file ``f`` ↔ ``9 - f`` on the board for
either seat.

Which presets are which (docs/rules.md, Battlegeneral "Setups"):

* ``STANDARD_SETUPS`` — the game's eight *Standard-Aufstellungen* shown to players:
  the first eight classic named setups of the file, Blitzkrieg … Scout's Gambit.
* ``COMPUTER_SETUPS`` — the 20 the computer draws from: those eight plus the twelve
  "Archiv" setups (flag on the back row, closed in by mines, the ones the seed calls
  proven tournament setups; the data file says their origin is not documented).
  The five remaining classic setups (Shield Defense … Wheel of Danger) are presets
  players may pick by name but the computer does not use.
"""

from __future__ import annotations

from importlib import resources

from shared.games.general.board import mirror_square
from shared.games.general.pieces import ARMY, TOKEN_TO_RANK


def _load() -> dict[str, tuple[tuple[int, ...], ...]]:
    text = resources.files("shared.games.general").joinpath("setups.txt").read_text(encoding="utf-8")
    presets: dict[str, list[tuple[int, ...]]] = {}
    name = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("=="):
            name = line[2:].strip()
            presets[name] = []
        elif name is not None:
            presets[name].append(tuple(TOKEN_TO_RANK[token] for token in line.split()))
    for name, rows in presets.items():
        counts: dict[int, int] = {}
        for rank in (r for row in rows for r in row):
            counts[rank] = counts.get(rank, 0) + 1
        if len(rows) != 4 or any(len(row) != 10 for row in rows) or counts != ARMY:
            raise ValueError(f"setups.txt: {name} is not a valid army")
    return {name: tuple(rows) for name, rows in presets.items()}


PRESETS: dict[str, tuple[tuple[int, ...], ...]] = _load()
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
STANDARD_SETUPS: tuple[str, ...] = PRESET_NAMES[:8]
COMPUTER_SETUPS: tuple[str, ...] = STANDARD_SETUPS + tuple(n for n in PRESET_NAMES if n.startswith("Archiv"))
assert len(COMPUTER_SETUPS) == 20

_BY_LOWER = {name.lower(): name for name in PRESET_NAMES}


def preset_name(text: str) -> str | None:
    """The preset's proper name for ``text`` (case-insensitive), or None."""
    return _BY_LOWER.get(" ".join(text.split()).lower())


def standard_setups() -> tuple[str, ...]:
    """The eight Standard-Aufstellungen offered to players."""
    return STANDARD_SETUPS


def computer_setups() -> tuple[str, ...]:
    """The 20 setups the computer draws from (often mirrored)."""
    return COMPUTER_SETUPS


def preset_squares(name: str, seat: int, mirrored: bool = False) -> dict[int, int]:
    """The preset ``name`` placed for ``seat``: {square: rank code}."""
    placed: dict[int, int] = {}
    for row_index, row in enumerate(PRESETS[name]):
        for column, rank in enumerate(row):
            if seat == 0:
                square = row_index * 10 + column
            else:
                square = (9 - row_index) * 10 + (9 - column)
            if mirrored:
                square = mirror_square(square)
            placed[square] = rank
    return placed
