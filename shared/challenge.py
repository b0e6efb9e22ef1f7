"""A challenge between two Wartesaal players: the pure negotiation, no I/O.

One settings panel for both sides.  The challenger opens it with the seed's
defaults (so usually only the time needs agreeing) and agrees to them by opening
it.  Every change by one side replaces the settings, bumps ``version`` and leaves
only that side agreeing: the other must confirm.  ``accept(version)`` agrees to
exactly the settings the accepting side has seen; when both agree, the challenge
is ``agreed`` and the lobby starts the game (once, see ``services.lobby.challenges``).
Either side may end it: the challenged declines, the challenger withdraws; a
challenge without activity for ``EXPIRY_SECONDS`` expires.

Seats: the challenger takes seat 0 (the side that begins) unless ⇄ ``swap`` is on;
in Battlegeneral the challenger plays Blue (seat 1), so the accepting player's Red
begins (seed 002).  A rematch sets ``swap`` so that the colours change after every game.

„Gegner suchen" (seed 002: "findet jemanden in deiner Spielstärke (Elo) – du kannst
solange weiter stöbern") is a challenge without a named opponent: a *seek*
(``challenged`` None, ``seek_elo`` the seeker's Elo), open for
:data:`SEEK_EXPIRY_SECONDS` with the seed's default settings.  Anyone whose Elo in
that game lies within :data:`SEEK_ELO_GAP` of the seeker's may take it
(:func:`take_seek`): the taker becomes the challenged, both agree, and the game
starts like any agreed challenge — the seeker is the challenger (in Battlegeneral:
Blue; the taker plays Red and begins).  The seeker withdraws it with ``decline``.

Refusals raise :class:`ChallengeRefusal` with a stable code whose German and
English texts are below (registered with ``shared.i18n``).
"""

from __future__ import annotations

import dataclasses
import uuid
from dataclasses import dataclass, field
from typing import Any

from shared import i18n
from shared.games import BadOptions, get_game
from shared.schemas.mechanism import ProtocolError

EXPIRY_SECONDS = 60.0
# Bedenkzeit: minutes + seconds per own move, as the seeds list them; "ohne" = no clock.
CLOCKS: dict[str, dict[str, int] | None] = {
    "3+2": {"base_ms": 180_000, "inc_ms": 2_000},
    "5+3": {"base_ms": 300_000, "inc_ms": 3_000},
    "10+5": {"base_ms": 600_000, "inc_ms": 5_000},
    "15+10": {"base_ms": 900_000, "inc_ms": 10_000},
    "ohne": None,
}
DEFAULT_CLOCK = "5+3"
# Battlegeneral is played with five minutes per move, not a chess clock (seed 002).
DEFAULT_CLOCKS: dict[str, str] = {"general": "ohne"}
# The seat the challenger takes before ⇄; 0 everywhere but Battlegeneral (seed 002:
# "Der Herausforderer spielt Blau, der Angenommene spielt Rot – und Rot beginnt").
CHALLENGER_SEAT: dict[str, int] = {"general": 1}
# Battlebullet in the Wartesaal always runs a clock (seed 004: "im Mehrspieler läuft immer eine Uhr").
GAMES_WITHOUT_UNTIMED = frozenset({"bullet"})
STAKE_MIN = 10
STAKE_MAX = 100
# Options the start draws from the game's seed, never negotiated (a Zufall map stays "?" until then).
SEED_OPTIONS = frozenset({"map_seed"})
STATUSES = ("open", "agreed", "started", "declined", "withdrawn", "expired")
# „Gegner suchen": the games whose product text offers it, how long a seek waits while
# its player looks around, and how far (Elo) a taker may be from the seeker's strength.
SEEK_GAMES = frozenset({"general"})
SEEK_EXPIRY_SECONDS = 600.0
SEEK_ELO_GAP = 300
OPEN_STATUSES = ("open",)
# Challenges of one's own open at once, one per opponent: each is a panel on the other's screen.
MAX_OPEN_CHALLENGES = 5
# Changes of one challenge's settings: a negotiation needs a few (the stake field sends one per
# step of 10); every change redraws the other's panel and keeps the challenge from expiring.
MAX_CHANGES = 50

