"""/v1/documents: upload (queued ingestion), list, status, delete, ACL change, source view.

Who may do what (every check is a query filtered by the caller's ACL tokens):

* read (get, list, source view): principals in the document's ACL, directly or by group;
* upload a new revision: the same principals only (admins included: nobody replaces content
  they cannot read);
* delete, change the ACL: the same principals, and admins for any document (the admin model,
  README "Admins": admins are trusted operators; every such action is audited with the
  admin's name, so an admin who grants itself access leaves a record). Anyone else gets the
  404 a nonexistent document gets, byte for byte apart from the request id.
* a new document's ACL defaults to the uploader's principal;
* a doc id chosen at upload is a name in the uploader's namespace (``alice~lease``), so that an
  upload never tells whether another principal uses a name (``service/api/doc_ids.py``); the
  document paths resolve a bare id the same way.
"""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from pathlib import Path
from typing import Annotated, Any

import structlog
from fastapi import APIRouter, File, Form, Path as PathParam, Query, UploadFile

from ingest.errors import AttestError
from ingest.schema import DocumentRecord
from ingest.statuses import DocStatus
from ingest.store.port import Principal, Store
from ingest.clock import utc_now
from service.api.deps import (
    Audit,
    Auditor,
    Context,
    CurrentPrincipal,
    JobsDep,
    SettingsDep,
    StoreDep,
)
from service.api.doc_ids import (
    MAX_DOC_ID_CHARS,
    namespace_of,
    own_doc_id,
    resolve_any,
    resolve_readable,
)
from service.api.errors import (
    Conflict,
    InvalidInput,
    PayloadTooLarge,
    ServiceUnavailable,
    UnsupportedMediaType,
    document_not_found,
)
from service.api.jobs import JobQueue, QueueFull
from service.api.schemas import (
    ACL_ENTRY_PATTERN,
    DOC_ID_PATTERN,
    NEW_DOC_ID_PATTERN,
    ERROR_RESPONSES,
    MAX_ACL_ENTRIES,
    NOT_FOUND_RESPONSE,
    AclUpdate,
    Deleted,
    DocumentList,
    DocumentView,
    ErrorBody,
    SourceLocation,
    SourceSpan,
    SourceView,
    UploadAccepted,
)

log = structlog.get_logger(__name__)
router = APIRouter(prefix="/v1/documents", tags=["documents"], responses=ERROR_RESPONSES)

COPY_BLOCK = 1024 * 1024
SNIFF_BYTES = 64 * 1024
RETRY_AFTER_SECONDS = 30
MAX_METADATA_CHARS = 64 * 1024
MAX_METADATA_DEPTH = 8  # {"a": {"b": [...]}} is depth 3
MAX_ACL_CHARS = 16 * 1024

ACL_ENTRY = re.compile(ACL_ENTRY_PATTERN)
DocId = Annotated[str, PathParam(pattern=DOC_ID_PATTERN)]
Revision = Annotated[str, PathParam(pattern=r"^[0-9a-f]{64}$")]


# -- helpers -------------------------------------------------------------------------------------
def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in JSON ``text``, in one linear pass that
    skips strings, so that a deep document is refused before the recursive parser sees it."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_acl(raw: str | None) -> list[str] | None:
    """A JSON array of strings, or a comma-separated list."""
    if raw is None or not raw.strip():
        return None
    if len(raw) > MAX_ACL_CHARS:
        raise InvalidInput(f"acl: at most {MAX_ACL_CHARS} characters")
    text = raw.strip()
    if text[0] in "[{":
        if json_depth(text) > 1:
            raise InvalidInput("acl: must be a flat array of strings")
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"acl: not a valid JSON array ({exc.msg})") from exc
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InvalidInput("acl: must be an array of strings")
        entries = [v.strip() for v in value]
    else:
        entries = [v.strip() for v in text.split(",")]
    entries = [e for e in entries if e]
    if not entries:
        raise InvalidInput("acl: at least one principal or group is needed")
    return check_acl(entries)


def check_acl(entries: list[str]) -> list[str]:
    if len(entries) > MAX_ACL_ENTRIES:
        raise InvalidInput(f"acl: at most {MAX_ACL_ENTRIES} entries")
    bad = [e for e in entries if not ACL_ENTRY.fullmatch(e)]
    if bad:
        raise InvalidInput(
            "acl: entries are principal or group names (letters, digits, . _ @ : + -) "
            "or * for everyone"
        )
    return sorted(set(entries))


