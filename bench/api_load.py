"""Load on POST /v1/evidence/query over real HTTP, against the in-process pipeline, in one run.

    PYTHONPATH=. .venv/bin/python bench/api_load.py [--clients 8] [--requests 48] [--seconds 60]
        [--workers N]   # serve with `attest serve --workers N` (N processes) in a subprocess
        [--es-url URL [--es-prefix P]]   # on Elasticsearch instead of SQLite (indexes dropped after)
        [--data-dir D]   # SQLite: ingest into D once, reuse it on later runs (default: a fresh temp dir)
        [--attest PATH]   # with --workers: serve with this `attest` executable (another checkout's code)
        [--client go|httpx]   # go (default): bench/loadgen, built here by `go build` (stdlib only);
                              # httpx: the old client, threads of this Python process
        [--warmup N]   # untimed requests before every phase over its own connections (default 16)

The issue-14 goal (8 clients / 1 client >= 1.7) in one command; the two client counts run back to
back against the same server, each `--requests` requests, and the last line prints the ratio:

    nice -n 10 .venv/bin/python bench/api_load.py --clients 1,8 --requests 200 --workers 2 \
        --repeat 3 --data-dir /tmp/attest-load-data

Each phase also reports the CPU seconds the server processes, this client process and the whole
box (every process, from /proc/stat) used, and the load average, so a figure taken on a shared
machine can be read against what else was running.

The client. In production the clients are other machines; here they share the server's cores.
The old client (threads of this Python process, httpx) spent 0.9-2.5 ms of CPU per request,
more at 8 clients than at 1, on the two cores the server needs: it measured itself. The default
client is ``bench/loadgen`` (Go, standard library only, one goroutine and one keep-alive connection
per client, pre-encoded bodies, GOMAXPROCS 1): 0.2-0.35 ms per request. Both clients send the
same question mix (request n asks QUESTIONS[n % 8]) and make ``--warmup`` untimed requests over
the phase's own connections before the counters start, so 1 and 8 clients meet equally warm
caches (the query-embedding cache, SQLite pages) and already-open connections.

The last lines print, per client count, the medians over the repeats of throughput, p50, CPU per
request of the server processes and of the client, cores busy (ours / the whole box) and the load
average, then ``RATIO``.

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
from dataclasses import dataclass, field
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


TICKS = os.sysconf("SC_CLK_TCK")


def group_cpu_seconds(pgid: int | None) -> float:
    """CPU seconds (user + system) used so far by the live processes of process group ``pgid``
    (the served ``attest serve`` and its worker processes); 0 without one."""
    return sum(process_cpu_seconds(pgid).values())


def process_cpu_seconds(pgid: int | None) -> dict[int, float]:
    """CPU seconds used so far by each live process of process group ``pgid``."""
    if pgid is None:
        return {}
    out: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:  # fields after the name: state ppid pgrp ... utime stime
            out[int(entry)] = (int(fields[11]) + int(fields[12])) / TICKS
    return out


def busiest_shares(before: dict[int, float], after: dict[int, float]) -> list[float]:
    """Each server process's share of the server's CPU in a phase, largest first: with 8
    clients on 2 processes both should be busy (uvicorn's shared socket once gave one all)."""
    used = {pid: after[pid] - before.get(pid, 0.0) for pid in after}
    total = sum(used.values())
    return sorted((round(v / total, 2) for v in used.values() if v > 0), reverse=True) if total else []


def box_busy_seconds() -> float:
    """CPU seconds every process on the machine used so far (all cores, /proc/stat)."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return (sum(values[:8]) - idle) / TICKS


@dataclass
class Phase:
    clients: int
    latencies: list[float]
    errors: list[str]
    states: dict[str, int]
    wall: float
    server_cpu: float  # seconds, server processes
    client_cpu: float  # seconds, this process (the client threads)
    box_cpu: float  # seconds, every process on the machine
    load: tuple[float, float]  # 1-minute load average before and after
    process_shares: list[float] = field(default_factory=list)  # server processes' CPU shares

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.wall if self.wall else 0.0

    @property
    def p50(self) -> float:
        return percentile(self.latencies, 50) if self.latencies else 0.0

    def summary(self) -> dict[str, object]:
        n = len(self.latencies) or 1
        return {
            "clients": self.clients,
            "requests_ok": len(self.latencies),
            "errors": len(self.errors),
            "states": self.states,
            "http_wall_s": round(self.wall, 2),
            "http_throughput_rps": round(self.throughput, 2),
            "http_p50_ms": round(self.p50 * 1000, 1),
            "http_p95_ms": round(percentile(self.latencies, 95) * 1000, 1) if self.latencies else None,
            "http_p99_ms": round(percentile(self.latencies, 99) * 1000, 1) if self.latencies else None,
            "server_cpu_ms_per_request": round(self.server_cpu / n * 1000, 2),
            "client_cpu_ms_per_request": round(self.client_cpu / n * 1000, 2),
            # Cores busy on average: ours (server + client) and the whole box's (others too).
            "cores_busy_ours": round((self.server_cpu + self.client_cpu) / self.wall, 2) if self.wall else None,
            "cores_busy_box": round(self.box_cpu / self.wall, 2) if self.wall else None,
            "share_of_box_cpu_ours": round((self.server_cpu + self.client_cpu) / self.box_cpu, 2)
            if self.box_cpu else None,
            "load_1min_before_after": [round(v, 2) for v in self.load],
            "server_process_cpu_shares": self.process_shares,
        }


def run_phase(base: str, clients: int, requests: int, seconds: float, server_pgid: int | None,
              warmup: int) -> Phase:
    """The old client (``--client httpx``): ``clients`` threads of this process send evidence
    queries (round robin over QUESTIONS) until ``requests`` are answered or ``seconds`` pass.
    First ``warmup`` untimed requests over the same connections; the counters start after them."""
    latencies: list[float] = []
    errors: list[str] = []
    states: dict[str, int] = {}
    lock = threading.Lock()
    counters = {"warm": iter(range(10**9)), "timed": iter(range(10**9))}
    marks: dict[str, float] = {}
    per0: dict[int, float] = {}

    def start_timing() -> None:  # the barrier's action: every client is warm
        marks["load"] = os.getloadavg()[0]
        per0.update(process_cpu_seconds(server_pgid))
        marks["server"], marks["client"] = sum(per0.values()), time.process_time()
        marks["box"], marks["wall"] = box_busy_seconds(), time.perf_counter()
        marks["deadline"] = time.monotonic() + seconds

    barrier = threading.Barrier(clients, action=start_timing)

    def send(http: httpx.Client, part: str, total: int, record: bool) -> None:
        while part == "warm" or time.monotonic() < marks["deadline"]:
            with lock:
                n = next(counters[part])
            if n >= total:
                return
            start = time.perf_counter()
            r = http.post("/v1/evidence/query", json={"question": QUESTIONS[n % len(QUESTIONS)]})
            elapsed = time.perf_counter() - start
            with lock:
                if r.status_code != 200:
                    errors.append(f"{part} {r.status_code}: {r.text[:200]}")
                elif record:
                    latencies.append(elapsed)
                    state = r.json()["state"]
                    states[state] = states.get(state, 0) + 1

    def client() -> None:
        with httpx.Client(base_url=base, timeout=120, headers={"Authorization": f"Bearer {KEY}"}) as http:
            send(http, "warm", warmup, record=False)
            barrier.wait()
            send(http, "timed", requests, record=True)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - marks["wall"]
    per1 = process_cpu_seconds(server_pgid)
    return Phase(
        clients, latencies, errors, states, wall,
        process_shares=busiest_shares(per0, per1),
        server_cpu=sum(per1.values()) - marks["server"],
        client_cpu=time.process_time() - marks["client"],
        box_cpu=box_busy_seconds() - marks["box"],
        load=(marks["load"], os.getloadavg()[0]),
    )


def build_loadgen() -> Path:
    """Build bench/loadgen (Go, standard library only, no network) into a temporary directory."""
    out = Path(tempfile.mkdtemp(prefix="attest-loadgen-")) / "loadgen"
    env = {**os.environ, "GOFLAGS": "-mod=mod", "GOPROXY": "off", "CGO_ENABLED": "0"}
    try:
        subprocess.run(["go", "build", "-o", str(out), "."], cwd=REPO / "bench" / "loadgen",
                       env=env, check=True, capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise SystemExit("--client go needs the Go toolchain (`go` on PATH); "
                         "or run with --client httpx (the old Python client)") from exc
    except subprocess.CalledProcessError as exc:
        raise SystemExit(f"go build of bench/loadgen failed:\n{exc.stderr}") from exc
    return out


def run_phase_go(loadgen: Path, base: str, clients: int, requests: int, seconds: float,
                 server_pgid: int | None, warmup: int) -> Phase:
    """The cheap client (``--client go``): the same phase as :func:`run_phase`, sent by
    bench/loadgen (one goroutine and one keep-alive connection per client, pre-encoded bodies).
    Its CPU is the loadgen process's own (getrusage), over the timed part only."""
    config = {
        "base": base, "key": KEY, "path": "/v1/evidence/query",
        "bodies": [json.dumps({"question": q}) for q in QUESTIONS],
        "clients": clients, "requests": requests, "warmup": warmup, "seconds": seconds,
    }
    proc = subprocess.Popen([str(loadgen)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(config) + "\n")
    proc.stdin.flush()
    warm = json.loads(proc.stdout.readline() or "{}")
    if not warm.get("warm"):
        proc.kill()
        raise SystemExit(f"loadgen warm-up failed: {warm.get('errors', ['no answer'])[:3]}")
    load_before = os.getloadavg()[0]
    per0, box0 = process_cpu_seconds(server_pgid), box_busy_seconds()
    proc.stdin.write("go\n")
    proc.stdin.flush()
    result = json.loads(proc.stdout.readline())
    per1, box1, load_after = process_cpu_seconds(server_pgid), box_busy_seconds(), os.getloadavg()[0]
    proc.wait(30)
    return Phase(
        clients, result["latencies_s"], result["errors"], result["states"], result["wall_s"],
        server_cpu=sum(per1.values()) - sum(per0.values()), client_cpu=result["cpu_s"],
        box_cpu=box1 - box0, load=(load_before, load_after),
        process_shares=busiest_shares(per0, per1),
    )


@contextmanager
def serve_processes(data_dir: Path, settings, workers: int, es: dict[str, str] | None = None,
                    attest: Path | None = None) -> Iterator[tuple[str, int]]:
    """``attest serve --workers N`` on a free port over ``data_dir`` (with the ``attest``
    executable given, by default the one beside this Python); yields the base URL and the server's process group, and stops it
    (SIGTERM to that group) when the block ends."""
    from service.api.server import free_port

    port = free_port()
    env = {**os.environ, "ATTEST_DATA_DIR": str(data_dir), "ATTEST_API_KEYS": settings.api_keys,
           "ATTEST_LOG_LEVEL": "WARNING", **(es or {})}
    if not es:
        env.pop("ATTEST_ELASTICSEARCH_URL", None)
    attest = attest or Path(sys.executable).with_name("attest")
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
        def warm() -> None:
            with httpx.Client(base_url=base, timeout=300, headers={"Authorization": f"Bearer {KEY}"}) as http:
                for q in QUESTIONS:
                    http.post("/v1/evidence/query", json={"question": q})

        # Warm every process (models and data files load lazily; each has its own query-embedding
        # cache): 4 connections per process at once, each asking every question, so that
        # whichever process a connection lands on has seen all of them before any phase.
        warmers = [threading.Thread(target=warm) for _ in range(4 * workers)]
        for t in warmers:
            t.start()
        for t in warmers:
            t.join()
        yield base, proc.pid
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(60)


@contextmanager
def in_thread(app) -> Iterator[tuple[str, None]]:
    from service.api.server import serve_in_thread

    with serve_in_thread(app) as base:
        yield base, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="8",
                        help="client threads; a comma list (1,8) runs each back to back against "
                             "the same server and prints the throughput ratio of the last to the first")
    parser.add_argument("--repeat", type=int, default=1,
                        help="run the --clients list this many times (one ratio per repetition)")
    parser.add_argument("--attest", type=Path,
                        help="with --workers: the `attest` executable to serve with (default: the "
                             "one beside this Python), e.g. an older commit's, to compare code in "
                             "the same run window")
    parser.add_argument("--client", choices=("go", "httpx"), default="go",
                        help="go (default): bench/loadgen, built here with `go build`, a cheap "
                             "client so the figure measures the server; httpx: the old client, "
                             "threads of this Python process (1-2.5 ms of CPU per request)")
    parser.add_argument("--warmup", type=int, default=2 * len(QUESTIONS),
                        help="untimed requests before every phase, over the phase's own "
                             "connections (the same for every client count)")
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

    app = create_app(settings, store=store, embedder=embedder)
    server = (serve_processes(data_dir, settings, args.workers, es_env, args.attest)
              if args.workers else in_thread(app))
    client_counts = [int(c) for c in str(args.clients).split(",")]
    phases: list[Phase] = []
    loadgen = build_loadgen() if args.client == "go" else None
    with server as (base, server_pgid):
        for _ in range(args.repeat):
            for clients in client_counts:
                if loadgen is not None:
                    phase = run_phase_go(loadgen, base, clients, args.requests, args.seconds,
                                         server_pgid, args.warmup)
                else:
                    phase = run_phase(base, clients, args.requests, args.seconds, server_pgid,
                                      args.warmup)
                phases.append(phase)
                print(json.dumps(phase.summary()), flush=True)

    in_process: list[float] = []
    for n in range(4 * len(QUESTIONS)):
        request = EvidenceRequest(question=QUESTIONS[n % len(QUESTIONS)])
        start = time.perf_counter()
        run_evidence_query(request, principal, store=store, embedder=embedder, settings=settings)
        in_process.append(time.perf_counter() - start)

    ms = lambda s: s * 1000  # noqa: E731
    inproc_p50 = statistics.median(in_process)
    inproc_mean = statistics.fmean(in_process)
    first = [p for p in phases if p.clients == client_counts[0]]
    report: dict[str, object] = {
        "store": "elasticsearch" if args.es_url else "sqlite",
        "workers": args.workers,
        "client": args.client,
        "attest": str(args.attest or Path(sys.executable).with_name("attest")),
        "inprocess_runs": len(in_process),
        "inprocess_p50_ms": round(ms(inproc_p50), 1),
        "inprocess_mean_ms": round(ms(inproc_mean), 1),
        "ratio_http_p50_to_inprocess_p50": round(first[-1].p50 / inproc_p50, 2) if first[-1].latencies else None,
        "ratio_http_throughput_to_inprocess_serial": round(first[-1].throughput * inproc_mean, 2),
    }
    if len(client_counts) > 1:
        # One ratio per repetition: the phases of a repetition ran back to back (minutes apart
        # at most), so a change in the box's load touches both sides of a ratio about equally.
        low, high = client_counts[0], client_counts[-1]
        ratios = []
        for rep in range(args.repeat):
            run = phases[rep * len(client_counts):(rep + 1) * len(client_counts)]
            ratios.append(run[-1].throughput / run[0].throughput if run[0].throughput else 0.0)
        report[f"throughput_ratio_{high}_to_{low}_per_repeat"] = [round(r, 2) for r in ratios]
        report[f"throughput_ratio_{high}_to_{low}_median"] = round(statistics.median(ratios), 2)
    print(json.dumps(report, indent=2))
    errors = [e for p in phases for e in p.errors]
    if errors:
        print("first errors:", *errors[:5], sep="\n  ")
    print(f"client {args.client}, server {report['attest']} --workers {args.workers}, "
          f"{os.cpu_count()} cores; per phase (medians over {args.repeat} repeat(s)):")
    for clients in client_counts:
        runs = [p.summary() for p in phases if p.clients == clients]
        med = lambda key: statistics.median(float(r[key]) for r in runs)  # noqa: E731
        loads = [v for r in runs for v in r["load_1min_before_after"]]
        print(f"  {clients} client(s): {med('http_throughput_rps'):.1f} req/s, p50 "
              f"{med('http_p50_ms'):.1f} ms, CPU per request server {med('server_cpu_ms_per_request'):.2f} ms "
              f"+ client {med('client_cpu_ms_per_request'):.2f} ms, cores busy ours "
              f"{med('cores_busy_ours'):.2f} / box {med('cores_busy_box'):.2f}, "
              f"load {min(loads):.2f}-{max(loads):.2f}, errors {sum(int(r['errors']) for r in runs)}, "
              f"server processes' CPU shares {[r['server_process_cpu_shares'] for r in runs]}")
    if len(client_counts) > 1:
        print(f"RATIO throughput {client_counts[-1]} clients / {client_counts[0]} client(s): "
              f"{report[f'throughput_ratio_{client_counts[-1]}_to_{client_counts[0]}_median']} "
              f"(median of {args.repeat}; per repeat "
              f"{report[f'throughput_ratio_{client_counts[-1]}_to_{client_counts[0]}_per_repeat']})")
    if args.es_url:
        store.drop_all()
        # The served processes' ingest queue index is not a store kind (jobs_elastic.py).
        store.es.indices.delete(index=f"{args.es_prefix}-jobs-v1", ignore_unavailable=True)
    store.close()
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
