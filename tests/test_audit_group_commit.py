"""Issue 14: group commit of audit entries (``ingest/store/sqlite_audit.py``). Concurrent appends
share one transaction and one fsync; every caller returns only once its own entry is committed;
a failed batch fails every caller in it and writes nothing; the hash chain stays one chain when
several processes append at once. Real SQLite files, real processes; no mocks.

Batches are made deterministic by holding the SQLite write lock from a second connection: the
leader waits on it with its batch taken, and the callers that arrive meanwhile queue up."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ingest.store.common import verify_audit_chain
from ingest.store.port import AuditQuery, StoreUnavailable
from ingest.store.sqlite import SqliteStore
from tests.test_cli import attest

REPO = Path(__file__).resolve().parents[1]


def _entry(n: int, **extra: object) -> dict[str, object]:
    return {"action": "search", "request_id": f"req-{n}", "principal": "alice",
            "input": {"query": f"q{n}"}, **extra}


def _hold_write_lock(path: Path) -> sqlite3.Connection:
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    return holder


def _wait_until(condition, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.005)


class _Appender(threading.Thread):
    """Appends one entry; keeps the outcome (None or the exception) and when it returned."""

    def __init__(self, store: SqliteStore, entry: dict[str, object]) -> None:
        super().__init__(daemon=True)
        self.store, self.entry = store, entry
        self.outcome: BaseException | None | str = "running"

    def run(self) -> None:
        try:
            self.store.append_audit(self.entry)
            self.outcome = None
        except BaseException as exc:  # noqa: BLE001 - the test inspects it
            self.outcome = exc


def _leader_waiting_on_lock(store: SqliteStore, n: int) -> _Appender:
    """Start an appender that becomes the leader and waits for the held write lock."""
    leader = _Appender(store, _entry(n))
    leader.start()
    _wait_until(lambda: store._audit._leading and store._audit.queued() == 0)
    return leader


def test_callers_that_arrive_during_a_commit_share_the_next_one(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "attest.sqlite3")
    holder = _hold_write_lock(store.path)
    leader = _leader_waiting_on_lock(store, 0)
    followers = [_Appender(store, _entry(n)) for n in range(1, 6)]
    for f in followers:
        f.start()
    _wait_until(lambda: store._audit.queued() == 5)
    time.sleep(0.05)
    # Nobody returns while the write lock is held: no answer before its entry is committed.
    assert [t.outcome for t in [leader, *followers]] == ["running"] * 6
    holder.execute("ROLLBACK")
    for t in [leader, *followers]:
        t.join(30)
    assert [t.outcome for t in [leader, *followers]] == [None] * 6
    # The leader's batch held only its own entry; the five that queued meanwhile made one batch.
    assert (store._audit.batches, store._audit.entries) == (2, 6)
    entries = store.list_audit(AuditQuery(limit=100))
    assert sorted(e["request_id"] for e in entries) == [f"req-{n}" for n in range(6)]
    assert entries[0]["request_id"] == "req-0"
    report = verify_audit_chain(entries)
    assert (report["ok"], report["checked"]) == (True, 6)
    # The commit ran with an fsync of the log: synchronous=FULL (2) on the audit connection.
    assert store._audit._db.execute("PRAGMA synchronous").fetchone()[0] == 2
    store.close()



def test_a_batch_takes_at_most_max_batch_entries(tmp_path: Path) -> None:
    """The bound of one transaction: MAX_BATCH + 1 callers queued behind a leader commit as one
    batch of MAX_BATCH and one of 1, all on one chain."""
    from ingest.store.sqlite_audit import MAX_BATCH

    store = SqliteStore(tmp_path / "attest.sqlite3")
    holder = _hold_write_lock(store.path)
    leader = _leader_waiting_on_lock(store, 0)
    followers = [_Appender(store, _entry(n)) for n in range(1, MAX_BATCH + 2)]
    for f in followers:
        f.start()
    _wait_until(lambda: store._audit.queued() == MAX_BATCH + 1)
    holder.execute("ROLLBACK")
    for t in [leader, *followers]:
        t.join(30)
    assert [t.outcome for t in [leader, *followers]] == [None] * (MAX_BATCH + 2)
    assert (store._audit.batches, store._audit.entries) == (3, MAX_BATCH + 2)
    entries = store.list_audit(AuditQuery(limit=1000))
    report = verify_audit_chain(entries)
    assert (report["ok"], report["checked"]) == (True, MAX_BATCH + 2)
    store.close()

def test_a_failed_batch_fails_every_caller_in_it_and_writes_nothing(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "attest.sqlite3", busy_timeout=1.0)
    holder = _hold_write_lock(store.path)
    leader = _leader_waiting_on_lock(store, 0)
    followers = [_Appender(store, _entry(n)) for n in range(1, 4)]
    for f in followers:
        f.start()
    for t in [leader, *followers]:
        t.join(30)
    outcomes = [t.outcome for t in [leader, *followers]]
    assert all(isinstance(o, StoreUnavailable) for o in outcomes), outcomes
    assert "database is locked" in str(outcomes[0])
    assert store.ping() is False  # /readyz: the store cannot take audit entries
    holder.execute("ROLLBACK")
    assert store.list_audit(AuditQuery(limit=100)) == []
    store.append_audit(_entry(9))
    assert store.ping() is True
    entries = store.list_audit(AuditQuery(limit=100))
    assert [e["request_id"] for e in entries] == ["req-9"]
    assert verify_audit_chain(entries)["ok"] is True
    store.close()


def test_an_entry_that_cannot_be_written_fails_only_its_caller(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "attest.sqlite3")
    holder = _hold_write_lock(store.path)
    leader = _leader_waiting_on_lock(store, 0)
    bad = _Appender(store, _entry(1, input={"query": object()}))  # not JSON
    bad.start()
    _wait_until(lambda: store._audit.queued() == 1)
    good = _Appender(store, _entry(2))
    good.start()
    _wait_until(lambda: store._audit.queued() == 2)
    holder.execute("ROLLBACK")
    for t in (leader, bad, good):
        t.join(30)
    assert leader.outcome is None and good.outcome is None
    assert isinstance(bad.outcome, TypeError)
    entries = store.list_audit(AuditQuery(limit=100))
    assert [e["request_id"] for e in entries] == ["req-0", "req-2"]
    assert verify_audit_chain(entries)["ok"] is True
    store.close()


_WRITER = """
import sys, threading
from ingest.store.sqlite import SqliteStore
store = SqliteStore(sys.argv[1])
proc, threads, per_thread = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
sys.stdin.readline()  # start together
def work(t):
    for i in range(per_thread):
        store.append_audit({"action": "search", "request_id": f"{proc}-{t}-{i}", "principal": "p",
                            "input": {"query": "x" * (i % 7)}})
workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
for w in workers: w.start()
for w in workers: w.join()
print(store._audit.batches, store._audit.entries)
store.close()
"""


@pytest.mark.slow
def test_processes_appending_at_once_keep_one_verifiable_chain(tmp_path: Path) -> None:
    path = tmp_path / "attest.sqlite3"
    SqliteStore(path).close()
    procs, threads, per_thread = 3, 4, 15
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(path), f"p{p}", str(threads), str(per_thread)],
                         cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for p in range(procs)
    ]
    for w in writers:
        w.stdin.write("go\n")
        w.stdin.flush()
    counts = [tuple(map(int, w.communicate(timeout=300)[0].split())) for w in writers]
    assert [w.returncode for w in writers] == [0] * procs
    total = procs * threads * per_thread
    assert sum(entries for _, entries in counts) == total
    store = SqliteStore(path)
    entries = store.list_audit(AuditQuery(limit=10_000))
    store.close()
    expected = sorted(f"p{p}-{t}-{i}" for p in range(procs) for t in range(threads) for i in range(per_thread))
    assert sorted(e["request_id"] for e in entries) == expected
    report = verify_audit_chain(entries)
    assert (report["ok"], report["checked"]) == (True, total), report
    verified = attest(tmp_path, "audit", "verify")
    assert (verified.returncode, verified.stdout) == (
        0, f"audit chain intact: {total} entries checked; head {report['head']}\n")
