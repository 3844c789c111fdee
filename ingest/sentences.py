"""A rule-based sentence splitter that returns offsets into the text it was given.

A sentence ends at ``.``, ``!`` or ``?`` (plus closing quotes or brackets) followed by whitespace
and something that can start a sentence: a capital, a digit, an opening quote, or a bracketed
enumerator like ``(b)``. A full stop is not an end after an abbreviation listed in
``ner_models/abbreviations.txt``, a single letter (an initial), a number (``Section 2.``, ``1.1.``),
a roman numeral (``Article II.``) or a dotted initialism (``U.S.``, ``e.g.``).

Rules instead of a model: this runs over tens of MB of contracts, where spaCy's sentencizer is
several times slower, and neither knows legal abbreviations without the same list.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from ingest.text import trim_span

ABBREVIATIONS_FILE = Path(__file__).resolve().parent.parent / "ner_models" / "abbreviations.txt"

_CANDIDATE_END = re.compile(
    r"[.!?]+[\"'\u201d\u2019)\]]*(?=\s+(?:[(\[][A-Za-z0-9]|[\"'\u201c\u2018]?[A-Z0-9]))"
)
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_ROMAN = re.compile(r"[IVXL]+")
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")
_OPENERS = "([\"'\u201c\u2018"


@lru_cache(maxsize=1)
def abbreviations() -> frozenset[str]:
    lines = ABBREVIATIONS_FILE.read_text(encoding="utf-8").splitlines()
    return frozenset(
        line.strip().lower() for line in lines if line.strip() and not line.startswith("#")
    )


def ends_sentence(text: str, stop_at: int, floor: int) -> bool:
    """Whether the punctuation at ``stop_at`` ends a sentence, judged by the word before it."""
    if text[stop_at] != "." or (stop_at + 1 < len(text) and text[stop_at + 1] in "!?"):
        return True
    start = stop_at
    while start > floor and not text[start - 1].isspace():
        start -= 1
    word = text[start:stop_at].lstrip(_OPENERS)
    if not word:
        return True
    if len(word) == 1 and word.isalpha():
        return False
    if word.lower() in abbreviations():
        return False
    return not (
        _NUMBER.fullmatch(word) or _ROMAN.fullmatch(word) or _INITIALISM.fullmatch(word)
    )


def sentence_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Sentences of ``text[start:end]`` as trimmed, non-empty (start, end) offsets into ``text``."""
    spans: list[tuple[int, int]] = []
    sentence_start = start
    for match in _CANDIDATE_END.finditer(text, start, end):
        if not ends_sentence(text, match.start(), start):
            continue
        spans.append((sentence_start, match.end()))
        sentence_start = match.end()
    spans.append((sentence_start, end))
    trimmed = []
    for span in spans:
        span_start, span_end = trim_span(text, *span)
        if span_start < span_end:
            trimmed.append((span_start, span_end))
    return trimmed
