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
from functools import lru_cache
from collections import OrderedDict
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ingest.deadline import check_deadline
from ingest.embedder import Embedder
from ingest.schema import Chunk, RelationMention
from ingest.store.common import stopwords
from ingest.store.port import Principal, SearchFilters, Store
from ingest.units import EMBED_CHARS, chunk_units, unpack_vectors
from service.evidence.data import load
from service.evidence.gate import Candidate
from service.evidence.models import Scope
from service.evidence.subject_class import SubjectClass
from service.retrieval import Hit, hybrid_search

CHUNKS_PER_SUBJECT = 30


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
    position: int = -1  # index in the chunk's stored units (its stored vector's row); -1: none

    @property
    def doc_id(self) -> str:
        return self.chunk.doc_id

    @property
    def sort_key(self) -> tuple[str, str, int, int]:
        return (self.chunk.doc_id, self.chunk.revision, self.char_start, self.char_end)


@dataclass(slots=True)
class Search:
    query: str  # what the query vector is made of (attribute description and question)
    filters: SearchFilters
    k: int
    words: str = ""  # the BM25 words (``bm25_words``); empty: ``query``


_WORD = re.compile(r"[^\W_]+")


@lru_cache(maxsize=1)
def _search_words() -> tuple[int, int, frozenset[str]]:
    raw = load("relevance.json")["search"]
    generic = frozenset(w.casefold() for w in raw["generic_words"]) | stopwords()
    return int(raw["max_words"]), int(raw["question_words"]), generic


def generic_words() -> frozenset[str]:
    """Stop words and the words nearly every contract chunk holds, never searched for."""
    return _search_words()[2]


def bm25_words(question: str, attribute_words: str) -> str:
    """The BM25 words of an evidence search: the question's own content words first (at most
    ``question_words``), then the attribute's search words, at most ``max_words`` in all, without
    stop words and the words nearly every contract chunk holds ("agreement", "shall"). Inside one
    document those add nothing to the ranking, and on SQLite each word of a document-filtered
    query costs a seek per chunk of the document in the word's posting list, so a long query
    (description + question: 15 to 20 words) cost seconds at 50k chunks."""
    limit, from_question, generic = _search_words()
    ordered: dict[str, None] = {}
    for text, cap in ((question, from_question), (attribute_words, limit)):
        taken = 0
        for word in (w.casefold() for w in _WORD.findall(text)):
            if len(ordered) >= limit or taken >= cap:
                break
            if len(word) > 2 and word not in generic and word not in ordered:
                ordered[word] = None
                taken += 1
    return " ".join(ordered)


def plan_searches(
    sc: SubjectClass,
    candidates: Sequence[Candidate],
    principal: Principal,
    scope: Scope | None,
    attribute_description: str,
    question: str,
    attribute_search_words: str = "",
) -> list[Search]:
    """One search per agreement (restricted to its own document), one search for all entity
    candidates together (restricted to chunks that mention them)."""
    query = f"{attribute_description} {question}".strip()
    words = bm25_words(question, attribute_search_words or attribute_description)
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
                Search(query, SearchFilters(principal, doc_ids=docs, collections=collections, entity_ids=ids), CHUNKS_PER_SUBJECT, words)
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
                words,
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
            store, embedder, search.words or search.query, search.filters, k=search.k, depth=depth, rrf_k=rrf_k,
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


def extract_units(hits: Sequence[Hit]) -> list[Unit]:
    """Sentence units of the retrieved chunks (as ingest stored them, see ``ingest/units.py``),
    de-duplicated by location, in retrieval order."""
    units: dict[tuple[str, str, int, int], Unit] = {}
    for rank, hit in enumerate(hits, start=1):
        chunk = hit.chunk
        for position, (start, end) in enumerate(chunk_units(chunk)):
            key = (chunk.doc_id, chunk.revision, start, end)
            if key in units:
                continue
            ids = sorted({m["entity_id"] for m in chunk.entities if m["char_start"] < end and start < m["char_end"]})
            relations = [r for r in chunk.relations if r["char_start"] < end and start < r["char_end"]]
            units[key] = Unit(
                chunk=chunk,
                char_start=start,
                char_end=end,
                excerpt=chunk.text[start - chunk.char_start : end - chunk.char_start],
                line_start=_line_of(chunk, start),
                line_end=_line_of(chunk, max(start, end - 1)),
                entity_ids=tuple(ids),
                relations=tuple(relations),
                chunk_score=hit.score,
                chunk_rank=rank,
                position=position,
            )
    return list(units.values())


def stored_vectors(units: Sequence[Unit], dimension: int) -> list[np.ndarray | None]:
    """Each unit's vector as ingest stored it, or None (an older index, or a unit past the stored
    cap). The stored rows follow the chunk's stored units, so a unit cut at query time (a chunk
    without stored units) has none. Each chunk's blob is decoded once per call."""
    decoded: dict[int, np.ndarray | None] = {}
    out: list[np.ndarray | None] = []
    for unit in units:
        chunk = unit.chunk
        if chunk.units is None or unit.position < 0:
            out.append(None)
            continue
        if id(chunk) not in decoded:
            decoded[id(chunk)] = unpack_vectors(chunk.unit_vectors, dimension)
        rows = decoded[id(chunk)]
        out.append(rows[unit.position] if rows is not None and unit.position < len(rows) else None)
    return out


UNIT_CACHE_SIZE = 20_000  # query-time unit vectors kept per process (about 30 MB at 384 dimensions)
_unit_cache: OrderedDict[tuple[str, str, str, int, int], np.ndarray] = OrderedDict()
_unit_cache_lock = threading.Lock()


def embed_units(embedder: Embedder, units: Sequence[Unit]) -> np.ndarray:
    """Unit vectors: read from the store where ingest stored them; otherwise (an index from
    before sentence vectors were stored) computed now, and cached per process and model (bounded,
    least recently used out), as a unit is immutable text of an immutable revision."""
    out = np.zeros((len(units), embedder.dimension), dtype=np.float32)
    if not units:
        return out
    missing: list[int] = []
    for i, vector in enumerate(stored_vectors(units, embedder.dimension)):
        if vector is None:
            missing.append(i)
        else:
            out[i] = vector
    if not missing:
        return out
    keys = {i: (embedder.model_name, units[i].chunk.doc_id, units[i].chunk.revision, units[i].char_start, units[i].char_end) for i in missing}
    to_embed: list[int] = []
    with _unit_cache_lock:
        for i in missing:
            vector = _unit_cache.get(keys[i])
            if vector is None:
                to_embed.append(i)
            else:
                _unit_cache.move_to_end(keys[i])
                out[i] = vector
    if to_embed:
        check_deadline()  # an abandoned request embeds no more sentences
        vectors = embedder.embed([units[i].excerpt[:EMBED_CHARS] for i in to_embed])
        with _unit_cache_lock:
            for i, vector in zip(to_embed, vectors):
                out[i] = vector
                _unit_cache[keys[i]] = vector
            while len(_unit_cache) > UNIT_CACHE_SIZE:
                _unit_cache.popitem(last=False)
    return out
