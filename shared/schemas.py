"""The lobby protocol: one definition per message, for the server and the web client.

The server validates every incoming Socket.IO event and HTTP body against these
definitions (``validate``); ``python -m shared.schemas --ts`` writes the same
definitions as TypeScript (``web/src/protocol.ts``), so client and server cannot
drift apart silently (a test compares the committed file with a fresh rendering).

Types are deliberately few: strings with length bounds, integers, booleans, string
enums, lists, optional values and named records.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Any

from shared.i18n import LANGUAGES

# Limits shared by server and client.
CHAT_MAX_LENGTH = 300
CHAT_HISTORY_SIZE = 50
CHAT_RATE_LIMIT = 5  # messages ...
CHAT_RATE_WINDOW_SECONDS = 10  # ... per this many seconds, per user
NAME_MIN_LENGTH = 3
NAME_MAX_LENGTH = 20
PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 200
# Largest accepted event payload, as compact JSON.  Far above any legal message, far
# below Engine.IO's transport limit, so oversized input gets an error, not a hang-up.
MAX_EVENT_BYTES = 8192

PLAYER_STATUSES = ("frei", "spielt")


class ProtocolError(Exception):
    """Input that does not match its schema; ``code`` and ``params`` pick the i18n text."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


# --- types -----------------------------------------------------------------------


@dataclass(frozen=True)
class Str:
    min_length: int = 0
    max_length: int | None = None

    def ts(self) -> str:
        return "string"


@dataclass(frozen=True)
class Int:
    def ts(self) -> str:
        return "number"


@dataclass(frozen=True)
class Bool:
    def ts(self) -> str:
        return "boolean"


@dataclass(frozen=True)
class Enum:
    values: tuple[str, ...]

    def ts(self) -> str:
        return " | ".join(json.dumps(v) for v in self.values)


@dataclass(frozen=True)
class ListOf:
    item: Any

    def ts(self) -> str:
        inner = self.item.ts()
        return f"{inner}[]" if isinstance(self.item, (Str, Int, Bool, Ref)) else f"({inner})[]"


@dataclass(frozen=True)
class Optional:
    inner: Any

    def ts(self) -> str:
        return f"{self.inner.ts()} | null"


@dataclass(frozen=True)
class Json:
    """Any JSON value the server passes through untouched (an engine's ``view``, a score)."""

    object_only: bool = False

    def ts(self) -> str:
        return "Record<string, unknown>" if self.object_only else "unknown"


@dataclass(frozen=True)
class Ref:
    """A named record defined in ``RECORDS``."""

    name: str

    def ts(self) -> str:
        return self.name


@dataclass(frozen=True)
class Record:
    name: str
    doc: str
    fields: dict[str, Any]


@dataclass(frozen=True)
class Event:
    """A Socket.IO event; its single argument is a record with ``fields``."""

    name: str
    doc: str
    fields: dict[str, Any] = field(default_factory=dict)


# --- definitions -----------------------------------------------------------------

RECORDS: dict[str, Record] = {
    r.name: r
    for r in (
        Record(
            "User",
            "The signed-in account, as the lobby tells it to its owner.",
            {"id": Int(), "name": Str(), "guest": Bool(), "balance": Int()},
        ),
        Record(
            "ChatMessage",
            "One line of the Wartesaal chat; `text` is plain text, to be shown with textContent.",
            {"id": Int(), "user_id": Int(), "name": Str(), "text": Str(), "ts": Str()},
        ),
        Record(
            "Player",
            "Someone in the Wartesaal now (one entry per person, however many tabs), with their Elo per game.",
            {"user_id": Int(), "name": Str(), "status": Enum(PLAYER_STATUSES), "elo": Ref("EloByGame")},
        ),
        Record(
            "ErrorInfo",
            "What went wrong, with a message in the client's language.",
            {"code": Str(), "message": Str()},
        ),
        Record(
            "Credentials",
            "Body of POST /api/register and POST /api/login.",
            {"name": Str(max_length=100), "password": Str(max_length=1000)},
        ),
    )
}

CLIENT_EVENTS: dict[str, Event] = {
    e.name: e
    for e in (
        Event("chat:send", "Say something in the Wartesaal chat.", {"text": Str(max_length=CHAT_MAX_LENGTH)}),
        Event("lang:set", "Choose the language of error messages.", {"lang": Enum(LANGUAGES)}),
    )
}

