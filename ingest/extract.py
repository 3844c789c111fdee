"""Turning an uploaded file into the revision text and the spans of its elements.

The revision text is what every offset in the system points into. For plain text it is the file's
decoded text unchanged (CUAD's gold offsets index into the raw ``.txt``). For every other format it
is the element texts, each stripped of surrounding whitespace, joined with a blank line, so element
spans are exact by construction. The elements come from unstructured, except that PDF elements are
built from pdfminer's text lines by ``ingest/pdf_layout.py`` (see there why).
"""

from __future__ import annotations

import email
import email.policy
import io
import re
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from ingest.guards import (
    OLE_MAGIC,
    ZIP_MAGIC,
    ExtractionError,
    check_ole_container,
    check_zip_container,
    open_pdf_bytes,
)
from ingest.headings import SectionPath, heading_level
from ingest.nlp_model import route_unstructured_to_packaged_model
from ingest.pdf_layout import pdf_elements
from ingest.plaintext import split_plain_text

__all__ = [
    "MIME_DOCX",
    "MIME_EMAIL",
    "MIME_HTML",
    "MIME_MARKDOWN",
    "MIME_PDF",
    "MIME_TEXT",
    "ElementSpan",
    "Extraction",
    "ExtractionError",
    "detect_type",
    "extract",
]

MIME_PDF = "application/pdf"
MIME_DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
MIME_HTML = "text/html"
MIME_MARKDOWN = "text/markdown"
MIME_TEXT = "text/plain"
MIME_EMAIL = "message/rfc822"

_BY_EXTENSION = {
    ".pdf": MIME_PDF,
    ".docx": MIME_DOCX,
    ".html": MIME_HTML,
    ".htm": MIME_HTML,
    ".xhtml": MIME_HTML,
    ".md": MIME_MARKDOWN,
    ".markdown": MIME_MARKDOWN,
    ".txt": MIME_TEXT,
    ".text": MIME_TEXT,
    ".eml": MIME_EMAIL,
}
_ELEMENT_SEPARATOR = "\n\n"
# The heading level given to a Title element whose depth and text say nothing about its level.
DEFAULT_TITLE_LEVEL = 2

_HTML_START = re.compile(rb"^\s*(?:<!doctype\s+html|<html[\s>])", re.IGNORECASE)
_EMAIL_HEADER = re.compile(
    rb"^(?:from|to|subject|date|received|return-path|message-id|mime-version):", re.I | re.M
)


@dataclass(slots=True)
class ElementSpan:
    element_index: int
    category: str
    char_start: int
    char_end: int
    page: int | None
    section: list[str]  # the heading path here; a heading's own path ends with itself
    is_heading: bool


@dataclass(slots=True)
class Extraction:
    text: str
    elements: list[ElementSpan] = field(default_factory=list)
    normalisation: str = ""


# --- detecting the type ---------------------------------------------------------------------


def _sniff_binary(data: bytes) -> str | None:
    """The mime of a binary container by its magic bytes; None when the bytes look like text."""
    if data.startswith(b"%PDF-"):
        return MIME_PDF
    if data.startswith(ZIP_MAGIC):
        return "application/zip"
    if data.startswith(OLE_MAGIC):
        return "application/x-ole-storage"
    if b"\x00" in data[:8192]:
        return "application/octet-stream"
    return None


