"""Sending ``table:state`` to the right sockets on every process, one payload per recipient.

Rooms (through the Socket.IO Redis message queue, on the table's own channel, so every
process with a socket at the table hears: services.game.fanout.table_channels):
``game:<id>:seat:<n>`` holds the sockets of the player on seat n, ``game:<id>:watch``
the spectators' (whose state is built only while someone watches).  Each room gets the state built from its own ``view``; one payload
never carries another seat's view.  At a same-device table both seats are one
person: the room ``game:<id>:seat:0`` gets the view of the side to move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from flask_socketio import SocketIO
from psycopg_pool import ConnectionPool
from redis.client import Pipeline

from services.game.fanout.payload import TableStates, same_device_seat, table_state
from services.game.fanout.table_handover import TableHandover
from services.game.fanout.watchers import Watchers
from services.game.fanout.wire_packet import JsonQueue
from services.game.tables.table import Settled
from shared import game_store
from shared.game_store import GameRow
from shared.games import get_game
from shared.lru_map import LruMap

NAMES_CACHED = 4096  # tables whose players' names are kept
RECEIVERS_KNOWN = 4096  # tables whose last publication's audience is kept


def seat_room(game_id: int, seat: int) -> str:
    return f"game:{game_id}:seat:{seat}"


def watch_room(game_id: int) -> str:
    return f"game:{game_id}:watch"


def table_room(game_id: int) -> str:
    return f"game:{game_id}"


class TablePublisher:
    def __init__(self, socketio: SocketIO, pool: ConnectionPool, queue: JsonQueue, watchers: Watchers) -> None:
        self.socketio = socketio
        self.queue = queue
        self.watchers = watchers
        self.pool = pool
        self._names: LruMap[int, dict[int, dict[str, Any]]] = LruMap(NAMES_CACHED)
        # game id → processes its last publication reached
        self._receivers: LruMap[int, int] = LruMap(RECEIVERS_KNOWN)
        self.handover: TableHandover | None = None

    def names(self, row: GameRow) -> dict[int, dict[str, Any]]:
        """The players' names and Elo at a table, read once per table and process (the
        Elo as it was when the game began here: the rating service changes it after the end)."""
        names = self._names.get(row.id)
        if names is None:
            with self.pool.connection() as conn:
                names = game_store.people(conn, list(row.seats), row.game)
            self._names.put(row.id, names)
        return names

    def seat_for(self, settled: Settled, user_id: int) -> int | None:
        """The seat whose view ``user_id`` gets (None: a spectator)."""
        row = settled.row
        seats = row.seats_of(user_id)
        if not seats:
            return None
        return same_device_seat(row, settled.state) if row.mode == "same_device" else seats[0]

    def rooms_for(self, settled: Settled, user_id: int) -> list[str]:
        row = settled.row
        you = self.seat_for(settled, user_id)
        if you is None:
            return [table_room(row.id), watch_room(row.id)]
        return [table_room(row.id), seat_room(row.id, 0 if row.mode == "same_device" else you)]

    def publish(self, settled: Settled, along: Callable[[Pipeline], None] = lambda pipe: None,
                unreachable: Callable[[], None] = lambda: None) -> None:
        """Every recipient's state; ``along`` adds Redis commands to the publishing round
        trip, ``unreachable`` runs if Redis could not be reached (see :meth:`JsonQueue.emit_each`).
        A change this process's sockets were shown before its commit (``settled.shown``,
        from :meth:`show_here`) goes on to the other processes only.

        The spectator state is built only for a table someone watches (see
        :mod:`services.game.fanout.watchers`): most tables have no spectator."""
        row, names = settled.row, self.names(settled.row)

        def along_and_ask(pipe: Pipeline) -> None:
            along(pipe)
            self.watchers.ask_in(pipe, row.id)

        def answered(answers: list[Any] | None) -> None:
            if answers is None:
                unreachable()
                return
            self._heard(row.id, answers[0])
            if self.watchers.learn(row.id, bool(answers[-1])):
                self.queue.emit_each("table:state", [(table_state(row, settled.state, None, names), watch_room(row.id))])

        shown = settled.shown if settled.shown is not None else self.show_here(settled)
        self.queue.publish_emitted(shown, along_and_ask, answered, alone=self.only_here(row.id))

    def only_here(self, game_id: int) -> bool:
        """Whether this process alone serves the table: it has sockets there, and the
        table's last publication reached one process (Redis counts the listeners of the
        table's channel; services.game.fanout.table_channels).  Only then does ``Tables`` show a
        move before its commit: with the players on two processes, each could show its own
        move for the same version (two tabs) or a move beside a resignation, and one of them
        would have to be taken back from screens where the other player may already have
        answered it."""
        return self._receivers.get(game_id) == 1 and self.queue.channels.serves(game_id)

    def _heard(self, game_id: int, receivers: Any) -> None:
        if not isinstance(receivers, int):  # the publication failed: nothing learnt
            return
        self._receivers.put(game_id, receivers)
        if self.handover is not None:
            self.handover.heard(game_id, receivers)

    def sat_down(self, game_id: int, sid: str) -> None:
        """Socket ``sid`` sat down at the table here (services.game.fanout.table_handover)."""
        if self.handover is not None:
            self.handover.sat_down(game_id, sid)

    def show_here(self, settled: Settled) -> list[dict[str, Any]]:
        """Every recipient's state, to this process's sockets only, before the change is
        committed (``Tables`` shows a move first); the messages, for :meth:`publish` to
        send on once it is."""
        return self.queue.emit_here("table:state",
                                    self._payloads(settled, self.names(settled.row), self.watchers.likely(settled.row.id)))

    def resend_here(self, settled: Settled) -> None:
        """Every recipient's state again, to this process's sockets only: after its Redis
        listener came back, what other processes published meanwhile never arrived here."""
        self.queue.emit_here("table:state", self._payloads(settled, self.names(settled.row), spectators=True))

    @staticmethod
    def _payloads(settled: Settled, names: dict[int, dict[str, Any]],
                  spectators: bool) -> Iterator[tuple[dict[str, Any], str]]:
        """(payload, room) for every recipient, built one at a time: the player waiting
        for this state gets it before the next payload is even built."""
        row, state = settled.row, settled.state
        states = TableStates(row, state, names)
        if row.mode == "same_device":
            yield states.of(same_device_seat(row, state)), seat_room(row.id, 0)
        else:
            # The side to move first: its player is the one waiting for this state.
            to_move = get_game(row.game).to_move(state)
            for seat in sorted((0, 1), key=lambda s: s not in to_move):
                if row.seats[seat] is not None:
                    yield states.of(seat), seat_room(row.id, seat)
        if spectators:
            yield states.of(None), watch_room(row.id)

    def presence(self, game_id: int, user_id: int, away_ms: int | None, claim_after_ms: int,
                 to: str | None = None) -> None:
        """``table:presence`` of one player to the table's room (or to the socket ``to``)."""
        self.socketio.emit("table:presence", {"game_id": game_id, "user_id": user_id, "present": away_ms is None,
                                              "away_ms": away_ms, "claim_after_ms": claim_after_ms},
                           to=to or table_room(game_id))

    def send_to(self, sid: str, settled: Settled, user_id: int) -> None:
        """The table as ``user_id`` sees it, to one socket only."""
        you = self.seat_for(settled, user_id)
        self.socketio.emit("table:state", table_state(settled.row, settled.state, you, self.names(settled.row)),
                           to=sid)
