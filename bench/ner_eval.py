"""Entity/relation tagging quality and speed.

    PYTHONPATH=. python bench/ner_eval.py [--split tune|report] [--every N] [--limit N]

Prints, on cuad-dev (../shared/eval/cuad-dev): agreement title accuracy against
``document_name``, party recall against ``parties`` (also on only the names written in the
contract's text) and party precision (parties bound by
``party_to`` whose name or alias matches no CUAD party, counted on documents CUAD names a party
for); per-kind relation precision/recall on the
hand-labelled ``tests/data/relations_gold.jsonl``; and throughput of ``annotate_document`` against
a raw ``nlp.pipe`` (the shared ``load_english()`` pipeline) over the same chunk texts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, bench/ would come first on sys.path and its ingest.py shadow the package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from ingest.annotate import DocumentAnnotations, annotate_document  # noqa: E402
from ingest.entity_id import EntityId  # noqa: E402
from ingest.normalize import normalise_org  # noqa: E402
from ingest.text import name_words, straighten_quotes  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
# ATTEST_CUAD_DIR points elsewhere when the checkout is not next to shared/ (a worktree).
CUAD_DIR = Path(os.environ.get("ATTEST_CUAD_DIR") or SHARED / "eval" / "cuad-dev")
GOLD_RELATIONS = REPO / "tests" / "data" / "relations_gold.jsonl"
# Written after the patterns were tuned on relations_gold.jsonl and never tuned against: the
# honest estimate. (relations_gold.jsonl is the development set, so its scores are optimistic.)
HELDOUT_RELATIONS = REPO / "tests" / "data" / "relations_heldout.jsonl"
CHUNK_CHARS = 1_000
_AFFILIATES = re.compile(r",?\s+and\s+its\s+(?:affiliates|subsidiaries)\s*$", re.I)
_TRADE_NAME = re.compile(r",?\s+(?:d/b/a|dba|f/k/a|fka|a/k/a|aka)\s+", re.I)
# Words of a gold "party" entry that only refer back to other parties ("Company and Consultant").
_BACK_REFERENCE_WORDS = frozenset(
    "and the each of both them shall be collectively referred to herein as individually or its together with".split()
)


def paragraph_chunks(text: str, target: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """~target-char spans cut at newlines (else at a space), covering the whole text. Stands in
    for the real chunker so this evaluation does not depend on it."""
    spans: list[tuple[int, int]] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + target)
        if end < len(text):
            cut = text.rfind("\n", start + target // 2, end)
            if cut == -1:
                cut = text.rfind(" ", start + target // 2, end)
            if cut != -1:
                end = cut + 1
        spans.append((start, end))
        start = end
    return spans


def normalise_title(title: str) -> str:
    return " ".join(name_words(title))


def _label_name(segment: str) -> str:
    """The name a label segment starts with: the text before its first quote, less the
    parenthesis that quote opens ("Foo Ltd. (the "Foo")"). A parenthesis closed before the
    term is part of the name ("Foo (Bermuda) Ltd.", "Foo AB (publ)"), so only the last
    unclosed one is cut."""
    head = re.split(r"[\"“]", segment, maxsplit=1)[0]
    depth_starts: list[int] = []
    for index, char in enumerate(head):
        if char == "(":
            depth_starts.append(index)
        elif char == ")" and depth_starts:
            depth_starts.pop()
    if depth_starts:
        head = head[: depth_starts[-1]]
    return head.strip(" ,(")


def gold_party_names(parties: str) -> list[str]:
    """Names from CUAD's "Name ("Term"); Name2 ("Term2")" field, without back-references such as
    "Company and Consultant (each a "Party")" and blanks ("[]")."""
    names: list[str] = []
    defined: set[str] = set()
    for segment in parties.split(";"):
        segment = segment.strip()
        terms = re.findall(r"[\"“]([^\"”]+)[\"”]", segment)
        name = _label_name(segment)
        words = set(name_words(name))
        if words and name[:1] != "[" and not words <= (_BACK_REFERENCE_WORDS | defined):
            if not re.match(r"(?i)(each|individually|collectively|together)\b", name):
                names.append(name)
        for term in terms:
            defined |= set(name_words(term))
        defined |= words
    return names


@dataclass(slots=True)
class CorpusResult:
    documents: int = 0
    titles_correct: int = 0
    gold_parties: int = 0
    parties_found: int = 0
    # The same, only for CUAD names that appear in the contract's text (``appears_in``): the
    # names a question copied from the contract would ask for. CUAD's typos, placeholders and
    # names joined from two parties are left out.
    verbatim_parties: int = 0
    verbatim_found: int = 0
    # Precision: parties bound by party_to, counted on documents with at least one gold name.
    parties_extracted: int = 0
    parties_correct: int = 0
    precision_documents: int = 0
    words: int = 0
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)
    # Aggregates that name no case (safe to read on the report split): how each missed name
    # written in the contract was missed (``written_miss_kind``), and how each title was missed
    # (``title_miss_kind``).
    written_miss_kinds: Counter[str] = field(default_factory=Counter)
    title_miss_kinds: Counter[str] = field(default_factory=Counter)

    @property
    def title_accuracy(self) -> float:
        return self.titles_correct / max(1, self.documents)

    @property
    def party_recall(self) -> float:
        return self.parties_found / max(1, self.gold_parties)

    @property
    def verbatim_recall(self) -> float:
        return self.verbatim_found / max(1, self.verbatim_parties)

    @property
    def party_precision(self) -> float:
        return self.parties_correct / max(1, self.parties_extracted)

    @property
    def false_parties_per_document(self) -> float:
        return (self.parties_extracted - self.parties_correct) / max(1, self.precision_documents)


def load_index(
    every: int = 1, limit: int | None = None, split: str | None = None, half: str | None = None
) -> list[dict]:
    """Contracts by doc_id; ``split`` keeps one list of ``splits.json`` (tune on "tune", report
    "report" once). ``half`` ("A" or "B") keeps the even or odd positions of that sorted list:
    misses are read on A only, and a change is kept when B does not drop (over-fitting check)."""
    rows = [json.loads(line) for line in (CUAD_DIR / "contracts_index.jsonl").read_text().splitlines() if line.strip()]
    if split:
        members = set(json.loads((CUAD_DIR / "splits.json").read_text())[split])
        rows = [r for r in rows if r["doc_id"] in members]
    rows.sort(key=lambda r: r["doc_id"])
    if half is not None:
        rows = rows[{"A": 0, "B": 1}[half] :: 2]
    rows = rows[::every]
    return rows[:limit] if limit else rows


def _party_forms(annotations: DocumentAnnotations) -> dict[str, set[str]]:
    """Per party bound to the agreement (by entity id): its normalised name and aliases."""
    agreement = next((s for s in annotations.subjects if s.type == "agreement"), None)
    party_ids = set(agreement.attributes["parties"]) if agreement else set()
    forms: dict[str, set[str]] = {}
    for subject in annotations.subjects:
        if subject.subject_id in party_ids:
            forms[subject.subject_id] = {normalise_org(form) for form in (subject.name, *subject.aliases)}
    return dict(sorted(forms.items()))


def accepted_forms(name: str) -> set[str]:
    """The registry keys under which a CUAD party name counts as found."""
    # "Glu Mobile, Inc. f/k/a Sorrent, Inc.": the legal name before d/b/a or f/k/a counts.
    # "Qualigen, Inc. and its Affiliates": the party is the named company.
    legal = _AFFILIATES.sub("", _TRADE_NAME.split(name)[0])
    return {normalise_org(name), normalise_org(_TRADE_NAME.split(name)[0]), normalise_org(legal)}


def evaluate_corpus(rows: Sequence[dict]) -> CorpusResult:
    result = CorpusResult()
    for row in rows:
        text = (CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8")
        started = time.perf_counter()
        annotations = annotate_document(text, paragraph_chunks(text), doc_id=row["doc_id"], revision="eval")
        result.seconds += time.perf_counter() - started
        result.words += len(text.split())
        result.documents += 1
        # A text without evidence of an agreement has no agreement subject: a title miss.
        agreement = next((s for s in annotations.subjects if s.type == "agreement"), None)
        if agreement is not None and normalise_title(agreement.name) == normalise_title(row["document_name"]):
            result.titles_correct += 1
        else:
            result.misses.append(f"title {row['document_name']!r} got {agreement.name if agreement else None!r}")
            result.title_miss_kinds[title_miss_kind(row["document_name"], agreement.name if agreement else None)] += 1
        party_forms = _party_forms(annotations)
        score_parties(result, row["doc_id"], gold_party_names(row["parties"]), party_forms, text)
        bound = set().union(*party_forms.values()) if party_forms else set()
        for name in gold_party_names(row["parties"]):
            if appears_in(name, text) and not accepted_forms(name) & bound:
                result.written_miss_kinds[written_miss_kind(name, agreement is not None, bound)] += 1
    return result


# Kinds of title miss, in the order the summary prints them.
TITLE_MISSES = (
    "no title", "punctuation only", "words missing", "words added", "a generic title", "another title",
)
_GENERIC_TITLES = frozenset({"agreement", "contract", "deed", "lease", "letter", "agreement letter"})


def title_miss_kind(want: str, got: str | None) -> str:
    """How a recorded title differs from the labelled one (one of ``TITLE_MISSES``): none was
    recorded; only punctuation differs (the words the gate compares are equal); the recorded
    title lacks words of the label, or adds words to it; it is a bare kind word ("Agreement");
    or it is another title. Names no case."""
    if got is None:
        return TITLE_MISSES[0]
    want_words, got_words = name_words(want), name_words(got)
    if want_words == got_words:
        return TITLE_MISSES[1]
    if " ".join(got_words) in _GENERIC_TITLES:
        return TITLE_MISSES[4]
    if set(got_words) < set(want_words):
        return TITLE_MISSES[2]
    if set(want_words) < set(got_words):
        return TITLE_MISSES[3]
    return TITLE_MISSES[5]


# Kinds of missed party name, in the order the summary prints them.
WRITTEN_MISSES = ("no agreement record", "nothing bound", "read at another boundary", "words shared in part", "not read")


def written_miss_kind(name: str, recorded: bool, bound: set[str]) -> str:
    """How a party name the contract writes was missed (one of ``WRITTEN_MISSES``): no agreement
    was recorded; none of its parties was bound; a bound party's key holds the name's words or is
    held by them (read at another boundary: "Acme" for "Acme Holdings Group"); they share some
    words; or none of its words is in a bound party's key. Names no case."""
    if not recorded:
        return WRITTEN_MISSES[0]
    if not bound:
        return WRITTEN_MISSES[1]
    wanted = [set(k.split()) for k in accepted_forms(name) if k]
    held = [set(k.split()) for k in bound if k]
    if any(w <= b or b <= w for w in wanted for b in held):
        return WRITTEN_MISSES[2]
    if any(w & b for w in wanted for b in held):
        return WRITTEN_MISSES[3]
    return WRITTEN_MISSES[4]


