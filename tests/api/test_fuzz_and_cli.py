"""Schemathesis over /openapi.json (zero server errors), `attest serve` key bootstrap, and logs."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from structlog.testing import LogCapture

from tests.api.conftest import ALICE, ALICE_TEXT, REPO, ingest


def test_schemathesis_finds_no_server_errors():
    pytest.importorskip("schemathesis")
    from bench.api_fuzz import run

    assert run(max_examples=10) == 0


def test_first_serve_creates_one_admin_key(tmp_path):
    from service.api.server import free_port

    port = free_port()
    env = {**os.environ, "ATTEST_DATA_DIR": str(tmp_path), "PYTHONPATH": str(REPO)}
    for name in ("ATTEST_API_KEYS", "ATTEST_API_KEYS_FILE", "ATTEST_ELASTICSEARCH_URL"):
        env.pop(name, None)
    script = "import sys; from service.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen([sys.executable, "-c", script, "serve", "--port", str(port)],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        key_file = tmp_path / "api_keys.json"
        deadline = time.monotonic() + 120
        ready = False
        while time.monotonic() < deadline and not ready:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200
            except httpx.HTTPError:
                time.sleep(0.5)
        assert ready, "server did not become ready"
        assert oct(key_file.stat().st_mode & 0o777) == "0o600"
        (key,) = json.loads(key_file.read_text())
        assert httpx.get(f"http://127.0.0.1:{port}/v1/documents", timeout=10).status_code == 401
        response = httpx.get(f"http://127.0.0.1:{port}/v1/audit", timeout=10,
                             headers={"Authorization": f"Bearer {key}"})
        assert response.status_code == 200  # the bootstrap key is an admin key
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=60)
    assert err.count(key) == 1  # printed once
    assert key not in out
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    finished = [e for e in events if e.get("event") == "request_finished"]
    assert finished and all({"request_id", "route", "latency_ms", "status"} <= set(e) for e in finished)
    assert any(e.get("principal") == "admin" for e in finished)


def test_info_logs_carry_request_context_and_no_document_text(client):
    import structlog

    capture = LogCapture()
    old = structlog.get_config()
    # Set the level too: a CLI test earlier in the session may have configured WARNING, and a
    # filtering wrapper from that run would drop the info events this test looks for.
    structlog.configure(
        processors=[structlog.contextvars.merge_contextvars, capture],
        wrapper_class=structlog.make_filtering_bound_logger(logging.DEBUG),
    )
    try:
        ingest(client, ALICE, ALICE_TEXT, filename="log.txt", doc_id="log")
        client.post("/v1/search", headers=ALICE, json={"query": "Orbitrex compressor"})
    finally:
        structlog.configure(**old)
    finished = [e for e in capture.entries if e["event"] == "request_finished"]
    assert finished
    for event in finished:
        assert event["request_id"] and event["route"] and "latency_ms" in event
    assert any(e.get("principal") == "alice" and e["route"] == "/v1/search" for e in finished)
    for event in capture.entries:
        if event.get("log_level") in ("info", "warning", "error"):
            assert "Orbitrex" not in json.dumps(event, default=str), event
