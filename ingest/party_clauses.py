"""Party clauses: where a contract names its parties in its own words.

At ingest the agreement records its party clauses (``clause_records`` into the agreement's
``attributes.party_clauses``), each a span of its own text with that text: the preamble (the
paragraph of the first "between"/"among" in the opening pages, up to the recitals or the first
section), a "Parties" section, and the signature block after the last "IN WITNESS WHEREOF".
The report shows their spans (``gate.candidate_view``); the subject gate binds parties only by
``party_to`` (a reader of names in these spans was measured and removed: docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ingest.definitions import PREAMBLE_END_WORDS, between_windows
from ingest.lexicons import load_json

PREAMBLE = "preamble"
PARTIES_SECTION = "parties_section"
SIGNATURE_BLOCK = "signature_block"

# Bounds: where clauses are looked for and how long each may be (a clause is stored with its text).
OPENING_CHARS = 6_000
CLAUSE_CHARS = 2_500
PARAGRAPH_LOOKBACK = 400
SIGNATURE_CHARS = 3_000


@dataclass(frozen=True, slots=True)
class PartyClause:
    source: str  # preamble | parties_section | signature_block
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class _Headings:
    parties_heading: re.Pattern[str]
    witness: re.Pattern[str]


@lru_cache(maxsize=1)
def _data() -> _Headings:
    raw = load_json("party_clauses.json")
    return _Headings(re.compile(raw["parties_heading"], re.M), re.compile(raw["witness_heading"]))


# -- recording the clauses at ingest --------------------------------------------------------

_BLANK_LINE = re.compile(r"\n[ \t]*\n")
# "the entire agreement between the parties", "between each party": a "between" that names no
# one opens no party clause (shared with the model fallback in ``ingest/annotate.py``).
NO_PARTY_CLAUSE = re.compile(r"(?i)(?:between|among)\s+(?:the\s+|such\s+|any\s+|each\s+)?(?:parties|party|us|you|them)\b")
# A clause ends where the preamble does, or at a numbered section's start.
_SECTION_END = re.compile(rf"{PREAMBLE_END_WORDS}|\n[ \t]*(?:\d{{1,2}}\.|ARTICLE|Article|SECTION|Section)[ \t]")


def party_clauses(text: str) -> list[PartyClause]:
    """The contract's party clauses, in document order: its preamble, a "Parties" section and
    its signature block, each when present, each at most ``CLAUSE_CHARS``/``SIGNATURE_CHARS``."""
    out: list[PartyClause] = []
    for start, _ in between_windows(text):
        if start >= OPENING_CHARS or NO_PARTY_CLAUSE.match(text, start):
            continue
        # The preamble is the paragraph holding the first "between": from its start (names may
        # come first: "ACME INC. and BETA LLC agree ...") to the recitals or the first section.
        floor = max(0, start - PARAGRAPH_LOOKBACK)
        blanks = list(_BLANK_LINE.finditer(text, floor, start))
        begin = blanks[-1].end() if blanks else floor
        if not blanks and floor > 0:
            line = text.find("\n", floor, start)
            begin = line + 1 if line >= 0 else start
        out.append(PartyClause(PREAMBLE, begin, _sentence_end(text, start, _clause_end(text, start))))
        break
    heading = _data().parties_heading.search(text, 0, min(len(text), OPENING_CHARS))
    if heading is not None:
        out.append(PartyClause(PARTIES_SECTION, heading.end(), _clause_end(text, heading.end())))
    witness = list(_data().witness.finditer(text))
    if witness:
        start = witness[-1].start()
        out.append(PartyClause(SIGNATURE_BLOCK, start, min(len(text), start + SIGNATURE_CHARS)))
    return sorted(set(out), key=lambda c: (c.start, c.end, c.source))


def _clause_end(text: str, start: int) -> int:
    limit = min(len(text), start + CLAUSE_CHARS)
    end = _SECTION_END.search(text, start + 1, limit)
    return end.start() if end else limit


_SENTENCE_STOP = re.compile(r"\.(?=[ \t\n]+[A-Z\"“(])")


def _sentence_end(text: str, start: int, end: int) -> int:
    """The end of the sentence holding ``start`` (its "."), not beyond ``end``: the preamble is
    one sentence. A period after a short or dotted word ("Inc.", "Co.", "St.", "N.A.") ends none."""
    for stop in _SENTENCE_STOP.finditer(text, start, end):
        word = re.search(r"[\w.]+$", text[max(start, stop.start() - 40) : stop.start()])
        if word is not None and (len(word.group()) <= 4 or "." in word.group()):
            continue
        return stop.end()
    return end


def clause_records(text: str) -> list[dict[str, Any]]:
    """The clauses as the agreement's registry record keeps them (``attributes.party_clauses``):
    source, document offsets and the clause text the gate reads."""
    return [
        {"source": c.source, "char_start": c.start, "char_end": c.end, "text": text[c.start : c.end]}
        for c in party_clauses(text)
    ]
