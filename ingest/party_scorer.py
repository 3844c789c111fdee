"""A learned decision about party candidates (issue 9): a small logistic model over general
features of a candidate name's place in the text, never the words of the name itself.

The grammar (``ingest/annotate.py: _parties``) finds most parties; this module reviews what it
found and what it passed over. Candidates come from the opening pages and the signature block:
the grammar's own names, the model's ORG/PERSON entities and every capitalised run that reads as
a name (``names.name_at``), each already clear of the false-party checks
(``party_name_problem``, defined terms). Each candidate gets the features of ``FEATURE_NAMES``
(a legal form, the model's label, its order and place, the few words before it, what follows it,
its case and length, whether it repeats in the signature block, ...). The weights and the two
thresholds are data (``ner_models/party_scorer.json``), trained by
``scripts/train_party_scorer.py``; the vocabularies are ``ner_models/party_scorer_features.json``.
Both are loaded once.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ingest.agreements import filing_header_end
from ingest.definitions import PURPOSE_QUALIFIER
from ingest.errors import InternalError
from ingest.lexicons import NER_MODELS_DIR, load_json
from ingest.names import (
    NameSpan,
    after_non_party_lead,
    ends_in_legal_suffix,
    has_legal_suffix,
    name_at,
    party_name_problem,
)
from ingest.text import name_words

WEIGHTS_FILE = NER_MODELS_DIR / "party_scorer.json"
FEATURES_FILE = "party_scorer_features.json"

FEATURE_NAMES: tuple[str, ...] = (
    "bias",
    "legal_form",
    "model_org",
    "model_person",
    "grammar",
    "person_shape",
    "all_caps",
    "words_1",
    "words_2_3",
    "words_4_6",
    "words_7_plus",
    "rank_0",
    "rank_1",
    "rank_2",
    "rank_3_5",
    "rank_6_plus",
    "opening_first_1000",
    "opening_rest",
    "signature",
    "before_between",
    "before_and",
    "before_by",
    "before_with",
    "before_of",
    "before_the",
    "before_enumerator",
    "before_role_label",
    "before_non_party_lead",
    "before_quote_or_paren",
    "before_digit",
    "after_defined_term",
    "after_description",
    "after_address",
    "after_one_part",
    "after_signed_by",
    "line_start",
    "fills_line",
    "repeats_elsewhere",
    "mentions",
    "made_sentence",
    "has_digit",
    "has_lower_word",
    "inside_parenthesis",
    "after_capitalised_word",
    "inside_longer_candidate",
    "lower_word_before_form",
    "in_cited_agreement",
    "running_header",
    "signatory_by",
)


@dataclass(frozen=True, slots=True)
class PartyCandidate:
    name: NameSpan
    label: str  # "ORG" or "PERSON": the model's label where it tagged the name
    grammar: bool  # the grammar already made it a party


@dataclass(frozen=True, slots=True)
class ScorerModel:
    weights: np.ndarray
    add_threshold: float
    drop_threshold: float
    additions_limit: int


@dataclass(frozen=True, slots=True)
class _Vocab:
    opening_chars: int
    signature_chars: int
    before_words: int
    after_chars: int
    candidates_limit: int
    lead_words: dict[str, frozenset[str]]
    made_words: re.Pattern[str]
    defined_term_after: re.Pattern[str]
    description_after: re.Pattern[str]
    address_after: re.Pattern[str]
    one_part_after: re.Pattern[str]
    role_label_before: re.Pattern[str]
    enumerator_before: re.Pattern[str]
    signature_open: re.Pattern[str]
    signed_by_after: re.Pattern[str]
    cited_before: re.Pattern[str]
    address_words: frozenset[str]


@lru_cache(maxsize=1)
def _vocab() -> _Vocab:
    data = load_json(FEATURES_FILE)
    return _Vocab(
        opening_chars=int(data["opening_chars"]),
        signature_chars=int(data["signature_chars"]),
        before_words=int(data["before_words"]),
        after_chars=int(data["after_chars"]),
        candidates_limit=int(data["candidates_limit"]),
        lead_words={k: frozenset(w.casefold() for w in v) for k, v in data["lead_words"].items()},
        made_words=re.compile(r"(?i)\b(?:" + "|".join(map(re.escape, data["made_words"])) + r")\b"),
        defined_term_after=re.compile(data["defined_term_after"]),
        description_after=re.compile(data["description_after"]),
        address_after=re.compile(data["address_after"]),
        one_part_after=re.compile(data["one_part_after"]),
        role_label_before=re.compile(data["role_label_before"]),
        enumerator_before=re.compile(data["enumerator_before"]),
        signature_open=re.compile(data["signature_open"]),
        signed_by_after=re.compile(data["signed_by_after"]),
        cited_before=re.compile(data["cited_before"]),
        address_words=frozenset(load_json("party_filters.json")["address_words"]),
    )


def load_model(path: Path = WEIGHTS_FILE) -> ScorerModel:
    """The weights file, checked: its features must be ``FEATURE_NAMES`` in order, its weights
    finite numbers, its thresholds probabilities. Any other shape is a broken install."""
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InternalError(f"party scorer weights missing at {path}: train them with scripts/train_party_scorer.py") from exc
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InternalError(f"party scorer weights at {path} could not be read: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("features"), list) or not isinstance(data.get("weights"), list):
        raise InternalError(f"party scorer weights at {path}: 'features' and 'weights' lists are required")
    if tuple(data["features"]) != FEATURE_NAMES:
        raise InternalError(f"party scorer weights at {path} were trained on other features: retrain them")
    weights = data["weights"]
    if len(weights) != len(FEATURE_NAMES) or not all(
        isinstance(w, (int, float)) and not isinstance(w, bool) and math.isfinite(w) for w in weights
    ):
        raise InternalError(f"party scorer weights at {path}: one finite number per feature is required")
    thresholds = []
    for key in ("add_threshold", "drop_threshold"):
        value = data.get(key)
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
            raise InternalError(f"party scorer weights at {path}: '{key}' must be a probability")
        thresholds.append(float(value))
    limit = data.get("additions_limit")
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise InternalError(f"party scorer weights at {path}: 'additions_limit' must be a count")
    return ScorerModel(np.asarray(weights, dtype=np.float64), thresholds[0], thresholds[1], limit)


@lru_cache(maxsize=1)
def model() -> ScorerModel:
    """The shipped weights, loaded once."""
    return load_model()


def regions(text: str) -> list[tuple[int, int]]:
    """Where candidates are read: the opening pages, and the signature block after the last
    signature opening past them."""
    vocab = _vocab()
    opening = (0, min(len(text), vocab.opening_chars))
    found = [(opening[0], opening[1])]
    last = None
    for match in vocab.signature_open.finditer(text, opening[1]):
        last = match
    if last is not None:
        found.append((last.start(), min(len(text), last.start() + vocab.signature_chars)))
    return found


# A capitalised run opens where the word before it is not a capitalised word of the same run.
_RUN_START = re.compile(r"(?<![\w.&'’\-/*])(?=[A-Z0-9])")
_THE = re.compile(r"(?:the|The|THE)[ \t]+")


def candidates(
    text: str,
    grammar: Sequence[NameSpan],
    model_spans: Sequence[tuple[int, int, str]],
    common_words: frozenset[str],
    defined_terms: frozenset[str],
) -> list[PartyCandidate]:
    """The grammar's names and every other name in ``regions`` (model entities, capitalised
    runs, names ending in a legal form), clear of the false-party checks, in text order; one per
    span, at most ``candidates_limit`` besides the grammar's."""
    vocab = _vocab()
    spans = regions(text)
    labels = {(s, e): label for s, e, label in model_spans}
    found: dict[tuple[int, int], PartyCandidate] = {}
    for name in grammar:
        found[(name.start, name.end)] = PartyCandidate(name, _model_label(name, model_spans), True)
    starts: set[int] = set()
    for start, end in spans:
        for run in _RUN_START.finditer(text, start, end):
            pos = run.start()
            # Only a run's first word: "Acme Holdings" is read once, from "Acme".
            before = text[max(0, pos - 2) : pos]
            if re.search(r"[A-Z][\w.&'’\-]*[ \t]$", text[max(0, pos - 30) : pos]) and not re.search(r"[\n:;,()]", before):
                continue
            the = _THE.match(text, pos, end)
            starts.add(the.end() if the else pos)
    for s, e, _ in model_spans:
        if any(a <= s < b for a, b in spans):
            the = _THE.match(text, s, e)
            starts.add(the.end() if the else s)
    # A compiled filing's header names its filer and the neighbouring filings' filers: metadata,
    # a candidate only when the contract's own words name it too (the filer may be a party's parent).
    header_end = filing_header_end(text)
    body = f" {' '.join(name_words(text[header_end : spans[0][1]]))} " if header_end else ""
    others: list[PartyCandidate] = []
    for pos in sorted(starts):
        if len(others) >= vocab.candidates_limit:
            break
        line_end = text.find("\n\n", pos)
        limit = min(len(text), pos + 200, line_end if line_end != -1 else len(text))
        name = name_at(text, pos, limit)
        if name is None or (name.start, name.end) in found:
            continue
        if not name_words(name.text) or name.text.casefold() in defined_terms:
            continue
        if party_name_problem(name.text, common_words) is not None:
            continue
        if name.start < header_end and f" {' '.join(name_words(name.text))} " not in body:
            continue
        label = labels.get((name.start, name.end)) or _model_label(name, model_spans)
        candidate = PartyCandidate(name, label, False)
        found[(name.start, name.end)] = candidate
        others.append(candidate)
    return sorted(found.values(), key=lambda c: (c.name.start, c.name.end))


