"""Benchmark the class-level review table (``service.evidence.table.build_table``).

    python bench/table.py --data-dir DIR [--attribute governing_law] [--page-size 50] [--query-time-vectors]

Pages through every agreement of the store with one attribute and reports the time per row
(p50/p95) and the slowest page, warm (models loaded and one page computed first). The cost per page is
bounded by page_size x attributes hybrid searches, each restricted to one document.
``--query-time-vectors`` ignores the sentence vectors stored at ingest (the path of an index
written before they were stored: units embedded at query time, at most 12 per cell), for a
before/after ratio on one machine.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--attribute", default="governing_law")
    parser.add_argument("--page-size", type=int, default=50)
    parser.add_argument("--query-time-vectors", action="store_true")
    args = parser.parse_args(argv)

    import ingest.nlp_model  # noqa: F401
    from ingest.embedder import MiniLMEmbedder
    from ingest.settings import Settings
    from ingest.store.port import Principal
    from ingest.store.sqlite import SqliteStore
    from service.evidence.table import TableRequest, build_table

    store = SqliteStore(args.data_dir / "attest.sqlite3")
    if args.query_time_vectors:
        from common import without_stored_unit_vectors

        without_stored_unit_vectors(store)
    embedder = MiniLMEmbedder()
    settings = Settings(data_dir=args.data_dir, generator_url=None)
    principal = Principal.local_operator()
    build_table(TableRequest(attributes=[args.attribute], page_size=2), principal, store=store, embedder=embedder, settings=settings)
    from service.evidence.table import class_members, compute_cell

    row_ms: list[float] = []
    sufficient = 0
    with store.snapshot():
        members = class_members(store, principal, "agreement")
    for n, subject in enumerate(members, start=1):
        start = time.perf_counter()
        with store.snapshot():
            cell = compute_cell(subject, args.attribute, principal, store=store, embedder=embedder, settings=settings)
        row_ms.append((time.perf_counter() - start) * 1000)
        sufficient += cell.sufficient
        if n % 10 == 0:
            print(f"[row {n}/{len(members)}]", file=sys.stderr, flush=True)
    total = len(members)
    pages = [sum(row_ms[i : i + args.page_size]) for i in range(0, len(row_ms), args.page_size)]
    report = {
        "agreements": total, "attribute": args.attribute, "page_size": args.page_size,
        "page_ms_max": round(max(pages), 1) if pages else None,
        "row_ms_p50": round(statistics.median(row_ms), 1) if row_ms else None,
        "row_ms_p95": round(percentile(row_ms, 0.95), 1) if row_ms else None,
        "cells_sufficient": sufficient,
        "sentence_vectors": "query time" if args.query_time_vectors else "stored at ingest",
    }
    print(json.dumps(report, indent=2))
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
