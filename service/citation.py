"""Where a passage is: one model for the location fields every citing type carries.

An evidence item (``EvidenceItem``), a search hit (``SearchHit``), a table cell's evidence
(``TableEvidence``) and a sweep report's citations all point into one revision's stored text
with the same fields. Those types inherit them from :class:`Citation`, so the fields stay flat
in every JSON body (the wire format did not change) and are declared once. A registry binding
(``BindingView``) and a source view (``SourceView``) carry the span alone (:class:`RevisionSpan`).
"""

from __future__ import annotations

from pydantic import BaseModel


class RevisionSpan(BaseModel):
    """A span of one revision's text: ``revision_text[char_start:char_end]``."""

    doc_id: str
    revision: str
    char_start: int
    char_end: int


class Citation(RevisionSpan):
    """A span and where a reader finds it: lines are 1-based, page and section as the chunk that
    holds the span has them."""

    page: int | None
    section: list[str]
    line_start: int
    line_end: int


CITATION_FIELDS: tuple[str, ...] = tuple(Citation.model_fields)
