"""A second, deliberately plain Battlehexagon, written from docs/rules.md for cross-checks.

No bitboards, no caching: cells are names, the board is a dict name -> "R" / "P" /
None, moves are tuples, and the whole history of positions is kept in a list.  Slow
on purpose and easy to read; the engine under ``shared.games.hexagon`` must agree
with it on legal moves, effects, outcomes and perft counts.
"""

from __future__ import annotations

COLUMN_LETTERS = "abcdefghi"
DIRECTIONS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]

# name -> (q, r), straight from docs/rules.md: q = column - 4, number = r - max(-4, -4 - q) + 1
COORD = {}
for _q in range(-4, 5):
    for _r in range(-4, 5):
        if abs(_q) <= 4 and abs(_r) <= 4 and abs(_q + _r) <= 4:
            _number = _r - max(-4, -4 - _q) + 1
            COORD[f"{COLUMN_LETTERS[_q + 4]}{_number}"] = (_q, _r)
NAME_AT = {qr: name for name, qr in COORD.items()}
ALL_NAMES = sorted(COORD, key=lambda n: (n[0], int(n[1:])))


def distance(a: str, b: str) -> int:
    (q1, r1), (q2, r2) = COORD[a], COORD[b]
    return max(abs(q1 - q2), abs(r1 - r2), abs((q1 + r1) - (q2 + r2)))


def _neighbours(name: str) -> list[str]:
    q, r = COORD[name]
    return [NAME_AT[(q + dq, r + dr)] for dq, dr in DIRECTIONS if (q + dq, r + dr) in NAME_AT]


# looked up once per cell: the lists never change and the cross-checks call these a lot
NEIGHBOURS = {name: _neighbours(name) for name in ALL_NAMES}
TWO_AWAY = {name: [other for other in ALL_NAMES if distance(name, other) == 2] for name in ALL_NAMES}


def neighbours(name: str) -> list[str]:
    return NEIGHBOURS[name]


def cells_at_distance_two(name: str) -> list[str]:
    return TWO_AWAY[name]


# Holes as listed in docs/rules.md, Battlehexagon "Maps" (and the engine's map docs).
MAP_HOLES = {
    "klassisch": set(),
    "dreiloch": {"e4", "d5", "f5"},
    "krater": {"e5", "d4", "d5", "e4", "e6", "f4", "f5"},
    "burggraben": {"c3", "c4", "c5", "d3", "d6", "e3", "e7", "f3", "f6", "g3", "g4", "g5"},
    "saeulen": {"b4", "c2", "d7", "f2", "g6", "h3"},
}


def new_state(holes: set[str], end_rule: str = "auffuellen") -> dict:
    board = {name: None for name in ALL_NAMES if name not in holes}
    for name in ("e1", "i5", "a5"):
        board[name] = "R"
    for name in ("i1", "e9", "a1"):
        board[name] = "P"
    state = {"board": board, "turn": "R", "clock": 0, "end_rule": end_rule, "keys": []}
    state["keys"].append(key_of(state))
    return state


def key_of(state: dict) -> tuple:
    return (
        tuple(sorted(n for n, v in state["board"].items() if v == "R")),
        tuple(sorted(n for n, v in state["board"].items() if v == "P")),
        state["turn"],
    )


def other(colour: str) -> str:
    return "P" if colour == "R" else "R"


def stone_moves(state: dict, colour: str) -> list[tuple]:
    """Clones (one per destination) and jumps of ``colour``, ignoring whose turn it is."""
    board = state["board"]
    clone_targets = set()
    jumps = []
    for cell, owner in board.items():
        if owner != colour:
            continue
        for n in neighbours(cell):
            if n in board and board[n] is None:
                clone_targets.add(n)
        for target in cells_at_distance_two(cell):
            if target in board and board[target] is None:
                jumps.append(("jump", cell, target))
    return [("clone", None, t) for t in clone_targets] + jumps


def count(state: dict, colour: str) -> int:
    return sum(1 for v in state["board"].values() if v == colour)


def outcome(state: dict):
    """None, or (winner "R"/"P"/None, reason, (rubin cells, perle cells))."""
    board = state["board"]
    empty = [n for n, v in board.items() if v is None]
    red, white = count(state, "R"), count(state, "P")

    def decide(reason, r, w):
        return ("R" if r > w else "P" if w > r else None, reason, (r, w))

    if not empty:
        return decide("brett_voll", red, white)
    if red == 0 or white == 0:
        return decide("keine_steine", red, white)
    turn = state["turn"]
    if not stone_moves(state, turn):
        if state["end_rule"] == "auffuellen":
            if turn == "R":
                return decide("keine_zuege", red, white + len(empty))
            return decide("keine_zuege", red + len(empty), white)
        if not stone_moves(state, other(turn)):
            return decide("keine_zuege_beide", red, white)
    if state["clock"] >= 100:
        return (None, "fuenfzig_zuege", (red, white))
    if state["keys"].count(state["keys"][-1]) >= 3:
        return (None, "wiederholung", (red, white))
    return None


def legal_moves(state: dict) -> list[tuple]:
    if outcome(state) is not None:
        return []
    moves = stone_moves(state, state["turn"])
    if not moves:
        return [("pass", None, None)]
    return moves


def apply(state: dict, move: tuple) -> dict:
    kind, frm, to = move
    board = dict(state["board"])
    me = state["turn"]
    if kind != "pass":
        board[to] = me
        if kind == "jump":
            board[frm] = None
        for n in neighbours(to):
            if board.get(n) == other(me):
                board[n] = me
    new = {
        "board": board,
        "turn": other(me),
        "clock": 0 if kind == "clone" else state["clock"] + 1,
        "end_rule": state["end_rule"],
        "keys": list(state["keys"]),
    }
    new["keys"].append(key_of(new))
    return new


def move_text(move: tuple) -> str:
    kind, frm, to = move
    if kind == "pass":
        return "— setzt aus"
    if kind == "clone":
        return to
    return f"{frm}-{to}"


def effect(state: dict, move: tuple) -> dict:
    kind, frm, to = move
    if kind == "pass":
        return {"kind": "pass", "from": None, "to": None, "turns": []}
    enemy = other(state["turn"])
    turns = sorted((n for n in neighbours(to) if state["board"].get(n) == enemy), key=ALL_NAMES.index)
    return {"kind": kind, "from": frm, "to": to, "turns": turns}


def perft(state: dict, depth: int) -> int:
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, m), depth - 1) for m in moves)
