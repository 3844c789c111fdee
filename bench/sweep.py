"""Benchmark a compliance sweep on CUAD dev contracts.

    nice -n 10 python bench/sweep.py [--docs 200] [--queries 200] [--data-dir DIR] [--cuad DIR] [--out report.json]

Ingests the first N contracts (ordered by sha256 of the CUAD doc id, as bench/cuad_eval.py does;
already-ingested ones are skipped), writes a sweep definition with Q questions spread round-robin
over the contracts and ten attribute categories (one question per contract first, so
the questions are distinct while queries <= 10 x docs), then runs the
sweep twice on the embedded store: the first run becomes the baseline, the second is compared
with it (it must be clean, with identical bundle hashes). Reported: wall time of each run, time
per query, the share of the run spent in the evidence machine (the rest is comparison, citation
re-validation, audit and storage), and the HTML rendering time. Timings are from one run on a
shared machine: read the ratios, not the absolute numbers.

CUAD v1 is by The Atticus Project, CC BY 4.0.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from common import CREDIT, CUAD  # noqa: E402
from cuad_eval import _hash, question_for, short_id  # noqa: E402

CATEGORIES = (
    "Governing Law", "Expiration Date", "Agreement Date", "Cap On Liability", "Effective Date",
    "Renewal Term", "Insurance", "Audit Rights", "Anti-Assignment", "Termination For Convenience",
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--cuad", type=Path, default=CUAD, help="the CUAD dev directory")
    args = parser.parse_args(argv)

    import ingest.nlp_model  # noqa: F401 - no-telemetry environment first
    import yaml

    from ingest.embedder import MiniLMEmbedder
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from ingest.store.sqlite import SqliteStore
    from service.evidence import machine
    from service.sweeps.definition import LoadedDefinition, parse_definition
    from service.sweeps.html import render_html
    from service.sweeps.runner import run_sweep
    from service.sweeps.runstore import SqliteRunStore

    index = [json.loads(line) for line in (args.cuad / "contracts_index.jsonl").open()]
    index.sort(key=lambda e: _hash(e["doc_id"]))
    docs = index[: args.docs]
    data_dir = args.data_dir or Path(f"/tmp/attest-bench-sweep-{args.docs}")
    settings = Settings(data_dir=data_dir, generator_url=None)
    store = SqliteStore(data_dir / "attest.sqlite3")
    embedder = MiniLMEmbedder()
    ingestor = Ingestor(store, embedder, settings)
    started = time.perf_counter()
    for n, entry in enumerate(docs, start=1):
        result = ingestor.ingest_path(args.cuad / entry["doc_file"], doc_id=short_id(entry["doc_id"]))
        print(f"[ingest {n}/{len(docs)}] {result.status}", file=sys.stderr, flush=True)
    ingest_s = time.perf_counter() - started

    queries = []
    for i in range(args.queries):
        entry = docs[i % len(docs)]
        category = CATEGORIES[(i // len(docs)) % len(CATEGORIES)]
        queries.append({"id": f"q{i:04d}", "question": question_for(category, entry)})
    definition = {"version": 1, "name": "bench-cuad", "principal": {"name": "bench-sweeper"},
                  "freshness": "30d", "queries": queries}
    text = yaml.safe_dump(definition, sort_keys=False)
    loaded = LoadedDefinition(definition=parse_definition(text), path=None, text=text)
    runs = SqliteRunStore(store.path)

    # Time spent inside the evidence machine, measured around the function the runner calls.
    machine_time = [0.0]
    original = machine.run_evidence_query
    import service.sweeps.runner as runner_module

    def timed(*a, **k):
        t = time.perf_counter()
        try:
            return original(*a, **k)
        finally:
            machine_time[0] += time.perf_counter() - t

    runner_module.run_evidence_query = timed
    original(  # warm-up: models and caches, outside the timed runs
        __import__("service.evidence.models", fromlist=["EvidenceRequest"]).EvidenceRequest(question=queries[0]["question"]),
        __import__("ingest.store.port", fromlist=["Principal"]).Principal(name="bench-sweeper"),
        store=store, embedder=embedder, settings=settings,
    )
    results = []
    for label in ("baseline", "rerun"):
        machine_time[0] = 0.0
        t = time.perf_counter()
        outcome = run_sweep(loaded, store=store, runs=runs, embedder=embedder, settings=settings,
                            set_baseline=label == "baseline")
        wall = time.perf_counter() - t
        t = time.perf_counter()
        html = render_html(outcome.report)
        render_s = time.perf_counter() - t
        summary = outcome.report["summary"]
        results.append({
            "run": label, "wall_s": round(wall, 2), "per_query_ms": round(wall / len(queries) * 1000, 1),
            "evidence_machine_share": round(machine_time[0] / wall, 3), "html_render_s": round(render_s, 3),
            "html_bytes": len(html.encode()), "findings": summary["findings"], "counts": summary["counts"],
            "bundle_hashes_identical": summary["bundle_hashes_identical"],
            "states": {s: sum(1 for q in outcome.report["queries"] if q["state"] == s)
                       for s in sorted({q["state"] for q in outcome.report["queries"]})},
            "coverage": summary["coverage"],
        })
        print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    report = {"docs": len(docs), "queries": len(queries), "ingest_s": round(ingest_s, 1),
              "runs": results, "data": CREDIT, "note": "one run on a shared 2-core machine"}
    print(json.dumps(report, indent=2))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2))
    runs.close()
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
