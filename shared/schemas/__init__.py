"""Every message between the services and with the web client, defined once.

``mechanism``: how a message is defined, checked and written as TypeScript.  The
catalogues: ``lobby_events`` and ``table_events`` (the two sockets), ``http_records``
(the HTTP routes' bodies and answers), ``game_views`` (each game's view), ``ai_messages``
(the computer's requests and answers), ``outbox_events`` (events between services).
``typescript`` writes the web client's ``web/src/protocol.ts`` from them; ``server_events``
checks what the servers send (for tests).

Importing the package loads every catalogue, so every record a ``Ref`` names is known
whichever module a caller imports.
"""

from shared.schemas import (  # noqa: F401
    ai_messages,
    game_views,
    http_records,
    lobby_events,
    mechanism,
    outbox_events,
    table_events,
)
