"""Extraction on real files: exact revision text and element spans, types, and refusals."""

from __future__ import annotations

import io
import random
import zipfile
from pathlib import Path

import pytest

from ingest.extract import (
    MIME_DOCX,
    MIME_EMAIL,
    MIME_HTML,
    MIME_MARKDOWN,
    MIME_PDF,
    MIME_TEXT,
    Extraction,
    ExtractionError,
    detect_type,
    extract,
)
from tests.helpers import cuad_dev_dir, ole_file, pdf_bytes

LIMIT = 64 * 1024 * 1024


def run(name: str, data: bytes, *, limit: int = LIMIT) -> Extraction:
    path = Path(name)
    return extract(path, data, detect_type(path, data), max_unpacked_bytes=limit)


def failure(name: str, data: bytes, *, limit: int = LIMIT) -> str:
    with pytest.raises(ExtractionError) as caught:
        run(name, data, limit=limit)
    return str(caught.value)


def assert_spans_exact(extraction: Extraction) -> None:
    """Elements are ordered, disjoint, trimmed, non-empty slices of the revision text."""
    previous_end = 0
    for position, element in enumerate(extraction.elements):
        assert element.element_index == position
        assert previous_end <= element.char_start < element.char_end <= len(extraction.text)
        piece = extraction.text[element.char_start : element.char_end]
        assert piece == piece.strip() and piece
        previous_end = element.char_end


def element_texts(extraction: Extraction) -> list[str]:
    return [extraction.text[e.char_start : e.char_end] for e in extraction.elements]


# --- plain text -------------------------------------------------------------------------------


def test_every_cuad_contract_keeps_its_exact_text() -> None:
    files = sorted((cuad_dev_dir() / "contracts_txt").glob("*.txt"))
    assert len(files) == 205
    for file in files:
        data = file.read_bytes()
        extraction = run(file.name, data)
        assert extraction.text == data.decode("utf-8"), file.name
        assert_spans_exact(extraction)
        # Everything outside the elements is whitespace: no text is lost to the splitter.
        outside = []
        cursor = 0
        for element in extraction.elements:
            outside.append(extraction.text[cursor : element.char_start])
            cursor = element.char_end
        outside.append(extraction.text[cursor:])
        assert "".join(outside).strip() == "", file.name


def test_plain_text_keeps_crlf_and_builds_the_heading_path() -> None:
    text = (
        "MASTER SERVICES AGREEMENT\r\n\r\n"
        "This Agreement is made by Acme Inc. and Beta Ltd.\r\n\r\n"
        "ARTICLE I DEFINITIONS\r\n"
        "1.1 Scope\r\n"
        "The scope is the supply of widgets.\r\n"
        "It continues on a second line.\r\n\r\n\r\n"
        "ARTICLE II TERM\r\n"
        "The term is five years.\r\n"
    )
    extraction = run("contract.txt", text.encode())
    assert extraction.text == text
    assert_spans_exact(extraction)
    assert element_texts(extraction) == [
        "MASTER SERVICES AGREEMENT",
        "This Agreement is made by Acme Inc. and Beta Ltd.",
        "ARTICLE I DEFINITIONS",
        "1.1 Scope",
        "The scope is the supply of widgets.\r\nIt continues on a second line.",
        "ARTICLE II TERM",
        "The term is five years.",
    ]
    assert [e.is_heading for e in extraction.elements] == [True, False, True, True, False, True, False]
    assert [e.section for e in extraction.elements] == [
        ["MASTER SERVICES AGREEMENT"],
        ["MASTER SERVICES AGREEMENT"],
        ["ARTICLE I DEFINITIONS"],
        ["ARTICLE I DEFINITIONS", "1.1 Scope"],
        ["ARTICLE I DEFINITIONS", "1.1 Scope"],
        ["ARTICLE II TERM"],
        ["ARTICLE II TERM"],
    ]
    assert extraction.elements[4].char_start == text.index("The scope")


def test_a_capitalised_line_inside_a_paragraph_is_not_a_heading() -> None:
    text = "The parties are\nACME CORPORATION\nand its affiliates.\n"
    extraction = run("wrapped.txt", text.encode())
    assert element_texts(extraction) == [text.rstrip("\n")]
    assert extraction.elements[0].is_heading is False


def test_text_that_is_not_utf8_is_read_as_cp1252_and_says_so() -> None:
    data = b"The \x93Supplier\x94 shall deliver \x80 100 of goods."
    extraction = run("legacy.txt", data)
    assert extraction.text == "The \u201cSupplier\u201d shall deliver \u20ac 100 of goods."
    assert "cp1252" in extraction.normalisation
    assert element_texts(extraction) == [extraction.text]


# --- PDF --------------------------------------------------------------------------------------


