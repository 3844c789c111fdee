"""Issue 11, Medium 4-6: no accepted upload is lost, no document is left in a non-terminal
state, and the ingest queue is shared fairly between principals.

Real app, real SQLite stores, real pipeline and embedder; concurrency through real threads.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from fastapi.testclient import TestClient

from ingest.pipeline import revision_of
from ingest.store.sqlite import SqliteStore
from service.api.jobs import JobStore
from tests.api.conftest import ADMIN, ALICE, BOB, make_settings, upload, wait_for

BURST = 40
TEXT = "The Supplier shall deliver the goods within thirty (30) days of the order date."


class HeldStore(SqliteStore):
    """The real SQLite store, with the interleaving that lost uploads made certain instead of
    likely (nothing else changed): the first document's ingest waits, before it activates its
    revision, until every later upload of the same bytes has been accepted off the wire and is
    creating its document; those creations wait until the first job has finished and released
    its upload (its ``ingest`` audit entry, written after the release)."""

    def __init__(self, path: Path, first: str, later: int) -> None:
        super().__init__(path)
        self.first, self.later = first, later
        self.creating = threading.Semaphore(0)
        self.first_released = threading.Event()

    def save_document(self, record, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.first not in record.doc_id and self.get_document(record.doc_id) is None:
            self.creating.release()  # an accepted upload, its job not recorded yet
            self.first_released.wait(60)
        return super().save_document(record, *args, **kwargs)

    def activate_revision(self, doc_id, *args, **kwargs):  # type: ignore[no-untyped-def]
        if self.first in doc_id:  # "first", or "alice~first" with doc-id namespaces
            for _ in range(self.later):
                self.creating.acquire(timeout=60)
        return super().activate_revision(doc_id, *args, **kwargs)

    def append_audit(self, entry, *args, **kwargs):  # type: ignore[no-untyped-def]
        done = super().append_audit(entry, *args, **kwargs)
        if entry.get("action") == "ingest" and self.first in str(entry.get("doc_id")):
            self.first_released.set()
        return done


def test_identical_uploads_accepted_while_an_identical_job_finishes_are_all_indexed(tmp_path, embedder):
    """A burst of identical uploads under different doc ids, each accepted (202) while the job
    of the same bytes uploaded just before them finishes: every one ends indexed. They used to
    share one content-addressed upload file, which the finishing job deleted before the later
    jobs were recorded ("upload file unreadable", the document stuck in ``received``)."""
    from service.api import create_app

    later = BURST - 8  # the held uploads each keep one of the app's 40 handler threads
    store = HeldStore(tmp_path / "attest.sqlite3", first="first", later=later)
    settings = make_settings(tmp_path, ingest_queue_size=BURST)
    with TestClient(create_app(settings, store=store, embedder=embedder),
                    raise_server_exceptions=False) as client:
        first = upload(client, ALICE, TEXT, "first.txt", doc_id="first")
        assert first.status_code == 202

        def send(i: int):
            return upload(client, ALICE, TEXT, f"same-{i}.txt", doc_id=f"same-{i:02d}")

        with ThreadPoolExecutor(max_workers=later) as pool:
            responses = list(pool.map(send, range(later)))
        assert [r.status_code for r in responses] == [202] * later
        assert store.first_released.is_set()  # the interleaving happened
        statuses = {}
        for response in [first, *responses]:
            accepted = response.json()
            body = wait_for(client, ALICE, accepted["doc_id"], accepted["revision"])
            statuses[accepted["doc_id"]] = (body["status"], body["error"])
        assert len(statuses) == later + 1
        assert {doc_id: s for doc_id, s in statuses.items() if s != ("indexed", None)} == {}
        assert not any(p.is_file() for p in (tmp_path / "uploads").iterdir())  # every job released its bytes


def test_a_finishing_job_never_deletes_the_bytes_of_an_identical_upload(tmp_path):
    """The interleaving that lost uploads: job A (bytes X) finishes and releases its upload
    after upload B (the same bytes X) was accepted but before B's job row existed. With one
    file per job, B's bytes survive A's release."""
    jobs = JobStore(tmp_path)
    data = TEXT.encode()
    first = jobs.uploads / ".incoming-a"
    first.write_bytes(data)
    job_a = jobs.add(doc_id="a", revision=revision_of(data), filename="a.txt", principal="alice",
                     request_id="req-a", upload=first)
    assert jobs.claim().job_id == job_a.job_id
    second = jobs.uploads / ".incoming-b"  # B's request has streamed its bytes ...
    second.write_bytes(data)
    jobs.finish(job_a.job_id, "done", result={"status": "indexed"})  # ... A finishes ...
    jobs.release_upload(job_a)
    job_b = jobs.add(doc_id="b", revision=revision_of(data), filename="b.txt", principal="bob",
                     request_id="req-b", upload=second)  # ... and only now is B recorded
    assert jobs.job_upload_path(job_b).read_bytes() == data
    assert not jobs.job_upload_path(job_a).exists()


def test_jobs_failed_at_restart_end_their_document_failed_with_an_audit_entry(tmp_path, app_factory):
    """A job out of attempts, or whose bytes are gone, used to leave its document `received` or
    `indexing` with no error and no `ingest` audit entry, so pollers never finished."""
    from ingest.schema import DocumentRecord
    from ingest.store.sqlite import SqliteStore

    store = SqliteStore(tmp_path / "attest.sqlite3")
    jobs = JobStore(tmp_path)
    for doc_id, status in (("lost-bytes", "received"), ("crash-loop", "indexing")):
        record = DocumentRecord(
            doc_id=doc_id, status=status, stage=status, error=None, current_revision=None,
            title=doc_id, filename="f.txt", acl=["alice"], collection="", metadata={},
            updated_at="2026-01-01T00:00:00.000+00:00",
        )
        store.save_document(record)
        data = f"{doc_id} text".encode()
        incoming = jobs.uploads / f".incoming-{doc_id}"
        incoming.write_bytes(data)
        jobs.add(doc_id=doc_id, revision=revision_of(data), filename="f.txt", principal="alice",
                 request_id=f"req-{doc_id}", acl=["alice"], incarnation=record.incarnation,
                 upload=incoming)
    for job in jobs.for_document("lost-bytes"):
        jobs.job_upload_path(job).unlink()
    crash = jobs.for_document("crash-loop")[0]
    jobs._db().execute("UPDATE jobs SET state='running', attempts=3 WHERE job_id=?", (crash.job_id,))
    jobs.close()
    store.close()

    client = app_factory(tmp_path)
    expected = {
        "lost-bytes": "upload file missing after restart; upload the document again",
        "crash-loop": "interrupted 3 times; giving up",
    }
    for doc_id, reason in expected.items():
        body = client.get(f"/v1/documents/{doc_id}", headers=ALICE).json()
        assert (body["status"], body["error"]) == ("failed", reason)
        assert [j["state"] for j in body["jobs"]] == ["failed"]
        audit = client.get("/v1/audit", headers=ADMIN,
                           params={"request_id": f"req-{doc_id}"}).json()["entries"]
        assert [(e["action"], e["status"], e["error"]) for e in audit] == [("ingest", "failed", reason)]


def _queue(jobs: JobStore, principal: str, doc_id: str) -> None:
    data = f"{doc_id}".encode()
    incoming = jobs.uploads / f".incoming-{doc_id}"
    incoming.write_bytes(data)
    jobs.add(doc_id=doc_id, revision=revision_of(data), filename="f.txt", principal=principal,
             request_id=f"req-{doc_id}", upload=incoming)


def test_claims_are_fair_between_principals_and_never_two_per_document(tmp_path):
    """Alice queues four documents, then Bob one: Bob's is the second job claimed, not the
    fifth; and a second job for a document that is running waits."""
    jobs = JobStore(tmp_path)
    for n in range(4):
        _queue(jobs, "alice", f"alice-{n}")
    _queue(jobs, "bob", "bob-0")
    _queue(jobs, "alice", "alice-0")  # a second revision of a document already queued
    order = []
    while (job := jobs.claim()) is not None:
        order.append(job.doc_id)
    # alice-0 running blocks its second job; bob goes second (fewest running jobs).
    assert order == ["alice-0", "bob-0", "alice-1", "alice-2", "alice-3"]
    first = jobs.for_document("alice-0")[-1]
    jobs.finish(first.job_id, "done", result={"status": "indexed"})
    assert jobs.claim().doc_id == "alice-0"


def test_a_small_document_is_not_stuck_behind_another_principals_large_one(app_factory):
    """Two workers: while Alice's large upload is being indexed, Bob's small one finishes."""
    client = app_factory(ingest_workers=2, ingest_job_seconds=900)
    large = " ".join(f"Clause {i}. The Supplier shall deliver lot {i} on time." for i in range(6000))
    big = upload(client, ALICE, large, "large.txt", doc_id="large").json()
    small = upload(client, BOB, TEXT, "small.txt", doc_id="small").json()
    body = wait_for(client, BOB, "small", small["revision"])
    assert body["status"] == "indexed"
    large_now = client.get("/v1/documents/large", headers=ALICE).json()
    assert large_now["status"] != "indexed", "the large document finished first: not a test"
    assert wait_for(client, ALICE, "large", big["revision"], timeout=600)["status"] == "indexed"
