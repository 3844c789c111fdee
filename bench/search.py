"""Hybrid search latency at >= 50k chunks, split into query embedding, BM25, kNN and fusion.

    .venv/bin/python bench/search.py --docs 40 --target-chunks 50000 --queries 200
    .venv/bin/python bench/search.py --backend es --es-url http://127.0.0.1:9200 \\
        --from-sqlite /tmp/bench-search/attest.sqlite3

Real chunks and vectors of N CUAD dev contracts are ingested once, then copied under new doc ids
until the index holds the target number of chunks (vectors are reused, so no model runs for the
copies). Queries are CUAD's clause questions. Reported: p50/p95 per stage and of the total with
the query embedding excluded (target on 2 cores: p95 <= 60 ms).

``--backend es`` builds the same index in Elasticsearch under its own prefix (``attest-bench``;
kept for reuse, ``--rebuild`` drops it first), writing through the port with refresh off and one
refresh at the end. ``--from-sqlite PATH`` copies the documents, chunks and vectors of an
existing SQLite bench index instead of ingesting and embedding again. ``--baseline FILE`` runs
another version of the SQLite adapter on the same index, back to back, checks that both return
identical results and prints before/after ratios per stage (``--probe-writes N``: also the first
query after a small write). For Elasticsearch it also
records Elasticsearch's own ``took`` of the same BM25 and kNN requests and prints the ratio of
Attest's retrieval time (bm25 + knn + fuse + fetch; query embedding excluded) to took(bm25) +
took(knn) (issue 14's target: <= 1.3).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import tempfile
import time
from pathlib import Path

from common import CREDIT, CUAD, copy_document, cuad_txt_files, percentile

import ingest.nlp_model  # noqa: F401
from ingest.embedder import MiniLMEmbedder
from ingest.pipeline import Ingestor
from ingest.settings import Settings
from ingest.statuses import DocStatus
from ingest.store.port import Principal, SearchFilters
from ingest.store.sqlite import SqliteStore
from service.retrieval import Timings, hybrid_search

# Issue 14's goal for Attest's retrieval time over Elasticsearch's own `took`.
ES_TOOK_RATIO_TARGET = 1.3


def settle(store) -> None:
    """Make every write searchable (the Elasticsearch bench store writes with refresh off)."""
    if hasattr(store, "es"):
        store.es.indices.refresh(index=f"{store.prefix}-*")


def build_index(store, embedder, docs: int, target: int) -> int:
    ingestor = Ingestor(store, embedder, Settings(), annotate=False)
    originals = [ingestor.ingest_path(p, acl=["*"]) for p in cuad_txt_files(docs)]  # readable by the bench principal
    settle(store)
    base = [(r, store.revision_chunks(r.doc_id, r.revision)) for r in originals if r.revision]
    total = sum(len(chunks) for _, chunks in base)
    copy_no = 0
    while total < target:
        copy_no += 1
        for result, chunks in base:
            doc_id = f"{result.doc_id}#copy{copy_no}"
            total += copy_document(store, store.get_document(result.doc_id), chunks, doc_id)
            if total >= target:
                break
    settle(store)
    return total


def perturb(chunks, scale: float) -> None:
    """Give copied chunks (doc ids with ``#copy``) distinct vectors: the real vector plus
    Gaussian noise of ``scale`` per dimension, seeded by the chunk id (deterministic), then
    renormalised. Exact duplicates (every CUAD chunk ~25 times) are not what a corpus looks like
    and degenerate an HNSW graph: a filtered search explores ties until it gives up and runs an
    exact scan. scale 0.01 keeps each copy at cosine ~0.98 to its original."""
    import hashlib

    import numpy as np

    for chunk in chunks:
        if "#copy" not in chunk.doc_id or chunk.embedding is None:
            continue
        seed = int.from_bytes(hashlib.sha256(chunk.chunk_id.encode()).digest()[:8], "little")
        vector = np.asarray(chunk.embedding, dtype=np.float32)
        vector = vector + np.random.default_rng(seed).normal(0, scale, vector.size).astype(np.float32)
        chunk.embedding = (vector / np.linalg.norm(vector)).tolist()


def copy_from_sqlite(store, source_path: Path, target: int, noise: float = 0.0) -> int:
    """Copy current documents (chunks with their vectors, texts) of a SQLite index through the
    port: save_document, write_revision, activate_revision, one document at a time. ``noise``
    > 0 perturbs the vectors of copied documents (see :func:`perturb`)."""
    source = SqliteStore(source_path)
    model = source.embedding_model()
    if model is None:
        raise SystemExit(f"{source_path} holds no embedded chunks")
    store.ensure_embedding_model(model["model"], model["dim"])
    records, _ = source.list_documents(Principal.local_operator(), status=DocStatus.INDEXED, limit=1_000_000)
    total = 0
    for record in records:
        revision = record.current_revision
        if not revision:
            continue
        chunks = source.revision_chunks(record.doc_id, revision)
        if noise > 0:
            perturb(chunks, noise)
        text = source.revision_text(record.doc_id, revision) or ""
        info = next(r for r in record.revisions if r.revision == revision)
        pending = copy.deepcopy(record)
        pending.current_revision, pending.status, pending.stage = None, "indexing", "indexing"
        pending.revisions, pending.incarnation = [], ""  # created anew in the target store
        store.save_document(pending)
        store.write_revision(record.doc_id, revision, text=text, chunks=chunks, subjects=[],
                             info={"filename": info.filename, "mime": info.mime, "size": info.size,
                                   "created_at": info.created_at})
        store.activate_revision(record.doc_id, revision)
        total += len(chunks)
        if total >= target:
            break
    source.close()
    settle(store)
    return total


def questions(limit: int) -> list[str]:
    seen: list[str] = []
    for line in (CUAD / "cuad_qa.jsonl").open():
        row = json.loads(line)
        text = row["question"]
        if text not in seen:
            seen.append(text)
    return (seen * (limit // max(1, len(seen)) + 1))[:limit]


def run(store, embedder, queries: list[str], label: str) -> None:
    filters = SearchFilters(principal=Principal("bench", groups=("*",)))
    for q in queries[:5]:  # warm caches (vector matrix, page cache)
        hybrid_search(store, embedder, q, filters)
    vectors = {q: embedder.embed([q])[0] for q in set(queries)}
    stages = {"embed": [], "bm25": [], "knn": [], "fuse": [], "fetch": [], "total_no_embed": []}
    took: dict[str, int] = {}
    es = hasattr(store, "on_took")
    if es:
        stages.update({"es_took_bm25": [], "es_took_knn": [], "retrieval": [], "es_took_sum": []})
        store.on_took = lambda stage, ms: took.__setitem__(stage, ms)
    for q in queries:
        start = time.perf_counter()
        vector = embedder.embed([q])[0]
        embed_ms = (time.perf_counter() - start) * 1000
        timings = Timings()
        took.clear()
        start = time.perf_counter()
        hybrid_search(store, embedder, q, filters, k=10, query_vector=vectors[q], timings=timings)
        total = (time.perf_counter() - start) * 1000
        stages["embed"].append(embed_ms)
        stages["bm25"].append(timings.bm25_ms)
        stages["knn"].append(timings.knn_ms)
        stages["fuse"].append(timings.fuse_ms)
        stages["fetch"].append(timings.fetch_ms)
        stages["total_no_embed"].append(total)
        if es:
            stages["es_took_bm25"].append(took.get("bm25", 0))
            stages["es_took_knn"].append(took.get("knn", 0))
            stages["es_took_sum"].append(took.get("bm25", 0) + took.get("knn", 0))
            stages["retrieval"].append(
                timings.bm25_ms + timings.knn_ms + timings.fuse_ms + timings.fetch_ms)
    if es:
        store.on_took = None
    print(f"[{label}] {len(queries)} queries")
    for name, values in stages.items():
        print(f"  {name:>15}: p50 {percentile(values, 50):7.2f} ms   p95 {percentile(values, 95):7.2f} ms")
    print(f"  target: p95 total_no_embed <= 60 ms -> "
          f"{'met' if percentile(stages['total_no_embed'], 95) <= 60 else 'NOT met'}")
    if es:
        took_sum = sum(stages["es_took_sum"])
        ratio = sum(stages["retrieval"]) / took_sum if took_sum else float("inf")
        per_query = [r / t for r, t in zip(stages["retrieval"], stages["es_took_sum"]) if t]
        wide = sum(stages["total_no_embed"]) / took_sum if took_sum else float("inf")
        print("  Attest retrieval (bm25+knn+fuse+fetch) / ES took(bm25)+took(knn): "
              f"{ratio:.2f} over the run (per query: p50 {percentile(per_query, 50):.2f}, "
              f"p95 {percentile(per_query, 95):.2f}) -> target <= {ES_TOOK_RATIO_TARGET} "
              f"{'met' if ratio <= ES_TOOK_RATIO_TARGET else 'NOT met'}")
        print(f"  whole hybrid_search call (adds the snapshot's current-revision read) / took sum: "
              f"{wide:.2f}")


def load_baseline(path: Path):
    """``SqliteStore`` from another version of ``ingest/store/sqlite.py`` (for instance
    ``git show main:ingest/store/sqlite.py > /tmp/sqlite_before.py``), imported as its own module."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("ingest.store.sqlite_baseline", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SqliteStore


def _ranked(results) -> list[tuple[str, float]]:
    return [(r.chunk_id, r.score) for r in results]


def blas_threads_for(name: str, baseline_threads: int) -> None:
    """The adapter after this branch runs BLAS on one thread (sqlite_vectors.single_threaded_blas);
    the baseline gets the threads it had (OpenBLAS's default: one per core) for its own calls."""
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=baseline_threads if name == "before" else 1, user_api="blas")