SERVER_EVENTS: dict[str, Event] = {
    e.name: e
    for e in (
        Event(
            "welcome",
            "Sent once after connecting: who you are and the last chat messages.",
            {"user": Ref("User"), "history": ListOf(Ref("ChatMessage"))},
        ),
        Event(
            "players",
            "Everyone in the Wartesaal. A snapshot with a version: ignore one older than the newest seen.",
            {"version": Int(), "players": ListOf(Ref("Player"))},
        ),
        Event("chat:message", "A new chat message.", {"message": Ref("ChatMessage")}),
        Event(
            "error",
            "Your last event was refused; nothing changed.",
            {"code": Str(), "message": Str(), "event": Optional(Str())},
        ),
    )
}


# --- challenges (the lobby's socket) -----------------------------------------------
# Owned by the challenges (issue 5, services/lobby/challenges.py, shared/challenge.py).

CHALLENGE_CLOCKS = ("3+2", "5+3", "10+5", "15+10", "ohne")
CHALLENGE_STATUSES = ("open", "agreed", "started", "declined", "withdrawn", "expired")
CHALLENGE_GAMES = ("hexagon", "bullet", "general", "hanse")

RECORDS.update(
    {
        r.name: r
        for r in (
            Record(
                "EloByGame",
                "A player's Elo per game; null where they have no rated game yet (start value 1500).",
                {game: Optional(Int()) for game in CHALLENGE_GAMES},
            ),
            Record(
                "ChallengeSettings",
                "The one settings panel both sides see. `clock`: Bedenkzeit (\"ohne\": ten minutes per move);"
                " `options`: the game's options; `stake`: 0 or 10 to 100 Taler, rated games only; `swap`: ⇄ the"
                " challenged player takes the first colour.",
                {"clock": Enum(CHALLENGE_CLOCKS), "options": Json(object_only=True), "rated": Bool(),
                 "stake": Int(), "swap": Bool()},
            ),
            Record("ChallengeParty", "One side of a challenge.", {"user_id": Int(), "name": Str()}),
            Record(
                "Challenge",
                "A challenge as both sides see it. `agreed`: user ids agreeing to the settings of `version`;"
                " `expires_in_ms`: time left without activity; `reason`: why a start failed and it is open again;"
                " `first_user_id`: who takes seat 0 (the side that begins) when it starts with these settings.",
                {"id": Str(), "game": Enum(CHALLENGE_GAMES), "challenger": Ref("ChallengeParty"),
                 "challenged": Ref("ChallengeParty"), "settings": Ref("ChallengeSettings"), "agreed": ListOf(Int()),
                 "version": Int(), "status": Enum(CHALLENGE_STATUSES), "expires_in_ms": Int(),
                 "game_id": Optional(Int()), "rematch_of": Optional(Int()), "reason": Optional(Str()),
                 "first_user_id": Optional(Int())},
            ),
        )
    }
)

CLIENT_EVENTS.update(
    {
        e.name: e
        for e in (
            Event("challenge:create", "Challenge a player in the Wartesaal to a game (seed defaults).",
                  {"to_user_id": Int(), "game": Enum(CHALLENGE_GAMES)}),
            Event("challenge:propose", "Change the settings; the other side must confirm.",
                  {"challenge_id": Str(max_length=64), "settings": Ref("ChallengeSettings")}),
            Event("challenge:accept", "Agree to the settings as of `version`; when both agree, the game starts.",
                  {"challenge_id": Str(max_length=64), "version": Int()}),
            Event("challenge:decline", "End a challenge: the challenged declines, the challenger withdraws.",
                  {"challenge_id": Str(max_length=64)}),
            Event("challenge:rematch", "Revanche: challenge the opponent of a finished game, colours swapped.",
                  {"game_id": Int()}),
        )
    }
)

SERVER_EVENTS.update(
    {
        e.name: e
        for e in (
            Event("challenge:update", "A challenge you take part in, as it stands now.",
                  {"challenge": Ref("Challenge")}),
            Event("challenge:started", "Both agreed: the game is created; open #/partie/<game_id>.",
                  {"challenge_id": Str(), "game_id": Int(), "game": Str()}),
        )
    }
)


# --- „Gegner suchen": open seeks (the lobby's socket; services/lobby/challenge_seeks.py) --

