"""The game service's wire: a table state encoded once is the same packet and queue message as before."""

from __future__ import annotations

import json

from socketio.packet import EVENT, Packet

from services.game.fanout.wire_packet import JsonPacket, QueueJson, RawJson, encoded

STATE = {"game_id": 7, "view": {"cells": [[0, 1, None]], "text": "Zug „e4“ ✓", "legal_moves": [{"text": "a1"}]},
         "version": 3, "flag": True}


def _decoded(packet: str) -> tuple:
    got = Packet(encoded_packet=packet)
    return got.packet_type, got.namespace, got.id, got.data


def test_a_pre_encoded_payload_makes_the_same_packet_as_the_library() -> None:
    # The same packet once decoded (orjson writes "„e4“ ✓" as UTF-8 where json escapes it).
    plain = Packet(EVENT, data=["table:state", STATE]).encode()
    assert _decoded(JsonPacket(EVENT, data=["table:state", encoded(STATE)]).encode()) == _decoded(plain)
    assert _decoded(JsonPacket(EVENT, namespace="/x", data=["table:state", encoded(STATE)], id=4).encode()) == \
        _decoded(Packet(EVENT, namespace="/x", data=["table:state", STATE], id=4).encode()) == \
        (EVENT, "/x", 4, ["table:state", STATE])
    # Integer keys become strings, as json makes them; integers beyond 64 bits still encode.
    assert json.loads(encoded({1: [2**70]})) == {"1": [2**70]}
    # Anything else takes the library's path.
    assert JsonPacket(EVENT, data=["error", {"code": "x"}]).encode() == Packet(EVENT, data=["error", {"code": "x"}]).encode()


def test_queue_messages_splice_payloads_and_skip_their_own() -> None:
    ours, theirs = QueueJson(), QueueJson()
    ours.host_id, theirs.host_id = "aaa", "bbb"
    tricky = dict(STATE, text='"@raw" and a quote " and a backslash \\')
    batch = {"method": "emit", "host_id": "aaa", "batch": [
        {"method": "emit", "event": "table:state", "data": [encoded(STATE)], "room": "game:7:seat:0"},
        {"method": "emit", "event": "table:state", "data": [encoded(tricky)], "room": "game:7:watch"},
    ]}
    text = ours.dumps(batch)
    assert ours.loads(text) is None and ours.loads(text.encode()) is None  # our own: never decoded again
    got = theirs.loads(text.encode())
    assert [m["data"] for m in got["batch"]] == [[STATE], [tricky]]
    assert got["batch"][0]["room"] == "game:7:seat:0" and got["origin"] == "aaa"
    single = ours.dumps({"method": "emit", "event": "error", "data": [{"code": "x"}], "host_id": "aaa"})
    assert theirs.loads(single)["data"] == [{"code": "x"}]
    assert isinstance(encoded(STATE), RawJson) and json.loads(encoded(STATE)) == STATE


def test_the_queue_keeps_its_codec_when_the_server_takes_it_up() -> None:
    from services.game.fanout.wire_packet import JsonQueue

    class Server:
        packet_class = JsonPacket

    queue = JsonQueue("redis://127.0.0.1:9/0", channel="test", write_only=True)  # connects lazily: never here
    queue.set_server(Server())
    assert isinstance(queue.json, QueueJson) and queue.json.host_id == queue.host_id