def compare(store, baseline, embedder, queries: list[str], probe_writes: int,
            baseline_threads: int) -> None:
    """Before (``baseline``) and after (``store``) on one index file, back to back in one process:
    each query runs on both, the first of the pair alternating, so load from other work falls on
    both alike. Results must be identical: each distinct question's BM25 and kNN top 50 (ids and
    scores) and its hybrid top 10. Then ``probe_writes`` small writes (a copy of one document
    activated, then deleted), each followed by the first query on either store."""
    filters = SearchFilters(principal=Principal("bench", groups=("*",)))
    vectors = {q: embedder.embed([q])[0] for q in sorted(set(queries))}
    stores = {"before": baseline, "after": store}
    for q in queries[:5]:  # warm both: matrices, page cache
        for name, s in stores.items():
            blas_threads_for(name, baseline_threads)
            hybrid_search(s, embedder, q, filters, query_vector=vectors[q])
    cold_pass(store, baseline, embedder, vectors, filters, baseline_threads)
    differing = []
    for q in sorted(vectors):
        got = []
        for name, s in stores.items():
            blas_threads_for(name, baseline_threads)
            with s.snapshot():
                got.append((_ranked(s.bm25(q, filters, 50)), _ranked(s.knn(vectors[q], filters, 50)),
                            [(h.chunk.chunk_id, h.score, h.bm25_rank, h.knn_rank) for h in
                             hybrid_search(s, embedder, q, filters, query_vector=vectors[q])]))
        if got[0] != got[1]:
            differing.append(q)
    print(f"identical results (BM25 top 50, kNN top 50, hybrid top 10, ids and scores): "
          f"{len(vectors) - len(differing)}/{len(vectors)} distinct questions")
    for q in differing:
        print(f"  DIFFERENT: {q[:100]}")
    stages = {name: {k: [] for k in ("bm25", "knn", "fuse", "fetch", "total_no_embed")} for name in stores}
    for number, q in enumerate(queries):
        order = list(stores) if number % 2 == 0 else list(stores)[::-1]
        for name in order:
            blas_threads_for(name, baseline_threads)
            timings = Timings()
            start = time.perf_counter()
            hybrid_search(stores[name], embedder, q, filters, k=10, query_vector=vectors[q], timings=timings)
            stages[name]["total_no_embed"].append((time.perf_counter() - start) * 1000)
            for k in ("bm25", "knn", "fuse", "fetch"):
                stages[name][k].append(getattr(timings, f"{k}_ms"))
    print(f"[before/after] {len(queries)} queries, each on both stores (alternating first)")
    for k in stages["after"]:
        b50, b95 = percentile(stages["before"][k], 50), percentile(stages["before"][k], 95)
        a50, a95 = percentile(stages["after"][k], 50), percentile(stages["after"][k], 95)
        print(f"  {k:>15}: before p50 {b50:7.2f} p95 {b95:7.2f} | after p50 {a50:7.2f} p95 {a95:7.2f} ms"
              f" | after/before p50 {a50 / b50:.2f} p95 {a95 / b95:.2f}")
    if probe_writes:
        write_probe(store, baseline, embedder, vectors, filters, probe_writes, baseline_threads)


