"""A real upload, a re-upload of the same bytes and a failed upload through the API leave only
status values of the enums (``ingest/statuses.py``) in the SQLite rows, the jobs file, the audit
log and the responses; the OpenAPI schema lists the enums' values."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from ingest.statuses import Confidence, DocStatus, HealthStatus, IngestOutcome, JobState, RevisionStatus
from service.evidence.states import State
from tests.api.conftest import ADMIN, ALICE, ALICE_TEXT, upload, wait_for


def test_stored_and_returned_values_are_members(app_factory, tmp_path: Path) -> None:
    client = app_factory()
    accepted = upload(client, ALICE, ALICE_TEXT, "supply.txt", doc_id="supply").json()
    assert accepted["status"] == DocStatus.RECEIVED
    wait_for(client, ALICE, "supply", accepted["revision"])
    again = upload(client, ALICE, ALICE_TEXT, "supply.txt", doc_id="supply").json()  # unchanged
    wait_for(client, ALICE, "supply", again["revision"])
    upload(client, ALICE, b"%PDF-1.7 not really a pdf", "broken.pdf", doc_id="broken")
    wait_for(client, ALICE, "broken")

    listed = client.get("/v1/documents", headers=ALICE).json()["documents"]
    assert {(d["doc_id"], d["status"], d["stage"]) for d in listed} == {
        ("alice~supply", "indexed", "indexed"), ("alice~broken", "failed", "extracting")  # stored under alice's namespace
    }
    details = [client.get(f"/v1/documents/{d}", headers=ALICE).json() for d in ("supply", "broken")]
    assert sorted(j["state"] for d in details for j in d["jobs"]) == ["done", "done", "failed"]
    revisions = [r["status"] for d in details for r in d["revisions"]]
    assert revisions == ["current"]

    # What the rows hold, read directly: every value is a member of its enum.
    db = sqlite3.connect(tmp_path / "attest.sqlite3")
    for status, stage in db.execute("SELECT status, stage FROM documents"):
        assert status in set(DocStatus) and stage in set(DocStatus)
    assert {s for (s,) in db.execute("SELECT status FROM revisions")} <= set(RevisionStatus)
    db.close()
    jobs_db = sqlite3.connect(tmp_path / "jobs.sqlite3")
    rows = jobs_db.execute("SELECT state, result FROM jobs ORDER BY seq").fetchall()
    jobs_db.close()
    assert [state for state, _ in rows] == ["done", "done", "failed"]
    assert [json.loads(result)["status"] for _, result in rows] == ["indexed", "unchanged", "failed"]
    assert all(json.loads(result)["status"] in set(IngestOutcome) for _, result in rows)

    entries = client.get("/v1/audit", headers=ADMIN, params={"limit": 100}).json()["entries"]
    ingest_statuses = sorted(e["status"] for e in entries if e["action"] == "ingest")
    assert ingest_statuses == ["failed", "indexed", "unchanged"]

    assert client.get("/healthz").json()["status"] == HealthStatus.OK
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for enum in (DocStatus, RevisionStatus, JobState, HealthStatus, Confidence, State):
        assert schemas[enum.__name__]["enum"] == [s.value for s in enum], enum.__name__
    assert schemas["DocumentView"]["properties"]["status"] == {"$ref": "#/components/schemas/DocStatus"}

