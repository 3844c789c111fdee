"""Typed access to the lexicons and patterns in ``ner_models/`` (data, not code)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ingest.text import name_words

NER_MODELS_DIR = Path(__file__).resolve().parent.parent / "ner_models"


def load_json(name: str) -> Any:
    return json.loads((NER_MODELS_DIR / name).read_text(encoding="utf-8"))


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
    )


@lru_cache(maxsize=1)
def injection_patterns() -> tuple[re.Pattern[str], ...]:
    """Instruction-like text (``ner_models/injection_patterns.json``), shared by ingest (no
    registry binding comes from such a sentence) and the evidence machine (flagged, never
    followed)."""
    return tuple(re.compile(p, re.IGNORECASE) for p in load_json("injection_patterns.json")["patterns"])


def is_instruction_like(text: str) -> bool:
    return any(p.search(text) for p in injection_patterns())
