"""The revision-aware indexing pipeline.

received -> extracting -> indexing -> indexed, or failed with the stage and a readable reason.
A revision is the sha256 of the file's bytes. Everything of a revision is written first, not yet
current; one atomic switch then makes it current. Chunk ids are deterministic, so a rerun after a
crash overwrites what a killed run left behind instead of duplicating it.
"""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import structlog

from ingest.embedder import Embedder
from ingest.errors import AttestError, InvalidInputError
from ingest.schema import Chunk, DocumentRecord, SubjectRecord, chunk_id_for
from ingest.statuses import DocStatus, IngestOutcome
from ingest.settings import Settings
from ingest.units import embed_chunk_units
from ingest.store.port import DocumentDeleted, Store
from ingest.clock import utc_now

log = structlog.get_logger(__name__)

StageHook = Callable[[str], None]
# Called before the pipeline writes a failure on the document; raises (an ``AttestError``) to stop
# the job without that write (an ingest worker that no longer holds the job).
HoldCheck = Callable[[], None]

# The spaCy pipeline is one cached object shared by every ingest worker; spaCy does not promise
# that concurrent calls on one Language are safe, so annotation runs one document at a time
# (extraction, chunking, embedding and writes still overlap between workers). With
# ATTEST_INGEST_NLP_PROCESSES=N annotation runs in N pool processes instead (ingest/nlp_pool.py).
_ANNOTATION_LOCK = threading.Lock()


class IngestFailure(InvalidInputError):
    """Raised inside the pipeline when a document cannot be indexed (bad input, or its time
    budget ran out); it ends as ``failed`` with ``stage`` and ``reason``."""

    def __init__(self, stage: str, reason: str) -> None:
        super().__init__(reason)
        self.stage = stage
        self.reason = reason


DELETED_REASON = "the document was deleted while it was being ingested; nothing was kept"


