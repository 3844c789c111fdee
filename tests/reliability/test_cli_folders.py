"""Issue 11, Medium 8 and 9, as a user runs the CLI: folder ingest derives doc ids from paths
(two leases in two year folders stay two documents), reports collisions, skips unsupported
files with a note, and never makes documents public by default. Real CLI subprocesses."""

from __future__ import annotations

import json

from ingest.store.port import Principal
from ingest.store.sqlite import SqliteStore
from tests.test_cli import attest

LEASE = "This Lease is made between Harbor Properties LLC and Quay Foods Inc. The rent is {} dollars."


def test_folder_ingest_keeps_same_named_files_apart_and_reports_collisions(tmp_path):
    folder = tmp_path / "folder"
    for year, rent in (("2020", 1000), ("2021", 1200)):
        (folder / year).mkdir(parents=True)
        (folder / year / "lease.txt").write_text(LEASE.format(rent), encoding="utf-8")
    (folder / "2021" / "lease.md").write_text("# Lease\n\nA second copy.", encoding="utf-8")
    (folder / "notes.xyz").write_text("scratch", encoding="utf-8")
    data = tmp_path / "data"

    done = attest(data, "ingest", str(folder), "--acl", "legal", "--json")
    assert done.returncode == 4, done.stderr  # a collision was reported
    report = json.loads(done.stdout)
    assert sorted((d["doc_id"], d["status"]) for d in report["documents"]) == [
        ("2020:lease", "indexed"), ("2021:lease", "indexed"),
    ]
    assert report["skipped"] == [
        {"path": str(folder / "2021" / "lease.txt"),
         "reason": f"doc id 2021:lease collides with {folder / '2021' / 'lease.md'}"},
        {"path": str(folder / "notes.xyz"), "reason": "unsupported suffix .xyz"},
    ]
    store = SqliteStore(data / "attest.sqlite3")
    try:
        assert store.get_document("notes") is None  # skipped, not a failed document
        docs, total = store.list_documents(Principal.local_operator())
        assert total == 2 and {d.acl[0] for d in docs} == {"legal"}
    finally:
        store.close()


def test_cli_ingest_without_acl_creates_nothing(tmp_path):
    (tmp_path / "minutes.txt").write_text("Board minutes: the CEO resigned.", encoding="utf-8")
    data = tmp_path / "data"
    refused = attest(data, "ingest", str(tmp_path / "minutes.txt"))
    assert refused.returncode == 2
    assert refused.stderr.startswith("error: --acl is required for new documents (1 here")
    store = SqliteStore(data / "attest.sqlite3")
    try:
        assert store.list_documents(Principal.local_operator())[1] == 0
    finally:
        store.close()
