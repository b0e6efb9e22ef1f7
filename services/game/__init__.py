"""The game service: running games over Socket.IO (tables, moves, clocks; AI via Celery).

How the browser reaches its socket — one path, two origins:

* The Socket.IO endpoint is always at the path ``/game/socket.io`` (the lobby's is
  ``/socket.io``), so the two never collide on one origin.
* Production: nginx serves the lobby at ``/`` and forwards ``/game/`` to this
  service, so the browser connects same-origin: ``io(GAME_URL, {path: "/game/socket.io"})``
  with ``GAME_URL == PUBLIC_URL``.
* Development (``make run``): there is no proxy; the browser connects to
  ``GAME_URL`` (``http://localhost:8001``) with the same path.  CORS admits the
  lobby's origin (``PUBLIC_URL``; its localhost/127.0.0.1 twin in dev) and nothing
  else, so another site cannot open game sockets with a visitor's token.

The modules, one idea each (a subpackage holds one group):

* ``app``: the Flask + Flask-SocketIO application, its wiring and start-up
  (``__main__``: ``python -m services.game``, after gevent's monkey patching).
* ``sockets``: the Socket.IO events (connect, the tables, ``ping_worker``), named handlers.
* ``http_routes``: live games, replays, records, my games.
* ``table_reactions``: the tables' listener: after a commit publish, set the flag
  deadline, free the seats, wake the computer; a move shown before its commit.
* ``table_metrics``: the Prometheus series of moves, sockets and tables.
* ``fleet``: how many game processes share the background loops' polling.

``tables``: the table and its transaction.

* ``tables.table``: the authoritative table; every action is one PostgreSQL transaction under
  the table's row lock (parse → authorize → engine → clock → persist; a game's end
  writes its result and the ``game_finished`` outbox event in the same transaction).
* ``tables.move_writer``: the moves that arrive together, written in one statement.
* ``tables.row_cache``: the last known row of each table, for moves in one round trip.
* ``tables.refusals``: what is refused and why, in German and English.
* ``tables.flag_schedule``: flag deadlines in a Redis sorted set, claimed atomically by any
  process, judged under the row lock (a flag falls with nobody sending anything).
* ``shared.table_replay`` (shared with the lobby's Tagesmarkt): engine states rebuilt from
  (options, seed, moves), cached per table.

``rules``: the table's rules around the engine.

* ``rules.deadlines``: whose clock runs, and when the flag falls or a round pause ends.
* ``rules.move_limits``: the time one move may take at a table without a clock.
* ``rules.round_pause``: the pause between two rounds (Battlehanse's Rundentafel).
* ``rules.takeback_backoff``: how long a declined ↶ Zurück holds back the next request.
* ``rules.undo_reshuffle``: after a take-back against the computer, the unseen cards mixed anew.
* ``rules.private_tables``: who may look at a table (same-device tables, sealed deals).
* ``rules.sealed``: games whose deal others still play: after their end, only what play showed.

``fanout``: a committed change on its way to the sockets.

* ``fanout.payload`` / ``fanout.publisher``: ``table:state`` per recipient, to the rooms
  ``game:<id>:seat:<n>`` and ``game:<id>:watch`` through the Redis message queue.
* ``fanout.watchers``: whether anyone watches a table, across processes.
* ``fanout.wire_packet``: the Socket.IO wire, JSON only, each table state encoded once.
* ``fanout.redis_batch``: the Redis commands of many table changes in one round trip.
* ``fanout.table_channels``: one Redis channel per table, heard only where it is served.
* ``fanout.table_handover``: a table moves to the process the router now sends it to.

``presence``: who is at a table.

* ``presence.seat_connections``: sockets per (game, player) across processes; a player gone
  for 30 s loses (a local table is aborted).
* ``presence.table_presence``: ``table:presence``, who is at a running Wartesaal table.
* ``presence.player_status``: "spielt"/"frei" in the lobby's presence.

``solo``: playing against the computer.

* ``solo.computer_seat``: computer moves through ``shared.ai_protocol`` (Celery request,
  answer stream consumed by every process in one consumer group).
* ``solo.hint``: the Tipp at a Battlehanse table against the computer.
* ``solo.review_access``: the Rückblick: asking for it, and who may read it.
* ``solo.review_routes``: the Rückblick's data route.
* ``solo.sockets``: the Socket.IO events of Tipp and Rückblick.

Authentication: the client passes ``auth: {token, lang}`` where ``token`` is the
signed session token the lobby issued (``shared.auth_token``); sockets without a
valid token are refused at connect.  Events from the client carry exactly one
JSON object; malformed ones are answered with an ``error`` event
(``shared.socket_errors``) and change nothing.
"""
