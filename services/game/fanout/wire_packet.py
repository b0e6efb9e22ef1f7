"""The game service's Socket.IO wire: JSON only, each table state encoded once.

python-socketio walks every outgoing payload recursively, once per recipient socket,
looking for ``bytes`` to send as attachments.  A table state carries an engine view
with hundreds of nested values, so that walk cost more CPU than the rules, the
database and Redis together (profiled under bench/tables.py).  The game service
never sends bytes (``json`` would refuse them loudly), so the walk is skipped.
Incoming packets are decoded as python-socketio does: their type on the wire says whether they
carry attachments.

A table state goes to its seat's sockets on this process and, through the Redis
message queue, to the other processes.  Encoding it for each (the packet, the queue
message), and decoding the queue message once more in this very process's listener
only to drop it as its own, would triple the JSON work; so a payload is encoded once
(:class:`RawJson`), spliced as text into both the packet and the queue message, and
the listener drops this process's own messages by their first bytes, undecoded.
"""

from __future__ import annotations

import json
import logging
import secrets
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import orjson
import socketio
from redis.client import Pipeline
from socketio.packet import EVENT, Packet

from services.game.fanout.redis_batch import RedisBatch, Then
from services.game.fanout.table_channels import TableChannels
from shared import redis_address

_COMPACT = (",", ":")

# A computer's answer handed to the processes serving its table starts with these bytes
# (never a Socket.IO queue message, which is a JSON object).
FORWARDED_ANSWER = b"answer:"

# The listener's longest wait between attempts to reach Redis again (the library waits up
# to 60 s): every second of it after Redis is back, this process hears no other process.
LISTEN_RETRY_MAX_S = 2.0

log = logging.getLogger("game.wire")


class RawJson(str):
    """A value already encoded as JSON text: written into packets and messages as is."""


def encoded(data: Any) -> RawJson:
    """``data`` as compact JSON (what python-socketio's packets would carry, decoded alike).

    orjson takes a sixth of the standard library's time for a table state (profiled
    under bench/tables.py); integer dict keys become strings as with ``json``.  The few
    values orjson refuses (integers beyond 64 bits) take the standard library's way."""
    try:
        return RawJson(orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode())
    except TypeError:
        return RawJson(json.dumps(data, separators=_COMPACT))


class JsonPacket(Packet):
    @classmethod
    def data_is_binary(cls, data: Any) -> bool:
        return False

    def encode(self) -> Any:
        data = self.data
        if self.packet_type != EVENT or not isinstance(data, list) or not any(isinstance(x, RawJson) for x in data):
            return super().encode()
        head = str(self.packet_type)
        if self.namespace is not None and self.namespace != "/":
            head += self.namespace + ","
        if self.id is not None:
            head += str(self.id)
        return head + "[" + ",".join(x if isinstance(x, RawJson) else json.dumps(x, separators=_COMPACT)
                                     for x in data) + "]"


class QueueJson:
    """The message queue's JSON: pre-encoded payloads spliced in, own messages marked.

    Every message this process publishes begins with ``{"origin":"<host id>",``;
    :meth:`loads` returns None for those (python-socketio's listener then skips them),
    so this process never decodes its own table states again."""

    def __init__(self) -> None:
        self.host_id = ""
        self._mark = "@raw" + secrets.token_hex(8) + "@"

    def dumps(self, message: dict[str, Any], **_kwargs: Any) -> str:
        raws: list[str] = []

        def stand_in(value: Any) -> Any:
            if isinstance(value, RawJson):
                raws.append(value)
                return f"{self._mark}{len(raws) - 1}"
            return value

        def spliceable(single: dict[str, Any]) -> dict[str, Any]:
            data = single.get("data")
            if isinstance(data, list):
                return {**single, "data": [stand_in(x) for x in data]}
            return single

        batch = message.get("batch")
        if isinstance(batch, list):
            message = {**message, "batch": [spliceable(m) for m in batch]}
        else:
            message = spliceable(message)
        text = orjson.dumps({"origin": self.host_id, **message}).decode()
        for i, raw in enumerate(raws):
            text = text.replace(f'"{self._mark}{i}"', raw, 1)
        return text

    def loads(self, text: str | bytes) -> Any:
        head = f'{{"origin":"{self.host_id}",'
        if isinstance(text, bytes):
            if text.startswith(head.encode()):
                return None
        elif text.startswith(head):
            return None
        return orjson.loads(text)


