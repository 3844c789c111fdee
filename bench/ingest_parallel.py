"""Ingest throughput with 2 workers against 1 (issue 14 goal: >= 1.6), CPU and memory.

    .venv/bin/python bench/ingest_parallel.py --docs 8                  # worker processes
    .venv/bin/python bench/ingest_parallel.py --docs 8 --mode threads   # threads of one process

The same N CUAD dev contracts (CUAD v1, The Atticus Project, CC BY 4.0; N of median size, so
that one huge contract does not decide the run) are ingested end to end (extraction, chunking,
spaCy annotation, MiniLM embedding, SQLite writes) into a fresh embedded store.

``--mode processes`` (default) is scale-out as deployed: W real ``attest worker --threads 1``
processes share one data dir (the store and ``jobs.sqlite3``). Every worker has started (models
loaded) before the N jobs are queued at once; the clock runs from the queueing until the last
job is finished. Each worker has the default budget ``ATTEST_INGEST_WORKER_CORES=1`` and
annotates in its own process (``ATTEST_INGEST_NLP_PROCESSES=0``), so "1 worker" is one core's
worth of work. CPU seconds are read from ``/proc/<pid>/stat`` of the workers (every thread).

``--mode threads`` is ``ATTEST_INGEST_WORKERS=W`` inside one process: W threads share one
``Ingestor`` and one budgeted onnxruntime session (each thread runs it on its own), annotation
in-process for 1 worker and in W NLP pool processes for W >= 2. It also runs the previous
baseline, one worker with an all-core onnxruntime pool that spin-waits (the defaults before the
budget), to show what that baseline's "cores busy" was made of.

"cores busy" is CPU seconds over wall seconds: on an idle 2-core box the ceiling is 2.0; on a
loaded one it shows what share the run got. Timing on a shared machine is noisy: the ratios come
from one run; the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from common import CREDIT, REPO, cuad_txt_files

import ingest.nlp_model  # noqa: F401 - offline environment first
from ingest import nlp_pool
from ingest.embedder import MiniLMEmbedder
from ingest.pipeline import Ingestor
from ingest.settings import Settings
from ingest.store.sqlite import SqliteStore

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
START_TIMEOUT = 300.0  # seconds for a worker to load its models
RUN_TIMEOUT = 3600.0


@dataclass(slots=True)
class Figure:
    seconds: float
    docs: int
    chunks: int
    cpu: float
    peak_mb: float

    def line(self, label: str) -> str:
        return (f"  {label:46}: {self.seconds:6.1f} s, {self.docs / self.seconds:.3f} docs/s, "
                f"{self.chunks / self.seconds:5.1f} chunks/s ({self.chunks} chunks), CPU "
                f"{self.cpu:6.1f} s, cores busy {self.cpu / self.seconds:.2f}, "
                f"peak RSS {self.peak_mb:.0f} MB")


def rss_mb(pid: int | str = "self") -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def proc_cpu_seconds(pid: int) -> float:
    """User + system CPU of every thread of ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


class PeakMemory:
    """Peak of the summed RSS of ``pids()`` (plus this process when ``own``), every 0.2 s."""

    def __init__(self, pids, own: bool) -> None:  # type: ignore[no-untyped-def]
        self.pids = pids
        self.own = own
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            total = (rss_mb() if self.own else 0.0) + sum(rss_mb(pid) for pid in self.pids())
            self.peak = max(self.peak, total)
            time.sleep(0.2)

    def __enter__(self) -> "PeakMemory":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


# -- worker processes ---------------------------------------------------------------------------
def start_workers(data_dir: Path, n: int, logs: Path) -> list[subprocess.Popen]:
    env = {
        **os.environ,
        "ATTEST_DATA_DIR": str(data_dir),
        "ATTEST_INGEST_NLP_PROCESSES": "0",
        "ATTEST_INGEST_JOB_SECONDS": "3600",
        "DO_NOT_TRACK": "1",
    }
    env.pop("ATTEST_ELASTICSEARCH_URL", None)
    env.setdefault("ATTEST_INGEST_WORKER_CORES", "1")
    attest = Path(sys.executable).parent / "attest"
    workers = []
    for i in range(n):
        out = (logs / f"worker-{i}.log").open("w")
        workers.append(subprocess.Popen([str(attest), "worker", "--threads", "1"], env=env,
                                        stdout=out, stderr=subprocess.STDOUT, cwd=REPO))
    deadline = time.monotonic() + START_TIMEOUT
    for i, worker in enumerate(workers):
        log = logs / f"worker-{i}.log"
        while "worker_started" not in log.read_text():
            if worker.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"worker {i} did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.1)
    return workers


