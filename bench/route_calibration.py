"""Calibrate routing by meaning (``service/evidence/routing.py``) on the tune phrasings.

    python bench/route_calibration.py [--contracts 3] [--precision 0.9] [--json out.json]

Every tune phrasing of ``bench/data/cuad_phrasings.json`` (the ``report_indexes`` are never read)
and every template question of ``bench/cuad_eval.py`` is asked about the first ``--contracts``
tune contracts (sha256 order, their CUAD names and parties as the subject). The router is scored
*alone*, as if no phrase rule had read the question, because the unseen phrasings it exists for
are the ones the rules miss: a question routes when the nearest description is a known
attribute's, with cosine >= t and a lead >= m over the runner-up. It is correct when the CUAD
category is that attribute's (``cuad`` in ``attribute_cues.json``); a question of a category
without a known attribute (a clause type, parties, title) routed anywhere is a wrong route.

The grid is fitted on the first tune phrasing of each category plus the templates ("fit") and
checked on the second ("held out"): the chosen point is the one with the most correct routes on
fit among those whose fit precision reaches ``--precision`` (ties: higher t, then higher m).
CUAD v1 is by The Atticus Project, CC BY 4.0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.cuad_eval import DEFAULT_CUAD, TEMPLATES, _hash, phrasing_question, phrasings_for, template_question  # noqa: E402

SIMILARITIES = [round(0.35 + 0.025 * i, 3) for i in range(15)]  # 0.35 .. 0.70
MARGINS = [round(0.025 * i, 3) for i in range(7)]  # 0 .. 0.15


def _score(rows: list[dict[str, Any]], t: float, m: float) -> dict[str, Any]:
    routed = [r for r in rows if r["attribute"] is not None and r["similarity"] >= t and r["margin"] >= m]
    correct = sum(r["attribute"] == r["gold"] for r in routed)
    positives = sum(r["gold"] is not None for r in rows)
    return {
        "min_similarity": t, "min_margin": m, "questions": len(rows), "routed": len(routed),
        "correct": correct, "precision": round(correct / len(routed), 4) if routed else None,
        "recall": round(correct / positives, 4) if positives else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cuad", type=Path, default=DEFAULT_CUAD)
    parser.add_argument("--contracts", type=int, default=3)
    parser.add_argument("--precision", type=float, default=0.9)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    import ingest.nlp_model  # noqa: F401 - sets the no-telemetry environment first
    from ingest.embedder import MiniLMEmbedder
    from service.evidence.collect import open_clause_type, query_question
    from service.evidence.data import cues
    from service.evidence.machine import with_clause_type, with_open_attribute
    from service.evidence.models import EvidenceRequest
    from service.evidence.routing import nearest
    from service.evidence.subject_class import identify
    from service.evidence.verify import description_vector

    split = set(json.loads((args.cuad / "splits.json").read_text())["tune"])
    index = [json.loads(line) for line in (args.cuad / "contracts_index.jsonl").open()]
    index = sorted((e for e in index if e["doc_id"] in split), key=lambda e: _hash(e["doc_id"]))[: args.contracts]
    gold_of = {a.cuad: key for key, a in cues().attributes.items() if a.cuad}
    embedder = MiniLMEmbedder()

    questions: list[tuple[str, str, str]] = []  # (category, set, question)
    for category, options in sorted(phrasings_for("tune").items()):
        for i, template in enumerate(options):
            questions += [(category, "fit" if i == 0 else "held_out", phrasing_question(template, e)) for e in index]
    for category in TEMPLATES:
        questions += [(category, "fit", template_question(category, e)) for e in index]

    rows = []
    for category, part, question in questions:
        sc = with_clause_type(with_open_attribute(identify(EvidenceRequest(question=question))), question)
        asked = query_question(sc, question)
        route = nearest(description_vector(embedder, "question", asked or "-"), embedder)
        rows.append({
            "category": category, "set": part, "question": asked, "gold": gold_of.get(category),
            "rule": sc.attribute, "rule_clause": bool(open_clause_type(sc, asked)),
            "nearest": route.target, "attribute": route.attribute,
            "similarity": route.similarity, "margin": route.margin,
        })
    fit = [r for r in rows if r["set"] == "fit"]
    held = [r for r in rows if r["set"] == "held_out"]
    curve = [{"fit": _score(fit, t, m), "held_out": _score(held, t, m)} for t in SIMILARITIES for m in MARGINS]
    eligible = [p for p in curve if p["fit"]["precision"] is not None and p["fit"]["precision"] >= args.precision]
    chosen = max(eligible, key=lambda p: (p["fit"]["correct"], p["fit"]["min_similarity"], p["fit"]["min_margin"])) if eligible else None
    # What routing adds in the product: questions the rules left open with no clause type.
    left_open = [r for r in rows if r["rule"] == "question" and not r["rule_clause"]]
    print(f"{'t':>6} {'m':>6} | fit routed/correct/prec/recall | held-out routed/correct/prec/recall")
    for p in curve:
        f, h = p["fit"], p["held_out"]
        if f["min_margin"] in (0.0, 0.05, 0.1):
            print(f"{f['min_similarity']:6.3f} {f['min_margin']:6.3f} | {f['routed']:4} {f['correct']:4} {f['precision']} {f['recall']} "
                  f"| {h['routed']:4} {h['correct']:4} {h['precision']} {h['recall']}")
    print("chosen:", json.dumps(chosen))
    if chosen:
        t, m = chosen["fit"]["min_similarity"], chosen["fit"]["min_margin"]
        for r in left_open:
            go = r["attribute"] if r["attribute"] and r["similarity"] >= t and r["margin"] >= m else None
            print(f"  left open by the rules: {r['category']!r} {r['question']!r} -> {go} "
                  f"(nearest {r['nearest']} {r['similarity']:.3f}/{r['margin']:.3f})")
    if args.json:
        args.json.write_text(json.dumps({"curve": curve, "chosen": chosen, "rows": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
