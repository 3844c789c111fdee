"""Uploads on an S3-compatible object store (``ATTEST_UPLOAD_STORE=s3``), with boto3 (the
optional extra ``s3``). The contract is the port's (``service/api/upload_store.py``).

**Keys.** ``<prefix><sha256(doc_id)[:32]>/<incarnation>/job-<job_id>``: the doc id is hashed, so
no document name reaches the bucket's key space or its access logs and every key has a fixed
length; the incarnation keeps a later owner of the same doc id out of a deleted document's
prefix, so deleting a document removes everything under its prefix, including an object a crash
left between the PUT and the job record.

**Whole or nothing.** One ``PutObject`` per upload (S3 makes an object visible only once it is
complete) with ``ChecksumSHA256`` set to the digest the API computed while streaming, so a
store that checks it (AWS S3, MinIO) refuses bytes damaged on the way. The SHA-256 is also kept
in the object's metadata, and the worker checks the bytes it reads against the job's revision.

**Errors.** botocore's connection errors and timeouts, 5xx and throttling answers, refused
credentials and a missing bucket become ``StoreUnavailable`` (retry later; botocore has already
retried ``s3_max_attempts`` times in its standard mode, with backoff); a missing object on read is
``UploadLost``. Credentials come from boto3's standard chain (environment, shared config and
credentials files, a web identity or instance role), never from Attest settings.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path
from typing import Any, Iterator

import boto3
import structlog
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError

from ingest.settings import Settings
from ingest.store.port import StoreUnavailable
from service.api.upload_store import UploadLost, UploadRef, check_upload, staging_dir

__all__ = ["S3_MAX_OBJECT_BYTES", "S3UploadStore"]

log = structlog.get_logger(__name__)

# One PutObject carries at most 5 GiB; an upload is stored whole, in one PUT.
S3_MAX_OBJECT_BYTES = 5 * 1024**3
_MISSING = {"NoSuchKey", "404", "NotFound"}
_DELETE_BATCH = 1000  # DeleteObjects takes at most 1,000 keys


def _doc_prefix(prefix: str, doc_id: str, incarnation: str | None) -> str:
    doc_key = hashlib.sha256(doc_id.encode("utf-8")).hexdigest()[:32]
    return f"{prefix}{doc_key}/{incarnation or '-'}/"


class S3UploadStore:
    """The :class:`service.api.upload_store.UploadStore` port on one bucket. Thread-safe (a
    boto3 client is; it is built once)."""

    def __init__(self, client: Any, bucket: str, *, prefix: str, staging: Path,
                 endpoint: str | None = None) -> None:
        self.client = client
        self.bucket = bucket
        self.prefix = prefix
        self.endpoint = endpoint
        self.staging = Path(staging)
        self.staging.mkdir(parents=True, exist_ok=True)

    @classmethod
    def from_settings(cls, settings: Settings) -> "S3UploadStore":
        config = Config(
            connect_timeout=settings.s3_timeout_seconds,
            read_timeout=settings.s3_timeout_seconds,
            retries={"max_attempts": settings.s3_max_attempts, "mode": "standard"},
            # MinIO and most self-hosted stores serve buckets by path, not by host name.
            s3={"addressing_style": "path" if settings.s3_endpoint_url else "auto"},
        )
        client = boto3.session.Session().client(
            "s3", endpoint_url=settings.s3_endpoint_url, region_name=settings.s3_region,
            config=config,
        )
        assert settings.s3_bucket  # checked by open_upload_store
        return cls(client, settings.s3_bucket, prefix=settings.s3_prefix,
                   staging=staging_dir(settings), endpoint=settings.s3_endpoint_url)

    # -- keys ---------------------------------------------------------------------------------
    def key(self, ref: UploadRef) -> str:
        return f"{_doc_prefix(self.prefix, ref.doc_id, ref.incarnation)}job-{ref.job_id}"

    # -- errors -------------------------------------------------------------------------------
    def _unavailable(self, exc: Exception, operation: str) -> StoreUnavailable:
        """The outage a botocore error means, logged with its code (never a key's content)."""
        code = exc.response.get("Error", {}).get("Code") if isinstance(exc, ClientError) else None
        log.error("upload_store_unavailable", operation=operation, error_type=type(exc).__name__,
                  code=code, bucket=self.bucket)
        if code == "NoSuchBucket" or (operation == "check" and code in _MISSING):  # HEAD: no body
            reason = "its bucket does not exist"
        elif code in ("AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "403"):
            reason = "it refused the credentials"
        elif isinstance(exc, BotoCoreError) and "credential" in type(exc).__name__.lower():
            reason = "no credentials were found"
        else:
            reason = "it is unreachable or failing"
        return StoreUnavailable(f"the upload store cannot be used now: {reason}; retry later")

    # -- the port -----------------------------------------------------------------------------
    def put(self, ref: UploadRef, source: Path) -> None:
        key = self.key(ref)
        size = source.stat().st_size
        checksum = base64.b64encode(bytes.fromhex(ref.revision)).decode("ascii")
        try:
            with open(source, "rb") as body:
                self.client.put_object(
                    Bucket=self.bucket, Key=key, Body=body, ContentLength=size,
                    ChecksumSHA256=checksum, Metadata={"sha256": ref.revision},
                    ContentType="application/octet-stream",
                )
        except (BotoCoreError, ClientError) as exc:
            raise self._unavailable(exc, "put") from exc
        source.unlink(missing_ok=True)
        log.info("upload_stored", job_id=ref.job_id, key=key, size=size)

    def read(self, ref: UploadRef, max_bytes: int) -> bytes:
        key = self.key(ref)
        try:
            got = self.client.get_object(Bucket=self.bucket, Key=key)
            if int(got.get("ContentLength", 0)) > max_bytes:
                got["Body"].close()
                raise UploadLost(f"upload is larger than the limit of {max_bytes} bytes; "
                                 "upload again", job_id=ref.job_id)
            data = got["Body"].read(max_bytes + 1)  # never more than the bound, whatever it says
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in _MISSING:
                raise UploadLost("upload object missing from the upload store; upload the "
                                 "document again", job_id=ref.job_id) from exc
            raise self._unavailable(exc, "read") from exc
        except BotoCoreError as exc:
            raise self._unavailable(exc, "read") from exc
        return check_upload(ref, data, max_bytes, where="s3")

    def exists(self, ref: UploadRef) -> bool:
        try:
            self.client.head_object(Bucket=self.bucket, Key=self.key(ref))
        except ClientError as exc:
            if exc.response.get("Error", {}).get("Code") in _MISSING:
                return False
            raise self._unavailable(exc, "exists") from exc
        except BotoCoreError as exc:
            raise self._unavailable(exc, "exists") from exc
        return True

    def delete(self, ref: UploadRef) -> None:
        try:
            self.client.delete_object(Bucket=self.bucket, Key=self.key(ref))
        except (BotoCoreError, ClientError) as exc:
            raise self._unavailable(exc, "delete") from exc

    def _keys_under(self, prefix: str) -> Iterator[str]:
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=prefix):
            for item in page.get("Contents", ()):
                yield item["Key"]

    def delete_document(self, doc_id: str, incarnation: str | None, job_ids: list[str]) -> int:
        """Every object under the document's prefix (``job_ids`` live there too)."""
        prefix = _doc_prefix(self.prefix, doc_id, incarnation)
        removed = 0
        try:
            keys = sorted(self._keys_under(prefix))
            for start in range(0, len(keys), _DELETE_BATCH):
                batch = keys[start:start + _DELETE_BATCH]
                answer = self.client.delete_objects(
                    Bucket=self.bucket,
                    Delete={"Objects": [{"Key": k} for k in batch], "Quiet": True},
                )
                if answer.get("Errors"):
                    log.error("upload_store_delete_incomplete", prefix=prefix,
                              failed=len(answer["Errors"]),
                              code=answer["Errors"][0].get("Code"))
                    raise StoreUnavailable("the upload store did not delete every upload of the "
                                           "document; retry later")
                removed += len(batch)
        except (BotoCoreError, ClientError) as exc:
            raise self._unavailable(exc, "delete_document") from exc
        if removed:
            log.info("upload_store_document_deleted", prefix=prefix, removed=removed)
        return removed

    def check(self) -> None:
        try:
            self.client.head_bucket(Bucket=self.bucket)
        except (BotoCoreError, ClientError) as exc:
            raise self._unavailable(exc, "check") from exc

    def describe(self) -> str:
        where = f" at {self.endpoint}" if self.endpoint else ""
        return f"s3://{self.bucket}/{self.prefix}{where}"

