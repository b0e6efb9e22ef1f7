"""The game service's Prometheus series: move latency, moves, sockets and tables here.

``spielcenter_game_move_seconds`` times a player's ``table:move`` inside this process, from the
validated event to the committed and published state (what the player waits for,
minus the network, when the move is written before it is shown; a move shown first was on
the players' screens before, and its time includes up to ``move_writer.GATHER_S`` of
waiting for other moves to share its statement); refused moves are counted apart, since
their time says nothing about the referee's speed.  Sockets and tables are read from the Socket.IO manager
when Prometheus scrapes, so no handler has to keep a count in step.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from flask_socketio import SocketIO
from prometheus_client import Counter, Gauge, Histogram

# 1 ms to 5 s: a move on a cached row takes a few ms, a locked one tens of ms; the
# upper buckets catch a loaded database.
MOVE_SECONDS = Histogram("spielcenter_game_move_seconds", "Server time of a player's accepted move (validate, commit, publish)",
                         ["game"], buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5))
MOVES = Counter("spielcenter_game_moves_total", "Moves accepted from players on this process", ["game"])
MOVES_REFUSED = Counter("spielcenter_game_moves_refused_total", "table:move events refused (stale, illegal, not your turn …)")
# services.game.tables.table: a move on a table this process alone serves is shown before its commit.
MOVES_SHOWN_FIRST = Counter("spielcenter_game_moves_shown_first_total", "Moves shown to this process's sockets before their commit")
MOVES_RETRACTED = Counter("spielcenter_game_moves_retracted_total",
                          "Moves shown before their commit and refused after all (the table sent again)")
# services.game.solo.computer_seat: a computer's answer is applied where its table is served.
COMPUTER_ANSWERS_APPLIED = Counter("spielcenter_game_computer_answers_applied_total",
                                   "Computer answers this process applied to a table (played or found stale)")
COMPUTER_ANSWERS_HANDED_ON = Counter("spielcenter_game_computer_answers_handed_on_total",
                                     "Computer answers read here and handed to the process serving their table")
SOCKETS = Gauge("spielcenter_game_sockets", "Socket.IO connections open on this game-service process")
TABLES = Gauge("spielcenter_game_tables_open", "Tables with at least one socket on this process (players or spectators)")

_MOVE_SERIES: dict[str, tuple[Histogram, Counter]] = {}


def moved(game: str, seconds: float) -> None:
    """An accepted move of ``game`` that took ``seconds`` here (``labels`` looked up once per game:
    the lookup takes a lock and checks the label values, on every move otherwise)."""
    series = _MOVE_SERIES.get(game)
    if series is None:
        series = _MOVE_SERIES[game] = (MOVE_SECONDS.labels(game), MOVES.labels(game))
    series[0].observe(seconds)
    series[1].inc()


# publisher.table_room(game_id): every socket at a table, player or spectator, is in it.
_TABLE_ROOM = re.compile(r"^game:\d+$")


def _rooms(socketio: SocketIO) -> Callable[[], dict]:
    def rooms() -> dict:
        # python-socketio's manager: rooms[namespace][room] -> {sid: eio_sid}; room None holds every socket.
        return socketio.server.manager.rooms.get("/", {})

    return rooms


def watch(socketio: SocketIO) -> None:
    """Read sockets and tables from ``socketio``'s manager at every scrape."""
    rooms = _rooms(socketio)
    SOCKETS.set_function(lambda: len(rooms().get(None, {})))
    TABLES.set_function(lambda: sum(1 for name, sids in list(rooms().items())
                                    if isinstance(name, str) and _TABLE_ROOM.match(name) and sids))