def _is_docx_zip(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "word/document.xml" in archive.namelist()
    except zipfile.BadZipFile:
        return False


def _sniff_text(data: bytes) -> str:
    head = data[:4096]
    if _HTML_START.match(head):
        return MIME_HTML
    header_block = re.split(rb"\r?\n\r?\n", head, maxsplit=1)[0]
    if len(_EMAIL_HEADER.findall(header_block)) >= 2:
        return MIME_EMAIL
    return MIME_TEXT


def detect_type(path: Path, data: bytes) -> str:
    """The mime to extract ``data`` as, from the extension and the magic bytes.

    A known extension decides, except that binary content under a text extension is judged by
    its bytes. A file without an extension is judged by its bytes alone. Unknown extensions are
    refused by name, before their content is looked at.
    """
    extension = path.suffix.lower()
    claimed = _BY_EXTENSION.get(extension)
    if extension and claimed is None:
        raise ExtractionError(f"unsupported type: {extension}")
    if claimed in (MIME_PDF, MIME_DOCX):
        return claimed  # extract() reports a mismatching body as corrupt or encrypted
    sniffed = _sniff_binary(data)
    if sniffed == MIME_PDF:
        return MIME_PDF
    if sniffed == "application/zip" and claimed is None and _is_docx_zip(data):
        return MIME_DOCX
    if sniffed is not None:
        raise ExtractionError(f"unsupported type: {sniffed}")
    return claimed or _sniff_text(data)


# --- extraction -----------------------------------------------------------------------------


def _decode(data: bytes) -> tuple[str, str]:
    """The text and how it was decoded. No newline translation: offsets stay those of the file."""
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("cp1252"), "cp1252 (not valid UTF-8)"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1 (neither UTF-8 nor cp1252)"


def _extract_plain_text(data: bytes) -> Extraction:
    text, encoding = _decode(data)
    sections = SectionPath()
    elements: list[ElementSpan] = []
    for index, block in enumerate(split_plain_text(text)):
        is_heading = block.heading_level is not None
        if block.heading_level is not None:
            sections.enter(block.heading_level, text[block.char_start : block.char_end])
        elements.append(
            ElementSpan(
                element_index=index,
                category="Title" if is_heading else "NarrativeText",
                char_start=block.char_start,
                char_end=block.char_end,
                page=None,
                section=sections.current(),
                is_heading=is_heading,
            )
        )
    return Extraction(
        text=text,
        elements=elements,
        normalisation=(
            f"text/plain: the file's text unchanged, decoded as {encoding}, line endings kept; "
            "elements are blank-line separated paragraphs and heading lines"
        ),
    )


@dataclass(slots=True)
class _Piece:
    text: str
    category: str
    page: int | None
    heading_level: int | None


def _title_level(element: Any, text: str) -> int:
    depth = getattr(element.metadata, "category_depth", None)
    if depth is not None:
        return int(depth) + 1
    return heading_level(text) or DEFAULT_TITLE_LEVEL


def _pieces(elements: list[Any], titles_are_headings: bool) -> list[_Piece]:
    pieces = []
    for element in elements:
        text = (element.text or "").strip()
        if element.category == "PageBreak" or not text:
            continue
        level = (
            _title_level(element, text)
            if titles_are_headings and element.category == "Title"
            else None
        )
        page = getattr(element.metadata, "page_number", None)
        pieces.append(_Piece(text, element.category, page, level))
    return pieces


def _join(pieces: list[_Piece], normalisation: str) -> Extraction:
    sections = SectionPath()
    parts: list[str] = []
    elements: list[ElementSpan] = []
    position = 0
    for index, piece in enumerate(pieces):
        if parts:
            parts.append(_ELEMENT_SEPARATOR)
            position += len(_ELEMENT_SEPARATOR)
        if piece.heading_level is not None:
            sections.enter(piece.heading_level, piece.text)
        parts.append(piece.text)
        elements.append(
            ElementSpan(
                element_index=index,
                category=piece.category,
                char_start=position,
                char_end=position + len(piece.text),
                page=piece.page,
                section=sections.current(),
                is_heading=piece.heading_level is not None,
            )
        )
        position += len(piece.text)
    return Extraction(text="".join(parts), elements=elements, normalisation=normalisation)


_JOINED = (
    "element texts stripped of surrounding whitespace (inner whitespace as unstructured returns "
    "it), joined with a blank line; page breaks and empty elements dropped"
)


_PDF_JOINED = (
    "one element per paragraph of pdfminer's layout (text boxes, analysed inside figures too; a "
    "box whose first line wraps on from the box before continues it), its lines joined with one "
    "space (none inside a word hyphenated across lines; the hyphen is kept), inner whitespace "
    "collapsed, classified by unstructured; joined with a blank line"
)


def _partition(partitioner: Callable[..., list[Any]], **kwargs: Any) -> list[Any]:
    try:
        return partitioner(**kwargs)
    except ExtractionError:
        raise
    except Exception as exc:  # any parser failure on a damaged file is the file's fault
        detail = (str(exc).splitlines() or [""])[0].strip().strip("\"'")[:120]
        reason = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
        raise ExtractionError(f"corrupt file: {reason}") from exc


def _extract_pdf(data: bytes) -> Extraction:
    readable = open_pdf_bytes(data)
    decrypted = readable is not data
    # Not partition_pdf(strategy="fast"): its text inside form XObjects loses every line break
    # ("governed by andconstrued"). pdf_layout.py reads the same pdfminer layout with text lines.
    elements = _partition(pdf_elements, data=readable)
    note = "application/pdf: " + ("decrypted (empty user password); " if decrypted else "")
    return _join(_pieces(elements, titles_are_headings=True), note + _PDF_JOINED)


def _extract_docx(data: bytes, max_unpacked_bytes: int) -> Extraction:
    if data.startswith(OLE_MAGIC):
        check_ole_container(data)  # always raises: encrypted, or not OOXML at all
    check_zip_container(data, max_unpacked_bytes)
    from unstructured.partition.docx import partition_docx

    elements = _partition(partition_docx, file=io.BytesIO(data))
    return _join(_pieces(elements, titles_are_headings=True), "docx: unstructured " + _JOINED)


def _extract_markup(data: bytes, mime: str) -> Extraction:
    text, encoding = _decode(data)
    if mime == MIME_HTML:
        from unstructured.partition.html import partition_html as partitioner
    else:
        from unstructured.partition.md import partition_md as partitioner
    elements = _partition(partitioner, text=text)
    note = f"{mime}: decoded as {encoding}; unstructured {_JOINED}"
    return _join(_pieces(elements, titles_are_headings=True), note)


def _extract_email(data: bytes) -> Extraction:
    from unstructured.partition.email import partition_email

    message = email.message_from_bytes(data, policy=email.policy.default)
    subject = " ".join(str(message.get("subject", "") or "").split())
    # Attachments are separate documents in their own right; they are not read into the body.
    elements = _partition(partition_email, file=io.BytesIO(data), process_attachments=False)
    # Signatures and greetings come back as Title; only the subject heads an e-mail.
    body = _pieces(elements, titles_are_headings=False)
    pieces = ([_Piece(subject, "Title", None, 1)] if subject else []) + body
    note = f"message/rfc822: subject first as the heading, then the body; unstructured {_JOINED}"
    return _join(pieces, note)


def extract(path: Path, data: bytes, mime: str, *, max_unpacked_bytes: int) -> Extraction:
    """The revision text of ``data`` (detected as ``mime``) and its element spans."""
    if not data.strip():
        raise ExtractionError("no extractable text")
    if mime != MIME_TEXT:
        route_unstructured_to_packaged_model()  # before any unstructured.partition import
    if mime == MIME_TEXT:
        extraction = _extract_plain_text(data)  # no unstructured: see plaintext.py
    elif mime == MIME_PDF:
        extraction = _extract_pdf(data)
    elif mime == MIME_DOCX:
        extraction = _extract_docx(data, max_unpacked_bytes)
    elif mime in (MIME_HTML, MIME_MARKDOWN):
        extraction = _extract_markup(data, mime)
    elif mime == MIME_EMAIL:
        extraction = _extract_email(data)
    else:
        raise ExtractionError(f"unsupported type: {mime}")
    if not extraction.text.strip() or not extraction.elements:
        raise ExtractionError("no extractable text")
    return extraction
