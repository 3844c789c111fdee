"""Issue 14 (API 8 clients / 1): `attest serve --workers N` spreads connections over its processes
(one SO_REUSEPORT socket each, ``service/api/server.py``), and the evidence route bounds the
machines computing at once in a process (``service/api/routes/evidence.py``). Real sockets, real
processes, real app, SQLite file and models."""

from __future__ import annotations

import json
import os
import pickle
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.api.routes.evidence import evidence_slots
from service.api.server import ReusePortAddress, free_port, reuse_port_socket
from tests.api.conftest import ALICE, ALICE_TEXT, ingest

REPO = Path(__file__).resolve().parents[2]


def _accept_all(listeners: list[socket.socket], expected: int, timeout: float = 10.0) -> list[int]:
    """Accept ``expected`` connections from whichever listener has them; count per listener."""
    counts = [0] * len(listeners)
    accepted: list[socket.socket] = []
    deadline = time.monotonic() + timeout
    while sum(counts) < expected and time.monotonic() < deadline:
        ready, _, _ = select.select(listeners, [], [], 0.5)
        for sock in ready:
            conn, _ = sock.accept()
            accepted.append(conn)
            counts[listeners.index(sock)] += 1
    for conn in accepted:
        conn.close()
    return counts


def test_reuse_port_listeners_on_one_port_each_receive_connections() -> None:
    port = free_port()
    listeners = [reuse_port_socket("127.0.0.1", port) for _ in range(2)]
    clients: list[socket.socket] = []
    try:
        for sock in listeners:
            sock.listen(64)
        for _ in range(32):  # one burst, as 8 benchmark clients open their connections
            clients.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        counts = _accept_all(listeners, 32)
    finally:
        for sock in clients + listeners:
            sock.close()
    assert sum(counts) == 32
    # The kernel hashes each connection's address and port: all 32 on one listener has
    # probability 2**-31. A shared socket gives them to whichever process accepts first.
    assert min(counts) > 0, counts


def test_a_reuse_port_address_becomes_its_own_bound_socket_when_unpickled() -> None:
    port = free_port()
    holder = reuse_port_socket("127.0.0.1", port)  # the parent's: bound, never listening
    try:
        sock = pickle.loads(pickle.dumps(ReusePortAddress("127.0.0.1", port)))
        try:
            assert isinstance(sock, socket.socket)
            assert sock.getsockname() == ("127.0.0.1", port)
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
            assert sock.fileno() != holder.fileno()
        finally:
            sock.close()
    finally:
        holder.close()


def _server_env(data_dir: Path, key: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTEST_")}
    env.update({
        "ATTEST_DATA_DIR": str(data_dir),
        "ATTEST_API_KEYS": json.dumps({key: {"principal": "ops", "groups": [], "admin": True}}),
        "ATTEST_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(REPO),
    })
    return env


def test_serve_workers_refuses_a_port_another_program_listens_on(tmp_path: Path) -> None:
    taken = socket.socket(socket.AF_INET, socket.SOCK_STREAM)  # no SO_REUSEPORT: not shareable
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "2"],
            cwd=REPO, env=_server_env(tmp_path, "balance-key-0123456789abcdef"),
            capture_output=True, text=True, timeout=120,
        )
    finally:
        taken.close()
    assert done.returncode == 2
    assert f"error: cannot listen on 127.0.0.1:{port}: Address already in use" in done.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_exits_unavailable_when_the_store_cannot_open_at_start(tmp_path: Path, workers: str) -> None:
    """Before, with --workers 2 the supervisor stopped after a worker failed to start and
    `attest serve` exited 0, as after a clean shutdown; with one process it exited with
    uvicorn's 3, which Attest's table reads as "not found"."""
    (tmp_path / "attest.sqlite3").mkdir()  # a directory where the store's file should be
    done = subprocess.run(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(free_port()), "--workers", workers],
        cwd=REPO, env=_server_env(tmp_path, "balance-key-0123456789abcdef"),
        capture_output=True, text=True, timeout=240,
    )
    assert done.returncode == 5, done.stderr[-2000:]
    last_line = done.stderr.strip().splitlines()[-1]
    if workers == "1":
        assert last_line == "error: the server failed to start (its error is logged above)"
    else:
        assert re.fullmatch(
            r"error: worker process \d+ failed to start \(its error is logged above\), so the "
            r"server stopped", last_line), last_line
    assert "cannot open the SQLite store at" in done.stderr + done.stdout