RECORDS["Seek"] = Record(
    "Seek",
    "An open seek („Gegner suchen“) in the Wartesaal: anyone rated `elo_min` to `elo_max` in `game` may take"
    " it; the seeker plays as the challenger. `expires_in_ms`: time left.",
    {"id": Str(), "game": Enum(CHALLENGE_GAMES), "seeker": Ref("ChallengeParty"), "elo": Int(), "elo_min": Int(),
     "elo_max": Int(), "expires_in_ms": Int()},
)
CLIENT_EVENTS.update(
    {
        e.name: e
        for e in (
            Event("seek:create", "Gegner suchen: open a seek for `game` that a player of your strength (Elo) may"
                  " take; one that fits already open is taken instead.", {"game": Enum(CHALLENGE_GAMES)}),
            Event("seek:cancel", "Withdraw your open seek.", {}),
            Event("seek:take", "Take an open seek: the game starts at once.", {"seek_id": Str(max_length=64)}),
        )
    }
)
SERVER_EVENTS["seek:list"] = Event("seek:list", "Every open seek, oldest first (to every Wartesaal page).",
                                   {"seeks": ListOf(Ref("Seek"))})


# --- Schnelle Partie (the lobby's socket; services/lobby/quick_match.py) ------------

QUICK_STATES = ("idle", "waiting")

CLIENT_EVENTS.update(
    {
        e.name: e
        for e in (
            Event("quick:join", "Schnelle Partie: wait for the best-fitting free opponent in `game`'s pool;"
                  " `clocks`: the Bedenkzeiten you accept (empty: any the game allows).",
                  {"game": Enum(CHALLENGE_GAMES), "clocks": ListOf(Enum(CHALLENGE_CLOCKS))}),
            Event("quick:cancel", "Leave the Schnelle Partie pool.", {}),
        )
    }
)

SERVER_EVENTS.update(
    {
        e.name: e
        for e in (
            Event("quick:status", "Your Schnelle Partie: idle or waiting (game, clocks, how many wait for it);"
                  " `game_id`: the game a wave just started for you (challenge:started follows).",
                  {"state": Enum(QUICK_STATES), "game": Optional(Enum(CHALLENGE_GAMES)),
                   "clocks": ListOf(Enum(CHALLENGE_CLOCKS)), "waiting": Int(), "game_id": Optional(Int())}),
        )
    }
)


# --- game tables (the game service's socket, path /game/socket.io) ----------------
# Owned by the tables (issue 5): its own event tables, so the lobby's socket never
# accepts a table event and the game service never a Wartesaal one.

GAME_NAMES = ("hexagon", "bullet", "general", "hanse")
AI_STRENGTHS = ("leicht", "mittel", "stark")
OFFER_ACTIONS = ("offer", "accept", "decline")
CLAIM_ACTIONS = ("win", "draw")
TABLE_MODES = ("wartesaal", "computer", "same_device")
TABLE_KINDS = ("rated", "friendly", "computer", "daily", "same_device")
TABLE_STATUSES = ("running", "finished", "aborted")
MOVE_MAX_LENGTH = 200
FINAL_POSITION_DELAY_MS = 10_000  # the final position stays this long before the result shows

