"""EVIDENCE_RETRIEVAL and EVIDENCE_EXTRACTION.

Retrieval reuses :func:`service.retrieval.hybrid_search` (BM25 + kNN, filtered inside the store
by ACL, current revision, documents and the candidates' entity ids; fused by RRF). Extraction cuts
the retrieved chunks into sentence-level units using the sentence spans stored at ingest, so
every unit's offsets are offsets into the revision text and ``excerpt`` is exactly
``revision_text[char_start:char_end]``.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ingest.deadline import check_deadline
from ingest.embedder import Embedder
from ingest.schema import Chunk, RelationMention
from ingest.sentences import sentence_spans
from ingest.store.port import Principal, SearchFilters, Store
from ingest.text import trim_span
from service.evidence.gate import Candidate
from service.evidence.models import Scope
from service.evidence.subject_class import SubjectClass
from service.retrieval import Hit, hybrid_search

CHUNKS_PER_SUBJECT = 12
_WORD = re.compile(r"\w+")


@dataclass(frozen=True, slots=True)
class Unit:
    """A sentence (or clause) of a retrieved chunk: the output of EVIDENCE_EXTRACTION. Offsets
    index the revision text; ``excerpt == revision_text[char_start:char_end]``."""

    chunk: Chunk
    char_start: int
    char_end: int
    excerpt: str
    line_start: int
    line_end: int
    entity_ids: tuple[str, ...]
    relations: tuple[RelationMention, ...]
    chunk_score: float
    chunk_rank: int

    @property
    def doc_id(self) -> str:
        return self.chunk.doc_id

    @property
    def sort_key(self) -> tuple[str, str, int, int]:
        return (self.chunk.doc_id, self.chunk.revision, self.char_start, self.char_end)


@dataclass(slots=True)
class Search:
    query: str
    filters: SearchFilters
    k: int


def plan_searches(
    sc: SubjectClass,
    candidates: Sequence[Candidate],
    principal: Principal,
    scope: Scope | None,
    attribute_description: str,
    question: str,
) -> list[Search]:
    """One search per agreement (restricted to its own document), one search for all entity
    candidates together (restricted to chunks that mention them)."""
    query = f"{attribute_description} {question}".strip()
    collections = tuple(scope.collections) if scope else ()
    scope_docs = set(scope.doc_ids) if scope and scope.doc_ids else None
    searches: list[Search] = []
    entity_ids: set[str] = set()
    for c in candidates:
        if c.subject.type == "agreement":
            docs = tuple(d for d in c.doc_ids if scope_docs is None or d in scope_docs)
            if not docs:
                continue
            # The agreement's document is its scope: its clauses rarely name the agreement, so
            # an entity filter on the agreement id would drop the very clause asked about. A
            # focus party ("X's obligations") does filter: the clause must mention X.
            ids = (c.focus.subject_id,) if c.focus is not None else ()
            searches.append(
                Search(query, SearchFilters(principal, doc_ids=docs, collections=collections, entity_ids=ids), CHUNKS_PER_SUBJECT)
            )
        else:
            entity_ids.add(c.subject_id)
    if entity_ids:
        docs = tuple(sorted(scope_docs)) if scope_docs else ()
        searches.append(
            Search(
                query,
                SearchFilters(principal, doc_ids=docs, collections=collections, entity_ids=tuple(sorted(entity_ids))),
                CHUNKS_PER_SUBJECT,
            )
        )
    return searches


def retrieve(
    store: Store,
    embedder: Embedder,
    searches: Sequence[Search],
    *,
    depth: int,
    rrf_k: int,
) -> list[Hit]:
    """Run the searches; a chunk found twice keeps its best score. Ordered by score, then chunk
    id, so ties never depend on dict order."""
    if not searches:
        return []
    vector = embedder.embed([searches[0].query])[0]  # every search asks the same text
    best: dict[str, Hit] = {}
    for search in searches:
        for hit in hybrid_search(
            store, embedder, search.query, search.filters, k=search.k, depth=depth, rrf_k=rrf_k,
            query_vector=vector,
        ):
            kept = best.get(hit.chunk.chunk_id)
            if kept is None or hit.score > kept.score:
                best[hit.chunk.chunk_id] = hit
    return sorted(best.values(), key=lambda h: (-h.score, h.chunk.chunk_id))


OPENING_CHUNKS = 2


def opening_hits(
    store: Store, principal: Principal, candidates: Sequence[Candidate], known: set[str]
) -> list[Hit]:
    """The first chunks of each candidate agreement's current revision. Dates of an agreement are
    stated in its opening, which a search for "effective date" ranks poorly against the many
    later clauses that mention the phrase. Visibility is re-checked for the principal and only
    the current revision is read."""
    out: list[Hit] = []
    for c in sorted(candidates, key=lambda c: c.subject_id):
        if c.subject.type != "agreement":
            continue
        for doc_id in c.doc_ids:
            doc = store.visible_document(doc_id, principal)
            if doc is None or doc.current_revision is None:
                continue
            for chunk in store.revision_chunks(doc_id, doc.current_revision)[:OPENING_CHUNKS]:
                if chunk.chunk_id not in known:
                    known.add(chunk.chunk_id)
                    out.append(Hit(chunk, 0.0, None, None))
    return out


def _line_of(chunk: Chunk, offset: int) -> int:
    return chunk.line_start + chunk.text.count("\n", 0, offset - chunk.char_start)


_PARAGRAPH = re.compile(r"\n[ \t]*\n\s*")
_CLAUSE = re.compile(r";\s+")
LONG_UNIT = 700  # characters; longer sentences are cut at semicolons into clauses


def _refine(chunk: Chunk, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Stored sentence spans, cut where a sentence cannot continue: at a blank line (a statistical
    sentence splitter happily runs across paragraphs) and, for very long sentences, at
    semicolons (clause level). Offsets stay offsets into the revision text; edges are trimmed."""
    out: list[tuple[int, int]] = []
    text, base = chunk.text, chunk.char_start
    for start, end in spans:
        start, end = max(start, base), min(end, chunk.char_end)
        pieces: list[tuple[int, int]] = []
        cursor = start
        for m in _PARAGRAPH.finditer(text, start - base, end - base):
            pieces.append((cursor, base + m.start()))
            cursor = base + m.end()
        pieces.append((cursor, end))
        for p_start, p_end in pieces:
            if p_end - p_start > LONG_UNIT:
                cursor = p_start
                for m in _CLAUSE.finditer(text, p_start - base, p_end - base):
                    out.append((cursor, base + m.start() + 1))
                    cursor = base + m.end()
                out.append((cursor, p_end))
            else:
                out.append((p_start, p_end))
    trimmed = []
    for span in out:
        s, e = trim_span(text, *span, base=base)
        if s < e:
            trimmed.append((s, e))
    return trimmed


