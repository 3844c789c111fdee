"""Ingest throughput with 2 workers against 1 (issue 14 goal: >= 1.6), and memory.

    .venv/bin/python bench/ingest_parallel.py --docs 8

The same N CUAD dev contracts (CUAD v1, The Atticus Project, CC BY 4.0; N of median size, so
that one huge contract does not decide the run) are ingested end to end (extraction, chunking,
spaCy annotation, MiniLM embedding, SQLite writes) into a fresh embedded store by W worker
threads sharing one ``Ingestor``, the way the API's and ``attest worker``'s job threads do:

* ``1 worker``: annotation in-process (``ATTEST_INGEST_NLP_PROCESSES=0``), the best one worker can do;
* ``2 workers, in-process``: the previous state (annotation serialised by a lock);
* ``2 workers, 2 NLP processes``: ``ATTEST_INGEST_NLP_PROCESSES=2`` (ingest/nlp_pool.py).

Model loading (MiniLM, the pool processes' spaCy) happens before the clock starts. Memory is the
peak RSS of this process plus the pool's processes, sampled every 0.2 s. Timing on a shared
machine is noisy: the ratios come from one run.
"""

from __future__ import annotations

import argparse
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


def run(files: list[Path], embedder, workers: int, processes: int) -> tuple[float, int, float]:
    """(seconds, chunks, peak MB) for ingesting ``files`` with ``workers`` threads."""
    if processes:
        nlp_pool.warm_pool(processes)
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
    parser.add_argument("--embed-threads", type=int, help="onnxruntime intra-op threads (default: every core)")
    args = parser.parse_args()

    every = sorted(cuad_txt_files(), key=lambda p: (p.stat().st_size, p.name))
    middle = len(every) // 2
    files = every[max(0, middle - args.docs // 2):][: args.docs]
    embedder = MiniLMEmbedder(threads=args.embed_threads)
    embedder.embed(["warm up"])
    from ingest.annotate import annotation_pipeline

    annotation_pipeline()  # in-process spaCy loaded outside the clock too
    size = sum(p.stat().st_size for p in files)
    print(f"{len(files)} contracts of {CREDIT}, {size / 1024:.0f} KiB of text; one run on a "
          "shared 2-core machine")
    figures = {}
    for label, workers, processes in (
        ("1 worker, in-process NLP", 1, 0),
        ("2 workers, in-process NLP (lock)", 2, 0),
        ("2 workers, 2 NLP processes", 2, 2),
    ):
        seconds, chunks, peak = run(files, embedder, workers, processes)
        figures[label] = seconds
        print(f"  {label:34}: {seconds:6.1f} s, {len(files) / seconds:.3f} docs/s, {chunks} chunks, "
              f"peak RSS {peak:.0f} MB", flush=True)
        nlp_pool.shutdown_pool()
    base = figures["1 worker, in-process NLP"]
    for label in ("2 workers, in-process NLP (lock)", "2 workers, 2 NLP processes"):
        print(f"  throughput {label} / 1 worker: {base / figures[label]:.2f}")
    ratio = base / figures["2 workers, 2 NLP processes"]
    print(f"  target >= 1.6: {'met' if ratio >= 1.6 else 'NOT met'} ({ratio:.2f})")


if __name__ == "__main__":
    main()
