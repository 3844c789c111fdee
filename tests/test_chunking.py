"""Chunking with the real tokenizer: exact offsets, the token limit, structure and pages."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from ingest.chunking import ChunkSpan, chunk_extraction, count_tokens_batch_for
from ingest.embedder import default_embedder
from ingest.extract import ElementSpan, Extraction, detect_type, extract
from ingest.sentences import sentence_spans
from ingest.settings import Settings
from tests.helpers import cuad_dev_dir, pdf_bytes

MAX_TOKENS = Settings().chunk_max_tokens


def count_tokens(text: str) -> int:
    return default_embedder().count_tokens(text)


def chunk(extraction: Extraction, max_tokens: int = MAX_TOKENS) -> list[ChunkSpan]:
    batch = count_tokens_batch_for(default_embedder())
    return chunk_extraction(extraction, count_tokens, max_tokens, count_tokens_batch=batch)


def uncovered_element_text(extraction: Extraction, chunks: list[ChunkSpan]) -> str:
    """Element text that no chunk covers (chunks are ordered and disjoint)."""
    missing: list[str] = []
    index = 0
    for element in extraction.elements:
        cursor = element.char_start
        while index < len(chunks) and chunks[index].char_end <= cursor:
            index += 1
        probe = index
        while cursor < element.char_end:
            if probe < len(chunks) and chunks[probe].char_start < element.char_end:
                current = chunks[probe]
                missing.append(extraction.text[cursor : max(cursor, current.char_start)])
                cursor = max(cursor, current.char_end)
                probe += 1
            else:
                missing.append(extraction.text[cursor : element.char_end])
                cursor = element.char_end
    return "".join(missing)


def assert_chunk_invariants(
    extraction: Extraction, chunks: list[ChunkSpan], max_tokens: int = MAX_TOKENS
) -> None:
    text = extraction.text
    previous_end = 0
    # Lines before previous_end, kept running so the check is text.count("\n", 0, offset) + 1
    # without rescanning the text from the start for every chunk.
    newlines_before = 0
    for ordinal, piece in enumerate(chunks):
        assert piece.ordinal == ordinal
        assert previous_end <= piece.char_start < piece.char_end <= len(text)
        body = text[piece.char_start : piece.char_end]
        assert body == body.strip()
        assert count_tokens(body) <= max_tokens, (ordinal, count_tokens(body))
        at_start = newlines_before + text.count("\n", previous_end, piece.char_start)
        assert piece.line_start == at_start + 1
        assert piece.line_end == at_start + body.count("\n", 0, len(body) - 1) + 1
        newlines_before = at_start + body.count("\n")
        previous_end = piece.char_end
    assert uncovered_element_text(extraction, chunks).strip() == ""


def test_every_cuad_contract_chunks_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted((cuad_dev_dir() / "contracts_txt").glob("*.txt"))
    assert len(files) == 205
    started, cpu_started = time.perf_counter(), time.process_time()
    n_chunks = covered = total = 0
    for file in files:
        data = file.read_bytes()
        extraction = extract(
            file, data, detect_type(file, data), max_unpacked_bytes=Settings().max_unpacked_bytes
        )
        assert extraction.text == data.decode("utf-8")
        chunks = chunk(extraction)
        assert_chunk_invariants(extraction, chunks)
        n_chunks += len(chunks)
        total += sum(len("".join(extraction.text[e.char_start : e.char_end].split()))
                     for e in extraction.elements)
        covered += sum(len("".join(extraction.text[c.char_start : c.char_end].split()))
                       for c in chunks)
    with capsys.disabled():
        print(
            f"\n{len(files)} CUAD contracts: {n_chunks} chunks, {covered}/{total} non-whitespace "
            f"element characters in chunks, {time.perf_counter() - started:.1f} s "
            f"({time.process_time() - cpu_started:.1f} s CPU) with checks"
        )
    assert covered == total


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.slow
def test_cuad_pdf_chunks_are_on_their_page(capsys: pytest.CaptureFixture[str]) -> None:
    """Each element's part of a chunk appears on the chunk's page as pdfminer reads that page.

    The page is read by pdfminer's own ``extract_text`` for that page alone, with the layout
    parameters extraction uses (``ingest.pdf_layout.layout_params``: text lines inside form
    XObjects, boxes top to bottom); with pdfminer's defaults the characters of a form XObject
    come out in drawing order, not in paragraphs. Whitespace is removed on both sides because a
    paragraph's lines are joined with a space where pdfminer puts a newline. The check is per
    element; how many whole chunks are one contiguous run of the page text is printed too.
    """
    from pdfminer.high_level import extract_text

    from ingest.pdf_layout import layout_params

    files = sorted((cuad_dev_dir() / "contracts_pdf").iterdir())
    assert len(files) == 25
    pieces = matched = whole = n_chunks = 0
    misses: list[str] = []
    for file in files:
        data = file.read_bytes()
        extraction = extract(file, data, detect_type(file, data), max_unpacked_bytes=1 << 29)
        chunks = chunk(extraction)
        assert_chunk_invariants(extraction, chunks)
        pages: dict[int, str] = {}
        for piece in chunks:
            assert piece.page is not None
            if piece.page not in pages:
                page_text = extract_text(
                    str(file), page_numbers=[piece.page - 1], laparams=layout_params()
                )
                pages[piece.page] = squash(page_text)
            page = pages[piece.page]
            n_chunks += 1
            whole += squash(extraction.text[piece.char_start : piece.char_end]) in page
            for element in extraction.elements:
                if element.char_start < piece.char_end and element.char_end > piece.char_start:
                    start = max(element.char_start, piece.char_start)
                    part = extraction.text[start : min(element.char_end, piece.char_end)]
                    pieces += 1
                    if squash(part) in page:
                        matched += 1
                    else:
                        misses.append(f"{file.name} p{piece.page}: {part[:80]!r}")
    with capsys.disabled():
        print(
            f"\n25 CUAD PDFs: {matched}/{pieces} chunk parts on their page, "
            f"{whole}/{n_chunks} whole chunks contiguous in the page text"
        )
    assert not misses, misses[:10]


def test_pdf_chunks_never_cross_pages() -> None:
    data = pdf_bytes(["The supplier delivers widgets.", "The buyer pays on delivery."])
    extraction = extract(Path("a.pdf"), data, "application/pdf", max_unpacked_bytes=1 << 20)
    chunks = chunk(extraction)
    assert [(c.page, extraction.text[c.char_start : c.char_end]) for c in chunks] == [
        (1, "The supplier delivers widgets."),
        (2, "The buyer pays on delivery."),
    ]


# --- structure, on hand-made extractions -------------------------------------------------------


def plain(text: str) -> Extraction:
    return extract(Path("t.txt"), text.encode(), "text/plain", max_unpacked_bytes=1 << 20)


def chunk_texts(extraction: Extraction, max_tokens: int = MAX_TOKENS) -> list[str]:
    chunks = chunk(extraction, max_tokens)
    assert_chunk_invariants(extraction, chunks, max_tokens)
    return [extraction.text[c.char_start : c.char_end] for c in chunks]


def test_a_heading_opens_the_chunk_under_it() -> None:
    extraction = plain(
        "ARTICLE I\nDEFINITIONS\n\nAffiliate means a controlled entity.\n\n"
        "ARTICLE II TERM\n\nThe term is five years. It renews yearly.\n"
    )
    chunks = chunk(extraction)
    assert [extraction.text[c.char_start : c.char_end] for c in chunks] == [
        "ARTICLE I\nDEFINITIONS\n\nAffiliate means a controlled entity.",
        "ARTICLE II TERM\n\nThe term is five years. It renews yearly.",
    ]
    assert [c.section for c in chunks] == [["ARTICLE I", "DEFINITIONS"], ["ARTICLE II TERM"]]
    assert [c.element_index for c in chunks] == [0, 3]
    assert [(c.line_start, c.line_end) for c in chunks] == [(1, 4), (6, 8)]


def test_chunks_fill_with_whole_sentences() -> None:
    sentences = [f"Clause {n} obliges the supplier to deliver goods on time." for n in range(40)]
    extraction = plain(" ".join(sentences))
    texts = chunk_texts(extraction, 40)
    assert len(texts) > 1
    for body in texts:
        assert body.startswith("Clause ") and body.endswith("on time.")
    # Greedy: adding the next sentence would have overflowed.
    for body, following in zip(texts, texts[1:]):
        first_sentence = following.split(" on time.")[0] + " on time."
        assert count_tokens(body + " " + first_sentence) > 40


def test_an_over_long_sentence_is_cut_at_clause_boundaries() -> None:
    clauses = "; ".join(f"the supplier shall deliver batch {n} to the buyer" for n in range(30))
    extraction = plain(f"Under this Agreement {clauses}.")
    texts = chunk_texts(extraction, 32)
    assert len(texts) > 1
    assert all(body.endswith(";") for body in texts[:-1])


def test_a_run_without_any_break_is_cut_to_fit() -> None:
    # "ab-" is two word pieces and there is no whitespace to cut at: 1200 pieces in one word.
    # (A long run of letters alone would not do: WordPiece makes any word over 100 characters
    # a single [UNK].)
    run_on = "ab-" * 600
    extraction = plain(f"Reference: {run_on} ends here.")
    texts = chunk_texts(extraction, 32)
    assert len(texts) >= 1200 // 32
    assert squash("".join(texts)) == squash(extraction.text)


def test_crlf_counts_as_one_line_break() -> None:
    extraction = plain("First paragraph.\r\n\r\nSECOND PART\r\nBody of the second part.\r\n")
    chunks = chunk(extraction)
    assert [(c.line_start, c.line_end) for c in chunks] == [(1, 1), (3, 4)]


def test_batch_counter_agrees_with_the_embedder() -> None:
    texts = ["", "Hello world.", "The Supplier's obligations (Section 4.2) survive.", "é" * 50]
    batch = count_tokens_batch_for(default_embedder())
    assert batch(texts) == [count_tokens(text) for text in texts]


def test_element_sections_follow_into_chunks_of_other_formats() -> None:
    elements = [
        ElementSpan(0, "Title", 0, 5, None, ["Scope"], True),
        ElementSpan(1, "NarrativeText", 7, 28, None, ["Scope"], False),
    ]
    extraction = Extraction("Scope\n\nWidgets are in scope.", elements, "test")
    chunks = chunk(extraction)
    assert [(c.char_start, c.char_end, c.section) for c in chunks] == [(0, 28, ["Scope"])]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Acme Inc. and Beta Ltd. agree. Payment is due in the U.S. Army base. Fine.",
            ["Acme Inc. and Beta Ltd. agree.", "Payment is due in the U.S. Army base.", "Fine."],
        ),
        (
            "See Section 2. Term applies. J. Smith signs. (b) The buyer pays!",
            ["See Section 2. Term applies.", "J. Smith signs.", "(b) The buyer pays!"],
        ),
        ("Article II. Definitions follow. No. 5 is void.", ["Article II. Definitions follow.",
                                                            "No. 5 is void."]),
    ],
)
def test_sentence_splitter(text: str, expected: list[str]) -> None:
    assert [text[a:b] for a, b in sentence_spans(text, 0, len(text))] == expected
