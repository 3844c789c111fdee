"""The upload-storage port: where an accepted upload's bytes wait until a worker ingests them.

Two adapters, picked by ``ATTEST_UPLOAD_STORE`` in ``service.api.jobs.open_upload_store`` (this
module is the port, a leaf: the adapters import it, never the other way):

* :class:`LocalUploadStore` (``local``, the default): files in ``ATTEST_UPLOADS_DIR``
  (``<data_dir>/uploads``). Several API replicas and workers share it only as a mounted volume.
* :class:`service.api.upload_store_s3.S3UploadStore` (``s3``): objects in an S3-compatible
  bucket (AWS S3, MinIO, Ceph, ...), so replicas and workers on different machines share
  uploads without a shared volume.

The contract every adapter keeps (``tests/api/test_upload_store_s3.py`` runs it on both):

* **Whole or nothing.** :meth:`UploadStore.put` makes the object visible only complete (a
  rename; an S3 PUT). The queue records the job only after ``put`` returned, so a job never
  exists without its bytes; a crash in between leaves an object under the document's key
  prefix, which :meth:`UploadStore.delete_document` removes with the document.
* **Checked on read.** :meth:`UploadStore.read` returns the bytes only when they hash (SHA-256)
  to the job's revision, which *is* the SHA-256 the API computed while streaming the upload,
  and are no larger than the bound; otherwise :class:`UploadLost`.
* **Errors in the one tree.** A missing or unusable object is :class:`UploadLost` (the job ends
  ``failed`` with the reason); an unreachable store, refused credentials or a missing bucket is
  :class:`ingest.store.port.StoreUnavailable` (503 with ``Retry-After`` in the API, ``failed``
  with the reason for a job). Library errors never leave an adapter.
* **No document text in logs.** Adapters log keys (hashes of doc ids) and sizes, never bytes.
"""

from __future__ import annotations

import errno
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import structlog

from ingest.errors import NotFoundError
from ingest.settings import Settings
from ingest.store.port import StoreUnavailable

__all__ = [
    "LocalUploadStore",
    "UploadLost",
    "UploadRef",
    "UploadStore",
    "staging_dir",
]

log = structlog.get_logger(__name__)


class UploadLost(NotFoundError):
    """Raised when a job's upload is missing, over the size bound, or not the bytes that were
    uploaded (their SHA-256 is not the job's revision): the job cannot run; upload again."""


@dataclass(frozen=True, slots=True)
class UploadRef:
    """What names one job's upload: the job, its document (and the document's incarnation, so
    a later owner of the doc id never shares a key prefix) and the SHA-256 of the bytes."""

    job_id: str
    doc_id: str
    incarnation: str | None
    revision: str


class UploadStore(Protocol):
    """Where accepted uploads wait (see the module docstring for the contract)."""

    staging: Path
    """A local directory the API streams an incoming upload to before :meth:`put`."""

    def put(self, ref: UploadRef, source: Path) -> None:
        """Store the staged file ``source`` as ``ref``'s upload, visible only when complete.
        ``source`` is consumed on success and left in place on failure. Raises
        ``StoreUnavailable``."""
        ...

    def read(self, ref: UploadRef, max_bytes: int) -> bytes:
        """The upload's bytes, checked: at most ``max_bytes`` and hashing to ``ref.revision``.
        Raises :class:`UploadLost` or ``StoreUnavailable``."""
        ...

    def exists(self, ref: UploadRef) -> bool:
        """Whether ``ref``'s upload is stored. Raises ``StoreUnavailable``."""
        ...

    def delete(self, ref: UploadRef) -> None:
        """Remove ``ref``'s upload; nothing to remove is fine. Raises ``StoreUnavailable``."""
        ...

    def delete_document(self, doc_id: str, incarnation: str | None, job_ids: list[str]) -> int:
        """Remove every upload of the document's incarnation: those of ``job_ids`` and (where
        the adapter keys objects by document) any other under the document's prefix, such as
        one left by a crash between ``put`` and the job record. Returns how many were removed.
        Raises ``StoreUnavailable``."""
        ...

    def check(self) -> None:
        """Readiness: raises ``StoreUnavailable`` when the store cannot be used now."""
        ...

    def describe(self) -> str:
        """Where uploads go, for logs (no credentials)."""
        ...


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()


def check_upload(ref: UploadRef, data: bytes, max_bytes: int, where: str) -> bytes:
    """The adapters' read check: within the bound and the bytes the job was queued with."""
    if len(data) > max_bytes:
        raise UploadLost(f"upload is larger than the limit of {max_bytes} bytes; upload again",
                         job_id=ref.job_id)
    if hashlib.sha256(data).hexdigest() != ref.revision:
        log.error("upload_hash_mismatch", job_id=ref.job_id, where=where, size=len(data))
        raise UploadLost("upload content does not match its hash (corrupted in storage); "
                         "upload the document again", job_id=ref.job_id)
    return data


class LocalUploadStore:
    """Uploads as files ``job-<job_id>`` in one directory (today's layout, unchanged), renamed
    into place from ``.incoming-*`` files in the same directory. Jobs queued by versions before
    per-job files kept their bytes at ``<sha256>``; :meth:`read` still finds those."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.staging = self.root

    def path(self, ref: UploadRef) -> Path:
        return self.root / f"job-{ref.job_id}"

    def legacy_path(self, revision: str) -> Path:
        return self.root / revision

    def _readable_path(self, ref: UploadRef) -> Path:
        own = self.path(ref)
        legacy = self.legacy_path(ref.revision)
        return own if own.exists() or not legacy.exists() else legacy

    def put(self, ref: UploadRef, source: Path) -> None:
        try:
            os.replace(source, self.path(ref))  # atomic within one filesystem
        except OSError as exc:
            raise StoreUnavailable(f"the uploads directory cannot be written: {exc.strerror}") from exc

    def read(self, ref: UploadRef, max_bytes: int) -> bytes:
        path = self._readable_path(ref)
        try:
            with open(path, "rb") as f:
                data = f.read(max_bytes + 1)
        except FileNotFoundError as exc:
            raise UploadLost("upload file missing; upload the document again",
                             job_id=ref.job_id) from exc
        except OSError as exc:
            raise StoreUnavailable(f"upload file unreadable: {exc.strerror}") from exc
        return check_upload(ref, data, max_bytes, where="local")

    def exists(self, ref: UploadRef) -> bool:
        return self._readable_path(ref).exists()

    def delete(self, ref: UploadRef) -> None:
        try:
            self.path(ref).unlink(missing_ok=True)
        except OSError as exc:
            if exc.errno != errno.ENOENT:
                raise StoreUnavailable(f"upload file cannot be removed: {exc.strerror}") from exc

    def delete_document(self, doc_id: str, incarnation: str | None, job_ids: list[str]) -> int:
        removed = 0
        for job_id in job_ids:
            path = self.root / f"job-{job_id}"
            if path.exists():
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    def check(self) -> None:
        if not os.access(self.root, os.W_OK):
            raise StoreUnavailable("the uploads directory is not writable")

    def describe(self) -> str:
        return f"local:{self.root}"


def staging_dir(settings: Settings) -> Path:
    """``ATTEST_UPLOADS_DIR``, default ``<data_dir>/uploads``: the local store's directory, and
    the S3 store's local staging area for incoming uploads."""
    return Path(settings.uploads_dir) if settings.uploads_dir else Path(settings.data_dir) / "uploads"
