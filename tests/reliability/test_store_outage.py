"""Issue 11, Medium 10: a store outage answers 503 with a clear message and ``Retry-After``,
``/readyz`` goes not ready, and ``attest es status`` prints one line instead of a traceback.

Real stores: a SQLite file write-locked by a second real connection (as another process
would), and an Elasticsearch client pointed at a port where nothing listens.
"""

from __future__ import annotations

import json
import sqlite3
import uuid

from fastapi.testclient import TestClient

from ingest.store.sqlite import SqliteStore
from service.api import create_app
from tests.api.conftest import ALICE, make_settings
from tests.api.test_documents import assert_error
from tests.test_cli import attest

DEAD_URL = "http://127.0.0.1:9"  # the discard port: nothing answers


def test_a_locked_sqlite_store_is_503_and_not_ready(tmp_path, embedder):
    store = SqliteStore(tmp_path / "attest.sqlite3", busy_timeout=0.2)
    with TestClient(create_app(make_settings(tmp_path), store=store, embedder=embedder),
                    raise_server_exceptions=False) as client:
        assert client.get("/readyz").status_code == 200
        blocker = sqlite3.connect(tmp_path / "attest.sqlite3", isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")  # holds the write lock, like a stuck writer
        try:
            # A search answers from reads, then must write its audit entry: that write fails.
            response = client.post("/v1/search", headers=ALICE, json={"query": "term"})
            body = assert_error(response, 503, "unavailable")
            assert body["error"]["message"] == (
                "the SQLite store is unavailable: database is locked"
            )
            assert response.headers["retry-after"] == "5"
            ready = client.get("/readyz")
            assert ready.status_code == 503 and ready.json()["checks"]["store"] is False
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert client.get("/readyz").status_code == 200  # back once writes go through again


def test_an_unreachable_elasticsearch_is_503_and_not_ready(tmp_path, embedder):
    from ingest.store.elastic import ElasticStore

    store = ElasticStore(DEAD_URL, prefix=f"attest-dead-{uuid.uuid4().hex[:8]}",
                         request_timeout=2, max_retries=0)
    with TestClient(create_app(make_settings(tmp_path), store=store, embedder=embedder),
                    raise_server_exceptions=False) as client:
        for response in (
            client.get("/v1/documents", headers=ALICE),
            client.post("/v1/search", headers=ALICE, json={"query": "term"}),
            client.get("/v1/documents/some-doc", headers=ALICE),
        ):
            body = assert_error(response, 503, "unavailable")
            assert body["error"]["message"] == (
                f"Elasticsearch at {DEAD_URL} is unreachable: ConnectionError"
            )
            assert response.headers["retry-after"] == "5"
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json()["status"] == "not_ready"


def test_es_status_on_an_unreachable_cluster_is_one_line(tmp_path):
    done = attest(tmp_path, "es", "status", "--url", DEAD_URL)
    assert done.returncode == 5, done.stderr
    assert done.stdout == f"ready: False\nerror: Elasticsearch at {DEAD_URL} is not reachable or not healthy\n"
    assert "Traceback" not in done.stderr
    as_json = attest(tmp_path, "es", "status", "--url", DEAD_URL, "--json")
    assert json.loads(as_json.stdout)["ready"] is False and as_json.returncode == 5


def test_cli_errors_exit_with_their_family_code(tmp_path):
    """The exit codes documented in the README: input 2, not found 3, store unavailable 5."""
    missing = attest(tmp_path, "status", "no-such-doc")
    assert (missing.returncode, missing.stderr) == (3, "error: document not found: no-such-doc\n")
    no_url = attest(tmp_path, "es", "init")
    assert no_url.returncode == 2
    assert no_url.stderr == "error: no Elasticsearch URL: set ATTEST_ELASTICSEARCH_URL or pass --url\n"
    down = attest(tmp_path, "es", "init", "--url", DEAD_URL)
    assert down.returncode == 5 and "Traceback" not in down.stderr
    assert down.stderr.startswith(f"error: Elasticsearch at {DEAD_URL} is unreachable")
