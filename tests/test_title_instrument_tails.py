"""Titles that go on past the agreement word (issue 9, titles): an instrument word closing the
heading's line ("LICENSE AGREEMENT AMENDMENT NO. 2", "PUBLISHING AGREEMENT TERM SHEET"),
title-case lines continuing a title-case heading ("... Agreement\\nFor the ... Technology"), a
contract number or year closing the heading, and a run-in heading's caps tail.
An amendment so titled is an amendment of the agreement before its amendment word, never that
agreement: the gate keeps the two apart. Names and texts are invented."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.agreements import agreement_names, amendment_of
from tests.kb import KB, ingested_kb

PREAMBLE = (
    " is entered into on June 15, 2016 by and between Kestrel Optics, Inc. (\"Kestrel\") and Marlow Devices LLC"
    " (\"Marlow\").\n\n1. Terms.\n"
)


def _names(text: str) -> tuple[tuple[str, int, int], list[str]]:
    title, aliases = agreement_names(text)
    assert title is not None
    return (title.text, title.start, title.end), [a.text for a in aliases]


# -- an instrument word after the agreement word, on the heading's line ------------------------------


@pytest.mark.parametrize(
    ("heading", "word", "number", "parent"),
    [
        ("LICENSE AGREEMENT AMENDMENT NO. 2", "amendment", "2", "LICENSE AGREEMENT"),
        ("Supply Agreement Addendum", "addendum", None, "Supply Agreement"),
        ("MASTER SERVICES AGREEMENT SCHEDULE 4", "schedule", "4", "MASTER SERVICES AGREEMENT"),
    ],
)
def test_an_amendment_word_closing_the_heading_line_makes_the_title_an_amendment(
    heading: str, word: str, number: str | None, parent: str
) -> None:
    title, aliases = _names(heading + "\n\nThis document" + PREAMBLE)
    assert title == (heading, 0, len(heading))
    # The bare agreement heading names the parent, never this document.
    assert parent not in aliases
    amendment = amendment_of(heading)
    assert amendment is not None
    assert (amendment.word, amendment.number, amendment.parent) == (word, number, parent)


def test_a_term_sheet_or_extension_after_the_agreement_word_is_the_title() -> None:
    assert _names("PUBLISHING AGREEMENT TERM SHEET\n\nThis term sheet" + PREAMBLE)[0] == (
        "PUBLISHING AGREEMENT TERM SHEET", 0, 31,
    )
    assert _names("DISTRIBUTORSHIP AGREEMENT EXTENSION\n\nThis extension" + PREAMBLE)[0] == (
        "DISTRIBUTORSHIP AGREEMENT EXTENSION", 0, 35,
    )
    # Neither is an amendment: the words are not amendment words.
    assert amendment_of("PUBLISHING AGREEMENT TERM SHEET") is None


def test_an_instrument_word_in_another_case_or_a_party_list_is_not_the_title() -> None:
    # A title-case word after a caps heading is no part of it; a party list never is.
    assert _names("LICENSE AGREEMENT Amendment\n\nThis document" + PREAMBLE)[0][0] == "LICENSE AGREEMENT"
    assert _names("LICENSE AGREEMENT BETWEEN KESTREL AND MARLOW\n\nThis License Agreement" + PREAMBLE)[0][0] == (
        "LICENSE AGREEMENT"
    )
    assert amendment_of("LICENSE AGREEMENT Amendment") is None
    assert amendment_of("the License Agreement amendment") is None
    assert amendment_of("Settlement Agreement and Amendment") is None
    assert amendment_of("License Agreement") is None


def test_an_amendment_after_its_agreement_compares_alike_with_one_before_it() -> None:
    from service.evidence.titles import amendment_key

    assert amendment_key("LICENSE AGREEMENT AMENDMENT NO. 2") == amendment_key("Amendment No. 2 to the License Agreement")
    assert amendment_key("Lease Agreement Amendment IV") == amendment_key("Fourth Amendment to Lease Agreement")


# -- title-case lines under a title-case heading ----------------------------------------------------


def test_title_case_lines_that_continue_a_heading_are_the_title() -> None:
    text = "Exclusive Licensing Agreement\nFor the Harvest Technology\nof Blue Lotus Seeds\nLicensor: Kestrel Optics, Inc.\n" + (
        "Licensee: Marlow Devices LLC\n\nThis Agreement" + PREAMBLE
    )
    assert _names(text)[0] == ("Exclusive Licensing Agreement For the Harvest Technology of Blue Lotus Seeds", 0, 76)


def test_at_most_two_lines_continue_a_title_case_heading() -> None:
    # The bound: a third continuation line is left out, however it opens.
    text = "Exclusive Licensing Agreement\nFor the Harvest Technology\nof Blue Lotus Seeds\nand Their Oils\n\nThis Agreement" + PREAMBLE
    assert _names(text)[0] == ("Exclusive Licensing Agreement For the Harvest Technology of Blue Lotus Seeds", 0, 76)


def test_a_joining_word_ending_the_heading_line_carries_it_onto_the_next() -> None:
    text = "Agency Agreement For\nDistribution of 2019\nParty A: Kestrel Optics, Inc.\nParty B: Marlow Devices LLC\n\nThis Agreement" + PREAMBLE
    assert _names(text)[0] == ("Agency Agreement For Distribution of 2019", 0, 41)


def test_a_dangling_and_carries_the_title_onto_the_next_line() -> None:
    text = "Settlement Agreement and\nMutual Release\n\nThis Settlement Agreement and Mutual Release" + PREAMBLE
    assert _names(text)[0] == ("Settlement Agreement and Mutual Release", 0, 39)


def test_a_dangling_joining_word_carries_the_title_onto_a_company_name() -> None:
    text = "Sino-foreign Joint Venture Contract for\nQuartz Lotus Foods Company Limited\nArticle 1 Introduction\n1.1 Kestrel Optics, Inc. and Marlow Devices LLC agree.\n"
    assert _names(text)[0] == ("Sino-foreign Joint Venture Contract for Quartz Lotus Foods Company Limited", 0, 74)


@pytest.mark.parametrize(
    "below",
    [
        "With Marlow Devices",  # the party the agreement is with, named again below
        "for Marlow Devices Limited",  # a company's name
        "Dated June 15, 2016",  # a date line
        "between Kestrel and Marlow",  # a party list
    ],
)
def test_a_line_below_that_names_a_party_or_a_date_is_no_title(below: str) -> None:
    text = f"Consulting Agreement\n{below}\n\nThis Agreement" + PREAMBLE + "Marlow Devices shall consult.\n"
    assert _names(text)[0][0] == "Consulting Agreement"


# -- a number or year closing the heading; a run-in heading's tail ------------------------------------


def test_a_contract_number_alone_on_the_line_below_is_part_of_the_title() -> None:
    text = (
        "EXCLUSIVE DISTRIBUTION AGREEMENT\n\nNo.2\n\nBY AND BETWEEN\n\nKESTREL OPTICS, INC.\n\nAND\n\n"
        "MARLOW DEVICES LLC\n\nThis Agreement" + PREAMBLE
    )
    title, aliases = _names(text)
    assert title == ("EXCLUSIVE DISTRIBUTION AGREEMENT No.2", 0, 38)
    assert "EXCLUSIVE DISTRIBUTION AGREEMENT" in aliases


def test_a_year_closing_the_heading_line_is_part_of_the_title() -> None:
    text = "Addendum to the Supply Agreement of 2016\nentered into between\nKestrel Optics, Inc.\nand\nMarlow Devices LLC\n"
    title, aliases = _names(text)
    assert title == ("Addendum to the Supply Agreement of 2016", 0, 40)
    assert "Addendum to the Supply Agreement" in aliases


@pytest.mark.parametrize("below", ["No. FINAL", "1. Definitions", "Number of copies: 2"])
def test_a_line_below_that_is_no_contract_number_is_no_title(below: str) -> None:
    assert _names(f"SUPPLY AGREEMENT\n\n{below}\n\nThis Supply Agreement" + PREAMBLE)[0][0] == "SUPPLY AGREEMENT"


def test_a_run_in_heading_goes_on_to_the_preambles_this() -> None:
    text = (
        "EX-10.20 3 a2041996zex-10_20.txt EXHIBIT 10.20 FOUNDRY AGREEMENT FOR SHARE HOLDERS This Foundry Agreement"
        " (this \"Agreement\")" + PREAMBLE.replace("\n", " ")
    )
    assert _names(text)[0][0] == "FOUNDRY AGREEMENT FOR SHARE HOLDERS"


@pytest.mark.parametrize(
    "tail",
    [
        "FOR KESTREL OPTICS, INC. This",  # a company's name
        "FOR SHARE HOLDERS DATED JUNE 1, 2016 This",  # a date
        "FOR SHARE HOLDERS made by",  # no "This" after it
    ],
)
def test_a_run_in_tail_that_names_a_company_or_a_date_is_no_title(tail: str) -> None:
    text = f"EXHIBIT 10.20 FOUNDRY AGREEMENT {tail} Foundry Agreement (this \"Agreement\")" + PREAMBLE.replace("\n", " ")
    assert _names(text)[0][0] == "FOUNDRY AGREEMENT"


# -- the gate keeps an amendment so titled apart from its parent ------------------------------------

GOVERNED = "\n\nGoverning Law\n\nThis {what} shall be governed by the laws of the State of {state}.\n"
DOCS = {
    "license": "LICENSE AGREEMENT\n\nThis License Agreement" + PREAMBLE + GOVERNED.format(what="Agreement", state="Oregon"),
    "license-amendment-2": (
        "LICENSE AGREEMENT AMENDMENT NO. 2\n\nThis Amendment" + PREAMBLE + GOVERNED.format(what="Amendment", state="Nevada")
    ),
}
PARTIES = "between Kestrel Optics, Inc. and Marlow Devices LLC"


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "tail-kb", DOCS)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("License Agreement", ["agreement:license agreement@license"]),
        ("License Agreement Amendment No. 2", ["agreement:license agreement amendment no 2@license-amendment-2"]),
        ("Amendment No. 2 to the License Agreement", ["agreement:license agreement amendment no 2@license-amendment-2"]),
        ("Amendment No. 3 to the License Agreement", []),
    ],
)
def test_the_parent_and_its_amendment_are_never_taken_for_each_other(kb: KB, title: str, expected: list[str]) -> None:
    report = kb.ask(f"What law governs the {title} {PARTIES}?")
    assert [c.subject_id for c in report.candidate_subjects] == expected
    if expected:
        state = "oregon" if expected[0].endswith("@license") else "nevada"
        assert [c.value for c in report.claims] == [{"type": "jurisdiction", "value": state}]
