"""The store port: what both backends implement and what the backend contract suite checks.

Every read that serves a user takes a :class:`Principal` and filters by ACL *inside* the query, and
search paths see current revisions only. Writes are idempotent: chunk ids are deterministic, so a
retry overwrites.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ContextManager, Protocol, Sequence

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
    where the cause is known; a bare ``StoreError`` is treated as internal."""


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


@dataclass(slots=True)
class IndexMeta:
    embedding_model: str
    embedding_dim: int
    extra: dict[str, Any] = field(default_factory=dict)


class Store(Protocol):
    # -- index metadata -------------------------------------------------------------------
    def ensure_embedding_model(self, model: str, dim: int) -> None:
        """Record the model on first use; raise EmbeddingModelMismatch when it differs."""

    # -- documents and revisions ----------------------------------------------------------
    def get_document(self, doc_id: str) -> DocumentRecord | None:
        """Unfiltered: for the ingest pipeline and the local operator only."""

    def visible_document(self, doc_id: str, principal: Principal) -> DocumentRecord | None: ...

    def list_documents(
        self,
        principal: Principal,
        *,
        status: str | None = None,
        collection: str | None = None,
        offset: int = 0,
        limit: int = 50,
    ) -> tuple[list[DocumentRecord], int]: ...

    def save_document(self, record: DocumentRecord) -> None:
        """Create or update the document row: status, stage, error, title, acl, collection."""

    def write_revision(
        self,
        doc_id: str,
        revision: str,
        *,
        text: str,
        chunks: Sequence[Chunk],
        subjects: Sequence[SubjectRecord],
        info: dict[str, Any],
    ) -> None:
        """Write everything of one revision, not yet current. Idempotent."""

    def activate_revision(self, doc_id: str, revision: str) -> None:
        """Atomically make ``revision`` current and the document ``indexed``. From then on the
        previous revision's chunks and subjects come back from no search."""

    def delete_document(self, doc_id: str) -> bool:
        """Remove the document from every search path. Returns False when it did not exist."""

    def set_acl(self, doc_id: str, acl: Sequence[str]) -> None: ...

    def revision_text(self, doc_id: str, revision: str) -> str | None:
        """Any stored revision, current or not: citations of old answers must stay checkable."""

    def revision_chunks(self, doc_id: str, revision: str) -> list[Chunk]: ...

    # -- search ---------------------------------------------------------------------------
    def bm25(self, query: str, filters: SearchFilters, n: int) -> list[RankedId]: ...

    def knn(self, vector: np.ndarray, filters: SearchFilters, n: int) -> list[RankedId]: ...

    def chunks_by_id(self, chunk_ids: Sequence[str]) -> dict[str, Chunk]: ...

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
    ) -> list[Subject]: ...

    # -- audit ----------------------------------------------------------------------------
    def append_audit(self, entry: dict[str, Any]) -> None: ...

    def list_audit(self, query: AuditQuery) -> list[dict[str, Any]]: ...

    # -- lifecycle ------------------------------------------------------------------------
    def snapshot(self) -> ContextManager[None]:
        """Reads inside one ``with`` block see one consistent state of the index, so a query's
        BM25 and kNN halves can never straddle a revision switch."""

    def ping(self) -> bool: ...

    def close(self) -> None: ...
