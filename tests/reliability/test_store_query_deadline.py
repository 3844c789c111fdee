"""A store query that is already running stops at the request's deadline (hardening: "one request
can stall the server").

SQLite: real store files; the long query is a recursive CTE run on the store's own connection
(the one that carries the progress handler), from a subclass whose one extra method is wrapped by
the store's real error translation. Elasticsearch: the real test node
(``ATTEST_ELASTICSEARCH_URL``), skipped without it.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ingest.deadline import DeadlineExceeded, clear_deadline, deadline_message, set_deadline
from ingest.store import sqlite as sqlite_module
from ingest.store.port import AuditQuery, Principal
from ingest.store.sqlite import SqliteStore
from tests.api.conftest import ALICE, make_settings

# Counting to 10**10 takes SQLite hours: only the deadline can end it within the test's bounds.
ENDLESS = 10**10
COUNT_SQL = (
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) "
    "SELECT count(*) FROM c"
)


@sqlite_module._translated
class CountingStore(SqliteStore):
    """The real store plus one public query that runs as long as asked (translated like every
    other public method: deadline check on entry, sqlite3 errors into the error tree)."""

    def count_to(self, n: int) -> int:
        return int(self._db().execute(COUNT_SQL, (n,)).fetchone()[0])


def _run_past(store: CountingStore, seconds: float) -> tuple[BaseException | None, float]:
    """Run the endless count under a deadline of ``seconds``; (the error, seconds it ran past
    the deadline)."""
    token = set_deadline(seconds)
    start = time.monotonic()
    error: BaseException | None = None
    try:
        store.count_to(ENDLESS)
    except BaseException as exc:  # noqa: BLE001 - the test inspects it
        error = exc
    finally:
        clear_deadline(token)
    return error, time.monotonic() - start - seconds


def test_a_running_sqlite_query_stops_at_the_deadline_with_the_deadline_error(tmp_path):
    store = CountingStore(tmp_path / "attest.sqlite3")
    assert store.count_to(1000) == 1000  # no deadline: runs to the end
    error, late = _run_past(store, 0.3)
    assert isinstance(error, DeadlineExceeded)
    assert error.message == deadline_message(0.3)
    assert str(error) == "the request took longer than 0.3 s; narrow it or retry later"
    assert "interrupted" in str(error.__cause__)  # chained from sqlite3's own error
    assert 0 <= late < 0.5, late  # stopped within moments of the deadline, not at the end
    # The connection stays usable: reads, writes and readiness after the interruption.
    assert store.count_to(2000) == 2000
    store.append_audit({"action": "probe", "request_id": "r1", "principal": "alice"})
    assert [e["action"] for e in store.list_audit(AuditQuery(request_id="r1"))] == ["probe"]
    assert store.write_failed is False and store.ping() is True
    store.close()


def test_an_interrupted_query_inside_a_snapshot_leaves_the_connection_usable(tmp_path):
    store = CountingStore(tmp_path / "attest.sqlite3")
    with pytest.raises(DeadlineExceeded):
        with store.snapshot():
            token = set_deadline(0.2)
            try:
                store.count_to(ENDLESS)
            finally:
                clear_deadline(token)
    assert not store._db().in_transaction  # the snapshot's read transaction was closed
    assert store.find_subjects(Principal("alice"), name="acme", limit=5) == []
    assert store.count_to(10) == 10
    store.close()


def test_no_deadline_no_interruption_and_other_errors_stay_unavailable(tmp_path):
    """Outside a request the handler never stops a statement; a real interrupt that is not the
    deadline's (``Connection.interrupt``) is still a store outage, not a deadline."""
    store = CountingStore(tmp_path / "attest.sqlite3")
    assert store.count_to(300_000) == 300_000
    db = store._db()
    timer = threading.Timer(0.2, db.interrupt)
    timer.start()
    from ingest.store.port import StoreUnavailable

    with pytest.raises(StoreUnavailable) as caught:
        store.count_to(ENDLESS)
    timer.join()
    assert not isinstance(caught.value, DeadlineExceeded)
    assert store.count_to(5) == 5
    store.close()