TEXTS: dict[str, dict[str, str]] = {
    "challenge_too_many_changes": {
        "de": "Diese Herausforderung wurde schon {limit}-mal geändert – nimm sie an, lehne sie ab"
              " oder fordere neu heraus.",
        "en": "This challenge has already been changed {limit} times – accept it, decline it or challenge anew.",
    },
    "challenge_unknown": {
        "de": "Diese Herausforderung gibt es nicht (mehr).",
        "en": "This challenge does not exist (any more).",
    },
    "challenge_closed": {
        "de": "Diese Herausforderung ist nicht mehr offen ({status}).",
        "en": "This challenge is no longer open ({status}).",
    },
    "challenge_not_yours": {
        "de": "Diese Herausforderung betrifft dich nicht.",
        "en": "This challenge is not yours.",
    },
    "challenge_self": {
        "de": "Du kannst dich nicht selbst herausfordern.",
        "en": "You cannot challenge yourself.",
    },
    "challenge_player_away": {
        "de": "Dieser Spieler ist nicht im Wartesaal.",
        "en": "This player is not in the Wartesaal.",
    },
    "challenge_stale": {
        "de": "Die Einstellungen wurden inzwischen geändert. Bitte sieh sie dir noch einmal an.",
        "en": "The settings have changed in the meantime. Please look at them again.",
    },
    "challenge_bad_clock": {
        "de": "Diese Bedenkzeit gibt es hier nicht (erlaubt: {allowed}).",
        "en": "This time control is not available here (allowed: {allowed}).",
    },
    "challenge_bad_options": {
        "de": "Ungültige Spieloption: {detail}",
        "en": "Invalid game option: {detail}",
    },
    "challenge_bad_stake": {
        "de": "Der Einsatz ist 0 oder {low} bis {high} Taler, und nur in gewerteten Partien.",
        "en": "The stake is 0 or {low} to {high} Taler, and only in rated games.",
    },
    "challenge_stake_too_high": {
        "de": "{name} hat nur {balance} Taler – zu wenig für einen Einsatz von {stake}.",
        "en": "{name} has only {balance} Taler – not enough for a stake of {stake}.",
    },
    "challenge_pending": {
        "de": "Du hast {name} schon herausgefordert – warte auf die Antwort oder ziehe sie zurück.",
        "en": "You have already challenged {name} – wait for the answer or withdraw it.",
    },
    "challenge_too_many": {
        "de": "Du hast schon {limit} offene Herausforderungen – warte auf die Antworten oder ziehe eine zurück.",
        "en": "You already have {limit} open challenges – wait for the answers or withdraw one.",
    },
    "challenge_guest_stake": {
        "de": "{name} spielt als Gast – Gäste haben keine Taler und spielen ohne Einsatz. Spielt eine"
              " Freundschaftspartie oder gewertet ohne Einsatz; mit einem Konto gibt es Taler.",
        "en": "{name} is playing as a guest – guests hold no Taler and play without a stake. Play a"
              " friendly game or a rated one without a stake; an account comes with Taler.",
    },
    "seek_bad_game": {
        "de": "„Gegner suchen“ gibt es für dieses Spiel nicht – fordere jemanden aus der Spielerliste heraus.",
        "en": "“Find an opponent” is not available for this game – challenge someone from the player list.",
    },
    "seek_playing": {
        "de": "Du spielst gerade eine Partie – „Gegner suchen“ geht danach.",
        "en": "You are playing a game – “Find an opponent” is possible afterwards.",
    },
    "seek_out_of_range": {
        "de": "Diese Suche gilt für Spieler mit {low} bis {high} Elo; du hast {elo}.",
        "en": "This seek is for players rated {low} to {high}; you have {elo}.",
    },
    "challenge_no_game": {
        "de": "Zu dieser Partie gibt es keine Revanche.",
        "en": "There is no rematch for this game.",
    },
}
# The lobby answers with shared.i18n.text(code, lang); these codes belong to challenges.
i18n.TEXTS.update(TEXTS)


