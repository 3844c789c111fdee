"""Hybrid retrieval: BM25 top-N and kNN top-N, both filtered inside the store's query, fused by
reciprocal rank fusion on the client side (so both backends fuse identically)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from ingest.embedder import Embedder
from ingest.schema import Chunk
from ingest.deadline import check_deadline
from ingest.store.port import RankedId, SearchFilters, Store


@dataclass(slots=True)
class FusedHit:
    chunk_id: str
    score: float
    bm25_rank: int | None
    knn_rank: int | None


@dataclass(slots=True)
class Hit:
    chunk: Chunk
    score: float
    bm25_rank: int | None
    knn_rank: int | None

    def to_dict(self) -> dict[str, Any]:
        c = self.chunk
        return {
            "chunk_id": c.chunk_id,
            "doc_id": c.doc_id,
            "revision": c.revision,
            "title": c.title,
            "page": c.page,
            "section": c.section,
            "line_start": c.line_start,
            "line_end": c.line_end,
            "char_start": c.char_start,
            "char_end": c.char_end,
            "text": c.text,
            "score": round(self.score, 8),
            "bm25_rank": self.bm25_rank,
            "knn_rank": self.knn_rank,
        }


@dataclass(slots=True)
class Timings:
    embed_ms: float = 0.0
    bm25_ms: float = 0.0
    knn_ms: float = 0.0
    fuse_ms: float = 0.0
    fetch_ms: float = 0.0
    extra: dict[str, float] = field(default_factory=dict)


def rrf_fuse(
    bm25: Sequence[RankedId], knn: Sequence[RankedId], *, k: int = 60
) -> list[FusedHit]:
    """score = sum 1/(k + rank) over the lists a chunk appears in (ranks are 1-based). A chunk
    appearing twice in one list counts once, at its best rank. Ties break on chunk id."""
    ranks: dict[str, list[int | None]] = {}
    for position, lists in ((0, bm25), (1, knn)):
        for rank, item in enumerate(lists, start=1):
            slot = ranks.setdefault(item.chunk_id, [None, None])
            if slot[position] is None:
                slot[position] = rank
    fused = [
        FusedHit(
            chunk_id=chunk_id,
            score=sum(1.0 / (k + r) for r in pair if r is not None),
            bm25_rank=pair[0],
            knn_rank=pair[1],
        )
        for chunk_id, pair in ranks.items()
    ]
    fused.sort(key=lambda h: (-h.score, h.chunk_id))
    return fused


def hybrid_search(
    store: Store,
    embedder: Embedder,
    query: str,
    filters: SearchFilters,
    *,
    k: int = 10,
    depth: int = 50,
    rrf_k: int = 60,
    query_vector: np.ndarray | None = None,
    timings: Timings | None = None,
) -> list[Hit]:
    timings = timings if timings is not None else Timings()
    check_deadline()  # an abandoned request embeds and searches no more
    start = time.perf_counter()
    if query_vector is None:
        query_vector = embedder.embed([query])[0]
    timings.embed_ms = (time.perf_counter() - start) * 1000
    with store.snapshot():
        start = time.perf_counter()
        prepare_knn = getattr(store, "prepare_knn", None)
        if prepare_knn is not None:
            # Both stores start the kNN half in a helper thread while BM25 runs here (SQLite
            # scores the matrix, Elasticsearch sends the request), inside this snapshot.
            prepare_knn(query_vector, filters, depth)
        lexical = store.bm25(query, filters, depth)
        timings.bm25_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        semantic = store.knn(query_vector, filters, depth)
        timings.knn_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        fused = rrf_fuse(lexical, semantic, k=rrf_k)[:k]
        timings.fuse_ms = (time.perf_counter() - start) * 1000
        start = time.perf_counter()
        chunks = store.chunks_by_id([h.chunk_id for h in fused])
        timings.fetch_ms = (time.perf_counter() - start) * 1000
    return [
        Hit(chunks[h.chunk_id], h.score, h.bm25_rank, h.knn_rank)
        for h in fused
        if h.chunk_id in chunks
    ]
