"""Where a table's changes go in the game service: the listener ``Tables`` is built with.

After a commit the change is published to every recipient with its new flag deadline, a
finished game's seats are let go (and its Wartesaal players marked "frei"), and the
computer is asked for its move.  A move shown before its commit goes to this process's
sockets only; if it is refused after all, they get the table as it stands.  None of this
needs the tables themselves, so they are built with it; what reads a table (a resend) is
handed the ``Tables`` that asks.
"""

from __future__ import annotations

import logging
from typing import Any

from services.game import table_metrics
from services.game.fanout.publisher import TablePublisher
from services.game.presence.player_status import PlayerStatus
from services.game.presence.seat_connections import SeatConnections
from services.game.rules.deadlines import flag_deadline
from services.game.solo.computer_seat import ComputerSeat
from services.game.tables.flag_schedule import FlagSchedule
from services.game.tables.table import Settled, Tables


class TableReactions:
    """The game service's :class:`~services.game.tables.table.TableListener`."""

    def __init__(self, publisher: TablePublisher, flags: FlagSchedule, computer: ComputerSeat,
                 connections: SeatConnections, status: PlayerStatus) -> None:
        self.publisher, self.flags = publisher, flags
        self.computer, self.connections, self.status = computer, connections, status

    def settled(self, settled: Settled) -> None:
        """After a commit: tell every recipient, move the flag deadline, wake the computer."""
        row = settled.row
        deadline = flag_deadline(row, settled.state)
        # The flag deadline goes with the publication: one round trip to Redis per change.
        # The change is committed and told here: Redis going away now must not report it as failed
        # to its sender.  The flag loop derives every deadline from PostgreSQL once Redis is back.
        self.publisher.publish(settled, lambda pipe: self.flags.set_in(pipe, row.id, deadline),
                               self.flags.resync_soon)
        if settled.finished_now:
            players = sorted({uid for uid in row.seats if uid is not None})
            self.connections.forget(row.id, players)
            if row.mode == "wartesaal":
                self.status.free(players)
        self.computer.request_after_commit(settled)

    def may_show_first(self, game_id: int) -> bool:
        """Only while this process alone serves the table (services.game.fanout.publisher)."""
        return self.publisher.only_here(game_id)

    def shown(self, settled: Settled) -> list[dict[str, Any]]:
        """A move before its commit, to this process's sockets (services.game.tables.table)."""
        table_metrics.MOVES_SHOWN_FIRST.inc()
        return self.publisher.show_here(settled)

    def retracted(self, tables: Tables, game_id: int) -> None:
        """A move shown before its commit was refused after all: the table as it stands, here."""
        table_metrics.MOVES_RETRACTED.inc()
        self.resend(tables, [game_id])

    def resend(self, tables: Tables, game_ids: list[int]) -> None:
        """The current state of each table to this process's own sockets: what other processes
        published while its Redis listener was away is lost (services.game.fanout.table_channels), or a
        move they were shown before its commit was refused after all (services.game.tables.table)."""
        for game_id in game_ids:
            try:
                self.publisher.resend_here(tables.current(game_id))
            except Exception as exc:  # one table's trouble must not keep the others' states back
                logging.getLogger("game").warning("cannot resend a table to this process's sockets",
                                                  extra={"fields": {"game_id": game_id, "error": repr(exc)}})