def cold_pass(store, baseline, embedder, vectors, filters, baseline_threads: int) -> None:
    """Each distinct question once, with the per-process BM25 caches of ``store`` emptied first
    (as a write leaves them: the per-word postings and the principals' visible sets), so every
    word is read from FTS5 the first time a question has it; the kNN matrix and masks stay warm."""
    if hasattr(store, "_postings"):
        from ingest.store.sqlite_bm25 import Postings, VisibleSets

        store._postings, store._visible = Postings(), VisibleSets()
    stages = {"before": [], "after": []}
    for number, q in enumerate(sorted(vectors)):
        for name in (("after", "before") if number % 2 == 0 else ("before", "after")):
            blas_threads_for(name, baseline_threads)
            timings = Timings()
            hybrid_search(store if name == "after" else baseline, embedder, q, filters,
                          query_vector=vectors[q], timings=timings)
            stages[name].append(timings.bm25_ms)
    b50, b95 = percentile(stages["before"], 50), percentile(stages["before"], 95)
    a50, a95 = percentile(stages["after"], 50), percentile(stages["after"], 95)
    print(f"[cold BM25: each distinct question once, per-word caches emptied first] {len(vectors)} questions")
    print(f"             bm25: before p50 {b50:7.2f} p95 {b95:7.2f} | after p50 {a50:7.2f} p95 {a95:7.2f} ms"
          f" | after/before p50 {a50 / b50:.2f} p95 {a95 / b95:.2f}")


