"""Events between services through the outbox (``shared.outbox``): their payloads.

The game service writes one as ``GameFinished(...).payload()``, the rating service reads it
with ``GameFinished.read``, which checks it against the record; the class and the record
list the same fields (tests/rating/test_game_finished.py), so writer and reader cannot
disagree about a key.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from shared.schemas.mechanism import (
    Bool,
    Int,
    ListOf,
    Optional,
    ProtocolError,
    Record,
    Ref,
    Str,
    define,
    validate_record,
)

GAME_FINISHED = "game_finished"

OUTBOX_RECORDS: dict[str, Record] = define(
    Record(
        "GameFinished",
        "Payload of the outbox event ``game_finished``: a table ended with a result (aborted tables send"
        " none). `seats`: user ids (null: the computer); `result`: as the table shows it; `plies` and"
        " `duration_ms` decide whether a rated game counts.",
        {"game_id": Int(), "game": Str(), "seats": ListOf(Optional(Int())), "result": Ref("TableResult"),
         "rated": Bool(), "stake": Int(), "mode": Str(), "plies": Int(), "duration_ms": Int()},
        # Open: during a rolling deploy a newer game service may add a field; the rating
        # service still settles the game instead of skipping it.
        open=True,
    ),
)


@dataclass(frozen=True)
class GameFinished:
    """The ``game_finished`` payload, field for field as in the record."""

    game_id: int
    game: str
    seats: list[int | None]
    result: dict[str, Any]  # a TableResult: winner, reason, de, en, score
    rated: bool
    stake: int
    mode: str
    plies: int
    duration_ms: int

    def payload(self) -> dict[str, Any]:
        """The JSON object the outbox keeps, field for field.

        Not checked against the record here: it is written in the transaction that ends the
        game, and a game must end even if its event were malformed.  The reader checks it
        (``read``), and the tests hold the class to the record and play real games through
        the rating service."""
        return asdict(self)

    @classmethod
    def read(cls, payload: Any) -> GameFinished | None:
        """The event in ``payload``, or None when it is no table's (e.g. a platform probe's)."""
        try:
            finished = cls(**validate_record("GameFinished", payload))
        except ProtocolError:
            return None
        return finished if len(finished.seats) == 2 else None

    @property
    def winner(self) -> int | None:
        return self.result["winner"]

    @property
    def reason(self) -> str:
        return self.result["reason"]
