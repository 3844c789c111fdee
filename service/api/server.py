"""Running the app under uvicorn: the options every server of Attest uses (``attest serve``,
with one process or several, and the background thread of tests and benchmarks).

``TCP_NODELAY`` on every accepted connection (:class:`NoDelayHTTPProtocol`). uvicorn writes a
response as two segments (headers, then body). With Nagle's algorithm on, the body waits until
the client acknowledges the headers, and a client delays that acknowledgement (40 ms on Linux):
every small response then costs about 40 ms of idle wait. asyncio turns Nagle off by itself only
on sockets it created; ``attest serve --workers N`` listens on a socket that uvicorn bound itself
(``socket.socket(family)``, protocol 0), whose accepted connections kept Nagle on. Measured with
``bench/api_load.py --clients 1 --workers 2``: see docs/ARCHITECTURE.md, "API overhead".

One listening socket per worker process (:func:`serve_workers`). uvicorn's ``--workers N`` shares
one socket between its processes, and each process's event loop accepts every connection that is
waiting when it wakes up: the 8 keep-alive connections of ``bench/api_load.py --clients 8`` all
went to one process (measured: the other used no CPU), so a second process added nothing. With
``SO_REUSEPORT`` each process listens on its own socket and the kernel spreads new connections
over them by a hash of the client's address and port, as a load balancer would.
"""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

from fastapi import FastAPI
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from ingest.errors import UnavailableError

__all__ = [
    "HTTP_PROTOCOL", "NoDelayHTTPProtocol", "ReusePortAddress", "free_port", "reuse_port_socket",
    "serve_in_thread", "serve_workers", "served_app",
]

# uvicorn's ``http`` option as an import string: the child processes of ``--workers N`` import it.
HTTP_PROTOCOL = "service.api.server:NoDelayHTTPProtocol"


class NoDelayHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP/1.1 protocol (h11, or httptools when installed) with ``TCP_NODELAY`` set
    on the connection before the first byte is read (see the module docstring)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)


def served_app() -> FastAPI:
    """The app factory of ``attest serve --workers N``: each child process configures its own
    logging (JSON lines at ``ATTEST_LOG_LEVEL``) before it builds the app, as the single-process
    path does; without this the children logged every debug event through structlog's default
    console renderer."""
    from ingest.settings import get_settings
    from service.api.app import create_app
    from service.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_level, stream=sys.stdout)
    return create_app(settings)


def reuse_port_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` with ``SO_REUSEPORT`` (not yet listening): every
    worker process binds one, and the kernel balances new connections between the listening
    ones."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class ReusePortAddress:
    """What uvicorn's process supervisor hands each worker process in place of a shared socket:
    unpickled in the (spawned) worker, it becomes that worker's own :func:`reuse_port_socket`.
    A worker that dies is replaced the same way."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        return reuse_port_socket, (self.host, self.port)


def serve_workers(host: str, port: int, workers: int, **options: Any) -> None:
    """``attest serve --workers N``: uvicorn's process supervisor (health checks, restarts,
    signals) over N processes that each listen on their own ``SO_REUSEPORT`` socket (see the
    module docstring). The parent keeps one bound, never-listening socket of the group: the port
    is taken (a clear error now if it is not free), and it receives no connections. Raises
    :class:`UnavailableError` when the server stopped because a worker failed to start."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    holder = reuse_port_socket(host, port)  # raises OSError (address in use) before any worker
    try:
        config = uvicorn.Config(
            "service.api.server:served_app", factory=True, workers=workers, host=host,
            port=port, http=HTTP_PROTOCOL, **options,
        )
        supervisor = Multiprocess(config, sockets=[ReusePortAddress(host, port)])  # type: ignore[list-item]
        supervisor.run()
    finally:
        holder.close()
    # The supervisor also stops, without an error of its own, when a worker fails before it
    # serves (its lifespan raised: the store cannot open, say); that worker is still in its list.
    failed = sorted(p.pid for p in supervisor.processes if p.exitcode == STARTUP_FAILURE)
    if failed:
        raise UnavailableError(
            f"worker process {failed[0]} failed to start (its error is logged above), so the "
            "server stopped"
        )


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


@contextmanager
def serve_in_thread(app: FastAPI, host: str = "127.0.0.1", port: int | None = None,
                    startup_timeout: float = 120.0) -> Iterator[str]:
    """Start uvicorn on ``host:port`` (a free port by default); yield the base URL; stop it."""
    import uvicorn

    port = port or free_port(host)
    options: dict[str, Any] = {"log_config": None, "access_log": False, "http": HTTP_PROTOCOL}
    config = uvicorn.Config(app, host=host, port=port, lifespan="on", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="attest-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + startup_timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    try:
        yield f"http://{host}:{port}"
    finally:
        server.should_exit = True
        thread.join(60)