def write_probe(store, baseline, embedder, vectors, filters, writes: int,
                baseline_threads: int) -> None:
    """The first query after a small write (one document's chunks under a new doc id, then its
    delete), on either store; the order alternates per write."""
    records, _ = store.list_documents(Principal.local_operator(), status=DocStatus.INDEXED, limit=1)
    source = records[0]
    chunks = store.revision_chunks(source.doc_id, source.current_revision)
    question = sorted(vectors)[0]
    firsts = {"before": [], "after": []}
    reads_before = getattr(getattr(store, "_vectors", None), "full_reads", None)
    for number in range(writes):
        doc_id = f"{source.doc_id}#probe{number}"
        for step in ("write", "delete"):
            if step == "write":
                copy_document(store, source, chunks, doc_id)
            else:
                store.delete_document(doc_id)
            order = ("after", "before") if number % 2 == 0 else ("before", "after")
            answers = []
            for name in order:
                blas_threads_for(name, baseline_threads)
                s = store if name == "after" else baseline
                start = time.perf_counter()
                hits = hybrid_search(s, embedder, question, filters, query_vector=vectors[question])
                firsts[name].append((time.perf_counter() - start) * 1000)
                answers.append([(h.chunk.chunk_id, h.bm25_rank, h.knn_rank) for h in hits])
            if answers[0] != answers[1]:
                print(f"  DIFFERENT after the {step} of {doc_id}")
    print(f"[first query after a small write] {writes} writes and {writes} deletes of "
          f"{len(chunks)} chunks each")
    for name, values in firsts.items():
        print(f"  {name:>6}: p50 {percentile(values, 50):8.1f} ms   max {max(values):8.1f} ms")
    print(f"  after/before p50 {percentile(firsts['after'], 50) / percentile(firsts['before'], 50):.3f}")
    if reads_before is not None:
        print(f"  after: whole-matrix reads during the probe: {store._vectors.full_reads - reads_before}")


def exact_knn_share(store, embedder, queries: list[str]) -> dict[str, float]:
    """Profile each distinct question's kNN request (the adapter's own body) and count exact
    searches: Lucene's exact path scores every vector the filter admits, HNSW scores far fewer,
    so ``vector_operations_count >= the filter's document count`` means an exact search.
    Prints the count and returns it (``exact_knn`` of ``questions``) with the ratio of vector
    operations to admitted vectors."""
    filters = SearchFilters(principal=Principal("bench", groups=("*",)))
    distinct = sorted(set(queries))
    exact, shares = 0, []
    for q in distinct:
        with store.snapshot():
            body = store.knn_request(embedder.embed([q])[0], filters, 50)
            admitted = int(store.es.count(
                index=store.alias("chunks"),
                query={"bool": {"filter": body["knn"]["filter"]}}).body["count"])
        profile = store.es.search(index=store.alias("chunks"), source=False, profile=True,
                                  **body).body["profile"]
        ops = sum(k.get("vector_operations_count", 0)
                  for shard in profile["shards"] for k in shard.get("dfs", {}).get("knn", []))
        shares.append(ops / max(1, admitted))
        exact += ops >= admitted
    print(f"  exact kNN fallback: {exact}/{len(distinct)} distinct questions "
          f"({100 * exact / len(distinct):.0f} %); vector operations / admitted vectors: "
          f"p50 {percentile(shares, 50):.3f}, max {max(shares):.3f} (target 0 % at 50k)")
    return {"exact_knn": exact, "questions": len(distinct),
            "vector_ops_share_p50": percentile(shares, 50), "vector_ops_share_max": max(shares)}