def parse_metadata(raw: str | None) -> dict[str, Any] | None:
    if raw is None or not raw.strip():
        return None
    if len(raw) > MAX_METADATA_CHARS:
        raise InvalidInput(f"metadata: at most {MAX_METADATA_CHARS} characters")
    if json_depth(raw) > MAX_METADATA_DEPTH:
        raise InvalidInput(f"metadata: nested deeper than {MAX_METADATA_DEPTH} levels")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"metadata: not valid JSON ({exc.msg})") from exc
    if not isinstance(value, dict):
        raise InvalidInput("metadata: must be a JSON object")
    return value


def readable_document(store: Store, doc_id: str, principal: Principal) -> DocumentRecord:
    """The document ``doc_id`` names for ``principal`` (a bare id resolved as in
    ``service/api/doc_ids.py``); use the record's ``doc_id`` from here on."""
    record = resolve_readable(store, principal, doc_id)
    if record is None:
        raise document_not_found()
    return record


def document_with_jobs(
    store: Store, jobs: JobQueue | None, doc_id: str, principal: Principal
) -> tuple[DocumentRecord, list[dict[str, Any]]]:
    """The document and its recent jobs (public views) as one consistent picture. The worker
    records a job's outcome on the document before it finishes the job, so the record is read
    (again) *after* the jobs: a job shown finished is never shown with the document's status
    from before it finished. A document deleted and re-created in between is read again."""
    record = readable_document(store, doc_id, principal)
    if jobs is None:
        return record, []
    for _ in range(3):
        history = [j.public() for j in jobs.for_document(record.doc_id, record.incarnation)]
        latest = readable_document(store, record.doc_id, principal)
        if latest.incarnation == record.incarnation:
            return latest, history
        record = latest
    return record, [j.public() for j in jobs.for_document(record.doc_id, record.incarnation)]


def manageable_document(store: Store, doc_id: str, principal: Principal) -> DocumentRecord:
    """For delete and ACL change: readers of the document, and admins for any document."""
    record = resolve_any(store, principal, doc_id)
    if record is None:
        raise document_not_found()
    return record


def check_chosen_doc_id(raw: str) -> None:
    """A chosen doc id is ``name`` or ``owner~name`` (422 otherwise)."""
    owner, sep, name = raw.rpartition("~")
    if sep and (not ACL_ENTRY.fullmatch(owner) or owner == "*" or "~" in owner):
        raise InvalidInput("doc_id: ~ separates a principal's namespace from a name, once")
    if not name.strip(". "):
        raise InvalidInput("doc_id: must contain a letter or digit")


def upload_target(store: Store, principal: Principal, raw: str) -> tuple[str, DocumentRecord | None]:
    """The document an upload with the chosen id ``raw`` goes to, and its record when it exists.

    A document the caller may read (``raw`` resolved as on every document path) gets a new
    revision. Otherwise the upload creates ``raw`` in the caller's own namespace; a full id in
    another principal's namespace is the 404 of an unreadable document. What happens therefore
    depends only on the caller's namespace and what the caller may read, never on other
    principals' documents."""
    readable = resolve_readable(store, principal, raw)
    if readable is not None:
        return readable.doc_id, readable
    owner = namespace_of(raw)
    if owner is not None and owner != principal.name:
        raise document_not_found()
    target = raw if owner is not None else own_doc_id(principal, raw)
    if len(target) > MAX_DOC_ID_CHARS:
        raise InvalidInput(
            f"doc_id: at most {MAX_DOC_ID_CHARS} characters with your namespace "
            f"({principal.name}~)"
        )
    if store.get_document(target) is not None:
        # Only the caller's own namespace gets here: a document of theirs whose ACL no longer
        # lists them (nobody else can create ids in it), so this tells them nothing new.
        raise Conflict("doc_id is not available; choose another")
    return target, None


def _safe_filename(name: str | None) -> str:
    base = Path((name or "").replace("\\", "/")).name.strip()
    base = "".join(ch for ch in base if ch.isprintable())[:200]
    return base or "upload"


