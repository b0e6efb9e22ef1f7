"""The computer's requests and answers (game service ↔ AI worker, ``shared.ai_protocol``).

A request travels as the single argument of the Celery tasks ``ai.move`` / ``ai.hint``,
an answer as the JSON under ``answer`` in an entry of the Redis stream ``ai:answers``.
Both records are open: a newer sender may add a field during a rolling deploy, and an
older receiver drops it.
"""

from __future__ import annotations

from shared.schemas.mechanism import (
    AnyOf,
    Enum,
    Int,
    Json,
    MapOf,
    Number,
    Optional,
    Record,
    Ref,
    Str,
    define,
)
from shared.schemas.table_events import AI_STRENGTHS

KINDS = ("move", "hint")

AI_RECORDS: dict[str, Record] = define(
    Record(
        "MoveRequest",
        "Move (or hint) for one seat of one table. `kind`: move (a computer seat) or hint (the strong level's"
        " move for a human seat, asked by `user_id`); `ply`: the table's version `view` (exactly the engine's"
        " view of `seat`) belongs to; `deadline`: epoch seconds; `attempt`: 2, 3 … for re-requests.",
        {"request_id": Str(), "kind": Enum(KINDS), "game": Str(), "table_id": AnyOf((Str(), Int())), "ply": Int(),
         "seat": Int(), "strength": Enum(AI_STRENGTHS), "view": Json(object_only=True), "deadline": Number(),
         "user_id": Optional(Int()), "attempt": Optional(Int())},
        open=True,
    ),
    Record("MoveError", "Why the computer could not move, with texts in both languages.",
           {"code": Str(), "de": Str(), "en": Str()}, open=True),
    Record(
        "MoveAnswer",
        "The worker's answer; `move` is null only with `error`. `deadline`: the request's, `answered_at`: when"
        " the worker wrote it (epoch seconds); `worker`: host:pid; `stats`: search_ms, and nodes / depth when"
        " the player reports them.",
        {"request_id": Str(), "game": Str(), "table_id": Str(), "ply": Int(), "seat": Int(),
         "move": Optional(Str()), "deadline": Number(), "answered_at": Number(), "worker": Optional(Str()),
         "attempt": Optional(Int()), "error": Optional(Ref("MoveError")), "stats": Optional(MapOf(Number()))},
        open=True,
    ),
)
