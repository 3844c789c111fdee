"""Audit appends per second on the SQLite store: several processes, several threads each, all
appending to one store at once, as ``attest serve --workers N`` does under concurrent clients.

    .venv/bin/python bench/audit_commit.py [--processes 2] [--threads 4] [--entries 100]
        [--entry-kb 22] [--python PATH]

Each entry is about ``--entry-kb`` KB of JSON (an evidence query's entry, with its full evidence
bundle, was 22 KB on the CUAD samples). ``--python`` runs the writers with another interpreter,
e.g. one whose ``ingest`` package is an older commit (the writers import ``ingest.store.sqlite``
from whatever that interpreter resolves, with the working directory outside this checkout), so
old and new audit code are compared in the same run window. Reported: appends/s, the
per-append latency p50/p95, and, when the code has group commit, entries per transaction. The
chain is verified at the end (``verify_audit_chain``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

_WRITER = """
import json, sys, threading, time
from ingest.store.sqlite import SqliteStore
path, name, threads, entries, kb = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
store = SqliteStore(path)
evidence = [{"doc_id": f"doc-{i}", "text": ("lorem ipsum dolor sit amet " * 40)[:1000], "score": i / 7}
            for i in range(kb)]
latencies = []
lock = threading.Lock()
sys.stdout.write("ready\\n"); sys.stdout.flush()
sys.stdin.readline()
def work(t):
    mine = []
    for i in range(entries):
        start = time.perf_counter()
        store.append_audit({"action": "evidence_query", "request_id": f"{name}-{t}-{i}",
                            "principal": "bench", "evidence": evidence})
        mine.append(time.perf_counter() - start)
    with lock:
        latencies.extend(mine)
start = time.perf_counter()
workers = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
for w in workers: w.start()
for w in workers: w.join()
wall = time.perf_counter() - start
group = getattr(store, "_audit", None)
print(json.dumps({"wall": wall, "latencies": latencies,
                  "batches": getattr(group, "batches", None)}))
store.close()
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--entries", type=int, default=100, help="appends per thread")
    parser.add_argument("--entry-kb", type=int, default=22)
    parser.add_argument("--python", default=sys.executable)
    args = parser.parse_args()

    sys.path.insert(0, str(REPO))
    from ingest.store.common import verify_audit_chain
    from ingest.store.port import AuditQuery
    from ingest.store.sqlite import SqliteStore

    with tempfile.TemporaryDirectory(prefix="attest-audit-") as tmp:
        path = Path(tmp) / "attest.sqlite3"
        SqliteStore(path).close()
        writers = [
            subprocess.Popen(
                [args.python, "-c", _WRITER, str(path), f"p{p}", str(args.threads), str(args.entries),
                 str(args.entry_kb)],
                cwd=tmp, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            )
            for p in range(args.processes)
        ]
        for w in writers:
            assert w.stdout.readline().strip() == "ready"
        start = time.perf_counter()
        for w in writers:
            w.stdin.write("go\n")
            w.stdin.flush()
        results = [json.loads(w.communicate(timeout=1800)[0]) for w in writers]
        wall = time.perf_counter() - start
        store = SqliteStore(path)
        entries = store.list_audit(AuditQuery(limit=10**7))
        store.close()
    latencies = [x for r in results for x in r["latencies"]]
    total = args.processes * args.threads * args.entries
    batches = [r["batches"] for r in results]
    report = {
        "python": args.python,
        "processes": args.processes,
        "threads": args.threads,
        "appends": total,
        "appends_per_s": round(total / wall, 1),
        "append_p50_ms": round(statistics.median(latencies) * 1000, 2),
        "append_p95_ms": round(sorted(latencies)[int(0.95 * (len(latencies) - 1))] * 1000, 2),
        "entries_per_transaction": round(total / sum(batches), 2) if None not in batches else None,
        "chain_ok": verify_audit_chain(entries)["ok"] and len(entries) == total,
    }
    print(json.dumps(report))
    return 0 if report["chain_ok"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
