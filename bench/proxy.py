"""A small sticky reverse proxy in front of several lobby and game processes, as ``deploy/nginx.conf`` does.

``python -m bench.proxy --port P --lobby URL[,URL…] --game URL[,URL…]``

Routing follows the compose file's nginx: ``/game/socket.io/…`` goes to the game
processes, everything else (pages, ``/api``, the lobby's ``/socket.io/``) to the lobby
processes, and ``/metrics`` / ``/healthz`` stay private (404).  nginx pins a client
*address* to one upstream (``ip_hash``); every bot of a load run comes from 127.0.0.1,
so that rule would put all of them on one process.  This proxy pins a *connection*
instead, chosen by a hash of the client's port: each WebSocket is one TCP connection
for its whole life, so for WebSocket clients (the bots use nothing else) that is the
same stickiness nginx gives browsers from different addresses.  The upstream is picked
from the first request head of a connection; later requests on a kept-alive
connection go to the same process (nginx would re-route them; the bots' HTTP calls
stay inside one service per connection).

When the chosen process does not accept the connection (it was killed), the next one
of the group is tried, as nginx's ``proxy_next_upstream error`` does: a client that
reconnects after a crash lands on a live process.
"""

from __future__ import annotations

import argparse
import asyncio
import zlib
from urllib.parse import urlsplit

HEAD_LIMIT = 64 * 1024
PRIVATE_PATHS = (b"/metrics", b"/healthz")
NOT_FOUND = b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
BAD_GATEWAY = b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"


def _address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 80


def _path(head: bytes) -> bytes:
    request_line = head.split(b"\r\n", 1)[0].split(b" ")
    return request_line[1] if len(request_line) > 1 else b"/"


def _with_forwarded_for(head: bytes, client_host: str) -> bytes:
    """Add X-Forwarded-For like nginx's ``proxy_add_x_forwarded_for`` (the login throttle reads it)."""
    line, rest = head.split(b"\r\n", 1)
    return line + b"\r\nX-Forwarded-For: " + client_host.encode() + b"\r\n" + rest


class StickyProxy:
    def __init__(self, lobby: list[str], game: list[str]) -> None:
        self.groups = {"lobby": [_address(u) for u in lobby], "game": [_address(u) for u in game]}

    def group_of(self, path: bytes) -> str:
        return "game" if path.startswith(b"/game/socket.io/") else "lobby"

    async def _open(self, group: str, key: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        upstreams = self.groups[group]
        first = zlib.crc32(key.to_bytes(4, "big")) % len(upstreams)
        last_error: OSError | None = None
        for offset in range(len(upstreams)):
            host, port = upstreams[(first + offset) % len(upstreams)]
            try:
                return await asyncio.open_connection(host, port)
            except OSError as exc:
                last_error = exc
        raise last_error or OSError("no upstream")

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client_host, client_port = writer.get_extra_info("peername")[:2]
        try:
            head = await reader.readuntil(b"\r\n\r\n")
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
            writer.close()
            return
        path = _path(head)
        if path.split(b"?", 1)[0] in PRIVATE_PATHS:
            writer.write(NOT_FOUND)
            await writer.drain()
            writer.close()
            return
        try:
            up_reader, up_writer = await self._open(self.group_of(path), client_port)
        except OSError:
            writer.write(BAD_GATEWAY)
            await writer.drain()
            writer.close()
            return
        up_writer.write(_with_forwarded_for(head, client_host))
        await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))

    @staticmethod
    async def _pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while True:
                chunk = await source.read(65536)
                if not chunk:
                    break
                sink.write(chunk)
                await sink.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            # Either side closing ends the pair: a killed upstream drops its clients at once,
            # so they notice and reconnect (python-socketio's reconnection).
            sink.close()


async def serve(port: int, lobby: list[str], game: list[str]) -> None:
    proxy = StickyProxy(lobby, game)
    server = await asyncio.start_server(proxy.handle, "127.0.0.1", port, limit=HEAD_LIMIT, backlog=1024)
    async with server:
        await server.serve_forever()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--lobby", required=True, help="comma-separated lobby URLs")
    parser.add_argument("--game", required=True, help="comma-separated game service URLs")
    args = parser.parse_args()
    asyncio.run(serve(args.port, args.lobby.split(","), args.game.split(",")))


if __name__ == "__main__":
    main()
