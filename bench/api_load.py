"""Load on POST /v1/evidence/query over real HTTP, against the in-process pipeline, in one run.

    PYTHONPATH=. /work/venv/bin/python bench/api_load.py [--clients 8] [--requests 48] [--seconds 60]
        [--workers N]   # serve with `attest serve --workers N` (N processes) in a subprocess
        [--es-url URL [--es-prefix P]]   # on Elasticsearch instead of SQLite (indexes dropped after)
        [--data-dir D]   # SQLite: ingest into D once, reuse it on later runs (default: a fresh temp dir)

The CUAD samples in ``samples/cuad`` are ingested into a fresh SQLite store (or, with
``--es-url``, fresh Elasticsearch indexes under their own prefix); the app then runs
under uvicorn on 127.0.0.1 (a free port) and ``--clients`` threads send evidence queries (a fixed
question set, round robin) until ``--requests`` are done or ``--seconds`` pass. The same questions
are then run in process through ``run_evidence_query`` (same store, same embedder, one thread).
Reported: HTTP throughput and p50/p95/p99 latency, in-process p50/mean, and their ratios.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import statistics
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
if sys.path[0] != str(REPO):
    sys.path.insert(0, str(REPO))  # bench/ingest.py must not shadow the ingest package

import httpx  # noqa: E402

KEY = "bench-key-0123456789abcdefgh"
QUESTIONS = [
    "What is the governing law of the Distributor Agreement?",
    "What is the governing law of the Reseller Agreement?",
    "Who are the parties to the Consulting Agreement?",
    "What is the term of the Sponsorship Agreement?",
    "What is the governing law of the Trademark License Agreement?",
    "Can the Distributor Agreement be terminated for convenience?",
    "What is the notice period to terminate the Consulting Agreement?",
    "Who is the founder of Acme Widgets Inc?",  # SUBJECT_NOT_FOUND path
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


@contextmanager
def serve_processes(data_dir: Path, settings, workers: int, es: dict[str, str] | None = None) -> Iterator[str]:
    """``attest serve --workers N`` on a free port over ``data_dir``; stopped (SIGTERM to the
    process group it leads) when the block ends."""
    from service.api.server import free_port

    port = free_port()
    env = {**os.environ, "ATTEST_DATA_DIR": str(data_dir), "ATTEST_API_KEYS": settings.api_keys,
           "ATTEST_LOG_LEVEL": "WARNING", **(es or {})}
    if not es:
        env.pop("ATTEST_ELASTICSEARCH_URL", None)
    attest = Path(sys.executable).with_name("attest")
    proc = subprocess.Popen([str(attest), "serve", "--port", str(port), "--workers", str(workers)],
                            env=env, start_new_session=True, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("attest serve did not start")
            time.sleep(0.5)
        with httpx.Client(base_url=base, timeout=300, headers={"Authorization": f"Bearer {KEY}"}) as http:
            for q in QUESTIONS * workers:  # warm every process (models load lazily)
                http.post("/v1/evidence/query", json={"question": q})
        yield base
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(60)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=48)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", type=int, default=0,
                        help="serve with `attest serve --workers N` in a subprocess (N processes) "
                             "instead of uvicorn in this process; 0 = in process")
    parser.add_argument("--es-url", help="serve from Elasticsearch at this URL instead of SQLite")
    parser.add_argument("--es-prefix", default=f"attest-load-{os.getpid()}",
                        help="with --es-url: index prefix (dropped at the end)")
    parser.add_argument("--data-dir", type=Path,
                        help="SQLite: the samples are ingested here on the first run and reused "
                             "on later ones (default: a fresh temporary directory)")
    args = parser.parse_args()

    from ingest.embedder import default_embedder
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from ingest.store.port import Principal
    from ingest.store.sqlite import SqliteStore
    from service.api import create_app
    from service.api.server import serve_in_thread
    from service.evidence.machine import run_evidence_query
    from service.evidence.models import EvidenceRequest
    from service.logs import configure_logging

    configure_logging("WARNING")
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="attest-load-"))
    reuse = args.data_dir is not None and not args.es_url and (data_dir / "attest.sqlite3").exists()
    settings = Settings(
        data_dir=data_dir,
        api_keys=json.dumps({KEY: {"principal": "bench", "groups": [], "admin": False}}),
    )
    es_env = None
    if args.es_url:
        from ingest.store.elastic import ElasticStore

        store = ElasticStore(args.es_url, prefix=args.es_prefix)
        store.drop_all()
        es_env = {"ATTEST_ELASTICSEARCH_URL": args.es_url, "ATTEST_ELASTICSEARCH_PREFIX": args.es_prefix}
    else:
        store = SqliteStore(data_dir / "attest.sqlite3")
    embedder = default_embedder()
    ingestor = Ingestor(store, embedder, settings, annotate=True)
    t0 = time.perf_counter()
    samples = sorted(p for p in (REPO / "samples" / "cuad").iterdir() if p.is_file() and p.name != "README.md")
    for path in [] if reuse else samples:
        result = ingestor.ingest_path(path, acl=["bench"])
        print(f"ingested {path.name[:60]}: {result.status} ({result.n_chunks} chunks)")
    print(f"ingest: {len(samples)} docs in {time.perf_counter() - t0:.1f}s" if not reuse
          else f"reusing the store in {data_dir}")

    principal = Principal("bench")
    for q in QUESTIONS:  # warm-up: model sessions, caches
        run_evidence_query(EvidenceRequest(question=q), principal, store=store, embedder=embedder, settings=settings)

    latencies: list[float] = []
    errors: list[str] = []
    states: dict[str, int] = {}
    lock = threading.Lock()
    counter = iter(range(10**9))
    app = create_app(settings, store=store, embedder=embedder)
    server = serve_processes(data_dir, settings, args.workers, es_env) if args.workers else serve_in_thread(app)
    with server as base:
        deadline = time.monotonic() + args.seconds

        def client() -> None:
            with httpx.Client(base_url=base, timeout=120, headers={"Authorization": f"Bearer {KEY}"}) as http:
                while time.monotonic() < deadline:
                    with lock:
                        n = next(counter)
                    if n >= args.requests:
                        return
                    start = time.perf_counter()
                    r = http.post("/v1/evidence/query", json={"question": QUESTIONS[n % len(QUESTIONS)]})
                    elapsed = time.perf_counter() - start
                    with lock:
                        if r.status_code != 200:
                            errors.append(f"{r.status_code}: {r.text[:200]}")
                        else:
                            latencies.append(elapsed)
                            state = r.json()["state"]
                            states[state] = states.get(state, 0) + 1

        wall = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(args.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - wall

    in_process: list[float] = []
    for n in range(min(len(latencies), 4 * len(QUESTIONS)) or len(QUESTIONS)):
        request = EvidenceRequest(question=QUESTIONS[n % len(QUESTIONS)])
        start = time.perf_counter()
        run_evidence_query(request, principal, store=store, embedder=embedder, settings=settings)
        in_process.append(time.perf_counter() - start)

    ms = lambda s: s * 1000  # noqa: E731
    throughput = len(latencies) / wall if wall else 0.0
    inproc_p50 = statistics.median(in_process)
    inproc_mean = statistics.fmean(in_process)
    report = {
        "store": "elasticsearch" if args.es_url else "sqlite",
        "workers": args.workers,
        "clients": args.clients,
        "requests_ok": len(latencies),
        "errors": len(errors),
        "states": states,
        "http_wall_s": round(wall, 2),
        "http_throughput_rps": round(throughput, 2),
        "http_p50_ms": round(ms(percentile(latencies, 50)), 1),
        "http_p95_ms": round(ms(percentile(latencies, 95)), 1),
        "http_p99_ms": round(ms(percentile(latencies, 99)), 1),
        "inprocess_runs": len(in_process),
        "inprocess_p50_ms": round(ms(inproc_p50), 1),
        "inprocess_mean_ms": round(ms(inproc_mean), 1),
        "ratio_http_p50_to_inprocess_p50": round(percentile(latencies, 50) / inproc_p50, 2),
        "ratio_http_throughput_to_inprocess_serial": round(throughput * inproc_mean, 2),
    }
    print(json.dumps(report, indent=2))
    if errors:
        print("first errors:", *errors[:5], sep="\n  ")
    if args.es_url:
        store.drop_all()
        # The served processes' ingest queue index is not a store kind (jobs_elastic.py).
        store.es.indices.delete(index=f"{args.es_prefix}-jobs-v1", ignore_unavailable=True)
    store.close()
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
