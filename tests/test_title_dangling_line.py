"""A heading broken after a joining word ("TERM LOAN AND\\nREVOLVING CREDIT FACILITY AGREEMENT",
"Chief Executive’s\\nService Agreement"): the line above ends in a word that cannot end a title,
so it is the heading's first line, with no repetition in the text needed as proof (stop 22, from
realE's reading set). Invented names and texts; each test asserts the exact title and its span."""

from __future__ import annotations

from tests.test_title_shapes_d import _span
from tests.test_title_shapes_more import _title


def test_a_caps_line_ending_in_and_is_the_headings_first_line() -> None:
    # A facilities cover: the date above, the party list below, no repetition anywhere.
    text = (
        "Exhibit 4(h)\n\nDATED 3 MAY 2019\n\nTERM LOAN AND\nREVOLVING CREDIT FACILITIES\n\nBetween\n\n"
        "ZARVIX LABS LIMITED\nas Borrower\n"
    )
    assert _title(text) == ("TERM LOAN AND REVOLVING CREDIT FACILITIES", *_span(text, "TERM LOAN", "FACILITIES"))


def test_a_possessive_line_above_a_title_case_heading_is_its_first_line() -> None:
    # A bilingual cover: the other language's heading on the lines above.
    text = (
        "Dienstvertrag\nChief Executive’s\nService Agreement\nbetween\nHarrowgate GmbH\nand\nLena Vostrikova\n\n"
        "1. Appointment. The Company appoints the Executive.\n"
    )
    assert _title(text) == ("Chief Executive’s Service Agreement", *_span(text, "Chief", "Service Agreement"))
    text = (
        "Exhibit 10.5\n|\nGeschäftsführer-\nzwischen\n|\nChief Executive’s\nService Agreement\nbetween\n|\n"
        "Harrowgate GmbH\n\n1. Appointment.\n"
    )
    assert _title(text) == ("Chief Executive’s Service Agreement", *_span(text, "Chief", "Service Agreement"))


def test_a_label_or_a_name_above_the_heading_still_joins_nothing() -> None:
    # Neither ends in a joining word, and neither is repeated with the heading.
    for above in ("CONFIDENTIAL", "ZARVIX LABS LIMITED"):
        text = (
            f"{above}\nSUPPLY AGREEMENT\n\n"
            "This Supply Agreement is made on 3 May 2019 between Zarvix Labs Limited and Quorra Systems Limited.\n"
        )
        assert _title(text) == ("SUPPLY AGREEMENT", *_span(text, "SUPPLY", "AGREEMENT")), above


def test_a_prose_line_ending_in_of_is_no_heading_line() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nThe parties record the terms of\nSupply Agreement No. 4 below.\n\n"
        "This Supply Agreement is made on 3 May 2019 between Zarvix Labs Limited and Quorra Systems Limited.\n"
    )
    assert _title(text) == ("SUPPLY AGREEMENT", *_span(text, "SUPPLY", "AGREEMENT"))


def test_a_continuation_line_after_one_blank_line_continues_the_heading() -> None:
    # A filing converted with a blank line after every line, as above a heading.
    text = (
        "Agreement No.\n\nPATENT LICENSE AGREEMENT\n\nWITH SUBLICENSING TERMS\n\n\nTABLE OF CONTENTS\n\n"
        "Section 1.\n\nDefinitions\n\nThis Agreement is made between Zarvix Labs Limited and Quorra Systems Limited.\n"
    )
    assert _title(text) == ("PATENT LICENSE AGREEMENT WITH SUBLICENSING TERMS", *_span(text, "PATENT", "TERMS"))


def test_two_blank_lines_or_a_party_after_with_end_the_heading() -> None:
    text = (
        "PATENT LICENSE AGREEMENT\n\n\nWITH SUBLICENSING TERMS\n\n"
        "This Agreement is made between Zarvix Labs Limited and Quorra Systems Limited.\n"
    )
    assert _title(text) == ("PATENT LICENSE AGREEMENT", *_span(text, "PATENT", "LICENSE AGREEMENT"))
    # "WITH" a party the preamble names again: the other party, not the title's terms.
    text = (
        "CONSULTING AGREEMENT\n\nWITH QUORRA SYSTEMS LIMITED\n\n"
        "This Agreement is made between Zarvix Labs Limited and Quorra Systems Limited.\n"
    )
    assert _title(text) == ("CONSULTING AGREEMENT", *_span(text, "CONSULTING", "AGREEMENT"))
