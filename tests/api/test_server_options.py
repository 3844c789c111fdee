"""The uvicorn options every Attest server runs with (service/api/server.py)."""

from __future__ import annotations

import asyncio
import socket

from service.api.server import HTTP_PROTOCOL, NoDelayHTTPProtocol


def test_an_accepted_connection_gets_tcp_nodelay_even_from_a_protocol_0_listener():
    """uvicorn binds `--workers N` sockets as ``socket.socket(family)`` (protocol 0), so asyncio
    leaves Nagle on for their connections: each response then waited ~40 ms for the client's
    delayed ACK. The protocol turns it off itself."""
    listener = socket.socket(socket.AF_INET)  # exactly how uvicorn's Config.bind_socket does it
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    seen: list[int] = []

    class Probe(NoDelayHTTPProtocol):
        def connection_made(self, transport):  # type: ignore[override]
            super().connection_made(transport)
            sock = transport.get_extra_info("socket")
            seen.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def run() -> None:
        import uvicorn

        from uvicorn.server import ServerState

        async def app(scope, receive, send):  # never reached: the probe closes at once
            raise AssertionError("no request is sent")

        config = uvicorn.Config(app=app, http=HTTP_PROTOCOL, log_config=None)
        config.load()

        state = ServerState()
        loop = asyncio.get_running_loop()
        server = await loop.create_server(
            lambda: Probe(config=config, server_state=state, app_state={}), sock=listener
        )
        reader, writer = await asyncio.open_connection(*listener.getsockname())
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()

    asyncio.run(run())
    assert seen and seen[0] != 0


def test_the_plain_listener_really_leaves_nagle_on():
    """The control: without the protocol's own setsockopt the same listener's connection has
    TCP_NODELAY off (this is what the fix is for; if asyncio ever sets it, this test says so)."""
    listener = socket.socket(socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    seen: list[int] = []

    class Plain(asyncio.Protocol):
        def connection_made(self, transport):  # type: ignore[override]
            seen.append(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    async def run() -> None:
        loop = asyncio.get_running_loop()
        server = await loop.create_server(Plain, sock=listener)
        _, writer = await asyncio.open_connection(*listener.getsockname())
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()

    asyncio.run(run())
    assert seen == [0]
