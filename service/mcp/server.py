"""The MCP server: Attest's read paths as typed tools with structured results.

Each tool calls the very function its HTTP route calls (``answer_question``, ``run_search``,
``expand_source``, ``lookup_subjects``, ``document_with_jobs``, ``serve_table``), with the
caller's principal and an :class:`~service.api.deps.Auditor` for the caller's request id. So the store queries, the ACL
inside them and the audit entries are the HTTP API's; there is no second path to the data.
Errors keep the HTTP API's codes as a ``<code>: <message>`` prefix (``not_found: document not
found`` for absent and forbidden alike).

Tool descriptions carry the contract in their first line, so an agent reads it before calling.
"""

from __future__ import annotations

import json
import re
from contextlib import contextmanager
from typing import Annotated, Iterator, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp_types import ToolAnnotations
from pydantic import Field, ValidationError

from ingest.store.port import StoreError
from service.api.errors import ApiError
from service.api.routes.documents import document_with_jobs, expand_source
from service.api.routes.evidence import answer_question
from service.api.routes.search import run_search
from service.api.routes.subjects import lookup_subjects
from service.api.routes.table import serve_table
from service.api.schemas import DOC_ID_PATTERN, DocumentView, SearchFiltersIn, SearchRequest
from service.evidence.conclude import source_url
from service.evidence.models import EvidenceRequest, Scope, SubjectSpec
from service.evidence.table import MAX_ATTRIBUTES, MAX_PAGE_SIZE, TableRequest, agreement_attributes
from service.mcp.caller import AuditMiddleware, CallerResolver, Services, current_caller
from service.mcp.models import (
    RESOURCE_TEMPLATE,
    SOURCE_DATA_NOTICE,
    AskResult,
    DocumentStatusResult,
    McpSearchHit,
    QuotedText,
    SearchResult,
    SourceResult,
    SubjectsResult,
    TableResult,
    resource_uri,
)

SERVER_NAME = "attest"
REVISION_PATTERN = r"^[0-9a-f]{64}$"
MAX_OFFSET = 2**40
MAX_CONTEXT = 5000

INSTRUCTIONS = f"""Attest answers only from the documents your principal may read, with exact
citations. {SOURCE_DATA_NOTICE} A SUBJECT_NOT_FOUND state, sufficient=false, an empty hit or
subject list, and not_found are valid answers: report them as they are; never retry with a looser
question, a similar name or guessed ids. Quote request_id when you report a result."""

ASK_DESCRIPTION = """SUBJECT_NOT_FOUND and sufficient=false are valid answers: report them; do not retry with a looser question or a similar subject.
Answers a question from the documents you may read through Attest's evidence state machine: state,
trace, claims bound to evidence ids, evidence with source_url and resource_uri, conflicts (never
resolved), sufficient, confidence, risk_signals (possible_prompt_injection among them),
suggested_next_actions and evidence_bundle_hash. Pass `subject` to fix the subject class instead
of having the question parsed."""

SEARCH_DESCRIPTION = """Hits are passages with citations, not answers: use `ask` for a verified answer, and an empty list is a valid result.
Hybrid BM25 + semantic search over the current revisions you may read, fused by reciprocal rank
fusion, best first; each hit cites doc_id, revision, page, section, lines and char span."""

OPEN_SOURCE_DESCRIPTION = """Opens a cited span exactly as stored (audited); not_found means absent or not readable by you: do not guess ids or offsets.
Returns text[char_start:char_end] of that revision (current or superseded) with `context`
characters either side and its location; take doc_id, revision and offsets from a citation.
Without offsets it returns the whole revision text."""

FIND_SUBJECTS_DESCRIPTION = """Exact registry look-up (name, alias or defined term after normalisation, no fuzzy match); an empty list is a valid answer: do not retry with name variants.
Subjects (organisations, people, agreements, ...) known from the documents you may read, with
aliases, attributes and bindings (role, parent, where the document says so)."""

DOCUMENT_STATUS_DESCRIPTION = """A document is searchable only when its status is indexed; failed carries the reason: do not re-ask about a document that is not indexed.
Status (received, extracting, indexing, indexed, failed), stage, error, current revision and the
revision history of one document (doc_id) or of the documents you may read."""

