"""The HTTP routes' bodies and answers (game pages, profiles, Postfach, Meine Partien,
Tagesmarkt, Handelsaufgaben, Aufgaben): records checked with ``validate_record``.
"""

from __future__ import annotations

from shared.schemas.game_views import GAME_VIEW
from shared.schemas.lobby_events import CHALLENGE_CLOCKS, CHALLENGE_GAMES, PLAYER_STATUSES
from shared.schemas.mechanism import Bool, Enum, Int, Json, ListOf, Optional, Record, Ref, Str, define
from shared.schemas.table_events import AI_STRENGTHS, GAME_NAMES, MOVE_MAX_LENGTH

# --- the game pages (#/spiel/<game>, services/lobby/game_page_routes.py) ----

HTTP_RECORDS: dict[str, Record] = define(
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


# --- profiles, Postfach, Meine Partien statistics (services/lobby/profile_routes.py,
# services/lobby/mailbox_routes.py) ----------------------------------------------------

INVITATION_STATUSES = ("open", "started", "declined", "withdrawn", "expired")
NOTE_KINDS = ("accepted", "declined")
GAME_RESULTS = ("win", "loss", "draw")
PLAYED_KINDS = ("rated", "friendly", "computer")

HTTP_RECORDS.update(define(
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
        "MailboxNote",
        "A note: an invitation was accepted while you were away (now yours to start), or declined.",
        {"id": Int(), "kind": Enum(NOTE_KINDS), "read": Bool(), "created_at": Str(),
         "invitation": Ref("Invitation")},
    ),
    Record(
        "Mailbox",
        "Answer of GET /api/postfach: your open invitations both ways, your latest notes; `count`: the"
        " badge (invitations waiting for you plus unread notes).",
        {"count": Int(), "invitations": ListOf(Ref("Invitation")), "notes": ListOf(Ref("MailboxNote"))},
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
))



# --- Battlehanse alone: Tagesmarkt and Handelsaufgaben (services/lobby/daily_market_routes.py,
# services/lobby/hanse_puzzle_routes.py) -----------------------------------------------

PUZZLE_KINDS = ("punkte", "bester_zug")
DAILY_PRACTICE_REASONS = ("guest", "later", "assisted")

HTTP_RECORDS.update(define(
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
            "rating": Ref("PuzzleRating")}),
    Record("Puzzle", "Answer of GET /api/handelsaufgaben/<id>: the position as the solving seat sees it.",
           {"id": Str(), "kind": Enum(PUZZLE_KINDS), "seat": Int(), "view": GAME_VIEW,
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
            "best": ListOf(Ref("PuzzleMoveValue")), "rating_change": Optional(Ref("PuzzleRatingChange"))}),
))


# --- Aufgaben: rated puzzles per game (services/lobby/puzzle_routes.py) -----------

AUFGABE_GAMES = ("hexagon", "bullet", "general")
AUFGABE_MODES = ("rated", "streak", "daily")
AUFGABE_STATUSES = ("open", "solved", "failed")

HTTP_RECORDS.update(define(
    Record("PuzzleTask", "A text in both languages (a puzzle's task).", {"de": Str(), "en": Str()}),
    Record("PuzzleTheme", "A theme a puzzle's solution shows, by key with its names.",
           {"key": Str(), "de": Str(), "en": Str()}),
    Record("PuzzleRating", "A player's puzzle rating in one game (Glicko-2, rounded): rating, deviation,"
           " counted attempts and solved ones.",
           {"rating": Int(), "rd": Int(), "attempts": Int(), "solved": Int()}),
    Record("PuzzleStreak", "The running streak's solved puzzles and the best streak.",
           {"length": Int(), "best": Int()}),
    Record("PuzzleRatingChange", "What a counted first attempt did to the player's and the puzzle's"
           " ratings (rounded).", {"player_before": Int(), "player_after": Int(),
                                   "puzzle_before": Int(), "puzzle_after": Int()}),
    Record("PuzzleAttempt", "Answer of GET /api/aufgaben/<game>[/daily] and of a move: one attempt"
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
            "seat": Int(), "task": Ref("PuzzleTask"), "themes": ListOf(Ref("PuzzleTheme")),
            "view": GAME_VIEW, "line": ListOf(Str()), "last_move": Optional(Str()),
            "wrong_move": Optional(Str()), "reply_from": Optional(GAME_VIEW), "player": Ref("PuzzleRating"), "puzzle_rating": Optional(Int()),
            "change": Optional(Ref("PuzzleRatingChange")), "solution": Optional(ListOf(Str())),
            "solution_views": Optional(ListOf(GAME_VIEW)), "streak": Optional(Ref("PuzzleStreak")),
            "solution_from": Optional(Str())}),
    Record("PuzzleMoveBody", "Body of POST /api/aufgaben/<game>/versuch/<attempt_id>: the move (its"
           " text) at the attempt's current `ply` (else it is refused as stale).",
           {"ply": Int(), "move": Str(min_length=1, max_length=MOVE_MAX_LENGTH)}),
    Record("PuzzlesOverview", "Answer of GET /api/aufgaben/<game>/uebersicht: your puzzle rating and"
           " streaks, the themes to filter by, the Europe/Berlin day and your daily puzzle's state"
           " (null: not tried today), and how many puzzles the game has.",
           {"game": Enum(AUFGABE_GAMES), "player": Ref("PuzzleRating"), "streak": Ref("PuzzleStreak"),
            "themes": ListOf(Ref("PuzzleTheme")), "day": Str(), "daily_status": Optional(Enum(AUFGABE_STATUSES)),
            "count": Int()}),
))