def _stream_to_disk(upload: UploadFile, directory: Path, limit: int) -> tuple[Path, str, int, bytes]:
    """Copy the upload to a temporary file, hashing as it goes; 413 past ``limit`` bytes."""
    tmp = directory / f".incoming-{uuid.uuid4().hex}"
    digest = hashlib.sha256()
    size = 0
    head = b""
    try:
        with open(tmp, "wb") as out:
            while True:
                block = upload.file.read(COPY_BLOCK)
                if not block:
                    break
                size += len(block)
                if size > limit:
                    raise PayloadTooLarge(f"upload exceeds the limit of {limit} bytes")
                if len(head) < SNIFF_BYTES:
                    head += block[: SNIFF_BYTES - len(head)]
                digest.update(block)
                out.write(block)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp, digest.hexdigest(), size, head


def _check_type(filename: str, head: bytes, tmp: Path) -> str:
    from ingest.extract import ExtractionError, detect_type

    try:
        return detect_type(Path(filename), head)
    except ExtractionError as exc:
        if not Path(filename).suffix and head.startswith(b"PK\x03\x04"):
            try:  # an extensionless zip is a docx only if the whole archive says so
                return detect_type(Path(filename), tmp.read_bytes())
            except ExtractionError:
                pass
        raise UnsupportedMediaType(str(exc)) from exc


