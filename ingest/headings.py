"""Which lines are headings, at what level, and the heading path they build.

The rule is deliberately simple and predictable, because section paths are shown to users next
to citations and must never surprise them:

* level 1: ``ARTICLE``/``PART``/``EXHIBIT``/``SCHEDULE``/``ANNEX``/``APPENDIX`` followed by a number,
  roman numeral or letter (``ARTICLE II``, ``Exhibit A``), and roman-numbered lines (``IV. TERM``);
* level 2: ``SECTION 5`` lines, single numbers (``1. DEFINITIONS``) and unnumbered short ALL-CAPS
  lines (``RECITALS``);
* level 1 + number of parts for deeper numbers: ``1.1 Scope`` is 3, ``1.1.1 Fees`` is 4.

The text after a number must read like a title (ALL CAPS or Title Case, at most 10 words), so
numbered clauses that are sentences (``1.1 "Affiliate" means ...``) are body text.

A heading of level L pops every open heading of level >= L and is then pushed, so ``ARTICLE III``
closes ``ARTICLE II`` and everything under it, and ``2. Term`` replaces ``1. Definitions``.
"""

from __future__ import annotations

import re

MAX_HEADING_CHARS = 100
MAX_HEADING_WORDS = 12
MAX_TITLE_WORDS = 10
# A short ALL-CAPS line ending in a full stop with more words than this is a shouted sentence
# ("IN WITNESS WHEREOF, THE PARTIES HAVE EXECUTED THIS AGREEMENT."), not a heading.
MAX_CAPS_SENTENCE_WORDS = 4

_CONNECTORS = frozenset(
    "a an and as at by for from in into of on or the to under upon with its".split()
)
_KEYWORD = re.compile(
    r"^(?P<kw>article|part|exhibit|schedule|annex|appendix|section)\s+"
    r"(?P<num>\d{1,3}(?:\.\d{1,3})*|[ivxlc]{1,7}|[a-z])\b[.:)]?\s*[-\u2013\u2014:.]?\s*(?P<rest>.*)$",
    re.IGNORECASE,
)
_NUMBERED = re.compile(r"^(?P<num>\d{1,3}(?:\.\d{1,3})*)[.)]?\s+(?P<rest>\S.*)$")
_ROMAN = re.compile(r"^(?P<num>[IVXL]{1,6})\.\s+(?P<rest>\S.*)$")
_LETTER = re.compile(r"[^\W\d_]")


def _reads_like_title(rest: str) -> bool:
    words = rest.split()
    if not words or len(words) > MAX_TITLE_WORDS or not _LETTER.search(rest):
        return False
    for word in words:
        letters = _LETTER.findall(word)
        if not letters:
            continue  # numbers, "&", dashes
        if letters[0].isupper():
            continue
        if word.strip("(),.:;\"'").lower() in _CONNECTORS:
            continue
        return False
    return True


def _is_caps_line(line: str) -> bool:
    letters = _LETTER.findall(line)
    if len(letters) < 3 or any(not c.isupper() for c in letters):
        return False
    return not (line.endswith(".") and len(line.split()) > MAX_CAPS_SENTENCE_WORDS)


def heading_level(line: str) -> int | None:
    """The level of ``line`` as a heading, or None when it is body text."""
    line = " ".join(line.split())
    if not line or len(line) > MAX_HEADING_CHARS or len(line.split()) > MAX_HEADING_WORDS:
        return None
    if line[-1] in ",;":
        return None
    match = _KEYWORD.match(line)
    if match:
        rest = match.group("rest")
        if rest and not _reads_like_title(rest):
            return None
        return 2 if match.group("kw").lower() == "section" else 1
    match = _ROMAN.match(line)
    if match and _reads_like_title(match.group("rest")):
        return 1
    match = _NUMBERED.match(line)
    if match:
        if not _reads_like_title(match.group("rest")):
            return None
        return 1 + match.group("num").count(".") + 1
    if _is_caps_line(line):
        return 2
    return None


class SectionPath:
    """The open headings at the current point of a document, outermost first."""

    def __init__(self) -> None:
        self._open: list[tuple[int, str]] = []

    def enter(self, level: int, heading: str) -> None:
        while self._open and self._open[-1][0] >= level:
            self._open.pop()
        self._open.append((level, " ".join(heading.split())))

    def current(self) -> list[str]:
        return [text for _, text in self._open]
