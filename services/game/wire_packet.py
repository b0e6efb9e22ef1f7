"""The Socket.IO packet class of the game service: JSON only, no search for binary parts.

python-socketio walks every outgoing payload recursively, once per recipient socket,
looking for ``bytes`` to send as attachments.  A table state carries an engine view
with hundreds of nested values, so that walk cost more CPU than the rules, the
database and Redis together (profiled under bench/tables.py).  The game service
never sends bytes (``json`` would refuse them loudly), so the walk is skipped.
Incoming packets are decoded as before: their type on the wire says whether they
carry attachments.
"""

from __future__ import annotations

from typing import Any

from socketio.packet import Packet


class JsonPacket(Packet):
    @classmethod
    def data_is_binary(cls, data: Any) -> bool:
        return False
