"""PDF pages as unstructured elements built from pdfminer's text lines, so words keep their spaces.

unstructured's ``fast`` strategy reads a page's text boxes from pdfminer's layout. Most filings
(22 of the 25 CUAD dev PDFs, every page) draw their text inside a form XObject, which pdfminer
returns as an ``LTFigure`` holding loose characters: with the default ``LAParams(all_texts=False)``
no layout analysis runs inside a figure, so there are no text lines, and unstructured concatenates
the characters. A line break is not a character, so the last word of a line runs into the first
word of the next ("governed by andconstrued"); only rules and underlines (non-text items) broke the
run, which cut elements at random places ("Agreement\\n\\n”)").

The mechanism here is pdfminer's own: ``all_texts=True`` runs the same line and box analysis inside
figures, and each paragraph (a text box, see ``_paragraphs``) becomes one element whose lines are
joined as unstructured joins a text box's lines (a line break becomes one space, runs of
whitespace collapse). unstructured still classifies each element (``element_from_text``: Title,
NarrativeText, ListItem, ...), so the heading logic downstream is unchanged. unstructured's
``PDFMinerConfig`` cannot set ``all_texts``, which is why the pages are read here rather than
through ``partition_pdf``.

A line that ends in a hyphen after a letter, followed by a line that starts with a letter or
digit, is joined with no space and the hyphen kept: "third-\\nparty" reads "third-party",
"Non-\\nDisclosure" reads "Non-Disclosure", and a word hyphenated by the typesetter
("termi-\\nnation") reads "termi-nation". Dropping the hyphen would need a dictionary to tell the
two apart, and keeping it never invents text. In the 25 CUAD dev PDFs this join happens 36 times
and 35 are compounds ("pass-through", "Know-How", "W-8IMY", URLs); the one typesetter break is
"world-wide", which the text version spells "worldwide".
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LAParams, LTChar, LTFigure, LTPage, LTTextBox, LTTextLine
from pdfminer.pdfpage import PDFPage
from pdfminer.psparser import PSSyntaxError

__all__ = ["LINE_MARGIN", "WORD_MARGIN", "join_lines", "layout_params", "pdf_elements"]

# unstructured's partition_pdf default: a gap wider than 0.185 of a character's size is a space.
WORD_MARGIN = 0.185
# pdfminer's default: lines closer than half a line's height belong together.
LINE_MARGIN = 0.5


def layout_params() -> LAParams:
    """The pdfminer layout parameters of every PDF read here."""
    # boxes_flow=None orders boxes top to bottom, then left to right. The default flow (0.5) mixes
    # in horizontal position and put a centred heading ("RECITALS") after the paragraph under it.
    return LAParams(
        word_margin=WORD_MARGIN, line_margin=LINE_MARGIN, all_texts=True, boxes_flow=None
    )


# ASCII hyphen-minus, Unicode hyphen, soft hyphen. Dashes (en, em) are punctuation, not these.
_WORD_HYPHENS = frozenset("-\u2010\u00ad")


def _continues_word(joined: str, line: str) -> bool:
    """The line break falls inside a hyphenated word: letter, hyphen | letter or digit."""
    return (
        len(joined) >= 2
        and joined[-1] in _WORD_HYPHENS
        and joined[-2].isalpha()
        and line[0].isalnum()
    )


def join_lines(lines: list[str]) -> str:
    """One element's text from its lines: whitespace collapsed, lines joined with one space,
    except inside a word hyphenated across the break (the hyphen is kept, no space added)."""
    joined = ""
    for raw in lines:
        line = " ".join(raw.split())
        if not line:
            continue
        if not joined:
            joined = line
        elif _continues_word(joined, line):
            joined += line
        else:
            joined += " " + line
    return joined


def _first_word_width(line: LTTextLine) -> float:
    chars = []
    for item in line:
        if not isinstance(item, LTChar) or not item.get_text().strip():
            break
        chars.append(item)
    return chars[-1].x1 - chars[0].x0 if chars else 0.0


def _wraps_into(previous: LTTextLine, line: LTTextLine, right_edge: float) -> bool:
    """``line`` continues the paragraph whose last line is ``previous``: it sits directly below
    (pdfminer's own line-margin test), starts no further right, and its first word would not
    have fitted after ``previous`` before the text's right edge, so the break is a wrap."""
    tolerance = LINE_MARGIN * max(previous.height, line.height)
    below = line.y0 < previous.y0 and -tolerance < previous.y0 - line.y1 <= tolerance
    return (
        below
        and abs(previous.height - line.height) <= tolerance
        and line.x0 <= previous.x0 + tolerance
        and previous.x1 + _first_word_width(line) > right_edge
    )


def _paragraphs(container: Any) -> Iterator[list[LTTextLine]]:
    """The lines of each paragraph in layout order, descending into figures (form XObjects).

    A paragraph is one pdfminer text box, or several when a box's first line wraps on from the
    box before it. pdfminer only groups lines that are aligned left, right or centre, so a
    two-line paragraph with an indented first line and a short second line ("(a) ... in
    accordance with applicable law" / "and in a manner ...") comes back as two boxes.
    """
    boxes = [item for item in container if isinstance(item, LTTextBox)]
    right_edge = max((box.x1 for box in boxes), default=0.0)
    current: list[LTTextLine] = []
    for item in container:
        if isinstance(item, LTFigure):
            if current:
                yield current
                current = []
            yield from _paragraphs(item)
            continue
        if not isinstance(item, LTTextBox):
            continue
        lines = [line for line in item if isinstance(line, LTTextLine) and line.get_text().strip()]
        if not lines:
            continue
        if current and _wraps_into(current[-1], lines[0], right_edge):
            current.extend(lines)
        else:
            if current:
                yield current
            current = lines
    if current:
        yield current


def _line_text(line: LTTextLine, duplicate_threshold: float) -> str:
    from unstructured.partition.pdf_image.pdfminer_utils import deduplicate_chars_in_text_line

    # The same fake-bold removal the fast strategy applies (characters drawn twice, offset).
    return deduplicate_chars_in_text_line(line, duplicate_threshold)


def _page_layouts(data: bytes) -> Iterator[LTPage]:
    # unstructured's resource manager and interpreter: embedded CMaps are resolved (otherwise CID
    # fonts lose their text) and importing unstructured.partition.pdf patches pdfminer for pages
    # with broken ICC colour spaces. Both are what the fast strategy ran with.
    import unstructured.partition.pdf  # noqa: F401
    from unstructured.partition.pdf_image.pdfminer_utils import (
        CustomPDFPageInterpreter,
        CustomPDFResourceManager,
    )

    resources = CustomPDFResourceManager()
    device = PDFPageAggregator(resources, laparams=layout_params())
    interpreter = CustomPDFPageInterpreter(resources, device)
    for page in PDFPage.get_pages(io.BytesIO(data)):
        interpreter.process_page(page)
        yield device.get_result()


def _repaired(data: bytes) -> bytes:
    import pikepdf

    buffer = io.BytesIO()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        pdf.save(buffer)
    return buffer.getvalue()


def _elements_of(data: bytes) -> list[Any]:
    from unstructured.documents.coordinates import PixelSpace
    from unstructured.documents.elements import CoordinatesMetadata, ElementMetadata
    from unstructured.partition.text import element_from_text
    from unstructured.partition.utils.config import env_config

    threshold = env_config.PDF_CHAR_DUPLICATE_THRESHOLD
    elements: list[Any] = []
    for page_number, layout in enumerate(_page_layouts(data), start=1):
        system = PixelSpace(width=layout.width, height=layout.height)
        for lines in _paragraphs(layout):
            text = join_lines([_line_text(line, threshold) for line in lines])
            if not text:
                continue
            x0, y0 = min(line.x0 for line in lines), min(line.y0 for line in lines)
            x1, y1 = max(line.x1 for line in lines), max(line.y1 for line in lines)
            top, bottom = layout.height - y1, layout.height - y0  # pixel space: y grows down
            points = ((x0, top), (x0, bottom), (x1, bottom), (x1, top))
            element = element_from_text(text, coordinates=points, coordinate_system=system)
            element.metadata = ElementMetadata(
                page_number=page_number,
                coordinates=CoordinatesMetadata(points=points, system=system),
            )
            elements.append(element)
    return elements


def pdf_elements(data: bytes) -> list[Any]:
    """unstructured elements, one per pdfminer text box, each with its 1-based page number.

    A PDF whose syntax pdfminer rejects is rewritten once by pikepdf (qpdf) and read again, as
    unstructured does; any other failure propagates for the caller to report.
    """
    try:
        return _elements_of(data)
    except PSSyntaxError:
        return _elements_of(_repaired(data))
