"""A plain second implementation of the Battlegeneral play rules, for cross-checks.

Written from docs/rules.md and the documented repetition reading in
``shared/games/general/moves.py``, without the engine's tables or tricks: the board is
a dict {(file, rank): piece dict}, history is a list of dicts, everything is a loop.
It reads the engine's position text with its own parser.
"""

from __future__ import annotations

LAKES = {(2, 4), (3, 4), (2, 5), (3, 5), (6, 4), (7, 4), (6, 5), (7, 5)}  # (file, rank) 0-based
LETTERS = {"M": 10, "G": 9, "O": 8, "J": 7, "H": 6, "L": 5, "U": 4, "N": 3, "A": 2, "S": 1, "B": "B", "F": "F"}
TOKEN = {1: "S", "B": "B", "F": "F"}
FULL_ARMY = {10: 1, 9: 1, 8: 2, 7: 3, 6: 4, 5: 4, 4: 4, 3: 5, 2: 8, 1: 1, "B": 6, "F": 1}
DIRECTIONS = [(0, 1), (0, -1), (-1, 0), (1, 0)]


def name(square):
    return "abcdefghij"[square[0]] + str(square[1] + 1)


def token(rank):
    return TOKEN.get(rank, str(rank))


def on_board(square):
    return 0 <= square[0] < 10 and 0 <= square[1] < 10 and square not in LAKES


