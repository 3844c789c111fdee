"""Typed access to the machine's data files in ``service/data/`` (patterns and cues are data, so
they can be reviewed and extended without touching code)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def load(name: str) -> Any:
    return json.loads((DATA_DIR / name).read_text(encoding="utf-8"))


def _compile(patterns: list[str]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


@dataclass(frozen=True, slots=True)
class Attribute:
    key: str
    label: str
    subject: str  # agreement | entity
    description: str
    question_cues: tuple[re.Pattern[str], ...]
    text_cues: tuple[re.Pattern[str], ...]
    value_type: str
    missing: str
    cuad: str | None
    relations: tuple[str, ...]
    value_anchor: re.Pattern[str] | None
    query: str
    value_required: bool
    opening: bool


@dataclass(frozen=True, slots=True)
class Cues:
    attributes: dict[str, Attribute]  # in file order: the first question cue hit wins
    role_attribute: dict[str, Any]
    sim_accept: float
    sim_high: float
    sim_cue_floor: float
    min_words: int


@lru_cache(maxsize=1)
def cues() -> Cues:
    raw = load("attribute_cues.json")
    attributes = {
        key: Attribute(
            key=key,
            label=entry["label"],
            subject=entry["subject"],
            description=entry["description"],
            question_cues=_compile(entry["question_cues"]),
            text_cues=_compile(entry["text_cues"]),
            value_type=entry["value_type"],
            missing=entry["missing"],
            cuad=entry.get("cuad"),
            relations=tuple(entry.get("relations", ())),
            query=entry.get("query", ""),
            value_required=bool(entry.get("value_required", False)),
            opening=bool(entry.get("opening", False)),
            value_anchor=re.compile(entry["value_anchor"], re.IGNORECASE) if entry.get("value_anchor") else None,
        )
        for key, entry in raw["attributes"].items()
    }
    sim = raw["similarity"]
    return Cues(
        attributes, raw["role_attribute"], sim["accept"], sim["high"], sim["cue_floor"], raw["min_words"]
    )


def instrument_phrases(raw: dict[str, Any]) -> list[str]:
    """Titles of contracts without an agreement word ("Guaranty", "Statement of Work",
    "Memorandum of Understanding"): ingest's own lists in ``ner_models/agreement_kinds.json``
    (``instrument_titles``, ``amendment_words``, ``own_heading_words``: the titles the registry
    can hold) and the question side's ``instrument_titles`` of question_patterns.json. Longest
    first, so "promissory note" wins over "note"."""
    from ingest.lexicons import load_json

    kinds = load_json("agreement_kinds.json")
    phrases = {
        " ".join(p.casefold().split())
        for key in ("instrument_titles", "amendment_words", "own_heading_words")
        for p in kinds.get(key, ())
    } | {" ".join(p.casefold().split()) for p in raw["instrument_titles"]}
    return sorted((p for p in phrases if p), key=lambda p: (-len(p), p))


def instrument_title_regex(raw: dict[str, Any]) -> str:
    """The end of an instrument title in a question (the ``{instrument_title}`` of a structure):
    an instrument phrase, optionally numbered ("Amendment No. 2", "Work Order 3"), either
    capitalised ("Guaranty", "MEMORANDUM OF UNDERSTANDING": case-sensitive) or in lower case
    right before a party keyword ("the guaranty between ..."), and never followed by a capitalised
    word but a joining word in capitals ("the Plan Administrator" is no title; "LEASE OF RAILROAD
    EQUIPMENT" is one). A common noun ("the license granted", "the guarantee period") is thus no
    title."""
    function_words = {"of", "and", "to", "for", "on", "in", "under", "the", "&"}

    def capitalised(phrase: str) -> str:
        words = []
        for word in phrase.split():
            if word in function_words:
                words.append(f"(?i:{re.escape(word)})")
            else:
                words.append(f"(?:{re.escape(word[0].upper())}(?i:{re.escape(word[1:])}))")
        return r"\s+".join(words)

    phrases = instrument_phrases(raw)
    number = r"(?:\s+(?:no\.?|number|#)\s*[0-9a-z]{1,6}\b\.?|\s+[0-9]{1,4}\b)?"
    caps = "|".join(capitalised(p) for p in phrases)
    lower = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in phrases)
    keyword = r"(?=\s*,?\s*(?:by\s+and\s+between|by\s+and\s+among|between|among|with)\s)"
    # A joining word in capitals continues a title in capitals ("LEASE OF RAILROAD EQUIPMENT",
    # "LICENCE TO OCCUPY"); the words after it are read as the title's subject, as in lower case.
    joining = r"(?:OF|TO|FOR|ON)\s"
    return (
        rf"(?:(?-i:\b(?:{caps})){number}|\b(?:{lower}){number}{keyword})(?-i:(?!\s+(?!{joining})[A-Z0-9]))"
    )


@lru_cache(maxsize=1)
def question_patterns() -> dict[str, Any]:
    raw = load("question_patterns.json")
    instrument = instrument_title_regex(raw)
    raw["_structures"] = [
        {
            **s,
            "_re": re.compile(
                s["regex"].replace("{instrument_title}", instrument).replace("{word_marks}", raw["word_marks"]),
                re.IGNORECASE,
            ),
        }
        for s in raw["structures"]
    ]
    raw["_period"] = _compile([c["regex"] for c in raw["constraints"]["period"]])
    raw["_jurisdiction"] = tuple(
        re.compile(c["regex"]) for c in raw["constraints"]["jurisdiction"]
    )  # case-sensitive: a jurisdiction is a capitalised name
    raw["_name_span"] = re.compile(raw["name_span"])
    return raw


@dataclass(frozen=True, slots=True)
class ClauseType:
    """A kind of clause an open question may ask about (``service/data/clause_types.json``)."""

    key: str
    description: str
    question_cues: tuple[re.Pattern[str], ...]
    text_cues: tuple[re.Pattern[str], ...]
    query: str
    # Known attributes (attribute_cues.json) this type narrows: a question the phrasebook reads
    # as one of them but that names this type ("carve-outs from the non-compete") asks about
    # this type.
    refines: frozenset[str] = frozenset()


@lru_cache(maxsize=1)
def clause_types() -> tuple[ClauseType, ...]:
    raw = load("clause_types.json")
    return tuple(
        ClauseType(
            key=key,
            description=entry["description"],
            question_cues=_compile(entry["question_cues"]),
            text_cues=_compile(entry["text_cues"]),
            query=entry.get("query", ""),
            refines=frozenset(entry.get("refines", ())),
        )
        for key, entry in raw["types"].items()
    )


def clause_type_for(question: str) -> ClauseType | None:
    """The first clause type (file order) whose question cue occurs in ``question``."""
    for clause in clause_types():
        if any(p.search(question) for p in clause.question_cues):
            return clause
    return None


@lru_cache(maxsize=1)
def _date_questions() -> tuple[str, tuple[re.Pattern[str], ...]]:
    raw = load("clause_types.json")["date_questions"]
    return raw["value_type"], _compile(raw["question_cues"])


def asked_value_type(question: str) -> str | None:
    """The value type an open question asks for, read from its own words ("what is the start
    date", "when did it begin"): only ``date`` today (``date_questions`` of clause_types.json).
    ``question`` is the question without the agreement title and party names."""
    value_type, patterns = _date_questions()
    return value_type if any(p.search(question.strip()) for p in patterns) else None