def _model_label(name: NameSpan, model_spans: Sequence[tuple[int, int, str]]) -> str:
    """PERSON where the model tagged a person over the name (and it has no legal form), else ORG."""
    overlapping = [label for s, e, label in model_spans if s < name.end and name.start < e]
    if "PERSON" in overlapping and not has_legal_suffix(name.text):
        return "PERSON"
    return "ORG"


_QUALIFIER_BEFORE = re.compile(r"[ \t\n]*,?[ \t\n]*" + PURPOSE_QUALIFIER + r"[ \t\n]*\Z", re.I)
_AFTER_NAME_WORD = re.compile(r"(?:[A-Z][\w.'’\-]*|\bof|&)[ \t]+$")
_WORDS_BEFORE = re.compile(r"[\w&'’]+|[^\w\s]")


def features(
    text: str,
    found: Sequence[PartyCandidate],
    model_spans: Sequence[tuple[int, int, str]],
) -> np.ndarray:
    """One row of ``FEATURE_NAMES`` per candidate of ``found`` (in its order)."""
    vocab = _vocab()
    spans = regions(text)
    signature_start = spans[1][0] if len(spans) > 1 else None
    folded_text = text.casefold()
    rows = np.zeros((len(found), len(FEATURE_NAMES)), dtype=np.float64)
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    opening_rank = 0
    for row, candidate in enumerate(found):
        name = candidate.name
        value: dict[str, float] = {"bias": 1.0}
        words = name.text.split()
        value["legal_form"] = float(ends_in_legal_suffix(name.text))
        tagged = [label for s, e, label in model_spans if s < name.end and name.start < e]
        value["model_org"] = float("ORG" in tagged)
        value["model_person"] = float("PERSON" in tagged)
        value["grammar"] = float(candidate.grammar)
        value["person_shape"] = float(
            not has_legal_suffix(name.text) and 2 <= len(words) <= 4 and all(w[:1].isupper() and w.rstrip(".").isalpha() for w in words)
        )
        letters = [c for c in name.text if c.isalpha()]
        value["all_caps"] = float(bool(letters) and all(c.isupper() for c in letters))
        count = len(words)
        value["words_1" if count == 1 else "words_2_3" if count <= 3 else "words_4_6" if count <= 6 else "words_7_plus"] = 1.0
        in_signature = signature_start is not None and name.start >= signature_start
        if not in_signature:
            rank = opening_rank
            opening_rank += 1
            value["rank_0" if rank == 0 else "rank_1" if rank == 1 else "rank_2" if rank == 2 else "rank_3_5" if rank <= 5 else "rank_6_plus"] = 1.0
            value["opening_first_1000" if name.start < 1000 else "opening_rest"] = 1.0
        else:
            value["signature"] = 1.0
        before_text = text[max(0, name.start - 80) : name.start]
        # (", and, solely for purposes of Section 5, ALPINE ...": the words before the name are
        # read as if the sections it joins for were not there.)
        qualifier = _QUALIFIER_BEFORE.search(before_text)
        if qualifier is not None:
            cut = name.start - (len(before_text) - qualifier.start())
            before_text = text[max(0, cut - 80) : cut] + " "
        before = [w.casefold() for w in _WORDS_BEFORE.findall(before_text)][-vocab.before_words :]
        for key, lead in vocab.lead_words.items():
            if lead & set(before):
                value[f"before_{key}"] = 1.0
        value["before_enumerator"] = float(vocab.enumerator_before.search(before_text) is not None)
        value["before_role_label"] = float(vocab.role_label_before.search(before_text) is not None)
        value["before_non_party_lead"] = float(after_non_party_lead(text, name.start))
        value["before_quote_or_paren"] = float(re.search(r"[\"“(][ \t]*$", before_text) is not None)
        value["before_digit"] = float(any(w.isdigit() for w in before) or bool(vocab.address_words & set(before)))
        after = text[name.end : name.end + vocab.after_chars]
        value["after_defined_term"] = float(vocab.defined_term_after.search(after) is not None)
        value["after_description"] = float(vocab.description_after.search(text[name.end : name.end + 120]) is not None)
        value["after_address"] = float(vocab.address_after.search(after) is not None)
        value["after_one_part"] = float(vocab.one_part_after.search(text[name.end : name.end + 120]) is not None)
        value["after_signed_by"] = float(vocab.signed_by_after.search(text[name.end : name.end + 200]) is not None)
        line_start = text.rfind("\n", 0, name.start) + 1
        value["line_start"] = float(not text[line_start : name.start].strip())
        line_end = text.find("\n", name.end)
        value["fills_line"] = float(value["line_start"] == 1.0 and not text[name.end : line_end if line_end != -1 else len(text)].strip(" \t,.;:"))
        folded = " ".join(name.text.split()).casefold()
        mentions = _count(folded_text, folded)
        if signature_start is not None:
            elsewhere = _count(folded_text, folded, signature_start) if not in_signature else _count(folded_text[:signature_start], folded)
            value["repeats_elsewhere"] = float(elsewhere > 0)
        value["mentions"] = min(1.0, math.log1p(mentions) / 3.0)
        sentence_start = max(text.rfind(". ", 0, name.start), text.rfind("\n\n", 0, name.start), name.start - 400, 0)
        value["made_sentence"] = float(vocab.made_words.search(text, sentence_start, name.start) is not None)
        value["has_digit"] = float(any(c.isdigit() for c in name.text))
        value["has_lower_word"] = float(any(w[:1].islower() and w not in {"and", "of", "the", "for", "de"} for w in words))
        value["inside_parenthesis"] = float(before_text.rfind("(") > before_text.rfind(")"))
        # "ROSEN LLP" of "GARFINKEL & ROSEN LLP", "America, N.A." of "Bank of America, N.A.": a
        # run cut out of a longer name starts right after a capitalised word, "of" or "&".
        value["after_capitalised_word"] = float(_AFTER_NAME_WORD.search(before_text) is not None)
        value["inside_longer_candidate"] = float(any(
            o.name.start <= name.start and name.end <= o.name.end and (o.name.start, o.name.end) != (name.start, name.end)
            for o in found
        ))
        # "Columbia limited liability company": a description, no name, before the form.
        value["lower_word_before_form"] = float(
            value["legal_form"] == 1.0 and len(words) >= 2 and words[-2][:1].islower() and words[-2] not in {"and", "of", "the", "for", "de"}
        )
        # "... to that certain Supply Agreement dated ... among Granby Corp.": another contract's party.
        value["in_cited_agreement"] = float(vocab.cited_before.search(text[max(0, name.start - 300) : name.start]) is not None)
        # "By: Acme GP, LLC, its general partner": who signs for a party, not a party.
        value["signatory_by"] = float(re.search(r"\bBy:[ \t]*$", before_text) is not None)
        # A line repeated on every page ("Source: ACME HOLDINGS INC., 10-K, 3/1/2019", a running
        # header) is the filing's furniture, not a party clause.
        line = text[line_start : line_end if line_end != -1 else len(text)].strip()
        value["running_header"] = float(
            bool(line) and len(re.findall(r"(?m)^[ \t]*" + re.escape(line) + r"[ \t]*$", text)) >= 3
        )
        for key, v in value.items():
            rows[row, index[key]] = v
    return rows


