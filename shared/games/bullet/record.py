"""The plain-text game record for download, and reading it back.

::

    [Game "bullet"]
    [Title "Battlebullet"]
    [Layout "standard"]
    [WinTarget "6"]
    [MoveLimit "none"]
    [Seed "1"]
    [White "anna"]            ← caller's headers (players, date, …)
    [Result "1-0"]
    [Reason "siegziel"]
    [ReasonText "Siegziel erreicht … / Win target reached …"]
    [Final "<position text of the final position>"]

    1. A1A3-B1B3 I7I9-H6H8
    2. …
    1-0

``Start "<position>"`` appears when the game began from a position instead of the
layout; ``1...`` then marks a first move by Schwarz.  Results: ``1-0`` Weiß won,
``0-1`` Schwarz won, ``1/2-1/2`` draw, ``*`` still running.  Battlebullet hides
nothing, so the record is complete as it stands.  Reading replays every move through
the rules and checks the final position against ``Final``.
"""

from __future__ import annotations

import re

from shared.games.base import BadNotation, GameError
from shared.games.bullet.movegen import TEXT
from shared.games.bullet.position import format_position
from shared.games.bullet.state import BulletState
from shared.games.record_header import escape, read_record_text

_HEADER_RE = re.compile(r'^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$')
_MOVE_NUMBER_RE = re.compile(r"^\d+\.(\.\.)?$")
_RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_OWN_HEADERS = (
    "Game",
    "Title",
    "Layout",
    "WinTarget",
    "MoveLimit",
    "Seed",
    "Start",
    "Result",
    "Reason",
    "ReasonText",
    "Final",
)


def _quote(value: str) -> str:
    return escape(" ".join(str(value).split()))


def result_token(state: BulletState) -> str:
    if state.outcome is None:
        return "*"
    return {0: "1-0", 1: "0-1", None: "1/2-1/2"}[state.outcome.winner]


def write(state: BulletState, headers: dict[str, str]) -> str:
    pairs: list[tuple[str, str]] = [
        ("Game", "bullet"),
        ("Title", "Battlebullet"),
        ("Layout", state.layout),
        ("WinTarget", str(state.win_target)),
        ("MoveLimit", "none" if state.move_limit is None else str(state.move_limit)),
        ("Seed", str(state.seed)),
    ]
    if state.start is not None:
        pairs.append(("Start", state.start))
    reserved = {h.lower() for h in _OWN_HEADERS}
    for key, value in (headers or {}).items():
        name = re.sub(r"[^A-Za-z0-9_]", "_", str(key)) or "_"
        if name.lower() not in reserved:
            pairs.append((name, str(value)))
    outcome = state.outcome
    pairs.append(("Result", result_token(state)))
    pairs.append(("Reason", outcome.reason if outcome else ""))
    pairs.append(("ReasonText", f"{outcome.de} / {outcome.en}" if outcome else ""))
    pairs.append(("Final", format_position(state.white, state.black, state.side, state.out, state.ply)))
    lines = [f'[{key} "{_quote(value)}"]' for key, value in pairs]
    lines.append("")
    first_side = 0 if state.start is None else (1 if state.start.split()[1] == "b" else 0)
    body: list[str] = []
    line = ""
    number = 1
    side = first_side
    for index, move in enumerate(state.moves):
        if side == 0:
            if line:
                body.append(line)
            line = f"{number}. {TEXT[move]}"
        else:
            if index == 0:
                line = f"{number}... {TEXT[move]}"
            else:
                line += f" {TEXT[move]}"
            number += 1
        side = 1 - side
    if line:
        body.append(line)
    body.append(result_token(state))
    return "\n".join(lines + body) + "\n"


def read(text: str) -> tuple[dict[str, str], list[str]]:
    """Record text → (headers, move texts).  Raises BadNotation for malformed text."""
    parts = read_record_text(
        text,
        not_text=BadNotation("bad_record", "Die Partiedatei ist kein Text", "The record is not text"),
        bad_header=lambda number, _line: BadNotation(
            "bad_record", f"Zeile {number}: unlesbare Kopfzeile", f"Line {number}: unreadable header"
        ),
        header=_HEADER_RE,
    )
    headers = parts.last
    moves: list[str] = []
    for line in parts.lines:
        for token in line.split():
            if _MOVE_NUMBER_RE.match(token) or token in _RESULTS:
                continue
            moves.append(token)
    if headers.get("Game") != "bullet":
        raise BadNotation(
            "bad_record",
            "Keine Battlebullet-Partie (Kopfzeile Game fehlt)",
            "Not a Battlebullet record (Game header missing)",
        )
    return headers, moves


def options_from(headers: dict[str, str]) -> dict:
    def number(key: str, default: str) -> int | None:
        value = headers.get(key, default)
        if value == "none":
            return None
        if not value.isdigit():
            raise BadNotation("bad_record", f"Kopfzeile {key}: keine Zahl", f"Header {key}: not a number")
        return int(value)

    return {
        "layout": headers.get("Layout", "standard"),
        "win_target": number("WinTarget", "6"),
        "move_limit": number("MoveLimit", "none"),
    }


def wrap(error: GameError, move_number: int, text: str) -> BadNotation:
    return BadNotation(
        "bad_record",
        f"Zug {move_number} ({text}): {error.de}",
        f"Move {move_number} ({text}): {error.en}",
    )
