"""The Postfach in PostgreSQL: invitations to players who are not in the Wartesaal, and notes.

An invitation is a challenge whose settings the inviter fixed when sending it (the
seed's defaults plus Bedenkzeit, Art and Einsatz); accepting it agrees to them, so
there is nothing left to negotiate.  It waits for one side at a time
(``awaiting_user_id``):

* the invitee accepts while the inviter is in the Wartesaal and free → the game starts;
* the invitee accepts while the inviter is away → it turns to the inviter with a note
  "angenommen"; the inviter starts it with one click once the invitee is there (and if
  the invitee has gone meanwhile, it turns back the same way);
* the side it waits for declines → closed, the other side gets a note "abgelehnt";
* the other side withdraws → closed, no note (the entry just disappears).

Nothing touches Taler before the start: the inviter's balance is checked when sending,
both balances when accepting, and the stakes leave the balances in the start
transaction (``services.lobby.challenge_start``).  Open invitations older than
``INVITATION_DAYS`` are no longer shown nor accepted.

Every function takes an open connection; the caller owns the transaction.  Whether a
user may see or act on an entry is decided here, from the user id of the session.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from shared import i18n
from shared.challenge import Challenge, Party, Settings
from shared.schemas.mechanism import ProtocolError

INVITATION_DAYS = 14
# One player cannot fill many Postfächer at once.
OPEN_PER_INVITER = 20

TEXTS: dict[str, dict[str, str]] = {
    "postfach_unknown": {
        "de": "Diese Einladung gibt es nicht.",
        "en": "This invitation does not exist.",
    },
    "postfach_not_yours": {
        "de": "Diese Einladung ist nicht für dich.",
        "en": "This invitation is not for you.",
    },
    "postfach_closed": {
        "de": "Diese Einladung ist nicht mehr offen.",
        "en": "This invitation is no longer open.",
    },
    "postfach_waiting": {
        "de": "Du hast schon zugesagt – jetzt ist {name} dran.",
        "en": "You have already said yes – it is up to {name} now.",
    },
    "invitation_unknown_player": {
        "de": "Diesen Spieler gibt es nicht.",
        "en": "No such player.",
    },
    "invitation_exists": {
        "de": "Du hast {name} schon zu dieser Partie eingeladen.",
        "en": "You have already invited {name} to this game.",
    },
    "invitation_too_many": {
        "de": "Du hast schon {limit} offene Einladungen.",
        "en": "You already have {limit} open invitations.",
    },
}
i18n.TEXTS.update(TEXTS)

# HTTP status per refusal code (the routes answer every other refusal with 400).
STATUS = {
    "postfach_unknown": 404,
    "invitation_unknown_player": 404,
    "postfach_not_yours": 403,
    "postfach_closed": 409,
    "postfach_waiting": 409,
    "invitation_exists": 409,
    "invitation_too_many": 429,
    "invitation_throttled": 429,
}

_SELECT = (
    "SELECT i.id, i.game, i.inviter_id, a.name AS inviter_name, i.invitee_id, b.name AS invitee_name,"
    " i.settings, i.status, i.awaiting_user_id, i.game_id, i.created_at, i.updated_at,"
    " i.updated_at < now() - make_interval(days => %(days)s) AS stale"
    " FROM invitations i JOIN users a ON a.id = i.inviter_id JOIN users b ON b.id = i.invitee_id"
)


@dataclasses.dataclass(frozen=True)
class Invitation:
    id: int
    game: str
    inviter: Party
    invitee: Party
    settings: Settings
    status: str
    awaiting_user_id: int
    game_id: int | None
    created_at: str
    updated_at: str
    stale: bool

    def parties(self) -> tuple[Party, Party]:
        return self.inviter, self.invitee

    def other(self, user_id: int) -> Party:
        return self.invitee if user_id == self.inviter.user_id else self.inviter

    def as_challenge(self, now: float) -> Challenge:
        """The agreed challenge the start needs; its id makes ``challenge_starts`` start it at most once."""
        return Challenge(id=challenge_id(self.id), game=self.game, challenger=self.inviter, challenged=self.invitee,
                         settings=self.settings, agreed=frozenset({self.inviter.user_id, self.invitee.user_id}),
                         version=1, status="agreed", updated_at=now)

    def to_json(self) -> dict[str, Any]:
        """The ``Invitation`` record of the protocol."""
        return {
            "id": self.id, "game": self.game, "inviter": dataclasses.asdict(self.inviter),
            "invitee": dataclasses.asdict(self.invitee), "settings": self.settings.to_dict(),
            "status": "open" if self.status == "open" and not self.stale else
            ("expired" if self.status == "open" else self.status),
            "awaiting_user_id": self.awaiting_user_id, "game_id": self.game_id,
            "created_at": self.created_at, "updated_at": self.updated_at,
        }


def challenge_id(invitation_id: int) -> str:
    return f"invitation-{invitation_id}"


def _from_row(row: dict[str, Any]) -> Invitation:
    return Invitation(
        id=int(row["id"]), game=row["game"], inviter=Party(int(row["inviter_id"]), row["inviter_name"]),
        invitee=Party(int(row["invitee_id"]), row["invitee_name"]), settings=Settings(**row["settings"]),
        status=row["status"], awaiting_user_id=int(row["awaiting_user_id"]), game_id=row["game_id"],
        created_at=row["created_at"].isoformat(), updated_at=row["updated_at"].isoformat(), stale=bool(row["stale"]),
    )


def send(conn: psycopg.Connection, inviter: Party, invitee_id: int, game: str, settings: Settings) -> Invitation:
    """Store a new invitation (settings already checked by ``shared.challenge.checked_settings``)."""
    if invitee_id == inviter.user_id:
        raise ProtocolError("challenge_self")
    invitee = conn.execute("SELECT id, name FROM users WHERE id = %s", (invitee_id,)).fetchone()
    if invitee is None:
        raise ProtocolError("invitation_unknown_player")
    # Serialise one inviter's sends, so the checks below hold when two arrive at once.
    conn.execute("SELECT id FROM users WHERE id = %s FOR UPDATE", (inviter.user_id,))
    fresh = "status = 'open' AND updated_at >= now() - make_interval(days => %(days)s)"
    counts = conn.execute(
        f"SELECT count(*) AS open, count(*) FILTER (WHERE invitee_id = %(to)s AND game = %(game)s) AS same"
        f" FROM invitations WHERE inviter_id = %(me)s AND {fresh}",
        {"me": inviter.user_id, "to": invitee_id, "game": game, "days": INVITATION_DAYS},
    ).fetchone()
    if counts["same"]:
        raise ProtocolError("invitation_exists", name=invitee["name"])
    if counts["open"] >= OPEN_PER_INVITER:
        raise ProtocolError("invitation_too_many", limit=OPEN_PER_INVITER)
    row = conn.execute(
        "INSERT INTO invitations (game, inviter_id, invitee_id, settings, awaiting_user_id)"
        " VALUES (%s, %s, %s, %s, %s) RETURNING id",
        (game, inviter.user_id, invitee_id, Jsonb(settings.to_dict()), invitee_id),
    ).fetchone()
    return get(conn, int(row["id"]))


def get(conn: psycopg.Connection, invitation_id: int, *, lock: bool = False) -> Invitation:
    row = conn.execute(
        _SELECT + " WHERE i.id = %(id)s" + (" FOR UPDATE OF i" if lock else ""),
        {"id": invitation_id, "days": INVITATION_DAYS},
    ).fetchone()
    if row is None:
        raise ProtocolError("postfach_unknown")
    return _from_row(row)


def for_action(conn: psycopg.Connection, invitation_id: int, user_id: int) -> Invitation:
    """The open invitation, locked, after checking that ``user_id`` takes part in it."""
    invitation = get(conn, invitation_id, lock=True)
    if user_id not in (invitation.inviter.user_id, invitation.invitee.user_id):
        raise ProtocolError("postfach_not_yours")
    if invitation.status != "open" or invitation.stale:
        raise ProtocolError("postfach_closed")
    return invitation


def require_turn(invitation: Invitation, user_id: int) -> None:
    """Only the side the invitation waits for may accept or decline it."""
    if invitation.awaiting_user_id != user_id:
        raise ProtocolError("postfach_waiting", name=invitation.other(user_id).name)


def turn_to_other(conn: psycopg.Connection, invitation: Invitation, user_id: int) -> Invitation:
    """``user_id`` said yes but the other side is away: it now waits for them, with a note."""
    other = invitation.other(user_id).user_id
    conn.execute("UPDATE invitations SET awaiting_user_id = %s, updated_at = now() WHERE id = %s",
                 (other, invitation.id))
    add_note(conn, other, invitation.id, "accepted")
    return get(conn, invitation.id)


def mark_started(conn: psycopg.Connection, invitation_id: int, game_id: int) -> None:
    conn.execute("UPDATE invitations SET status = 'started', game_id = %s, updated_at = now() WHERE id = %s",
                 (game_id, invitation_id))


def close(conn: psycopg.Connection, invitation: Invitation, user_id: int) -> str:
    """End it: the side it waits for declines (the other gets a note), the other side withdraws."""
    status = "declined" if invitation.awaiting_user_id == user_id else "withdrawn"
    conn.execute("UPDATE invitations SET status = %s, updated_at = now() WHERE id = %s", (status, invitation.id))
    if status == "declined":
        add_note(conn, invitation.other(user_id).user_id, invitation.id, "declined")
    return status


def add_note(conn: psycopg.Connection, user_id: int, invitation_id: int, kind: str) -> None:
    conn.execute("INSERT INTO postfach_notes (user_id, invitation_id, kind) VALUES (%s, %s, %s)",
                 (user_id, invitation_id, kind))


def unread(conn: psycopg.Connection, user_id: int) -> int:
    """The badge: open invitations waiting for ``user_id`` plus unread notes."""
    row = conn.execute(
        "SELECT (SELECT count(*) FROM invitations WHERE awaiting_user_id = %(me)s AND status = 'open'"
        "        AND updated_at >= now() - make_interval(days => %(days)s))"
        " + (SELECT count(*) FROM postfach_notes WHERE user_id = %(me)s AND read_at IS NULL) AS n",
        {"me": user_id, "days": INVITATION_DAYS},
    ).fetchone()
    return int(row["n"])


def contents(conn: psycopg.Connection, user_id: int, note_limit: int = 30) -> dict[str, Any]:
    """What ``user_id``'s Postfach shows: their open invitations (both directions) and latest notes."""
    rows = conn.execute(
        _SELECT + " WHERE (i.inviter_id = %(me)s OR i.invitee_id = %(me)s) AND i.status = 'open'"
        " AND i.updated_at >= now() - make_interval(days => %(days)s) ORDER BY i.updated_at DESC",
        {"me": user_id, "days": INVITATION_DAYS},
    ).fetchall()
    notes = conn.execute(
        "SELECT id, invitation_id, kind, created_at, read_at IS NOT NULL AS read FROM postfach_notes"
        " WHERE user_id = %s ORDER BY created_at DESC, id DESC LIMIT %s",
        (user_id, note_limit),
    ).fetchall()
    about = {n["invitation_id"] for n in notes}
    invitations = {i.id: i for i in (get(conn, iid) for iid in about)}
    return {
        "count": unread(conn, user_id),
        "invitations": [_from_row(r).to_json() for r in rows],
        "notes": [{"id": int(n["id"]), "kind": n["kind"], "read": bool(n["read"]),
                   "created_at": n["created_at"].isoformat(), "invitation": invitations[n["invitation_id"]].to_json()}
                  for n in notes],
    }


def mark_read(conn: psycopg.Connection, user_id: int) -> None:
    conn.execute("UPDATE postfach_notes SET read_at = now() WHERE user_id = %s AND read_at IS NULL", (user_id,))
