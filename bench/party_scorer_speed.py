"""CPU cost of the party scorer's review (``ingest/party_scorer.py``): ``annotate_document`` words
per CPU second on tune contracts with the review and without it (the grammar alone), in one run,
alternating per document so load on a shared box hits both alike.

    ATTEST_CUAD_DIR=... PYTHONPATH=. python bench/party_scorer_speed.py [--docs 12] [--rounds 2]

Data: cuad-dev tune (CUAD v1, CC BY 4.0, The Atticus Project).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.ner_eval import CUAD_DIR, load_index, paragraph_chunks  # noqa: E402
from ingest import party_scorer  # noqa: E402
from ingest.annotate import annotate_document  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    rows = load_index(split="tune")[:: max(1, len(load_index(split="tune")) // args.docs)][: args.docs]
    texts = [(CUAD_DIR / r["doc_file"]).read_text(encoding="utf-8") for r in rows]
    reviewing = party_scorer.review

    def grammar_only(*_args, **_kwargs):  # noqa: ANN002, ANN003, ANN202
        return party_scorer.Review([], [])

    seconds = {"grammar": 0.0, "review": 0.0}
    words = 0
    annotate_document(texts[0], paragraph_chunks(texts[0]), doc_id="warm", revision="w")  # load once
    for _ in range(args.rounds):
        for text in texts:
            words += len(text.split())
            for mode in ("grammar", "review"):
                party_scorer.review = grammar_only if mode == "grammar" else reviewing  # type: ignore[assignment]
                started = time.process_time()
                annotate_document(text, paragraph_chunks(text), doc_id="speed", revision="s")
                seconds[mode] += time.process_time() - started
    party_scorer.review = reviewing  # type: ignore[assignment]
    for mode, spent in seconds.items():
        print(f"{mode:<8} {words / spent:,.0f} words per CPU second ({spent:.1f} s, {words:,} words)")
    print(f"review / grammar: {seconds['grammar'] / seconds['review']:.3f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
