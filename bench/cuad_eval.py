"""Evaluate the evidence state machine on the CUAD development split.

    python bench/cuad_eval.py [--docs N] [--data-dir DIR] [--cuad DIR] [--out report.json]

Selection and split are deterministic: contracts are ordered by sha256(doc_id); the first N are
used; even positions form the knowledge base (ingested), odd positions are held out. Questions
name the agreement by its CUAD document name and its parties ("What law governs the MARKETING
AFFILIATE AGREEMENT between A and B?").

Reported per category and overall:
  * hit rate (answerable questions): the report concluded and a cited unit overlaps a gold span;
  * abstention rate (unanswerable questions): ``sufficient`` is false;
  * subject purity: among reports citing anything, all cited units come from the asked document;
  * gate rate (held-out contracts, not in the KB): SUBJECT_NOT_FOUND with no evidence;
  * warm query latency p50/p95.
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

# CUAD category -> question template ({title}, {parties}).
QUESTIONS: dict[str, str] = {
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
_CATEGORY_KEY = {c.casefold(): c for c in QUESTIONS}


def _hash(doc_id: str) -> str:
    return hashlib.sha256(doc_id.encode()).hexdigest()


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


def question_for(category: str, entry: dict[str, Any]) -> str:
    title = " ".join(entry["document_name"].split())
    parties = clean_parties(entry["parties"])
    joined = " and ".join(parties) if parties else ""
    text = QUESTIONS[category].format(title=title, parties=joined)
    return text.replace(" between ?", "?").replace(" between  say", " say")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def gold_spans(row: dict[str, Any], file_text: str, revision_text: str) -> list[tuple[int, int]]:
    """Gold answer spans in revision-text offsets (identical texts: as given; otherwise the
    answer text located with whitespace-insensitive matching)."""
    spans = []
    for answer in row["answers"]:
        if file_text == revision_text:
            spans.append((answer["answer_start"], answer["answer_end"]))
            continue
        words = [re.escape(w) for w in answer["text"].split()]
        if not words:
            continue
        m = re.search(r"\s+".join(words), revision_text)
        if m:
            spans.append((m.start(), m.end()))
    return spans


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=0, help="use the first N contracts (0: all)")
    parser.add_argument("--data-dir", type=Path, default=None, help="reuse/keep the ingested store here")
    parser.add_argument("--cuad", type=Path, default=DEFAULT_CUAD)
    parser.add_argument("--out", type=Path, default=None, help="write the JSON report here")
    parser.add_argument("--max-gate-questions", type=int, default=0, help="0: one per held-out doc and category")
    args = parser.parse_args(argv)

    import ingest.nlp_model  # noqa: F401 - sets the no-telemetry environment first
    from ingest.embedder import MiniLMEmbedder
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from ingest.store.port import Principal
    from ingest.store.sqlite import SqliteStore
    from service.evidence.machine import run_evidence_query
    from service.evidence.models import EvidenceRequest

    index = [json.loads(line) for line in (args.cuad / "contracts_index.jsonl").open()]
    index.sort(key=lambda e: _hash(e["doc_id"]))
    if args.docs:
        index = index[: args.docs]
    kb_docs = index[0::2]
    held_out = index[1::2]
    qa: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for line in (args.cuad / "cuad_qa.jsonl").open():
        row = json.loads(line)
        if row["category"].casefold() in _CATEGORY_KEY:
            row["category"] = _CATEGORY_KEY[row["category"].casefold()]
            qa[row["doc_id"]].append(row)

    data_dir = args.data_dir or Path(f"/tmp/attest-cuad-eval-{args.docs or 'all'}")
    settings = Settings(data_dir=data_dir, generator_url=None)
    store = SqliteStore(data_dir / "attest.sqlite3")
    embedder = MiniLMEmbedder()
    ingestor = Ingestor(store, embedder, settings)
    ingest_times = []
    for n, entry in enumerate(kb_docs, start=1):
        start = time.perf_counter()
        result = ingestor.ingest_path(args.cuad / entry["doc_file"], doc_id=short_id(entry["doc_id"]))
        if result.status != "unchanged":
            ingest_times.append(time.perf_counter() - start)
        print(f"[ingest {n}/{len(kb_docs)}] {result.status} {entry['doc_id'][:70]}", file=sys.stderr, flush=True)
    principal = Principal.local_operator()

    def ask(question: str):
        start = time.perf_counter()
        report = run_evidence_query(EvidenceRequest(question=question), principal, store=store, embedder=embedder, settings=settings)
        return report, (time.perf_counter() - start) * 1000

    if kb_docs:  # warm-up: models, caches, description embeddings
        ask(question_for("Governing Law", kb_docs[0]))

    per_cat: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    latencies: list[float] = []
    concluded_ms: list[float] = []  # full path: retrieval, extraction, verification
    not_found_ms: list[float] = []  # stopped at the gate
    failures: list[dict[str, Any]] = []
    for n, entry in enumerate(kb_docs, start=1):
        print(f"[ask {n}/{len(kb_docs)}] {entry['doc_id'][:70]}", file=sys.stderr, flush=True)
        sid = short_id(entry["doc_id"])
        doc = store.get_document(sid)
        revision_text = store.revision_text(sid, doc.current_revision) if doc and doc.current_revision else ""
        file_text = (args.cuad / entry["doc_file"]).read_text(encoding="utf-8", errors="replace")
        for row in sorted(qa[entry["doc_id"]], key=lambda r: r["category"]):
            category = row["category"]
            question = question_for(category, entry)
            report, ms = ask(question)
            latencies.append(ms)
            (concluded_ms if report.state == "CONCLUDED" else not_found_ms).append(ms)
            stats = per_cat[category]
            cited = report.evidence
            if cited:
                stats["with_evidence"] += 1
                stats["pure"] += all(e.doc_id == sid for e in cited)
            stats["gate_passed"] += report.state != "SUBJECT_NOT_FOUND"
            stats["understood"] += bool(report.subject_class.get("understood"))
            if row["is_impossible"]:
                stats["unanswerable"] += 1
                stats["abstained"] += not report.sufficient
            else:
                stats["answerable"] += 1
                spans = gold_spans(row, file_text, revision_text)
                hit = report.state == "CONCLUDED" and any(
                    e.doc_id == sid and any(e.char_start < g_end and g_start < e.char_end for g_start, g_end in spans)
                    for e in cited
                )
                stats["hit"] += hit
                if report.state != "SUBJECT_NOT_FOUND":
                    stats["answerable_gate_passed"] += 1
                    stats["hit_gate_passed"] += hit
                stats["sufficient_on_answerable"] += report.sufficient
                if not hit and len(failures) < 400:
                    failures.append({
                        "doc": entry["doc_id"], "category": category, "question": question,
                        "state": report.state, "sufficient": report.sufficient,
                        "gate": report.trace[2].detail if len(report.trace) > 2 else "",
                        "gold": row["answers"][0]["text"][:200] if row["answers"] else "",
                        "cited": [e.excerpt[:160] for e in cited[:2]],
                    })
    gate_total = gate_ok = 0
    for entry in held_out:
        categories = sorted({r["category"] for r in qa[entry["doc_id"]]}) or ["Governing Law"]
        for category in categories:
            if args.max_gate_questions and gate_total >= args.max_gate_questions:
                break
            report, ms = ask(question_for(category, entry))
            latencies.append(ms)
            (concluded_ms if report.state == "CONCLUDED" else not_found_ms).append(ms)
            gate_total += 1
            gate_ok += report.state == "SUBJECT_NOT_FOUND" and not report.evidence

    def rate(a: int, b: int) -> float | None:
        return round(a / b, 4) if b else None

    categories_out = {}
    totals: dict[str, int] = defaultdict(int)
    for category in QUESTIONS:
        s = per_cat.get(category, {})
        for k, v in s.items():
            totals[k] += v
        categories_out[category] = {
            "answerable": s.get("answerable", 0),
            "hit_rate": rate(s.get("hit", 0), s.get("answerable", 0)),
            "sufficient_on_answerable": rate(s.get("sufficient_on_answerable", 0), s.get("answerable", 0)),
            "unanswerable": s.get("unanswerable", 0),
            "abstention_rate": rate(s.get("abstained", 0), s.get("unanswerable", 0)),
            "subject_purity": rate(s.get("pure", 0), s.get("with_evidence", 0)),
            "gate_pass_rate_in_kb": rate(s.get("gate_passed", 0), s.get("answerable", 0) + s.get("unanswerable", 0)),
        }
    result = {
        "corpus": "CUAD v1 dev split (The Atticus Project, CC BY 4.0)",
        "kb_docs": len(kb_docs),
        "held_out_docs": len(held_out),
        "questions_in_kb": totals["answerable"] + totals["unanswerable"],
        "overall": {
            "hit_rate": rate(totals["hit"], totals["answerable"]),
            "hit_rate_when_gate_passed": rate(totals["hit_gate_passed"], totals["answerable_gate_passed"]),
            "sufficient_on_answerable": rate(totals["sufficient_on_answerable"], totals["answerable"]),
            "abstention_rate": rate(totals["abstained"], totals["unanswerable"]),
            "subject_purity": rate(totals["pure"], totals["with_evidence"]),
            "gate_pass_rate_in_kb": rate(totals["gate_passed"], totals["answerable"] + totals["unanswerable"]),
            "gate_rate_held_out": rate(gate_ok, gate_total),
            "gate_questions_held_out": gate_total,
            "warm_query_ms_p50": round(statistics.median(latencies), 1) if latencies else None,
            "warm_query_ms_p95": round(percentile(latencies, 0.95), 1) if latencies else None,
            "concluded_query_ms_p50": round(statistics.median(concluded_ms), 1) if concluded_ms else None,
            "concluded_query_ms_p95": round(percentile(concluded_ms, 0.95), 1) if concluded_ms else None,
            "not_found_query_ms_p50": round(statistics.median(not_found_ms), 1) if not_found_ms else None,
            "ingest_s_per_doc_mean": round(statistics.mean(ingest_times), 2) if ingest_times else None,
        },
        "categories": categories_out,
        "misses": failures,
    }
    if args.out:
        args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(f"{'category':40} {'ans':>4} {'hit':>6} {'suff':>6} {'unans':>5} {'abst':>6} {'pure':>6} {'gate':>6}")
    for category, c in categories_out.items():
        fmt = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
        print(f"{category:40} {c['answerable']:>4} {fmt(c['hit_rate']):>6} {fmt(c['sufficient_on_answerable']):>6} "
              f"{c['unanswerable']:>5} {fmt(c['abstention_rate']):>6} {fmt(c['subject_purity']):>6} {fmt(c['gate_pass_rate_in_kb']):>6}")
    print(json.dumps(result["overall"], indent=2))
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