TABLE_DESCRIPTION = """One row per agreement you may read, one cell per attribute; a "not stated" cell (sufficient=false) is a valid answer: report it, do not re-ask cell by cell.
The class-level review grid of GET /v1/table: each stated cell cites its clause (evidence with
source_url and resource_uri); conflicting documents show every value joined by " | ". Rows are
ordered by name, paginated (total counts the agreements you may read); at most
{MAX_ATTRIBUTES} attributes and {MAX_PAGE_SIZE} rows per call, and each cell runs the evidence
machine, so ask only for the attributes and page you need.""".format(
    MAX_ATTRIBUTES=MAX_ATTRIBUTES, MAX_PAGE_SIZE=MAX_PAGE_SIZE
)

RESOURCE_DESCRIPTION = """A revision's text by citation (doc_id, revision, char_start, char_end), as quoted source data with its location (audited). Same access rules as open_source."""

READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)

Question = Annotated[str, Field(min_length=1, max_length=2000, description="the question")]
DocId = Annotated[str, Field(pattern=DOC_ID_PATTERN, description="a doc_id from a citation")]
Revision = Annotated[str, Field(pattern=REVISION_PATTERN, description="a revision (sha256) from a citation")]
Offset = Annotated[int | None, Field(ge=0, le=MAX_OFFSET)]
ContextChars = Annotated[int, Field(ge=0, le=MAX_CONTEXT, description="characters of context either side")]
# The attribute keys are data (attribute_cues.json), enumerated in the schema so an agent need not
# guess; TableRequest checks them again, as it does for the HTTP route.
AttributeKey = Literal[tuple(agreement_attributes())]  # type: ignore[valid-type]


@contextmanager
def _as_tool_errors(kind: type[Exception] = ToolError) -> Iterator[None]:
    """The HTTP error families, reported to the agent with the same code and message."""
    try:
        yield
    except ApiError as exc:
        raise kind(f"{exc.code}: {exc.message}") from exc
    except StoreError as exc:
        raise kind(f"store_error: {exc}") from exc