def adjacent(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def from_position(text, max_quiet_moves=200):
    """The engine's position text → reference state (play phase only)."""
    board_text, side, quiet, _ply = text.split()
    pieces = []  # (owner, square, rank, moved, scouted, revealed)
    for row_number, row in enumerate(board_text.split("/")):
        rank_index = 9 - row_number
        file = 0
        i = 0
        while i < len(row):
            if row[i].isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                file += int(row[i:j])
                i = j
            elif row[i] == "~":
                file += 1
                i += 1
            else:
                letter = row[i]
                i += 1
                marks = ""
                while i < len(row) and row[i] in "+^*":
                    marks += row[i]
                    i += 1
                owner = 0 if letter.isupper() else 1
                pieces.append((owner, (file, rank_index), LETTERS[letter.upper()], marks))
                file += 1
    board = {}
    captured = {0: [], 1: []}
    for owner in (0, 1):
        mine = sorted((p for p in pieces if p[0] == owner), key=lambda p: (p[1][1], p[1][0]))
        next_id = owner * 40
        left = dict(FULL_ARMY)
        for _owner, square, rank, marks in mine:
            board[square] = {
                "id": next_id,
                "owner": owner,
                "rank": rank,
                "moved": "+" in marks or "^" in marks,
                "scouted": "^" in marks,
                "revealed": "*" in marks,
            }
            left[rank] -= 1
            next_id += 1
        for rank in [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, "B", "F"]:
            for _ in range(left[rank]):
                captured[owner].append({"id": next_id, "rank": rank})
                next_id += 1
    state = {
        "board": board,
        "captured": captured,
        "to_move": 0 if side == "r" else 1,
        "quiet": int(quiet),
        "max_quiet": max_quiet_moves,
        "history": [],
        "result": None,
    }
    flags_left = [any(p["rank"] == "F" and p["owner"] == o for p in board.values()) for o in (0, 1)]
    if not all(flags_left):
        state["result"] = (0 if flags_left[0] else 1, "fahne_erobert")
    else:
        state["result"] = end_check(state)
    return state


def snapshot(state):
    return (frozenset((p["id"], sq) for sq, p in state["board"].items()), state["to_move"])


def physical_moves(state, side):
    moves = []
    for square, piece in state["board"].items():
        if piece["owner"] != side or piece["rank"] in ("B", "F"):
            continue
        for df, dr in DIRECTIONS:
            step = 1
            while True:
                target = (square[0] + df * step, square[1] + dr * step)
                if not on_board(target):
                    break
                other = state["board"].get(target)
                if other is None:
                    moves.append((square, target))
                    if piece["rank"] != 2:
                        break
                    step += 1
                    continue
                if other["owner"] != side:
                    moves.append((square, target))
                break
    return moves


def breaks_two_squares(state, move):
    side = state["to_move"]
    piece_id = state["board"][move[0]]["id"]
    own = [h for h in state["history"] if h["mover"] == side]
    run = 0
    expected_from, expected_to = move[1], move[0]  # the last own move must have gone the other way
    for h in reversed(own):
        if h["id"] != piece_id or h["from"] != expected_from or h["to"] != expected_to:
            break
        run += 1
        expected_from, expected_to = expected_to, expected_from
    return run + 1 > 3


def breaks_more_squares(state, move):
    frm, to = move
    if to in state["board"]:
        return False
    history = state["history"]
    if len(history) < 2:
        return False
    chaser = state["board"][frm]["id"]
    flight, mine = history[-1], history[-2]
    if flight["fight"] or mine["fight"] or mine["id"] != chaser:
        return False
    if not adjacent(flight["from"], frm) or not adjacent(to, flight["to"]):
        return False
    if to == mine["from"]:
        return False
    seen = [mine["after"]]
    i = len(history) - 2
    while i >= 2:
        older_flight, older = history[i - 1], history[i - 2]
        if older_flight["fight"] or older["fight"] or older["id"] != chaser:
            break
        if not adjacent(older_flight["from"], older["to"]) or not adjacent(history[i]["to"], older_flight["to"]):
            break
        seen.append(older["after"])
        i -= 2
    board = dict(state["board"])
    board[to] = board.pop(frm)
    after = (frozenset((p["id"], sq) for sq, p in board.items()), 1 - state["to_move"])
    return after in seen


def legal_moves(state):
    if state["result"] is not None:
        return []
    return [
        m
        for m in physical_moves(state, state["to_move"])
        if not breaks_two_squares(state, m) and not breaks_more_squares(state, m)
    ]


def fight(attacker, defender):
    """'attacker', 'defender' or 'both': who stays."""
    if defender == "F":
        return "attacker"
    if defender == "B":
        return "attacker" if attacker == 3 else "defender"
    if attacker == 1 and defender == 10:
        return "attacker"
    if attacker == defender:
        return "both"
    return "attacker" if attacker > defender else "defender"


def apply(state, move):
    frm, to = move
    board = {sq: dict(p) for sq, p in state["board"].items()}
    captured = {0: list(state["captured"][0]), 1: list(state["captured"][1])}
    piece = board.pop(frm)
    piece["moved"] = True
    if abs(frm[0] - to[0]) + abs(frm[1] - to[1]) > 1:
        piece["scouted"] = True
    defender = board.get(to)
    fought = None
    flag_taken = False
    if defender is None:
        board[to] = piece
        quiet = state["quiet"] + 1
    else:
        quiet = 0
        fought = (piece["rank"], defender["rank"])
        piece["revealed"] = True
        defender["revealed"] = True
        winner = fight(piece["rank"], defender["rank"])
        if winner == "attacker":
            board[to] = piece
            captured[defender["owner"]].append({"id": defender["id"], "rank": defender["rank"]})
            flag_taken = defender["rank"] == "F"
        elif winner == "defender":
            captured[piece["owner"]].append({"id": piece["id"], "rank": piece["rank"]})
        else:
            del board[to]
            captured[piece["owner"]].append({"id": piece["id"], "rank": piece["rank"]})
            captured[defender["owner"]].append({"id": defender["id"], "rank": defender["rank"]})
    new = {
        "board": board,
        "captured": captured,
        "to_move": 1 - state["to_move"],
        "quiet": quiet,
        "max_quiet": state["max_quiet"],
        "history": [],
        "result": None,
    }
    new["history"] = state["history"] + [
        {"mover": state["to_move"], "id": piece["id"], "from": frm, "to": to, "fight": fought, "after": snapshot(new)}
    ]
    if flag_taken:
        new["result"] = (state["to_move"], "fahne_erobert")
    else:
        new["result"] = end_check(new)
    return new


def end_check(state):
    mover = 1 - state["to_move"]
    probe = dict(state, result=None)
    if not legal_moves(probe):
        if not physical_moves(state, mover):
            return (None, "beide_blockiert")
        return (mover, "keine_zuege")
    if state["quiet"] >= state["max_quiet"]:
        return (None, "zweihundert_zuege")
    return None


def move_text(move, state=None):
    return f"{name(move[0])}-{name(move[1])}"


def parse(text):
    frm, to = text.split("-")
    return (("abcdefghij".index(frm[0]), int(frm[1:]) - 1), ("abcdefghij".index(to[0]), int(to[1:]) - 1))


def effect(state, move):
    frm, to = move
    df = (to[0] > frm[0]) - (to[0] < frm[0])
    dr = (to[1] > frm[1]) - (to[1] < frm[1])
    path = []
    square = frm
    while square != to:
        square = (square[0] + df, square[1] + dr)
        path.append(name(square))
    target = state["board"].get(to)
    return {
        "from": name(frm),
        "to": name(to),
        "piece": state["board"][frm]["id"],
        "path": path,
        "attack": target is not None,
        "target": target["id"] if target else None,
    }


def perft(state, depth):
    if depth == 0:
        return 1
    moves = legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(state, m), depth - 1) for m in moves)


def summary(state):
    """Comparable facts: {square name: (id, owner, rank token, moved, scouted, revealed)}, side, quiet."""
    pieces = {
        name(sq): (p["id"], p["owner"], token(p["rank"]), p["moved"], p["scouted"], p["revealed"])
        for sq, p in state["board"].items()
    }
    return pieces, state["to_move"], state["quiet"]


def position_text(pieces, side="r", quiet=0, ply=0):
    """Build a play-phase position text from {"a1": "F", "b7": "m+", …} (letters as in
    the engine's notation, upper case Red), written out square by square."""
    rows = []
    for rank_index in range(9, -1, -1):
        row = ""
        empty = 0
        for file in range(10):
            square = "abcdefghij"[file] + str(rank_index + 1)
            if (file, rank_index) in LAKES or square in pieces:
                if empty:
                    row += str(empty)
                    empty = 0
                row += "~" if (file, rank_index) in LAKES else pieces[square]
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    return f"{'/'.join(rows)} {side} {quiet} {ply}"
