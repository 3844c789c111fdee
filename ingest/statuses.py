"""Every status, state and outcome value that Attest stores or returns, as one vocabulary.

Each is a ``StrEnum``: a member *is* its string (``DocStatus.INDEXED == "indexed"``), so JSON,
SQL, Elasticsearch documents and log fields carry exactly the values they always did, and values
read back from storage compare equal to the members. The module sits in ``ingest/`` because both
halves use it and ``ingest/`` never imports ``service/``. The evidence machine's ``State`` stays
with its transition table (``service/evidence/states.py``).
"""

from __future__ import annotations

from enum import StrEnum


class DocStatus(StrEnum):
    """A document row's ``status``; its ``stage`` is the last of these it reached (a failure
    keeps the stage it failed in)."""

    RECEIVED = "received"
    EXTRACTING = "extracting"
    INDEXING = "indexing"
    INDEXED = "indexed"
    FAILED = "failed"


class RevisionStatus(StrEnum):
    """A stored revision's ``status``: written by ``write_revision``, then current or superseded
    at each ``activate_revision``."""

    WRITTEN = "written"
    CURRENT = "current"
    SUPERSEDED = "superseded"


class IngestOutcome(StrEnum):
    """What one ingest run did (``IngestResult.status``, the CLI's and the job's result)."""

    INDEXED = "indexed"
    UNCHANGED = "unchanged"  # same bytes as the current, indexed revision: nothing written
    FAILED = "failed"
    CANCELLED = "cancelled"  # the document was deleted meanwhile: nothing written


class JobState(StrEnum):
    """An ingest job's ``state`` in the job queue (SQLite ``jobs`` table or the ES jobs index)."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


class Confidence(StrEnum):
    """An evidence unit's and an evidence report's confidence."""

    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class CitationStatus(StrEnum):
    """A citation re-resolved against the stored revision text (sweeps, audit revalidation)."""

    VALID = "valid"
    EXCERPT_MISMATCH = "excerpt_mismatch"  # the stored text at the span is not the excerpt shown
    REVISION_MISSING = "revision_missing"  # the document exists but this revision's text is gone
    DOCUMENT_DELETED = "document_deleted"  # the document no longer exists
    NOT_VISIBLE = "not_visible"  # the document exists but the principal may no longer read it


class RuleOutcome(StrEnum):
    """A sweep rule's outcome, per claim and for the rule (``service/sweeps/rules.py``)."""

    FLAGGED = "flagged"
    PASSED = "passed"
    NOT_EVALUABLE = "not_evaluable"
    ERROR = "error"


class SweepStatus(StrEnum):
    """A sweep run's ``status`` in its report and run listing."""

    FINDINGS = "findings"
    CLEAN = "clean"


class CallOutcome(StrEnum):
    """An MCP tool call's or resource read's ``outcome`` in its audit entry."""

    OK = "ok"
    ERROR = "error"


class HealthStatus(StrEnum):
    """``/healthz`` and ``/readyz`` bodies' ``status``."""

    OK = "ok"
    READY = "ready"
    NOT_READY = "not_ready"
