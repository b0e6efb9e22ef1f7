"""A game record's ``[Key "value"]`` headers: splitting a record into them and its move
lines, and escaping a value for writing.

The four records differ in their headers and move text, not in this frame, so each
``record.py`` reads it here and passes in what is its own: the header pattern, whether
values carry backslash escapes, its comment lines and its error messages.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from shared.games.base import BadNotation

# ``[Key "value"]`` with ``\"`` and ``\\`` escaped inside the value.
HEADER_LINE = re.compile(r'^\[(\w+) "((?:[^"\\]|\\.)*)"\]$')


@dataclass(frozen=True)
class RecordText:
    """A record's headers (every value of a repeated key, in order) and its other lines."""

    headers: dict[str, list[str]]
    body: list[tuple[int, str]]  # (line number from 1, the line stripped)

    @property
    def last(self) -> dict[str, str]:
        """Each header's last value (a key written twice: the later one counts)."""
        return {key: values[-1] for key, values in self.headers.items()}

    @property
    def lines(self) -> list[str]:
        return [line for _number, line in self.body]


def escape(value: object) -> str:
    """A header value as written between the quotes: ``\\`` and ``"`` escaped, one line."""
    return str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def read_record_text(
    text: object,
    *,
    not_text: BadNotation,
    bad_header: Callable[[int, str], BadNotation] | None,
    header: re.Pattern[str] = HEADER_LINE,
    escaped: bool = True,
    comments: tuple[str, ...] = (),
) -> RecordText:
    """Headers and body of ``text``; blank lines and lines starting with one of
    ``comments`` are skipped.  A line starting with ``[`` that is not a header raises
    ``bad_header(line number, line)``, or stays in the body when that is None."""
    if not isinstance(text, str):
        raise not_text
    headers: dict[str, list[str]] = {}
    body: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(comments):
            continue
        match = header.match(line)
        if match:
            headers.setdefault(match.group(1), []).append(unescape(match.group(2)) if escaped else match.group(2))
        elif bad_header is not None and line.startswith("["):
            raise bad_header(number, line)
        else:
            body.append((number, line))
    return RecordText(headers, body)
