"""A deliberately plain second implementation of the Battlebullet rules (docs/rules.md).

Written from docs/rules.md, independent of ``shared.games.bullet``: cells are
``(row, diag)`` tuples, the board is a dict cell → 0 (Weiß) or 1 (Schwarz), moves
are ``(frozenset(marbles), direction)`` and everything is loops.  Slow and obvious,
for cross-checking the engine.
"""

from __future__ import annotations

ROWS = "ABCDEFGHI"
# (Δrow, Δdiag): along a row ±1; next row same diagonal or +1; previous row same or −1.
DIRECTIONS = {"E": (0, 1), "W": (0, -1), "NE": (1, 1), "NW": (1, 0), "SW": (-1, -1), "SE": (-1, 0)}


def on_board(cell: tuple[int, int]) -> bool:
    row, diag = cell
    return 1 <= row <= 9 and 1 <= diag <= 9 and abs(row - diag) <= 4


ALL_CELLS = [(r, d) for r in range(1, 10) for d in range(1, 10) if on_board((r, d))]


def name(cell: tuple[int, int]) -> str:
    return ROWS[cell[0] - 1] + str(cell[1])


def parse_cell(text: str) -> tuple[int, int]:
    return (ROWS.index(text[0]) + 1, int(text[1:]))


def add(cell: tuple[int, int], delta: tuple[int, int], times: int = 1) -> tuple[int, int]:
    return (cell[0] + delta[0] * times, cell[1] + delta[1] * times)


def start_board(layout: str) -> dict[tuple[int, int], int]:
    def cells(spec: str) -> list[tuple[int, int]]:
        result = []
        for part in spec.split():
            if "-" in part:
                a, b = part.split("-")
                for d in range(int(a[1:]), int(b[1:]) + 1):
                    result.append((ROWS.index(a[0]) + 1, d))
            else:
                result.append(parse_cell(part))
        return result

    table = {
        "standard": ("A1-A5 B1-B6 C3-C5", "I5-I9 H4-H9 G5-G7"),
        "belgisch": ("A1 A2 B1 B2 B3 C2 C3 G7 G8 H7 H8 H9 I8 I9", "A4 A5 B4 B5 B6 C5 C6 G4 G5 H4 H5 H6 I5 I6"),
        "deutsch": ("B1 B2 C1 C2 C3 D2 D3 F7 F8 G7 G8 G9 H8 H9", "B5 B6 C5 C6 C7 D6 D7 F3 F4 G3 G4 G5 H4 H5"),
    }
    white, black = table[layout]
    board = {}
    for cell in cells(white):
        board[cell] = 0
    for cell in cells(black):
        board[cell] = 1
    return board


def groups(board: dict, side: int) -> list[list[tuple[int, int]]]:
    """Every set of 1–3 own marbles in a line, each set once, ordered along its axis."""
    result = []
    for cell in ALL_CELLS:
        if board.get(cell) != side:
            continue
        result.append([cell])
        for axis in ("E", "NE", "NW"):
            line = [cell]
            for k in (1, 2):
                nxt = add(cell, DIRECTIONS[axis], k)
                if board.get(nxt) != side:
                    break
                line = line + [nxt]
                result.append(list(line))
    return result


def move_result(board: dict, side: int, line: list, direction: str):
    """None if illegal; else (new board, moves list [(from, to or None)], pushed, out)."""
    delta = DIRECTIONS[direction]
    enemy = 1 - side
    moves = []
    if len(line) == 1 or add(line[0], delta) in line or add(line[-1], delta) in line:
        # in line: find the leading marble (the one whose target is not in the group)
        lead = [c for c in line if add(c, delta) not in line][0]
        target = add(lead, delta)
        if not on_board(target):
            return None
        pushed_cells = []
        if board.get(target) == side:
            return None
        if board.get(target) == enemy:
            probe = target
            while on_board(probe) and board.get(probe) == enemy:
                pushed_cells.append(probe)
                probe = add(probe, delta)
            if len(pushed_cells) >= len(line):
                return None
            if on_board(probe) and board.get(probe) == side:
                return None
        for c in line:
            moves.append((c, add(c, delta)))
        for c in pushed_cells:
            dest = add(c, delta)
            moves.append((c, dest if on_board(dest) else None))
    else:
        if len(line) < 2:
            return None
        for c in line:
            dest = add(c, delta)
            if not on_board(dest) or dest in board:
                return None
            moves.append((c, dest))
        pushed_cells = []
    new_board = dict(board)
    for c, _ in moves:
        del new_board[c]
    for c, dest in moves:
        if dest is not None:
            new_board[dest] = side if c in line else enemy
    out = any(dest is None for _, dest in moves)
    return new_board, moves, len(pushed_cells), out


def legal_moves(board: dict, side: int) -> dict:
    """{(frozenset(line), direction): (new_board, moves, pushed, out)}."""
    result = {}
    for line in groups(board, side):
        for direction in DIRECTIONS:
            res = move_result(board, side, line, direction)
            if res is not None:
                result[(frozenset(line), direction)] = res
    return result


def perft(board: dict, side: int, out: tuple[int, int], depth: int, win_target: int = 6) -> int:
    if out[0] >= win_target or out[1] >= win_target:
        return 0
    moves = legal_moves(board, side)
    if depth == 1:
        return len(moves)
    total = 0
    for new_board, _moves, _pushed, pushed_out in moves.values():
        new_out = (out[0] + (1 if pushed_out and side == 0 else 0), out[1] + (1 if pushed_out and side == 1 else 0))
        total += perft(new_board, 1 - side, new_out, depth - 1, win_target)
    return total


def endangered(board: dict, side: int) -> set:
    """Cells of ``side``'s marbles that the opponent could push off with one move."""
    result = set()
    for _new, moves, _pushed, pushed_out in legal_moves(board, 1 - side).values():
        if pushed_out:
            for c, dest in moves:
                if dest is None:
                    result.add(c)
    return result


def position_text(board: dict, side: int, out: tuple[int, int] = (0, 0), plies: int = 0) -> str:
    """The engine's documented position format, written from the board dict."""
    rows = []
    for row in range(9, 0, -1):
        text = ""
        empty = 0
        for diag in range(1, 10):
            cell = (row, diag)
            if not on_board(cell):
                continue
            if cell not in board:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += "w" if board[cell] == 0 else "b"
        if empty:
            text += str(empty)
        rows.append(text)
    return "/".join(rows) + f" {'wb'[side]} {out[0]} {out[1]} {plies}"


def board_from(white: str, black: str) -> dict:
    """``board_from("A1 A2", "B2")`` → board dict."""
    board = {}
    for text in white.split():
        board[parse_cell(text)] = 0
    for text in black.split():
        board[parse_cell(text)] = 1
    return board


def board_from_view(view: dict) -> dict:
    return board_from(" ".join(view["marbles"]["white"]), " ".join(view["marbles"]["black"]))


def moves_as_names(moves: list) -> list:
    """Reference moves list → [[from, to_or_None], ...] with cell names, sorted."""
    return sorted([name(a), name(b) if b is not None else None] for a, b in moves)