class ChallengeRefusal(ProtocolError):
    """An action the negotiation does not allow; ``code`` and ``params`` pick the text.

    A ``ProtocolError``, so the Wartesaal socket answers it like any refused input."""


@dataclass(frozen=True)
class Settings:
    clock: str
    options: dict[str, Any]
    rated: bool
    stake: int
    swap: bool

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


@dataclass(frozen=True)
class Party:
    user_id: int
    name: str


@dataclass(frozen=True)
class Challenge:
    id: str
    game: str
    challenger: Party
    challenged: Party | None  # None: a seek („Gegner suchen") nobody has taken yet
    settings: Settings
    agreed: frozenset[int]
    version: int
    status: str
    updated_at: float  # seconds (wall clock), last activity: the expiry counts from here
    game_id: int | None = None
    rematch_of: int | None = None
    reason: str | None = field(default=None)  # why it is no longer open, for the panel
    seek_elo: int | None = None  # a seek: the seeker's Elo in the game when it was opened

    @property
    def is_seek(self) -> bool:
        """Still a seek: open to anyone of the seeker's strength, nobody named yet."""
        return self.challenged is None

    @property
    def expires_at(self) -> float:
        return self.updated_at + (SEEK_EXPIRY_SECONDS if self.is_seek else EXPIRY_SECONDS)

    def parties(self) -> tuple[Party, ...]:
        return (self.challenger,) if self.challenged is None else (self.challenger, self.challenged)

    def party_of(self, user_id: int) -> Party:
        for party in self.parties():
            if party.user_id == user_id:
                return party
        raise ChallengeRefusal("challenge_not_yours")

    def other(self, user_id: int) -> Party:
        self.party_of(user_id)
        if self.challenged is None:
            raise ChallengeRefusal("challenge_not_yours")
        return self.challenged if user_id == self.challenger.user_id else self.challenger

    def seats(self) -> tuple[int, int]:
        """User ids on seat 0 (begins) and seat 1."""
        if self.challenged is None:
            raise ChallengeRefusal("challenge_closed", status=self.status)
        a, b = self.challenger.user_id, self.challenged.user_id
        home = CHALLENGER_SEAT.get(self.game, 0)
        challenger_seat = 1 - home if self.settings.swap else home
        return (a, b) if challenger_seat == 0 else (b, a)

    def clock(self) -> dict[str, int] | None:
        return CLOCKS[self.settings.clock]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "game": self.game,
            "challenger": dataclasses.asdict(self.challenger),
            "challenged": dataclasses.asdict(self.challenged) if self.challenged is not None else None,
            "settings": self.settings.to_dict(), "agreed": sorted(self.agreed), "version": self.version,
            "status": self.status, "updated_at": self.updated_at, "game_id": self.game_id,
            "rematch_of": self.rematch_of, "reason": self.reason, "seek_elo": self.seek_elo,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> Challenge:
        return Challenge(
            id=data["id"], game=data["game"], challenger=Party(**data["challenger"]),
            challenged=Party(**data["challenged"]) if data.get("challenged") else None,
            settings=Settings(**data["settings"]),
            agreed=frozenset(data["agreed"]), version=data["version"], status=data["status"],
            updated_at=data["updated_at"], game_id=data.get("game_id"), rematch_of=data.get("rematch_of"),
            reason=data.get("reason"), seek_elo=data.get("seek_elo"),
        )


def allowed_clocks(game: str) -> tuple[str, ...]:
    return tuple(c for c in CLOCKS if not (c == "ohne" and game in GAMES_WITHOUT_UNTIMED))


