"""Request and report models of the evidence query (pydantic, so the HTTP layer can reuse them)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ingest.statuses import Confidence
from service.citation import Citation
from service.evidence.states import State

# Bounds on every input that drives work (issue 11): over them the API answers 422. The party
# bounds are the gate's own limits (`limits` in service/data/question_patterns.json), so a
# structured subject the API accepts is never refused later for its size (tested).
MAX_PARTIES = 16
MAX_NAME_CHARS = 200
MAX_SCOPE_COLLECTIONS = 100
MAX_SCOPE_DOC_IDS = 1000
Name = Annotated[str, StringConstraints(max_length=MAX_NAME_CHARS)]
ShortKey = Annotated[str, StringConstraints(max_length=100)]
ScopeId = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class SubjectSpec(BaseModel):
    """A structured subject class; when given it takes precedence over parsing the question."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal[
        "entity_role", "agreement_attribute", "entity_attribute", "entity_relation"
    ] = Field(..., description="what the question asks about")
    type: ShortKey | None = Field(None, description="subject type: person, org, agreement, ...")
    name: Name | None = Field(None, description="the subject's name (entity questions)")
    role: Name | None = Field(None, description="a role such as 'founder' or 'chief executive officer'")
    parent_entity: Name | None = Field(None, description="the entity the role is held towards")
    agreement_title: Name | None = None
    parties: list[Name] = Field(default_factory=list, max_length=MAX_PARTIES)
    attribute: ShortKey | None = Field(None, description="an attribute key of attribute_cues.json")
    period_start: date | None = None
    period_end: date | None = None
    jurisdiction: Name | None = None


class Scope(BaseModel):
    model_config = ConfigDict(extra="forbid")

    collections: list[ScopeId] = Field(default_factory=list, max_length=MAX_SCOPE_COLLECTIONS)
    doc_ids: list[ScopeId] = Field(default_factory=list, max_length=MAX_SCOPE_DOC_IDS)
    as_of: date | None = None


class EvidenceRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    question: str = Field(..., min_length=1, max_length=2000)
    subject: SubjectSpec | None = None
    scope: Scope | None = None


class TraceStep(BaseModel):
    state: State
    detail: str


class CandidateSubject(BaseModel):
    subject_id: str
    name: str
    class_attributes: dict[str, Any]
    parent_entity_binding: dict[str, Any] | None
    source_location: dict[str, Any] | None


class EvidenceItem(Citation):
    id: str
    title: str
    excerpt: str
    score: float
    confidence: Confidence
    retrieved_at: str
    source_url: str
    attribute_match: dict[str, Any] = Field(default_factory=dict)
    value: dict[str, Any] | None = None


class RejectedEvidence(EvidenceItem):
    reason: str


class Claim(BaseModel):
    id: str
    subject_id: str
    attribute: str
    statement: str
    value: dict[str, Any] | None
    evidence_ids: list[str]


class ConflictValue(BaseModel):
    value: dict[str, Any]
    evidence_ids: list[str]


class AttributeConflict(BaseModel):
    subject_id: str
    attribute: str
    values: list[ConflictValue]


class Narrative(BaseModel):
    model: str
    text: str
    dropped_sentences: list[dict[str, Any]]
    error: str | None = None


class EvidenceReport(BaseModel):
    request_id: str
    question: str
    state: State
    trace: list[TraceStep]
    subject_class: dict[str, Any]
    candidate_subjects: list[CandidateSubject]
    evidence: list[EvidenceItem]
    rejected_evidence: list[RejectedEvidence]
    claims: list[Claim]
    conflicts: list[AttributeConflict]
    sufficient: bool
    confidence: Confidence
    risk_signals: list[str]
    suggested_next_actions: list[str]
    evidence_bundle_hash: str
    narrative: Narrative | None = None
    # A class-level question's review grid: one row per agreement examined, each with its cell
    # (value, sufficient, evidence) and whether it satisfies the question.
    table: list[dict[str, Any]] | None = None
