"""Re-resolving a citation against the stored revision text.

Used by sweeps (every citation of a run and of its baseline) and by ``attest audit revalidate``
(every citation in the audit log). A citation is ``doc_id``, ``revision``, ``char_start``,
``char_end`` and the ``excerpt`` that was shown; it resolves when the revision text is still
stored, the principal may still read the document, and ``text[char_start:char_end]`` is exactly
the excerpt.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from ingest.statuses import CitationStatus
from ingest.store.port import Principal, Store

@dataclass(frozen=True, slots=True)
class CitationCheck:
    doc_id: str
    revision: str
    char_start: int
    char_end: int
    status: CitationStatus
    current: bool | None  # is the cited revision still the document's current one (None: unknown)
    current_revision: str | None
    stored_excerpt: str | None  # what the stored text holds at the span, when it differs

    @property
    def valid(self) -> bool:
        return self.status == CitationStatus.VALID

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def citation_key(item: dict[str, Any]) -> tuple[str, str, int, int]:
    return (item["doc_id"], item["revision"], int(item["char_start"]), int(item["char_end"]))


class CitationResolver:
    """Re-resolves citations as one principal, caching the revision texts and documents it
    reads (a sweep cites the same few revisions many times)."""

    def __init__(self, store: Store, principal: Principal) -> None:
        self.store = store
        self.principal = principal
        self._texts: dict[tuple[str, str], str | None] = {}
        self._docs: dict[str, Any] = {}

    def _document(self, doc_id: str) -> tuple[bool, Any]:
        """(exists, the record visible to the principal or None)."""
        if doc_id not in self._docs:
            visible = self.store.visible_document(doc_id, self.principal)
            exists = visible is not None or self.store.get_document(doc_id) is not None
            self._docs[doc_id] = (exists, visible)
        return self._docs[doc_id]

    def _text(self, doc_id: str, revision: str) -> str | None:
        key = (doc_id, revision)
        if key not in self._texts:
            self._texts[key] = self.store.revision_text(doc_id, revision)
        return self._texts[key]

    def check(self, item: dict[str, Any]) -> CitationCheck:
        doc_id, revision, start, end = citation_key(item)
        exists, visible = self._document(doc_id)

        def result(status: CitationStatus, current_revision: str | None = None, stored: str | None = None) -> CitationCheck:
            current = None if current_revision is None else current_revision == revision
            return CitationCheck(doc_id, revision, start, end, status, current, current_revision, stored)

        if not exists:
            return result(CitationStatus.DOCUMENT_DELETED)
        if visible is None:
            # The principal saw this document when the citation was made; say that access is
            # gone, and nothing else about the document (not its current revision).
            return result(CitationStatus.NOT_VISIBLE)
        text = self._text(doc_id, revision)
        if text is None:
            return result(CitationStatus.REVISION_MISSING, visible.current_revision)
        stored = text[start:end]
        if stored != item["excerpt"]:
            return result(CitationStatus.EXCERPT_MISMATCH, visible.current_revision, stored)
        return result(CitationStatus.VALID, visible.current_revision)
