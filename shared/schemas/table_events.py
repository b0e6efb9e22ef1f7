"""The game service's socket (path /game/socket.io): table and Rückblick events and records.

Its own event tables, so the lobby's socket never accepts a table event and the game
service never a Wartesaal one.
"""

from __future__ import annotations

from shared.schemas.game_views import GAME_VIEW
from shared.schemas.mechanism import (
    Bool,
    Enum,
    Event,
    Int,
    Json,
    ListOf,
    Optional,
    Record,
    Ref,
    Str,
    define,
    events,
)

# --- game tables (the game service's socket, path /game/socket.io) ----------------

GAME_NAMES = ("hexagon", "bullet", "general", "hanse")
AI_STRENGTHS = ("leicht", "mittel", "stark")
OFFER_ACTIONS = ("offer", "accept", "decline")
CLAIM_ACTIONS = ("win", "draw")
TABLE_MODES = ("wartesaal", "computer", "same_device")
TABLE_KINDS = ("rated", "friendly", "computer", "daily", "same_device")
TABLE_STATUSES = ("running", "finished", "aborted")
MOVE_MAX_LENGTH = 200
FINAL_POSITION_DELAY_MS = 10_000  # the final position stays this long before the result shows

TABLE_RECORDS: dict[str, Record] = define(
    Record(
        "TableClockSetting",
        "A Fischer clock: base time plus increment per own move, in milliseconds.",
        {"base_ms": Int(), "inc_ms": Int()},
    ),
    Record(
        "TableSeat",
        "Who sits on a seat: a person (user_id, name, elo when known) or the computer (its strength).",
        {"user_id": Optional(Int()), "name": Optional(Str()), "elo": Optional(Int()),
         "computer": Optional(Enum(AI_STRENGTHS))},
    ),
    Record(
        "TableClocks",
        "Server time is the truth: remaining_ms as of server_now_ms; the running seat's clock counts down"
        " from there. Without a clock per_move_limit_ms is set and remaining_ms is the time left for the"
        " current move. pause_until_ms: when a pause between rounds ends by itself (both clocks stand"
        " still until then).",
        {"remaining_ms": ListOf(Int()), "running": Optional(Int()), "server_now_ms": Int(),
         "per_move_limit_ms": Optional(Int()), "pause_until_ms": Optional(Int())},
    ),
    Record(
        "TableOffers",
        "An open offer names the seat that made it.",
        {"draw": Optional(Int()), "takeback": Optional(Int())},
    ),
    Record(
        "TableResult",
        "How the game ended: winner seat (null: draw or aborted), a stable reason code, German and English"
        " text, and the game's own final score if it has one.",
        {"winner": Optional(Int()), "reason": Str(), "de": Str(), "en": Str(), "score": Json()},
    ),
    Record(
        "TableSummary",
        "One game in a list (live games, my games). kind: rated, friendly, computer, daily (a Tagesmarkt"
        " attempt) or same_device.",
        {"game_id": Int(), "game": Str(), "mode": Enum(TABLE_MODES), "kind": Enum(TABLE_KINDS),
         "rated": Bool(), "stake": Int(),
         "seats": ListOf(Ref("TableSeat")), "plies": Int(), "clock": Optional(Ref("TableClockSetting")),
         "status": Enum(TABLE_STATUSES), "result": Optional(Ref("TableResult")), "created_at": Str(),
         "finished_at": Optional(Str())},
    ),
)

GAME_CLIENT_EVENTS: dict[str, Event] = events(
    Event("table:join", "Open a table as a player or a spectator; answered with table:state.",
          {"game_id": Int()}),
    Event(
        "table:move",
        "Play a move (in the game's notation) on the table as it stood at `version`; a stale version is"
        " refused with the current state. `lag_ms`: the client's measured network round trip (table:ping),"
        " credited against the move's time up to the lag quota and at most one second.",
        {"game_id": Int(), "version": Int(), "move": Str(min_length=1, max_length=MOVE_MAX_LENGTH),
         "lag_ms": Optional(Int())},
    ),
    Event("table:resign", "Aufgeben.", {"game_id": Int()}),
    Event("table:draw", "Offer, accept or decline ½ Remis.", {"game_id": Int(), "action": Enum(OFFER_ACTIONS)}),
    Event("table:takeback", "↶ Zurück in friendly games: offer, accept or decline.",
          {"game_id": Int(), "action": Enum(OFFER_ACTIONS)}),
    Event(
        "table:new_local",
        "Start a table against the computer or for two on one device (no rating, no Taler); answered with"
        " table:state of the new table. `seat`: your seat against the computer (default 0).",
        {"game": Enum(GAME_NAMES), "mode": Enum(("computer", "same_device")), "options": Json(object_only=True),
         "strength": Optional(Enum(AI_STRENGTHS)), "seat": Optional(Int()),
         "clock": Optional(Ref("TableClockSetting"))},
    ),
    Event("table:undo", "Zug zurück at a local table (computer: your move and its answer; same device: the"
          " last move).", {"game_id": Int()}),
    Event("table:leave", "Stop receiving this table's updates (the game itself goes on).", {"game_id": Int()}),
    Event("ping_worker", "Round trip through a Celery worker (platform check).",
          {"nonce": Str(max_length=64)}),
    Event("table:ping", "Measure the round trip to the game service (sent as a move's `lag_ms`); answered"
          " with table:pong carrying `sent_ms` back.", {"sent_ms": Int()}),
    Event("table:claim", "The opponent has had no connection to the running Wartesaal table for longer than"
          " the leave rule allows (table:presence `claim_after_ms`): end the game as won (`win`) or as a draw"
          " (`draw`).", {"game_id": Int(), "action": Enum(CLAIM_ACTIONS)}),
)

