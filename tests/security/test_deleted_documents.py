"""Issue 11, High 1: a delete wins over a running ingest job, and nothing of a deleted document
(revisions, text, chunks, job history) reaches the next owner of its doc id.

Real stores (SQLite file and the Elasticsearch test node), the real embedder and pipeline. The
delete is made to land at an exact point of the job through the pipeline's own stage hook.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ingest.pipeline import DELETED_REASON, Ingestor, revision_of
from ingest.schema import DocumentRecord
from ingest.settings import Settings
from ingest.store.port import DocumentDeleted, Principal, SearchFilters
from tests.api.conftest import ALICE, ALICE_TEXT, BOB, BOB_TEXT, ingest, upload, wait_for

ALICE_P = Principal("alice")
BOB_P = Principal("bob")
SECRET = ALICE_TEXT.encode()


def _owner_record(doc_id: str, owner: str) -> DocumentRecord:
    return DocumentRecord(
        doc_id=doc_id, status="received", stage="received", error=None, current_revision=None,
        title="t", filename="f.txt", acl=[owner], collection="", metadata={},
        updated_at="2026-01-01T00:00:00.000+00:00",
    )


def _nothing_of_alice_left(store, doc_id: str) -> None:
    revision = revision_of(SECRET)
    assert store.revision_text(doc_id, revision) is None
    assert store.revision_chunks(doc_id, revision) == []
    # Bob takes the id over: he must see none of Alice's revisions, text or chunks.
    store.save_document(_owner_record(doc_id, "bob"))
    bob_view = store.visible_document(doc_id, BOB_P)
    assert bob_view is not None and bob_view.revisions == []
    assert store.revision_text(doc_id, revision) is None
    hits = store.bm25("Zephyrion Orbitrex compressor", SearchFilters(principal=BOB_P), 10)
    assert hits == []


@pytest.mark.parametrize("stage", ["extracting", "indexing", "writing", "written"])
def test_delete_during_ingest_wins_at_every_stage(store, embedder, tmp_path, stage):
    """The job's delete lands at ``stage``: the job ends ``cancelled`` and writes nothing."""
    store.save_document(_owner_record("race", "alice"))
    ingestor = Ingestor(store, embedder, Settings(data_dir=tmp_path), annotate=False)
    fired = []

    def on_stage(name: str) -> None:
        if name == stage and not fired:
            fired.append(name)
            assert store.delete_document("race")

    ingestor.on_stage = on_stage
    result = ingestor.ingest_bytes(
        SECRET, filename="secret.txt", doc_id="race", acl=["alice"],
        incarnation=store.get_document("race").incarnation,
    )
    assert fired == [stage]
    assert (result.status, result.error) == ("cancelled", DELETED_REASON)
    assert store.get_document("race") is None  # the job did not bring the document back
    _nothing_of_alice_left(store, "race")


def test_revision_writes_refuse_a_deleted_or_replaced_document(store):
    """The store itself refuses: write_revision/activate_revision check, in the same
    transaction, that the document still exists and is the incarnation the writer read."""
    with pytest.raises(DocumentDeleted):
        store.write_revision("ghost", "0" * 64, text="x", chunks=[], subjects=[], info={})
    alice = _owner_record("reused", "alice")
    store.save_document(alice)
    old = alice.incarnation
    assert old
    store.write_revision("reused", "1" * 64, text="alice", chunks=[], subjects=[], info={},
                         incarnation=old)
    store.delete_document("reused")
    store.save_document(_owner_record("reused", "bob"))  # a new incarnation under the same id
    with pytest.raises(DocumentDeleted):
        store.write_revision("reused", "2" * 64, text="alice", chunks=[], subjects=[], info={},
                             incarnation=old)
    with pytest.raises(DocumentDeleted):
        store.activate_revision("reused", "1" * 64, incarnation=old)
    with pytest.raises(DocumentDeleted):
        store.save_document(replace(_owner_record("reused", "alice"), incarnation=old))
    bob = store.visible_document("reused", BOB_P)
    assert bob is not None and bob.acl == ["bob"] and bob.revisions == []
    assert store.revision_text("reused", "2" * 64) is None


def test_next_owner_sees_no_job_history_of_a_deleted_document(client):
    """After a normal delete, Bob re-using the id sees only his own jobs: no job ids and no
    sha256 of Alice's deleted content."""
    alice = ingest(client, ALICE, ALICE_TEXT, doc_id="handover", filename="a.txt")
    assert client.delete("/v1/documents/handover", headers=ALICE).status_code == 200
    response = upload(client, BOB, BOB_TEXT, "b.txt", doc_id="handover")
    assert response.status_code == 202, response.text
    bob = response.json()
    body = wait_for(client, BOB, "handover", bob["revision"])
    assert body["status"] == "indexed"
    assert [j["job_id"] for j in body["jobs"]] == [bob["job_id"]]
    assert alice["revision"] not in response.text + str(body)
    assert [r["revision"] for r in body["revisions"]] == [bob["revision"]]
    source = client.get(f"/v1/documents/handover/revisions/{alice['revision']}/text", headers=BOB)
    assert source.status_code == 404


def test_a_job_queued_before_a_delete_and_re_upload_writes_nothing(app_factory):
    """Alice's job was claimed (running) when she deleted; a new document then took the id (Bob
    its only reader). The job must not index Alice's bytes into that document."""
    client = app_factory()
    ctx = client.app.state.ctx
    ctx.worker.stop()  # hold the queue so the job runs exactly when the test says
    accepted = upload(client, ALICE, ALICE_TEXT, "a.txt", doc_id="swap").json()
    job = ctx.jobs.claim()
    assert job is not None and job.doc_id == "alice~swap"
    assert client.delete("/v1/documents/swap", headers=ALICE).status_code == 200
    ctx.require_store().save_document(_owner_record("alice~swap", "bob"))
    result = ctx.worker.run_job(job, SECRET, lambda stage: None)
    assert result["status"] == "cancelled"
    bob = client.get("/v1/documents/alice~swap", headers=BOB).json()
    assert bob["revisions"] == [] and bob["acl"] == ["bob"]
    assert accepted["revision"] not in str(bob)
