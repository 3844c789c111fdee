"""Character- and word-level text helpers shared by the lexicons and the name normaliser.

A leaf module: it imports nothing from the project, so anything may import it without a cycle.
"""

from __future__ import annotations

import re
import unicodedata

_DELETED = re.compile(r"[.'’`´]")
_SEPARATORS = re.compile(r"[^\w]+|_")
_CURLY = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "\u00a0": " "})


def straighten_quotes(text: str) -> str:
    """Same length as the input, so offsets survive."""
    return text.translate(_CURLY)


def name_words(text: str) -> list[str]:
    """Casefold; periods and apostrophes vanish ("Inc." -> "inc", "Reed's" -> "reeds") so dotted
    and undotted spellings meet; "&" reads "and"; any other punctuation separates words."""
    folded = _DELETED.sub("", text.casefold()).replace("&", " and ")
    return [w for w in _SEPARATORS.split(folded) if w]


def fold_marks(key: str) -> str:
    """``key`` without its accents and other combining marks ("méxico" -> "mexico", "société
    générale" -> "societe generale"): the same name typed with or without them is one key, as a
    question written on an English keyboard spells "Banco de México". Letters that are no base
    letter with a mark ("ø", "æ", "ł") and scripts without marks (Chinese) stay as they are."""
    if key.isascii():
        return key
    decomposed = unicodedata.normalize("NFKD", key)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c)))


def trim_span(text: str, start: int, end: int, *, base: int = 0, also: str = "") -> tuple[int, int]:
    """``[start, end)`` narrowed past leading and trailing whitespace (and any of ``also``).
    Offsets are in the document; ``text`` begins at document offset ``base``. An all-blank span
    comes back empty (``start == end``)."""
    while start < end and (text[start - base].isspace() or text[start - base] in also):
        start += 1
    while end > start and (text[end - 1 - base].isspace() or text[end - 1 - base] in also):
        end -= 1
    return start, end


# A word of at most four characters or a dotted run right before a period ("Inc.", "Co.",
# "U.S."): the period most likely ends an abbreviation, not a sentence.
_ABBREVIATION_END = re.compile(r"(?:\b[\w]{1,4}|\.\w+)$")


def ends_in_abbreviation(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` ends in an abbreviation, so that a period at ``end`` is no
    sentence end."""
    return _ABBREVIATION_END.search(text[start:end]) is not None


# An EDGAR document header line ("EX-10.2 3 exhibit102-services.htm SERVICE AGREEMENT ..."): the
# exhibit code, the sequence number and the file name, then the filer's description of the
# exhibit. Only a line of its own is a label: a whole filing run into one line starts so too.
EDGAR_HEADER = re.compile(r"[ \t]*EX-[0-9][\w.()\-]*[ \t]+[0-9]+[ \t]+\S+\.(?:htm|html|txt)\b", re.IGNORECASE)
EDGAR_HEADER_CHARS = 200


def on_edgar_header_line(text: str, position: int) -> bool:
    """Whether ``position`` stands on an EDGAR document header line of its own (at most
    ``EDGAR_HEADER_CHARS`` long): the filer's words about the exhibit, not the contract's."""
    line_start = text.rfind("\n", 0, position) + 1
    line_end = text.find("\n", position)
    if line_end == -1 or line_end - line_start > EDGAR_HEADER_CHARS:
        return False
    return EDGAR_HEADER.match(text, line_start, line_end) is not None
