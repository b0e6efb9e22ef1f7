"""The lobby: accounts over HTTP, the Wartesaal (chat and who is here) over Socket.IO, and the web client.

HTTP (JSON; errors ``{"error": {"code", "message"}}``, language from ``shared.i18n.request_language``: the ``X-Lang`` header first):
``POST /api/guest``, ``POST /api/register``, ``POST /api/login`` (body ``Credentials``),
``POST /api/logout``, ``GET /api/me``; ``GET /api/games/<game>/preview?options=<JSON>``
(the start position's view for the challenge panel, null while seed-dependent);
``GET /api/rating/...`` forwarded to the rating service; ``/`` and ``/assets/*`` serve
``web/dist``; ``/livez``, ``/readyz`` (``shared.health``) and ``/metrics``.

Socket.IO (default namespace; events and payloads defined in ``shared/schemas/lobby_events.py``): the
``sc_session`` cookie (a ``shared.auth_token`` token) is required on connect, ``auth``
may carry ``{"lang": "de"|"en"}``.  Challenges (``challenge:*``, see
``services.lobby.challenges``) reach both sides in room ``user:<id>``.  Broadcasts go
through the Redis message queue (channel ``shared.presence.LOBBY_CHANNEL``), so any
number of lobby processes form one Wartesaal.
"""