def extract_units(hits: Sequence[Hit]) -> list[Unit]:
    """Sentence units of the retrieved chunks, de-duplicated by location, in retrieval order."""
    units: dict[tuple[str, str, int, int], Unit] = {}
    for rank, hit in enumerate(hits, start=1):
        chunk = hit.chunk
        spans = [(s["char_start"], s["char_end"], list(s["entity_ids"])) for s in chunk.sentences]
        if not spans:
            # No stored sentences: split the chunk's own text, shifting by its stored offset.
            spans = []
            for s, e in sentence_spans(chunk.text, 0, len(chunk.text)):
                start, end = chunk.char_start + s, chunk.char_start + e
                ids = sorted({m["entity_id"] for m in chunk.entities if m["char_start"] < end and start < m["char_end"]})
                spans.append((start, end, ids))
        for start, end in _refine(chunk, [(s, e) for s, e, _ in spans]):
            ids = sorted({m["entity_id"] for m in chunk.entities if m["char_start"] < end and start < m["char_end"]})
            excerpt = chunk.text[start - chunk.char_start : end - chunk.char_start]
            if len(_WORD.findall(excerpt)) < 3:
                continue  # headings and enumerators ("1.", "ARTICLE II") state nothing
            key = (chunk.doc_id, chunk.revision, start, end)
            if key in units:
                continue
            relations = [r for r in chunk.relations if r["char_start"] < end and start < r["char_end"]]
            units[key] = Unit(
                chunk=chunk,
                char_start=start,
                char_end=end,
                excerpt=excerpt,
                line_start=_line_of(chunk, start),
                line_end=_line_of(chunk, max(start, end - 1)),
                entity_ids=tuple(ids),
                relations=tuple(relations),
                chunk_score=hit.score,
                chunk_rank=rank,
            )
    return list(units.values())


EMBED_CHARS = 600  # about 128 word pieces: enough to place a clause, a fraction of the cost
UNIT_CACHE_SIZE = 20_000  # unit vectors kept per process (about 30 MB at 384 dimensions)
_unit_cache: OrderedDict[tuple[str, str, str, int, int], np.ndarray] = OrderedDict()
_unit_cache_lock = threading.Lock()


def embed_units(embedder: Embedder, units: Sequence[Unit]) -> np.ndarray:
    """Unit vectors. A unit is immutable text of an immutable revision, so its vector is cached
    per process and model (bounded, least recently used out): a table over several attributes,
    or the same question asked again, embeds each sentence once."""
    out = np.zeros((len(units), embedder.dimension), dtype=np.float32)
    if not units:
        return out
    keys = [(embedder.model_name, u.chunk.doc_id, u.chunk.revision, u.char_start, u.char_end) for u in units]
    missing: list[int] = []
    with _unit_cache_lock:
        for i, key in enumerate(keys):
            vector = _unit_cache.get(key)
            if vector is None:
                missing.append(i)
            else:
                _unit_cache.move_to_end(key)
                out[i] = vector
    if missing:
        check_deadline()  # an abandoned request embeds no more sentences
        vectors = embedder.embed([units[i].excerpt[:EMBED_CHARS] for i in missing])
        with _unit_cache_lock:
            for i, vector in zip(missing, vectors):
                out[i] = vector
                _unit_cache[keys[i]] = vector
            while len(_unit_cache) > UNIT_CACHE_SIZE:
                _unit_cache.popitem(last=False)
    return out