def default_settings(game: str) -> Settings:
    """The seed's defaults: its options, 5+3 (Battlegeneral: no clock), rated without a stake, no swap."""
    return Settings(clock=DEFAULT_CLOCKS.get(game, DEFAULT_CLOCK), options=get_game(game).default_options(),
                    rated=True, stake=0, swap=False)


def checked_settings(game: str, settings: Settings) -> Settings:
    """``settings`` with the options normalized by the engine; refusal for anything not offered."""
    if settings.clock not in allowed_clocks(game):
        raise ChallengeRefusal("challenge_bad_clock", allowed=", ".join(allowed_clocks(game)))
    stake = settings.stake
    if stake != 0 and (not settings.rated or not STAKE_MIN <= stake <= STAKE_MAX):
        raise ChallengeRefusal("challenge_bad_stake", low=STAKE_MIN, high=STAKE_MAX)
    drawn = sorted(SEED_OPTIONS & set(settings.options))
    if drawn:
        raise ChallengeRefusal("challenge_bad_options", detail=", ".join(drawn))
    try:
        options = get_game(game).normalize_options(dict(settings.options))
    except BadOptions as exc:
        raise ChallengeRefusal("challenge_bad_options", detail=exc.de) from exc
    return dataclasses.replace(settings, options=options)


def open_challenge(challenger: Party, challenged: Party, game: str, now: float, *,
                   settings: Settings | None = None, rematch_of: int | None = None,
                   challenge_id: str | None = None) -> Challenge:
    """A new challenge; the challenger agrees to its settings by sending it."""
    if challenger.user_id == challenged.user_id:
        raise ChallengeRefusal("challenge_self")
    get_game(game)  # an unknown game is refused by the engine registry
    settings = checked_settings(game, settings or default_settings(game))
    return Challenge(
        id=challenge_id or uuid.uuid4().hex, game=game, challenger=challenger, challenged=challenged,
        settings=settings, agreed=frozenset({challenger.user_id}), version=1, status="open", updated_at=now,
        rematch_of=rematch_of,
    )


def refuse_another(open_challenges: list[Challenge], challenger: Party, challenged: Party) -> None:
    """Refuse a new challenge from ``challenger`` to ``challenged`` when ``open_challenges`` (the
    challenger's open ones) already hold one to that player, or :data:`MAX_OPEN_CHALLENGES` of theirs."""
    own = [c for c in open_challenges if c.challenger.user_id == challenger.user_id and not c.is_seek]
    if any(c.challenged is not None and c.challenged.user_id == challenged.user_id for c in own):
        raise ChallengeRefusal("challenge_pending", name=challenged.name)
    if len(own) >= MAX_OPEN_CHALLENGES:
        raise ChallengeRefusal("challenge_too_many", limit=MAX_OPEN_CHALLENGES)


def _require_open(challenge: Challenge, user_id: int, now: float) -> None:
    challenge.party_of(user_id)
    if challenge.status == "open" and now >= challenge.expires_at:
        raise ChallengeRefusal("challenge_closed", status="expired")
    if challenge.status not in OPEN_STATUSES:
        raise ChallengeRefusal("challenge_closed", status=challenge.status)


def propose(challenge: Challenge, user_id: int, settings: Settings, now: float) -> Challenge:
    """``user_id`` changes the settings: from now on only they agree; the other must confirm."""
    _require_open(challenge, user_id, now)
    settings = checked_settings(challenge.game, settings)
    if settings == challenge.settings:
        return accept(challenge, user_id, challenge.version, now)
    if challenge.version > MAX_CHANGES:  # version 1 is the opening; each change adds one
        raise ChallengeRefusal("challenge_too_many_changes", limit=MAX_CHANGES)
    return dataclasses.replace(challenge, settings=settings, agreed=frozenset({user_id}),
                               version=challenge.version + 1, updated_at=now)