def appears_in(name: str, text: str) -> bool:
    """Whether ``name`` is written in ``text`` as whole words (case, spacing and quote style aside)."""
    collapsed = " ".join(straighten_quotes(name).split())
    pattern = r"(?<!\w)" + r"\s+".join(re.escape(w) for w in collapsed.split(" ")) + r"(?!\w)"
    return re.search(pattern, straighten_quotes(text), re.I) is not None


def score_parties(
    result: CorpusResult,
    doc_id: str,
    gold_names: Sequence[str],
    party_forms: dict[str, set[str]],
    text: str | None = None,
) -> None:
    """Adds one document's party recall and precision counts to ``result``. ``party_forms``:
    per extracted party, its normalised name and aliases. A gold name is found when one of its
    accepted forms is among them; an extracted party is correct when one of its forms is an
    accepted form of some gold name. Precision counts only documents CUAD names a party for.
    With the contract's ``text``, names that appear in it are also counted on their own."""
    forms = set().union(*party_forms.values())
    gold_forms: set[str] = set()
    for name in gold_names:
        result.gold_parties += 1
        accepted = accepted_forms(name)
        gold_forms |= accepted
        verbatim = text is not None and appears_in(name, text)
        result.verbatim_parties += verbatim
        if accepted & forms:
            result.parties_found += 1
            result.verbatim_found += verbatim
        else:
            result.misses.append(f"party {name!r} in {doc_id[:40]} got {sorted(forms)}")
    if not gold_names:
        return
    result.precision_documents += 1
    for party, party_keys in party_forms.items():
        result.parties_extracted += 1
        if party_keys & gold_forms:
            result.parties_correct += 1
        else:
            result.misses.append(f"false party {party!r} in {doc_id[:40]} gold {list(gold_names)}")


