"""Normalised values stated by a passage: jurisdiction, ISO date, ISO-8601 duration, money. Pure
text functions over the excerpt, so a value can always be re-derived from the cited passage. Dates,
durations, number words and money are parsed by ``ingest/quantities.py``, shared with ingest."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from ingest.entity_id import of_type
from ingest.lexicons import lexicons
from ingest.text import name_words
from ingest.quantities import DurationSpan, MoneySpan, dates_in, durations_in
from ingest.quantities import money_in as amounts_in

_LAW_OF = re.compile(
    r"\blaws?\s+(?:and\s+\w+\s+)?(?:in\s+force\s+in\s+|of\s+|in\s+)(?:the\s+)?"
    r"(?P<place>(?:(?:State|Commonwealth|Province|Republic|Kingdom|People's Republic)\s+of\s+)?"
    r"[A-Z][\w.'-]*(?:\s+(?:of\s+)?[A-Z][\w.'-]*){0,4})"
)


# "governed by Delaware law", "English law", "Swiss substantive law": a place or its demonym right
# before "law". Only the capitalised run ending at "law" is read, and only its known tail counts,
# so "Governing Law" or "applicable law" state no place.
_PLACE_LAW = re.compile(
    r"(?P<place>\b[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3})\s+"
    r"(?i:(?:substantive|internal|domestic)\s+)?(?i:laws?)\b"
)


def jurisdiction_in(text: str) -> str | None:
    """The jurisdiction after 'laws of ...' (the longest run of words the lexicon knows), else a
    known place or demonym right before 'law' (the longest known tail of the run)."""
    known = lexicons().jurisdictions
    for m in _LAW_OF.finditer(text):
        words = name_words(m.group("place"))
        for n in range(len(words), 0, -1):
            key = " ".join(words[:n])
            if key in known:
                return known[key]
    for m in _PLACE_LAW.finditer(text):
        words = name_words(m.group("place"))
        for n in range(len(words)):
            key = " ".join(words[n:])
            if key in known:
                return known[key]
    return None


_Span = TypeVar("_Span", DurationSpan, MoneySpan)


def _nearest(spans: list[_Span], anchor: re.Pattern[str] | None, text: str) -> _Span | None:
    """The first span, or with an anchor the span closest to any anchor hit (ties: earliest)."""
    if not spans:
        return None
    if anchor is None:
        return spans[0]
    hits = [a.start() for a in anchor.finditer(text)]
    if not hits:
        return spans[0]
    return min(spans, key=lambda s: (min(abs(s.start - h) for h in hits), s.start))


def duration_in(text: str, anchor: re.Pattern[str] | None = None) -> dict[str, Any] | None:
    spans = durations_in(text)
    span = _nearest(spans, anchor, text)
    if span is None:
        return None
    return {"type": "duration", "value": span.iso, "text": text[span.start : span.end]}


def money_value(text: str, anchor: re.Pattern[str] | None = None) -> dict[str, Any] | None:
    span = _nearest(amounts_in(text), anchor, text)
    if span is None:
        return None
    return {"type": "money", "value": f"{span.currency} {span.amount}", "text": text[span.start : span.end]}


def date_in(text: str) -> dict[str, Any] | None:
    spans = dates_in(text)
    if not spans:
        return None
    return {"type": "date", "value": spans[0].iso, "text": text[spans[0].start : spans[0].end]}


def extract_value(
    value_type: str, text: str, entity_ids: list[str], anchor: re.Pattern[str] | None = None
) -> dict[str, Any] | None:
    if value_type == "jurisdiction":
        found = jurisdiction_in(text)
        if found is None:
            ids = sorted({e.key for e in of_type(entity_ids, "jurisdiction")})
            found = ids[0] if len(ids) == 1 else None  # two places and no "laws of": don't guess
        return {"type": "jurisdiction", "value": found} if found else None
    if value_type == "date":
        return date_in(text)
    if value_type == "duration":
        return duration_in(text, anchor)
    if value_type == "date_or_duration":
        return date_in(text) or duration_in(text, anchor)
    if value_type == "money":
        return money_value(text, anchor)
    if value_type == "presence":
        return {"type": "presence", "value": "stated"}
    return None
