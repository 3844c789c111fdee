"""The ingest queue on Elasticsearch: one document per job in ``{prefix}-jobs`` (behind the alias
of ``{prefix}-jobs-v1``, mapping ``mappings/jobs.v1.json``), so every API replica and every
``attest worker`` sees the same queue and any replica reports any job.

**Leases, not locks.** A worker claims a job by rewriting its document with ``if_seq_no`` and
``if_primary_term`` taken from a real-time GET: of two claimers of one job exactly one write
succeeds, the other gets a version conflict and tries the next job. A claim sets ``lease_owner``
(this process) and ``lease_expires_ms``; the worker renews the lease while the job runs (every
third of ``ingest_lease_seconds``, and at every stage change). A worker that dies stops renewing,
and once the lease has expired the job is claimable again: another worker takes it over (one
attempt more; after ``MAX_ATTEMPTS`` it is failed with the reason by :meth:`recover`). Every
later write of the job by its holder is conditional on the sequence number of its own last
write, so a worker that lost its lease (paused past the expiry) can no longer write the job it
no longer holds: not its stage, not its outcome; and since the pipeline writes the job's stage
(or asks ``still_holds``) before each write of the document, and ``write_revision`` asks between
its chunk batches, it stops writing the document too (``service.api.jobs.JobHold``). Re-running an interrupted job is idempotent: chunk ids are
deterministic and a revision becomes current only after all its chunks are written.

**One running job per document.** After a claim (written with ``refresh``), the claimer looks
for another live running job of the same document; if there is one it gives its claim back
(both may back off when they race; the job is claimed again at the next poll). A document's
jobs therefore never run concurrently.

**Deterministic job ids.** ``job_id`` is a hash of (doc_id, incarnation, revision, request id)
and the job is created with ``op_type=create``: a retried create (a client timeout, a transport
retry) finds the job it already made instead of queueing the same upload twice.

The upload bytes live in the upload store (``service/api/upload_store.py``): an S3-compatible
bucket every replica and worker reaches (``ATTEST_UPLOAD_STORE=s3``), or ``uploads_dir``
(``ATTEST_UPLOADS_DIR``), which every replica and worker must then mount (a shared volume).
``ingest_queue_size`` is checked by a count before the create, so
concurrent replicas may overshoot it by at most one job each.
"""

from __future__ import annotations

import functools
import hashlib
import os
import socket
import threading
import time
import uuid
from pathlib import Path
from typing import Any, Callable, Sequence

import structlog

import mappings
from ingest.clock import utc_now
from ingest.store.port import StoreError
from ingest.store.elastic import es_store_error
from ingest.statuses import DocStatus, JobState
from ingest.store.es_admin import es_hosts
from ingest.errors import AttestError
from service.api.job_queue import MAX_ATTEMPTS, Job, QueueFull
from service.api.upload_store import LocalUploadStore, UploadRef, UploadStore

log = structlog.get_logger(__name__)

_KIND = "jobs"
_VERSION = 1
_PAGE = 1000  # bound of one search: candidates, running jobs, a document's queued jobs
_CANDIDATES = 50  # queued jobs considered per claim
# still_holds writes a renewal only once this fraction of the lease has passed since this
# process's last write of the job (the heartbeat renews at the same period).
RENEW_FRACTION = 1 / 3


def job_id_for(doc_id: str, incarnation: str | None, revision: str, request_id: str) -> str:
    """The id of the job one upload request makes: the same request always makes the same job."""
    key = "\x00".join((doc_id, incarnation or "", revision, request_id))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def _now_ms() -> int:
    return int(time.time() * 1000)


def _translate_es_errors(method: Any) -> Any:
    """Elasticsearch errors become store errors as in the document store
    (:func:`ingest.store.elastic.es_store_error`). The index is created on first use, so an API
    replica starts (and reports not ready) while the cluster is down."""

    @functools.wraps(method)
    def wrapper(self: "ElasticJobQueue", *args: Any, **kwargs: Any) -> Any:
        try:
            self._ensure_index()
            return method(self, *args, **kwargs)
        except StoreError:
            raise
        except Exception as exc:
            translated = es_store_error(
                exc, source="the Elasticsearch job queue", request="a job queue request"
            )
            if translated is None:
                raise
            raise translated from exc

    return wrapper


