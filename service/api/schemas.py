"""Request and response bodies of the v1 API (pydantic, so /openapi.json describes them)."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

import structlog
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ingest.schema import DocumentRecord, Subject
from ingest.statuses import DocStatus, HealthStatus, JobState, RevisionStatus
from service.citation import Citation, RevisionSpan

log = structlog.get_logger(__name__)

# Lookups accept any id the CLI may have stored (file stems); new ids from the API must use the
# safe set (README, "Document ids"): letters and digits of any script, space and . , : ; @ + &
# ( ) ' _ - ; never control, format (bidi override) or path characters, and never only dots.
DOC_ID_PATTERN = r"^[^\x00-\x1f\x7f-\x9f/\\\u200e\u200f\u202a-\u202e\u2066-\u2069]{1,200}$"
# A name chosen at upload (no "~": reserved for namespaces), optionally with the namespace of
# a document the caller may read ("alice~lease"); see service/api/doc_ids.py.
NEW_DOC_ID_PATTERN = r"^[\w .,:;@+&()'~-]{1,200}$"
MAX_ACL_ENTRIES = 100
ACL_ENTRY_PATTERN = r"^(?:\*|[\w.@:+-]{1,200})$"
AclEntry = Annotated[str, StringConstraints(pattern=ACL_ENTRY_PATTERN)]
FilterId = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class ErrorDetail(BaseModel):
    code: str
    message: str
    request_id: str


class ErrorBody(BaseModel):
    error: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Unparseable body"},
    401: {"model": ErrorBody, "description": "Missing or invalid API key"},
    422: {"model": ErrorBody, "description": "Invalid input"},
}
NOT_FOUND_RESPONSE: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "Absent, or not visible to the caller"}
}


class UploadAccepted(BaseModel):
    doc_id: str
    revision: str
    status: DocStatus
    job_id: str


class RevisionView(BaseModel):
    revision: str
    filename: str
    mime: str
    size: int
    status: RevisionStatus
    created_at: str
    n_chunks: int


class JobView(BaseModel):
    job_id: str
    revision: str
    state: JobState
    stage: str | None
    error: str | None
    created_at: str
    updated_at: str


class DocumentView(BaseModel):
    doc_id: str
    status: DocStatus
    stage: str | None
    error: str | None
    current_revision: str | None
    title: str
    filename: str
    acl: list[str]
    collection: str
    metadata: dict[str, Any]
    updated_at: str
    revisions: list[RevisionView]
    jobs: list[JobView] = Field(default_factory=list)

    @classmethod
    def of(cls, record: DocumentRecord, jobs: list[dict[str, Any]] | None = None) -> "DocumentView":
        return cls.model_validate({**record.to_dict(), "jobs": jobs or []})

    @classmethod
    def of_stored(
        cls, record: DocumentRecord, jobs: list[dict[str, Any]] | None = None
    ) -> "DocumentView":
        """Like :meth:`of`, but one unreadable stored record (metadata too deep for the
        serialiser, written before the API checked depth) shows with its metadata withheld
        instead of breaking a listing for everyone."""
        try:
            view = cls.of(record, jobs)
            view.model_dump_json()  # serialising is where deep values fail
            return view
        except (ValueError, RecursionError) as exc:
            log.error("document_view_unreadable", doc_id=record.doc_id,
                      error_type=type(exc).__name__)
            safe = replace(record, metadata={"_withheld": "unreadable"})
            return cls.model_validate({**safe.to_dict(), "jobs": jobs or []})


class DocumentList(BaseModel):
    documents: list[DocumentView]
    total: int
    offset: int
    limit: int


class AclUpdate(BaseModel):
    model_config = ConfigDict(extra="forbid")

    acl: list[AclEntry] = Field(
        ..., min_length=1, max_length=MAX_ACL_ENTRIES,
        description="principal or group names, or * for everyone",
    )


class Deleted(BaseModel):
    doc_id: str
    deleted: bool


class SourceLocation(BaseModel):
    line_start: int
    line_end: int
    page: int | None
    section: list[str]
    chunk_ids: list[str]


class SourceSpan(BaseModel):
    char_start: int
    char_end: int


class SourceView(RevisionSpan):
    current: bool
    title: str
    filename: str
    passage: str
    context_before: str
    context_after: str
    context_start: int
    context_end: int
    text_length: int
    location: SourceLocation
    # The neighbouring chunks of this revision, so a reader can read on ("previous / next").
    previous: SourceSpan | None = None
    next: SourceSpan | None = None


class SearchFiltersIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    doc_ids: list[FilterId] = Field(default_factory=list, max_length=1000)
    collections: list[FilterId] = Field(default_factory=list, max_length=100)
    entity_ids: list[FilterId] = Field(
        default_factory=list, max_length=100,
        description="registry entity ids such as 'org:acme holdings'; a chunk matches when it "
        "mentions any of them",
    )


class SearchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(..., min_length=1, max_length=2000)
    k: int = Field(10, ge=1, le=100)
    filters: SearchFiltersIn = Field(default_factory=SearchFiltersIn)


class SearchHit(Citation):
    chunk_id: str
    title: str
    text: str
    score: float
    bm25_rank: int | None
    knn_rank: int | None


class SearchResponse(BaseModel):
    request_id: str
    hits: list[SearchHit]


class BindingView(RevisionSpan):
    """A subject bound to a parent entity, with where the document says so."""

    model_config = ConfigDict(extra="allow")

    relation: str
    object_id: str
    object_name: str
    role: str | None


class SubjectView(BaseModel):
    """One registry subject as the API, MCP and ``attest entities --json`` show it."""

    subject_id: str
    name: str
    type: str
    aliases: list[str]
    attributes: dict[str, Any]
    bindings: list[BindingView]

    @classmethod
    def of(cls, subject: Subject) -> "SubjectView":
        data = subject.to_dict()
        return cls.model_validate({key: data[key] for key in cls.model_fields})


class SubjectList(BaseModel):
    subjects: list[SubjectView]


class AuditList(BaseModel):
    entries: list[dict[str, Any]]
    offset: int
    limit: int


class Health(BaseModel):
    status: HealthStatus
    checks: dict[str, bool] = Field(default_factory=dict)
