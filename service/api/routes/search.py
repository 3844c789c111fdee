"""/v1/search: hybrid BM25 + kNN retrieval fused by RRF, filtered by ACL inside the store query."""

from __future__ import annotations

import structlog
from fastapi import APIRouter

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, SearchFilters, Store
from service.api.doc_ids import expand_doc_ids
from service.api.deps import Audit, Auditor, CurrentPrincipal, EmbedderDep, SettingsDep, StoreDep
from service.api.schemas import ERROR_RESPONSES, SearchRequest, SearchResponse
from service.retrieval import hybrid_search

log = structlog.get_logger(__name__)
router = APIRouter(prefix="/v1", tags=["search"], responses=ERROR_RESPONSES)


@router.post("/search", response_model=SearchResponse)
def search(
    body: SearchRequest,
    store: StoreDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    principal: CurrentPrincipal,
    audit: Audit,
) -> SearchResponse:
    """Chunks of current revisions the caller may read, best first."""
    return run_search(body, principal, audit, store=store, embedder=embedder, settings=settings)


def run_search(
    body: SearchRequest,
    principal: Principal,
    audit: Auditor,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
) -> SearchResponse:
    """Hybrid search as ``principal``, audited (shared with MCP)."""
    filters = SearchFilters(
        principal=principal,
        doc_ids=tuple(expand_doc_ids(principal, body.filters.doc_ids)),  # bare ids: also your own
        collections=tuple(body.filters.collections),
        entity_ids=tuple(body.filters.entity_ids),
    )
    hits = hybrid_search(
        store,
        embedder,
        body.query,
        filters,
        k=body.k,
        depth=settings.retrieval_depth,
        rrf_k=settings.rrf_k,
    )
    audit.record(
        "search",
        input=body.model_dump(mode="json"),
        hits=[
            {
                "chunk_id": h.chunk.chunk_id,
                "doc_id": h.chunk.doc_id,
                "revision": h.chunk.revision,
                "char_start": h.chunk.char_start,
                "char_end": h.chunk.char_end,
                "score": round(h.score, 8),
            }
            for h in hits
        ],
    )
    log.info("search_served", k=body.k, n_hits=len(hits), query_chars=len(body.query))
    return SearchResponse.model_validate(
        {"request_id": audit.request_id, "hits": [h.to_dict() for h in hits]}
    )
