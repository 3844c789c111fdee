"""Issue 14: an evidence answer and its audit entry under concurrent requests (the audit's group
commit, ``ingest/store/sqlite_audit.py``), and the answer rendered without FastAPI's second
validation (``service/api/routes/evidence.py``). Real app, real SQLite file, real models."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from fastapi.responses import JSONResponse
from fastapi.routing import serialize_response
from fastapi.testclient import TestClient
from fastapi.utils import create_model_field

from ingest.store.sqlite import SqliteStore
from service.evidence.models import EvidenceReport
from tests.api.conftest import ALICE, ALICE_TEXT, ingest, make_settings
from tests.helpers import run_coroutine

QUESTIONS = [
    "What is the governing law of the Master Supply Agreement?",
    "What is the term of the Master Supply Agreement?",
    "Who is the distributor of Zephyrion Holdings, Inc.?",
]


def _audited_actions(path: Path, request_id: str) -> list[str]:
    db = sqlite3.connect(path)  # a connection of its own: what another process would see
    try:
        return [r[0] for r in db.execute("SELECT action FROM audit WHERE request_id=?", (request_id,))]
    finally:
        db.close()


def test_every_answer_has_its_audit_entry_when_it_is_received(app_factory, tmp_path: Path) -> None:
    client = app_factory()
    ingest(client, ALICE, ALICE_TEXT)
    db_path = tmp_path / "attest.sqlite3"
    seen: list[tuple[int, list[str]]] = []
    lock = threading.Lock()

    def ask(n: int) -> None:
        for i in range(3):
            response = client.post("/v1/evidence/query", headers=ALICE,
                                   json={"question": QUESTIONS[(n + i) % len(QUESTIONS)]})
            # Read at once, before anything else: the entry must already be committed.
            actions = _audited_actions(db_path, response.headers["X-Request-ID"])
            with lock:
                seen.append((response.status_code, actions))

    threads = [threading.Thread(target=ask, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    assert seen == [(200, ["evidence_query"])] * 18
    store = client.app.state.ctx.require_store()
    assert store._audit.entries >= 18  # these answers' entries went through the group commit


def test_an_answer_whose_audit_entry_cannot_be_written_is_not_sent(embedder, tmp_path: Path) -> None:
    from service.api import create_app

    store = SqliteStore(tmp_path / "attest.sqlite3", busy_timeout=0.5)
    app = create_app(make_settings(tmp_path), store=store, embedder=embedder)
    with TestClient(app, raise_server_exceptions=False) as client:
        ingest(client, ALICE, ALICE_TEXT)
        holder = sqlite3.connect(store.path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock past the busy timeout
        refused = client.post("/v1/evidence/query", headers=ALICE, json={"question": QUESTIONS[0]})
        holder.execute("ROLLBACK")
        holder.close()
        assert refused.status_code == 503
        body = refused.json()
        assert body["error"]["code"] == "unavailable"
        assert "state" not in body and "evidence" not in body
        assert _audited_actions(store.path, refused.headers["X-Request-ID"]) == []
        answered = client.post("/v1/evidence/query", headers=ALICE, json={"question": QUESTIONS[0]})
        assert answered.status_code == 200
        assert _audited_actions(store.path, answered.headers["X-Request-ID"]) == ["evidence_query"]


def test_the_answer_is_the_json_fastapi_would_have_rendered(app_factory) -> None:
    client = app_factory()
    ingest(client, ALICE, ALICE_TEXT)
    response = client.post("/v1/evidence/query", headers=ALICE, json={"question": QUESTIONS[0]})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    report = EvidenceReport.model_validate_json(response.content)
    assert report.evidence  # a report with citations, not an empty one
    # What the route returned before: the model, validated and rendered by FastAPI.
    field = create_model_field(name="Response_evidence_query", type_=EvidenceReport, mode="serialization")
    content = run_coroutine(serialize_response(field=field, response_content=report, is_coroutine=False))
    assert response.content == JSONResponse(content).body
