"""The lobby: accounts over HTTP, the Wartesaal (chat and who is here) over Socket.IO, and the web client.

HTTP (JSON; errors ``{"error": {"code", "message"}}``, language from the ``X-Lang`` header):
``POST /api/guest``, ``POST /api/register``, ``POST /api/login`` (body ``Credentials``),
``POST /api/logout``, ``GET /api/me``; ``/`` and ``/assets/*`` serve ``web/dist``;
``/healthz`` and ``/metrics``.

Socket.IO (default namespace; events and payloads defined in ``shared/schemas.py``): the
``sc_session`` cookie (a ``shared.auth_token`` token) is required on connect, ``auth``
may carry ``{"lang": "de"|"en"}``.  Broadcasts go through the Redis message queue
(channel ``shared.presence.LOBBY_CHANNEL``), so any number of lobby processes form one Wartesaal.
"""