RECORDS.update(
    {
        r.name: r
        for r in (
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
    }
)

GAME_CLIENT_EVENTS: dict[str, Event] = {
    e.name: e
    for e in (
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
}

GAME_SERVER_EVENTS: dict[str, Event] = {
    e.name: e
    for e in (
        Event(
            "table:state",
            "The whole table for this recipient: `view` is exactly what `you` (null: spectator) may see. Sent on"
            " join and after every change.",
            {"game_id": Int(), "game": Str(), "version": Int(), "mode": Enum(TABLE_MODES), "rated": Bool(),
             "stake": Int(), "seats": ListOf(Ref("TableSeat")), "you": Optional(Int()),
             "view": Json(object_only=True), "clocks": Ref("TableClocks"), "offers": Ref("TableOffers"),
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
}


# --- the game pages (issue 9: #/spiel/<game>, services/lobby/game_page_routes.py) ----

RECORDS.update(
    {
        r.name: r
        for r in (
            Record(
                "GameFigures",
                "Answer of GET /api/spiel/<game> and POST /api/spiel/<game>/sterne: finished games of this kind,"
                " the players' stars (average null: not rated yet), the asking player's own stars and whether"
                " they may rate (they have played it).",
                {"game": Enum(GAME_NAMES), "plays": Int(), "stars_average": Optional(Json()), "stars_count": Int(),
                 "my_stars": Optional(Int()), "may_rate": Bool()},
            ),
            Record("StarsBody", "Body of POST /api/spiel/<game>/sterne: 1 to 5 stars.", {"stars": Int()}),
        )
    }
)


# --- profiles, Postfach, Meine Partien statistics (issue 9: services/lobby/profile_routes.py,
# services/lobby/mailbox_routes.py) ----------------------------------------------------

INVITATION_STATUSES = ("open", "started", "declined", "withdrawn", "expired")
NOTE_KINDS = ("accepted", "declined")
GAME_RESULTS = ("win", "loss", "draw")
PLAYED_KINDS = ("rated", "friendly", "computer")

RECORDS.update(
    {
        r.name: r
        for r in (
            Record(
                "InvitationRequest",
                "Body of POST /api/postfach/invitations: invite a player to a game with the seed's options;"
                " the inviter agrees to these settings by sending.",
                {"to_user_id": Int(), "game": Enum(CHALLENGE_GAMES), "clock": Enum(CHALLENGE_CLOCKS),
                 "rated": Bool(), "stake": Int()},
            ),
            Record(
                "Invitation",
                "An invitation in the Postfach. `awaiting_user_id`: whose answer it waits for (the invitee, or the"
                " inviter after the invitee accepted while they were away).",
                {"id": Int(), "game": Enum(CHALLENGE_GAMES), "inviter": Ref("ChallengeParty"),
                 "invitee": Ref("ChallengeParty"), "settings": Ref("ChallengeSettings"),
                 "status": Enum(INVITATION_STATUSES), "awaiting_user_id": Int(), "game_id": Optional(Int()),
                 "created_at": Str(), "updated_at": Str()},
            ),
            Record(
                "PostfachNote",
                "A note: an invitation was accepted while you were away (now yours to start), or declined.",
                {"id": Int(), "kind": Enum(NOTE_KINDS), "read": Bool(), "created_at": Str(),
                 "invitation": Ref("Invitation")},
            ),
            Record(
                "Postfach",
                "Answer of GET /api/postfach: your open invitations both ways, your latest notes; `count`: the"
                " badge (invitations waiting for you plus unread notes).",
                {"count": Int(), "invitations": ListOf(Ref("Invitation")), "notes": ListOf(Ref("PostfachNote"))},
            ),
            Record(
                "Opponent",
                "Whom a game was played against: a person (user_id, name) or the computer (its strength);"
                " `key` is the value of the statistics' opponent filter.",
                {"key": Str(), "user_id": Optional(Int()), "name": Optional(Str()),
                 "computer": Optional(Enum(AI_STRENGTHS))},
            ),
            Record(
                "ProfileGame",
                "A profile's line per game: Elo (1500 before a first rated game), counted rated games, and the"
                " record of all finished games (rated, friendly, against the computer).",
                {"game": Enum(GAME_NAMES), "elo": Int(), "rated_games": Int(), "wins": Int(), "losses": Int(),
                 "draws": Int()},
            ),
            Record(
                "PlayedGame",
                "A finished game from one player's side.",
                {"game_id": Int(), "game": Enum(GAME_NAMES), "kind": Enum(PLAYED_KINDS), "result": Enum(GAME_RESULTS),
                 "opponent": Ref("Opponent"), "finished_at": Str()},
            ),
            Record(
                "Profile",
                "Answer of GET /api/players/<id>. `here`: in the Wartesaal now; `status` then frei or spielt.",
                {"user_id": Int(), "name": Str(), "guest": Bool(), "here": Bool(),
                 "status": Optional(Enum(PLAYER_STATUSES)), "games": ListOf(Ref("ProfileGame")),
                 "recent": ListOf(Ref("PlayedGame"))},
            ),
            Record(
                "EloPoint",
                "The Elo after one counted rated game (elo_before: before it).",
                {"game_id": Int(), "elo_before": Int(), "elo": Int(), "finished_at": Str()},
            ),
            Record(
                "EloHistory",
                "Answer of GET /api/players/<id>/elo-history: per game (key), its points oldest first.",
                {"user_id": Int(), "history": Json(object_only=True)},
            ),
            Record("Tally", "Wins, losses and draws.", {"wins": Int(), "losses": Int(), "draws": Int()}),
            Record(
                "OpponentTally",
                "The record against one opponent.",
                {"opponent": Ref("Opponent"), "wins": Int(), "losses": Int(), "draws": Int(), "games": Int()},
            ),
            Record(
                "MyGamesStatistics",
                "Answer of GET /api/my-games/statistics?game=&opponent=&result=&kind=: tallies of the games passing"
                " the filters per game (key → Tally) and per opponent, everyone ever played (for the filter), and"
                " the ids of the games passing the filters.",
                {"filters": Json(object_only=True), "per_game": Json(object_only=True),
                 "per_opponent": ListOf(Ref("OpponentTally")), "opponents": ListOf(Ref("Opponent")),
                 "game_ids": ListOf(Int())},
            ),
            Record(
                "MyGameResult",
                "Answer of GET /api/my-games/<id>/result: what a finished game did to the caller, once the rating"
                " service settled it (settled false: not yet, every other field null). counted false: too short"
                " or not rated (stakes went back); taler: the net of the game's Taler movements for the caller;"
                " balance: the caller's balance now.",
                {"settled": Bool(), "counted": Optional(Bool()), "rated": Optional(Bool()), "stake": Optional(Int()),
                 "elo_before": Optional(Int()), "elo_after": Optional(Int()), "points": Optional(Int()),
                 "taler": Optional(Int()), "balance": Optional(Int())},
            ),
        )
    }
)

SERVER_EVENTS.update(
    {
        e.name: e
        for e in (
            Event("postfach:changed", "Your Postfach changed: the new badge count.", {"count": Int()}),
        )
    }
)


# --- Battlehanse alone at the game service (issue 8): Tipp and Rückblick -----------

REVIEW_STATUSES = ("none", "queued", "running", "done", "failed")
REVIEW_CLASSES = ("green", "yellow", "red")

RECORDS.update(
    {
        r.name: r
        for r in (
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
        )
    }
)

GAME_CLIENT_EVENTS.update(
    {
        e.name: e
        for e in (
            Event("table:hint", "Tipp (Battlehanse against Leicht or Mittel): the strong computer computes your"
                  " move at `version`; answered with ai_hint. The match is marked and does not count for the"
                  " record.", {"game_id": Int(), "version": Int()}),
            Event("review:request", "Rückblick of your seat (default: your first) in a finished game; answered"
                  " with review:state, then review_progress / review_done while it is computed.",
                  {"game_id": Int(), "seat": Optional(Int())}),
            Event("review:public", "Show your Rückblick to everyone (or hide it again); answered with"
                  " review:state.", {"game_id": Int(), "public": Bool()}),
        )
    }
)

GAME_SERVER_EVENTS.update(
    {
        e.name: e
        for e in (
            Event("ai_hint", "The strong computer's move for your seat (a Tipp): valid while the table stands at"
                  " `ply` (its version).", {"request_id": Str(), "table_id": Str(), "ply": Int(), "seat": Int(),
                                             "move": Str(), "value": Optional(Json())}),
            Event("review:state", "Your Rückblick as it stands.", dict(RECORDS["Review"].fields)),
            Event("review_progress", "One more move of a Rückblick was judged.",
                  {"review_id": Int(), "done": Int(), "total": Int(), "ply": Int(), "class": Enum(REVIEW_CLASSES)}),
            Event("review_done", "A Rückblick is complete (or failed).", {"review_id": Int(), "status": Str()}),
        )
    }
)


# --- Battlehanse alone: Tagesmarkt and Handelsaufgaben (issue 8: services/lobby/daily_market_routes.py,
# services/lobby/hanse_puzzle_routes.py) -----------------------------------------------

PUZZLE_KINDS = ("punkte", "bester_zug")
DAILY_PRACTICE_REASONS = ("guest", "later", "assisted")

RECORDS.update(
    {
        r.name: r
        for r in (
            Record("DailyStart", "Answer of POST /api/tagesmarkt/start: the new table; `counted`: the day's first"
                   " attempt of a registered account (else practice).",
                   {"game_id": Int(), "day": Str(), "counted": Bool()}),
            Record("DailyAttempt", "A Tagesmarkt attempt as its table shows it: the day, whether it counts"
                   " now, and if not why: a guest's, a later attempt of the day, or played with Zug zurück or a"
                   " Tipp.", {"game_id": Int(), "day": Str(), "counts": Bool(),
                              "practice_reason": Optional(Enum(DAILY_PRACTICE_REASONS))}),
            Record("DailyAttemptAnswer", "Answer of GET /api/tagesmarkt/versuch/<game_id>: your attempt at that"
                   " table, or null when it is none of yours.", {"attempt": Optional(Ref("DailyAttempt"))}),
            Record("DailyEntry", "One line of the Tagesliste: points ahead of the computer at the round's end.",
                   {"rank": Int(), "name": Str(), "score": Int()}),
            Record("DailyMine", "The player's own Tagesmarkt line; `counted_score` null while the round runs.",
                   {"played_today": Bool(), "counted_game_id": Optional(Int()), "counted_score": Optional(Int()),
                    "practice_today": Int(), "streak": Int()}),
            Record("DailyMarket", "Answer of GET /api/tagesmarkt: the Europe/Berlin day, its ten best, your line"
                   " (null for a guest: `needs_account`).",
                   {"day": Str(), "entries": ListOf(Ref("DailyEntry")), "mine": Optional(Ref("DailyMine")),
                    "needs_account": Bool()}),
            Record("PuzzleSummary", "A Handelsaufgabe in the list with your best stars (0–3) and attempts.",
                   {"id": Str(), "kind": Enum(PUZZLE_KINDS), "stars": Int(), "attempts": Int()}),
            Record("PuzzleList", "Answer of GET /api/handelsaufgaben, with your puzzle rating in Battlehanse.",
                   {"puzzles": ListOf(Ref("PuzzleSummary")), "stars": Int(), "max_stars": Int(),
                    "rating": Ref("AufgabeRating")}),
            Record("Puzzle", "Answer of GET /api/handelsaufgaben/<id>: the position as the solving seat sees it.",
                   {"id": Str(), "kind": Enum(PUZZLE_KINDS), "seat": Int(), "view": Json(object_only=True),
                    "stars": Int(), "attempts": Int()}),
            Record("PuzzleAnswerBody", "Body of POST /api/handelsaufgaben/<id>: the chosen move (its text).",
                   {"move": Str(min_length=1, max_length=MOVE_MAX_LENGTH)}),
            Record("PuzzleMoveValue", "A move and its value (Punkte: points; Bester Zug: the strong computer's"
                   " value in points).", {"move": Str(), "value": Json()}),
            Record("PuzzleAnswer", "Answer of POST /api/handelsaufgaben/<id>: your move's value and stars, your"
                   " stars for the puzzle (your first answer's: every answer shows the solution), the best"
                   " moves with their values, and what the first answer did to your and the puzzle's rating"
                   " (Glicko-2, score stars / 3; null for a later answer).",
                   {"move": Str(), "value": Json(), "stars": Int(), "best_stars": Int(),
                    "best": ListOf(Ref("PuzzleMoveValue")), "rating_change": Optional(Ref("AufgabeRatingChange"))}),
        )
    }
)


# --- Aufgaben: rated puzzles per game (issue 22: services/lobby/puzzle_routes.py) -----------

AUFGABE_GAMES = ("hexagon", "bullet", "general")
AUFGABE_MODES = ("rated", "streak", "daily")
AUFGABE_STATUSES = ("open", "solved", "failed")

RECORDS.update(
    {
        r.name: r
        for r in (
            Record("AufgabeText", "A text in both languages (a puzzle's task).", {"de": Str(), "en": Str()}),
            Record("AufgabeTheme", "A theme a puzzle's solution shows, by key with its names.",
                   {"key": Str(), "de": Str(), "en": Str()}),
            Record("AufgabeRating", "A player's puzzle rating in one game (Glicko-2, rounded): rating, deviation,"
                   " counted attempts and solved ones.",
                   {"rating": Int(), "rd": Int(), "attempts": Int(), "solved": Int()}),
            Record("AufgabeStreak", "The running streak's solved puzzles and the best streak.",
                   {"length": Int(), "best": Int()}),
            Record("AufgabeRatingChange", "What a counted first attempt did to the player's and the puzzle's"
                   " ratings (rounded).", {"player_before": Int(), "player_after": Int(),
                                           "puzzle_before": Int(), "puzzle_after": Int()}),
            Record("AufgabeAttempt", "Answer of GET /api/aufgaben/<game>[/daily] and of a move: one attempt"
                   " at a puzzle. `view`: the solver's view (the engine's view of `seat`) after `line`, the"
                   " moves played so far (the wrong one last when failed). `counted`: the player's first"
                   " attempt of the puzzle, the only one that rates. `reply_from`: in the answer to a right"
                   " move that was answered, the solver's view after its own move, before the reply (the page"
                   " shows both). `themes`, `puzzle_rating`, `solution` and `solution_views` (the solver's view"
                   " before and after each solution move) only once the attempt has ended; `change` then too"
                   " when it counted. `solution_from`: the day (Europe/Berlin) the solution and themes of an"
                   " ended attempt at the day's puzzle show from (they stay on the server while its day lasts);"
                   " null otherwise.",
                   {"attempt_id": Int(), "game": Enum(AUFGABE_GAMES), "puzzle_id": Str(), "mode": Enum(AUFGABE_MODES),
                    "day": Optional(Str()), "counted": Bool(), "status": Enum(AUFGABE_STATUSES), "ply": Int(),
                    "seat": Int(), "task": Ref("AufgabeText"), "themes": ListOf(Ref("AufgabeTheme")),
                    "view": Json(object_only=True), "line": ListOf(Str()), "last_move": Optional(Str()),
                    "wrong_move": Optional(Str()), "reply_from": Optional(Json(object_only=True)), "player": Ref("AufgabeRating"), "puzzle_rating": Optional(Int()),
                    "change": Optional(Ref("AufgabeRatingChange")), "solution": Optional(ListOf(Str())),
                    "solution_views": Optional(ListOf(Json(object_only=True))), "streak": Optional(Ref("AufgabeStreak")),
                    "solution_from": Optional(Str())}),
            Record("AufgabeMoveBody", "Body of POST /api/aufgaben/<game>/versuch/<attempt_id>: the move (its"
                   " text) at the attempt's current `ply` (else it is refused as stale).",
                   {"ply": Int(), "move": Str(min_length=1, max_length=MOVE_MAX_LENGTH)}),
            Record("AufgabenOverview", "Answer of GET /api/aufgaben/<game>/uebersicht: your puzzle rating and"
                   " streaks, the themes to filter by, the Europe/Berlin day and your daily puzzle's state"
                   " (null: not tried today), and how many puzzles the game has.",
                   {"game": Enum(AUFGABE_GAMES), "player": Ref("AufgabeRating"), "streak": Ref("AufgabeStreak"),
                    "themes": ListOf(Ref("AufgabeTheme")), "day": Str(), "daily_status": Optional(Enum(AUFGABE_STATUSES)),
                    "count": Int()}),
        )
    }
)


# --- validation ------------------------------------------------------------------


def _type_name(kind: Any) -> str:
    return kind.ts()


def _check(kind: Any, value: Any, path: str) -> Any:
    if isinstance(kind, Optional):
        return None if value is None else _check(kind.inner, value, path)
    if isinstance(kind, Str):
        if not isinstance(value, str):
            raise ProtocolError("wrong_type", field=path, expected="string")
        if kind.max_length is not None and len(value) > kind.max_length:
            raise ProtocolError("too_long", field=path, limit=kind.max_length)
        if len(value) < kind.min_length:
            raise ProtocolError("too_short", field=path, limit=kind.min_length)
        return value
    if isinstance(kind, Int):
        # bool is an int subclass in Python; JSON true is not a number.
        if not isinstance(value, int) or isinstance(value, bool):
            raise ProtocolError("wrong_type", field=path, expected="number")
        return value
    if isinstance(kind, Bool):
        if not isinstance(value, bool):
            raise ProtocolError("wrong_type", field=path, expected="boolean")
        return value
    if isinstance(kind, Enum):
        if not isinstance(value, str):
            raise ProtocolError("wrong_type", field=path, expected="string")
        if value not in kind.values:
            raise ProtocolError("not_allowed_value", field=path, allowed=", ".join(kind.values))
        return value
    if isinstance(kind, ListOf):
        if not isinstance(value, list):
            raise ProtocolError("wrong_type", field=path, expected="list")
        return [_check(kind.item, item, f"{path}[{i}]") for i, item in enumerate(value)]
    if isinstance(kind, Ref):
        return _check_fields(RECORDS[kind.name].fields, value, path)
    if isinstance(kind, Json):
        if kind.object_only and not isinstance(value, dict):
            raise ProtocolError("wrong_type", field=path, expected="object")
        return value
    raise TypeError(f"unknown schema type {kind!r}")


def _check_fields(fields: dict[str, Any], value: Any, path: str = "") -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProtocolError("wrong_type", field=path or "(message)", expected="object")
    prefix = f"{path}." if path else ""
    for key in value:
        if key not in fields:
            raise ProtocolError("unexpected_field", field=f"{prefix}{key}"[:60])
    out = {}
    for key, kind in fields.items():
        if key not in value:
            if isinstance(kind, Optional):
                out[key] = None
                continue
            raise ProtocolError("missing_field", field=f"{prefix}{key}")
        out[key] = _check(kind, value[key], f"{prefix}{key}")
    return out


def _placeholder(value: object) -> str:
    # Binary attachments count with their length; anything else odd with its repr.
    return "x" * len(value) if isinstance(value, (bytes, bytearray)) else repr(value)


def payload_size(args: tuple) -> int:
    """Bytes of ``args`` as compact JSON (how big the client's message was)."""
    return len(json.dumps(args, separators=(",", ":"), ensure_ascii=False, default=_placeholder).encode())


def validate_event(event: str, args: tuple, events: dict[str, Event] | None = None) -> dict[str, Any]:
    """The single argument of client event ``event``, checked against its schema in
    ``events`` (the lobby's ``CLIENT_EVENTS`` unless the game service passes its own)."""
    events = CLIENT_EVENTS if events is None else events
    schema = events.get(event) if isinstance(event, str) else None
    if schema is None:
        raise ProtocolError("unknown_event", event=str(event)[:40])
    if payload_size(args) > MAX_EVENT_BYTES:
        raise ProtocolError("payload_too_large", limit=MAX_EVENT_BYTES)
    if len(args) != 1 or not isinstance(args[0], dict):
        raise ProtocolError("bad_payload", event=event)
    return _check_fields(schema.fields, args[0])


def validate_record(name: str, value: Any) -> dict[str, Any]:
    """``value`` checked against record ``name`` (HTTP bodies, and outgoing messages in tests)."""
    if not isinstance(value, dict):
        raise ProtocolError("bad_json")
    return _check_fields(RECORDS[name].fields, value)


def validate_server_event(event: str, payload: Any) -> dict[str, Any]:
    """Check something the server sends; used by tests to hold the server to the protocol."""
    schema = SERVER_EVENTS.get(event) or GAME_SERVER_EVENTS[event]
    return _check_fields(schema.fields, payload)


# --- TypeScript ------------------------------------------------------------------


def _ts_interface(name: str, doc: str, fields: dict[str, Any]) -> list[str]:
    lines = [f"/** {doc} */", f"export interface {name} {{"]
    for key, kind in fields.items():
        lines.append(f"  {json.dumps(key) if ':' in key else key}: {kind.ts()};")
    lines.append("}")
    return lines


def _pascal(event: str) -> str:
    return "".join(part.capitalize() for part in event.replace(":", "_").split("_")) + "Payload"


def render_typescript() -> str:
    """The whole of ``web/src/protocol.ts``."""
    out = [
        "// Generated by `python -m shared.schemas --ts > web/src/protocol.ts`. Do not edit by hand:",
        "// change shared/schemas.py and regenerate (tests/lobby/test_protocol.py checks this file).",
        "",
        f"export const CHAT_MAX_LENGTH = {CHAT_MAX_LENGTH};",
        f"export const CHAT_RATE_LIMIT = {CHAT_RATE_LIMIT};",
        f"export const CHAT_RATE_WINDOW_SECONDS = {CHAT_RATE_WINDOW_SECONDS};",
        f"export const NAME_MIN_LENGTH = {NAME_MIN_LENGTH};",
        f"export const NAME_MAX_LENGTH = {NAME_MAX_LENGTH};",
        f"export const PASSWORD_MIN_LENGTH = {PASSWORD_MIN_LENGTH};",
        f"export const LANGUAGES = {json.dumps(list(LANGUAGES))} as const;",
        f"export const FINAL_POSITION_DELAY_MS = {FINAL_POSITION_DELAY_MS};",
        f"export const MOVE_MAX_LENGTH = {MOVE_MAX_LENGTH};",
        "export type Language = (typeof LANGUAGES)[number];",
        "",
    ]
    for record in RECORDS.values():
        out += _ts_interface(record.name, record.doc, record.fields) + [""]
    for events in (CLIENT_EVENTS, SERVER_EVENTS):
        for event in events.values():
            out += _ts_interface(_pascal(event.name), event.doc, event.fields) + [""]
    for event in (*GAME_CLIENT_EVENTS.values(), *GAME_SERVER_EVENTS.values()):
        if event.name not in SERVER_EVENTS:  # the game service's "error" is the lobby's
            out += _ts_interface(_pascal(event.name), event.doc, event.fields) + [""]
    for title, events in (("ClientToServerEvents", CLIENT_EVENTS), ("ServerToClientEvents", SERVER_EVENTS),
                          ("GameClientToServerEvents", GAME_CLIENT_EVENTS),
                          ("GameServerToClientEvents", GAME_SERVER_EVENTS)):
        out.append(f"export interface {title} {{")
        for event in events.values():
            out.append(f"  {json.dumps(event.name)}: (payload: {_pascal(event.name)}) => void;")
        out += ["}", ""]
    return "\n".join(out)


if __name__ == "__main__":
    if sys.argv[1:] != ["--ts"]:
        sys.exit("usage: python -m shared.schemas --ts > web/src/protocol.ts")
    sys.stdout.write(render_typescript())
