"""Scale curves of hybrid retrieval: p50, p95 and memory at growing index sizes, on either store.

    .venv/bin/python bench/scale.py --backend sqlite --sizes 10000,50000,200000,1000000
    .venv/bin/python bench/scale.py --backend es --es-url http://127.0.0.1:PORT \
        --sizes 10000,50000,200000,1000000 --keep

One index grows through the sizes (each step adds chunks to the last), and every step runs the
same CUAD clause questions through ``hybrid_search`` (query embedding excluded: the vectors are
computed once), after one timed first query (the first after the growth step's writes). On
SQLite it also times the first query after one small write (a document of CHUNKS_PER_DOC chunks
added, then deleted), which catches the vector matrix up from the store's ``live_log``. The
curve is fitted as ``t = a * N^b`` (least squares on logs) for p50 and p95.

Chunks are synthesised, because the ingest pipeline cannot embed a million chunks in the time
a shared 2-core box gives: a pool of real sentences of the CUAD dev contracts (CUAD v1, The
Atticus Project, CC BY 4.0) is embedded ONCE with the real MiniLM model (cached in
``--cache-dir``); each chunk joins 2 to 5 pool sentences picked by a seeded generator, and its
vector is the normalised sum of theirs plus Gaussian noise (sigma ``--noise`` per dimension), so
no two chunks share a vector (exact duplicates degrade an HNSW graph; see bench/search.py).
Texts are real legal sentences, so BM25 sees CUAD's term statistics. The sum of sentence vectors
stands in for the embedding of the joined text: close, not equal (say so with the figures).

Both stores are loaded with the port's ``import_documents`` (batches of 10,000 chunks, one
visibility switch each): SQLite writes a batch in one transaction; Elasticsearch in ``_bulk``
requests of 2,000, inside ``IndexAdmin.loading()`` (no scheduled refresh and no replica while
loading, restored after). ``--per-document`` writes through ``save_document``,
``write_revision`` and ``activate_revision`` instead (three transactions per document on SQLite). Each Elasticsearch row also reports the per-query visibility read
(``es_visibility_read``: the generation GET, and the documents sweep it replaced), Elasticsearch's
own ``took`` (BM25 + kNN requests of each query) against Attest's retrieval time, and how many
distinct questions' filtered kNN fell back to an exact search (``exact_knn_share`` of
bench/search.py: the profile's vector operations against the vectors the filter admits). The
indexes are dropped at the end unless ``--keep`` (the disk is shared); ``--resume`` grows a kept
index further, ``--force-merge N`` merges the chunks index after each step.

For the 1M point, run a node of its own with more heap and the full JIT (the shared test node's
1 GB heap and C1-only JIT indexed 40-61 chunks/s; 6 GB and C2 indexed about 1,200 here):
``ES_TEST_NODE_STATE=/tmp/scale-node ES_TEST_NODE_JAVA_OPTS="-Xms6g -Xmx6g"
deploy/es-test-node/run.sh start``, and ``run.sh stop`` with the same state dir after.

Memory: SQLite is in this process; reported as the RSS growth over the process before the store
was opened (the model, numpy and Python are excluded) and the file size. Elasticsearch is
another process: the node's RSS (read from /proc with the pid the node reports in
``_nodes/process``; the node must run on this machine), JVM heap used, and the store size.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import hashlib
import json
import math
import os
import re
import tempfile
import time
from pathlib import Path

import numpy as np
from common import CREDIT, cuad_txt_files, percentile
from search import exact_knn_share, questions

import ingest.nlp_model  # noqa: F401
from ingest.embedder import MiniLMEmbedder
from ingest.schema import Chunk, DocumentRecord, chunk_id_for
from ingest.sentences import sentence_spans
from ingest.store.port import Principal, SearchFilters
from service.retrieval import Timings, hybrid_search

CHUNKS_PER_DOC = 40
AT = "2026-01-01T00:00:00.000+00:00"


def rss_mb(pid: int | str = "self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def sentence_pool(size: int, cache_dir: Path, embedder: MiniLMEmbedder) -> tuple[list[str], np.ndarray]:
    """``size`` distinct CUAD sentences (40 to 400 characters, taken round-robin over the
    contracts so that no contract dominates) and their MiniLM vectors, cached on disk."""
    cache = cache_dir / f"cuad-sentence-pool-{size}.npz"
    if cache.exists():
        data = np.load(cache, allow_pickle=False)
        return [str(s) for s in data["texts"]], data["vectors"]
    per_file: list[list[str]] = []
    for path in cuad_txt_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        found = []
        for start, end in sentence_spans(text, 0, len(text)):
            sentence = re.sub(r"\s+", " ", text[start:end]).strip()
            if 40 <= len(sentence) <= 400:
                found.append(sentence)
        per_file.append(found)
    pool: dict[str, None] = {}
    depth = 0
    while len(pool) < size and any(depth < len(f) for f in per_file):
        for found in per_file:
            if depth < len(found):
                pool.setdefault(found[depth], None)
                if len(pool) >= size:
                    break
        depth += 1
    texts = list(pool)
    start = time.perf_counter()
    vectors = embedder.embed(texts).astype(np.float32)
    print(f"embedded a pool of {len(texts)} CUAD sentences in {time.perf_counter() - start:.0f} s")
    cache_dir.mkdir(parents=True, exist_ok=True)
    np.savez(cache, texts=np.array(texts), vectors=vectors)
    return texts, vectors


def synth_document(number: int, texts: list[str], vectors: np.ndarray, noise: float):
    """Document ``number``: CHUNKS_PER_DOC chunks, deterministic in ``number``."""
    rng = np.random.default_rng(number)
    doc_id = f"syn-{number:07d}"
    pieces, chunk_vectors = [], []
    for _ in range(CHUNKS_PER_DOC):
        picks = rng.choice(len(texts), size=int(rng.integers(2, 6)), replace=False)
        pieces.append(" ".join(texts[i] for i in picks))
        chunk_vectors.append(vectors[picks].sum(axis=0))
    matrix = np.asarray(chunk_vectors, dtype=np.float32)
    matrix += rng.normal(0, noise, matrix.shape).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    full_text = "\n\n".join(pieces)
    revision = hashlib.sha256(full_text.encode()).hexdigest()
    chunks, offset = [], 0
    for ordinal, text in enumerate(pieces):
        chunks.append(Chunk(
            chunk_id=chunk_id_for(doc_id, revision, ordinal), doc_id=doc_id, revision=revision,
            ordinal=ordinal, title=f"Synthetic agreement {number}", filename=f"{doc_id}.txt",
            mime="text/plain", page=None, section=[], element_index=ordinal,
            line_start=1 + 2 * ordinal, line_end=1 + 2 * ordinal, char_start=offset,
            char_end=offset + len(text), text=text, acl=["*"], collection="synthetic",
            ingested_at=AT, embedding=matrix[ordinal].tolist(),
        ))
        offset += len(text) + 2
    record = DocumentRecord(
        doc_id=doc_id, status="indexing", stage="indexing", error=None, current_revision=None,
        title=f"Synthetic agreement {number}", filename=f"{doc_id}.txt", acl=["*"],
        collection="synthetic", metadata={}, updated_at=AT,
    )
    return record, revision, full_text, chunks


class QuietLock:
    """Two runs of this bench (one per store) can share a machine: a run measuring holds the
    lock exclusively, and a run building takes it shared for each document, so one store's
    build never runs during the other store's measurement (the builds do overlap)."""

    def __init__(self, path: Path | None) -> None:
        self.file = open(path, "a+") if path else None  # noqa: SIM115 - held for the run

    @contextlib.contextmanager
    def hold(self, exclusive: bool):  # type: ignore[no-untyped-def]
        if self.file is None:
            yield
            return
        fcntl.flock(self.file, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(self.file, fcntl.LOCK_UN)


def grow(store, first_doc: int, last_doc: int, texts, vectors, noise: float, quiet: QuietLock,
         bulk: bool = False, batch_chunks: int = 10_000) -> None:
    if bulk:  # large batches, one visibility switch each (import_documents)
        with quiet.hold(exclusive=False):
            store.import_documents(
                (synth_document(n, texts, vectors, noise) for n in range(first_doc, last_doc)),
                batch_chunks=batch_chunks,
            )
        return
    for number in range(first_doc, last_doc):
        with quiet.hold(exclusive=False):
            _add(store, number, texts, vectors, noise)


def _add(store, number: int, texts, vectors, noise: float) -> None:
    record, revision, text, chunks = synth_document(number, texts, vectors, noise)
    store.save_document(record)
    store.write_revision(record.doc_id, revision, text=text, chunks=chunks, subjects=[],
                         info={"filename": record.filename, "mime": "text/plain", "size": len(text)})
    store.activate_revision(record.doc_id, revision)


def measure(store, embedder, queries: list[str], small_write=None) -> dict[str, float]:
    """``small_write(number)``: add (number >= 0) or delete (None) one document, for the first
    query after a small write."""
    filters = SearchFilters(principal=Principal("bench", groups=("*",)))
    vectors = {q: embedder.embed([q])[0] for q in sorted(set(queries))}
    # The first query after the growth step's writes: SQLite catches its vector matrix up from
    # the live_log (or reads it whole at a process's first query), Elasticsearch searches
    # freshly refreshed segments.
    start = time.perf_counter()
    hybrid_search(store, embedder, queries[0], filters, query_vector=vectors[queries[0]])
    first_ms = (time.perf_counter() - start) * 1000
    for q in queries[1:5]:  # warm: caches, page cache
        hybrid_search(store, embedder, q, filters, query_vector=vectors[q])
    totals, bm25, knn = [], [], []
    # Elasticsearch: its own ``took`` of the BM25 and kNN requests of each query, against
    # Attest's retrieval time (bm25 + knn + fuse + fetch) of the same query.
    took: dict[str, int] = {}
    took_sums, retrieval = [], []
    es = hasattr(store, "on_took")
    if es:
        store.on_took = lambda stage, ms: took.__setitem__(stage, ms)
    for q in queries:
        timings = Timings()
        took.clear()
        start = time.perf_counter()
        hybrid_search(store, embedder, q, filters, k=10, query_vector=vectors[q], timings=timings)
        totals.append((time.perf_counter() - start) * 1000)
        bm25.append(timings.bm25_ms)
        knn.append(timings.knn_ms)
        if es:
            took_sums.append(took.get("bm25", 0) + took.get("knn", 0))
            retrieval.append(timings.bm25_ms + timings.knn_ms + timings.fuse_ms + timings.fetch_ms)
    if es:
        store.on_took = None
    small = {}
    if small_write is not None:
        # One document of CHUNKS_PER_DOC chunks written, then deleted: each followed by a query.
        for step in ("add", "delete"):
            small_write(step)
            start = time.perf_counter()
            hybrid_search(store, embedder, queries[0], filters, query_vector=vectors[queries[0]])
            small[f"first_after_small_{step}_ms"] = (time.perf_counter() - start) * 1000
    took_figures = {}
    if es:
        took_figures = {
            "took_p50": percentile(took_sums, 50), "took_p95": percentile(took_sums, 95),
            "retrieval_over_took": sum(retrieval) / max(1, sum(took_sums)),
        }
    return {
        "first_after_write_ms": first_ms,
        **small,
        "p50": percentile(totals, 50), "p95": percentile(totals, 95),
        "bm25_p50": percentile(bm25, 50), "bm25_p95": percentile(bm25, 95),
        "knn_p50": percentile(knn, 50), "knn_p95": percentile(knn, 95),
        **took_figures,
    }


def es_visibility_read(store, repeats: int = 20) -> dict[str, float]:
    """What a query pays to learn what it may see: the generation GET it sends now, against the
    page-through of every current document that it sent until stop 9 (the documents index
    swept by ``doc_id`` with ``search_after``, pages of 1,000, as ``_load_state`` did)."""
    gets, sweeps = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        store.lease.generation()
        gets.append((time.perf_counter() - start) * 1000)
    for _ in range(max(3, repeats // 4)):
        start = time.perf_counter()
        n = sum(1 for _ in store._sweep("documents", {"bool": {"filter": [{"exists": {"field": "rev_key"}}]}},
                                        "doc_id", source=["doc_id", "current_revision", "acl", "collection"]))
        sweeps.append((time.perf_counter() - start) * 1000)
    return {"generation_get_p50_ms": percentile(gets, 50), "old_documents_sweep_p50_ms": percentile(sweeps, 50),
            "documents": n}


def es_memory(store) -> dict[str, float]:
    nodes = store.es.nodes.info(metric="process").body["nodes"]
    stats = store.es.nodes.stats(metric="jvm").body["nodes"]
    out = {"node_rss_mb": 0.0, "heap_used_mb": 0.0, "heap_max_mb": 0.0}
    for node_id, node in nodes.items():
        out["node_rss_mb"] += rss_mb(node["process"]["id"])
        out["heap_used_mb"] += stats[node_id]["jvm"]["mem"]["heap_used_in_bytes"] / 2**20
        out["heap_max_mb"] += stats[node_id]["jvm"]["mem"]["heap_max_in_bytes"] / 2**20
    # The size of the live segments, not ``_stats/store``: Elasticsearch caches that for 10 s
    # (``index.store.stats_refresh_interval``), so right after a growth step it reported the
    # size of the step before.
    segments = store.es.indices.segments(index=f"{store.prefix}-*").body["indices"]
    out["store_mb"] = sum(
        segment.get("size_in_bytes", 0)
        for index in segments.values()
        for copies in index["shards"].values()
        for copy in copies
        for segment in copy["segments"].values()
    ) / 2**20
    out["chunk_segments"] = store.admin.segment_count("chunks")
    # What kNN wants in the page cache, outside the heap: the float vectors and the HNSW graphs.
    vectors = store.es.indices.stats(index=store.alias("chunks"), metric="dense_vector").body
    off_heap = vectors["_all"]["total"].get("dense_vector", {}).get("off_heap", {})
    out["vector_off_heap_mb"] = off_heap.get("total_size_bytes", 0) / 2**20
    return out


def fit(sizes: list[int], values: list[float]) -> tuple[float, float]:
    """(a, b) of t = a * N^b, least squares on logs."""
    b, log_a = np.polyfit(np.log(sizes), np.log(values), 1)
    return math.exp(log_a), b


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=("sqlite", "es"), default="sqlite")
    parser.add_argument("--sizes", default="10000,50000,200000,1000000",
                        help="comma-separated chunk counts, ascending")
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--pool", type=int, default=6000, help="CUAD sentences embedded once")
    parser.add_argument("--noise", type=float, default=0.02, help="per-dimension sigma on chunk vectors")
    parser.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "attest-scale-bench")
    parser.add_argument("--data-dir", type=Path, help="sqlite: where the index grows (default: a temp dir)")
    parser.add_argument("--es-url", help="es: default $ATTEST_ELASTICSEARCH_URL")
    parser.add_argument("--es-prefix", default="attest-scale", help="es: index prefix (dropped first)")
    parser.add_argument("--shards", type=int, help="es: primaries of the chunks index")
    parser.add_argument("--per-document", action="store_true",
                        help="write each document through the port (save, write, activate) "
                             "instead of import_documents in large batches (es: with refresh "
                             "off and no replica during the load)")
    parser.add_argument("--keep", action="store_true",
                        help="es: keep the indexes at the end (default: drop them, disk is shared)")
    parser.add_argument("--resume", action="store_true",
                        help="es: keep the prefix's indexes and grow from the documents they "
                             "hold (a run with --keep, or one stopped mid-build); sizes they "
                             "already pass are measured once, at their actual size")
    parser.add_argument("--batch-chunks", type=int, default=10_000,
                        help="chunks per import_documents batch (one visibility switch each; "
                             "es: and one refresh; sqlite: one transaction)")
    parser.add_argument("--force-merge", type=int, metavar="N",
                        help="es: force-merge the chunks index to N segments after each "
                             "growth step, before measuring (timed)")
    parser.add_argument("--budget-seconds", type=float, default=0,
                        help="stop before a size whose build would start after this many seconds")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--quiet-lock", type=Path,
                        help="a lock file shared with a concurrent run (see QuietLock)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]

    embedder = MiniLMEmbedder(cache_size=0)
    embedder.embed(["warm up"])
    texts, vectors = sentence_pool(args.pool, args.cache_dir, embedder)
    queries = questions(args.queries)
    baseline_rss = rss_mb()
    tmp = None
    if args.backend == "es":
        from ingest.store.elastic import ElasticStore

        url = args.es_url or os.environ.get("ATTEST_ELASTICSEARCH_URL")
        if not url:
            raise SystemExit("--backend es needs --es-url or ATTEST_ELASTICSEARCH_URL")
        store = ElasticStore(url, prefix=args.es_prefix, refresh=False, shards=args.shards,
                             request_timeout=600)
        if not args.resume:
            store.drop_all()
        store.init_indexes()
    else:
        from ingest.store.sqlite import SqliteStore

        tmp = tempfile.TemporaryDirectory(dir=args.cache_dir.parent)
        data_dir = args.data_dir or Path(tmp.name)
        store = SqliteStore(data_dir / "attest.sqlite3")
    store.ensure_embedding_model(embedder.model_name, embedder.dimension)

    print(f"{args.backend}: chunks synthesised from a pool of {len(texts)} sentences of {CREDIT}, "
          f"{CHUNKS_PER_DOC} chunks per document, noise {args.noise}; {len(queries)} queries per "
          "size; times exclude the query embedding; one run on a shared 2-core machine")
    rows = []
    quiet = QuietLock(args.quiet_lock)
    started = time.perf_counter()
    docs = 0
    if args.backend == "es" and args.resume:
        store.es.indices.refresh(index=f"{store.prefix}-*")
        docs = int(store.es.count(index=store.alias("documents")).body["count"])
        print(f"  resumed: {docs} documents ({docs * CHUNKS_PER_DOC} chunks) already indexed")
        sizes = sorted({max(size, docs * CHUNKS_PER_DOC) for size in sizes})
    for size in sizes:
        if args.budget_seconds and time.perf_counter() - started > args.budget_seconds:
            print(f"stopped before {size}: past the --budget-seconds of {args.budget_seconds:.0f} s")
            break
        build = time.perf_counter()
        target_docs = math.ceil(size / CHUNKS_PER_DOC)
        if args.backend == "es" and not args.per_document:
            with store.admin.loading():
                grow(store, docs, target_docs, texts, vectors, args.noise, quiet, bulk=True,
                     batch_chunks=args.batch_chunks)
        elif not args.per_document:
            grow(store, docs, target_docs, texts, vectors, args.noise, quiet, bulk=True,
                 batch_chunks=args.batch_chunks)
        else:
            grow(store, docs, target_docs, texts, vectors, args.noise, quiet)
        added = (target_docs - docs) * CHUNKS_PER_DOC
        docs = target_docs
        if args.backend == "es":
            store.es.indices.refresh(index=f"{store.prefix}-*")
        build_s = time.perf_counter() - build
        merge = {}
        if args.backend == "es" and args.force_merge:
            merge_start = time.perf_counter()
            store.admin.optimize("chunks", args.force_merge)
            merge["force_merge_s"] = round(time.perf_counter() - merge_start, 1)
        print(f"  built {added} chunks in {build_s:.0f} s ({added / max(build_s, 1e-9):.0f} chunks/s)",
              flush=True)
        probe = None
        if args.backend == "sqlite":
            def probe(step: str, number: int = 10_000_000 + docs) -> None:
                if step == "add":
                    _add(store, number, texts, vectors, args.noise)
                else:
                    store.delete_document(f"syn-{number:07d}")
        with quiet.hold(exclusive=True):
            figures = measure(store, embedder, queries, probe)
        row = {"chunks": docs * CHUNKS_PER_DOC, "build_s": round(build_s, 1), **merge, **figures,
               "load_avg_1m": os.getloadavg()[0]}
        if args.backend == "es":
            row.update(es_memory(store))
            row.update(es_visibility_read(store))
            with quiet.hold(exclusive=True):
                row.update(exact_knn_share(store, embedder, queries))
        else:
            row["rss_growth_mb"] = rss_mb() - baseline_rss
            row["file_mb"] = sum(f.stat().st_size for f in Path(store.path).parent.glob("attest.sqlite3*")) / 2**20
        rows.append(row)
        print("  " + "  ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}" for k, v in row.items()),
              flush=True)
    if len(rows) >= 2:
        ns = [r["chunks"] for r in rows]
        keys = ["p50", "p95", "bm25_p95", "knn_p95"]
        if args.backend == "es":
            keys += ["took_p50", "took_p95", "node_rss_mb", "store_mb", "vector_off_heap_mb"]
        else:
            keys += ["rss_growth_mb", "file_mb"]
        for key in keys:
            a, b = fit(ns, [max(r[key], 0.01) for r in rows])
            unit = "MB" if key.endswith("_mb") else "ms"
            print(f"  fit {key}: {a:.3g} * N^{b:.2f} {unit}  (at 1M: {a * 1e6 ** b:.0f} {unit})")
    if args.json:
        args.json.write_text(json.dumps({"backend": args.backend, "rows": rows}, indent=2))
    if args.backend == "es" and not args.keep:
        store.drop_all()
    store.close()
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