def es_chunk_count(store) -> int:
    store.init_indexes()
    settle(store)
    return int(store.es.count(index=store.alias("chunks")).body["count"])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=("sqlite", "es"), default="sqlite")
    parser.add_argument("--docs", type=int, default=40)
    parser.add_argument("--target-chunks", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--data-dir", type=Path, help="sqlite: reuse/keep the built index here")
    parser.add_argument("--es-url", help="es: default $ATTEST_ELASTICSEARCH_URL")
    parser.add_argument("--es-prefix", default="attest-bench", help="es: index prefix (kept)")
    parser.add_argument("--rebuild", action="store_true", help="es: drop the prefix's indexes first")
    parser.add_argument("--force-merge", type=int, metavar="N",
                        help="es: force-merge the chunks index to N segments before querying")
    parser.add_argument("--from-sqlite", type=Path, metavar="PATH",
                        help="copy chunks and vectors from this SQLite bench index, no embedding")
    parser.add_argument("--noise", type=float, default=0.0,
                        help="with --from-sqlite: perturb the copies' vectors (see perturb())")
    parser.add_argument("--baseline", type=Path, metavar="FILE",
                        help="sqlite: another version of ingest/store/sqlite.py to compare with, "
                             "back to back on the same index, results checked identical")
    parser.add_argument("--probe-writes", type=int, default=0, metavar="N",
                        help="with --baseline: time the first query after N small writes (and deletes)")
    parser.add_argument("--baseline-blas-threads", type=int, default=os.cpu_count() or 1,
                        help="with --baseline: BLAS threads during the baseline's calls "
                             "(default: one per core, OpenBLAS's own default)")
    args = parser.parse_args()

    embedder = MiniLMEmbedder(cache_size=0)  # the embed stage times the model, not the cache
    if args.backend == "es":
        from ingest.store.elastic import ElasticStore

        url = args.es_url or os.environ.get("ATTEST_ELASTICSEARCH_URL")
        if not url:
            raise SystemExit("--backend es needs --es-url or ATTEST_ELASTICSEARCH_URL")
        # Refresh off while building (one refresh at the end); searches do not depend on it.
        store = ElasticStore(url, prefix=args.es_prefix, refresh=False, request_timeout=300)
        if args.rebuild:
            store.drop_all()
        existing = es_chunk_count(store)
        start = time.perf_counter()
        if existing >= args.target_chunks:
            total, source = existing, "existing index"
        elif existing:
            raise SystemExit(f"{args.es_prefix} holds {existing} chunks (< target): use --rebuild")
        elif args.from_sqlite:
            total = copy_from_sqlite(store, args.from_sqlite, args.target_chunks, args.noise)
            source = f"copied from {args.from_sqlite}" + (
                f", copies' vectors perturbed (noise {args.noise})" if args.noise else "")
        else:
            total = build_index(store, embedder, args.docs, args.target_chunks)
            source = f"{args.docs} contracts of {CREDIT}"
        if args.force_merge:
            merge_start = time.perf_counter()
            store.admin.optimize("chunks", args.force_merge)
            print(f"force-merged the chunks index to <= {args.force_merge} segment(s) "
                  f"in {time.perf_counter() - merge_start:.0f} s")
        segments = store.es.indices.segments(index=store.alias("chunks")).body
        n_segments = sum(
            len(shard["segments"])
            for index in segments["indices"].values()
            for copies in index["shards"].values()
            for shard in copies
        )
        print(f"index: {total} chunks ({source}) in Elasticsearch {url} prefix {args.es_prefix}, "
              f"{n_segments} segments in the chunks index "
              f"(built in {time.perf_counter() - start:.0f} s)")
        run(store, embedder, questions(args.queries), "es")
        exact_knn_share(store, embedder, questions(args.queries))
        store.close()
        return

    with tempfile.TemporaryDirectory() as tmp:
        data_dir = args.data_dir or Path(tmp)
        store = SqliteStore(data_dir / "attest.sqlite3")
        existing = store._db().execute("SELECT count(*) FROM chunks").fetchone()[0]
        start = time.perf_counter()
        if existing >= args.target_chunks:
            total = existing
        elif args.from_sqlite:
            total = copy_from_sqlite(store, args.from_sqlite, args.target_chunks)
        else:
            total = build_index(store, embedder, args.docs, args.target_chunks)
        print(f"index: {total} chunks from {args.docs} contracts of {CREDIT} "
              f"(built in {time.perf_counter() - start:.0f} s)")
        if args.baseline:
            baseline = load_baseline(args.baseline)(store.path)
            compare(store, baseline, embedder, questions(args.queries), args.probe_writes,
                    args.baseline_blas_threads)
            baseline.close()
        else:
            run(store, embedder, questions(args.queries), "sqlite")
        store.close()


if __name__ == "__main__":
    main()
