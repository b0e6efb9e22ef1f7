"""Who is at a running Wartesaal table, told to the table: ``table:presence``.

When a player's last socket on this process closes, the table's room hears that the
player is away; when a player sits down, that they are present, and the newcomer
hears about the others (a player who never came counts as away since the game's
start).  The opponent's page shows the time away and, once the leave time is over
while the game still runs, the claim (``Tables.claim``).  The judge of every claim
is the server: :meth:`TablePresence.away_ms` reads the same Redis entries as the
leave rule (``seat_connections``).
"""

from __future__ import annotations

from services.game.fanout.publisher import TablePublisher
from services.game.presence.seat_connections import SeatConnections
from services.game.tables.table import Settled
from shared.game_store import GameRow


class TablePresence:
    def __init__(self, connections: SeatConnections, publisher: TablePublisher) -> None:
        self.connections = connections
        self.publisher = publisher

    def seated(self, sid: str, settled: Settled, user_id: int) -> None:
        """``sid`` of ``user_id`` sat down at the table (player or spectator)."""
        row = settled.row
        if not row.running:
            return
        self.publisher.sat_down(row.id, sid)
        if row.seats_of(user_id):
            self.connections.joined(sid, row.id, user_id)
        if row.mode != "wartesaal":
            return
        if row.seats_of(user_id):
            self.publisher.presence(row.id, user_id, None, self.connections.leave_after_ms)
        for other in row.seats:
            if other is not None and other != user_id:
                self.publisher.presence(row.id, other, self.away_ms(row, other), self.connections.leave_after_ms,
                                        to=sid)

    def left(self, sid: str, game_id: int | None = None) -> None:
        """``sid`` closed (or left ``game_id``): players without a socket here any more are away."""
        for gone_game, user_id in self.connections.left(sid, game_id):
            self.publisher.presence(gone_game, user_id, 0, self.connections.leave_after_ms)

    def away_ms(self, row: GameRow, user_id: int) -> int | None:
        return self.connections.away_ms(row.id, user_id, row.created_at)
