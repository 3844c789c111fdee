"""The subject gate on CUAD dev: in-KB pass rate and not-in-KB refusals.

    PYTHONPATH=. python bench/gate_eval.py --split tune|report [--limit N] [--half A|B] [--show-misses N] [--phrasings]
        [--fresh-phrasings [--phrasings-file PATH]] [--registry] [--adversarial]

For one split of ``../shared/eval/cuad-dev/splits.json`` a registry is built with the real ingest
pipeline (extraction, chunking, spaCy annotation, ``write_revision``) into a SQLite store, with
one exception: chunk vectors are a constant, since the gate never reads them and MiniLM would
dominate the run. About a fifth of the split (``sha256('kb:' + doc_id) % 5 == 0``) is held out
of the knowledge base. Questions go through ``parse_question`` and ``gate.discover``, i.e. the
store's ``find_subjects``, exactly as the evidence machine runs them.

- **in-KB**: "What law governs the <document_name> between <A> and <B>?" for every ingested
  contract whose CUAD title and party names all occur verbatim in its text (``appears_in``: as
  whole words, any white space between them). Passes when a candidate is that contract's
  agreement.
  Some CUAD names carry stray punctuation themselves ("Cooperation Agreement (", the very
  question issue 9 quotes as fail-open); the parser refuses those by design, so the pass rate is
  also printed without them, and they are counted on their own.
- **not-in-KB**: the same question for each held-out contract, and stray-punctuation variants
  of it (a title ending in ", D", " (", parties joined with " / "). Passes when the gate finds no
  candidate (``SUBJECT_NOT_FOUND``). A held-out contract whose title and party names match an
  ingested one (a duplicate filing) is skipped. The three questions quoted in issue 9 are counted
  apart: a pass is no candidate but the contract each is about (refused when it is held out).

In-KB misses are counted by cause (``miss_cause``: stray punctuation in CUAD's own names, the
question parser, the registry, title matching). ``--phrasings`` also asks every contract in
analyst wording (``bench/data/gate_phrasings.json``, at least three phrasings per shape: a
question that goes on after the party list, "with" one party, a possessive owner, title wording)
and prints in-KB pass and not-in-KB refusals per shape. ``--registry`` asks "Who are the parties
to the <document_name> between <A> and <B>?" through the registry-question reader
(``registry_questions.agreement_class``, then ``gate.discover`` as the machine runs it): in-KB
pass, not-in-KB refusals, and refusals of the in-KB question with a stray quote before the
party list (which once passed every agreement of that title).

``--fresh-phrasings`` asks a held-out set of analyst phrasings (``bench/data/gate_fresh_phrasings.json``,
27 shapes written before the question-side work of its stop and first scored on ``main``:
"Under the X between A and B, ...", "In A's X with B", "For the X (A / B)", "the A–B X",
possessives, the subject at the end, a party list first, quoted and lower-case titles, lower-case
names, stray trailing punctuation, "/" and ";" lists, structured subjects through the API model)
and prints in-KB pass and not-in-KB refusals per shape, and the in-KB pass of contracts whose party
names hold a comma, "&", "of" or "d/b/a". ``--phrasings-file PATH`` asks another held-out set
instead: ``bench/data/gate_phrasings_fresh2.json`` (30 shapes written later, the same way: "Re: X
— A v B", "A and B entered into a X; ...", dates after the title, upper-case names, "(A/B)",
"the parties' X", numbered parties, imperative and noun-phrase questions). Not-in-KB misses are listed first: each is an answer
about the wrong subject.

Stores are cached under ``$ATTEST_BENCH_CACHE`` (default ``~/.cache/attest-bench``), keyed by the
split, the held-out rule and a hash of ``ingest/``, ``ner_models/`` and the spaCy model setting
(``ATTEST_SPACY_MODEL``), so an unchanged extractor reuses its store. CUAD v1: The Atticus Project, CC BY 4.0.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from ingest.normalize import normalise_org  # noqa: E402
from ingest.text import name_words  # noqa: E402
from ingest.settings import Settings  # noqa: E402
from ingest.statuses import IngestOutcome  # noqa: E402
from ingest.store.port import Principal  # noqa: E402
from ingest.store.sqlite import SqliteStore  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
# ATTEST_CUAD_DIR points elsewhere when the checkout is not next to shared/ (a worktree).
CUAD_DIR = Path(os.environ.get("ATTEST_CUAD_DIR") or REPO.parent / "shared" / "eval" / "cuad-dev")
HELD_OUT_MODULUS = 5
# The three questions issue 9 quotes as fail-open, with the CUAD contract each one is about. Issue
# 9 asked them of a KB without those contracts; when the split's KB holds one, the only right
# answer is that very contract, so the check is "never another contract", not "refused".
ISSUE_QUESTIONS = (
    ("What law governs the Intellectual Property Agreement, D between HONEYWELL INTERNATIONAL INC. and "
     "GARRETT MOTION INC.?", "GarrettMotionInc_20181001_8-K_EX-2.4_11364532_EX-2.4_Intellectual Property Agreement"),
    ("What law governs the Cooperation Agreement ( between e.l.f. Beauty, Inc. and Marathon Partners L.P.?",
     "ELFBEAUTY,INC_07_02_2020-EX-10.1-COOPERATION AGREEMENT"),
    ("What law governs the Service Agreement For Transfer Agent Services between Blackstone / GSO "
     "Long-Short Credit Income Fund and Mellon Investor Services LLC?",
     "BLACKSTONEGSOLONG-SHORTCREDITINCOMEFUND_05_11_2020-EX-99.(K)(1)-SERVICE AGREEMENT"),
)


def held_out(doc_id: str) -> bool:
    return int(hashlib.sha256(f"kb:{doc_id}".encode()).hexdigest(), 16) % HELD_OUT_MODULUS == 0


def code_fingerprint() -> str:
    from ingest.settings import get_settings

    digest = hashlib.sha256()
    # The model tags entities at ingest, so a store built with one model is no store of the other.
    digest.update(f"spacy_model={get_settings().spacy_model}".encode())
    for folder in ("ingest", "ner_models"):
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".json", ".jsonl", ".txt"):
                digest.update(str(path.relative_to(REPO)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def split_rows(split: str) -> list[dict]:
    names = set(json.loads((CUAD_DIR / "splits.json").read_text())[split])
    rows = [json.loads(line) for line in (CUAD_DIR / "contracts_index.jsonl").read_text().splitlines() if line.strip()]
    return sorted((r for r in rows if r["doc_id"] in names), key=lambda r: r["doc_id"])


class ConstantEmbedder:
    """The real MiniLM tokenizer (chunk sizes are as in production) with a constant vector."""

    def __init__(self) -> None:
        from ingest.embedder import MiniLMEmbedder

        self._real = MiniLMEmbedder()
        self.model_name = self._real.model_name
        self.dimension = self._real.dimension
        self.window = self._real.window

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        out[:, 0] = 1.0
        return out

    def count_tokens(self, text: str) -> int:
        return self._real.count_tokens(text)


def build_store(rows: Sequence[dict], split: str, rebuild: bool) -> SqliteStore:
    from ingest.pipeline import Ingestor

    cache = Path(os.environ.get("ATTEST_BENCH_CACHE", Path.home() / ".cache" / "attest-bench"))
    folder = cache / f"gate-{split}-{len(rows)}-{code_fingerprint()}"
    done = folder / "complete"
    if done.exists() and not rebuild:
        print(f"store: cached {folder}")
        return SqliteStore(folder / "attest.sqlite3")
    folder.mkdir(parents=True, exist_ok=True)
    store = SqliteStore(folder / "attest.sqlite3")
    ingestor = Ingestor(store, ConstantEmbedder(), Settings(data_dir=folder))  # type: ignore[arg-type]
    started = time.perf_counter()
    for row in rows:
        result = ingestor.ingest_path(CUAD_DIR / row["doc_file"], doc_id=row["doc_id"])
        if result.status != IngestOutcome.INDEXED:
            print(f"  ingest {row['doc_id']}: {result.status} {result.error}")
    done.write_text("ok")
    print(f"store: built {folder} ({len(rows)} contracts, {time.perf_counter() - started:.0f}s)")
    return store


def appears_in(name: str, text: str) -> bool:
    """Whether ``name`` occurs in ``text`` as a name: its words in order, whole (never the start
    of a longer word: CUAD's "Deutsche Bank Trust Company America" is not in a text that only
    says "... Americas"), with any run of white space between them (CUAD names keep or drop
    the text's line breaks: "ADDENDUM TO \\n\\nZEBRA® ...", "Videsh Sanchar Nigam Limited \\n")."""
    words = name.split()
    if not words:
        return False
    pattern = r"\s+".join(re.escape(w) for w in words)
    if re.match(r"\w", words[0]):
        pattern = r"(?<!\w)" + pattern
    if re.search(r"\w$", words[-1]):
        pattern += r"(?!\w)"
    return re.search(pattern, text) is not None


def in_kb_question_names(row: dict, text: str) -> tuple[str, list[str]] | None:
    """(title, parties) when the contract's CUAD title and every CUAD party name appear in its
    text (``appears_in``): the in-KB questions issue 9 defines. None otherwise."""
    title, parties = row["document_name"].strip(), gold_parties(row)
    if not parties or not all(appears_in(name, text) for name in (title, *parties)):
        return None
    return title, parties


def gold_parties(row: dict) -> list[str]:
    from bench.ner_eval import gold_party_names

    return gold_party_names(row["parties"])


def question(title: str, parties: Sequence[str], joiner: str = " and ") -> str:
    return f"What law governs the {title} between {joiner.join(parties)}?"


@dataclass(slots=True)
class Tally:
    asked: int = 0
    passed: int = 0
    misses: list[str] = field(default_factory=list)
    causes: dict[str, int] = field(default_factory=dict)  # in-KB misses by cause (miss_cause)

    @property
    def rate(self) -> float:
        return self.passed / max(1, self.asked)

    def expect_only(self, store: SqliteStore, asked: str, allowed: set[str]) -> None:
        """Ask a question whose only right candidates are ``allowed`` (empty: the KB does not hold
        the agreement): a pass is no candidate outside them, i.e. never another contract."""
        docs, why = gate_docs(store, asked)
        self.asked += 1
        if docs <= allowed:
            self.passed += 1
        else:
            self.misses.append(f"{asked} -> {sorted(docs - allowed)[:2]} {why}")

    def expect_refused(self, store: SqliteStore, asked: str) -> None:
        """Ask a question about an agreement the KB does not hold: a pass is a refusal."""
        docs, why = gate_docs(store, asked)
        self.asked += 1
        if not docs:
            self.passed += 1
        else:
            self.misses.append(f"{asked} -> {sorted(docs)[:2]} {why}")


def gate_docs(store: SqliteStore, text: str) -> tuple[set[str], str]:
    from service.evidence import gate
    from service.evidence.subject_class import parse_question

    sc = parse_question(text)
    result = gate.discover(store, Principal.local_operator(), sc, None)
    docs = {d for c in result.candidates for d in c.doc_ids}
    why = "; ".join(
        [f"unresolved {u!r}" for u in result.unresolved[:3]]
        + [f"{r['subject_id'][:60]}: {r['reason'][:120]}" for r in result.rejected[:3]]
        + [f"failure {f}" for f in getattr(result, "failures", [])[:2]]
    )
    return docs, f"title={sc.agreement_title!r} parties={sc.parties} {why}"


MISS_CAUSES = {
    "stray punctuation": "the CUAD title or a CUAD party name itself has stray punctuation; refused by design",
    "party limit": "CUAD names more parties than a question may (limits.parties); refused by design",
    "parser": "the question was not read into the CUAD title and party names",
    "registry: no agreement": "ingest recorded no agreement subject for the contract",
    "registry: party not bound": "a CUAD party name is not bound by party_to to the contract's agreement",
    "title match": "every party is bound, but the question's title does not match the registry title",
}


def miss_cause(store: SqliteStore, row: dict, asked: str) -> str:
    """Why an in-KB question missed, first cause that applies, in the order of MISS_CAUSES."""
    from service.evidence import gate
    from service.evidence.subject_class import name_problem, parse_question, title_problem

    title, parties = row["document_name"].strip(), gold_parties(row)
    if title_problem(title) or any(name_problem(p) for p in parties):
        return "stray punctuation"
    sc = parse_question(asked)
    if any(f.startswith("too many party names") for f in sc.failures):
        return "party limit"
    readings = [(sc.parties, sc.party_separators)] + [(r["parties"], r["separators"]) for r in sc.party_readings]
    read = [{k for s in gate._segments(list(p), list(sep)) for k in gate._keys(s.name)} for p, sep in readings]
    title_read = " ".join(name_words(sc.agreement_title or "")) == " ".join(name_words(title))
    if sc.failures or not title_read or not any(all(gate._keys(p) & keys for p in parties) for keys in read):
        return "parser"
    principal = Principal.local_operator()
    agreements = [
        a for a in store.find_subjects(principal, type="agreement", limit=gate.REGISTRY_LIMIT)
        if row["doc_id"] in gate._docs_of(a)
    ]
    if not agreements:
        return "registry: no agreement"
    for agreement in agreements:
        bound: set[str] = set()
        for party in store.find_subjects(
            principal, relation="party_to", parent_id=agreement.subject_id, limit=gate.REGISTRY_LIMIT
        ):
            bound |= gate._party_keys(party)
        if all(gate._keys(p) & bound for p in parties):
            return "title match"
    return "registry: party not bound" + _unbound_detail(store, principal, agreements, parties)


def _unbound_detail(store: SqliteStore, principal: Principal, agreements: list, parties: list[str]) -> str:
    """How the first agreement's bound parties relate to the names it does not bind, in words
    that name no case: nothing bound; a name read at another boundary (a bound name's words hold
    its words, or the other way round); words shared in part; none of its words in any bound name."""
    from service.evidence import gate

    keys = _bound_keys(store, agreements[0].subject_id)
    if not keys:
        return " (nothing bound)"
    bound = [set(k.split()) for k in keys]
    unbound = [set(k.split()) for p in parties if not gate._keys(p) & keys for k in gate._keys(p)]
    if any(u <= b or b <= u for u in unbound for b in bound):
        return " (read at another boundary)"
    if any(u & b for u in unbound for b in bound):
        return " (words shared in part)"
    return " (not read)"


def _key(row: dict) -> tuple[str, frozenset[str]]:
    return " ".join(name_words(row["document_name"])), frozenset(normalise_org(p) for p in gold_parties(row))


def evaluate(
    store: SqliteStore, rows: Sequence[dict], kb_rows: Sequence[dict] | None = None
) -> tuple[Tally, Tally, Tally, Tally]:
    from service.evidence.subject_class import parse_question

    in_kb, not_in_kb, issue, stray = Tally(), Tally(), Tally(), Tally()
    in_kb.causes = {}
    ingested = [r for r in rows if not held_out(r["doc_id"])]
    ingested_keys = {_key(r) for r in ingested}
    for row in rows:
        text = (CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8")
        title, parties = row["document_name"].strip(), gold_parties(row)
        if not held_out(row["doc_id"]):
            if in_kb_question_names(row, text) is None:
                continue
            asked = question(title, parties)
            docs, why = gate_docs(store, asked)
            in_kb.asked += 1
            if getattr(parse_question(asked), "failures", None):
                # Refused by design: the name as CUAD gives it has stray punctuation, or CUAD
                # names more parties than a question may.
                stray.asked += 1
                stray.passed += int(not docs)
            if row["doc_id"] in docs:
                in_kb.passed += 1
            else:
                cause = miss_cause(store, row, asked)
                in_kb.causes[cause] = in_kb.causes.get(cause, 0) + 1
                in_kb.misses.append(f"[{cause}] {asked} -> {sorted(docs)[:2]} {why}")
            continue
        if _key(row) in ingested_keys or not parties:
            continue
        variants = [
            question(title, parties),
            question(f"{title}, D", parties),
            question(f"{title} (", parties),
        ]
        if len(parties) >= 2:
            variants.append(question(title, parties, " / "))
        for asked in variants:
            not_in_kb.expect_refused(store, asked)
    # The KB is the whole split even when only half of it is asked (--half).
    ingested_ids = {r["doc_id"] for r in (kb_rows or rows) if not held_out(r["doc_id"])}
    for asked, about in ISSUE_QUESTIONS:
        issue.expect_only(store, asked, {d for d in ingested_ids if d.startswith(about)})
    return in_kb, not_in_kb, issue, stray


PHRASINGS = REPO / "bench" / "data" / "gate_phrasings.json"


def phrasing_questions(title: str, parties: Sequence[str]) -> list[tuple[str, str]]:
    """(shape, question) for every phrasing of bench/data/gate_phrasings.json; shapes that need
    two parties ("with {b}", "{a}'s ... with {b}") are left out for a one-party contract."""
    shapes = json.loads(PHRASINGS.read_text())["shapes"]
    fields = {
        "title": title, "title_lower": title.lower(), "a": parties[0],
        "b": " and ".join(parties[1:]), "all": " and ".join(parties),
    }
    out = []
    for shape, templates in shapes.items():
        for template in templates:
            if len(parties) < 2 and ("{b}" in template or "{a}" in template):
                continue
            out.append((shape, template.format(**fields)))
    return out


def _phrasing_contracts(rows: Sequence[dict]) -> Iterator[tuple[dict, str, list[str], bool]]:
    """(row, title, gold parties, in the KB) for the contracts the phrasing benches ask about:
    in-KB contracts whose question names all appear in their text, and not-in-KB contracts whose
    title and parties no ingested contract shares."""
    ingested_keys = {_key(r) for r in rows if not held_out(r["doc_id"])}
    for row in rows:
        text = (CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8")
        title, parties = row["document_name"].strip(), gold_parties(row)
        if not parties:
            continue
        inside = not held_out(row["doc_id"])
        if inside and in_kb_question_names(row, text) is None:
            continue
        if not inside and _key(row) in ingested_keys:
            continue
        yield row, title, parties, inside


def evaluate_phrasings(store: SqliteStore, rows: Sequence[dict]) -> dict[str, tuple[Tally, Tally]]:
    """Per shape: (in-KB passes, not-in-KB refusals), over the same contracts as ``evaluate``."""
    out: dict[str, tuple[Tally, Tally]] = {}
    for row, title, parties, inside in _phrasing_contracts(rows):
        for shape, asked in phrasing_questions(title, parties):
            in_kb, not_in_kb = out.setdefault(shape, (Tally(), Tally()))
            docs, why = gate_docs(store, asked)
            tally = in_kb if inside else not_in_kb
            tally.asked += 1
            ok = row["doc_id"] in docs if inside else not docs
            tally.passed += int(ok)
            if not ok:
                tally.misses.append(f"{asked} -> {sorted(docs)[:2]} {why}")
    return out


FRESH_PHRASINGS = REPO / "bench" / "data" / "gate_fresh_phrasings.json"


def _fresh_fields(title: str, parties: Sequence[str]) -> dict[str, str]:
    comma = " and ".join(parties) if len(parties) < 3 else ", ".join(parties[:-1]) + ", and " + parties[-1]
    return {
        "title": title, "title_lower": title.lower(), "title_upper": title.upper(),
        "a": parties[0], "b": " and ".join(parties[1:]), "all": " and ".join(parties),
        "all_comma": comma, "all_slash": " / ".join(parties),
        "a_lower": parties[0].lower(), "b_lower": " and ".join(parties[1:]).lower(),
        "all_lower": " and ".join(parties).lower(),
        "all_comma_plain": " and ".join(parties) if len(parties) < 3 else ", ".join(parties[:-1]) + " and " + parties[-1],
        "all_upper": " AND ".join(p.upper() for p in parties), "all_slash_tight": "/".join(parties),
    }


def fresh_questions(
    title: str, parties: Sequence[str], path: Path = FRESH_PHRASINGS
) -> list[tuple[str, str, dict | None]]:
    """(shape, question, structured subject or None) for every template of ``path`` (default
    bench/data/gate_fresh_phrasings.json); shapes naming {a}/{b} are left out for one party."""
    shapes = json.loads(path.read_text())["shapes"]
    fields = _fresh_fields(title, parties)
    out: list[tuple[str, str, dict | None]] = []
    for shape, templates in shapes.items():
        for template in templates:
            if isinstance(template, dict):
                spec = dict(template["subject"])
                spec["agreement_title"] = spec["agreement_title"].format(**fields)
                spec["parties"] = {
                    "all": list(parties), "all_reversed": list(reversed(parties)), "a_lower": [parties[0].lower()],
                }[spec["parties"]]
                out.append((shape, template["question"], spec))
                continue
            if len(parties) < 2 and re.search(r"\{(?:a|b|a_lower|b_lower)\}", template):
                continue
            out.append((shape, template.format(**fields), None))
    return out


def gate_docs_structured(store: SqliteStore, asked: str, spec: dict) -> tuple[set[str], str]:
    from service.evidence import gate
    from service.evidence.models import SubjectSpec
    from service.evidence.subject_class import from_spec

    sc = from_spec(SubjectSpec(**spec))
    result = gate.discover(store, Principal.local_operator(), sc, None)
    docs = {d for c in result.candidates for d in c.doc_ids}
    why = "; ".join([f"unresolved {u!r}" for u in result.unresolved[:3]] + [f"failure {f}" for f in result.failures[:2]])
    return docs, f"{asked} subject={spec} {why}"


_HARD_NAME = re.compile(r",|&|\bof\b|\bd/?b/?a\b", re.IGNORECASE)


def evaluate_fresh(
    store: SqliteStore, rows: Sequence[dict], path: Path = FRESH_PHRASINGS
) -> tuple[dict[str, tuple[Tally, Tally]], Tally]:
    """Per shape of the held-out phrasings: (in-KB passes, not-in-KB refusals), over the same
    contracts as ``evaluate_phrasings``; and the in-KB tally of the contracts whose party names
    hold a comma, "&", "of" or "d/b/a"."""
    out: dict[str, tuple[Tally, Tally]] = {}
    hard = Tally()
    for row, title, parties, inside in _phrasing_contracts(rows):
        for shape, asked, spec in fresh_questions(title, parties, path):
            in_kb, not_in_kb = out.setdefault(shape, (Tally(), Tally()))
            try:
                docs, why = gate_docs_structured(store, asked, spec) if spec else gate_docs(store, asked)
            except ValueError as exc:  # a structured subject the API itself rejects (pydantic)
                docs, why = set(), f"{asked}: rejected by the API model: {str(exc)[:120]}"
            tally = in_kb if inside else not_in_kb
            tally.asked += 1
            ok = row["doc_id"] in docs if inside else not docs
            tally.passed += int(ok)
            if not ok:
                tally.misses.append(f"{asked} -> {sorted(docs)[:2]} {why}")
            if inside and any(_HARD_NAME.search(p) for p in parties):
                hard.asked += 1
                hard.passed += int(ok)
    return out, hard


def registry_docs(store: SqliteStore, text: str) -> set[str]:
    from service.evidence import gate
    from service.evidence.registry_questions import agreement_class, parse_registry_question

    rq = parse_registry_question(text)
    sc = agreement_class(rq) if rq is not None else None
    if sc is None:
        return set()
    result = gate.discover(store, Principal.local_operator(), sc, None)
    return {d for c in result.candidates for d in c.doc_ids}


def evaluate_registry(store: SqliteStore, rows: Sequence[dict]) -> tuple[Tally, Tally, Tally]:
    """(in-KB passes, not-in-KB refusals, stray-quote refusals) for the registry question."""
    in_kb, not_in_kb, quoted = Tally(), Tally(), Tally()
    ingested_keys = {_key(r) for r in rows if not held_out(r["doc_id"])}
    for row in rows:
        text = (CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8")
        title, parties = row["document_name"].strip(), gold_parties(row)
        if not parties:
            continue
        asked = f"Who are the parties to the {title} between {' and '.join(parties)}?"
        if not held_out(row["doc_id"]):
            if in_kb_question_names(row, text) is None:
                continue
            in_kb.asked += 1
            in_kb.passed += int(row["doc_id"] in registry_docs(store, asked))
            quoted.asked += 1
            quoted.passed += int(not registry_docs(store, f'Who are the parties to the {title} between "{" and ".join(parties)}?'))
        elif _key(row) not in ingested_keys:
            not_in_kb.asked += 1
            not_in_kb.passed += int(not registry_docs(store, asked))
    return in_kb, not_in_kb, quoted


# Capitalised runs of a party clause: the non-party names an adversary may take from it (places,
# streets, parents after "a subsidiary of", agents, signatories, principals after "on behalf of").
_CAPITALISED_RUN = re.compile(
    r"[A-Z0-9][\w.'’&/-]*(?:[ \t]+(?:(?:of|the|de|du|la|&)[ \t]+)*[A-Z0-9][\w.'’&/-]*)*"
)
ADVERSARIAL_OTHERS = 3  # other contracts whose party names are asked with this contract's title


def _bound_keys(store: SqliteStore, agreement_id: str) -> set[str]:
    from service.evidence import gate

    keys: set[str] = set()
    for party in store.find_subjects(
        Principal.local_operator(), relation="party_to", parent_id=agreement_id, limit=gate.REGISTRY_LIMIT
    ):
        keys |= gate._party_keys(party)
    return keys


def evaluate_adversarial(
    store: SqliteStore, rows: Sequence[dict], kb_rows: Sequence[dict]
) -> tuple[Tally, Tally]:
    """Questions about agreements the KB does not hold, built to make binding by the party
    clause's own text accept a non-party; every one must be refused (no candidate at all):
    (a) this contract's title and first CUAD party with a party of another in-KB contract
        (the next ``ADVERSARIAL_OTHERS`` in sorted order), never a party of this one;
    (b) this contract's title and first CUAD party with a capitalised run of its own recorded
        party clauses that is no party: neither a CUAD party nor a name bound by ``party_to``.
    Only contracts whose in-KB question passes are used (otherwise a refusal proves nothing)."""
    from service.evidence import gate

    others, own = Tally(), Tally()
    kb = [r for r in kb_rows if not held_out(r["doc_id"])]
    principal = Principal.local_operator()
    for row in rows:
        if held_out(row["doc_id"]):
            continue
        text = (CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8")
        names = in_kb_question_names(row, text)
        if names is None:
            continue
        title, parties = names
        if row["doc_id"] not in gate_docs(store, question(title, parties))[0]:
            continue
        gold = {k for p in parties for k in gate._keys(p)}
        agreements = [
            a for a in store.find_subjects(principal, type="agreement", limit=gate.REGISTRY_LIMIT)
            if row["doc_id"] in gate._docs_of(a)
        ]
        bound = set().union(*(_bound_keys(store, a.subject_id) for a in agreements)) if agreements else set()
        clauses = [c for a in agreements for c in (a.attributes.get("party_clauses") or [])]

        position = next(i for i, r in enumerate(kb) if r["doc_id"] == row["doc_id"])
        for other in [kb[(position + k) % len(kb)] for k in range(1, ADVERSARIAL_OTHERS + 1)]:
            for name in gold_parties(other)[:1]:
                if gate._keys(name) & (gold | bound):
                    continue
                others.expect_refused(store, question(title, [parties[0], name]))
        runs: set[str] = set()
        for clause in clauses:
            for match in _CAPITALISED_RUN.finditer(str(clause.get("text") or "")):
                run = match.group().strip(" .,;:'’")
                if sum(c.isalpha() for c in run) >= 2 and not gate._keys(run) & (gold | bound):
                    runs.add(run)
        for run in sorted(runs):
            own.expect_refused(store, question(title, [parties[0], run]))
    return others, own


def print_shapes(shapes: dict[str, tuple[Tally, Tally]]) -> tuple[Tally, Tally]:
    """Print each shape's in-KB pass and not-in-KB refusal; returns the two totals."""
    total_in, total_out = Tally(), Tally()
    for shape, (inside, outside) in shapes.items():
        total_in.asked += inside.asked
        total_in.passed += inside.passed
        total_out.asked += outside.asked
        total_out.passed += outside.passed
        print(
            f"  {shape}: in-KB pass {inside.rate:.3f} ({inside.passed}/{inside.asked}), "
            f"not-in-KB refused {outside.rate:.3f} ({outside.passed}/{outside.asked})"
        )
    return total_in, total_out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tune", "report"), required=True)
    parser.add_argument("--limit", type=int, default=None, help="first N contracts of the split")
    parser.add_argument(
        "--half", choices=("A", "B"), default=None,
        help="only the even (A) or odd (B) positions of the sorted split: look at misses on A, check changes on B",
    )
    parser.add_argument("--rebuild", action="store_true", help="ignore a cached store")
    parser.add_argument("--show-misses", type=int, default=0)
    parser.add_argument("--phrasings", action="store_true", help="also the varied phrasings of bench/data/gate_phrasings.json")
    parser.add_argument(
        "--fresh-phrasings", action="store_true",
        help="also the held-out analyst phrasings of bench/data/gate_fresh_phrasings.json",
    )
    parser.add_argument(
        "--phrasings-file", type=Path, default=FRESH_PHRASINGS,
        help="the held-out phrasings --fresh-phrasings asks (default bench/data/gate_fresh_phrasings.json; "
        "a second set, written later: bench/data/gate_phrasings_fresh2.json)",
    )
    parser.add_argument("--registry", action="store_true", help="also 'Who are the parties to ...' registry questions")
    parser.add_argument(
        "--adversarial", action="store_true",
        help="also questions that pair a real party with another contract's party or a non-party name of the party clause",
    )
    args = parser.parse_args()
    if not CUAD_DIR.is_dir():
        raise SystemExit(f"{CUAD_DIR} is absent")
    rows = split_rows(args.split)[: args.limit]
    all_rows = list(rows)
    ingested = [r for r in rows if not held_out(r["doc_id"])]
    # The KB is always the whole split (the same store); --half only picks the questions asked.
    store = build_store(ingested, args.split, args.rebuild)
    if args.half:
        rows = rows[0 if args.half == "A" else 1 :: 2]
        ingested = [r for r in rows if not held_out(r["doc_id"])]
    in_kb, not_in_kb, issue, stray = evaluate(store, rows, all_rows)
    print(f"gate on cuad-dev/{args.split}: {len(ingested)} contracts in the KB, {len(rows) - len(ingested)} held out")
    print(f"  in-KB pass (names verbatim in the text) {in_kb.rate:.3f} ({in_kb.passed}/{in_kb.asked})")
    clean = in_kb.asked - stray.asked
    print(
        f"  in-KB pass without questions refused by design (stray punctuation in CUAD's names, more "
        f"parties than the limit) {in_kb.passed / max(1, clean):.3f} ({in_kb.passed}/{clean}); "
        f"{stray.asked} such question(s), {stray.passed} refused"
    )
    print(f"  not-in-KB refused (incl. stray punctuation) {not_in_kb.rate:.3f} ({not_in_kb.passed}/{not_in_kb.asked})")
    print(f"  issue 9 fail-open questions: never another contract {issue.passed}/{issue.asked}")
    print("  in-KB misses by cause: " + (", ".join(f"{k} {v}" for k, v in sorted(in_kb.causes.items())) or "none"))
    for tally in (in_kb, not_in_kb, issue):
        for miss in tally.misses[: args.show_misses]:
            print("   ", miss[:400])
    if args.registry:
        reg_in, reg_out, reg_quoted = evaluate_registry(store, rows)
        print(
            f"registry questions: in-KB pass {reg_in.rate:.3f} ({reg_in.passed}/{reg_in.asked}), "
            f"not-in-KB refused {reg_out.rate:.3f} ({reg_out.passed}/{reg_out.asked}), "
            f"stray quote refused {reg_quoted.rate:.3f} ({reg_quoted.passed}/{reg_quoted.asked})"
        )
    if args.adversarial:
        others, own = evaluate_adversarial(store, rows, all_rows)
        print(
            f"adversarial (must be refused): (a) another contract's party {others.rate:.3f} "
            f"({others.passed}/{others.asked}), (b) a non-party name of the contract's own party clause "
            f"{own.rate:.3f} ({own.passed}/{own.asked})"
        )
        for miss in (others.misses + own.misses)[: args.show_misses]:
            print("    [adversarial]", miss[:400])
    if args.phrasings:
        shapes = evaluate_phrasings(store, rows)
        print("varied phrasings (bench/data/gate_phrasings.json):")
        total_in, total_out = print_shapes(shapes)
        print(
            f"  all shapes: in-KB pass {total_in.rate:.3f} ({total_in.passed}/{total_in.asked}), "
            f"not-in-KB refused {total_out.rate:.3f} ({total_out.passed}/{total_out.asked})"
        )
        for shape, (inside, outside) in shapes.items():
            for miss in (inside.misses + outside.misses)[: args.show_misses]:
                print(f"    [{shape}]", miss[:400])
    if args.fresh_phrasings:
        shapes, hard = evaluate_fresh(store, rows, args.phrasings_file)
        print(f"held-out phrasings ({args.phrasings_file.name}):")
        total_in, total_out = print_shapes(shapes)
        print(f"  party names with ',', '&', 'of' or 'd/b/a': in-KB pass {hard.rate:.3f} ({hard.passed}/{hard.asked})")
        print(
            f"  all held-out shapes: in-KB pass {total_in.rate:.3f} ({total_in.passed}/{total_in.asked}), "
            f"not-in-KB refused {total_out.rate:.3f} ({total_out.passed}/{total_out.asked})"
        )
        for shape, (inside, outside) in shapes.items():
            # Not-in-KB misses first: each is an answer about the wrong subject.
            for miss in (outside.misses + inside.misses)[: args.show_misses]:
                print(f"    [fresh: {shape}]", miss[:400])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