@dataclass(slots=True)
class KindScore:
    true_positive: int = 0
    false_positive: int = 0
    false_negative: int = 0

    @property
    def precision(self) -> float:
        return self.true_positive / max(1, self.true_positive + self.false_positive)

    @property
    def recall(self) -> float:
        return self.true_positive / max(1, self.true_positive + self.false_negative)


def _key_name(entity_id: str) -> str:
    return EntityId.parse(entity_id).key


def evaluate_relations(path: Path = GOLD_RELATIONS) -> tuple[dict[str, KindScore], list[str]]:
    """Per kind P/R over (subject, relation, object) with names normalised like entity ids; for
    party_to the object is the agreement title. Each example is annotated as its own document."""
    scores: dict[str, KindScore] = {}
    errors: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if not line.strip():
            continue
        example = json.loads(line)
        text = example["text"]
        annotations = annotate_document(text, [(0, len(text))], doc_id=f"gold-{number}", revision="gold")
        predicted = {
            (_key_name(r["subject_id"]), r["relation"], _key_name(r["object_id"]))
            for chunk in annotations.chunks
            for r in chunk.relations
        }
        gold = {
            (normalise_org(g["subject"]), g["relation"], normalise_org(g["object"]) if g["relation"] != "party_to" else normalise_title(g["object"]))
            for g in example["relations"]
        }
        for kind in {k for _, k, _ in predicted | gold}:
            score = scores.setdefault(kind, KindScore())
            p = {t for t in predicted if t[1] == kind}
            g = {t for t in gold if t[1] == kind}
            score.true_positive += len(p & g)
            score.false_positive += len(p - g)
            score.false_negative += len(g - p)
            for t in sorted(p - g):
                errors.append(f"FP {t} :: {text[:120]!r}")
            for t in sorted(g - p):
                errors.append(f"FN {t} :: {text[:120]!r}")
    return dict(sorted(scores.items())), errors


