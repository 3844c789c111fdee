"""Normalised values stated by a passage: jurisdiction, ISO date, ISO-8601 duration, money. Pure
text functions over the excerpt, so a value can always be re-derived from the cited passage."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from ingest.agreements import dates_in
from ingest.lexicons import lexicons
from ingest.normalize import name_words

_LAW_OF = re.compile(
    r"\blaws?\s+(?:and\s+\w+\s+)?(?:in\s+force\s+in\s+|of\s+|in\s+)(?:the\s+)?"
    r"(?P<place>(?:(?:State|Commonwealth|Province|Republic|Kingdom|People's Republic)\s+of\s+)?"
    r"[A-Z][\w.'-]*(?:\s+(?:of\s+)?[A-Z][\w.'-]*){0,4})"
)
_NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "eighteen": 18,
    "twenty": 20, "twenty-four": 24, "thirty": 30, "forty-five": 45, "sixty": 60, "ninety": 90,
    "one hundred twenty": 120, "one hundred eighty": 180, "a": 1, "an": 1,
}
_DURATION = re.compile(
    r"\b(?P<n>\d{1,4}|" + "|".join(sorted((re.escape(w) for w in _NUMBER_WORDS), key=len, reverse=True))
    + r")(?:\s*\(\s*\d{1,4}\s*\))?[\s-]+(?:(?:calendar|business|consecutive|full|additional|successive)\s+)?"
    r"(?P<unit>days?|weeks?|months?|years?)\b",
    re.IGNORECASE,
)
_UNIT_CODE = {"day": "D", "week": "W", "month": "M", "year": "Y"}
_MONEY = re.compile(
    r"(?P<cur>US\$|\$|USD|EUR|€|£|GBP)\s?(?P<amount>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<cents>\d{1,2}))?"
    r"(?:\s*(?P<scale>million|billion|thousand))?",
    re.IGNORECASE,
)
_CURRENCY = {"$": "USD", "us$": "USD", "usd": "USD", "eur": "EUR", "€": "EUR", "£": "GBP", "gbp": "GBP"}
_SCALE = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}


def jurisdiction_in(text: str) -> str | None:
    """The jurisdiction after 'laws of ...': the longest run of words the lexicon knows."""
    known = lexicons().jurisdictions
    for m in _LAW_OF.finditer(text):
        words = name_words(m.group("place"))
        for n in range(len(words), 0, -1):
            key = " ".join(words[:n])
            if key in known:
                return known[key]
    return None


def _nearest(matches: list[re.Match[str]], anchor: re.Pattern[str] | None, text: str) -> re.Match[str] | None:
    """The first match, or with an anchor the match closest to any anchor hit (ties: earliest)."""
    if not matches:
        return None
    if anchor is None:
        return matches[0]
    hits = [a.start() for a in anchor.finditer(text)]
    if not hits:
        return matches[0]
    return min(matches, key=lambda m: (min(abs(m.start() - h) for h in hits), m.start()))


def duration_in(text: str, anchor: re.Pattern[str] | None = None) -> dict[str, Any] | None:
    m = _nearest(list(_DURATION.finditer(text)), anchor, text)
    if not m:
        return None
    raw = m.group("n").casefold()
    n = int(raw) if raw.isdigit() else _NUMBER_WORDS[raw]
    unit = m.group("unit").casefold().rstrip("s")
    return {"type": "duration", "value": f"P{n}{_UNIT_CODE[unit]}", "text": m.group(0)}


def money_in(text: str, anchor: re.Pattern[str] | None = None) -> dict[str, Any] | None:
    m = _nearest(list(_MONEY.finditer(text)), anchor, text)
    if not m:
        return None
    number = Decimal(m.group("amount").replace(",", "") + (f".{m.group('cents')}" if m.group("cents") else ""))
    scale = _SCALE.get((m.group("scale") or "").casefold())
    # "$2.5 million" is 2500000; "$1,000,000.00" keeps its cents as written.
    value = str((number * scale).normalize().quantize(Decimal(1))) if scale else str(number)
    return {"type": "money", "value": f"{_CURRENCY[m.group('cur').casefold()]} {value}", "text": m.group(0)}


def date_in(text: str) -> dict[str, Any] | None:
    spans = dates_in(text, 0, len(text))
    if not spans:
        return None
    return {"type": "date", "value": spans[0].iso, "text": text[spans[0].start : spans[0].end]}


def extract_value(
    value_type: str, text: str, entity_ids: list[str], anchor: re.Pattern[str] | None = None
) -> dict[str, Any] | None:
    if value_type == "jurisdiction":
        found = jurisdiction_in(text)
        if found is None:
            ids = sorted({e.split(":", 1)[1] for e in entity_ids if e.startswith("jurisdiction:")})
            found = ids[0] if len(ids) == 1 else None  # two places and no "laws of": don't guess
        return {"type": "jurisdiction", "value": found} if found else None
    if value_type == "date":
        return date_in(text)
    if value_type == "duration":
        return duration_in(text, anchor)
    if value_type == "date_or_duration":
        return date_in(text) or duration_in(text, anchor)
    if value_type == "money":
        return money_in(text, anchor)
    if value_type == "presence":
        return {"type": "presence", "value": "stated"}
    return None
