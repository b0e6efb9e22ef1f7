"""The game service's Socket.IO wire: JSON only, no search for binary parts.

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

import socketio
from socketio.packet import Packet


class JsonPacket(Packet):
    @classmethod
    def data_is_binary(cls, data: Any) -> bool:
        return False


class JsonQueue(socketio.RedisManager):
    """The Redis message queue without python-socketio's binary scan of every emit.

    ``PubSubManager.emit`` walks the payload with ``Packet.data_is_binary`` before
    publishing (about 0.4 ms per table state here); this emit builds the same message
    with ``binary`` False, delivers it to this process's sockets and publishes it to
    the others, exactly as the library does.  Emits with a callback (none in the game
    service) take the library's path.
    """

    def emit(self, event: str, data: Any, namespace: str | None = None, room: str | None = None,
             skip_sid: Any = None, callback: Any = None, to: str | None = None, **kwargs: Any) -> None:
        if callback is not None or kwargs.get("ignore_queue"):
            return super().emit(event, data, namespace=namespace, room=room, skip_sid=skip_sid,
                                callback=callback, to=to, **kwargs)
        message = self._message(event, data, to or room, namespace, skip_sid)
        self._handle_emit(message)  # this process's sockets
        self._publish(message)  # the other processes'
        return None

    def _message(self, event: str, data: Any, room: str | None, namespace: str | None = None,
                 skip_sid: Any = None) -> dict[str, Any]:
        return {"method": "emit", "event": event, "data": list(data) if isinstance(data, tuple) else [data],
                "binary": False, "namespace": namespace or "/", "room": room, "skip_sid": skip_sid,
                "callback": None, "host_id": self.host_id}

    def emit_each(self, event: str, payloads: list[tuple[Any, str]]) -> None:
        """Emit ``event`` with each (data, room) pair, published to the other processes as
        one message (a table's change goes to two seats and the spectators: one Redis
        round trip instead of three)."""
        messages = [self._message(event, data, room) for data, room in payloads]
        for message in messages:
            self._handle_emit(message)
        self._publish({"method": "emit", "batch": messages, "host_id": self.host_id})

    def _handle_emit(self, message: dict[str, Any]) -> None:
        batch = message.get("batch")
        if batch is None:
            super()._handle_emit(message)
            return
        for single in batch:
            super()._handle_emit(single)
