"""Issue 11, High 2 (closing note): a request past its deadline gets its 503, and its abandoned
worker thread stops working soon after, not when it next changes state.

Real app, real SQLite store, real embedder and pipeline. The store is the real ``SqliteStore``
subclassed only to record when each search runs (a clock, no behaviour changed), so the test can
see the abandoned work stop.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ingest.deadline import DeadlineExceeded, clear_deadline, set_deadline
from ingest.store.sqlite import SqliteStore
from tests.api.conftest import ALICE, ALICE_TEXT, BOB_TEXT, make_settings, upload, wait_for

AGREEMENTS = 12


class SearchClock(SqliteStore):
    """The real store; ``bm25`` also notes the time it was called, and takes at least 0.1 s, as
    on a large index (this small one answers in milliseconds, and the whole grid would then
    finish inside the deadline: stored sentence vectors made a cell cheap)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.searches: list[float] = []
        self.lock = threading.Lock()

    def bm25(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        with self.lock:
            self.searches.append(time.monotonic())
        time.sleep(0.1)
        return super().bm25(*args, **kwargs)


@pytest.mark.slow
def test_an_abandoned_table_request_stops_computing_soon_after_its_deadline(tmp_path, embedder):
    store = SearchClock(tmp_path / "attest.sqlite3")
    settings = make_settings(tmp_path, request_timeout_seconds=1.0)
    from service.api import create_app

    with TestClient(create_app(settings, store=store, embedder=embedder),
                    raise_server_exceptions=False) as client:
        for i in range(AGREEMENTS):
            text = ALICE_TEXT if i % 2 else BOB_TEXT
            accepted = upload(client, ALICE, text, f"agreement-{i}.txt").json()
            assert wait_for(client, ALICE, accepted["doc_id"], accepted["revision"])["status"] == "indexed"
        from service.evidence.table import agreement_attributes

        attributes = agreement_attributes()[:8]
        rows = client.get("/v1/table", headers=ALICE,
                          params={"attribute": attributes[:1], "page_size": 1}).json()
        assert rows["total"] >= AGREEMENTS  # every agreement is a row: the full grid is long work
        full_cells = rows["total"] * len(attributes)

        store.searches.clear()
        asked = time.monotonic()
        answer = client.get("/v1/table", headers=ALICE,
                            params={"attribute": attributes, "page_size": 100})
        answered = time.monotonic()
        assert answer.status_code == 503
        assert answer.json()["error"]["code"] == "deadline_exceeded"
        assert answered - asked < 10

        # The abandoned thread: wait until it has made no search for 3 s (60 s at most).
        quiet_since = time.monotonic()
        seen = len(store.searches)
        limit = time.monotonic() + 60
        while time.monotonic() - quiet_since < 3 and time.monotonic() < limit:
            time.sleep(0.2)
            if len(store.searches) != seen:
                seen, quiet_since = len(store.searches), time.monotonic()
        done = list(store.searches)
        assert done, "the table request never searched"
        # It stopped: far fewer cells than the grid has, and none long after the deadline (one
        # cell's search and sentence embeddings on a shared machine take well under 3 s).
        assert len(done) < full_cells / 4, (len(done), full_cells)
        assert done[-1] - (asked + 1.0) < 3.0, done[-1] - asked


def test_every_store_call_of_a_request_past_its_deadline_raises(tmp_path):
    """The cancellation point is the store itself: any method, on any path (evidence machine,
    gate, retrieval, table, source view), refuses to run once the request's deadline passed."""
    from ingest.store.port import Principal

    store = SqliteStore(tmp_path / "attest.sqlite3")
    reader = Principal("alice")
    assert store.find_subjects(reader, name="acme", limit=5) == []  # no deadline: runs
    token = set_deadline(-1.0)
    try:
        with pytest.raises(DeadlineExceeded):
            store.find_subjects(reader, name="acme", limit=5)
        with pytest.raises(DeadlineExceeded):
            store.visible_document("x", reader)
        from service.retrieval import hybrid_search
        from ingest.store.port import SearchFilters

        with pytest.raises(DeadlineExceeded):
            hybrid_search(store, None, "governing law", SearchFilters(reader))  # type: ignore[arg-type]
    finally:
        clear_deadline(token)
    assert store.visible_document("x", reader) is None  # the deadline is the request's only
    store.close()