def build_server(services: Services, resolve: CallerResolver) -> MCPServer:
    """The MCP server over ``services``; ``resolve`` names the caller of each request."""
    server: MCPServer = MCPServer(
        SERVER_NAME,
        title="Attest evidence search",
        instructions=INSTRUCTIONS,
        log_level="WARNING",
        middleware=[AuditMiddleware(services, resolve)],
    )

    @server.tool(description=ASK_DESCRIPTION, annotations=READ_ONLY)
    def ask(
        question: Question,
        subject: SubjectSpec | None = None,
        scope: Scope | None = None,
    ) -> AskResult:
        caller = current_caller()
        store = services.store()
        with _as_tool_errors():
            report = answer_question(
                EvidenceRequest(question=question, subject=subject, scope=scope),
                caller.principal,
                caller.auditor(store),
                store=store,
                embedder=services.embedder(),
                settings=services.settings,
            )
        return AskResult.of(report)

    @server.tool(description=SEARCH_DESCRIPTION, annotations=READ_ONLY)
    def search(
        query: Annotated[str, Field(min_length=1, max_length=2000)],
        k: Annotated[int, Field(ge=1, le=100, description="number of hits")] = 10,
        doc_ids: Annotated[list[str], Field(max_length=1000)] = [],  # noqa: B006 - never mutated
        collections: Annotated[list[str], Field(max_length=100)] = [],  # noqa: B006
    ) -> SearchResult:
        caller = current_caller()
        store = services.store()
        body = SearchRequest(
            query=query, k=k, filters=SearchFiltersIn(doc_ids=doc_ids, collections=collections)
        )
        with _as_tool_errors():
            response = run_search(
                body,
                caller.principal,
                caller.auditor(store),
                store=store,
                embedder=services.embedder(),
                settings=services.settings,
            )
        hits = []
        for hit in response.hits:
            data = hit.model_dump()
            data["text"] = QuotedText.of(hit.text)
            data["source_url"] = source_url(hit.doc_id, hit.revision, hit.char_start, hit.char_end)
            data["resource_uri"] = resource_uri(hit.doc_id, hit.revision, hit.char_start, hit.char_end)
            hits.append(McpSearchHit.model_validate(data))
        return SearchResult(request_id=response.request_id, hits=hits)

    @server.tool(description=OPEN_SOURCE_DESCRIPTION, annotations=READ_ONLY)
    def open_source(
        doc_id: DocId,
        revision: Revision,
        char_start: Offset = None,
        char_end: Offset = None,
        context: ContextChars = 200,
    ) -> SourceResult:
        caller = current_caller()
        store = services.store()
        with _as_tool_errors():
            view = expand_source(
                store, caller.principal, caller.auditor(store),
                doc_id, revision, char_start, char_end, context,
            )
        return SourceResult.of(view, caller.request_id)

    @server.tool(description=FIND_SUBJECTS_DESCRIPTION, annotations=READ_ONLY)
    def find_subjects(
        name: Annotated[str | None, Field(max_length=500, description="name, alias or defined term")] = None,
        type: Annotated[str | None, Field(max_length=100, description="org, person, agreement, ...")] = None,
        role: Annotated[str | None, Field(max_length=200)] = None,
        limit: Annotated[int, Field(ge=1, le=500)] = 100,
    ) -> SubjectsResult:
        caller = current_caller()
        store = services.store()
        with _as_tool_errors():
            found = lookup_subjects(
                store, caller.principal, caller.auditor(store),
                name=name, type=type, role=role, limit=limit,
            )
        return SubjectsResult.model_validate(
            {"request_id": caller.request_id, "subjects": found.subjects}
        )

    @server.tool(description=DOCUMENT_STATUS_DESCRIPTION, annotations=READ_ONLY)
    def document_status(
        doc_id: Annotated[str | None, Field(pattern=DOC_ID_PATTERN)] = None,
        status: Annotated[str | None, Field(max_length=32)] = None,
        collection: Annotated[str | None, Field(max_length=200)] = None,
        offset: Annotated[int, Field(ge=0, le=1_000_000)] = 0,
        limit: Annotated[int, Field(ge=1, le=200)] = 50,
    ) -> DocumentStatusResult:
        caller = current_caller()
        store = services.store()
        with _as_tool_errors():
            if doc_id is not None:
                record, history = document_with_jobs(store, services.jobs(), doc_id, caller.principal)
                return DocumentStatusResult(
                    request_id=caller.request_id,
                    documents=[DocumentView.of(record, history)],
                    total=1,
                )
            records, total = store.list_documents(
                caller.principal, status=status, collection=collection, offset=offset, limit=limit
            )
        return DocumentStatusResult(
            request_id=caller.request_id,
            documents=[DocumentView.of(r) for r in records],
            total=total,
        )

    @server.tool(description=TABLE_DESCRIPTION, annotations=READ_ONLY)
    def table(
        attributes: Annotated[
            list[AttributeKey],
            Field(min_length=1, max_length=MAX_ATTRIBUTES, description="attribute keys, one column each"),
        ],
        type: Annotated[Literal["agreement"], Field(description="the subject class")] = "agreement",
        page: Annotated[int, Field(ge=1, le=100_000)] = 1,
        page_size: Annotated[int, Field(ge=1, le=MAX_PAGE_SIZE, description="rows per page")] = 50,
    ) -> TableResult:
        caller = current_caller()
        store = services.store()
        try:
            request = TableRequest(type=type, attributes=list(attributes), page=page, page_size=page_size)
        except ValidationError as exc:
            raise ToolError("validation_error: " + "; ".join(e["msg"] for e in exc.errors())) from exc
        with _as_tool_errors():
            result = serve_table(
                request, caller.principal, caller.auditor(store),
                store=store, embedder=services.embedder(), settings=services.settings,
            )
        return TableResult.of(result, caller.request_id)

    @server.resource(
        RESOURCE_TEMPLATE,
        name="revision_text",
        title="Revision text by citation",
        description=RESOURCE_DESCRIPTION,
        mime_type="application/json",
    )
    def revision_text(
        doc_id: str,
        revision: str,
        char_start: str | None = None,
        char_end: str | None = None,
        context: str | None = None,
    ) -> str:
        caller = current_caller()
        store = services.store()
        if not re.fullmatch(DOC_ID_PATTERN, doc_id) or not re.fullmatch(REVISION_PATTERN, revision):
            raise ResourceError("not_found: document not found")
        start = _uri_int("char_start", char_start, MAX_OFFSET)
        end = _uri_int("char_end", char_end, MAX_OFFSET)
        around = _uri_int("context", context, MAX_CONTEXT)
        with _as_tool_errors(ResourceError):
            view = expand_source(
                store, caller.principal, caller.auditor(store),
                doc_id, revision, start, end, 200 if around is None else around,
            )
        return json.dumps(
            SourceResult.of(view, caller.request_id).model_dump(mode="json"), ensure_ascii=False
        )

    return server


def _uri_int(name: str, raw: str | None, limit: int) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or int(raw) > limit:
        raise ResourceError(f"validation_error: {name} must be an integer from 0 to {limit}")
    return int(raw)
