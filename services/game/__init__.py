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

Authentication: the client passes ``auth: {token, lang}`` where ``token`` is the
signed session token the lobby issued (``shared.auth_token``); sockets without a
valid token are refused at connect.  Events from the client carry exactly one
JSON object; malformed ones are answered with an ``error`` event
(``shared.socket_errors``) and change nothing.
"""