def test_the_api_answers_503_deadline_exceeded_and_its_thread_stops_at_the_deadline(tmp_path, embedder):
    """GET /v1/documents runs a store query that would run for hours: the answer is 503
    ``deadline_exceeded`` with Retry-After, the abandoned thread's query ends with the deadline
    error within moments of the deadline (it used to run to the end), and the next request on
    the same store is answered."""

    @sqlite_module._translated
    class SlowListing(SqliteStore):
        slow = True
        ended: list[tuple[float, str]] = []

        def list_documents(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            if self.slow:
                try:
                    self._db().execute(COUNT_SQL, (ENDLESS,)).fetchone()
                except BaseException as exc:
                    self.ended.append((time.monotonic(), type(exc).__name__))
                    raise
            return super().list_documents(*args, **kwargs)

    store = SlowListing(tmp_path / "attest.sqlite3")
    settings = make_settings(tmp_path, request_timeout_seconds=0.5)
    from service.api import create_app

    with TestClient(create_app(settings, store=store, embedder=embedder),
                    raise_server_exceptions=False) as client:
        # A first request pays the app's one-off start-up costs; they alone can outlast the 0.5 s
        # deadline (seen in a CI run: the warm-up request itself answered 503), so the slow query
        # would never start (nothing to stop). Warm up until a fast request is answered.
        store.slow = False
        warm = [client.get("/v1/documents", headers=ALICE).status_code for _ in range(1)]
        while warm[-1] != 200 and len(warm) < 10:
            warm.append(client.get("/v1/documents", headers=ALICE).status_code)
        assert warm[-1] == 200, warm
        store.slow = True
        asked = time.monotonic()
        answer = client.get("/v1/documents", headers=ALICE)
        assert answer.status_code == 503
        assert answer.json()["error"]["code"] == "deadline_exceeded"
        assert answer.json()["error"]["message"] == deadline_message(0.5)
        assert answer.headers["Retry-After"] == "5"
        for _ in range(100):
            if store.ended:
                break
            time.sleep(0.05)
        assert store.ended, "the abandoned query never ended"
        ended_at, error_type = store.ended[0]
        assert error_type == "OperationalError"  # sqlite3's interrupt, translated on the way out
        assert ended_at - (asked + 0.5) < 1.0, ended_at - asked
        store.slow = False
        again = client.get("/v1/documents", headers=ALICE)
        assert again.status_code == 200, again.text
        assert again.json()["total"] == 0


def test_an_audit_append_commits_with_a_full_sync_and_the_store_stays_normal(tmp_path):
    """An answer's audit entry is on disk before the answer is sent: audit batches commit on a
    connection of their own under ``synchronous=FULL`` (the write-ahead log is fsynced;
    ``sqlite_audit.AuditGroupCommit``); the store's own connection, used by every other write,
    keeps NORMAL and runs no audit statement."""
    store = SqliteStore(tmp_path / "attest.sqlite3")
    db = store._db()
    on_store: list[str] = []
    db.set_trace_callback(on_store.append)
    store.append_audit({"action": "evidence_query", "request_id": "r1", "principal": "alice"})
    db.set_trace_callback(None)
    assert not [s for s in on_store if "audit" in s.casefold() or "synchronous" in s.casefold()]
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    audit_db = store._audit._connection()
    assert audit_db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    on_audit: list[str] = []
    audit_db.set_trace_callback(on_audit.append)
    store.append_audit({"action": "evidence_query", "request_id": "r2", "principal": "alice"})
    audit_db.set_trace_callback(None)
    assert on_audit[0] == "BEGIN IMMEDIATE" and on_audit[-1] == "COMMIT"
    assert [e["action"] for e in store.list_audit(AuditQuery(request_id="r1"))] == ["evidence_query"]
    assert [e["action"] for e in store.list_audit(AuditQuery(request_id="r2"))] == ["evidence_query"]
    store.close()
