"""Ingest throughput with 2 workers against 1 (issue 14 goal: >= 1.6), and memory.

    .venv/bin/python bench/ingest_parallel.py --docs 8

The same N CUAD dev contracts (CUAD v1, The Atticus Project, CC BY 4.0; N of median size, so
that one huge contract does not decide the run) are ingested end to end (extraction, chunking,
spaCy annotation, MiniLM embedding, SQLite writes) into a fresh embedded store by W worker
threads sharing one ``Ingestor``, the way the API's and ``attest worker``'s job threads do:

* ``1 worker``: annotation in-process (``ATTEST_INGEST_NLP_PROCESSES=0``), the best one worker can do;
* ``2 workers, in-process``: the previous state (annotation serialised by a lock);
* ``2 workers, 2 NLP processes``: ``ATTEST_INGEST_NLP_PROCESSES=2`` (ingest/nlp_pool.py);
* the same with ``ATTEST_EMBED_THREADS=1``: each worker's embedding runs on its own thread instead
  of two concurrent runs sharing one onnxruntime intra-op pool (embedding is about 80 % of the
  CPU of a CUAD contract's ingest; spaCy annotation about 20 %).

"cores busy" is the CPU time of this process and the pool processes over the wall time: on an
idle 2-core box the ceiling is 2.0; on a loaded one it shows what share the run got.

Model loading (MiniLM, the pool processes' spaCy) happens before the clock starts. Memory is the
peak RSS of this process plus the pool's processes, sampled every 0.2 s. Timing on a shared
machine is noisy: the ratios come from one run.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import resource
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import CREDIT, cuad_txt_files

import ingest.nlp_model  # noqa: F401 - offline environment first
from ingest import nlp_pool
from ingest.embedder import MiniLMEmbedder
from ingest.pipeline import Ingestor
from ingest.settings import Settings
from ingest.store.sqlite import SqliteStore


def rss_mb(pid: int | str = "self") -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class PeakMemory:
    def __init__(self) -> None:
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            pool = nlp_pool._pool
            children = list(pool._processes) if pool is not None and pool._processes else []
            self.peak = max(self.peak, rss_mb() + sum(rss_mb(pid) for pid in children))
            time.sleep(0.2)

    def __enter__(self) -> "PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


CONFIGS = (  # label, worker threads, NLP pool processes, onnxruntime intra-op threads (None: every core)
    ("1 worker, in-process NLP", 1, 0, None),
    ("2 workers, in-process NLP (lock)", 2, 0, None),
    ("2 workers, 2 NLP processes", 2, 2, None),
    ("2 workers, 2 NLP processes, 1 ORT thread", 2, 2, 1),
)


def cpu_seconds() -> float:
    """User + system CPU of this process and of its reaped children (the NLP pool)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run(files: list[Path], embedder, workers: int, processes: int) -> tuple[float, int, float]:
    """(seconds, chunks, peak MB) for ingesting ``files`` with ``workers`` threads."""
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "attest.sqlite3")
        settings = Settings(data_dir=Path(tmp), ingest_nlp_processes=processes)
        ingestor = Ingestor(store, embedder, settings)
        with PeakMemory() as memory:
            start = time.perf_counter()
            with ThreadPoolExecutor(max_workers=workers) as pool:
                results = list(pool.map(lambda p: ingestor.ingest_path(p, acl=["*"]), files))
            seconds = time.perf_counter() - start
        store.close()
    failed = [r for r in results if r.status != "indexed"]
    if failed:
        raise SystemExit(f"ingest failed: {failed[:2]}")
    return seconds, sum(r.n_chunks for r in results), memory.peak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=8)
    parser.add_argument("--quiet-lock", type=Path,
                        help="hold this lock exclusively while timing (bench/scale.py pauses its builds)")
    args = parser.parse_args()

    every = sorted(cuad_txt_files(), key=lambda p: (p.stat().st_size, p.name))
    middle = len(every) // 2
    files = every[max(0, middle - args.docs // 2):][: args.docs]
    embedders: dict[int | None, MiniLMEmbedder] = {}
    from ingest.annotate import annotation_pipeline

    annotation_pipeline()  # in-process spaCy loaded outside the clock too
    size = sum(p.stat().st_size for p in files)
    print(f"{len(files)} contracts of {CREDIT}, {size / 1024:.0f} KiB of text; one run on a "
          "shared 2-core machine")
    figures: dict[str, float] = {}
    quiet = open(args.quiet_lock, "a+") if args.quiet_lock else None  # noqa: SIM115
    with contextlib.ExitStack() as stack:
        if quiet is not None:
            fcntl.flock(quiet, fcntl.LOCK_EX)
            stack.callback(fcntl.flock, quiet, fcntl.LOCK_UN)
        for label, workers, processes, threads in CONFIGS:
            if threads not in embedders:
                embedders[threads] = MiniLMEmbedder(threads=threads)
            model = embedders[threads]
            model.embed(["warm up"])
            if processes:
                nlp_pool.warm_pool(processes)
            cpu = cpu_seconds()
            seconds, chunks, peak = run(files, model, workers, processes)
            nlp_pool.shutdown_pool()  # reaps the pool: its CPU time joins RUSAGE_CHILDREN
            busy = (cpu_seconds() - cpu) / seconds
            figures[label] = seconds
            print(f"  {label:42}: {seconds:6.1f} s, {len(files) / seconds:.3f} docs/s, "
                  f"{chunks} chunks, cores busy {busy:.2f}, peak RSS {peak:.0f} MB", flush=True)
    base = figures[CONFIGS[0][0]]
    for label, *_ in CONFIGS[1:]:
        print(f"  throughput {label} / 1 worker: {base / figures[label]:.2f}")
    best = max(base / figures[label] for label, *_ in CONFIGS[1:])
    print(f"  target >= 1.6: {'met' if best >= 1.6 else 'NOT met'} (best {best:.2f})")


if __name__ == "__main__":
    main()
