"""Trains the party-name tagger (``bench/party_tagger.py``; tried for issue 9, not taken) from the cuad-dev tune contracts.

    PYTHONPATH=. nice -n 10 python scripts/train_party_ner.py --out DIR [--half A|B] [--warm-start] [--epochs N]
        [--real realA realB realD realE] [--fold 0|1]

Data: ONLY the ``tune`` list of cuad-dev's splits.json (CUAD v1, CC BY 4.0, The Atticus
Project); ``--half`` keeps tune half A or B (as ``bench/ner_eval.py --half``) for the honest check.
``--real`` adds the real-openings reading sets (``/work/realpre``, labels ``parties``; stop 22);
``--fold`` leaves out half of all documents for cross-fitted predictions.
Each contract's CUAD ``parties`` names (``gold_party_names``), where the text writes them (case
and spacing aside) inside the tagger's windows (the opening and the signature block,
``model_windows``), are PARTY spans; windows without one are the negatives. A blank English
pipeline with one NER (its own small hash-embedding CNN) is trained on CPU with a fixed seed and
a fixed example order, so the same data gives the same model.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

import spacy  # noqa: E402
from spacy.training import Example  # noqa: E402
from spacy.util import compounding, fix_random_seed, minibatch  # noqa: E402

from bench.ner_eval import CUAD_DIR, gold_party_names, load_index  # noqa: E402
from ingest.nlp_model import PACKAGED_MODEL  # noqa: E402
from bench.party_tagger import LABEL, model_windows  # noqa: E402
from ingest.text import straighten_quotes  # noqa: E402

SEED = 0


def name_pattern(name: str) -> re.Pattern[str]:
    """``name`` as whole words, case, spacing and quote style aside (as ``appears_in``)."""
    words = " ".join(straighten_quotes(name).split()).split(" ")
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)", re.I)


def party_spans(text: str, names: list[str]) -> list[tuple[int, int]]:
    """Every occurrence of a gold name in ``text``; where two overlap, the longer one."""
    straight = straighten_quotes(text)
    found = sorted(
        {(m.start(), m.end()) for name in names for m in name_pattern(name).finditer(straight)},
        key=lambda s: (-(s[1] - s[0]), s[0]),
    )
    kept: list[tuple[int, int]] = []
    for start, end in found:
        if all(end <= s or e <= start for s, e in kept):
            kept.append((start, end))
    return sorted(kept)


# Real openings the tagger may learn from (stop 22): the reading sets only, never the clean
# held-out sets (realC, realF, realG, realH) nor the report split.
REAL_DIR = Path("/work/realpre")
READING_SETS = ("realA", "realB", "realD", "realE")


def real_rows(names: list[str]) -> list[dict]:
    """(id, text, labelled parties) of the named real-openings sets."""
    rows = []
    for name in names:
        data = json.loads((REAL_DIR / f"{name}.json").read_text(encoding="utf-8"))
        rows.extend({"id": f"{name}:{c['id']}", "text": c["text"], "names": list(c["parties"])} for c in data["cases"])
    return rows


def cuad_rows(half: str | None) -> list[dict]:
    return [
        {"id": f"cuad:{row['doc_id']}", "text": (CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8"),
         "names": gold_party_names(row["parties"])}
        for row in load_index(split="tune", half=half)
    ]


def build_examples(nlp: spacy.Language, rows: list[dict]) -> tuple[list[Example], int, int]:
    examples: list[Example] = []
    spans_total = dropped = 0
    for row in rows:
        text = row["text"]
        names = row["names"]
        spans = party_spans(text, names) if names else []
        for start, end in model_windows(text):
            doc = nlp.make_doc(text[start:end])
            ents = []
            for s, e in spans:
                if s >= start and e <= end:
                    span = doc.char_span(s - start, e - start, label=LABEL, alignment_mode="strict")
                    if span is None:
                        dropped += 1
                        continue
                    ents.append((span.start_char, span.end_char, LABEL))
            spans_total += len(ents)
            examples.append(Example.from_dict(doc, {"entities": ents}))
    return examples, spans_total, dropped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half", choices=["A", "B"], help="train on tune half A or B only (honest check)")
    parser.add_argument("--out", type=Path, required=True, help="where the model is written")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument(
        "--warm-start", action="store_true",
        help="start from en_core_web_sm's NER (its weights and ORG/PERSON knowledge) instead of a blank one",
    )
    parser.add_argument("--real", nargs="*", choices=READING_SETS, default=[], help="also learn from these real-openings sets")
    parser.add_argument(
        "--fold", type=int, choices=[0, 1],
        help="cross-fitting: leave out every other document (sorted by id) starting with the first (0) or second (1)",
    )
    args = parser.parse_args()

    fix_random_seed(SEED)
    rows = cuad_rows(args.half) + real_rows(args.real)
    if args.fold is not None:
        ids = sorted(r["id"] for r in rows)
        kept = {doc_id for k, doc_id in enumerate(ids) if k % 2 != args.fold}
        rows = [r for r in rows if r["id"] in kept]
    nlp = spacy.blank("en")
    if args.warm_start:
        nlp.add_pipe("ner", source=spacy.load(PACKAGED_MODEL, exclude=["tok2vec", "tagger", "parser", "lemmatizer"]))
        nlp.get_pipe("ner").add_label(LABEL)
    else:
        nlp.add_pipe("ner")
    examples, spans_total, dropped = build_examples(nlp, rows)
    print(f"{len(rows)} contracts, {len(examples)} windows, {spans_total} PARTY spans, {dropped} unaligned dropped")
    # A warm start keeps the packaged weights (the other labels are unlearned: every token outside
    # a PARTY span is "O" in the examples).
    optimizer = nlp.resume_training() if args.warm_start else nlp.initialize(lambda: examples)
    order = random.Random(SEED)
    started = time.perf_counter()
    for epoch in range(args.epochs):
        batch_examples = list(examples)
        order.shuffle(batch_examples)
        losses: dict[str, float] = {}
        for batch in minibatch(batch_examples, size=compounding(4.0, 32.0, 1.001)):
            nlp.update(batch, drop=0.2, sgd=optimizer, losses=losses)
        print(f"epoch {epoch + 1}: ner loss {losses.get('ner', 0.0):.1f} ({time.perf_counter() - started:.0f} s)")
    args.out.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(args.out)
    print(f"saved to {args.out}")


if __name__ == "__main__":
    main()
