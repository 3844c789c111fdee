"""``attest search QUERY``: hybrid BM25 + kNN search fused by reciprocal rank fusion.

The local operator searches as ``Principal.local_operator()`` (unrestricted)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ingest.settings import get_settings
from service.cli.options import CollectionFilter, DocIdFilter
from service.cli.output import print_json


def search_command(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="What to search for.", show_default=False)],
    k: Annotated[int, typer.Option("--k", help="How many hits to return.")] = 10,
    doc_id: DocIdFilter = None,
    collection: CollectionFilter = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the hits as JSON.")] = False,
) -> int:
    """Hybrid BM25 + kNN search fused by RRF."""
    from ingest.embedder import default_embedder
    from ingest.store import open_store
    from ingest.store.port import Principal, SearchFilters
    from service.retrieval import hybrid_search

    settings = get_settings()
    store = open_store(settings)
    filters = SearchFilters(
        principal=Principal.local_operator(),
        doc_ids=tuple(doc_id or ()),
        collections=tuple(collection or ()),
    )
    hits = hybrid_search(
        store,
        default_embedder(),
        query,
        filters,
        k=k,
        depth=settings.retrieval_depth,
        rrf_k=settings.rrf_k,
    )
    if as_json:
        print_json({"hits": [h.to_dict() for h in hits]})
        return 0
    if not hits:
        sys.stdout.write("no hits\n")
    for n, hit in enumerate(hits, start=1):
        c = hit.chunk
        where = f"{c.doc_id}@{c.revision[:12]} lines {c.line_start}-{c.line_end}"
        if c.page is not None:
            where += f" page {c.page}"
        sys.stdout.write(f"{n}. [{hit.score:.4f}] {c.title} — {where}\n")
        snippet = " ".join(c.text.split())
        sys.stdout.write(f"   {snippet[:240]}{'…' if len(snippet) > 240 else ''}\n")
    return 0
