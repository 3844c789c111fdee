"""Evaluate the evidence state machine on the CUAD development split.

    python bench/cuad_eval.py --split tune|report [--docs N] [--data-dir DIR] [--no-ingest]
                              [--questions template,phrasings] [--out report.json] [--ingest-only]
                              [--categories "Effective Date,Agreement Date"]

The split is fixed: ``../shared/eval/cuad-dev/splits.json`` (tune on ``tune``; ``report`` is run
once, at the end, for the reported figure). Contracts of the split are taken in sha256(doc_id)
order; ``--docs N`` keeps the first N. One store may hold both splits (``--data-dir``): questions
are only asked about the split's own contracts, and ``--no-ingest`` skips contracts the store
does not hold yet, so an expensive ingest is done once and reused.

Two question sets, each question naming the agreement by its CUAD document name and first two
parties:
  * ``template``: the phrasebook's own shapes for the 15 categories it covered (issue 10's
    baseline);
  * ``phrasings``: ``bench/data/cuad_phrasings.json`` (or ``--phrasings FILE``), analyst wording
    for all 41 categories.
    Phrasings have a fixed split too: ``report_indexes`` are used only with ``--split report``.
    One phrasing per (contract, category), chosen by sha256.

Reported on questions where the gate passed (state is not SUBJECT_NOT_FOUND):
  * hit rate (answerable questions): a cited unit overlaps a gold span of the asked contract;
  * abstention (questions CUAD marks as having no answer): ``sufficient`` is false;
  * purity: cited units from another document (must be 0);
  * the calibration curve: for each relevance threshold, the share of answerable questions that
    would be sufficient, hit-and-sufficient, and the abstention on unanswerable ones;
  * query latency p50/p95.
CUAD v1 is by The Atticus Project, CC BY 4.0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DEFAULT_CUAD = REPO.parent / "shared" / "eval" / "cuad-dev"
PHRASINGS = REPO / "bench" / "data" / "cuad_phrasings.json"

# The phrasebook's own shapes (what issue 10 measured): CUAD category -> template.
TEMPLATES: dict[str, str] = {
    "Governing Law": "What law governs the {title} between {parties}?",
    "Agreement Date": "When was the {title} between {parties} signed?",
    "Effective Date": "What is the effective date of the {title} between {parties}?",
    "Expiration Date": "When does the {title} between {parties} expire?",
    "Renewal Term": "What is the renewal term of the {title} between {parties}?",
    "Notice Period To Terminate Renewal": "What is the notice period to terminate renewal of the {title} between {parties}?",
    "Anti-Assignment": "What does the {title} between {parties} say about assignment?",
    "Cap On Liability": "What does the {title} between {parties} say about a cap on liability?",
    "Insurance": "What does the {title} between {parties} say about insurance?",
    "Audit Rights": "What does the {title} between {parties} say about audit rights?",
    "Non-Compete": "What does the {title} between {parties} say about non-competition?",
    "Exclusivity": "What does the {title} between {parties} say about exclusivity?",
    "Termination For Convenience": "What does the {title} between {parties} say about termination for convenience?",
    "Change Of Control": "What does the {title} between {parties} say about a change of control?",
    "License Grant": "What does the {title} between {parties} say about a license grant?",
}
THRESHOLDS = [round(0.3 + 0.025 * i, 3) for i in range(27)]  # 0.30 .. 0.95


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def short_id(doc_id: str) -> str:
    return "cuad-" + _hash(doc_id)[:12]


MAX_PARTIES = 2  # "between A and B": the first two contracting parties CUAD lists


def clean_parties(raw: str) -> list[str]:
    """CUAD's party field: 'NAME ("Alias"); NAME2 ("Alias2"); A and B ("Parties")'. Entries
    whose defined term is the collective "Party"/"Parties" describe the parties, not a party."""
    out = []
    for piece in raw.split(";"):
        if re.search(r"\(\s*[\"“]?(?:each\s+a\s+)?[\"“]?Part(?:y|ies)\b", piece):
            continue
        name = re.sub(r"\([^)]*\)?", " ", piece)
        name = re.sub(r"[\"“”]", " ", name)
        name = " ".join(name.split()).strip(" ,.")
        if len(re.findall(r"\w+", name)) >= 1 and name.casefold() not in {"party", "parties", "customer", "supplier", "licensee"}:
            out.append(name)
    return out[:MAX_PARTIES]


def subject_phrase(entry: dict[str, Any]) -> tuple[str, str]:
    title = " ".join(entry["document_name"].split())
    parties = " and ".join(clean_parties(entry["parties"]))
    return title, parties


def template_question(category: str, entry: dict[str, Any]) -> str:
    title, parties = subject_phrase(entry)
    text = TEMPLATES[category].format(title=title, parties=parties)
    return text.replace(" between ?", "?").replace(" between  say", " say")


def phrasing_question(template: str, entry: dict[str, Any]) -> str:
    title, parties = subject_phrase(entry)
    subject = f"the {title}" + (f" between {parties}" if parties else "")
    text = template.format(subject=subject)
    return text[0].upper() + text[1:]


def phrasings_for(split: str, path: Path = PHRASINGS) -> dict[str, list[str]]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    report = set(raw.get("report_indexes", ()))
    keep = (lambda i: i in report) if split == "report" else (lambda i: i not in report)
    return {cat: [p for i, p in enumerate(ps) if keep(i)] for cat, ps in raw["categories"].items()}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def gold_spans(row: dict[str, Any], file_text: str, revision_text: str) -> list[tuple[int, int]]:
    """Gold answer spans in revision-text offsets (identical texts: as given; otherwise every
    place the answer text is written, located with whitespace-insensitive matching: a sentence
    repeated in the contract is the same answer wherever the report cites it)."""
    spans = []
    for answer in row["answers"]:
        if file_text == revision_text:
            spans.append((answer["answer_start"], answer["answer_end"]))
            continue
        words = [re.escape(w) for w in answer["text"].split()]
        if not words:
            continue
        spans.extend((m.start(), m.end()) for m in re.finditer(r"\s+".join(words), revision_text))
    return sorted(set(spans))


def rate(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


def _curve(ans: list[dict[str, Any]], unans: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for t in THRESHOLDS:
        suff = lambda r: r["best_relevance"] is not None and r["best_relevance"] >= t and r["has_claims"]  # noqa: E731
        out.append({
            "threshold": t, "answerable": len(ans), "unanswerable": len(unans),
            "sufficient_on_answerable": rate(sum(suff(r) for r in ans), len(ans)),
            "hit_and_sufficient": rate(sum(suff(r) and r["hit"] for r in ans), len(ans)),
            "abstention": rate(sum(not suff(r) for r in unans), len(unans)),
        })
    return out


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Figures over question rows that passed the gate."""
    passed = [r for r in rows if r["gate_passed"]]
    ans = [r for r in passed if not r["impossible"]]
    unans = [r for r in passed if r["impossible"]]
    by_cat: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r in passed:
        s = by_cat[r["category"]]
        if r["impossible"]:
            s["unanswerable"] += 1
            s["abstained"] += not r["sufficient"]
        else:
            s["answerable"] += 1
            s["hit"] += r["hit"]
            s["sufficient"] += r["sufficient"]
    categories = {
        c: {
            "answerable": s["answerable"], "hit_rate": rate(s["hit"], s["answerable"]),
            "sufficient_on_answerable": rate(s["sufficient"], s["answerable"]),
            "unanswerable": s["unanswerable"], "abstention": rate(s["abstained"], s["unanswerable"]),
        }
        for c, s in sorted(by_cat.items())
    }
    rated = [(c, v["hit_rate"], v["answerable"]) for c, v in categories.items() if v["answerable"] >= 3]
    worst = min(rated, key=lambda x: (x[1], x[0])) if rated else None
    curve = []
    for t in THRESHOLDS:
        suff = lambda r: r["best_relevance"] is not None and r["best_relevance"] >= t and r["has_claims"]  # noqa: E731
        curve.append({
            "threshold": t,
            "sufficient_on_answerable": rate(sum(suff(r) for r in ans), len(ans)),
            "hit_and_sufficient": rate(sum(suff(r) and r["hit"] for r in ans), len(ans)),
            "abstention": rate(sum(not suff(r) for r in unans), len(unans)),
        })
    return {
        "questions": len(rows),
        "gate_passed": len(passed),
        "gate_pass_rate": rate(len(passed), len(rows)),
        "answerable": len(ans),
        "hit_rate": rate(sum(r["hit"] for r in ans), len(ans)),
        "sufficient_on_answerable": rate(sum(r["sufficient"] for r in ans), len(ans)),
        "unanswerable": len(unans),
        "abstention": rate(sum(not r["sufficient"] for r in unans), len(unans)),
        "impure_reports": sum(r["impure"] for r in passed),
        "worst_category": {"category": worst[0], "hit_rate": worst[1], "answerable": worst[2]} if worst else None,
        "calibration": curve,
        "calibration_open": _curve([r for r in ans if r.get("attribute") == "question"], [r for r in unans if r.get("attribute") == "question"]),
        "calibration_known": _curve([r for r in ans if r.get("attribute") != "question"], [r for r in unans if r.get("attribute") != "question"]),
        "categories": categories,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=("tune", "report"), required=True)
    parser.add_argument("--docs", type=int, default=0, help="use the first N contracts of the split (0: all)")
    parser.add_argument("--offset", type=int, default=0, help="skip the first N contracts of the split")
    parser.add_argument("--data-dir", type=Path, default=None, help="reuse/keep the ingested store here")
    parser.add_argument("--no-ingest", action="store_true", help="skip contracts the store does not hold")
    parser.add_argument("--questions", default="template,phrasings")
    parser.add_argument("--cuad", type=Path, default=DEFAULT_CUAD)
    parser.add_argument("--out", type=Path, default=None, help="write the JSON report here")
    parser.add_argument("--ingest-only", action="store_true", help="ingest the contracts, ask nothing")
    parser.add_argument("--categories", default="",
                        help="ask only these CUAD categories (comma-separated, any case): for quick iteration")
    parser.add_argument("--phrasings", type=Path, default=PHRASINGS,
                        help="the phrasings file (default bench/data/cuad_phrasings.json); "
                             "bench/data/cuad_fresh_phrasings.json holds phrasings written after tuning, for validation")
    parser.add_argument("--dump", type=Path, default=None,
                        help="write every assessed unit's relevance signals and gold overlap here (JSON lines), for fitting")
    args = parser.parse_args(argv)
    sets = [s.strip() for s in args.questions.split(",") if s.strip()]
    only = {c.strip().casefold() for c in args.categories.split(",") if c.strip()}

    import ingest.nlp_model  # noqa: F401 - sets the no-telemetry environment first
    from ingest.embedder import MiniLMEmbedder
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from ingest.store.port import Principal
    from ingest.store.sqlite import SqliteStore
    from service.evidence.machine import run_evidence_query
    from service.evidence.models import EvidenceRequest

    split_ids = set(json.loads((args.cuad / "splits.json").read_text())[args.split])
    index = [json.loads(line) for line in (args.cuad / "contracts_index.jsonl").open()]
    index = sorted((e for e in index if e["doc_id"] in split_ids), key=lambda e: _hash(e["doc_id"]))
    qa: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in (args.cuad / "cuad_qa.jsonl").open():
        row = json.loads(line)
        qa[row["doc_id"]].append(row)
    template_key = {c.casefold(): c for c in TEMPLATES}
    phrasings = phrasings_for(args.split, args.phrasings)
    phrasing_key = {c.casefold(): c for c in phrasings}

    data_dir = args.data_dir or Path("/tmp/attest-cuad-eval")
    settings = Settings(data_dir=data_dir, generator_url=None)
    store = SqliteStore(data_dir / "attest.sqlite3")
    embedder = MiniLMEmbedder()
    ingestor = Ingestor(store, embedder, settings)
    docs = []
    for entry in index[args.offset :]:
        if args.docs and len(docs) >= args.docs:
            break
        sid = short_id(entry["doc_id"])
        doc = store.get_document(sid)
        if doc is None or doc.current_revision is None:
            if args.no_ingest:
                continue
            result = ingestor.ingest_path(args.cuad / entry["doc_file"], doc_id=sid)
            print(f"[ingest] {result.status} {entry['doc_id'][:70]}", file=sys.stderr, flush=True)
        docs.append(entry)
    if args.ingest_only:
        store.close()
        return 0
    principal = Principal.local_operator()

    import service.evidence.machine as machine_module

    last_assessed: list[Any] = []
    real_collect = machine_module.collect

    def recording_collect(*a: Any, **k: Any):
        found = real_collect(*a, **k)
        last_assessed[:] = found.assessed
        return found

    machine_module.collect = recording_collect
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None

    def ask(question: str):
        last_assessed.clear()
        start = time.perf_counter()
        report = run_evidence_query(EvidenceRequest(question=question), principal, store=store, embedder=embedder, settings=settings)
        return report, (time.perf_counter() - start) * 1000

    if docs:  # warm-up: models, caches, description embeddings
        ask(template_question("Governing Law", docs[0]))

    rows: dict[str, list[dict[str, Any]]] = {s: [] for s in sets}
    latencies: list[float] = []
    misses: list[dict[str, Any]] = []
    for n, entry in enumerate(docs, start=1):
        print(f"[ask {n}/{len(docs)}] {entry['doc_id'][:70]}", file=sys.stderr, flush=True)
        sid = short_id(entry["doc_id"])
        doc = store.get_document(sid)
        revision_text = store.revision_text(sid, doc.current_revision) if doc and doc.current_revision else ""
        file_text = (args.cuad / entry["doc_file"]).read_text(encoding="utf-8", errors="replace")
        for row in sorted(qa[entry["doc_id"]], key=lambda r: r["category"]):
            if only and row["category"].casefold() not in only:
                continue
            for qset in sets:
                if qset == "template":
                    category = template_key.get(row["category"].casefold())
                    if category is None:
                        continue
                    question = template_question(category, entry)
                else:
                    category = phrasing_key.get(row["category"].casefold())
                    if category is None or not phrasings[category]:
                        continue
                    options = phrasings[category]
                    question = phrasing_question(options[int(_hash(entry["doc_id"] + category), 16) % len(options)], entry)
                report, ms = ask(question)
                latencies.append(ms)
                spans = gold_spans(row, file_text, revision_text) if not row["is_impossible"] else []
                cited = report.evidence
                hit = any(
                    e.doc_id == sid and any(e.char_start < g1 and g0 < e.char_end for g0, g1 in spans) for e in cited
                )
                relevances = [e.attribute_match.get("relevance") for e in cited if e.attribute_match.get("relevance") is not None]
                record = {
                    "doc": entry["doc_id"], "category": category, "question": question,
                    "gate_passed": report.state != "SUBJECT_NOT_FOUND",
                    "impossible": bool(row["is_impossible"]), "hit": hit, "sufficient": report.sufficient,
                    "has_claims": bool(report.claims), "impure": any(e.doc_id != sid for e in cited),
                    "best_relevance": max(relevances) if relevances else (1.0 if report.claims and not relevances else None),
                    "pattern": report.subject_class.get("pattern"),
                    "attribute": report.subject_class.get("attribute"),
                }
                rows[qset].append(record)
                if dump is not None and record["gate_passed"]:
                    top = max((a.unit.chunk_score for a in last_assessed), default=0.0) or 1.0
                    dump.write(json.dumps({
                        "set": qset, "doc": entry["doc_id"], "category": category, "question": question,
                        "impossible": record["impossible"], "attribute": record["attribute"], "hit": hit,
                        "sufficient": report.sufficient,
                        "units": [{
                            "ok": a.reason is None or a.reason.startswith("off_attribute"),
                            "novalue": bool(a.reason and a.reason.startswith("off_attribute") and "states no" in a.reason),
                            "states": a.states_attribute, "gold": any(a.char_start < g1 and g0 < a.char_end for g0, g1 in spans),
                            "retrieval": round(a.unit.chunk_score / top, 4), "rank": a.unit.chunk_rank,
                            "words": len(a.excerpt.split()), "value": a.value is not None,
                            "by_relevance": a.by_relevance, "excerpt": a.excerpt[:300],
                            **{k: v for k, v in a.attribute_match.items()},
                        } for a in last_assessed],
                    }) + "\n")
                if record["gate_passed"] and not row["is_impossible"] and not hit and len(misses) < 300:
                    misses.append({**record, "gold": row["answers"][0]["text"][:200] if row["answers"] else "",
                                   "cited": [e.excerpt[:160] for e in cited[:2]]})

    result = {
        "corpus": "CUAD v1 dev split (The Atticus Project, CC BY 4.0)",
        "split": args.split,
        "contracts": len(docs),
        "query_ms_p50": round(statistics.median(latencies), 1) if latencies else None,
        "query_ms_p95": round(percentile(latencies, 0.95), 1) if latencies else None,
        "sets": {s: summarise(r) for s, r in rows.items()},
        "misses": misses,
        "rows": rows,
    }
    if args.out:
        args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    for qset, summary in result["sets"].items():
        print(f"== {qset}: {summary['questions']} questions, gate passed {summary['gate_passed']}")
        print(f"{'category':40} {'ans':>4} {'hit':>6} {'suff':>6} {'unans':>5} {'abst':>6}")
        fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
        for category, c in summary["categories"].items():
            print(f"{category:40} {c['answerable']:>4} {fmt(c['hit_rate']):>6} {fmt(c['sufficient_on_answerable']):>6} "
                  f"{c['unanswerable']:>5} {fmt(c['abstention']):>6}")
        print("calibration (threshold: sufficient on answerable / hit and sufficient / abstention)")
        for p in summary["calibration"]:
            print(f"  {p['threshold']:.3f}: {fmt(p['sufficient_on_answerable'])} / {fmt(p['hit_and_sufficient'])} / {fmt(p['abstention'])}")
        brief = {k: v for k, v in summary.items() if k not in ("categories", "calibration")}
        print(json.dumps(brief, indent=2))
    print(json.dumps({k: result[k] for k in ("split", "contracts", "query_ms_p50", "query_ms_p95")}))
    if dump is not None:
        dump.close()
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
