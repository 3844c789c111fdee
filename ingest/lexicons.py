"""Typed access to the lexicons and patterns in ``ner_models/`` (data, not code)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ingest.text import fold_marks, name_words

NER_MODELS_DIR = Path(__file__).resolve().parent.parent / "ner_models"


def load_json(name: str) -> Any:
    return json.loads((NER_MODELS_DIR / name).read_text(encoding="utf-8"))


def phrase_alternation(phrases: Iterable[str], blank: str | None = None) -> str:
    """A regex alternation of ``phrases``, escaped, longest first (ties in alphabetical order, so
    a phrase never loses to its own prefix and the pattern is deterministic); with ``blank``, a
    space inside a phrase matches that pattern ("[ \\t\\n]+": any run of blanks)."""
    ordered = sorted(phrases, key=lambda p: (-len(p), p))
    escaped = (re.escape(p) for p in ordered)
    return "|".join(e.replace(r"\ ", blank) if blank is not None else e for e in escaped)


def load_jsonl(name: str) -> list[Any]:
    lines = (NER_MODELS_DIR / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@dataclass(frozen=True, slots=True)
class RoleTitle:
    canonical: str
    display: str  # the first variant, e.g. "Chief Executive Officer" for "CEO"
    relation: str


@dataclass(frozen=True, slots=True)
class AgreementKind:
    kind: str
    keywords: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Lexicons:
    # Normalised legal suffixes as word tuples, longest first, e.g. ("co", "ltd").
    strippable_suffixes: tuple[tuple[str, ...], ...]
    # Long spellings of legal forms and their short forms, longest first: (("corporation",), "corp").
    form_spellings: tuple[tuple[tuple[str, ...], str], ...]
    leading_words: frozenset[str]
    honorifics: frozenset[str]
    role_titles: dict[str, RoleTitle]
    party_roles: frozenset[str]
    case_sensitive_roles: dict[str, frozenset[str]]  # casefolded variant -> allowed spellings
    non_party_terms: frozenset[str]  # casefolded
    jurisdictions: dict[str, str]  # normalised surface form -> canonical
    agreement_kinds: tuple[AgreementKind, ...]
    agreement_abbreviations: dict[str, str]
    title_words: frozenset[str]
    title_prefix_noise: tuple[str, ...]
    title_prefix_noise_kept_before: dict[str, frozenset[str]]


def _normalise_words(text: str) -> tuple[str, ...]:
    return tuple(name_words(text))


def _case_sensitive(spellings: list[str]) -> dict[str, frozenset[str]]:
    allowed: dict[str, set[str]] = {}
    for spelling in spellings:
        allowed.setdefault(spelling.casefold(), set()).add(spelling)
    return {k: frozenset(v) for k, v in allowed.items()}


@lru_cache(maxsize=1)
def lexicons() -> Lexicons:
    suffix_data = load_json("legal_suffixes.json")
    suffix_words = {_normalise_words(s) for s in suffix_data["org_suffixes"]}
    suffix_words |= {tuple(s.split()) for s in suffix_data["strip_only"]}
    # "Ltée" typed "Ltee", "S.à r.l." typed "S.a r.l.": each suffix without its marks too.
    suffix_words |= {tuple(fold_marks(w) for w in s) for s in suffix_words}
    suffix_words.discard(())
    roles = load_json("roles.json")
    titles = {
        canonical: RoleTitle(canonical, entry["variants"][0], entry["relation"])
        for canonical, entry in roles["titles"].items()
    }
    places = load_json("jurisdictions.json")
    jurisdictions: dict[str, str] = {}
    for group in ("us_states", "other"):
        for canonical, variants in places[group].items():
            jurisdictions[canonical] = canonical
            for variant in variants:
                jurisdictions.setdefault(" ".join(_normalise_words(variant)), canonical)
    for canonical in places["us_states"]:
        jurisdictions.setdefault(f"state of {canonical}", canonical)
        jurisdictions.setdefault(f"commonwealth of {canonical}", canonical)
    kinds = load_json("agreement_kinds.json")
    return Lexicons(
        strippable_suffixes=tuple(sorted(suffix_words, key=lambda w: (-len(w), w))),
        form_spellings=tuple(sorted(
            ((words, short) for long, short in suffix_data["form_spellings"].items()
             for words in {_normalise_words(long), tuple(fold_marks(w) for w in _normalise_words(long))}),
            key=lambda pair: (-len(pair[0]), pair[0]),
        )),
        leading_words=frozenset(suffix_data["leading_words"]),
        honorifics=frozenset(suffix_data["honorifics"]),
        role_titles=titles,
        party_roles=frozenset(roles["party_roles"]),
        case_sensitive_roles=_case_sensitive(roles["case_sensitive"]),
        non_party_terms=frozenset(t.casefold() for t in roles["non_party_terms"]),
        jurisdictions=jurisdictions,
        agreement_kinds=tuple(
            AgreementKind(k["kind"], tuple(k["keywords"])) for k in kinds["kinds"]
        ),
        agreement_abbreviations=dict(kinds["abbreviations"]),
        title_words=frozenset(kinds["title_words"]),
        title_prefix_noise=tuple(kinds["title_prefix_noise"]),
        title_prefix_noise_kept_before={w: frozenset(after) for w, after in kinds["title_prefix_noise_kept_before"].items()},
    )


@lru_cache(maxsize=1)
def injection_patterns() -> tuple[re.Pattern[str], ...]:
    """Instruction-like text (``ner_models/injection_patterns.json``), shared by ingest (no
    registry binding comes from such a sentence) and the evidence machine (flagged, never
    followed)."""
    return tuple(re.compile(p, re.IGNORECASE) for p in load_json("injection_patterns.json")["patterns"])


def _required_words(parsed: Any) -> list[frozenset[str]]:
    """What every match of the parsed regex ``parsed`` (a ``re._parser`` sequence) contains, as
    sets of lowercased words: each match contains a word of every set (empty: nothing can be
    read off, the pattern always runs). Read conservatively: a run of consecutive literal
    characters, a group or repeat that cannot be skipped, an alternation each of whose
    branches requires a word (its set: the union of each branch's most selective set)."""
    from re import _constants as c  # type: ignore[attr-defined]

    required: list[frozenset[str]] = []
    run: list[str] = []

    def close_run() -> None:
        if run:
            required.append(frozenset({"".join(run).lower()}))
            run.clear()

    for op, av in parsed:
        if op is c.LITERAL:
            run.append(chr(av))
            continue
        close_run()
        if op is c.SUBPATTERN:
            required.extend(_required_words(av[-1]))
        elif op is c.BRANCH:
            branches = [_required_words(branch) for branch in av[1]]
            if all(branches):
                required.append(frozenset().union(*(_most_selective(b) for b in branches)))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
            required.extend(_required_words(av[2]))
    close_run()
    # Only ASCII words: the screen compares them with the lowercased text, which is exact
    # for ASCII text only (IGNORECASE also matches e.g. "ſ" with "s"; see is_instruction_like).
    return [words for words in required if all(w and w.isascii() for w in words)]


def _most_selective(required: list[frozenset[str]]) -> frozenset[str]:
    return max(required, key=lambda words: (min(map(len, words)), -len(words), sorted(words)))


@lru_cache(maxsize=1)
def _screened_injection_patterns() -> tuple[tuple[re.Pattern[str], tuple[tuple[str, ...], ...]], ...]:
    """Each injection pattern with its required word sets (``_required_words``), the most
    selective first: every match of the pattern contains a word of each set (none: no screen)."""
    screened = []
    for pattern in injection_patterns():
        try:
            from re import _parser  # type: ignore[attr-defined]

            required = _required_words(_parser.parse(pattern.pattern, pattern.flags))
        except Exception:  # noqa: BLE001 - a parser this module cannot read: no screen
            required = []
        ordered = sorted(required, key=lambda words: (-min(map(len, words)), len(words), sorted(words)))
        screened.append((pattern, tuple(tuple(sorted(words)) for words in ordered)))
    return tuple(screened)


def is_instruction_like(text: str) -> bool:
    """Whether any injection pattern matches ``text``. The same verdict as searching every
    pattern, cheaper: most text (contract clauses) contains none of the words the patterns
    require (``_required_words``: "ignore", "prompt", "instruction", ...), which a substring test
    on the lowercased text rules out, so the regexes run only where a word occurs. Exact for
    ASCII text; other text (where IGNORECASE matches "ſ" with "s", "ı" with "i") is searched
    with every pattern, as before."""
    if not text.isascii():
        return any(p.search(text) for p in injection_patterns())
    lowered = text.lower()
    # Plain loops, no generators: this runs for every evidence unit of every answer.
    for pattern, required in _screened_injection_patterns():
        for words in required:
            for word in words:
                if word in lowered:
                    break
            else:
                break  # a word set the pattern needs is absent: it cannot match
        else:
            if pattern.search(text):
                return True
    return False


@lru_cache(maxsize=1)
def legend_words() -> re.Pattern[str]:
    """A confidential-treatment legend's own words (``legend_markers`` of party_filters.json): a
    phrase, or an omitted thing and an omission word within 80 characters of each other, in either
    order. A definition in such a sentence names no party; such a line atop a contract is no
    heading."""
    markers = load_json("party_filters.json")["legend_markers"]
    phrases = "|".join(r"[ \t\n]+".join(map(re.escape, p.split())) for p in sorted(markers["phrases"]))
    things = "|".join(map(re.escape, sorted(markers["omitted_things"])))
    omissions = "|".join(map(re.escape, sorted(markers["omission_words"])))
    return re.compile(
        rf"(?i)\b(?:{phrases})\b|\b(?:{things})\b[^.]{{0,80}}\b(?:{omissions})\b|\b(?:{omissions})\b[^.]{{0,80}}\b(?:{things})\b"
    )
