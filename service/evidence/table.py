"""The class-level review grid: one row per subject of a class (agreements), one cell per asked
attribute, each cell citing its clause or saying "not stated" with ``sufficient: false``.

    build_table(request, principal, *, store, embedder, settings) -> ReviewTable

Rows are every agreement visible to the principal (the registry look-up is ACL-filtered inside
the store), ordered by (name, subject id), paginated. A cell is computed by the evidence
machine's own retrieval, extraction and verification step (``collect.collect``) with the
agreement as the only candidate, so a cell and an ``attest ask`` answer never differ.

Cost is bounded: at most ``MAX_PAGE_SIZE`` rows times ``MAX_ATTRIBUTES`` attributes per call,
one hybrid search restricted to one document per cell; the class itself is capped at
``MAX_CLASS_SUBJECTS`` registry records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ingest.embedder import Embedder
from ingest.schema import Subject
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.citation import CITATION_FIELDS
from service.evidence import conclude, gate
from service.evidence.collect import collect
from service.evidence.data import cues
from service.evidence.models import EvidenceItem, Scope
from service.evidence.subject_class import SubjectClass

MAX_PAGE_SIZE = 100
MAX_ATTRIBUTES = 8
MAX_CLASS_SUBJECTS = 5000
SUPPORTED_TYPES = ("agreement",)
NOT_STATED = "not stated"
# A cell embeds fewer units than an answer: its attribute is known, and units carrying the
# attribute's text cue are ranked first, so the clause is nearly always among them.
CELL_EMBED_CAP = 12


class TableRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: str = Field("agreement", description="the subject class; only 'agreement' today")
    attributes: list[str] = Field(..., min_length=1, max_length=MAX_ATTRIBUTES)
    page: int = Field(1, ge=1, le=100_000)
    page_size: int = Field(50, ge=1, le=MAX_PAGE_SIZE)

    @field_validator("type")
    @classmethod
    def _known_type(cls, value: str) -> str:
        if value not in SUPPORTED_TYPES:
            raise ValueError(f"unsupported type {value!r}; supported: {', '.join(SUPPORTED_TYPES)}")
        return value

    @field_validator("attributes")
    @classmethod
    def _known_attributes(cls, value: list[str]) -> list[str]:
        known = agreement_attributes()
        unknown = [a for a in value if a not in known]
        if unknown:
            raise ValueError(
                f"unknown attribute(s) {', '.join(repr(u) for u in unknown)}; known: {', '.join(known)}"
            )
        return list(dict.fromkeys(value))  # duplicates once, order kept


def agreement_attributes() -> list[str]:
    return sorted(k for k, a in cues().attributes.items() if a.subject == "agreement")


@dataclass(frozen=True, slots=True)
class Cell:
    value: str | None
    sufficient: bool
    evidence: list[dict[str, Any]]
    # For the evidence report of a class-level question (not part of the table's JSON).
    items: tuple[EvidenceItem, ...] = ()
    claim_value: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "sufficient": self.sufficient, "evidence": self.evidence}


@dataclass(frozen=True, slots=True)
class Row:
    subject_id: str
    name: str
    doc_id: str
    title: str
    cells: dict[str, Cell] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "subject_id": self.subject_id, "name": self.name, "doc_id": self.doc_id, "title": self.title,
            "cells": {k: v.to_dict() for k, v in self.cells.items()},
        }


@dataclass(frozen=True, slots=True)
class ReviewTable:
    type: str
    attributes: list[str]
    page: int
    page_size: int
    total: int
    rows: list[Row]

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type, "attributes": list(self.attributes), "page": self.page,
            "page_size": self.page_size, "total": self.total, "rows": [r.to_dict() for r in self.rows],
        }


def class_members(store: Store, principal: Principal, type_: str) -> list[Subject]:
    """Every subject of the class visible to the principal, in a fixed order: name, then id."""
    subjects = store.find_subjects(principal, type=type_, limit=MAX_CLASS_SUBJECTS)
    return sorted(subjects, key=lambda s: (s.name.casefold(), s.subject_id))


def member_candidate(subject: Subject) -> gate.Candidate:
    """A class member as a gate candidate: the class matched explicitly, so the member itself is
    the subject (no fallback, no similar-subject substitute)."""
    return gate.Candidate(subject, "class member", None, None, gate._docs_of(subject))


def member_class(subject: Subject, attribute: str) -> SubjectClass:
    spec = cues().attributes[attribute]
    return SubjectClass(
        understood=True, kind="agreement_attribute", subject_type="agreement",
        agreement_title=str(subject.attributes.get("title") or subject.name), attribute=attribute,
        attribute_label=spec.label, pattern="class_table", source="table",
    )


def _cell_evidence(item: EvidenceItem) -> dict[str, Any]:
    return {
        "id": item.id, **item.model_dump(include=set(CITATION_FIELDS)), "excerpt": item.excerpt,
        "source_url": item.source_url,
    }


def compute_cell(
    subject: Subject,
    attribute: str,
    principal: Principal,
    *,
    store: Store,
    embedder: Embedder,
    settings: Settings,
    period: dict[str, str] | None = None,
) -> Cell:
    """One agreement, one attribute: the machine's evidence step with this agreement as the only
    candidate, concluded the same way (claims, relevance threshold, instruction-like units
    excluded)."""
    sc = member_class(subject, attribute)
    if period:
        sc.period = dict(period)
    candidate = member_candidate(subject)
    spec = cues().attributes[attribute]
    # The cell's question, as an analyst asks it: the attribute's description is compared with
    # each unit anyway, and in the question its many words would dilute the lexical signal.
    question = f"What does the agreement say about its {spec.label}?"
    found = collect(sc, [candidate], principal, Scope(doc_ids=list(candidate.doc_ids)), question,
                    store=store, embedder=embedder, settings=settings, embed_cap=CELL_EMBED_CAP)
    supporting, evidence, failed, rejected = conclude.build_evidence(found.assessed, "", values_first=conclude.value_first(sc))
    claims, conflicts = conclude.build_claims(sc, supporting, evidence)
    sufficient, _, _, _ = conclude.assess(sc, supporting, claims, conflicts, evidence, failed, rejected, [candidate])
    if not sufficient:
        return Cell(NOT_STATED, False, [])
    cited = conclude.resolve_sources(claims[0].evidence_ids, evidence)
    value = claims[0].value
    shown = None
    if value:
        shown = value.get("name") if value.get("type") == "entity" else str(value.get("value"))
    if conflicts:
        # The documents disagree: show every value, choose none (as the evidence report does).
        shown = " | ".join(sorted({str((c.value or {}).get("value")) for c in claims if c.value}))
        value = None
    return Cell(shown or "stated", True, [_cell_evidence(e) for e in cited], tuple(cited), value)


def build_table(
    request: TableRequest, principal: Principal, *, store: Store, embedder: Embedder, settings: Settings,
    on_row: Callable[[int, int], None] | None = None,  # (rows done, rows on the page): CLI progress
) -> ReviewTable:
    with store.snapshot():
        members = class_members(store, principal, request.type)
        start = (request.page - 1) * request.page_size
        page = members[start : start + request.page_size]
        rows = []
        for subject in page:
            docs = gate._docs_of(subject)
            doc_id = docs[0] if docs else ""
            document = store.visible_document(doc_id, principal) if doc_id else None
            cells = {
                attribute: compute_cell(subject, attribute, principal, store=store, embedder=embedder, settings=settings)
                for attribute in request.attributes
            }
            rows.append(Row(subject.subject_id, subject.name, doc_id, document.title if document else "", cells))
            if on_row is not None:
                on_row(len(rows), len(page))
    return ReviewTable(request.type, list(request.attributes), request.page, request.page_size, len(members), rows)
