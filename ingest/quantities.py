"""Dates, durations, number words and money read from contract text: one leaf module shared by
ingest (agreement dates in ``ingest/agreements.py``) and the query side
(``service/evidence/values.py``), so the two never disagree about what a passage says.

Pure text functions; offsets are offsets into the text given. Libraries do what they are good
at: ``text2num`` turns number words into integers ("seventy-five", "one hundred and twenty"),
``price-parser`` reads amounts whatever their separators ("3.000.000", "1,000,000.00",
"1 000 000"). Locating a value in a sentence stays a regular expression, because the libraries
parse a value they are given, they do not find one in a clause.

Rules that matter for contracts:
  * "forty (40) days": the digits in parentheses win over the words (they are what the parties
    wrote to remove doubt);
  * a duration is a number and a unit ("twenty-one days", "3 months", "one (1) year");
  * a date is "March 1, 2020", "1st day of March, 2020", "3/1/2020" (US order unless impossible)
    or ISO "2020-03-01".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from price_parser import Price
from text_to_num import text2num

# -- number words ---------------------------------------------------------------------------

_UNITS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ("hundred", "thousand", "million")
_NUMBER_WORD = "|".join(sorted((*_UNITS, *_TENS, *_SCALES), key=len, reverse=True))
# "seventy-five", "one hundred and twenty", "twenty one": number words joined by spaces,
# hyphens or "and" (only between number words).
# At most eight words ("one hundred and twenty-five thousand"): an unbounded repetition makes
# a text of many number words quadratic to scan.
NUMBER_PHRASE = (
    rf"(?:{_NUMBER_WORD})(?:(?:[\s-]+|\s+and\s+)(?:{_NUMBER_WORD})){{0,7}}"
)
_NUMBER_PHRASE_RE = re.compile(rf"^{NUMBER_PHRASE}$", re.IGNORECASE)
MAX_NUMBER_TEXT = 120  # characters: longer "numbers" are not read as numbers


@lru_cache(maxsize=1024)
def number_from_words(text: str) -> int | None:
    """'seventy-five' -> 75, 'one hundred and twenty' -> 120, 'a'/'an' -> 1, digits as they are;
    None when the text is not a number."""
    if len(text) > MAX_NUMBER_TEXT:
        return None
    cleaned = " ".join(text.casefold().replace("-", " ").split())
    if cleaned.isdigit():
        return int(cleaned)
    if cleaned in ("a", "an"):
        return 1
    if not _NUMBER_PHRASE_RE.match(cleaned):
        return None
    cleaned = re.sub(r"\band\b", " ", cleaned)
    try:
        return int(text2num(" ".join(cleaned.split()), "en"))
    except ValueError:
        return None


# -- durations ------------------------------------------------------------------------------

_DURATION = re.compile(
    rf"(?<![\w-])(?P<n>\d{{1,4}}|{NUMBER_PHRASE}|an?)"
    r"(?:\s*\(\s*(?P<digits>\d{1,4})\s*\))?"
    r"[\s-]+(?:(?:calendar|business|working|consecutive|full|additional|successive)\s+)?"
    r"(?P<unit>days?|weeks?|months?|years?)\b(?!-)",  # "2020 year-end" is no duration
    re.IGNORECASE,
)
_UNIT_CODE = {"day": "D", "week": "W", "month": "M", "year": "Y"}


@dataclass(frozen=True, slots=True)
class DurationSpan:
    iso: str  # ISO 8601 duration, e.g. "P75D"
    start: int
    end: int


def durations_in(text: str) -> list[DurationSpan]:
    """Every duration in the text, in order. "forty (40) days" reads the digits first."""
    out = []
    for m in _DURATION.finditer(text):
        n = int(m.group("digits")) if m.group("digits") else number_from_words(m.group("n"))
        if n is None:
            continue
        unit = m.group("unit").casefold().rstrip("s")
        out.append(DurationSpan(f"P{n}{_UNIT_CODE[unit]}", m.start(), m.end()))
    return out


# -- dates ----------------------------------------------------------------------------------

_MONTHS = {
    name: index
    for index, names in enumerate(
        [
            ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
            ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"), ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = r"(?P<month>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?P<year>(?:19|20)\d{2})"
_DATE_PATTERNS = (
    re.compile(rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}\b", re.I),
    re.compile(rf"\b{_DAY}\s+(?:day\s+of\s+)?{_MONTH},?\s+{_YEAR}\b", re.I),
    re.compile(r"\b(?P<iso_year>(?:19|20)\d{2})-(?P<iso_month>\d{1,2})-(?P<iso_day>\d{1,2})\b"),
    re.compile(r"\b(?P<first>\d{1,2})/(?P<second>\d{1,2})/(?P<year>(?:19|20)?\d{2})\b"),
)


@dataclass(frozen=True, slots=True)
class DateSpan:
    iso: str
    start: int
    end: int


def _to_iso(match: re.Match[str]) -> str | None:
    groups = match.groupdict()
    if groups.get("iso_year"):
        year, month, day = int(groups["iso_year"]), int(groups["iso_month"]), int(groups["iso_day"])
    else:
        year = int(groups["year"])
        if year < 100:
            year += 2000 if year < 50 else 1900
        if groups.get("month"):
            month = _MONTHS[groups["month"].casefold()]
            day = int(groups["day"])
        else:
            first, second = int(groups["first"]), int(groups["second"])
            # US order unless impossible ("29/3/18").
            month, day = (first, second) if first <= 12 else (second, first)
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def dates_in(text: str, start: int = 0, end: int | None = None) -> list[DateSpan]:
    """Dates in ``text[start:end]`` in text order; offsets into ``text``. Where two patterns
    match at one position the first listed wins."""
    end = len(text) if end is None else end
    found: dict[int, DateSpan] = {}
    for pattern in _DATE_PATTERNS:
        for match in pattern.finditer(text, start, end):
            iso = _to_iso(match)
            if iso and match.start() not in found:
                found[match.start()] = DateSpan(iso, match.start(), match.end())
    return [found[k] for k in sorted(found)]


# -- money ----------------------------------------------------------------------------------

_CURRENCY = {
    "$": "USD", "us$": "USD", "usd": "USD", "us dollars": "USD", "dollars": "USD",
    "eur": "EUR", "€": "EUR", "euro": "EUR", "euros": "EUR",
    "£": "GBP", "gbp": "GBP", "pounds sterling": "GBP",
    "chf": "CHF", "cad": "CAD", "c$": "CAD", "aud": "AUD", "a$": "AUD", "jpy": "JPY", "¥": "JPY",
    "rmb": "CNY", "cny": "CNY", "inr": "INR", "rs.": "INR",
}
_SYMBOL = r"(?P<cur>US\$|C\$|A\$|\$|USD|EUR|€|£|GBP|CHF|CAD|AUD|JPY|¥|RMB|CNY|INR|Rs\.)"
_AMOUNT = r"(?P<amount>\d{1,3}(?:[.,'\u00a0 ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)"
_SCALE_WORDS = r"(?:\s*(?P<scale>million|billion|thousand|m\b|bn\b|k\b))?"
_WORD_CURRENCY = r"\s*(?P<cur_after>US\s+dollars|dollars|euros?|pounds\s+sterling)"
_MONEY = re.compile(rf"{_SYMBOL}\s?{_AMOUNT}{_SCALE_WORDS}", re.IGNORECASE)
_MONEY_AFTER = re.compile(rf"(?<![\w.,]){_AMOUNT}{_SCALE_WORDS}{_WORD_CURRENCY}\b", re.IGNORECASE)
_SCALE = {"thousand": 1_000, "k": 1_000, "million": 1_000_000, "m": 1_000_000,
          "billion": 1_000_000_000, "bn": 1_000_000_000}


@dataclass(frozen=True, slots=True)
class MoneySpan:
    currency: str
    amount: str  # a plain decimal string, e.g. "3000000" or "1500.50"
    start: int
    end: int


def _amount(raw: str) -> Decimal | None:
    """The amount in ``raw`` whatever its separators. price-parser decides which separator is the
    decimal one ("3.000.000" is three million, "1,000.50" has cents, "3.000,00" too)."""
    parsed = Price.fromstring(raw.replace("'", ",").replace("\u00a0", ","))
    return parsed.amount


def money_in(text: str) -> list[MoneySpan]:
    """Amounts with a currency, in text order: "$2.5 million", "EUR 3.000.000", "US$1,000,000.00",
    "10,000 dollars"."""
    out: dict[int, MoneySpan] = {}
    for pattern in (_MONEY, _MONEY_AFTER):
        for m in pattern.finditer(text):
            number = _amount(m.group("amount").strip())
            if number is None or m.start() in out:
                continue
            cur = (m.groupdict().get("cur") or m.groupdict().get("cur_after") or "").casefold()
            currency = _CURRENCY.get(" ".join(cur.split()))
            if currency is None:
                continue
            scale = _SCALE.get((m.group("scale") or "").casefold())
            try:
                value = (number * scale).quantize(Decimal(1)) if scale else number
            except InvalidOperation:
                continue
            out[m.start()] = MoneySpan(currency, format(value.normalize(), "f") if scale else format(value, "f"), m.start(), m.end())
    return [out[k] for k in sorted(out)]