def accept(challenge: Challenge, user_id: int, version: int, now: float) -> Challenge:
    """``user_id`` agrees to the settings as of ``version``; both agreeing makes it ``agreed``."""
    _require_open(challenge, user_id, now)
    if version != challenge.version:
        raise ChallengeRefusal("challenge_stale")
    agreed = challenge.agreed | {user_id}
    status = "agreed" if len(agreed) == 2 else "open"
    return dataclasses.replace(challenge, agreed=agreed, status=status, updated_at=now)


def decline(challenge: Challenge, user_id: int, now: float) -> Challenge:
    """End it: the challenged declines, the challenger withdraws."""
    _require_open(challenge, user_id, now)
    status = "withdrawn" if user_id == challenge.challenger.user_id else "declined"
    return dataclasses.replace(challenge, status=status, agreed=frozenset(), updated_at=now)


def expire(challenge: Challenge, now: float) -> Challenge | None:
    """The challenge expired by ``now``, or None if it is still alive (or already closed)."""
    if challenge.status != "open" or now < challenge.expires_at:
        return None
    return dataclasses.replace(challenge, status="expired", agreed=frozenset(), updated_at=now)


def started(challenge: Challenge, game_id: int, now: float) -> Challenge:
    if challenge.status != "agreed":
        raise ChallengeRefusal("challenge_closed", status=challenge.status)
    return dataclasses.replace(challenge, status="started", game_id=game_id, updated_at=now)


def start_failed(challenge: Challenge, code: str, now: float) -> Challenge:
    """Both agreed but the start was refused (e.g. a stake above a balance): open again, nobody agreeing."""
    return dataclasses.replace(challenge, status="open", agreed=frozenset(), version=challenge.version + 1,
                               updated_at=now, reason=code)


def open_seek(seeker: Party, game: str, elo: int, now: float, *, challenge_id: str | None = None) -> Challenge:
    """„Gegner suchen": a challenge to anyone of ``elo``'s strength, with the seed's defaults."""
    if game not in SEEK_GAMES:
        raise ChallengeRefusal("seek_bad_game")
    return Challenge(
        id=challenge_id or uuid.uuid4().hex, game=game, challenger=seeker, challenged=None,
        settings=checked_settings(game, default_settings(game)), agreed=frozenset({seeker.user_id}), version=1,
        status="open", updated_at=now, seek_elo=int(elo),
    )


def seek_range(seek: Challenge) -> tuple[int, int]:
    """The Elo a taker of ``seek`` may have (both ends included)."""
    assert seek.seek_elo is not None
    return seek.seek_elo - SEEK_ELO_GAP, seek.seek_elo + SEEK_ELO_GAP


def take_seek(seek: Challenge, taker: Party, elo: int, now: float) -> Challenge:
    """``taker`` (Elo ``elo`` in the game) takes the seek: named, both agree, the game starts."""
    if not seek.is_seek or seek.seek_elo is None:
        raise ChallengeRefusal("challenge_closed", status=seek.status)
    if seek.status == "open" and now >= seek.expires_at:
        raise ChallengeRefusal("challenge_closed", status="expired")
    if seek.status not in OPEN_STATUSES:
        raise ChallengeRefusal("challenge_closed", status=seek.status)
    if taker.user_id == seek.challenger.user_id:
        raise ChallengeRefusal("challenge_self")
    low, high = seek_range(seek)
    if not low <= elo <= high:
        raise ChallengeRefusal("seek_out_of_range", low=low, high=high, elo=elo)
    return dataclasses.replace(seek, challenged=taker, agreed=frozenset({seek.challenger.user_id, taker.user_id}),
                               status="agreed", updated_at=now)


def rematch_settings(game: str, previous: dict[str, Any], previous_seats: tuple[int, int],
                     challenger: int) -> Settings:
    """The settings of a rematch: as before, colours swapped (whoever began, now takes seat 1)."""
    wanted = 1 if previous_seats[0] == challenger else 0  # the challenger's seat this time
    swap = wanted != CHALLENGER_SEAT.get(game, 0)
    return Settings(clock=previous["clock"], options=previous["options"], rated=previous["rated"],
                    stake=previous["stake"], swap=swap)
