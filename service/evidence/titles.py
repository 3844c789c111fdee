"""Agreement titles, compared alike on both sides: the title a question names and the title
ingest detected. Shared by the subject class reader, the hard gate and the registry questions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ingest.agreements import amendment_of
from ingest.lexicons import lexicons
from ingest.text import name_words

_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
# The number an amendment title gives itself: "No. 2", "Number II", "#3", or a bare number
# right after the word ("AMENDMENT 1 TO ..."); an ordinal word before it is read by amendment_of.
_NUMBER = re.compile(
    r"\b(?:amendment|addendum|supplement|schedule|annex|appendix|side\s+letter|statement\s+of\s+work|work\s+order)\s*"
    r"(?:(?:no\.?|number|#)\s*)?(?P<number>[0-9]+|[ivxlc]+)\b",
    re.IGNORECASE,
)
_PARENT = re.compile(r"^\s*(?:(?:no\.?|number|#)\s*)?(?:[0-9]+|[ivxlc]+)\b\s*(?:(?:to|of|under)\s+)?(?:the\s+)?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class AmendmentKey:
    """An amendment-like title reduced to what identifies it: the word ("amendment",
    "schedule"), its number as an integer ("First" = "No. 1" = "1" = "I") and the parent title's
    words when the title names the parent."""

    word: str
    number: int | None
    parent: str | None


def _number(text: str | None) -> int | None:
    if not text:
        return None
    text = text.casefold()
    if text.isdigit():
        return int(text)
    from ingest.lexicons import load_json

    kinds = load_json("agreement_kinds.json")
    ordinals = kinds["ordinals"]
    if text in ordinals:
        return ordinals.index(text) % 10 + 1  # "first".."tenth", then "1st".."10th"
    if text in kinds["number_words"]:
        return kinds["number_words"].index(text) + 1  # "Amendment Number Two"
    if all(c in _ROMAN for c in text):
        values = [_ROMAN[c] for c in text]
        return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
    return None


def amendment_key(title: str) -> AmendmentKey | None:
    """``ingest.agreements.amendment_of`` with the number normalised, so that "First Amendment",
    "Amendment No. 1" and "AMENDMENT 1 TO ..." compare alike. None for an agreement of its own."""
    amendment = amendment_of(title)
    if amendment is None:
        return None
    number = _number(amendment.number)
    parent = amendment.parent
    if number is None:
        match = _NUMBER.search(title)
        number = _number(match.group("number")) if match else None
    return AmendmentKey(amendment.word, number, parent_key(parent))


@lru_cache(maxsize=1)
def _inner_amendment() -> re.Pattern[str]:
    from ingest.lexicons import load_json

    words = load_json("agreement_kinds.json")["amendment_words"]
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"\S\s+(?:{alternatives})\s+(?:(?:no\.?|number|#)\s*\w+\s+)?(?:to|of)\s+\S", re.IGNORECASE)


def names_inner_amendment(title: str) -> bool:
    """Whether a title names an amendment whose word is not its first: "Apple Corporate Alliance
    Program Addendum to the Authorized Apple Dealer Sales Agreement". ``amendment_key`` reads
    only titles that open with the word (or close with it), so such a title has no key."""
    return bool(_inner_amendment().search(" ".join(title.split())))


def parent_key(parent: str | None) -> str | None:
    """A parent agreement's title as an amendment key holds it: words without a leading number
    or article, abbreviations expanded ("No. 1 to the Development Agreement" -> "development
    agreement"); None for no parent."""
    if parent is None:
        return None
    parent = _PARENT.sub("", parent) if _PARENT.match(parent) else parent
    return expand_abbreviations(clean_title(parent)) or None


def known_agreement_kind(title: str) -> str | None:
    """The kind of an agreement title by the very rule ingest used for the registry's ``kind``
    attribute (``ingest.agreements.agreement_kind``), None where that says "other"."""
    from ingest.agreements import agreement_kind as ingest_kind

    kind = ingest_kind(title)
    return None if kind == "other" else kind


def expand_abbreviations(title: str) -> str:
    abbreviations = {k.casefold(): v for k, v in lexicons().agreement_abbreviations.items()}
    words = []
    for word in name_words(title):
        words.extend(name_words(abbreviations.get(word, word)))
    return " ".join(words)


def clean_title(title: str) -> str:
    """Title words without leading articles and without the leading noise ingest drops from a
    detected title ("FORM OF ...", ner_models/agreement_kinds.json), so both sides compare alike."""
    words = name_words(title)
    noise = [tuple(name_words(n)) for n in lexicons().title_prefix_noise]
    changed = True
    while changed:
        changed = False
        while words and words[0] in ("the", "this", "that", "a", "an"):
            words, changed = words[1:], True
        for phrase in noise:
            if phrase and len(words) > len(phrase) and tuple(words[: len(phrase)]) == phrase:
                words, changed = words[len(phrase) :], True
    return " ".join(words)
