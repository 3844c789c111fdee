"""Issue 11, High 2: ``attest serve`` stops cleanly on SIGTERM, also with an ingest job running
(it used to need SIGKILL). A real server process on a free port, real models."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

REPO = Path(__file__).resolve().parents[2]
KEY = "shutdown-key-0123456789abcdef"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_sigterm_stops_the_server_with_a_job_running(tmp_path):
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
        text = " ".join(f"Clause {i}. The Supplier shall deliver lot {i}." for i in range(4000))
        accepted = httpx.post(f"{base}/v1/documents", headers={"Authorization": f"Bearer {KEY}"},
                              files={"file": ("big.txt", text.encode())}, data={"acl": "ops"},
                              timeout=30)
        assert accepted.status_code == 202
        time.sleep(1.0)  # the job is running now
        sent = time.monotonic()
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=40)
        log = log_path.read_text(encoding="utf-8", errors="replace")
        # uvicorn re-raises the signal after its graceful shutdown: -15 is the clean exit.
        assert code in (0, -signal.SIGTERM), log[-2000:]
        assert time.monotonic() - sent < 40
        assert "api_stopped" in log, log[-2000:]  # the lifespan shutdown ran: workers, store
    finally:
        log_file.close()
        if server.poll() is None:
            server.kill()
            server.wait()
