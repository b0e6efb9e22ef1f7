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

The tables (issue 5), one idea per module:

* ``table``: the authoritative table; every action is one PostgreSQL transaction under
  the table's row lock (parse → authorize → engine → clock → persist; a game's end
  writes its result and the ``game_finished`` outbox event in the same transaction).
* ``shared.table_replay`` (shared with the lobby's Tagesmarkt): engine states rebuilt from
  (options, seed, moves), cached per table.
* ``payload`` / ``publisher``: ``table:state`` per recipient, to the rooms
  ``game:<id>:seat:<n>`` and ``game:<id>:watch`` through the Redis message queue.
* ``flag_schedule``: flag deadlines in a Redis sorted set, claimed atomically by any
  process, judged under the row lock (a flag falls with nobody sending anything).
* ``seat_connections``: sockets per (game, player) across processes; a player gone
  for 30 s loses (a local table is aborted).
* ``computer_seat``: computer moves through ``shared.ai_protocol`` (Celery request,
  answer stream consumed by every process in one consumer group).
* ``player_status``: "spielt"/"frei" in the lobby's presence.
* ``http_routes``: live games, replays, records, my games.
* ``refusals``: what is refused and why, in German and English.

Authentication: the client passes ``auth: {token, lang}`` where ``token`` is the
signed session token the lobby issued (``shared.auth_token``); sockets without a
valid token are refused at connect.  Events from the client carry exactly one
JSON object; malformed ones are answered with an ``error`` event
(``shared.socket_errors``) and change nothing.
"""
