"""The downloadable game record (plain text) and reading it back.

Format::

    [Game "Battlegeneral"]
    [Options "max_quiet_moves=200"]
    [Seed "7"]
    [Red "anna"]                     ← every header the caller passes, in its order
    [Result "1-0"]                   ← 1-0 Red won, 0-1 Blue won, 1/2-1/2 draw, * running
    [Reason "fahne_erobert"]
    [ReasonText "Fahne erobert / Flag captured"]
    [Setup "r: aufstellung Blitzkrieg | b: aufstellung On Guard gespiegelt | r: fertig | b: fertig"]
    [Start "<position text when play began>"]
    # start position as a diagram (comment lines)
    1. a4-a5 g7-g6
    2. b4xb5 (6:4) …

Both setups (``Setup``, ``Start``, the diagram) are hidden information, so they are
written only once the game is over — also when the table ended it (resigned, time,
agreement, left: the engine's ``conclude``; a game ended during the setup has its
setup moves as far as they got and no ``Start``, and reads back concluded by its
``Result``/``Reason``); the record of a running game holds the public
moves only and cannot be replayed.  Replaying uses the setup moves when present
(giving back exactly the played state), else the start position.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from shared.games.base import BadNotation, GameError, Outcome
from shared.games.general.moves import GeneralReason
from shared.games.general.notation import format_move, parse_move_text
from shared.games.general.state import State, ply_records
from shared.games.record_header import read_record_text

if TYPE_CHECKING:
    from shared.games.general.engine import GeneralGame

# Reasons the rules decide; any other reason is the table's.
RULES_ENDINGS = frozenset(GeneralReason)
_HEADER = re.compile(r'^\[(\w+) "(.*)"\]$')
_MOVE_TOKEN = re.compile(r"(\d+)\.|([a-j](?:10|[1-9])[-x][a-j](?:10|[1-9])(?: ?\((?:10|[1-9SBF]):(?:10|[1-9SBF])\))?)", re.IGNORECASE)


def _bad(de: str, en: str) -> BadNotation:
    return BadNotation("bad_record", de, en)


def result_text(st: State) -> str:
    if st.outcome is None:
        return "*"
    return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[st.outcome.winner]


def write_record(game: GeneralGame, st: State, headers: dict[str, str]) -> str:
    lines = [
        '[Game "Battlegeneral"]',
        f'[Options "{",".join(f"{k}={v}" for k, v in sorted(st.options.items()))}"]',
        f'[Seed "{st.seed}"]',
    ]
    for key, value in headers.items():
        name = re.sub(r"\W", "", str(key).title()) or "Header"
        if name in ("Game", "Options", "Seed", "Result", "Reason", "ReasonText", "Setup", "Start"):
            continue
        lines.append(f'[{name} "{str(value).replace(chr(34), chr(39))}"]')
    lines.append(f'[Result "{result_text(st)}"]')
    if st.outcome is not None:
        lines.append(f'[Reason "{st.outcome.reason}"]')
        lines.append(f'[ReasonText "{st.outcome.de} / {st.outcome.en}"]')
        if st.setup_log or not st.start:
            setup_moves = " | ".join(f"{'rb'[seat]}: {text}" for seat, text in st.setup_log)
            lines.append(f'[Setup "{setup_moves}"]')
        if st.start:
            lines.append(f'[Start "{st.start}"]')
            start = game.from_position(st.start, st.options)
        else:
            start = st  # ended during the setup: both placements as far as they got
        lines.extend("# " + line for line in game.render(start).splitlines())
    lines.append("")
    records = ply_records(st)
    for index in range(0, len(records), 2):
        pair = records[index : index + 2]
        texts = " ".join(format_move(frm, to, fight) for _m, _p, frm, to, fight, _h in pair)
        lines.append(f"{index // 2 + 1}. {texts}")
    return "\n".join(lines) + "\n"


def read_record(game: GeneralGame, text: str) -> State:
    parts = read_record_text(
        text,
        not_text=_bad("Die Partie-Aufzeichnung muss Text sein", "A game record must be text"),
        bad_header=lambda _number, line: _bad(f"Unlesbare Kopfzeile: {line[:60]}", f"Unreadable header: {line[:60]}"),
        header=_HEADER,
        escaped=False,  # values are written with " turned into ', never escaped
        comments=("#",),
    )
    headers, move_lines = parts.last, parts.lines
    if headers.get("Game") != "Battlegeneral":
        raise _bad("Keine Battlegeneral-Aufzeichnung", "Not a Battlegeneral record")
    if "Start" not in headers and "Setup" not in headers:
        raise _bad(
            "Die Aufzeichnung enthält keine Aufstellungen (Partie läuft noch?)",
            "The record holds no setups (game still running?)",
        )
    try:
        options = dict(
            (key, int(value)) for key, value in (item.split("=", 1) for item in headers.get("Options", "").split(",") if item)
        )
        seed = int(headers.get("Seed", "0"))
    except ValueError:
        raise _bad("Unlesbare Optionen oder Seed", "Unreadable options or seed") from None
    try:
        options = game.normalize_options(options)
        if "Setup" in headers:
            st = game.new_game(options, seed)
            for item in filter(None, headers["Setup"].split(" | ")):
                seat_letter, _, move = item.partition(": ")
                if seat_letter not in ("r", "b"):
                    raise _bad(f"Unlesbarer Aufstellungszug: {item}", f"Unreadable setup move: {item}")
                st = game.apply(st, move, "rb".index(seat_letter))
            if st.start != headers.get("Start", ""):
                raise _bad("Aufstellung und Startstellung passen nicht zusammen", "Setup moves and start position disagree")
        else:
            st = game.from_position(headers["Start"], options)
            st.seed = seed
        body = " ".join(move_lines)
        rest = _MOVE_TOKEN.sub(" ", body).strip()
        if rest:
            raise _bad(f"Unlesbarer Teil der Züge: {rest[:40]}", f"Unreadable part of the moves: {rest[:40]}")
        for match in _MOVE_TOKEN.finditer(body):
            token = match.group(2)
            if token is None:
                continue
            _f, _t, annotation = parse_move_text(token)
            st = game.apply(st, token)
            fight = st.plies[4] if st.plies else 0
            if annotation is not None and (not fight or annotation != (fight >> 4, fight & 15)):
                raise _bad(f"Kampfangabe stimmt nicht: {token}", f"Fight annotation does not match: {token}")
        st = _ended_by_the_table(game, st, headers)
    except BadNotation:
        raise
    except GameError as exc:
        raise _bad(f"Aufzeichnung nicht spielbar: {exc.de}", f"Record cannot be replayed: {exc.en}") from None
    if "Result" in headers and headers["Result"] != result_text(st):
        raise _bad("Das Ergebnis passt nicht zu den Zügen", "The result does not match the moves")
    return st


def _ended_by_the_table(game: GeneralGame, st: State, headers: dict[str, str]) -> State:
    """A game the table ended (resigned, time, agreement, left) is over by its headers,
    not by its moves: conclude the replayed state with the recorded result."""
    result = headers.get("Result", "*")
    if st.outcome is not None or result == "*" or "Reason" not in headers:
        return st
    winners = {"1-0": 0, "0-1": 1, "1/2-1/2": None}
    if result not in winners or headers["Reason"] in RULES_ENDINGS:
        # The rules' own endings must follow from the moves (checked by the caller).
        return st
    de, _, en = headers.get("ReasonText", "").partition(" / ")
    return game.conclude(st, Outcome(winners[result], headers["Reason"], de, en or de))