# -- routes --------------------------------------------------------------------------------------
@router.post(
    "",
    status_code=202,
    response_model=UploadAccepted,
    responses={
        404: {"model": ErrorBody, "description": "doc_id in another principal's namespace that you cannot read"},
        409: {"model": ErrorBody, "description": "doc_id in your namespace held by a document you can no longer read"},
        413: {"model": ErrorBody, "description": "File too large"},
        415: {"model": ErrorBody, "description": "Unsupported file type"},
        503: {"model": ErrorBody, "description": "Ingest queue full, or the store or upload "
                                                 "store is down; retry later (Retry-After)"},
    },
)
def upload_document(
    ctx: Context,
    store: StoreDep,
    jobs: JobsDep,
    settings: SettingsDep,
    principal: CurrentPrincipal,
    audit: Audit,
    file: Annotated[UploadFile, File(description="The document (pdf, docx, html, md, txt, eml)")],
    doc_id: Annotated[
        str | None,
        Form(pattern=NEW_DOC_ID_PATTERN,
             description="a name in your namespace (the document's id is <you>~<name>): letters "
                         "and digits of any script, space and . , : ; @ + & ( ) ' _ -; or the "
                         "full id <owner>~<name> of a document you may read (a new revision)"),
    ] = None,
    title: Annotated[str | None, Form(max_length=500)] = None,
    acl: Annotated[
        str | None, Form(description='JSON array ("["alice","legal"]") or "alice,legal"')
    ] = None,
    collection: Annotated[str | None, Form(max_length=200)] = None,
    metadata: Annotated[str | None, Form(description="A JSON object")] = None,
) -> UploadAccepted:
    """Accept a file for ingestion. 202 means queued, not searchable: poll the document until
    its status is ``indexed`` (or ``failed`` with a reason)."""
    if doc_id is not None:
        check_chosen_doc_id(doc_id)
    acl_list = parse_acl(acl)
    meta = parse_metadata(metadata)
    if jobs.depth() >= settings.ingest_queue_size:
        raise ServiceUnavailable(
            "the ingest queue is full; retry later",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    filename = _safe_filename(file.filename)
    tmp, revision, size, head = _stream_to_disk(file, jobs.uploads, settings.max_file_bytes)
    try:
        if size == 0:
            raise InvalidInput("file: the upload is empty")
        mime = _check_type(filename, head, tmp)
        existing: DocumentRecord | None = None
        if doc_id is not None:
            # Admins too: nobody replaces the content of a document they cannot read.
            doc_id, existing = upload_target(store, principal, doc_id)
        else:
            doc_id = f"doc-{uuid.uuid4().hex[:16]}"
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    created = existing is None
    if created:
        acl_list = acl_list or [principal.name]
        fresh = DocumentRecord(
            doc_id=doc_id,
            status=DocStatus.RECEIVED,
            stage=DocStatus.RECEIVED,
            error=None,
            current_revision=None,
            title=title or Path(filename).stem,
            filename=filename,
            acl=acl_list,
            collection=collection or "",
            metadata=meta or {},
            updated_at=utc_now(),
        )
        try:
            store.save_document(fresh)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
        incarnation = fresh.incarnation
    else:
        assert existing is not None
        incarnation = existing.incarnation
    try:
        job = jobs.add(
            doc_id=doc_id,
            revision=revision,
            filename=filename,
            principal=principal.name,
            request_id=audit.request_id,
            title=title,
            acl=acl_list,
            collection=collection or "",
            metadata=meta,
            limit=settings.ingest_queue_size,
            incarnation=incarnation,
            upload=tmp,
        )
    except QueueFull as exc:
        tmp.unlink(missing_ok=True)
        if created:
            store.delete_document(doc_id)
        raise ServiceUnavailable(
            "the ingest queue is full; retry later",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        ) from exc
    except BaseException:
        # The upload store or the queue is down (503): no job exists, so the document this
        # request created would stay `received` for ever; it goes, like the bytes.
        tmp.unlink(missing_ok=True)
        if created:
            _forget_new_document(store, doc_id)
        raise
    audit.record(
        "ingest_queued",
        doc_id=doc_id,
        revision=revision,
        job_id=job.job_id,
        filename=filename,
        mime=mime,
        size=size,
        acl=acl_list,
        collection=collection or "",
        new_document=created,
    )
    if ctx.worker is not None:
        ctx.worker.notify()
    log.info("upload_accepted", doc_id=doc_id, revision=revision, size=size, mime=mime)
    return UploadAccepted(doc_id=doc_id, revision=revision, status=DocStatus.RECEIVED, job_id=job.job_id)


def _forget_new_document(store: Store, doc_id: str) -> None:
    try:
        store.delete_document(doc_id)
    except AttestError as exc:  # the store is down as well: the original error is the answer
        log.error("upload_document_not_removed", doc_id=doc_id, error_type=type(exc).__name__)


@router.get("", response_model=DocumentList)
def list_documents(
    store: StoreDep,
    principal: CurrentPrincipal,
    status: Annotated[str | None, Query(max_length=32)] = None,
    collection: Annotated[str | None, Query(max_length=200)] = None,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> DocumentList:
    """Documents the caller may read; ``total`` counts only those."""
    records, total = store.list_documents(
        principal, status=status, collection=collection, offset=offset, limit=limit
    )
    return DocumentList(
        documents=[DocumentView.of_stored(r) for r in records],
        total=total,
        offset=offset,
        limit=limit,
    )


@router.get("/{doc_id}", response_model=DocumentView, responses=NOT_FOUND_RESPONSE)
def get_document(
    doc_id: DocId, store: StoreDep, jobs: JobsDep, principal: CurrentPrincipal
) -> DocumentView:
    """Status, stage, failure reason, current revision, revision history and recent jobs."""
    record, history = document_with_jobs(store, jobs, doc_id, principal)
    return DocumentView.of_stored(record, history)


# Upload objects a delete removes by job id (the S3 store removes its whole document prefix).
MAX_DELETED_JOBS = 1000


@router.delete(
    "/{doc_id}",
    response_model=Deleted,
    responses={**NOT_FOUND_RESPONSE,
               503: {"model": ErrorBody, "description": "The store or the upload store is down; "
                                                        "nothing was deleted, retry later"}},
)
def delete_document(
    doc_id: DocId, store: StoreDep, jobs: JobsDep, principal: CurrentPrincipal, audit: Audit
) -> Deleted:
    """Remove the document from every read path; queued ingestion jobs for it are cancelled and
    its uploads removed from the upload store."""
    record = manageable_document(store, doc_id, principal)
    doc_id = record.doc_id
    cancelled = jobs.cancel_for_document(doc_id, "document deleted")
    # The uploads go first: when the upload store is down the answer is 503 and the document
    # is still there to delete again, so no upload of a deleted document stays behind.
    job_ids = [j.job_id for j in jobs.for_document(doc_id, record.incarnation, MAX_DELETED_JOBS)]
    removed = jobs.upload_store.delete_document(doc_id, record.incarnation, job_ids)
    if not store.delete_document(doc_id):
        raise document_not_found()
    try:  # an upload of a new revision that raced this delete
        removed += jobs.upload_store.delete_document(doc_id, record.incarnation, [])
    except AttestError as exc:  # its job is cancelled when it runs and releases its bytes
        log.warning("delete_upload_sweep_failed", doc_id=doc_id, error_type=type(exc).__name__)
    audit.record("delete", doc_id=doc_id, cancelled_jobs=cancelled, removed_uploads=removed)
    log.info("delete_completed", doc_id=doc_id, cancelled_jobs=cancelled, removed_uploads=removed)
    return Deleted(doc_id=doc_id, deleted=True)


@router.put("/{doc_id}/acl", response_model=DocumentView, responses=NOT_FOUND_RESPONSE)
def set_document_acl(
    doc_id: DocId,
    body: AclUpdate,
    store: StoreDep,
    principal: CurrentPrincipal,
    audit: Audit,
) -> DocumentView:
    """Replace the document's ACL; takes effect on every read path at once."""
    record = manageable_document(store, doc_id, principal)
    doc_id = record.doc_id
    entries = check_acl(list(body.acl))
    store.set_acl(doc_id, entries)
    audit.record("acl_change", doc_id=doc_id, old_acl=record.acl, new_acl=entries)
    updated = store.get_document(doc_id)
    return DocumentView.of(updated or record)


@router.get(
    "/{doc_id}/revisions/{revision}/text",
    response_model=SourceView,
    responses=NOT_FOUND_RESPONSE,
)
def source_view(
    doc_id: DocId,
    revision: Revision,
    store: StoreDep,
    principal: CurrentPrincipal,
    audit: Audit,
    char_start: Annotated[int | None, Query(ge=0, le=2**40)] = None,
    char_end: Annotated[int | None, Query(ge=0, le=2**40)] = None,
    context: Annotated[int, Query(ge=0, le=5000)] = 200,
) -> SourceView:
    """The exact passage ``text[char_start:char_end]`` of that revision (current or not), with
    ``context`` characters either side and its location. Without offsets, the whole text."""
    return expand_source(store, principal, audit, doc_id, revision, char_start, char_end, context)


def expand_source(
    store: Store,
    principal: Principal,
    audit: Auditor,
    doc_id: str,
    revision: str,
    char_start: int | None,
    char_end: int | None,
    context: int,
) -> SourceView:
    """The audited source expansion behind ``source_view`` (shared with MCP)."""
    record = readable_document(store, doc_id, principal)
    doc_id = record.doc_id
    if revision not in {r.revision for r in record.revisions}:
        raise document_not_found()
    text = store.revision_text(doc_id, revision)
    if text is None:
        raise document_not_found()
    start = 0 if char_start is None else char_start
    end = len(text) if char_end is None else char_end
    if start > end or end > len(text):
        raise InvalidInput(
            f"char range {start}-{end} is outside the revision text (0-{len(text)})"
        )
    before_start = max(0, start - context)
    after_end = min(len(text), end + context)
    chunks = store.revision_chunks(doc_id, revision)
    if start == end:
        covering = [c for c in chunks if c.char_start <= start < c.char_end]
    else:
        covering = [c for c in chunks if c.char_start < end and c.char_end > start]
    first = covering[0] if covering else None
    before = [c for c in chunks if c.char_end <= start and c.char_end > c.char_start]
    after = [c for c in chunks if c.char_start >= end and c.char_end > c.char_start]
    previous = max(before, key=lambda c: (c.char_start, c.char_end), default=None)
    following = min(after, key=lambda c: (c.char_start, c.char_end), default=None)
    passage = text[start:end]
    location = SourceLocation(
        line_start=text.count("\n", 0, start) + 1,
        line_end=text.count("\n", 0, max(start, end - 1)) + 1,
        page=first.page if first else None,
        section=list(first.section) if first else [],
        chunk_ids=[c.chunk_id for c in covering],
    )
    audit.record(
        "source_expanded",
        doc_id=doc_id,
        revision=revision,
        char_start=start,
        char_end=end,
        passage_sha256=hashlib.sha256(passage.encode("utf-8")).hexdigest(),
    )
    return SourceView(
        doc_id=doc_id,
        revision=revision,
        current=record.current_revision == revision,
        title=record.title,
        filename=next((r.filename for r in record.revisions if r.revision == revision), record.filename),
        char_start=start,
        char_end=end,
        passage=passage,
        context_before=text[before_start:start],
        context_after=text[end:after_end],
        context_start=before_start,
        context_end=after_end,
        text_length=len(text),
        location=location,
        previous=SourceSpan(char_start=previous.char_start, char_end=previous.char_end)
        if previous else None,
        next=SourceSpan(char_start=following.char_start, char_end=following.char_end)
        if following else None,
    )
