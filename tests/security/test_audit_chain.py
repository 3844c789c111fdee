"""Issue 11, Low: tamper evidence. Each audit entry's hash covers the previous one, and
``attest audit verify`` finds the first entry that was changed, removed or reordered.
Real stores (SQLite file, the Elasticsearch test node) and the real CLI."""

from __future__ import annotations

import json
import sqlite3

from ingest.store.common import verify_audit_chain
from ingest.store.port import AuditQuery
from ingest.store.sqlite import SqliteStore
from tests.test_cli import attest


def _append(store, n: int) -> None:
    for i in range(n):
        store.append_audit({"action": "search", "request_id": f"req-{i}", "principal": "alice",
                            "input": {"query": f"q{i}"}})


def test_the_audit_log_is_a_hash_chain_on_every_backend(store):
    _append(store, 3)
    entries = store.list_audit(AuditQuery(limit=10))
    assert [e["prev_hash"] for e in entries] == ["", entries[0]["hash"], entries[1]["hash"]]
    assert verify_audit_chain(entries) == {
        "ok": True, "checked": 3, "unchained": 0, "broken_at": None, "reason": None,
        "head": entries[2]["hash"],
    }
    changed = [dict(e) for e in entries]
    changed[1]["input"] = {"query": "something else"}
    assert verify_audit_chain(changed)["broken_at"] == entries[1]["seq"]
    removed = [entries[0], entries[2]]
    report = verify_audit_chain(removed)
    assert (report["ok"], report["broken_at"]) == (False, entries[2]["seq"])
    assert report["reason"] == "prev_hash does not match the previous entry (removed or reordered)"


def test_attest_audit_verify_finds_an_edited_entry(tmp_path):
    store = SqliteStore(tmp_path / "attest.sqlite3")
    _append(store, 4)
    store.close()
    store = SqliteStore(tmp_path / "attest.sqlite3")
    head = store.list_audit(AuditQuery(limit=10))[-1]["hash"]
    store.close()
    intact = attest(tmp_path, "audit", "verify")
    assert (intact.returncode, intact.stdout) == (0, f"audit chain intact: 4 entries checked; head {head}\n")

    # Someone with the file bypasses the append-only trigger and edits entry 3.
    db = sqlite3.connect(tmp_path / "attest.sqlite3", isolation_level=None)
    db.execute("DROP TRIGGER audit_no_update")
    row = db.execute("SELECT entry FROM audit WHERE seq=3").fetchone()
    entry = json.loads(row[0])
    entry["principal"] = "mallory"
    db.execute("UPDATE audit SET entry=? WHERE seq=3", (json.dumps(entry),))
    db.close()
    broken = attest(tmp_path, "audit", "verify")
    assert broken.returncode == 1
    assert broken.stdout == (
        "audit chain BROKEN at seq 3: hash does not match the entry (changed after it was written)\n"
    )