def _sockets_by_process(pgid: int, port: int, state: str) -> dict[int, int]:
    """TCP sockets on local ``port`` in ``state`` (01 established, 0A listening) held by each
    process of group ``pgid``."""
    inodes: dict[str, None] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as f:
            for line in f.readlines()[1:]:
                fields = line.split()
                local_port = int(fields[1].rsplit(":", 1)[1], 16)
                if local_port == port and fields[3] == state:
                    inodes[fields[9]] = None
    counts: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getpgid(int(entry)) != pgid:
                continue
            fds = os.listdir(f"/proc/{entry}/fd")
        except (OSError, ProcessLookupError):
            continue
        for fd in fds:
            try:
                target = os.readlink(f"/proc/{entry}/fd/{fd}")
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                counts[int(entry)] = counts.get(int(entry), 0) + 1
    return counts


@pytest.mark.slow
def test_a_burst_of_connections_reaches_both_worker_processes(tmp_path: Path) -> None:
    """Before, the 8 connections of `bench/api_load.py --clients 8` all went to one of the two
    processes (the other used no CPU); now each process listens on its own socket."""
    port = free_port()
    log = tmp_path / "serve.log"  # the server's output, shown if it stops before listening
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "serve", "--port", str(port), "--workers", "2"],
            cwd=REPO, env=_server_env(tmp_path / "data", "balance-key-0123456789abcdef"),
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    connections: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 240
        while True:  # both processes listen, each on a socket of its own (the parent's never does)
            listening = _sockets_by_process(server.pid, port, "0A")
            if len(listening) == 2:
                break
            assert server.poll() is None and time.monotonic() < deadline, (
                listening, server.returncode, log.read_text(errors="replace")[-3000:])
            time.sleep(0.5)
        assert sorted(listening.values()) == [1, 1]
        for _ in range(16):
            connections.append(socket.create_connection(("127.0.0.1", port), timeout=30))
        for conn in connections:  # one keep-alive request each: every connection is accepted
            conn.sendall(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        for conn in connections:
            assert conn.recv(65536).startswith(b"HTTP/1.1 200")  # healthz needs no key
        counts = _sockets_by_process(server.pid, port, "01")
    finally:
        for conn in connections:
            conn.close()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(60)
    assert sum(counts.values()) == 16, counts
    assert len(counts) == 2 and min(counts.values()) > 0, counts  # probability of failing: 2**-15


def test_an_evidence_query_waiting_for_a_slot_past_its_deadline_is_refused_unaudited(app_factory) -> None:
    client = app_factory(api_evidence_threads=1, request_timeout_seconds=1.0)
    ingest(client, ALICE, ALICE_TEXT)
    question = {"question": "What is the governing law of the Master Supply Agreement?"}
    slots = evidence_slots(1)
    assert slots.acquire(timeout=10)  # the process's one slot is busy
    try:
        refused = client.post("/v1/evidence/query", headers=ALICE, json=question)
    finally:
        slots.release()
    assert refused.status_code == 503
    assert refused.json()["error"]["code"] == "deadline_exceeded"
    answered = client.post("/v1/evidence/query", headers=ALICE, json=question)
    assert answered.status_code == 200 and answered.json()["state"] == "CONCLUDED"
    time.sleep(1.5)  # the refused request's thread gave up its wait at the deadline
    store = client.app.state.ctx.require_store()
    import sqlite3

    db = sqlite3.connect(store.path)
    try:
        actions = {r[0]: r[1] for r in db.execute(
            "SELECT request_id, action FROM audit WHERE request_id IN (?, ?)",
            (refused.headers["X-Request-ID"], answered.headers["X-Request-ID"]))}
    finally:
        db.close()
    assert actions == {answered.headers["X-Request-ID"]: "evidence_query"}


@pytest.mark.parametrize("threads,accepted", [("0", False), ("1", True), ("64", True), ("65", False)])
def test_the_evidence_bound_is_bounded(tmp_path, monkeypatch: pytest.MonkeyPatch, threads, accepted):
    """ATTEST_API_EVIDENCE_THREADS sizes each process's evidence slots, so it has a bound (1..64),
    checked when the settings load, with the setting named in the error."""
    from pydantic import ValidationError

    from ingest.settings import Settings

    monkeypatch.setenv("ATTEST_API_EVIDENCE_THREADS", threads)
    if accepted:
        assert Settings(data_dir=tmp_path).api_evidence_threads == int(threads)
    else:
        with pytest.raises(ValidationError, match="api_evidence_threads"):
            Settings(data_dir=tmp_path)
