"""Elements of a plain-text file, located in the file's text exactly as it is.

We split plain text ourselves instead of calling unstructured's ``partition_text``: that took
1.1-2.1 s per 100 KB contract here (5.8 s for the largest CUAD contract, about four minutes for the
205 dev contracts), and its elements are whitespace-normalised, so they would have to be aligned
back to the file. Splitting on the file itself gives exact offsets by construction.

An element is a run of non-blank lines (a paragraph). A heading-like line (``headings.py``) at the
start of a paragraph is an element of its own, so "1. DEFINITIONS\\nThe following terms ..." gives
a heading and a paragraph; a heading-like line in the middle of a paragraph is left alone, because
hard-wrapped prose often has a short capitalised line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.headings import heading_level
from ingest.text import trim_span

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
# The byte-order mark is not whitespace to str.isspace but must not start an element.
_EDGE_CHARS = " \t\n\r\f\v\u00a0\u2028\u2029\u200b\ufeff"


@dataclass(slots=True, frozen=True)
class TextBlock:
    char_start: int
    char_end: int
    heading_level: int | None


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    return trim_span(text, start, end, also=_EDGE_CHARS)


def split_plain_text(text: str) -> list[TextBlock]:
    """Paragraphs and headings of ``text``, in order; every span is trimmed and non-empty."""
    blocks: list[TextBlock] = []
    paragraph: tuple[int, int] | None = None
    at_block_start = True

    def close_paragraph() -> None:
        nonlocal paragraph
        if paragraph is not None:
            start, end = _trimmed(text, *paragraph)
            if start < end:
                blocks.append(TextBlock(start, end, None))
            paragraph = None

    for match in _LINE.finditer(text):
        if match.start() == match.end():
            break  # the empty match at the very end
        start, end = _trimmed(text, match.start(), match.end())
        if start == end:
            close_paragraph()
            at_block_start = True
            continue
        level = heading_level(text[start:end]) if at_block_start else None
        if level is not None:
            close_paragraph()
            blocks.append(TextBlock(start, end, level))
            continue  # the next line starts a block too
        at_block_start = False
        paragraph = (paragraph[0], end) if paragraph else (start, end)
    close_paragraph()
    return blocks
