"""Where a passage is: one model for the location fields every citing type carries.

An evidence item (``EvidenceItem``), a search hit (``SearchHit``), a table cell's evidence
(``TableEvidence``) and a sweep report's citations all point into one revision's stored text
with the same fields. Those types inherit them from :class:`Citation`, so the fields stay flat
in every JSON body (the wire format did not change) and are declared once.
"""

from __future__ import annotations

from pydantic import BaseModel


class Citation(BaseModel):
    """A span of one revision's text: ``revision_text[char_start:char_end]``; lines are 1-based,
    page and section as the chunk that holds the span has them."""

    doc_id: str
    revision: str
    page: int | None
    section: list[str]
    line_start: int
    line_end: int
    char_start: int
    char_end: int


CITATION_FIELDS: tuple[str, ...] = tuple(Citation.model_fields)