def _numsub_count(reply: Any) -> int | None:
    """The listener count in a ``PUBSUB NUMSUB <channel>`` reply (``[channel, n]``, or redis-py's
    parsed ``[(channel, n)]``); None for anything else (an error)."""
    if isinstance(reply, list | tuple) and len(reply) == 1 and isinstance(reply[0], list | tuple):
        reply = reply[0]
    if isinstance(reply, list | tuple) and len(reply) == 2 and isinstance(reply[1], int):
        return reply[1]
    return None


class JsonQueue(socketio.RedisManager):
    """The Redis message queue without python-socketio's binary scan of every emit,
    with a channel per table and every publication sent through one batch.

    ``PubSubManager.emit`` walks the payload with ``Packet.data_is_binary`` before
    publishing (about 0.4 ms per table state here); this emit builds the same message
    with ``binary`` False, delivers it to this process's sockets and publishes it to
    the others, exactly as the library does.  Emits with a callback (none in the game
    service) take the library's path.

    Emits to a table's rooms are published on the table's own channel, which only the
    processes serving the table hear (:mod:`services.game.fanout.table_channels`); an emit to
    one of this process's own sockets is not published at all.  Every publication goes
    through :class:`~services.game.fanout.redis_batch.RedisBatch`, in order, many changes per
    round trip under load.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._codec = QueueJson()
        super().__init__(*args, json=self._codec, **kwargs)
        self._codec.host_id = self.host_id
        self.channels = TableChannels(self.channel)
        self.batch = RedisBatch(self._publishing_client, self._redis_connect)
        self.on_forwarded_answer: Callable[[str, dict[str, str]], None] = lambda entry_id, fields: None

    def set_server(self, server: Any) -> None:
        super().set_server(server)
        self.json = self._codec  # the library puts the packets' JSON module here

    def _publishing_client(self) -> Any:
        if not self.connected:
            self._redis_connect()
        return self.redis

    # ---- which tables this process hears ------------------------------------------------
    def _in_room(self, sid: str, namespace: str, room: str) -> bool:
        return sid in self.rooms.get(namespace, {}).get(room, ())

    def basic_enter_room(self, sid: str, namespace: str, room: str, eio_sid: str | None = None) -> None:
        was_in = self._in_room(sid, namespace, room)
        super().basic_enter_room(sid, namespace, room, eio_sid=eio_sid)
        if not was_in and self._in_room(sid, namespace, room):
            self.channels.entered(room)

    def basic_leave_room(self, sid: str, namespace: str, room: str) -> None:
        was_in = self._in_room(sid, namespace, room)
        super().basic_leave_room(sid, namespace, room)
        if was_in and not self._in_room(sid, namespace, room):
            self.channels.left(room)

    def _redis_listen_with_retries(self) -> Iterator[dict[str, Any]]:  # pragma: no cover - needs Redis
        """The library's listener loop, on a client of its own, subscribed to the base
        channel and every table this process serves (again after each reconnect)."""
        retry_sleep = 1.0
        while True:
            pubsub = None
            try:
                client = redis_address.client(self.redis_url, **self.redis_options)
                pubsub = client.pubsub()
                self.channels.attach(pubsub)
                retry_sleep = 1.0
                yield from pubsub.listen()
            except Exception as exc:
                self.channels.detach()
                if pubsub is not None:
                    try:
                        pubsub.close()  # its subscriptions must not outlive it on a half-open connection
                    except Exception:
                        pass
                log.warning("cannot receive from redis; retrying",
                            extra={"fields": {"error": repr(exc), "retry_s": retry_sleep}})
                time.sleep(retry_sleep)
                retry_sleep = min(LISTEN_RETRY_MAX_S, retry_sleep * 2)

    def _listen(self) -> Iterator[bytes]:  # pragma: no cover - needs Redis
        for message in self._redis_listen_with_retries():
            kind = message.get("type")
            if kind == "message":
                data = message["data"]
                if (data if isinstance(data, bytes) else data.encode()[:len(FORWARDED_ANSWER)]).startswith(
                        FORWARDED_ANSWER):
                    self._forwarded(data)
                    continue
                yield data
            elif kind == "subscribe":
                self.channels.confirmed(message["channel"])

    # ---- computer answers for the tables this process serves ----------------------------
    def forward_answer(self, game_id: int, entry_id: str, fields: dict[str, str]) -> int:
        """Publish a computer's answer (an ``ai:answers`` entry) on its table's channel: the
        processes serving the table hear it (:attr:`on_forwarded_answer`).  How many heard it."""
        text = orjson.dumps({"entry_id": entry_id, "fields": fields}).decode()
        return int(self._publishing_client().publish(self.channels.channel(game_id), FORWARDED_ANSWER.decode() + text))

    def _forwarded(self, data: bytes | str) -> None:
        raw = data.encode() if isinstance(data, str) else data
        try:
            message = orjson.loads(raw[len(FORWARDED_ANSWER):])
        except orjson.JSONDecodeError:
            log.warning("malformed forwarded answer")
            return
        # Not in the listener: applying it reads and writes the table.
        self.server.start_background_task(self.on_forwarded_answer, message["entry_id"], message["fields"])

    # ---- publishing ----------------------------------------------------------------------
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

    def emit_each(self, event: str, payloads: Iterable[tuple[Any, str]],
                  along: Callable[[Pipeline], None] = lambda pipe: None, then: Then | None = None) -> None:
        """Emit ``event`` with each (data, room) pair of ``payloads`` (an iterable, so the
        next payload is built only once the one before went to this process's sockets),
        then publish them to the other processes as one message (a table's change goes
        to two seats and the spectators).  Each payload is encoded to JSON once, for both.

        ``along`` adds the change's other Redis commands (the flag deadline) to the same
        round trip; ``then`` receives the answers, the publication's first, or None when
        Redis could not be reached (the local sockets have their states, the other
        processes and ``along``'s commands may not)."""
        self.publish_emitted(self.emit_here(event, payloads), along, then)

    def emit_here(self, event: str, payloads: Iterable[tuple[Any, str]]) -> list[dict[str, Any]]:
        """Emit ``event`` with each (data, room) pair to this process's sockets only; the
        messages, for :meth:`publish_emitted` to send on to the other processes later."""
        messages: list[dict[str, Any]] = []
        for data, room in payloads:
            message = self._message(event, encoded(data), room)
            self._handle_emit(message)
            if not messages:
                # Each socket's writer is a greenlet of its own: let the waiting player's
                # state leave now, not after every other payload is built and published.
                self.server.sleep(0)
            messages.append(message)
        return messages

    def publish_emitted(self, messages: list[dict[str, Any]], along: Callable[[Pipeline], None] = lambda pipe: None,
                        then: Then | None = None, alone: bool = False) -> None:
        """Messages this process's sockets already have (:meth:`emit_here`) to the other
        processes, as one publication with ``along``'s commands (see :meth:`emit_each`).

        ``alone``: this process believes it is the only one listening to the table's channel.
        Then the round trip only counts the channel's listeners (``PUBSUB NUMSUB``) instead of
        publishing, so Redis sends nothing back to this very process, and the message is
        encoded and published afterwards only if another process listens after all (it
        subscribed before the count, so it may have read the table before this change).
        ``then`` gets the listener count first either way."""
        channel = self.channels.channel_of_room(messages[0]["room"]) if messages else self.channel
        data = {"method": "emit", "batch": messages, "host_id": self.host_id}
        if not alone:
            self._publish_on(channel, data, along, then)
            return

        def add(pipe: Pipeline) -> None:
            pipe.execute_command("PUBSUB", "NUMSUB", channel)
            along(pipe)

        def counted(answers: list[Any] | None) -> None:
            if answers is not None:
                listeners = _numsub_count(answers[0])
                answers = [listeners, *answers[1:]]
                if listeners is None or listeners > 1:
                    self._publish_on(channel, data)
            if then is not None:
                then(answers)

        self.batch.submit(add, counted)

    def _publish(self, data: dict[str, Any]) -> None:
        """The library's publications (single emits, disconnects, rooms), through the batch."""
        room = data.get("room")
        if data.get("method") == "emit":
            if room is not None and self.is_sid_room(data.get("namespace") or "/", room):
                return  # one of this process's own sockets: nobody else has it
            channel = self.channels.channel_of_room(room)
        else:
            channel = self.channel  # a remote socket's room change or disconnect: every process hears
        self._publish_on(channel, data)

    def _publish_on(self, channel: str, data: dict[str, Any], along: Callable[[Pipeline], None] = lambda pipe: None,
                    then: Then | None = None) -> None:
        """``data`` on ``channel`` with ``along``'s commands, through the batch (encoded now,
        so what is sent is the message as it is at this moment)."""
        text = self.json.dumps(data)

        def add(pipe: Pipeline) -> None:
            pipe.publish(channel, text)
            along(pipe)

        self.batch.submit(add, then)

    def _handle_emit(self, message: dict[str, Any]) -> None:
        batch = message.get("batch")
        if batch is None:
            super()._handle_emit(message)
            return
        for single in batch:
            super()._handle_emit(single)
