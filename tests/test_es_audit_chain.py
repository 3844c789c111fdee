"""The Elasticsearch audit log stays ONE hash chain when several processes append at once: two
real processes x four threads append to one audit index of the real test node
(ATTEST_ELASTICSEARCH_URL), then the chain is verified the way ``attest audit verify`` does it,
and every entry is there exactly once. A writer killed between moving the chain head and writing
its entry leaves nothing broken: the next append completes it. Nothing mocked."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections import Counter
from pathlib import Path

from ingest.store.common import verify_audit_chain
from service.cli.audit import _entries
from tests.conftest import _ES_URL_AT_START, require_es

REPO = Path(__file__).resolve().parents[1]
THREADS, PER_THREAD = 4, 15

APPENDER = """
import sys, threading
sys.path.insert(0, sys.argv[4])
from ingest.store.elastic import ElasticStore
url, prefix, tag = sys.argv[1], sys.argv[2], sys.argv[3]
threads, per_thread = int(sys.argv[5]), int(sys.argv[6])
store = ElasticStore(url, prefix=prefix)
start = threading.Barrier(threads)
def append(t):
    start.wait()
    for i in range(per_thread):
        store.append_audit({"request_id": f"{tag}-t{t}-{i}", "principal": tag, "action": "search"})
workers = [threading.Thread(target=append, args=(t,)) for t in range(threads)]
print("ready", flush=True)
sys.stdin.readline()  # both processes start together
for w in workers: w.start()
for w in workers: w.join()
print("done", flush=True)
"""

DIES_BETWEEN_HEAD_AND_ENTRY = """
import os, sys
sys.path.insert(0, sys.argv[3])
from ingest.store.elastic import ElasticStore
store = ElasticStore(sys.argv[1], prefix=sys.argv[2])
complete = store._store_audit_docs
def killed_after_the_head_moved(docs):
    if docs[-1]["request_id"] == "orphan":
        os._exit(9)
    complete(docs)
store._store_audit_docs = killed_after_the_head_moved
store.append_audit({"request_id": "orphan", "principal": "crash", "action": "search"})
"""


def _store(prefix: str):
    from ingest.store.elastic import ElasticStore

    return ElasticStore(_ES_URL_AT_START or require_es(), prefix=prefix)


def test_two_processes_appending_at_once_make_one_chain_with_every_entry_once():
    prefix = f"attest-test-{uuid.uuid4().hex[:10]}"
    store = _store(prefix)
    try:
        store.append_audit({"request_id": "first", "principal": "setup", "action": "search"})
        procs = [subprocess.Popen(
            [sys.executable, "-c", APPENDER, store.url, prefix, tag, str(REPO), str(THREADS),
             str(PER_THREAD)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO)
            for tag in ("p1", "p2")]
        for proc in procs:
            assert proc.stdout.readline().strip() == "ready"  # type: ignore[union-attr]
        for proc in procs:
            proc.stdin.write("go\n")  # type: ignore[union-attr]
            proc.stdin.flush()  # type: ignore[union-attr]
        for proc in procs:
            assert proc.stdout.readline().strip() == "done"  # type: ignore[union-attr]
            assert proc.wait(60) == 0

        entries = list(_entries(store))  # what `attest audit verify` walks
        report = verify_audit_chain(entries)
        expected = 1 + 2 * THREADS * PER_THREAD
        assert (report["ok"], report["checked"], report["reason"]) == (True, expected, None)
        counts = Counter(e["request_id"] for e in entries)
        assert counts == Counter(["first"] + [f"{tag}-t{t}-{i}" for tag in ("p1", "p2")
                                              for t in range(THREADS) for i in range(PER_THREAD)])
        seqs = [e["seq"] for e in entries]
        assert seqs == sorted(set(seqs))  # strictly increasing
        assert report["head"] == entries[-1]["hash"]
    finally:
        store.drop_all()
        store.close()


def test_a_writer_killed_between_head_and_entry_is_completed_by_the_next_append():
    prefix = f"attest-test-{uuid.uuid4().hex[:10]}"
    store = _store(prefix)
    try:
        store.append_audit({"request_id": "before", "principal": "setup", "action": "search"})
        died = subprocess.run([sys.executable, "-c", DIES_BETWEEN_HEAD_AND_ENTRY, store.url, prefix,
                               str(REPO)], cwd=REPO, timeout=120)
        assert died.returncode == 9
        assert [e["request_id"] for e in _entries(store)] == ["before"]  # the entry is missing
        store.append_audit({"request_id": "after", "principal": "setup", "action": "search"})
        entries = list(_entries(store))
        assert [e["request_id"] for e in entries] == ["before", "orphan", "after"]
        report = verify_audit_chain(entries)
        assert (report["ok"], report["checked"]) == (True, 3)
        assert entries[1]["prev_hash"] == entries[0]["hash"]
        assert entries[2]["prev_hash"] == entries[1]["hash"]
    finally:
        store.drop_all()
        store.close()


def test_one_head_move_carries_at_most_audit_max_batch_entries():
    """The bound of one head move: AUDIT_MAX_BATCH + 1 callers queued while the chain is held
    commit as one batch of AUDIT_MAX_BATCH and one of 1, on one intact chain."""
    import threading
    import time

    from ingest.store.elastic import AUDIT_MAX_BATCH

    prefix = f"attest-test-{uuid.uuid4().hex[:10]}"
    store = _store(prefix)
    sizes: list[int] = []
    append_batch = store._append_batch

    def counted(batch):  # a spy on the real method: records the size, writes as before
        sizes.append(len(batch))
        append_batch(batch)

    store._append_batch = counted  # type: ignore[method-assign]
    try:
        store.append_audit({"request_id": "first", "principal": "setup", "action": "search"})
        sizes.clear()
        callers = [
            threading.Thread(target=store.append_audit,
                             args=({"request_id": f"q{n}", "principal": "setup", "action": "search"},))
            for n in range(AUDIT_MAX_BATCH + 1)
        ]
        with store._chain_lock:  # every caller queues behind the held chain
            for caller in callers:
                caller.start()
            deadline = time.monotonic() + 30
            while len(store._audit_queue) < AUDIT_MAX_BATCH + 1 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(store._audit_queue) == AUDIT_MAX_BATCH + 1
        for caller in callers:
            caller.join(60)
        assert sizes == [AUDIT_MAX_BATCH, 1]
        entries = list(_entries(store))
        report = verify_audit_chain(entries)
        assert (report["ok"], report["checked"]) == (True, AUDIT_MAX_BATCH + 2)
    finally:
        store.drop_all()
        store.close()