def _count(haystack: str, needle: str, start: int = 0) -> int:
    """Whole-word occurrences of ``needle`` in ``haystack`` (both casefolded) from ``start``."""
    if not needle:
        return 0
    return len(re.findall(r"(?<!\w)" + re.escape(needle).replace(r"\ ", r"\s+") + r"(?!\w)", haystack[start:]))


def probabilities(rows: np.ndarray, weights: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(rows @ weights, -30.0, 30.0)))


_BARRED = [FEATURE_NAMES.index(f) for f in ("before_non_party_lead", "in_cited_agreement", "signatory_by", "running_header")]


@dataclass(frozen=True, slots=True)
class Review:
    additions: list[tuple[NameSpan, str, float]]  # name, label, probability; best first
    drops: list[NameSpan]  # grammar names the model finds very unlikely


def review(
    text: str,
    grammar: Sequence[NameSpan],
    model_spans: Sequence[tuple[int, int, str]],
    common_words: frozenset[str],
    defined_terms: frozenset[str],
    scorer: ScorerModel | None = None,
) -> Review:
    """The candidates the grammar passed over whose probability reaches the add threshold (at
    most ``additions_limit``, no two overlapping, best first, ties by position), and the grammar's
    names below the drop threshold. The caller still checks each addition against the parties it
    knows (a shorter form or a defined term of one is no new party)."""
    scorer = scorer or model()
    found = candidates(text, grammar, model_spans, common_words, defined_terms)
    if not found:
        return Review([], [])
    rows = features(text, found, model_spans)
    scores = probabilities(rows, scorer.weights)
    drops = [c.name for c, p in zip(found, scores) if c.grammar and p < scorer.drop_threshold]
    # The grammar's own checks bind the additions too: no name after a non-party lead ("a
    # subsidiary of", "c/o"), none inside a cited agreement's description, no signatory after "By:".
    barred = rows[:, _BARRED].any(axis=1)
    ranked = sorted(
        ((float(p), c) for c, p, bar in zip(found, scores, barred) if not c.grammar and not bar and p >= scorer.add_threshold),
        key=lambda pc: (-pc[0], pc[1].name.start, pc[1].name.end),
    )
    taken: list[tuple[NameSpan, str, float]] = []
    for p, c in ranked:
        if len(taken) >= scorer.additions_limit:
            break
        if any(c.name.start < n.end and n.start < c.name.end for n in grammar) or any(
            c.name.start < n.end and n.start < c.name.end for n, _, _ in taken
        ):
            continue
        taken.append((c.name, c.label, p))
    return Review(taken, drops)
