"""The lobby's socket (the Wartesaal, challenges, seeks, Schnelle Partie): its events and records.

Every incoming event is checked against ``CLIENT_EVENTS`` (``shared.schemas.mechanism``);
``SERVER_EVENTS`` is what the lobby sends.  The limits below are shared by server and client.
"""

from __future__ import annotations

from shared.i18n import LANGUAGES
from shared.schemas.mechanism import Bool, Enum, Event, Int, Json, ListOf, Optional, Record, Ref, Str, define, events

CHAT_MAX_LENGTH = 300
CHAT_HISTORY_SIZE = 50
CHAT_RATE_LIMIT = 5  # messages ...
CHAT_RATE_WINDOW_SECONDS = 10  # ... per this many seconds, per user
NAME_MIN_LENGTH = 3
NAME_MAX_LENGTH = 20
PASSWORD_MIN_LENGTH = 8
PASSWORD_MAX_LENGTH = 200
PLAYER_STATUSES = ("frei", "spielt")

LOBBY_RECORDS: dict[str, Record] = define(
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

CLIENT_EVENTS: dict[str, Event] = events(
    Event("chat:send", "Say something in the Wartesaal chat.", {"text": Str(max_length=CHAT_MAX_LENGTH)}),
    Event("lang:set", "Choose the language of error messages.", {"lang": Enum(LANGUAGES)}),
)

SERVER_EVENTS: dict[str, Event] = events(
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


# --- challenges (the lobby's socket) -----------------------------------------------
# Owned by the challenges (services/lobby/challenges.py, shared/challenge.py).

CHALLENGE_CLOCKS = ("3+2", "5+3", "10+5", "15+10", "ohne")
CHALLENGE_STATUSES = ("open", "agreed", "started", "declined", "withdrawn", "expired")
CHALLENGE_GAMES = ("hexagon", "bullet", "general", "hanse")

LOBBY_RECORDS.update(define(
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
))

CLIENT_EVENTS.update(events(
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
))

SERVER_EVENTS.update(events(
    Event("challenge:update", "A challenge you take part in, as it stands now.",
          {"challenge": Ref("Challenge")}),
    Event("challenge:started", "Both agreed: the game is created; open #/partie/<game_id>.",
          {"challenge_id": Str(), "game_id": Int(), "game": Str()}),
))


# --- „Gegner suchen": open seeks (the lobby's socket; services/lobby/challenge_seeks.py) --

LOBBY_RECORDS.update(define(Record(
    "Seek",
    "An open seek („Gegner suchen“) in the Wartesaal: anyone rated `elo_min` to `elo_max` in `game` may take"
    " it; the seeker plays as the challenger. `expires_in_ms`: time left.",
    {"id": Str(), "game": Enum(CHALLENGE_GAMES), "seeker": Ref("ChallengeParty"), "elo": Int(), "elo_min": Int(),
     "elo_max": Int(), "expires_in_ms": Int()},
)))
CLIENT_EVENTS.update(events(
    Event("seek:create", "Gegner suchen: open a seek for `game` that a player of your strength (Elo) may"
          " take; one that fits already open is taken instead.", {"game": Enum(CHALLENGE_GAMES)}),
    Event("seek:cancel", "Withdraw your open seek.", {}),
    Event("seek:take", "Take an open seek: the game starts at once.", {"seek_id": Str(max_length=64)}),
))
SERVER_EVENTS["seek:list"] = Event("seek:list", "Every open seek, oldest first (to every Wartesaal page).",
                                   {"seeks": ListOf(Ref("Seek"))})


# --- Schnelle Partie (the lobby's socket; services/lobby/quick_match.py) ------------

QUICK_STATES = ("idle", "waiting")

CLIENT_EVENTS.update(events(
    Event("quick:join", "Schnelle Partie: wait for the best-fitting free opponent in `game`'s pool;"
          " `clocks`: the Bedenkzeiten you accept (empty: any the game allows).",
          {"game": Enum(CHALLENGE_GAMES), "clocks": ListOf(Enum(CHALLENGE_CLOCKS))}),
    Event("quick:cancel", "Leave the Schnelle Partie pool.", {}),
))

SERVER_EVENTS.update(events(
    Event("quick:status", "Your Schnelle Partie: idle or waiting (game, clocks, how many wait for it);"
          " `game_id`: the game a wave just started for you (challenge:started follows).",
          {"state": Enum(QUICK_STATES), "game": Optional(Enum(CHALLENGE_GAMES)),
           "clocks": ListOf(Enum(CHALLENGE_CLOCKS)), "waiting": Int(), "game_id": Optional(Int())}),
))


# --- the Postfach's badge (services/lobby/mailbox.py) ---------------------------------

SERVER_EVENTS.update(events(
    Event("postfach:changed", "Your Postfach changed: the new badge count.", {"count": Int()},
          ts_name="MailboxChangedPayload"),
))
