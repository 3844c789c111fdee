"""No WAL checkpoint runs on the answer path of the SQLite store: an audit append (the last
step of an answer) never copies the write-ahead log into the database file; a thread of its own
does, once ``CHECKPOINT_BYTES`` of entries were committed. Real SQLite files; nothing mocked.

How it is seen: in WAL mode the database file itself changes only when a checkpoint copies the
log into it, so its size after each append tells whether that append checkpointed. The log's
bound (``WAL_BOUND_BYTES``: the leader checkpoints itself when the background lost the race with
the appends for that long) is tested on its own."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from ingest.store import sqlite_audit
from ingest.store.common import verify_audit_chain
from ingest.store.port import AuditQuery
from ingest.store.sqlite import SqliteStore

BUNDLE = "clause text " * 1800  # ~22 KB: the size of an evidence query's audit entry


def _entry(n: int) -> dict[str, object]:
    return {"action": "evidence_query", "request_id": f"req-{n}", "principal": "alice",
            "input": {"question": f"q{n}"}, "evidence_bundle": BUNDLE}


def test_an_audit_append_never_checkpoints_the_wal(tmp_path: Path, monkeypatch):
    # The background checkpointer is never asked here and the log's bound is out of reach: only
    # the appends themselves could checkpoint (SQLite's automatic checkpoint did).
    monkeypatch.setattr(sqlite_audit, "CHECKPOINT_BYTES", 2**62, raising=False)
    monkeypatch.setattr(sqlite_audit, "WAL_BOUND_BYTES", 2**62, raising=False)
    store = SqliteStore(tmp_path / "attest.sqlite3")
    try:
        store.append_audit(_entry(0))
        db_file = tmp_path / "attest.sqlite3"
        size = db_file.stat().st_size
        for n in range(1, 300):  # ~6.6 MB of entries: SQLite checkpointed after 81 (1,000 pages)
            store.append_audit(_entry(n))
            assert db_file.stat().st_size == size, f"append {n} checkpointed the WAL"
        assert store._audit.checkpointer.checkpoints == 0
        assert len(store.list_audit(AuditQuery(limit=1000))) == 300
    finally:
        store.close()


def test_the_checkpointer_thread_copies_the_wal_after_checkpoint_bytes(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(sqlite_audit, "CHECKPOINT_BYTES", 2**20)
    store = SqliteStore(tmp_path / "attest.sqlite3")
    try:
        store.append_audit(_entry(0))
        db_file = tmp_path / "attest.sqlite3"
        size = db_file.stat().st_size
        for n in range(1, 40):  # ~0.86 MB: below the threshold, nothing is checkpointed
            store.append_audit(_entry(n))
        assert (store._audit.checkpointer.checkpoints, db_file.stat().st_size) == (0, size)
        threads = {t.name for t in threading.enumerate()}
        for n in range(40, 60):  # past 1 MiB: one checkpoint, on the checkpointer's thread
            store.append_audit(_entry(n))
        deadline = time.monotonic() + 30
        while store._audit.checkpointer.checkpoints < 1:
            assert time.monotonic() < deadline, "no checkpoint ran"
            time.sleep(0.01)
        assert "attest-wal-checkpoint" in {t.name for t in threading.enumerate()} - threads
        assert store._audit.checkpointer.checkpoints == 1
        assert db_file.stat().st_size > size + 2**20  # the log's entries are in the file now
        entries = store.list_audit(AuditQuery(limit=1000))
        assert len(entries) == 60 and verify_audit_chain(entries)["ok"] is True
    finally:
        store.close()
    assert not any(t.name == "attest-wal-checkpoint" for t in threading.enumerate())


def test_the_log_stays_within_its_bound_when_no_background_checkpoint_runs(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(sqlite_audit, "CHECKPOINT_BYTES", 2**62)  # the background never runs
    monkeypatch.setattr(sqlite_audit, "WAL_BOUND_BYTES", 2**20)
    store = SqliteStore(tmp_path / "attest.sqlite3")
    wal = tmp_path / "attest.sqlite3-wal"
    try:
        sizes = []
        for n in range(100):  # ~2.2 MB of entries, ~4.4 MB of log without a checkpoint
            store.append_audit(_entry(n))
            sizes.append(wal.stat().st_size)
        assert store._audit.checkpointer.checkpoints == 0
        assert store._audit.bounded >= 2  # the leader checkpointed, after its batch was answered
        # Each bound checkpoint lets the next commit start the log over: the file never grows
        # past the bound by more than the one batch that crossed it (an entry is ~12 pages).
        assert max(sizes) < 2**20 + 64 * 4096
        entries = store.list_audit(AuditQuery(limit=1000))
        assert len(entries) == 100 and verify_audit_chain(entries)["ok"] is True
    finally:
        store.close()


def test_the_leaders_own_checkpoint_never_overlaps_the_next_batch(tmp_path: Path, monkeypatch):
    # The bound checkpoint runs on the batches' connection. It used to run after leadership was
    # released, so a caller arriving meanwhile led a batch on the same connection while the
    # checkpoint ran: "cannot commit transaction - SQL statements in progress" (a 503 in CI).
    monkeypatch.setattr(sqlite_audit, "CHECKPOINT_BYTES", 2**62)
    monkeypatch.setattr(sqlite_audit, "WAL_BOUND_BYTES", 4096)  # every batch checkpoints
    real = sqlite_audit.checkpoint_passes
    leading_during_checkpoint: list[bool] = []

    def watched_checkpoint(db, passes, **kwargs):
        # Leadership must still be held, so no caller can start a batch on this connection.
        leading_during_checkpoint.append(store._audit._leading)
        time.sleep(0.005)
        return real(db, passes, **kwargs)

    monkeypatch.setattr(sqlite_audit, "checkpoint_passes", watched_checkpoint)
    store = SqliteStore(tmp_path / "attest.sqlite3")
    errors: list[BaseException] = []
    store.append_audit(_entry(0))  # alone: the leader's queue is empty when it checkpoints

    def append(first: int) -> None:
        for n in range(first, first + 15):
            try:
                store.append_audit(_entry(n))
            except BaseException as exc:  # noqa: BLE001 - collected for the assertion
                errors.append(exc)
            time.sleep(0.005)

    try:
        threads = [threading.Thread(target=append, args=(k * 100,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        assert store._audit.bounded >= 2
        assert leading_during_checkpoint and all(leading_during_checkpoint)
        entries = store.list_audit(AuditQuery(limit=1000))
        assert len(entries) == 61 and verify_audit_chain(entries)["ok"] is True
    finally:
        store.close()
