"""kill -9 in the middle of an ingest, then the same ingest again: no duplicate chunks, nothing
half-visible, and the document ends `indexed`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from ingest.pipeline import Ingestor
from ingest.settings import Settings
from ingest.store.port import Principal, SearchFilters
from ingest.store.sqlite import SqliteStore

REPO = Path(__file__).resolve().parents[1]
OPERATOR = Principal.local_operator()

CHILD = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from ingest.embedder import MiniLMEmbedder
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from ingest.store.sqlite import SqliteStore

    db, source, kill_at = sys.argv[1], Path(sys.argv[2]), sys.argv[3]

    def on_stage(stage):
        print(stage, flush=True)
        if stage == kill_at:
            time.sleep(60)  # the parent kills us here

    if kill_at == "in_transaction":
        # Deterministic, whatever the write speed: stop inside the open write transaction,
        # after the chunks are inserted and before the commit.
        insert_chunks = SqliteStore._insert_chunks

        def insert_then_wait(*args, **kwargs):
            insert_chunks(*args, **kwargs)
            on_stage("in_transaction")

        SqliteStore._insert_chunks = staticmethod(insert_then_wait)

    store = SqliteStore(db)
    Ingestor(store, MiniLMEmbedder(), Settings(), annotate=False, on_stage=on_stage).ingest_path(
        source, doc_id="contract")
    print("done", flush=True)
    """
)


def big_contract(path: Path) -> Path:
    clauses = [
        f"{n}. CLAUSE {n}\n\nThe Supplier shall deliver batch {n} of the goods within {n} days "
        f"of the purchase order, and the Buyer shall pay invoice {n} within thirty days.\n"
        for n in range(1, 400)
    ]
    path.write_text("SUPPLY AGREEMENT\n\n" + "\n".join(clauses))
    return path


def run_child_until(db: Path, source: Path, marker: str, kill_at: str, delay: float = 0.0) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db), str(source), kill_at],
        stdout=subprocess.PIPE, text=True, cwd=REPO, env=env,
    )
    try:
        for line in child.stdout:
            if line.strip() == marker:
                if delay:
                    import time

                    time.sleep(delay)
                child.send_signal(signal.SIGKILL)
                break
            assert line.strip() != "done", f"the child finished before reaching {marker}"
    finally:
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL


@pytest.mark.parametrize(
    ("marker", "kill_at", "delay"),
    [
        ("extracting", "extracting", 0.0),
        ("indexing", "none", 0.3),  # killed while annotating/embedding
        ("in_transaction", "in_transaction", 0.0),  # killed inside the write transaction
        ("written", "written", 0.0),  # written but not yet switched to current
    ],
)
def test_kill_then_rerun_leaves_one_clean_revision(tmp_path, embedder, marker, kill_at, delay):
    db = tmp_path / "attest.sqlite3"
    source = big_contract(tmp_path / "contract.txt")
    run_child_until(db, source, marker, kill_at, delay)

    store = SqliteStore(db)
    everyone = SearchFilters(principal=OPERATOR)
    # Whatever the killed run left, nothing of the revision is searchable.
    assert store.bm25("supplier goods", everyone, 10) == []
    doc = store.get_document("contract")
    assert doc is not None and doc.current_revision is None

    result = Ingestor(store, embedder, Settings(), annotate=False).ingest_path(source, doc_id="contract")
    assert result.status == "indexed"
    doc = store.get_document("contract")
    assert (doc.status, doc.current_revision) == ("indexed", result.revision)
    db_rows = store._db().execute(
        "SELECT count(*), count(DISTINCT chunk_id), count(DISTINCT ordinal) FROM chunks"
    ).fetchone()
    assert db_rows[0] == db_rows[1] == db_rows[2] == result.n_chunks
    assert store._db().execute("SELECT count(*) FROM chunks_fts").fetchone()[0] == result.n_chunks
    assert len(store.bm25("supplier goods", everyone, 1000)) == result.n_chunks
    store.close()
