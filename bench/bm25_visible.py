"""Embedded BM25 latency alone, warm and cold, unfiltered and document-filtered: the cost of
taking BM25 statistics from the principal's visible chunks (``ingest/store/sqlite_bm25.py``).

    ATTEST_SHARED_DIR=/work/shared .venv/bin/python bench/bm25_visible.py \\
        --data-dir /tmp/bm25acl/ev50k [--queries 82] [--json FILE]

On a store filled by ``bench/evidence_latency.py`` or ``bench/search.py --data-dir`` (CUAD v1
text, The Atticus Project, CC BY 4.0), runs ``store.bm25`` (depth 50) for CUAD's clause
questions, for three filters: the local operator (unrestricted), principal ``bench`` who may
read every other document (the ACL path: the bench grants it, writing ACL rows into
``--data-dir``'s store once), and the operator with a doc filter of three documents (the
evidence path). "cold" empties the store's per-process BM25 caches before every question (as a
new process finds them); "warm" asks every question again with the caches kept; "write" asks
each question right after a write from another connection (as a worker process writes), the
writes alternating between storing ``--write-doc`` (the first current document, by doc id, with
at least 20 chunks) again under a new doc id and deleting that copy, so the index stays the
size it was. The same file runs against older code (it resets whichever caches the store has),
so one index can be measured before and after a change: compare ratios from one run on a shared
box (``--compare FILE``: ratios of this run to an earlier ``--json FILE``, after / before).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.append(str(REPO / "bench"))  # after the repo: bench/ingest.py must not shadow the package

from common import CREDIT, copy_document, percentile  # noqa: E402
from search import questions  # noqa: E402

from ingest.store.port import Principal, SearchFilters  # noqa: E402
from ingest.store.sqlite import SqliteStore  # noqa: E402


def empty_caches(store: SqliteStore) -> None:
    """Forget what a write would make stale: this code's postings and visible sets, or the
    older code's per-word scores and document frequencies."""
    if hasattr(store, "_postings"):
        from ingest.store.sqlite_bm25 import Postings, VisibleSets

        store._postings, store._visible = Postings(), VisibleSets()
    if hasattr(store, "_terms"):
        from ingest.store.sqlite_terms import TermScores  # the code before per-principal BM25

        store._terms, store._df = TermScores(), (-1, 0, {})


def timed(store: SqliteStore, qs: list[str], filters: SearchFilters, cold: bool) -> list[float]:
    out = []
    for q in qs:
        if cold:
            empty_caches(store)
        start = time.perf_counter()
        store.bm25(q, filters, 50)
        out.append((time.perf_counter() - start) * 1000)
    return out


WRITE_COPY = "bench-write-probe"  # the doc id the "write" figures store and delete


def after_writes(store: SqliteStore, writer: SqliteStore, qs: list[str], filters: SearchFilters,
                 source: str) -> list[float]:
    """Each question timed right after one write by ``writer``: the copy stored, then deleted."""
    record = writer.get_document(source)
    chunks = writer.revision_chunks(source, record.current_revision)
    out = []
    for n, q in enumerate(qs):
        if n % 2 == 0:
            copy_document(writer, record, chunks, WRITE_COPY)
        else:
            writer.delete_document(WRITE_COPY)
        start = time.perf_counter()
        store.bm25(q, filters, 50)
        out.append((time.perf_counter() - start) * 1000)
    writer.delete_document(WRITE_COPY)  # the file as it was
    return out


def compare(result: dict[str, object], before: dict[str, object]) -> None:
    for mode, after in result.items():
        if not isinstance(after, dict) or not isinstance(before.get(mode), dict):
            continue
        old = before[mode]
        print(mode, "  ".join(
            f"{key[:-3]} {old[key]} -> {after[key]} ms (x{after[key] / old[key]:.2f})"
            for key in after if key in old and old[key]), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--queries", type=int, default=82)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--compare", type=Path, default=None,
                        help="an earlier run's --json: print this run's ratios to it")
    parser.add_argument("--write-doc", default=None,
                        help="the document the write probes copy (default: see the docstring)")
    args = parser.parse_args()
    store = SqliteStore(args.data_dir / "attest.sqlite3")
    writer = SqliteStore(store.path)  # another connection, as another process would write
    writer.delete_document(WRITE_COPY)  # left by an interrupted run
    source = args.write_doc or store._db().execute(
        "SELECT doc_id FROM live_chunks GROUP BY doc_id HAVING count(*) >= 20 ORDER BY doc_id LIMIT 1"
    ).fetchone()[0]
    source_chunks = store._db().execute(
        "SELECT count(*) FROM live_chunks WHERE doc_id = ?", (source,)).fetchone()[0]
    qs = sorted(set(questions(args.queries)))
    docs = [r[0] for r in store._db().execute(
        "SELECT doc_id FROM documents WHERE current_revision IS NOT NULL ORDER BY doc_id LIMIT 3")]
    chunks = store._db().execute("SELECT count(*) FROM live_chunks").fetchone()[0]
    every_other = [r[0] for r in store._db().execute(
        "SELECT doc_id FROM documents WHERE current_revision IS NOT NULL ORDER BY doc_id")][::2]
    for doc_id in every_other:  # idempotent: the same rows on every run
        record = store.get_document(doc_id)
        if record is not None and "bench" not in record.acl:
            store.set_acl(doc_id, [*record.acl, "bench"])
    modes = {
        "operator": SearchFilters(principal=Principal.local_operator()),
        "half_acl": SearchFilters(principal=Principal("bench")),
        "doc_filter": SearchFilters(principal=Principal.local_operator(), doc_ids=tuple(docs)),
    }
    result: dict[str, object] = {"chunks": chunks, "questions": len(qs), "corpus": CREDIT,
                                 "write": f"{source} ({source_chunks} chunks) copied / deleted"}
    for name, filters in modes.items():
        for q in qs[:3]:
            store.bm25(q, filters, 50)  # page cache, models of nothing: the file's pages
        cold = timed(store, qs, filters, cold=True)
        empty_caches(store)
        timed(store, qs, filters, cold=False)  # fill
        warm = timed(store, qs, filters, cold=False)
        write = after_writes(store, writer, qs, filters, source)
        result[name] = {
            "cold_p50_ms": round(percentile(cold, 50), 1), "cold_p95_ms": round(percentile(cold, 95), 1),
            "warm_p50_ms": round(percentile(warm, 50), 1), "warm_p95_ms": round(percentile(warm, 95), 1),
            "write_p50_ms": round(percentile(write, 50), 1), "write_p95_ms": round(percentile(write, 95), 1),
        }
        print(name, result[name], flush=True)
    writer.close()
    store.close()
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    if args.compare:
        compare(result, json.loads(args.compare.read_text()))


if __name__ == "__main__":
    main()