class ElasticJobQueue:
    """The :class:`service.api.jobs.JobQueue` port on Elasticsearch (see the module docstring).
    Thread-safe; ``owner`` names this process in the leases it holds."""

    def __init__(
        self,
        url: str,
        uploads_dir: Path,
        *,
        prefix: str = "attest",
        lease_seconds: float = 60.0,
        client: Any = None,
        upload_store: UploadStore | None = None,
    ) -> None:
        from elasticsearch import Elasticsearch

        self.es = client if client is not None else Elasticsearch(
            es_hosts(url), request_timeout=30, retry_on_timeout=True, max_retries=3
        )
        self.alias = f"{prefix}-{_KIND}"
        self.index = f"{prefix}-{_KIND}-v{_VERSION}"
        self.upload_store: UploadStore = upload_store or LocalUploadStore(Path(uploads_dir))
        self.uploads = self.upload_store.staging
        self.lease_seconds = float(lease_seconds)
        self.recover_seconds = self.lease_seconds  # how often a live worker runs recover
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        # job_id -> (seq_no, primary_term) of this process's last write of a job it holds, and
        # the monotonic time of that write (when its lease was last extended).
        self._held: dict[str, tuple[int, int]] = {}
        self._written_at: dict[str, float] = {}
        self._lock = threading.Lock()
        self._ready = False

    # -- index --------------------------------------------------------------------------------
    def _ensure_index(self) -> None:
        from elasticsearch import BadRequestError

        if self._ready:
            return
        if self.es.indices.exists_alias(name=self.alias):
            self._ready = True
            return
        body = mappings.load(_KIND, _VERSION)
        try:
            self.es.indices.create(
                index=self.index,
                settings=body.get("settings"),
                mappings=body["mappings"],
                aliases={self.alias: {"is_write_index": True}},
                wait_for_active_shards="1",
            )
        except BadRequestError as exc:
            if exc.error != "resource_already_exists_exception":
                raise
            # Created by another replica at the same moment.
            self.es.indices.put_alias(index=self.index, name=self.alias)
        self._ready = True

    def drop(self) -> None:
        """Delete the jobs index (tests and resets)."""
        self.es.indices.delete(index=self.index, ignore_unavailable=True)
        self._ready = False

    def close(self) -> None:
        """Per-thread cleanup hook of the port; the client is shared and stays open."""

    def shutdown(self) -> None:
        self.es.close()

    # -- records ------------------------------------------------------------------------------
    @staticmethod
    def _job(source: dict[str, Any]) -> Job:
        return Job(
            job_id=source["job_id"],
            doc_id=source["doc_id"],
            revision=source["revision"],
            filename=source["filename"],
            title=source.get("title"),
            acl=source.get("acl"),
            collection=source.get("collection") or "",
            metadata=source.get("metadata"),
            principal=source["principal"],
            request_id=source["request_id"],
            state=source["state"],
            stage=source.get("stage"),
            result=source.get("result"),
            error=source.get("error"),
            attempts=int(source.get("attempts", 0)),
            created_at=source["created_at"],
            updated_at=source["updated_at"],
            incarnation=source.get("incarnation"),
        )

    def _get_raw(self, job_id: str) -> tuple[dict[str, Any], int, int] | None:
        from elasticsearch import NotFoundError

        try:
            hit = self.es.get(index=self.alias, id=job_id, realtime=True)
        except NotFoundError:
            return None
        return hit["_source"], hit["_seq_no"], hit["_primary_term"]

    def _search(self, query: dict[str, Any], *, size: int, sort: Any = None, **kw: Any) -> list[dict]:
        body = self.es.search(index=self.alias, query=query, size=size, sort=sort, **kw)
        return body["hits"]["hits"]

    def _write(self, source: dict[str, Any], seq_no: int, primary_term: int) -> tuple[int, int]:
        """Rewrite a job only if nobody wrote it since ``seq_no``; raises ``ConflictError``."""
        resp = self.es.index(
            index=self.alias, id=source["job_id"], document=source,
            if_seq_no=seq_no, if_primary_term=primary_term, refresh=True,
        )
        return resp["_seq_no"], resp["_primary_term"]

    # -- uploads ------------------------------------------------------------------------------
    def upload_path(self, sha256: str) -> Path:
        return self.uploads / sha256

    def job_upload_path(self, job: Job) -> Path:
        """The job's file in the local upload store."""
        return self.uploads / f"job-{job.job_id}"

    def read_upload(self, job: Job, max_bytes: int) -> bytes:
        """The job's bytes, checked against its revision (``UploadLost``, ``StoreUnavailable``)."""
        return self.upload_store.read(job.upload_ref(), max_bytes)

    def release_upload(self, job: Job) -> None:
        self._release(job.upload_ref())

    def _release(self, ref: UploadRef) -> None:
        try:
            self.upload_store.delete(ref)
        except AttestError as exc:  # the document's delete removes whatever is left
            log.warning("ingest_upload_release_failed", job_id=ref.job_id,
                        error_type=type(exc).__name__, error=exc.message)

    # -- the port -----------------------------------------------------------------------------
    def add(
        self,
        *,
        doc_id: str,
        revision: str,
        filename: str,
        principal: str,
        request_id: str,
        title: str | None = None,
        acl: Sequence[str] | None = None,
        collection: str = "",
        metadata: dict[str, Any] | None = None,
        limit: int | None = None,
        incarnation: str | None = None,
        upload: Path | None = None,
    ) -> Job:
        """Queue a job (see :meth:`service.api.jobs.JobStore.add`). A repeat of the same request
        returns the job it made the first time."""
        from elasticsearch import ConflictError

        job_id = job_id_for(doc_id, incarnation, revision, request_id)
        existing = self._get_raw(job_id)
        if existing is not None:
            if upload is not None:
                upload.unlink(missing_ok=True)  # the first attempt's copy holds the same bytes
            return self._job(existing[0])
        if limit is not None and self.depth() >= limit:
            raise QueueFull(f"{limit} jobs are waiting")
        ref = UploadRef(job_id=job_id, doc_id=doc_id, incarnation=incarnation, revision=revision)
        if upload is not None:
            self.upload_store.put(ref, upload)  # before the job exists: never a job without its bytes
        now = utc_now()
        source = {
            "job_id": job_id, "seq": time.time_ns(), "doc_id": doc_id, "revision": revision,
            "filename": filename, "title": title,
            "acl": list(acl) if acl is not None else None, "collection": collection,
            "metadata": metadata, "principal": principal, "request_id": request_id,
            "state": JobState.QUEUED, "stage": DocStatus.RECEIVED, "result": None, "error": None,
            "attempts": 0, "created_at": now, "updated_at": now, "incarnation": incarnation,
            "claimed_ms": None, "lease_owner": None, "lease_expires_ms": None,
        }
        try:
            self.es.index(index=self.alias, id=job_id, document=source, op_type="create", refresh=True)
        except ConflictError:
            pass  # a concurrent retry of the same request created it first: same job
        except Exception:
            if upload is not None:
                self._release(ref)
            raise
        got = self._get_raw(job_id)
        assert got is not None
        return self._job(got[0])

    def get(self, job_id: str) -> Job | None:
        got = self._get_raw(job_id)
        return self._job(got[0]) if got else None

    def for_document(self, doc_id: str, incarnation: str | None = None, limit: int = 20) -> list[Job]:
        must: list[dict[str, Any]] = [{"term": {"doc_id": doc_id}}]
        if incarnation is not None:
            must.append({"term": {"incarnation": incarnation}})
        hits = self._search({"bool": {"filter": must}}, size=limit,
                            sort=[{"seq": "desc"}, {"job_id": "asc"}])
        return [self._job(h["_source"]) for h in hits]

    def depth(self) -> int:
        return int(self.es.count(index=self.alias, query={"term": {"state": JobState.QUEUED}})["count"])

    def counts(self) -> dict[str, int]:
        body = self.es.search(index=self.alias, size=0,
                              aggs={"states": {"terms": {"field": "state", "size": 20}}})
        return {b["key"]: int(b["doc_count"]) for b in body["aggregations"]["states"]["buckets"]}

    def _live_running(self, now_ms: int, **extra: Any) -> list[dict]:
        query = {"bool": {"filter": [{"term": {"state": JobState.RUNNING}},
                                     {"range": {"lease_expires_ms": {"gte": now_ms}}},
                                     *[{"term": {k: v}} for k, v in extra.items()]]}}
        return self._search(query, size=_PAGE, source=["job_id", "doc_id", "principal"])

    def claim(self) -> Job | None:
        """Lease the next job: queued, or running under an expired lease with attempts left.
        Same order as the SQLite queue: the principal with the fewest running jobs, then the one
        whose last claim is oldest, then the oldest job; a document with a running job waits."""
        from elasticsearch import ConflictError

        now = _now_ms()
        claimable = {"bool": {"should": [
            {"term": {"state": JobState.QUEUED}},
            {"bool": {"filter": [{"term": {"state": JobState.RUNNING}},
                                 {"range": {"lease_expires_ms": {"lt": now}}},
                                 {"range": {"attempts": {"lt": MAX_ATTEMPTS}}}]}},
        ], "minimum_should_match": 1}}
        candidates = self._search(claimable, size=_CANDIDATES, sort=[{"seq": "asc"}, {"job_id": "asc"}])
        if not candidates:
            return None
        running = self._live_running(now)
        busy_docs = {h["_source"]["doc_id"] for h in running}
        per_principal: dict[str, int] = {}
        for hit in running:
            p = hit["_source"]["principal"]
            per_principal[p] = per_principal.get(p, 0) + 1
        principals = sorted({h["_source"]["principal"] for h in candidates})
        last = self.es.search(index=self.alias, size=0, query={"terms": {"principal": principals}},
                              aggs={"p": {"terms": {"field": "principal", "size": len(principals)},
                                          "aggs": {"last": {"max": {"field": "claimed_ms"}}}}})
        last_claim = {b["key"]: b["last"]["value"] or 0 for b in last["aggregations"]["p"]["buckets"]}
        order = sorted(
            (h["_source"] for h in candidates if h["_source"]["doc_id"] not in busy_docs),
            key=lambda s: (per_principal.get(s["principal"], 0), last_claim.get(s["principal"], 0),
                           s["seq"], s["job_id"]),
        )
        for candidate in order:
            got = self._get_raw(candidate["job_id"])
            if got is None:
                continue
            source, seq_no, term = got
            expired = source["state"] == JobState.RUNNING and (source.get("lease_expires_ms") or 0) < now
            if not (source["state"] == JobState.QUEUED or (expired and source["attempts"] < MAX_ATTEMPTS)):
                continue
            previous = dict(source)
            claimed = _now_ms()
            written = time.monotonic()  # the lease below runs from no earlier than this
            source.update(state=JobState.RUNNING, attempts=int(source["attempts"]) + 1,
                          claimed_ms=claimed, lease_owner=self.owner,
                          lease_expires_ms=claimed + int(self.lease_seconds * 1000),
                          updated_at=utc_now())
            try:
                version = self._write(source, seq_no, term)
            except ConflictError:
                continue  # another worker claimed (or cancelled) it first
            others = [h for h in self._live_running(_now_ms(), doc_id=source["doc_id"])
                      if h["_source"]["job_id"] != source["job_id"]]
            if others:
                # Another job of this document runs (claimed concurrently): give this one back.
                try:
                    self._write(previous, *version)
                except ConflictError:
                    pass
                continue
            with self._lock:
                self._held[source["job_id"]] = version
                self._written_at[source["job_id"]] = written
            if expired:
                log.info("ingest_job_taken_over", job_id=source["job_id"], doc_id=source["doc_id"],
                         previous_owner=previous.get("lease_owner"), attempts=source["attempts"])
            return self._job(source)
        return None

    def _update_held(self, job_id: str, *, renew_after: float = 0.0, **changes: Any) -> bool:
        """Change a job this process holds; False (and the job is dropped) if the lease was lost.
        The job is read first (real-time): any write by another process since this process's
        last one (a takeover, a recovery) changed its version, and that alone is a loss. With
        ``renew_after`` > 0 nothing is written unless that many seconds have passed since this
        process's last write of the job (an unchanged version means the lease from that write
        still holds)."""
        from elasticsearch import ConflictError

        with self._lock:
            version = self._held.get(job_id)
            if version is None:
                return False
            started = time.monotonic()
            got = self._get_raw(job_id)
            if got is None or (got[1], got[2]) != version or got[0].get("lease_owner") != self.owner:
                self._drop_held(job_id)
                log.warning("ingest_lease_lost", job_id=job_id)
                return False
            if renew_after and started - self._written_at.get(job_id, float("-inf")) < renew_after:
                return True  # read back unchanged: still this process's, lease not yet due
            source = got[0]
            source.update(changes, updated_at=utc_now())
            try:
                self._held[job_id] = self._write(source, *version)
            except ConflictError:
                self._drop_held(job_id)
                log.warning("ingest_lease_lost", job_id=job_id)
                return False
            # Measured from before the read: the lease written is at least that fresh.
            self._written_at[job_id] = started
            return True

    def _drop_held(self, job_id: str) -> None:
        self._held.pop(job_id, None)
        self._written_at.pop(job_id, None)

    def renew_leases(self) -> int:
        """Extend every lease this process holds; returns how many are still held."""
        with self._lock:
            held = list(self._held)
        kept = 0
        for job_id in held:
            if self._update_held(job_id, lease_expires_ms=_now_ms() + int(self.lease_seconds * 1000)):
                kept += 1
        return kept

    def set_stage(self, job_id: str, stage: str) -> bool:
        """Record the job's progress and renew its lease; False (nothing written) once the
        lease is lost. The renewal gives the holder a whole lease for the document write that
        follows (``Ingestor`` writes the document after the stage)."""
        return self._update_held(job_id, stage=stage,
                                 lease_expires_ms=_now_ms() + int(self.lease_seconds * 1000))

    def finish(
        self, job_id: str, state: str, *, result: dict[str, Any] | None = None, error: str | None = None
    ) -> bool:
        """End a held job. False when the lease was lost: the job belongs to another worker now."""
        changes: dict[str, Any] = {"state": state, "result": result, "error": error,
                                   "lease_expires_ms": None}
        if (result or {}).get("stage"):
            changes["stage"] = result["stage"]  # type: ignore[index]
        done = self._update_held(job_id, **changes)
        with self._lock:
            self._drop_held(job_id)
        return done

    def _set_if_unchanged(self, hit: dict[str, Any], **changes: Any) -> bool:
        from elasticsearch import ConflictError

        source = dict(hit["_source"], **changes, updated_at=utc_now())
        try:
            self._write(source, hit["_seq_no"], hit["_primary_term"])
        except ConflictError:
            return False
        return True

    def cancel_for_document(self, doc_id: str, reason: str) -> int:
        """Cancel the document's queued jobs (a job claimed meanwhile is not touched: the store
        refuses its writes once the document is deleted) and drop their bytes."""
        cancelled = 0
        for _round in range(5):  # a conflict means a claim landed: look again
            hits = self._search({"bool": {"filter": [{"term": {"doc_id": doc_id}},
                                                     {"term": {"state": JobState.QUEUED}}]}},
                                size=_PAGE, seq_no_primary_term=True)
            if not hits:
                break
            for hit in hits:
                if self._set_if_unchanged(hit, state=JobState.CANCELLED, error=reason):
                    cancelled += 1
                    self._release(self._job(hit["_source"]).upload_ref())
        return cancelled

    def recover(
        self, before_fail: Callable[[Job], None] | None = None, *, periodic: bool = False
    ) -> dict[str, Any]:
        """Fail the jobs no worker can finish: leases that expired with no attempts left, and
        expired or queued jobs whose upload is gone. Other expired jobs are not touched here:
        :meth:`claim` takes them over. Safe to run in every worker at any time.
        ``before_fail`` is told each job before it is failed (see ``JobStore.recover``); a
        ``periodic`` pass (every ``recover_seconds``, one lease) does the same work.

        Recovery first takes the job's lease itself, through the version it read
        (``if_seq_no``/``if_primary_term``), and only then tells ``before_fail``: a worker that
        claimed the job, or a holder that renewed its lease, since that read wins and the job is
        left alone, and once recovery holds the job nobody can claim it or write it until it is
        failed. So a document is never marked failed for a job another worker goes on running.
        If this process dies in between, its lease expires and the job is recovered again."""
        now = _now_ms()
        query = {"bool": {"should": [
            {"term": {"state": JobState.QUEUED}},
            {"bool": {"filter": [{"term": {"state": JobState.RUNNING}},
                                 {"range": {"lease_expires_ms": {"lt": now}}}]}},
        ], "minimum_should_match": 1}}
        failed_jobs: list[Job] = []
        for hit in self._search(query, size=_PAGE, sort=[{"seq": "asc"}], seq_no_primary_term=True):
            source = hit["_source"]
            reason = None
            if not self._upload_exists(self._job(source)):
                reason = "upload file missing; upload the document again"
            elif source["state"] == JobState.RUNNING and source["attempts"] >= MAX_ATTEMPTS:
                reason = f"interrupted {source['attempts']} times; giving up"
            if reason is None or not self._hold_for_recovery(hit):
                continue
            job = self._job(dict(source, state=JobState.FAILED, error=reason))
            try:
                if before_fail is not None:
                    before_fail(job)
                if self._update_held(job.job_id, state=JobState.FAILED, error=reason,
                                     lease_expires_ms=None):
                    failed_jobs.append(job)
            finally:
                with self._lock:
                    self._drop_held(job.job_id)
        return {"requeued": 0, "failed": len(failed_jobs), "failed_jobs": failed_jobs}

    def _hold_for_recovery(self, hit: dict[str, Any]) -> bool:
        """Lease a job recovery is about to fail, if nobody wrote it since ``hit`` was read.
        Its attempts and claim time stay as they were: recovery is not an attempt."""
        from elasticsearch import ConflictError

        written = time.monotonic()
        source = dict(hit["_source"], state=JobState.RUNNING, lease_owner=self.owner,
                      lease_expires_ms=_now_ms() + int(self.lease_seconds * 1000), updated_at=utc_now())
        try:
            version = self._write(source, hit["_seq_no"], hit["_primary_term"])
        except ConflictError:
            return False  # claimed, renewed or cancelled meanwhile: its holder goes on
        with self._lock:
            self._held[source["job_id"]] = version
            self._written_at[source["job_id"]] = written
        return True

    def still_holds(self, job_id: str) -> bool:
        """Whether this process still holds the job: one real-time read, the job unchanged since
        this process's last write. Renews the lease (one write) only once a third of it
        (``RENEW_FRACTION``) has passed since that write, so the holder always has at least two
        thirds of a lease for the document write that follows (``IngestWorker`` asks before
        settling, ``write_revision`` between chunk batches). A takeover needs the lease expired,
        i.e. a whole lease without a write by this process, and the taker's claim is a write:
        the read sees its version, so a lost job is never reported held."""
        return self._update_held(job_id, renew_after=RENEW_FRACTION * self.lease_seconds,
                                 lease_expires_ms=_now_ms() + int(self.lease_seconds * 1000))

    def _upload_exists(self, job: Job) -> bool:
        """Whether the job's bytes are stored; a store that cannot answer counts as yes (an
        outage never fails a job here)."""
        try:
            return self.upload_store.exists(job.upload_ref())
        except AttestError as exc:
            log.warning("ingest_upload_check_failed", job_id=job.job_id,
                        error_type=type(exc).__name__, error=exc.message)
            return True



for _name in ("add", "get", "for_document", "depth", "counts", "claim", "renew_leases",
              "set_stage", "finish", "cancel_for_document", "recover", "still_holds"):
    setattr(ElasticJobQueue, _name, _translate_es_errors(getattr(ElasticJobQueue, _name)))