class _Budget:
    """The time budget of one ingest job, checked between stages and embedding batches."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.deadline = time.monotonic() + seconds if seconds else None

    def check(self, stage: str) -> None:
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise self.exceeded(stage)

    def exceeded(self, stage: str) -> IngestFailure:
        return IngestFailure(
            stage,
            f"time budget of {self.seconds:g} s exceeded during {stage}; "
            "split the document or raise ATTEST_INGEST_JOB_SECONDS",
        )

    def wall_deadline(self) -> float | None:
        """The deadline as a ``time.time()`` value, for another process (nlp_pool)."""
        return None if self.deadline is None else time.time() + self.deadline - time.monotonic()


class _BudgetedSpans(list):  # type: ignore[type-arg]
    """Chunk spans that check the job's budget as annotation iterates them (spaCy pulls them
    one batch at a time), so a huge document cannot outlive its budget inside annotation."""

    def __init__(self, spans: list[tuple[int, int]], budget: _Budget) -> None:
        super().__init__(spans)
        self.budget = budget

    def __iter__(self):  # type: ignore[no-untyped-def]
        for n, span in enumerate(super().__iter__()):
            if n % 16 == 0:
                self.budget.check(DocStatus.INDEXING)
            yield span


@dataclass(slots=True)
class IngestResult:
    doc_id: str
    status: IngestOutcome  # cancelled: the document was deleted
    revision: str | None
    stage: str | None
    error: str | None
    n_chunks: int
    filename: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def default_doc_id(path: Path) -> str:
    return path.stem


def revision_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Ingestor:
    """Turns files into indexed revisions in one store, with one embedder."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder,
        settings: Settings,
        *,
        annotate: bool = True,
        on_stage: StageHook | None = None,
        check_held: HoldCheck | None = None,
    ) -> None:
        """``on_stage(stage)`` is called *before* the document is written at ``stage``
        (``received``, ``extracting``, ``indexing``, ``writing``, ``written``) and
        ``check_held()`` before a failure is written on it and between the chunk batches of
        ``write_revision``: either may raise an ``AttestError`` to stop the job before that
        write (a worker that lost its job writes nothing more)."""
        self.store = store
        self.embedder = embedder
        self.settings = settings
        self.annotate = annotate
        self.on_stage = on_stage or (lambda stage: None)
        self.check_held = check_held or (lambda: None)

    def ingest_path(
        self,
        path: Path,
        *,
        doc_id: str | None = None,
        title: str | None = None,
        acl: Sequence[str] | None = None,
        collection: str = "",
        metadata: dict[str, Any] | None = None,
    ) -> IngestResult:
        doc_id = doc_id or default_doc_id(path)
        try:
            size = path.stat().st_size
        except OSError as exc:
            return self._fail_new(doc_id, path.name, DocStatus.RECEIVED, f"unreadable file: {exc.strerror}")
        if size > self.settings.max_file_bytes:
            return self._fail_new(doc_id, path.name, DocStatus.RECEIVED, "too large")
        return self.ingest_bytes(
            path.read_bytes(),
            filename=path.name,
            doc_id=doc_id,
            title=title,
            acl=acl,
            collection=collection,
            metadata=metadata,
        )

    def ingest_bytes(
        self,
        data: bytes,
        *,
        filename: str,
        doc_id: str,
        title: str | None = None,
        acl: Sequence[str] | None = None,
        collection: str = "",
        metadata: dict[str, Any] | None = None,
        incarnation: str | None = None,
        budget_seconds: float | None = None,
    ) -> IngestResult:
        """Index ``data`` as a new revision of ``doc_id``. With ``incarnation`` (the API's jobs
        pass the one the document had at upload), nothing is written unless the document is
        still that one: a delete always wins. ``budget_seconds`` bounds the job's time."""
        bound = log.bind(doc_id=doc_id, filename=filename)
        budget = _Budget(budget_seconds)
        revision = revision_of(data)
        existing = self.store.get_document(doc_id)
        if incarnation is not None and (existing is None or existing.incarnation != incarnation):
            bound.info("ingest_cancelled", revision=revision, reason="document deleted")
            return IngestResult(doc_id, IngestOutcome.CANCELLED, revision, DocStatus.RECEIVED, DELETED_REASON, 0, filename)
        if (
            existing is not None
            and existing.current_revision == revision
            and existing.status == DocStatus.INDEXED
        ):
            bound.info("ingest_unchanged", revision=revision)
            return IngestResult(doc_id, IngestOutcome.UNCHANGED, revision, DocStatus.INDEXED, None, 0, filename)

        record = DocumentRecord(
            doc_id=doc_id,
            status=DocStatus.RECEIVED,
            stage=DocStatus.RECEIVED,
            error=None,
            current_revision=existing.current_revision if existing else None,
            title=title or (existing.title if existing else "") or Path(filename).stem,
            filename=filename,
            # No public default: without an ACL a new document is readable by no API principal
            # (only the local operator) until one is set.
            acl=list(acl) if acl is not None else (existing.acl if existing else []),
            collection=collection or (existing.collection if existing else ""),
            metadata=metadata if metadata is not None else (existing.metadata if existing else {}),
            updated_at=utc_now(),
            incarnation=existing.incarnation if existing else "",
        )
        try:
            # Saving a record without an incarnation creates the document and learns its
            # incarnation; every later write is conditional on it.
            self._set_stage(record, DocStatus.RECEIVED)
            if len(data) > self.settings.max_file_bytes:
                raise IngestFailure(DocStatus.RECEIVED, "too large")
            chunks, subjects, text, mime = self._build(record, data, filename, revision, budget)
            self.store.ensure_embedding_model(self.embedder.model_name, self.embedder.dimension)
            budget.check(DocStatus.INDEXING)
            self.on_stage("writing")
            self.store.write_revision(
                doc_id,
                revision,
                text=text,
                chunks=chunks,
                subjects=subjects,
                info={"filename": filename, "mime": mime, "size": len(data)},
                incarnation=record.incarnation,
                check_held=self.check_held,  # between chunk batches: a lost job stops the write
            )
            self.on_stage("written")
            self.store.activate_revision(doc_id, revision, incarnation=record.incarnation)
        except DocumentDeleted:
            bound.info("ingest_cancelled", revision=revision, reason="document deleted")
            return IngestResult(doc_id, IngestOutcome.CANCELLED, revision, record.stage, DELETED_REASON, 0, filename)
        except IngestFailure as failure:
            return self._record_failure(record, revision, failure.stage, failure.reason)
        except InvalidInputError as exc:  # the document's own fault, wherever it was found
            return self._record_failure(record, revision, record.stage or DocStatus.RECEIVED, exc.message)
        except AttestError:
            # Store outages and configuration errors are not the document's fault: they
            # propagate to the caller (the job worker or the CLI), which reports them.
            raise
        except Exception as exc:  # noqa: BLE001 - a parser crash on bad input ends `failed`
            bound.error("ingest_unexpected_error", error_type=type(exc).__name__, exc_info=exc)
            reason = f"internal error during {record.stage}: {type(exc).__name__}: {exc}"
            return self._record_failure(record, revision, record.stage or DocStatus.RECEIVED, reason)
        bound.info("ingest_indexed", revision=revision, chunks=len(chunks))
        return IngestResult(doc_id, IngestOutcome.INDEXED, revision, DocStatus.INDEXED, None, len(chunks), filename)

    # -- stages ---------------------------------------------------------------------------
    def _build(
        self, record: DocumentRecord, data: bytes, filename: str, revision: str, budget: _Budget
    ) -> tuple[list[Chunk], list[SubjectRecord], str, str]:
        from ingest.chunking import chunk_extraction
        from ingest.extract import ExtractionError, detect_type, extract

        self._set_stage(record, DocStatus.EXTRACTING)
        try:
            mime = detect_type(Path(filename), data)
            extraction = extract(
                Path(filename), data, mime, max_unpacked_bytes=self.settings.max_unpacked_bytes
            )
        except ExtractionError as exc:
            raise IngestFailure(DocStatus.EXTRACTING, str(exc)) from exc
        if "\x00" in extraction.text:
            # A NUL is never text: a binary file posing as text, or a corrupt one. Refused
            # rather than stripped, so that stored offsets always index the file's own text.
            raise IngestFailure(
                DocStatus.EXTRACTING,
                f"the text contains a NUL byte at character {extraction.text.index(chr(0))}; "
                "not a text document",
            )
        budget.check(DocStatus.EXTRACTING)
        spans = chunk_extraction(
            extraction,
            self.embedder.count_tokens,
            self.settings.chunk_max_tokens,
            check=lambda: budget.check(DocStatus.EXTRACTING),
        )
        if not spans:
            raise IngestFailure(DocStatus.EXTRACTING, "no extractable text")
        budget.check(DocStatus.EXTRACTING)
        self._set_stage(record, DocStatus.INDEXING)
        text = extraction.text
        ingested_at = utc_now()
        chunks = [
            Chunk(
                chunk_id=chunk_id_for(record.doc_id, revision, span.ordinal),
                doc_id=record.doc_id,
                revision=revision,
                ordinal=span.ordinal,
                title=record.title,
                filename=filename,
                mime=mime,
                page=span.page,
                section=list(span.section),
                element_index=span.element_index,
                line_start=span.line_start,
                line_end=span.line_end,
                char_start=span.char_start,
                char_end=span.char_end,
                text=text[span.char_start : span.char_end],
                acl=list(record.acl),
                collection=record.collection,
                ingested_at=ingested_at,
            )
            for span in spans
        ]
        subjects: list[SubjectRecord] = []
        if self.annotate:
            subjects = self._annotate(chunks, text, record.doc_id, revision, budget)
        budget.check(DocStatus.INDEXING)
        step = max(1, self.settings.embed_batch_size) * 8
        for start in range(0, len(chunks), step):
            batch = chunks[start : start + step]
            vectors = self.embedder.embed([c.text for c in batch])
            for chunk, vector in zip(batch, vectors):
                chunk.embedding = vector.tolist()
            budget.check(DocStatus.INDEXING)
            embed_chunk_units(self.embedder, batch)
            budget.check(DocStatus.INDEXING)
        return chunks, subjects, text, mime

    def _annotate(
        self, chunks: list[Chunk], text: str, doc_id: str, revision: str, budget: _Budget
    ) -> list[SubjectRecord]:
        from ingest.annotate import annotate_document

        processes = self.settings.ingest_nlp_processes
        if processes:  # in a pool process: ingest workers annotate in parallel (nlp_pool.py)
            from ingest.nlp_pool import AnnotationBudgetExceeded, AnnotationProcessDied, annotate_in_pool

            budget.check(DocStatus.INDEXING)
            try:
                result = annotate_in_pool(
                    processes, text, [(c.char_start, c.char_end) for c in chunks],
                    doc_id=doc_id, revision=revision, deadline=budget.wall_deadline(),
                    threads=self.settings.ingest_worker_cores,
                )
            except AnnotationBudgetExceeded:
                raise budget.exceeded(DocStatus.INDEXING) from None
            except AnnotationProcessDied as exc:
                raise IngestFailure(DocStatus.INDEXING, str(exc)) from exc
        else:
            spans = _BudgetedSpans([(c.char_start, c.char_end) for c in chunks], budget)
            with _ANNOTATION_LOCK:
                budget.check(DocStatus.INDEXING)  # time spent waiting for the lock counts too
                result = annotate_document(text, spans, doc_id=doc_id, revision=revision)
        for chunk, ann in zip(chunks, result.chunks):
            chunk.entities = list(ann.entities)
            chunk.entity_ids = list(ann.entity_ids)
            chunk.relations = list(ann.relations)
            chunk.relation_keys = list(ann.relation_keys)
            chunk.sentences = list(ann.sentences)
        return list(result.subjects)

    # -- status bookkeeping ---------------------------------------------------------------
    def _set_stage(self, record: DocumentRecord, stage: str) -> None:
        record.stage = stage
        record.status = stage
        record.error = None
        record.updated_at = utc_now()
        self.on_stage(stage)  # first: a worker that lost its job stops before the write
        self.store.save_document(record)

    def _record_failure(
        self, record: DocumentRecord, revision: str, stage: str, reason: str
    ) -> IngestResult:
        record.status = DocStatus.FAILED
        record.stage = stage
        record.error = reason
        record.updated_at = utc_now()
        try:
            self.check_held()
            self.store.save_document(record)
        except DocumentDeleted:
            log.info("ingest_cancelled", doc_id=record.doc_id, stage=stage, reason="document deleted")
            return IngestResult(
                record.doc_id, IngestOutcome.CANCELLED, revision, stage, DELETED_REASON, 0, record.filename
            )
        log.info("ingest_failed", doc_id=record.doc_id, stage=stage, reason=reason)
        return IngestResult(record.doc_id, IngestOutcome.FAILED, revision, stage, reason, 0, record.filename)

    def _fail_new(self, doc_id: str, filename: str, stage: str, reason: str) -> IngestResult:
        existing = self.store.get_document(doc_id)
        record = existing or DocumentRecord(
            doc_id=doc_id,
            status=DocStatus.FAILED,
            stage=stage,
            error=reason,
            current_revision=None,
            title=Path(filename).stem,
            filename=filename,
            acl=[],
            collection="",
            metadata={},
            updated_at=utc_now(),
        )
        return self._record_failure(record, "", stage, reason)
