"""A second held-out measurement of issue 9 on contracts written for this bench (never tuned on).

    PYTHONPATH=. python bench/synthetic_eval.py [--only s01_supply_us.txt,...] [--show-misses] [--no-answers]

The texts of ``bench/data/synthetic_contracts/`` (fiction, written without reading Attest's
party/title code, its probes or CUAD) are ingested with the real pipeline (extraction, chunking,
spaCy annotation, MiniLM vectors, ``write_revision``) into a fresh SQLite store in a temporary
folder. Against ``gold.json`` it prints:

- **title accuracy**: the contract's agreement subject is named with the gold title (compared as
  ``name_words``: case, periods and white space aside).
- **party recall / precision**: gold parties bound by ``party_to`` to the contract's agreement
  (keys as the gate compares them); bound party subjects that are a gold party.
- **parents**: an amendment or statement of work is bound (``amends`` / ``schedule_of``) to the
  agreement it names.
- **in-KB gate pass**: "What law governs the <title> between <A> and <B>?" and three more
  phrasings; a pass is the contract among the candidates. Questions that also bring in another
  contract (not an executed copy of the same agreement) are counted as drift.
- **not-in-KB refusal**: the same question with one party swapped for an invented absent company
  or for a party of another synthetic contract, and with a stray ", D", "(" or "]" after the title.
  A pass is no candidate at all (``SUBJECT_NOT_FOUND``).
- **governing-law answers** (unless ``--no-answers``): the first passed phrasing of every contract
  through ``run_evidence_query``; printed twice: claims cite a span of the right contract (or its
  executed copy) holding the gold governing-law phrase and nothing of another contract; and that
  with the report ``sufficient``.
- **duplicates**: two executed copies of one agreement are both candidates and the report carries
  ``multiple_candidates``; also how many other answers carry that signal.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from ingest.settings import Settings  # noqa: E402
from ingest.store.port import Principal  # noqa: E402
from ingest.text import name_words  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "bench" / "data" / "synthetic_contracts"
OPERATOR = Principal.local_operator()
# Invented companies that no synthetic contract names (the absent party of a not-in-KB question).
ABSENT = ("Marrowfield Cartography, Inc.", "Quenby Tidewater Holdings Ltd.", "Osterlund Vale GmbH")
IN_KB_PHRASINGS = (
    "What law governs the {title} between {all}?",
    "Which law applies to the {title} between {all}?",
    "What is the governing law of the {title} by and between {all}?",
    "Under {a}'s {title} with {b}, which law governs?",
)
STRAY_TITLE_TAILS = (", D", " (", "]")


def load_gold(only: Sequence[str] | None = None) -> list[dict[str, Any]]:
    rows = json.loads((DATA / "gold.json").read_text(encoding="utf-8"))["contracts"]
    if only:
        rows = [r for r in rows if r["file"] in set(only)]
    return rows


def doc_id(row: dict[str, Any]) -> str:
    return Path(row["file"]).stem


def words(text: str) -> str:
    return " ".join(name_words(text))


def phrase_in(phrase: str, text: str) -> bool:
    """Whether ``phrase`` occurs in ``text``, case and any run of white space (and a hyphen at
    a line break, as OCR leaves it) aside."""
    flat = re.sub(r"-\s*\n\s*", "", text)
    return " ".join(phrase.casefold().split()) in " ".join(flat.casefold().split())


@dataclass(slots=True)
class Tally:
    asked: int = 0
    passed: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, ok: bool, miss: str) -> None:
        self.asked += 1
        self.passed += int(ok)
        if not ok:
            self.misses.append(miss)

    def line(self) -> str:
        return f"{self.passed / max(1, self.asked):.3f} ({self.passed}/{self.asked})"


@dataclass(slots=True)
class Results:
    titles: Tally = field(default_factory=Tally)
    recall: Tally = field(default_factory=Tally)
    precision: Tally = field(default_factory=Tally)
    parents: Tally = field(default_factory=Tally)  # amendments / SOWs bound to the parent they name
    in_kb: Tally = field(default_factory=Tally)
    drift: Tally = field(default_factory=Tally)  # in-KB questions with no other contract's candidate
    not_in_kb: dict[str, Tally] = field(default_factory=dict)
    cites: Tally = field(default_factory=Tally)  # claims cite the right clause, nothing foreign
    answers: Tally = field(default_factory=Tally)  # ... and the report is sufficient
    duplicates: Tally = field(default_factory=Tally)
    false_multiple: Tally = field(default_factory=Tally)  # non-duplicate answers without the signal


def build_store(rows: Sequence[dict[str, Any]], folder: Path, embedder: Any) -> Any:
    from ingest.pipeline import Ingestor
    from ingest.store.sqlite import SqliteStore

    settings = Settings(data_dir=folder, generator_url=None)
    store = SqliteStore(folder / "attest.sqlite3")
    ingestor = Ingestor(store, embedder, settings)
    for row in rows:
        text = (DATA / row["file"]).read_bytes()
        result = ingestor.ingest_bytes(text, filename=row["file"], doc_id=doc_id(row), acl=["*"])
        if result.status != "indexed":
            raise SystemExit(f"ingest {row['file']}: {result.status} {result.error}")
    return store, settings


def gate_docs(store: Any, question: str) -> tuple[set[str], str]:
    from service.evidence import gate
    from service.evidence.subject_class import parse_question

    sc = parse_question(question)
    result = gate.discover(store, OPERATOR, sc, None)
    why = "; ".join(
        [f"unresolved {u!r}" for u in result.unresolved[:2]]
        + [f"rejected: {r['reason'][:100]}" for r in result.rejected[:2]]
        + [f"failure {f}" for f in sc.failures[:2]]
    )
    return {d for c in result.candidates for d in c.doc_ids}, f"read title={sc.agreement_title!r} parties={sc.parties} {why}"


def agreements_of(store: Any, doc: str) -> list[Any]:
    from service.evidence import gate

    return [a for a in store.find_subjects(OPERATOR, type="agreement", limit=gate.REGISTRY_LIMIT) if doc in gate._docs_of(a)]


def score_registry(store: Any, rows: Sequence[dict[str, Any]], res: Results) -> None:
    from service.evidence import gate

    for row in rows:
        doc, agreements = doc_id(row), agreements_of(store, doc_id(row))
        titles = sorted(a.name for a in agreements)
        res.titles.add(words(row["title"]) in {words(t) for t in titles}, f"{doc}: title {row['title']!r}, registry {titles}")
        if row.get("parent"):
            links = sorted(
                (b.relation, b.object_name) for a in agreements for b in a.bindings if b.relation in ("amends", "schedule_of")
            )
            res.parents.add(
                any(words(name) == words(row["parent"]) for _, name in links),
                f"{doc}: parent {row['parent']!r} not bound; amends/schedule_of bindings {links}",
            )
        bound: list[Any] = []
        for agreement in agreements:
            bound += store.find_subjects(OPERATOR, relation="party_to", parent_id=agreement.subject_id, limit=gate.REGISTRY_LIMIT)
        bound_keys = set().union(*(gate._party_keys(p) for p in bound)) if bound else set()
        gold_keys = {k for p in row["parties"] for k in gate._keys(p)}
        for party in row["parties"]:
            res.recall.add(bool(gate._keys(party) & bound_keys), f"{doc}: party {party!r} not bound; bound {sorted(p.name for p in bound)}")
        for subject in {p.subject_id: p for p in bound}.values():
            res.precision.add(bool(gate._party_keys(subject) & gold_keys), f"{doc}: bound non-party {subject.name!r}")


def phrasings(row: dict[str, Any], title: str | None = None) -> list[str]:
    parties = row["parties"]
    fields = {"title": title or row["title"], "a": parties[0], "b": " and ".join(parties[1:]), "all": " and ".join(parties)}
    return [p.format(**fields) for p in IN_KB_PHRASINGS]


def same_agreement(row: dict[str, Any]) -> set[str]:
    return {doc_id(row)} | ({Path(row["duplicate_of"]).stem} if row.get("duplicate_of") else set())


def score_gate(store: Any, rows: Sequence[dict[str, Any]], res: Results) -> dict[str, str]:
    """In-KB passes and not-in-KB refusals; returns doc -> the first passed question (to answer)."""
    from service.evidence import gate

    to_answer: dict[str, str] = {}
    for position, row in enumerate(rows):
        doc, own = doc_id(row), same_agreement(row)
        for asked in phrasings(row):
            docs, why = gate_docs(store, asked)
            res.in_kb.add(doc in docs, f"{doc}: {asked} -> {sorted(docs)} {why}")
            if doc in docs:
                to_answer.setdefault(doc, asked)
                res.drift.add(docs <= own, f"{doc}: {asked} -> also {sorted(docs - own)}")
        a, b = row["parties"][0], row["parties"][-1]
        title = row["title"]
        gold_keys = {k for p in row["parties"] for k in gate._keys(p)}
        others = [rows[(position + k) % len(rows)] for k in range(1, len(rows))]
        other = next(
            (p for r in others if not same_agreement(r) & own for p in r["parties"] if not gate._keys(p) & gold_keys), None
        )
        swaps = {"absent company": ABSENT[position % len(ABSENT)]}
        if other is not None:
            swaps["another contract's party"] = other
        for kind, name in swaps.items():
            asked = f"What law governs the {title} between {a} and {name}?"
            docs, why = gate_docs(store, asked)
            res.not_in_kb.setdefault(kind, Tally()).add(not docs, f"{doc}: {asked} -> {sorted(docs)} {why}")
        for tail in STRAY_TITLE_TAILS:
            asked = f"What law governs the {title}{tail} between {' and '.join(row['parties'])}?"
            docs, why = gate_docs(store, asked)
            res.not_in_kb.setdefault(f"stray {tail.strip()!r} after the title", Tally()).add(
                not docs, f"{doc}: {asked} -> {sorted(docs)} {why}"
            )
    return to_answer


def score_answers(
    store: Any, embedder: Any, settings: Settings, rows: Sequence[dict[str, Any]], to_answer: dict[str, str], res: Results
) -> None:
    from service.evidence.machine import run_evidence_query
    from service.evidence.models import EvidenceRequest

    for row in rows:
        doc = doc_id(row)
        if doc not in to_answer:
            continue
        report = run_evidence_query(EvidenceRequest(question=to_answer[doc]), OPERATOR, store=store, embedder=embedder, settings=settings)
        by_id = {e.id: e for e in report.evidence}
        cited = [by_id[i] for c in report.claims for i in c.evidence_ids if i in by_id]
        own = same_agreement(row)
        right = any(e.doc_id in own and phrase_in(row["governing_law"], e.excerpt) for e in cited)
        foreign = sorted({e.doc_id for e in cited if e.doc_id not in own})
        detail = (
            f"{doc}: {to_answer[doc]} -> sufficient={report.sufficient} cites "
            f"{[(e.doc_id, e.excerpt[:80]) for e in cited[:2]]} foreign={foreign} risks={report.risk_signals}"
        )
        res.cites.add(right and not foreign, detail)
        res.answers.add(report.sufficient and right and not foreign, detail)
        multiple = "multiple_candidates" in report.risk_signals
        if row.get("duplicate_of"):
            both = {c for cand in report.candidate_subjects for c in [cand.subject_id]}
            res.duplicates.add(multiple and len(report.candidate_subjects) >= 2, f"{doc}: risks={report.risk_signals} candidates={sorted(both)}")
        else:
            res.false_multiple.add(not multiple, f"{doc}: multiple_candidates on {to_answer[doc]} candidates={[c.subject_id for c in report.candidate_subjects]}")


def evaluate(rows: Sequence[dict[str, Any]], folder: Path, *, answers: bool = True) -> Results:
    from ingest.embedder import MiniLMEmbedder

    embedder = MiniLMEmbedder()
    store, settings = build_store(rows, folder, embedder)
    try:
        res = Results()
        score_registry(store, rows, res)
        to_answer = score_gate(store, rows, res)
        if answers:
            score_answers(store, embedder, settings, rows, to_answer, res)
        return res
    finally:
        store.close()


def report_lines(res: Results, show_misses: bool) -> list[str]:
    out = [
        f"  title accuracy {res.titles.line()}",
        f"  party recall (party_to) {res.recall.line()}, precision {res.precision.line()}",
        f"  amendments / statements of work bound (amends, schedule_of) to the parent they name {res.parents.line()}",
        f"  in-KB gate pass ({len(IN_KB_PHRASINGS)} phrasings) {res.in_kb.line()}; passed without another contract {res.drift.line()}",
    ]
    total = Tally()
    for kind, tally in res.not_in_kb.items():
        total.asked += tally.asked
        total.passed += tally.passed
        out.append(f"  not-in-KB refused, {kind}: {tally.line()}")
    out.append(f"  not-in-KB refused, all: {total.line()}")
    if res.answers.asked:
        out.append(
            f"  governing-law answers among passed questions: claims cite the right contract's clause "
            f"{res.cites.line()}; and sufficient=true {res.answers.line()}"
        )
        out.append(
            f"  duplicates: both copies candidates with multiple_candidates {res.duplicates.line()}; "
            f"other answers without a false multiple_candidates {res.false_multiple.line()}"
        )
    if show_misses:
        named = [("title", res.titles), ("party recall", res.recall), ("party precision", res.precision),
                 ("parent", res.parents),
                 ("in-KB", res.in_kb), ("drift", res.drift)]
        named += [(f"not-in-KB {k}", t) for k, t in res.not_in_kb.items()]
        named += [("answer cites", res.cites), ("answer sufficient", res.answers), ("duplicates", res.duplicates), ("false multiple", res.false_multiple)]
        for name, tally in named:
            for miss in tally.misses:
                out.append(f"    [{name}] {miss[:400]}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="comma-separated file names of gold.json (default: all)")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--no-answers", action="store_true", help="skip the evidence-machine answers (gate and registry only)")
    args = parser.parse_args()
    rows = load_gold([f for f in args.only.split(",") if f] or None)
    with tempfile.TemporaryDirectory(prefix="attest-synth-") as folder:
        res = evaluate(rows, Path(folder), answers=not args.no_answers)
    print(f"synthetic held-out contracts: {len(rows)} (bench/data/synthetic_contracts, written for this bench)")
    print("\n".join(report_lines(res, args.show_misses)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
