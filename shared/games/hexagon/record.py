"""The downloadable game record (plain text, PGN-like) and reading it back.

Layout::

    [Spiel "Battlehexagon"]
    [Optionen "{"end_rule": "auffuellen", "map": "dreiloch"}"]
    [Karte "dreiloch"]
    [Endregel "auffuellen"]
    [Seed "7"]
    [Rubin "anna"]                  ← any headers the caller passes (players, date …)
    [Datum "2026-11-30"]
    [Ergebnis "1-0"]                ← 1-0, 0-1, ½-½, or * while running
    [Grund "brett_voll"]            ← reason code, then its text
    [GrundText "Brett voll / Board full"]
    [Stand "33-25"]                 ← cells Rubin-Perle

    1. e2 i2
    2. e1-e3 — setzt aus
    …

A game begun from a position adds ``[Start "<position>"]`` and, if Perle moved first,
its first line is ``1. ... e2``.  Values are in double quotes with ``\\"`` and ``\\\\``
escaped.  Battlehexagon hides nothing, so there is nothing more to reveal at the end.
:func:`parse_record` replays the moves from the options, seed (and start) and so
checks every move again.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from shared.games.base import BadNotation, GameError
from shared.games.hexagon.ending import end_of
from shared.games.hexagon.notation import move_text
from shared.games.hexagon.options import new_setup, setup_from_position
from shared.games.hexagon.state import Setup, State, initial
from shared.games.record_header import escape, read_record_text

ENGINE_KEYS = (
    "Spiel",
    "Optionen",
    "Karte",
    "Kartenseed",
    "Endregel",
    "Seed",
    "Start",
    "Ergebnis",
    "Grund",
    "GrundText",
    "Stand",
)
# the engine writes these itself, so a caller's own (e.g. a stale "result") is left out
_ENGINE_KEYS_EN = {"game", "options", "map", "map_seed", "end_rule", "seed", "start", "result", "reason", "score"}
_HEADER_RE = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*) "((?:[^"\\]|\\.)*)"\]$')
_TOKEN_RE = re.compile(r"—\s*setzt\s+aus|--\s*setzt\s+aus|\S+")
_RESULTS = {"1-0", "0-1", "½-½", "1/2-1/2", "*"}


def _quote(value: str) -> str:
    return f'"{escape(value)}"'


def _key(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9_]", "_", str(name))
    return cleaned if cleaned[:1].isalpha() else f"H{cleaned}"


def record(state: State, headers: dict[str, str] | None) -> str:
    setup = state.setup
    outcome = end_of(state)
    lines = ['[Spiel "Battlehexagon"]', f"[Optionen {_quote(json.dumps(setup.options, sort_keys=True))}]"]
    lines.append(f"[Karte {_quote(setup.options['map'])}]")
    if setup.map_seed is not None:
        lines.append(f"[Kartenseed {_quote(str(setup.map_seed))}]")
    lines.append(f"[Endregel {_quote(setup.options['end_rule'])}]")
    lines.append(f"[Seed {_quote(str(setup.seed))}]")
    if setup.start is not None:
        lines.append(f"[Start {_quote(setup.start)}]")
    for name, value in (headers or {}).items():
        key = _key(name)
        if key not in ENGINE_KEYS and key.lower() not in _ENGINE_KEYS_EN:
            lines.append(f"[{key} {_quote(str(value))}]")
    if outcome is None:
        lines.append('[Ergebnis "*"]')
    else:
        result = {0: "1-0", 1: "0-1", None: "½-½"}[outcome.winner]
        red_cells, white_cells = outcome.score or (0, 0)
        lines.append(f"[Ergebnis {_quote(result)}]")
        lines.append(f"[Grund {_quote(outcome.reason)}]")
        lines.append(f"[GrundText {_quote(f'{outcome.de} / {outcome.en}')}]")
        lines.append(f"[Stand {_quote(f'{int(red_cells)}-{int(white_cells)}')}]")
    lines.append("")
    moves = state.moves()
    side = setup.start_side
    numbered: list[str] = []
    number = 1
    line = ""
    if side == 1 and moves:
        line = "1. ..."
    for move in moves:
        if side == 0:
            if line:
                numbered.append(line)
            line = f"{number}. {move_text(move)}"
        else:
            line += f" {move_text(move)}"
            number += 1
        side = 1 - side
    if line:
        numbered.append(line)
    lines.extend(numbered)
    return "\n".join(lines) + "\n"


def _bad(de: str, en: str) -> BadNotation:
    return BadNotation("bad_record", f"Ungültige Partiedatei: {de}", f"Invalid game record: {en}")


def parse_record(text: str, replay: Callable[[State, str], State]) -> State:
    """Replay a record; ``replay(state, move_text)`` applies one checked move."""
    parts = read_record_text(
        text,
        not_text=_bad("kein Text", "not text"),
        bad_header=lambda _number, line: _bad(f"Kopfzeile nicht lesbar: {line[:40]!r}", f"unreadable header: {line[:40]!r}"),
        header=_HEADER_RE,
    )
    headers, body = parts.last, parts.lines
    if headers.get("Spiel") != "Battlehexagon":
        raise _bad("kein Battlehexagon-Spiel", "not a Battlehexagon game")
    setup = _setup_from(headers)
    state = initial(setup)
    for line in body:
        for token in _TOKEN_RE.findall(line):
            if re.fullmatch(r"\d+\.(\.\.)?|\.\.\.", token) or token in _RESULTS:
                continue
            try:
                state = replay(state, token)
            except GameError as exc:
                raise BadNotation(
                    "bad_record",
                    f"Ungültige Partiedatei, Zug {token!r}: {exc.de}",
                    f"Invalid game record, move {token!r}: {exc.en}",
                ) from exc
    return state


def _setup_from(headers: dict[str, str]) -> Setup:
    try:
        seed = int(headers.get("Seed", "0"))
        if "Optionen" in headers:
            options: dict[str, Any] = json.loads(headers["Optionen"])
            if not isinstance(options, dict):
                raise _bad("Optionen sind kein Objekt", "options are not an object")
        else:
            options = {"map": headers.get("Karte", "klassisch"), "end_rule": headers.get("Endregel", "auffuellen")}
            if "Kartenseed" in headers:
                options["map_seed"] = int(headers["Kartenseed"])
        if "Start" in headers:
            if options.get("map") == "eigen":
                options = {"end_rule": options.get("end_rule", "auffuellen")}
            return setup_from_position(headers["Start"], options)
        return new_setup(options, seed)
    except GameError as exc:
        raise BadNotation("bad_record", f"Ungültige Partiedatei: {exc.de}", f"Invalid game record: {exc.en}") from exc
    except ValueError as exc:  # int() / json.loads on garbage
        raise _bad("Kopfzeilen nicht lesbar", "unreadable headers") from exc
