"""What the upload store costs on the upload path and the worker's read, local directory against
an S3-compatible object store.

    .venv/bin/python bench/upload_store.py --uploads 30

The same N files (the sample contracts in ``samples/cuad``, CUAD v1, The Atticus Project,
CC BY 4.0, taken in turn) are uploaded through ``POST /v1/documents`` of the real app (SQLite
store, API ingest threads off, so only the upload path is timed), first with
``ATTEST_UPLOAD_STORE=local``, then with ``s3`` against moto's standalone S3 server in this
process (``moto[server]``; a stand-in for MinIO or AWS S3, which are outside the project: its
latency is a loopback HTTP server's, not a network's). Then every job's bytes are read back the
way a worker does (``read_upload``: fetched, bounded, SHA-256 checked). Reported: p50 and p95 of
the 202 latency and of one read, and s3 / local ratios. One run on a shared machine: ratios only.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

KEY = "bench-key-0123456789abcdef"


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def run(kind: str, files: list[Path], n: int, embedder, s3: dict) -> dict[str, float]:
    from fastapi.testclient import TestClient

    from ingest.settings import Settings
    from service.api import create_app

    with tempfile.TemporaryDirectory() as tmp:
        extra = s3 if kind == "s3" else {}
        settings = Settings(data_dir=Path(tmp), elasticsearch_url=None, ingest_in_api=False,
                            ingest_queue_size=max(64, n + 1),
                            api_keys=json.dumps({KEY: {"principal": "bench", "groups": [], "admin": True}}),
                            **extra)
        upload_ms: list[float] = []
        read_ms: list[float] = []
        with TestClient(create_app(settings, embedder=embedder)) as client:
            jobs = client.app.state.ctx.jobs
            job_ids = []
            for i in range(n):
                path = files[i % len(files)]
                data = path.read_bytes()
                started = time.perf_counter()
                answer = client.post("/v1/documents", headers={"Authorization": f"Bearer {KEY}"},
                                     files={"file": (path.name, data)}, data={"doc_id": f"d{i}"})
                upload_ms.append((time.perf_counter() - started) * 1000)
                assert answer.status_code == 202, answer.text
                job_ids.append(answer.json()["job_id"])
            for job_id in job_ids:
                job = jobs.get(job_id)
                started = time.perf_counter()
                jobs.read_upload(job, settings.max_file_bytes)
                read_ms.append((time.perf_counter() - started) * 1000)
    return {
        "upload_p50_ms": statistics.median(upload_ms), "upload_p95_ms": _p(upload_ms, 0.95),
        "read_p50_ms": statistics.median(read_ms), "read_p95_ms": _p(read_ms, 0.95),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uploads", type=int, default=30, help="uploads per store (1 to 1000)")
    args = parser.parse_args()
    if not 1 <= args.uploads <= 1000:
        parser.error("--uploads: 1 to 1000")
    import os

    from ingest.embedder import MiniLMEmbedder
    from tests.s3_fixtures import S3Server, aws_env, s3_overrides

    files = sorted(p for p in (REPO / "samples" / "cuad").iterdir() if p.is_file())
    server = S3Server()
    server.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ.update(aws_env(Path(tmp)))
            s3 = s3_overrides(server, server.new_bucket())
            embedder = MiniLMEmbedder()
            results = {kind: run(kind, files, args.uploads, embedder, s3) for kind in ("local", "s3")}
    finally:
        server.stop()
    sizes = [p.stat().st_size for p in files]
    print(f"{args.uploads} uploads per store, files of {min(sizes)}-{max(sizes)} bytes")
    print(f"{'store':6} {'upload p50':>11} {'upload p95':>11} {'read p50':>9} {'read p95':>9}")
    for kind, r in results.items():
        print(f"{kind:6} {r['upload_p50_ms']:9.1f}ms {r['upload_p95_ms']:9.1f}ms "
              f"{r['read_p50_ms']:7.2f}ms {r['read_p95_ms']:7.2f}ms")
    local, s3r = results["local"], results["s3"]
    print(f"s3 / local: upload p50 {s3r['upload_p50_ms'] / local['upload_p50_ms']:.2f}, "
          f"read p50 {s3r['read_p50_ms'] / local['read_p50_ms']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