def run_processes(files: list[Path], n_workers: int) -> Figure:
    from service.api.jobs import JobStore

    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp) / "data"
        data_dir.mkdir()
        SqliteStore(data_dir / "attest.sqlite3").close()  # created once, before the workers
        jobs = JobStore(data_dir, uploads=data_dir / "uploads")
        workers = start_workers(data_dir, n_workers, Path(tmp))
        try:
            staged = []
            for path in files:  # staged outside the clock; JobStore.add moves them in
                copy = Path(tmp) / f"staged-{len(staged)}"
                shutil.copyfile(path, copy)
                staged.append(copy)
            cpu_before = [proc_cpu_seconds(w.pid) for w in workers]
            with PeakMemory(lambda: [w.pid for w in workers], own=False) as memory:
                start = time.perf_counter()
                ids = [
                    jobs.add(doc_id=path.stem, revision=_sha256(path), filename=path.name,
                             principal="bench", request_id=uuid.uuid4().hex, acl=["*"],
                             upload=copy).job_id
                    for path, copy in zip(files, staged)
                ]
                deadline = time.monotonic() + RUN_TIMEOUT
                while (jobs.counts().get("queued", 0) or jobs.counts().get("running", 0)):
                    if time.monotonic() > deadline or any(w.poll() is not None for w in workers):
                        raise SystemExit("the workers did not finish the jobs")
                    time.sleep(0.05)
                seconds = time.perf_counter() - start
                cpu = sum(proc_cpu_seconds(w.pid) - before for w, before in zip(workers, cpu_before))
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(60)
        done = [jobs.get(i) for i in ids]
        jobs.close()
    bad = [(j.doc_id, j.state, j.attempts, j.error) for j in done if j is None or j.state != "done"
           or j.attempts != 1 or (j.result or {}).get("status") != "indexed"]
    if bad:
        raise SystemExit(f"ingest did not index every document exactly once: {bad[:3]}")
    chunks = sum(int((j.result or {})["n_chunks"]) for j in done)
    return Figure(seconds, len(files), chunks, cpu, memory.peak)


def _sha256(path: Path) -> str:
    from ingest.pipeline import revision_of

    return revision_of(path.read_bytes())


# -- threads of one process ---------------------------------------------------------------------
def own_cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def run_threads(files: list[Path], embedder: MiniLMEmbedder, workers: int, processes: int) -> Figure:
    """CPU: this process plus the NLP pool's processes over the run (their spaCy loading, in
    ``warm_pool``, is outside it)."""
    def pool_pids() -> list[int]:
        pool = nlp_pool._pool
        return list(pool._processes) if pool is not None and pool._processes else []

    if processes:
        nlp_pool.warm_pool(processes)
    children = {pid: proc_cpu_seconds(pid) for pid in pool_pids()}
    cpu = own_cpu_seconds()
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(Path(tmp) / "attest.sqlite3")
        settings = Settings(data_dir=Path(tmp), ingest_nlp_processes=processes)
        ingestor = Ingestor(store, embedder, settings)
        with PeakMemory(pool_pids, own=True) as memory:
            start = time.perf_counter()
            with ThreadPoolExecutor(max_workers=workers) as pool:
                results = list(pool.map(lambda p: ingestor.ingest_path(p, acl=["*"]), files))
            seconds = time.perf_counter() - start
        used = own_cpu_seconds() - cpu
        if set(pool_pids()) != set(children):
            raise SystemExit("an NLP pool process died during the run")
        used += sum(proc_cpu_seconds(pid) - before for pid, before in children.items())
        store.close()
    nlp_pool.shutdown_pool()
    failed = [r for r in results if r.status != "indexed"]
    if failed:
        raise SystemExit(f"ingest failed: {failed[:2]}")
    return Figure(seconds, len(files), sum(r.n_chunks for r in results), used, memory.peak)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docs", type=int, default=8)
    parser.add_argument("--mode", choices=("processes", "threads"), default="processes")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2],
                        help="worker counts to run, the first is the baseline (default: 1 2)")
    args = parser.parse_args()

    every = sorted(cuad_txt_files(), key=lambda p: (p.stat().st_size, p.name))
    middle = len(every) // 2
    files = every[max(0, middle - args.docs // 2):][: args.docs]
    size = sum(p.stat().st_size for p in files)
    print(f"{len(files)} contracts of {CREDIT}, {size / 1024:.0f} KiB of text; mode {args.mode}; "
          f"load average {load_average()}; one run on a shared {os.cpu_count()}-core machine",
          flush=True)
    figures: dict[int, Figure] = {}
    if args.mode == "processes":
        cores = os.environ.get("ATTEST_INGEST_WORKER_CORES", "1")
        for n in args.workers:
            figures[n] = run_processes(files, n)
            print(figures[n].line(f"{n} x `attest worker --threads 1` ({cores} core each)"), flush=True)
    else:
        from ingest.annotate import annotation_pipeline

        annotation_pipeline()  # in-process spaCy loaded outside the clock
        budgeted = MiniLMEmbedder(threads=1, cache_size=0, spin=False)  # = ingest_embedder()
        budgeted.embed(["warm up"])
        if 1 in args.workers:
            old = MiniLMEmbedder(threads=None, cache_size=0)  # all cores, spin-waiting
            old.embed(["warm up"])
            before = run_threads(files, old, 1, 0)
            print(before.line("1 worker, all-core spinning onnxruntime (old)"), flush=True)
        for n in args.workers:
            figures[n] = run_threads(files, budgeted, n, 0 if n == 1 else n)
            nlp = "in-process NLP" if n == 1 else f"{n} NLP processes"
            print(figures[n].line(f"{n} worker thread(s), 1 core each, {nlp}"), flush=True)
    base_n = args.workers[0]
    base = figures[base_n]
    for n in args.workers[1:]:
        ratio = base.seconds / figures[n].seconds
        print(f"  throughput {n} workers / {base_n}: {ratio:.2f} (chunks/s "
              f"{figures[n].chunks / figures[n].seconds:.1f} / {base.chunks / base.seconds:.1f}); "
              f"goal >= 1.6: {'met' if ratio >= 1.6 else 'NOT met'}")
    print(f"  load average after: {load_average()}")


if __name__ == "__main__":
    main()
