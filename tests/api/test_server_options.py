"""The uvicorn options every Attest server runs with (service/api/server.py)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from service.api.server import HTTP_PROTOCOL, NoDelayHTTPProtocol
from tests.helpers import run_coroutine


def _nodelay_seen_by(make_protocol) -> list[int]:
    """Serve one connection on a listener bound as uvicorn's ``Config.bind_socket`` binds
    `--workers N` sockets (``socket.socket(family)``, protocol 0), with ``make_protocol(seen)``
    as the protocol factory, and return the TCP_NODELAY values its connections recorded."""
    listener = socket.socket(socket.AF_INET)
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    seen: list[int] = []

    async def run() -> None:
        server = await asyncio.get_running_loop().create_server(make_protocol(seen), sock=listener)
        _, writer = await asyncio.open_connection(*listener.getsockname())
        for _ in range(100):
            if seen:
                break
            await asyncio.sleep(0.01)
        writer.close()
        server.close()

    run_coroutine(run())
    return seen


def _record_nodelay(seen: list[int], transport) -> None:
    seen.append(transport.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    transport.close()


def test_an_accepted_connection_gets_tcp_nodelay_even_from_a_protocol_0_listener():
    """uvicorn binds `--workers N` sockets with protocol 0, so asyncio leaves Nagle on for their
    connections: each response then waited ~40 ms for the client's delayed ACK. The protocol
    turns it off itself."""
    import uvicorn
    from uvicorn.server import ServerState

    async def app(scope, receive, send):  # never reached: the probe closes at once
        raise AssertionError("no request is sent")

    config = uvicorn.Config(app=app, http=HTTP_PROTOCOL, log_config=None)
    config.load()

    def make_protocol(seen: list[int]):
        class Probe(NoDelayHTTPProtocol):
            def connection_made(self, transport):  # type: ignore[override]
                super().connection_made(transport)
                _record_nodelay(seen, transport)

        return lambda: Probe(config=config, server_state=ServerState(), app_state={})

    seen = _nodelay_seen_by(make_protocol)
    assert seen and seen[0] != 0


def test_the_plain_listener_really_leaves_nagle_on():
    """The control: without the protocol's own setsockopt the same listener's connection has
    TCP_NODELAY off (this is what the fix is for; if asyncio ever sets it, this test says so)."""

    def make_protocol(seen: list[int]):
        class Plain(asyncio.Protocol):
            def connection_made(self, transport):  # type: ignore[override]
                _record_nodelay(seen, transport)

        return Plain

    assert _nodelay_seen_by(make_protocol) == [0]


@pytest.mark.slow
def test_workers_children_log_json_lines_at_the_configured_level(tmp_path):
    """``attest serve --workers 2``: each child configures logging before building its app, so
    its lines are JSON at ``ATTEST_LOG_LEVEL`` (before, the children used structlog's default
    console renderer at debug level, whatever the setting)."""
    import json
    import os
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    import httpx

    from service.api.server import free_port

    repo = Path(__file__).resolve().parents[2]
    key = "workers-key-0123456789abcdef"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTEST_")}
    env.update({
        "ATTEST_DATA_DIR": str(tmp_path),
        "ATTEST_API_KEYS": json.dumps({key: {"principal": "ops", "groups": [], "admin": True}}),
        "ATTEST_LOG_LEVEL": "INFO",
        "PYTHONPATH": str(repo),
    })
    log_path = tmp_path / "serve.log"
    with open(log_path, "wb") as log_file:
        server = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "2"],
            cwd=repo, env=env, stdout=log_file, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        try:
            deadline = time.monotonic() + 240
            while True:
                try:
                    if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=5).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert server.poll() is None and time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.5)
            answer = httpx.get(f"http://127.0.0.1:{port}/v1/me",
                               headers={"Authorization": f"Bearer {key}"}, timeout=30)
            assert answer.status_code == 200
            time.sleep(0.5)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(60)
    lines = [line for line in log_path.read_text().splitlines() if line.strip()]
    events = [json.loads(line) for line in lines]  # every line is JSON
    assert {"request_finished", "api_started"} <= {e["event"] for e in events}
    assert not [e for e in events if e.get("level") == "debug"]
