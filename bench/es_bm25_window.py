"""How far Elasticsearch's unfiltered BM25 window (``ingest/store/es_bm25.py``, ``WINDOW``) is
from scoring every visible match, on an existing bench index (``bench/search.py --backend es``).

For each distinct CUAD question: the top ``--depth`` with the window as shipped (and with each
``--windows`` size), against the exact answer (the window widened to every match, up to the
result-window limit of 10,000: questions with more matches are counted and skipped). Prints,
per window size: questions whose top list is identical (ids and scores), the mean share of the
exact top found, and BM25 latency p50 / p95.

    ATTEST_ELASTICSEARCH_URL=... nice .venv/bin/python bench/es_bm25_window.py \\
        --es-prefix attest-bench --windows 250,1000,4000
"""

from __future__ import annotations

import argparse
import json
import os
import time

from bench.common import CUAD, percentile
from ingest.store import es_bm25
from ingest.store.elastic import ElasticStore
from ingest.store.port import Principal, SearchFilters

LIMIT = 10_000  # index.max_result_window: the widest window one request can take


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--es-url", help="default $ATTEST_ELASTICSEARCH_URL")
    parser.add_argument("--es-prefix", default="attest-bench")
    parser.add_argument("--windows", default=f"{es_bm25.WINDOW}", help="comma-separated window sizes")
    parser.add_argument("--depth", type=int, default=50, help="top n compared (hybrid_search's depth)")
    parser.add_argument("--questions", type=int, default=41, help="at most this many distinct questions")
    args = parser.parse_args()
    url = args.es_url or os.environ.get("ATTEST_ELASTICSEARCH_URL")
    if not url:
        raise SystemExit("needs --es-url or ATTEST_ELASTICSEARCH_URL")
    store = ElasticStore(url, prefix=args.es_prefix, request_timeout=300)
    filters = SearchFilters(principal=Principal("bench", groups=("*",)))
    seen: list[str] = []
    for line in (CUAD / "cuad_qa.jsonl").open():
        question = json.loads(line)["question"]
        if question not in seen:
            seen.append(question)
    seen = seen[: args.questions]
    es_bm25.WINDOW = LIMIT
    exact: dict[str, list] = {}
    for question in seen:
        exact[question] = store.bm25(question, filters, args.depth)
    for size in (int(w) for w in args.windows.split(",")):
        es_bm25.WINDOW = size
        same = 0
        found: list[float] = []
        times: list[float] = []
        for question in seen:
            start = time.perf_counter()
            got = store.bm25(question, filters, args.depth)
            times.append((time.perf_counter() - start) * 1000)
            want = exact[question]
            same += got == want
            if want:
                found.append(len({r.chunk_id for r in got} & {r.chunk_id for r in want}) / len(want))
        print(f"window {size:>6}: {same}/{len(seen)} top-{args.depth} lists identical to scoring every "
              f"match, {100 * sum(found) / max(1, len(found)):.1f} % of the exact top found; "
              f"BM25 p50 {percentile(times, 50):.1f} ms, p95 {percentile(times, 95):.1f} ms")
    store.close()


if __name__ == "__main__":
    main()
