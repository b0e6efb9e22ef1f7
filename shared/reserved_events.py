"""Telling a real connect/disconnect from a client *event* that carries that name.

python-socketio dispatches a client event named ``connect`` or ``disconnect`` to the
server's connect/disconnect handler (its ``reserved_events`` only keep such names away
from the catch-all ``*`` handler).  Run again, the lobby's connect handler counted the
socket twice and a client-sent ``disconnect`` took a still-connected player out of the
Wartesaal (or off their table's seat presence).  During a real connect or disconnect
the manager does not count the socket as connected (it is pending either way); during
an event it does.
"""

from __future__ import annotations

from flask import request
from flask_socketio import SocketIO

RESERVED = ("connect", "disconnect")


def sent_as_event(socketio: SocketIO) -> bool:
    """True inside a connect/disconnect handler that a client's event (not the transport) triggered."""
    return bool(socketio.server.manager.is_connected(request.sid, getattr(request, "namespace", "/") or "/"))
