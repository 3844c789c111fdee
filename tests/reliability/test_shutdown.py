"""Issue 11, High 2: ``attest serve`` stops cleanly on SIGTERM while the issue's abusive request
(a structured subject with 2,000 parties against an agreement the store holds) is in flight and
an ingest job is running. It used to need SIGKILL: the request pinned a core for minutes and
uvicorn waited for it. A real server process on a free port, real models."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
KEY = "shutdown-key-0123456789abcdef"
HEADERS = {"Authorization": f"Bearer {KEY}"}
# The agreement the abusive request names: 16 parties bound in its preamble.
PARTIES = [f"{w} Holdings LLC" for w in "Alpha Bravo Charlie Delta Echo Foxtrot Golf Hotel "
           "India Juliett Kilo Lima Mike November Oscar Papa".split()]
SUPPLY = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and among "
    + ", ".join(f'{name} ("P{i}")' for i, name in enumerate(PARTIES[:-1]))
    + f' and {PARTIES[-1]} ("P15").\n\nGoverning Law\n\nThis Agreement shall be governed by '
    "the laws of the State of Ohio.\n"
)
ABUSIVE = {
    "question": "What law governs the Supply Agreement?",
    "subject": {"kind": "agreement_attribute", "agreement_title": "Supply Agreement",
                "attribute": "governing_law",
                "parties": [f"Party {i} Holdings LLC" for i in range(2000)]},
}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_sigterm_stops_the_server_during_an_abusive_request_and_a_running_job(tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ATTEST_")}
    env.update({
        "ATTEST_DATA_DIR": str(tmp_path),
        "ATTEST_API_KEYS": json.dumps({KEY: {"principal": "ops", "groups": [], "admin": True}}),
        "PYTHONPATH": str(REPO),
    })
    log_path = tmp_path / "serve.log"
    log_file = open(log_path, "wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--port", str(port)],
        cwd=REPO, env=env, stdout=log_file, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        else:
            pytest.fail("the server never became ready")
        supply = httpx.post(f"{base}/v1/documents", headers=HEADERS,
                            files={"file": ("supply.txt", SUPPLY.encode())}, data={"acl": "ops"},
                            timeout=30)
        assert supply.status_code == 202
        status_url = f"{base}/v1/documents/{supply.json()['doc_id']}"
        while httpx.get(status_url, headers=HEADERS, timeout=10).json()["status"] != "indexed":
            assert time.monotonic() < deadline + 120, "the agreement was never indexed"
            time.sleep(0.5)
        text = " ".join(f"Clause {i}. The Supplier shall deliver lot {i}." for i in range(4000))
        accepted = httpx.post(f"{base}/v1/documents", headers=HEADERS,
                              files={"file": ("big.txt", text.encode())}, data={"acl": "ops"},
                              timeout=30)
        assert accepted.status_code == 202
        answers: list[int | str] = []

        def ask() -> None:
            try:
                answers.append(httpx.post(f"{base}/v1/evidence/query", headers=HEADERS,
                                          json=ABUSIVE, timeout=120).status_code)
            except httpx.HTTPError as exc:  # the server went away mid-request
                answers.append(type(exc).__name__)

        asking = threading.Thread(target=ask, daemon=True)
        asking.start()
        time.sleep(2.0)  # the ingest job is running and the abusive request has arrived
        sent = time.monotonic()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=40)
        log = log_path.read_text(encoding="utf-8", errors="replace")
        # uvicorn re-raises the signal after its graceful shutdown: -15 is the clean exit.
        assert code in (0, -signal.SIGTERM), log[-2000:]
        assert time.monotonic() - sent < 40
        assert "api_stopped" in log, log[-2000:]  # the lifespan shutdown ran: workers, store
        asking.join(10)
        assert answers == [422], answers  # refused at the door (at most 16 parties)
    finally:
        log_file.close()
        if server.poll() is None:
            server.kill()
            server.wait()