def overall(scores: dict[str, KindScore]) -> KindScore:
    total = KindScore()
    for score in scores.values():
        total.true_positive += score.true_positive
        total.false_positive += score.false_positive
        total.false_negative += score.false_negative
    return total


def throughput(rows: Sequence[dict]) -> tuple[float, float]:
    """Words/s of annotate_document and of the raw shared pipeline on the same chunk texts."""
    from ingest.nlp_model import load_english

    texts = [(CUAD_DIR / row["doc_file"]).read_text(encoding="utf-8") for row in rows]
    words = sum(len(t.split()) for t in texts)
    raw = load_english()
    started = time.perf_counter()
    for text in texts:
        for _ in raw.pipe((text[s:e] for s, e in paragraph_chunks(text)), batch_size=32):
            pass
    raw_seconds = time.perf_counter() - started
    started = time.perf_counter()
    for number, text in enumerate(texts):
        annotate_document(text, paragraph_chunks(text), doc_id=str(number), revision="speed")
    ours_seconds = time.perf_counter() - started
    return words / ours_seconds, words / raw_seconds


def _print_misses(misses: Iterable[str], limit: int) -> None:
    for miss in list(misses)[:limit]:
        print("  ", miss[:300])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("tune", "report"), default=None, help="one list of splits.json")
    parser.add_argument(
        "--half", choices=("A", "B"), default=None,
        help="even (A) or odd (B) positions of the split's sorted doc ids: read misses on A, check B",
    )
    parser.add_argument("--skip-relations", action="store_true")
    parser.add_argument("--every", type=int, default=1, help="evaluate every Nth document by doc_id")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--show-misses", type=int, default=0)
    parser.add_argument("--speed-docs", type=int, default=40, help="documents for the throughput run")
    parser.add_argument("--skip-corpus", action="store_true")
    parser.add_argument(
        "--speed-only", action="store_true",
        help="only the throughput run (to compare two checkouts back to back under the same load)",
    )
    args = parser.parse_args()
    if args.half and args.split != "tune":
        parser.error("--half splits the tune list only (the report list is run whole, once)")
    if args.speed_only:
        rows = load_index(args.every, args.limit, args.split, args.half)
        ours, raw = throughput(rows[: args.speed_docs])
        print(f"throughput ({min(len(rows), args.speed_docs)} docs): annotate_document {ours:,.0f} words/s, raw nlp.pipe {raw:,.0f} words/s, ratio {ours / raw:.2f}")
        return 0

    for label, path in () if args.skip_relations else (("development", GOLD_RELATIONS), ("held-out", HELDOUT_RELATIONS)):
        scores, errors = evaluate_relations(path)
        print(f"relations, {label} set ({path.relative_to(REPO)})")
        for kind, score in scores.items():
            print(f"  {kind:22s} P={score.precision:.3f} R={score.recall:.3f}  (tp={score.true_positive} fp={score.false_positive} fn={score.false_negative})")
        total = overall(scores)
        print(f"  {'ALL':22s} P={total.precision:.3f} R={total.recall:.3f}")
        _print_misses(errors, args.show_misses)

    if args.skip_corpus or not CUAD_DIR.exists():
        return 0
    rows = load_index(args.every, args.limit, args.split, args.half)
    result = evaluate_corpus(rows)
    print(f"cuad-dev{'/' + args.split if args.split else ''}{' half ' + args.half if args.half else ''}: {result.documents} documents, {result.words} words, {result.seconds:.1f}s annotate")
    print(f"  title accuracy {result.title_accuracy:.3f} ({result.titles_correct}/{result.documents})")
    print(f"  party recall   {result.party_recall:.3f} ({result.parties_found}/{result.gold_parties})")
    print(
        f"  party recall, CUAD names written in the contract {result.verbatim_recall:.3f} "
        f"({result.verbatim_found}/{result.verbatim_parties})"
    )
    print(
        f"  party precision {result.party_precision:.3f} ({result.parties_correct}/{result.parties_extracted}), "
        f"{result.false_parties_per_document:.2f} false parties per document ({result.precision_documents} documents)"
    )
    print("  written names missed: " + ", ".join(f"{result.written_miss_kinds[k]} {k}" for k in WRITTEN_MISSES))
    print("  title misses: " + ", ".join(f"{result.title_miss_kinds[k]} {k}" for k in TITLE_MISSES))
    _print_misses(result.misses, args.show_misses)
    if args.speed_docs:
        ours, raw = throughput(rows[: args.speed_docs])
        print(f"throughput ({min(len(rows), args.speed_docs)} docs): annotate_document {ours:,.0f} words/s, raw nlp.pipe {raw:,.0f} words/s, ratio {ours / raw:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
