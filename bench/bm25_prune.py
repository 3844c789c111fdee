"""How many query words the embedded BM25 keeps (``BM25_MAX_TERMS``): latency against fidelity.

    ATTEST_SHARED_DIR=/work/shared .venv/bin/python bench/bm25_prune.py \\
        --data-dir /tmp/perf-bench/new [--k 3 4 5 6 8 10 0]

On an index built by ``bench/search.py --data-dir`` (CUAD v1 text, The Atticus Project,
CC BY 4.0), for each K runs BM25 (depth 50, a principal with a group ACL) for CUAD's clause
questions and reports p50/p95 latency, the number of FTS matches, and how much of the
*unpruned* top 10 / top 50 the pruned query keeps (mean overlap). K = 0 means no pruning. The
questions are CUAD's category questions (the same 41 for every contract), not the answers of
any split, so choosing K here tunes nothing on the report list.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from common import CREDIT, percentile
from search import questions

import ingest.store.sqlite as sqlite_store
from ingest.store.sqlite_bm25 import document_frequencies
from ingest.store.common import query_words
from ingest.store.port import Principal, SearchFilters


def tune_cases(store, limit: int = 120) -> list[tuple[str, list[str]]]:
    """(question, answer snippets) of CUAD QA rows on ``tune`` contracts held by the index."""
    import json

    from common import CUAD

    tune = set(json.loads((CUAD / "splits.json").read_text())["tune"])
    held = {r[0] for r in store._db().execute("SELECT doc_id FROM documents")}
    cases = []
    for line in (CUAD / "cuad_qa.jsonl").open():
        row = json.loads(line)
        if row["is_impossible"] or row["doc_id"] not in tune or row["doc_id"] not in held:
            continue
        snippets = [a["text"][:80] for a in row["answers"] if len(a["text"]) >= 20]
        if snippets:
            cases.append((row["question"], snippets))
    return cases[:limit]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--k", type=int, nargs="+", default=[3, 4, 5, 6, 8, 10, 0])
    args = parser.parse_args()
    store = sqlite_store.SqliteStore(args.data_dir / "attest.sqlite3")
    filters = SearchFilters(principal=Principal("bench", groups=("*",)))
    qs = sorted(set(questions(1000)))
    default = sqlite_store.BM25_MAX_TERMS
    sqlite_store.BM25_MAX_TERMS = 10_000
    full = {q: [r.chunk_id for r in store.bm25(q, filters, 50)] for q in qs}
    cases = tune_cases(store)
    text_of = lambda ids: [c.text for c in store.chunks_by_id(ids).values()]  # noqa: E731
    print(f"{len(qs)} questions, mean {sum(len(query_words(q)) for q in qs) / len(qs):.1f} words; "
          f"index of {CREDIT}")
    for k in args.k:
        sqlite_store.BM25_MAX_TERMS = k or 10_000
        for q in qs[:3]:
            store.bm25(q, filters, 50)  # warm
        times, keep10, keep50, matches = [], [], [], []
        for q in qs:
            start = time.perf_counter()
            got = [r.chunk_id for r in store.bm25(q, filters, 50)]
            times.append((time.perf_counter() - start) * 1000)
            keep10.append(len(set(got[:10]) & set(full[q][:10])) / max(1, len(full[q][:10])))
            keep50.append(len(set(got) & set(full[q])) / max(1, len(full[q])))
            with store.snapshot():  # the words kept for this principal's visible chunks
                db = store._db()
                head, floor, acl_version = store._bm25_state(db)
                visible = store._visible_set(db, filters.principal, head, acl_version, floor)
                store._postings.sync(db, head, floor)
                words = query_words(q)
                df = document_frequencies(db, store._postings, head, visible, words)
                match = sqlite_store.fts_query(sqlite_store.prune_words(words, df, visible.rows))
            matches.append(store._db().execute(
                "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?", (match,)).fetchone()[0])
        found = 0
        for q, snippets in cases:
            texts = text_of([r.chunk_id for r in store.bm25(q, filters, 50)])
            found += any(snip in t for snip in snippets for t in texts)
        print(f"K={k or 'all':>3}: p50 {percentile(times, 50):6.1f} ms  p95 {percentile(times, 95):6.1f} ms"
              f"  matches p50 {percentile(matches, 50):6.0f}  keeps top10 {sum(keep10) / len(qs):.2f}"
              f"  top50 {sum(keep50) / len(qs):.2f}  tune answer recall@50 {found}/{len(cases)}")
    sqlite_store.BM25_MAX_TERMS = default
    store.close()


if __name__ == "__main__":
    main()
