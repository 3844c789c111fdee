"""The store port: what both backends implement and what the backend contract suite checks.

Every read that serves a user takes a :class:`Principal` and filters by ACL *inside* the query, and
search paths see current revisions only. Writes are idempotent: chunk ids are deterministic, so a
retry overwrites.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ContextManager, Iterable, Iterator, Protocol, Sequence

import numpy as np

from ingest.errors import (
    AttestError,
    ConflictError,
    InternalError,
    NotFoundError,
    UnavailableError,
)
from ingest.schema import PUBLIC_ACL, Chunk, DocumentRecord, Subject, SubjectRecord


class StoreError(AttestError):
    """A store failure with a message fit for a user. Raised as one of the subclasses below
    where the cause is known; a bare ``StoreError`` is an unclassified store failure (the API
    answers 503 with Retry-After, ``service/api/errors.py``; the CLI exits 5)."""

    fallback_family = UnavailableError


class StoreUnavailable(StoreError, UnavailableError):
    """Raised when the backend (SQLite file, Elasticsearch cluster) cannot be reached, is
    locked or refuses the request: transient, retry later."""


class StoreCorrupt(StoreError, InternalError):
    """Raised when a stored record cannot be read back (a broken invariant)."""


class DocumentNotFound(StoreError, NotFoundError):
    """Raised by writes that need the document (``set_acl``) when it does not exist."""


class DocumentDeleted(StoreError, ConflictError):
    """Raised by ``save_document``/``write_revision``/``activate_revision`` when the document
    was deleted (or deleted and created again by someone else) after the writer read it: a
    delete always wins over a running ingest job."""


class EmbeddingModelMismatch(StoreError, ConflictError):
    """Raised when the configured embedding model differs from the one the index was built with."""


# One item of a bulk load (``Store.import_documents``): (record, revision, text, chunks).
ImportItem = tuple[DocumentRecord, str, str, Sequence[Chunk]]


def import_batches(items: Iterable[ImportItem], batch_chunks: int) -> Iterator[list[ImportItem]]:
    """``items`` cut into batches of about ``batch_chunks`` chunks (a batch ends at the first
    item that reaches the bound; a document is never split), in order. Both stores' bulk loads
    make one batch one visibility switch."""
    if batch_chunks < 1:
        raise StoreError(f"batch_chunks must be at least 1, got {batch_chunks}")
    batch: list[ImportItem] = []
    size = 0
    for item in items:
        batch.append(item)
        size += len(item[3])
        if size >= batch_chunks:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is asking. ``unrestricted`` is for the local operator's CLI only, never for the API."""

    name: str
    groups: tuple[str, ...] = ()
    admin: bool = False
    unrestricted: bool = False

    @classmethod
    def local_operator(cls) -> "Principal":
        return cls(name="local", admin=True, unrestricted=True)

    def acl_tokens(self) -> list[str]:
        """The ACL entries that grant this principal access, sorted for stable queries."""
        return sorted({self.name, *self.groups, PUBLIC_ACL})


@dataclass(frozen=True, slots=True)
class SearchFilters:
    principal: Principal
    doc_ids: tuple[str, ...] = ()
    collections: tuple[str, ...] = ()
    entity_ids: tuple[str, ...] = ()  # a chunk matches when it mentions any of them
    relation_keys: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RankedId:
    chunk_id: str
    score: float


@dataclass(slots=True)
class AuditQuery:
    principal: str | None = None
    request_id: str | None = None
    since: str | None = None
    until: str | None = None
    limit: int = 100
    offset: int = 0