def test_pdf_pages_and_spans() -> None:
    data = pdf_bytes(["The supplier delivers widgets.", "The buyer pays on delivery."])
    extraction = run("two-pages.pdf", data)
    assert extraction.text == "The supplier delivers widgets.\n\nThe buyer pays on delivery."
    assert_spans_exact(extraction)
    assert [e.page for e in extraction.elements] == [1, 2]


def test_pdf_with_an_empty_user_password_opens() -> None:
    data = pdf_bytes(["The supplier delivers widgets."], user="", owner="owner-secret")
    extraction = run("owner-only.pdf", data)
    assert extraction.text == "The supplier delivers widgets."
    assert "decrypted" in extraction.normalisation


def test_pdf_with_a_user_password_is_refused_as_encrypted() -> None:
    data = pdf_bytes(["Secret terms."], user="reader-secret", owner="owner-secret")
    assert failure("locked.pdf", data) == "encrypted"


def test_corrupt_pdf() -> None:
    noise = random.Random(7).randbytes(4000)
    message = failure("broken.pdf", b"%PDF-1.7\n" + noise)
    assert message.startswith("corrupt file: ")
    assert len(message) < 200


def pdf_with_lines(pages: list[list[str | tuple[float, str]]], *, in_form: bool) -> bytes:
    """A PDF with lines of 12 pt Helvetica, 14 pt apart, at x = 72 or at the x given with the line
    ("" leaves a blank line). With ``in_form`` each page draws its text inside a form XObject, as
    EDGAR filings do (22 of the 25 CUAD dev PDFs), which is where unstructured's fast strategy
    used to glue lines together."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name

    pdf = pikepdf.new()
    font = pdf.make_indirect(
        Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Helvetica)
    )
    for lines in pages:
        shown = []
        for row, entry in enumerate(lines):
            x, line = entry if isinstance(entry, tuple) else (72.0, entry)
            escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
            shown.append(f"1 0 0 1 {x} {720 - 14 * row} Tm ({escaped}) Tj")
        text = ("BT /F1 12 Tf " + " ".join(shown) + " ET").encode("latin-1")
        resources = Dictionary(Font=Dictionary(F1=font))
        if in_form:
            form = pdf.make_stream(
                text,
                Type=Name.XObject,
                Subtype=Name.Form,
                BBox=Array([0, 0, 612, 792]),
                Resources=resources,
            )
            text, resources = b"q /Fm0 Do Q", Dictionary(XObject=Dictionary(Fm0=form))
        page = Dictionary(
            Type=Name.Page,
            MediaBox=Array([0, 0, 612, 792]),
            Resources=resources,
            Contents=pdf.make_stream(text),
        )
        pdf.pages.append(pikepdf.Page(page))
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("in_form", [True, False], ids=["form-xobject", "page-content"])
def test_pdf_lines_keep_their_word_boundaries(in_form: bool) -> None:
    data = pdf_with_lines(
        [
            [
                "This Agreement shall be governed by and",
                "construed in accordance with the laws of the",
                "State of Delaware, without regard to third-",
                "party rights or the Non-",
                "Disclosure Agreement.",
                "",
                "The term is five years.",
            ],
            ["Notices go to the", "Supplier in writing."],
        ],
        in_form=in_form,
    )
    extraction = run("lines.pdf", data)
    assert element_texts(extraction) == [
        "This Agreement shall be governed by and construed in accordance with the laws of the "
        "State of Delaware, without regard to third-party rights or the Non-Disclosure Agreement.",
        "The term is five years.",
        "Notices go to the Supplier in writing.",
    ]
    assert extraction.text == "\n\n".join(element_texts(extraction))
    assert_spans_exact(extraction)
    assert [e.page for e in extraction.elements] == [1, 1, 2]


def test_pdf_paragraph_with_an_indented_first_line_is_one_element() -> None:
    """pdfminer puts an indented first line and a short second line in separate boxes (they are
    neither left nor right aligned); the second continues the first because its first word would
    not have fitted on the line above. A short heading line is not continued by what follows."""
    data = pdf_with_lines(
        [
            [
                (108.0, "Recipient wishes to engage the Provider for certain services and "
                 "resources"),
                "under this Agreement.",
                "",
                (90.0, "1. Services."),
                "The Provider delivers the Services.",
            ]
        ],
        in_form=True,
    )
    assert element_texts(run("indent.pdf", data)) == [
        "Recipient wishes to engage the Provider for certain services and resources under this "
        "Agreement.",
        "1. Services.",
        "The Provider delivers the Services.",
    ]


def test_pdf_line_joining_keeps_hyphenated_words_whole() -> None:
    from ingest.pdf_layout import join_lines

    assert join_lines(["governed by and\n", "construed  in\xa0accordance\n"]) == (
        "governed by and construed in accordance"
    )
    assert join_lines(["the termi-", "nation date"]) == "the termi-nation date"  # hyphen kept
    assert join_lines(["W-", "8IMY form"]) == "W-8IMY form"
    assert join_lines(["Section 5 -", "notices"]) == "Section 5 - notices"  # a dash, not a word
    assert join_lines(["the Company\u2014", "which"]) == "the Company\u2014 which"
    assert join_lines(["fees of $1,000-", "2,000"]) == "fees of $1,000- 2,000"
    assert join_lines(["   ", "only line "]) == "only line"


def test_cuad_pdf_words_keep_their_spaces_pages_and_offsets() -> None:
    """A CUAD filing whose pages are form XObjects: phrases that the fast strategy glued
    ("laws ofSingapore") read with their spaces, on the page where pdfminer finds them, and every
    element and chunk is an exact slice of the revision text."""
    from pdfminer.high_level import extract_text

    from tests.test_chunking import assert_chunk_invariants, chunk

    file = cuad_dev_dir() / "contracts_pdf" / "ABILITYINC_06_15_2020-EX-4.25-SERVICES AGREEMENT.PDF"
    data = file.read_bytes()
    extraction = run(file.name, data)
    assert_spans_exact(extraction)
    assert_chunk_invariants(extraction, chunk(extraction))
    expected_pages = {
        "IS BOTH (I) NOT MATERIAL AND (II) WOULD": 1,
        "under the laws of Singapore and Ability Computer": 1,
        "Provider desires to provide Recipient with the Services": 1,
        "may be amended or supplemented pursuant to": 1,
        "between the Parties and that all Services are provided by": 2,
        "2.3 Invoice Disputes. In the event of an Invoice dispute": 3,
    }
    for glued in ("NOTMATERIAL", "laws ofSingapore", "provideRecipient", "orsupplemented"):
        assert glued not in extraction.text
    pages: dict[int, str] = {}
    for phrase, page in expected_pages.items():
        start = extraction.text.index(phrase)
        (element,) = [
            e for e in extraction.elements if e.char_start <= start < e.char_end
        ]
        assert element.char_end >= start + len(phrase)
        assert element.page == page, phrase
        if page not in pages:
            pages[page] = "".join(extract_text(io.BytesIO(data), page_numbers=[page - 1]).split())
        assert "".join(phrase.split()) in pages[page]


# --- DOCX, HTML, Markdown, e-mail ----------------------------------------------------------------


def docx_bytes() -> bytes:
    import docx

    document = docx.Document()
    document.add_heading("1. Definitions", 1)
    document.add_paragraph("Affiliate means any entity controlling a party.")
    document.add_heading("1.1 Scope", 2)
    document.add_paragraph("The scope is the supply of widgets.")
    document.add_heading("2. Term", 1)
    document.add_paragraph("The term is five years.")
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_docx_elements_and_section_paths() -> None:
    data = docx_bytes()
    assert detect_type(Path("a.docx"), data) == MIME_DOCX
    assert detect_type(Path("no-extension"), data) == MIME_DOCX
    extraction = run("agreement.docx", data)
    assert_spans_exact(extraction)
    assert extraction.text == "\n\n".join(element_texts(extraction))
    assert element_texts(extraction) == [
        "1. Definitions",
        "Affiliate means any entity controlling a party.",
        "1.1 Scope",
        "The scope is the supply of widgets.",
        "2. Term",
        "The term is five years.",
    ]
    assert [e.section for e in extraction.elements] == [
        ["1. Definitions"],
        ["1. Definitions"],
        ["1. Definitions", "1.1 Scope"],
        ["1. Definitions", "1.1 Scope"],
        ["2. Term"],
        ["2. Term"],
    ]
    assert [e.is_heading for e in extraction.elements] == [True, False, True, False, True, False]


def test_html_elements_and_offsets() -> None:
    html = (
        "<!DOCTYPE html><html><body><h1>Supply Agreement</h1>"
        "<p>The supplier   delivers widgets.</p><h2>Payment</h2><p>The buyer pays in 30 days.</p>"
        "</body></html>"
    )
    assert detect_type(Path("page"), html.encode()) == MIME_HTML
    extraction = run("page.html", html.encode())
    assert extraction.text == (
        "Supply Agreement\n\nThe supplier delivers widgets.\n\nPayment\n\nThe buyer pays in 30 days."
    )
    assert_spans_exact(extraction)
    assert [e.section for e in extraction.elements] == [
        ["Supply Agreement"],
        ["Supply Agreement"],
        ["Supply Agreement", "Payment"],
        ["Supply Agreement", "Payment"],
    ]


def test_markdown_elements_and_offsets() -> None:
    markdown = "# Supply Agreement\n\nThe supplier delivers widgets.\n\n## Payment\n\nThe buyer pays.\n"
    assert detect_type(Path("notes.md"), markdown.encode()) == MIME_MARKDOWN
    extraction = run("notes.md", markdown.encode())
    assert extraction.text == (
        "Supply Agreement\n\nThe supplier delivers widgets.\n\nPayment\n\nThe buyer pays."
    )
    assert [e.char_start for e in extraction.elements] == [0, 18, 50, 59]
    assert extraction.elements[3].section == ["Supply Agreement", "Payment"]


def test_email_subject_heads_the_body() -> None:
    message = (
        b"From: alice@example.com\r\nTo: bob@example.com\r\n"
        b"Subject: Renewal of the supply contract\r\nDate: Mon, 1 Jan 2024 10:00:00 +0000\r\n"
        b"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        b"Hello Bob,\r\n\r\nThe supply contract renews on 1 March 2024.\r\n\r\nRegards, Alice\r\n"
    )
    assert detect_type(Path("mail"), message) == MIME_EMAIL
    extraction = run("renewal.eml", message)
    assert extraction.text == (
        "Renewal of the supply contract\n\nHello Bob,\n\n"
        "The supply contract renews on 1 March 2024.\n\nRegards, Alice"
    )
    assert_spans_exact(extraction)
    assert [e.is_heading for e in extraction.elements] == [True, False, False, False]
    assert all(e.section == ["Renewal of the supply contract"] for e in extraction.elements)


# --- types and refusals -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "data", "mime"),
    [
        ("a.pdf", b"%PDF-1.7\n", MIME_PDF),
        ("a.PDF", b"%PDF-1.7\n", MIME_PDF),
        ("scan", b"%PDF-1.4\n", MIME_PDF),
        ("a.txt", b"plain words", MIME_TEXT),
        ("README", b"plain words", MIME_TEXT),
        ("a.md", b"# Title", MIME_MARKDOWN),
        ("a.htm", b"<p>x</p>", MIME_HTML),
        ("a.eml", b"Subject: x\r\n\r\nbody", MIME_EMAIL),
    ],
)
def test_detect_type(name: str, data: bytes, mime: str) -> None:
    assert detect_type(Path(name), data) == mime


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("random.bin", random.Random(1).randbytes(512), "unsupported type: .bin"),
        ("sheet.xlsx", b"PK\x03\x04rest", "unsupported type: .xlsx"),
        ("blob", b"\x00\x01\x02binary", "unsupported type: application/octet-stream"),
        ("notes.txt", b"PK\x03\x04\x00\x00", "unsupported type: application/zip"),
    ],
)
def test_unsupported_types(name: str, data: bytes, message: str) -> None:
    with pytest.raises(ExtractionError) as caught:
        detect_type(Path(name), data)
    assert str(caught.value) == message


@pytest.mark.parametrize("name", ["empty.txt", "empty.pdf", "empty.docx", "blank.md"])
def test_empty_files_have_no_text(name: str) -> None:
    data = b"" if name.startswith("empty") else b"  \n\n \t\n"
    assert failure(name, data) == "no extractable text"


def zip_with(member: str, size: int) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        with archive.open(member, "w", force_zip64=True) as stream:
            block = b"\x00" * (1024 * 1024)
            for _ in range(size // len(block)):
                stream.write(block)
    return buffer.getvalue()


def test_zip_bomb_over_the_unpacked_limit() -> None:
    bomb = zip_with("word/document.xml", 5 * 1024 * 1024)
    assert len(bomb) < 100 * 1024
    message = failure("bomb.docx", bomb, limit=1024 * 1024)
    assert message == "too large: unpacked size exceeds limit"


def test_zip_bomb_by_compression_ratio_under_the_limit() -> None:
    bomb = zip_with("word/document.xml", 11 * 1024 * 1024)
    assert failure("bomb.docx", bomb, limit=LIMIT) == "too large: unpacked size exceeds limit"


def test_docx_that_is_not_a_zip_is_corrupt() -> None:
    assert failure("broken.docx", b"this is not a zip") == "corrupt file: not a valid zip archive"


def test_docx_zip_without_a_document_is_corrupt() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "hi")
    assert failure("empty-package.docx", buffer.getvalue()).startswith("corrupt file: ")


def test_encrypted_docx_in_an_ole_container() -> None:
    # Office saves a password-protected .docx as an OLE compound file with an EncryptedPackage
    # stream; the fixture is a real (minimal) OLE file, read by olefile like an Office one.
    assert failure("locked.docx", ole_file("EncryptedPackage")) == "encrypted"


def test_legacy_doc_renamed_to_docx() -> None:
    message = failure("old.docx", ole_file("WordDocument"))
    assert message == "unsupported type: application/msword"


def test_ole_magic_with_a_damaged_body_is_corrupt() -> None:
    data = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 100
    assert failure("damaged.docx", data).startswith("corrupt file: damaged OLE container")
