"""The trained party tagger against the party grammar, on a held-out half of tune.

    PYTHONPATH=. python bench/party_model_eval.py --half B --model /tmp/party_ner_A [--below 2 3 99]
    PYTHONPATH=. python bench/party_model_eval.py --shapes --model /tmp/party_ner_A

Trains nothing: ``--model`` is a tagger trained by ``scripts/train_party_ner.py --half A`` (then
evaluate on half B, and the other way round), so every figure is on contracts the tagger never
saw. The grammar was tuned on all of tune, so its own figures are optimistic on either half.
Compares, with ``bench/ner_eval.py``'s scoring (recall, recall on names written in the contract,
precision): (a) the grammar alone; (b) the tagger alone (its candidates through
``party_name_problem``); (c) the union, the tagger's names added when the grammar found fewer
than N parties (``--below``; 99 = always), through the same filters as the grammar's spaCy fallback (``bench/party_tagger.py``).
Data: cuad-dev tune (CUAD v1, CC BY 4.0, The Atticus Project).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import spacy  # noqa: E402

import ingest.annotate as annotate  # noqa: E402
from bench.ner_eval import (  # noqa: E402
    CUAD_DIR,
    CorpusResult,
    _party_forms,
    gold_party_names,
    load_index,
    paragraph_chunks,
    score_parties,
)
from bench import party_tagger  # noqa: E402
from ingest.names import lowercase_words, party_name_problem  # noqa: E402
from ingest.normalize import normalise_org  # noqa: E402


class _SameDocs:
    """The annotation pipeline, answering a repeated chunk list from the last run: every mode
    reads the same spaCy docs, and only the party step differs."""

    def __init__(self, nlp: spacy.Language) -> None:
        self.nlp = nlp
        self.key: tuple[str, ...] = ()
        self.docs: list = []

    def pipe(self, texts, batch_size: int = 32):  # noqa: ANN001, ANN201
        texts = tuple(texts)
        if texts != self.key:
            self.key, self.docs = texts, list(self.nlp.pipe(texts, batch_size=batch_size))
        return iter(self.docs)


def line(label: str, r: CorpusResult) -> str:
    return (
        f"{label:<22} recall {r.party_recall:.3f} ({r.parties_found}/{r.gold_parties})"
        f"  written {r.verbatim_recall:.3f} ({r.verbatim_found}/{r.verbatim_parties})"
        f"  precision {r.party_precision:.3f} ({r.parties_correct}/{r.parties_extracted})"
    )


def shapes(below: Sequence[int]) -> int:
    """Per mode, how many probe clauses bind exactly (no name missed, none extra or forbidden)."""
    from bench.party_shapes import CASES, probe_case

    for mode in (0, *below):
        party_tagger.UNION_BELOW = mode
        failed = [name for name in sorted(CASES) if any(probe_case(name))]
        label = "grammar" if mode == 0 else f"union below {mode}" if mode < 99 else "union always"
        print(f"{label:<22} {len(CASES) - len(failed)}/{len(CASES)} exact; failing {failed}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=("A", "B"), help="the held-out tune half")
    parser.add_argument(
        "--shapes", action="store_true",
        help="instead: bench/party_shapes.py's clauses (written from common forms, not CUAD), grammar vs union",
    )
    parser.add_argument("--model", type=Path, required=True, help="a tagger trained on the other half")
    parser.add_argument("--below", type=int, nargs="+", default=[2, 3, 99])
    parser.add_argument("--limit", type=int, default=None, help="first N contracts (a smoke run)")
    parser.add_argument("--misses", action="store_true", help="print the union's misses (read half A only)")
    args = parser.parse_args()

    party_tagger.install_union(str(args.model), 0)
    if args.shapes:
        return shapes(args.below)
    if args.half is None:
        parser.error("--half or --shapes")
    # Every mode reads the same tagged names of a text.
    party_tagger.tagged_names = lru_cache(maxsize=4)(party_tagger.tagged_names)  # type: ignore[assignment]
    pipeline = _SameDocs(annotate.annotation_pipeline())
    annotate.annotation_pipeline = lambda: pipeline  # type: ignore[assignment]

    modes = {0: "grammar", **{n: f"union below {n}" if n < 99 else "union always" for n in args.below}}
    results = {mode: CorpusResult() for mode in modes}
    alone = CorpusResult()
    rows = load_index(split="tune", half=args.half, limit=args.limit)
    for row in rows:
        text = (CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8")
        gold = gold_party_names(row["parties"])
        for below, result in results.items():
            party_tagger.UNION_BELOW = below
            annotations = annotate.annotate_document(text, paragraph_chunks(text), doc_id=row["doc_id"], revision="eval")
            score_parties(result, row["doc_id"], gold, _party_forms(annotations), text)
        common = lowercase_words(text)
        forms: dict[str, set[str]] = {}
        for name in party_tagger.party_model_candidates(text):
            if not party_name_problem(name.text, common):
                forms.setdefault(normalise_org(name.text), {normalise_org(name.text)})
        score_parties(alone, row["doc_id"], gold, forms, text)
    print(f"tune half {args.half} ({len(rows)} contracts), tagger {args.model}")
    for below, result in results.items():
        print(line(modes[below], result))
    print(line("tagger alone", alone))
    if args.misses:
        for miss in results[max(results)].misses:
            print("  " + miss)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