class Store(Protocol):
    """The store port. Every guarantee written here is checked by ``tests/test_store_contract.py``
    on both adapters (SQLite and Elasticsearch).

    Common rules:

    * **Visibility.** A search path (``bm25``, ``knn``, ``find_subjects``) returns only records of
      a document's *current* revision, and only for documents one of whose ACL tokens is in
      ``principal.acl_tokens()`` (``unrestricted`` principals skip the ACL, nothing else). The
      ACL is a condition of the query itself, never a filter applied to its results.
    * **Determinism.** The same call on the same index state returns the same list in the same
      order; every order names its tie-break.
    * **Errors.** Failures a user can act on raise :class:`StoreError` (or a subclass) with a
      message fit to show; a backend's transport errors may escape as they are.
    """

    # -- index metadata -------------------------------------------------------------------
    def ensure_embedding_model(self, model: str, dim: int) -> None:
        """Record ``model`` and ``dim`` on first use; a repeat with the same pair is a no-op.
        Raises :class:`EmbeddingModelMismatch` (message mentions "reindex") when the index was
        built with another model or dimension: vectors of two models are never mixed."""

    # -- documents and revisions ----------------------------------------------------------
    def get_document(self, doc_id: str) -> DocumentRecord | None:
        """The document with its revisions (ordered by ``created_at``, then revision) and ACL
        (sorted), or None. Unfiltered: for the ingest pipeline and the local operator only."""

    def visible_document(self, doc_id: str, principal: Principal) -> DocumentRecord | None:
        """Like :meth:`get_document`, but None when the principal may not read the document:
        "missing" and "forbidden" are indistinguishable, so ids do not leak."""

    def list_documents(
        self,
        principal: Principal,
        *,
        status: str | None = None,
        collection: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[DocumentRecord], int]:
        """One page of the documents the principal may read, ordered by ``doc_id``, and the total
        count of matches (ACL, ``status`` and ``collection`` applied; the total counts no
        document the principal cannot read). ``offset`` past the end gives ``([], total)``."""

    def save_document(self, record: DocumentRecord) -> None:
        """Create or update the document row: status, stage, error, title, filename, acl,
        collection, metadata. An existing document keeps its ``current_revision`` (only
        :meth:`activate_revision` moves it). A changed ACL governs every search path at once."""

    def write_revision(
        self,
        doc_id: str,
        revision: str,
        *,
        text: str,
        chunks: Sequence[Chunk],
        subjects: Sequence[SubjectRecord],
        info: dict[str, Any],
        check_held: Callable[[], None] | None = None,
    ) -> None:
        """Write everything of one revision, not yet current: no search sees it until
        :meth:`activate_revision`. Idempotent: writing the same revision again replaces its
        chunks and subjects (deterministic ids), never duplicates them. ``check_held()`` is
        called between batches of chunk writes (at most ~500 chunks apart); whatever it raises
        (``JobLost``: the worker lost its job) stops the write and propagates. SQLite then
        commits nothing of the revision; Elasticsearch keeps the requests already written (not
        current; a new holder writes the same ids and content)."""

    def activate_revision(self, doc_id: str, revision: str) -> None:
        """Atomically make ``revision`` current and the document ``indexed``. From then on the
        previous revision's chunks and subjects come back from no search, and no search ever
        sees a mix of the two revisions. The superseded revision stays readable through
        :meth:`revision_text` / :meth:`revision_chunks`. Raises :class:`StoreError` when the
        revision was never written."""

    def import_documents(
        self,
        items: Iterable[tuple[DocumentRecord, str, str, Sequence[Chunk]]],
        *,
        batch_chunks: int = 10_000,
    ) -> int:
        """Bulk load of **new** documents for loads where a switch per document would dominate
        (``bench/scale.py``; ingestion goes through :meth:`write_revision` and
        :meth:`activate_revision`). ``items`` are (record, revision, text, chunks); each document
        ends ``indexed`` with ``revision`` current (revision status ``current``), its ACL and
        collection governing every search path, its chunks' offsets slicing ``text`` as for
        :meth:`revision_text`. Documents are made current in batches of about
        ``batch_chunks`` chunks, one visibility switch each: a search sees a document wholly or
        not at all. A document id that already exists, or a document the store rejects, raises
        :class:`StoreError` ("bulk write failed") and that existing document is left untouched;
        the batches before stay current, and the failing batch keeps none of its documents:
        none is visible or stored afterwards (SQLite rolls the batch back; Elasticsearch refuses
        a batch with an existing id before writing and deletes what a failed bulk wrote).
        Returns the number of chunks written."""

    def delete_document(self, doc_id: str) -> bool:
        """Remove the document from every path: search, registry, document listing and
        lookup, revision text and chunks. Returns False when it did not exist. The audit log
        keeps its entries (append-only)."""

    def set_acl(self, doc_id: str, acl: Sequence[str]) -> None:
        """Replace the document's ACL; the next search, registry lookup and document read of
        any principal follows it. Raises :class:`StoreError` ("document not found") for an
        unknown ``doc_id``."""

    def revision_text(self, doc_id: str, revision: str) -> str | None:
        """The extracted text of any stored revision, current or superseded (citations of old
        answers must stay checkable), or None. ``text[c.char_start:c.char_end] == c.text`` for
        every chunk ``c`` of that revision. Unfiltered: callers check the ACL first."""

    def revision_chunks(self, doc_id: str, revision: str) -> list[Chunk]:
        """Every chunk of one stored revision, current or not, ordered by ``ordinal``, with
        embeddings; [] for an unknown revision. Unfiltered: callers check the ACL first."""

    # -- search ---------------------------------------------------------------------------
    def bm25(self, query: str, filters: SearchFilters, n: int) -> list[RankedId]:
        """At most ``n`` visible chunks (see the class docstring, plus ``filters``) that contain
        at least one word of ``query``, best first.

        * Words are :func:`ingest.store.common.query_words` (casefolded, stop words removed);
          query syntax (quotes, ``OR``, ``NOT``, ``*``, brackets) is never interpreted, and a
          query with no words returns ``[]``. Any word may match (OR). A backend may score only
          the rarest few words of a long query (the embedded store keeps the 6 with the lowest
          document frequency).
        * ``score`` is a BM25 relevance, higher is better, comparable only within one call
          (scales differ between backends); a chunk holding a rarer query word, or more of
          them, scores higher.
        * Order: score descending, then ``chunk_id`` ascending.
        * ``n <= 0`` returns ``[]``.
        * Known gap: term statistics are index-wide (they count chunks the principal cannot
          read), see the strict xfail in the contract suite.
        """

    def knn(self, vector: np.ndarray, filters: SearchFilters, n: int) -> list[RankedId]:
        """At most ``n`` visible chunks with an embedding, nearest to ``vector`` first.

        * ``score`` is the cosine similarity in [-1, 1] (1.0 = same direction), on every
          backend (Elasticsearch's ``(1 + cos) / 2`` is converted back).
        * Order: score descending, then ``chunk_id`` ascending (ties at the cut are broken by
          ``chunk_id`` too).
        * Exact on the embedded store; approximate (HNSW) on Elasticsearch, where a true
          neighbour may rarely be missed, never a chunk the filters exclude.
        * ``n <= 0`` or a zero vector returns ``[]``.
        """

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]:
        """chunk_id -> Chunk for the ids that exist (unknown ids are left out, duplicates
        collapse), without embeddings. Any revision, unfiltered: call it only with ids that a
        filtered search just returned."""

    # -- subject registry -----------------------------------------------------------------
    def find_subjects(
        self,
        principal: Principal,
        *,
        name: str | None = None,
        type: str | None = None,
        role: str | None = None,
        parent_id: str | None = None,
        relation: str | None = None,
        subject_ids: Sequence[str] = (),
        limit: int = 100,
    ) -> list[Subject]:
        """Registry subjects from the current revisions of documents the principal may read,
        merged across documents (:func:`ingest.store.common.merge_subject_records`), ordered by
        ``subject_id``, at most ``limit``.

        Matching is exact, never fuzzy: ``name`` against the normalised name or an alias
        (``name_key``), ``type`` equal, and ``role`` / ``parent_id`` / ``relation`` must hold
        together on ONE binding (``role_key`` normalised). A superseded revision's subjects
        and bindings never match. ``limit <= 0`` returns ``[]``."""

    # -- audit ----------------------------------------------------------------------------
    def append_audit(self, entry: dict[str, Any]) -> None:
        """Append one entry (``at`` is set to now when absent). The log is append-only: there
        is no way to change or remove an entry through the port or the backend's own API."""

    def list_audit(self, query: AuditQuery) -> list[dict[str, Any]]:
        """Entries matching every given field of ``query`` (``since``/``until`` inclusive on
        ``at``), in append order, each with its ``seq`` (strictly increasing in append order),
        then ``offset``/``limit`` applied."""

    # -- lifecycle ------------------------------------------------------------------------
    def snapshot(self) -> ContextManager[None]:
        """Reads inside one ``with`` block see one consistent state of the index: a revision
        switch (or ACL change) committed by another writer while the block is open is not seen
        by any search in it, so a query's BM25 and kNN halves can never straddle a switch.
        Blocks nest (the outermost one decides); per thread."""

    def ping(self) -> bool:
        """True when the backend answers and can serve reads; never raises."""

    def close(self) -> None:
        """Release this thread's connections; the store must not be used afterwards."""