GAME_SERVER_EVENTS: dict[str, Event] = events(
    Event(
        "table:state",
        "The whole table for this recipient: `view` is exactly what `you` (null: spectator) may see. Sent on"
        " join and after every change.",
        {"game_id": Int(), "game": Str(), "version": Int(), "mode": Enum(TABLE_MODES), "rated": Bool(),
         "stake": Int(), "seats": ListOf(Ref("TableSeat")), "you": Optional(Int()),
         "view": GAME_VIEW, "clocks": Ref("TableClocks"), "offers": Ref("TableOffers"),
         "status": Enum(TABLE_STATUSES), "result": Optional(Ref("TableResult")), "moves": ListOf(Str()),
         "final_position_delay_ms": Int()},
    ),
    Event("pong_worker", "Answer to ping_worker.", {"nonce": Str(), "worker": Str(), "pid": Int()}),
    Event("table:pong", "Answer to table:ping.", {"sent_ms": Int()}),
    Event(
        "table:presence",
        "A player's connection to a running Wartesaal table: `present`, or away for `away_ms` when this was"
        " sent. Once away for `claim_after_ms` the other player may end the game (table:claim); the leave"
        " rule usually ends it first.",
        {"game_id": Int(), "user_id": Int(), "present": Bool(), "away_ms": Optional(Int()),
         "claim_after_ms": Int()},
    ),
    Event(
        "error",
        "Your last event was refused; nothing changed.",
        {"code": Str(), "message": Str(), "event": Optional(Str())},
    ),
)


# --- Battlehanse alone at the game service: Tipp and Rückblick -----------

REVIEW_STATUSES = ("none", "queued", "running", "done", "failed")
REVIEW_CLASSES = ("green", "yellow", "red")

TABLE_RECORDS.update(define(
    Record(
        "ReviewMove",
        "One judged move of a Rückblick: `ply` indexes the game's moves; values in the game's unit"
        " (Battlehanse: points) from the reviewed seat's side; loss = best_value - played_value.",
        {"ply": Int(), "played": Str(), "best": Str(), "best_value": Json(), "played_value": Json(),
         "loss": Json(), "class": Enum(REVIEW_CLASSES)},
    ),
    Record(
        "Review",
        "The Rückblick of one seat of a finished game (seen by that seat's player, or by anyone once"
        " public). status none: not asked for yet. `hints`: Tipps asked for in the game. `mine`: the"
        " reader played this seat (may ask for it and make it public).",
        {"game_id": Int(), "game": Str(), "seat": Int(), "mine": Bool(), "review_id": Optional(Int()),
         "status": Enum(REVIEW_STATUSES), "done": Int(), "total": Optional(Int()), "public": Bool(),
         "hints": Int(), "moves": ListOf(Ref("ReviewMove"))},
    ),
))

GAME_CLIENT_EVENTS.update(events(
    Event("table:hint", "Tipp (Battlehanse against Leicht or Mittel): the strong computer computes your"
          " move at `version`; answered with ai_hint. The match is marked and does not count for the"
          " record.", {"game_id": Int(), "version": Int()}),
    Event("review:request", "Rückblick of your seat (default: your first) in a finished game; answered"
          " with review:state, then review_progress / review_done while it is computed.",
          {"game_id": Int(), "seat": Optional(Int())}),
    Event("review:public", "Show your Rückblick to everyone (or hide it again); answered with"
          " review:state.", {"game_id": Int(), "public": Bool()}),
))

GAME_SERVER_EVENTS.update(events(
    Event("ai_hint", "The strong computer's move for your seat (a Tipp): valid while the table stands at"
          " `ply` (its version).", {"request_id": Str(), "table_id": Str(), "ply": Int(), "seat": Int(),
                                     "move": Str(), "value": Optional(Json())}),
    Event("review:state", "Your Rückblick as it stands.", dict(TABLE_RECORDS["Review"].fields)),
    Event("review_progress", "One more move of a Rückblick was judged.",
          {"review_id": Int(), "done": Int(), "total": Int(), "ply": Int(), "class": Enum(REVIEW_CLASSES)}),
    Event("review_done", "A Rückblick is complete (or failed).", {"review_id": Int(), "status": Str()}),
))
