"""Agreement title shapes that ``bench/title_shapes.py`` found failing (issue 9, titles on
contracts Attest has never seen): each with its exact title, the exact span it was read from,
and, for documents under a parent agreement, the ``amends`` / ``schedule_of`` reading. The last
tests ingest a statement of work into a real KB and check that it never answers for its parent."""

from __future__ import annotations

from typing import Iterator

import pytest

from ingest.agreements import agreement_names, amendment_of, find_title, parent_amendment
from tests.kb import KB, OPERATOR, ingested_kb

PREAMBLE = (
    ' (the "Agreement") is entered into as of March 1, 2021 by and between Halcyon Systems, Inc. ("Halcyon") '
    'and Brookfield Analytics LLC ("Brookfield").\n\nRECITALS\n\nWHEREAS, Halcyon develops software.\n'
)


def _title(text: str) -> tuple[str, int, int]:
    title, _ = agreement_names(text)
    assert title is not None
    return title.text, title.start, title.end


def test_a_terms_and_conditions_heading_with_a_tail_is_the_title() -> None:
    text = "Terms and Conditions of Sale\n\n1. Acceptance. These terms govern every sale by Halcyon Systems, Inc.\n"
    assert _title(text) == ("Terms and Conditions of Sale", 0, 28)
    # Capitals throughout, with words before it, alike.
    text = "STANDARD TERMS AND CONDITIONS FOR SERVICES\n\n1. Scope. These terms apply to all orders.\n"
    assert _title(text) == ("STANDARD TERMS AND CONDITIONS FOR SERVICES", 0, 42)


@pytest.mark.parametrize(
    "heading",
    ["AGREEMENT AND PLAN OF MERGER", "AGREEMENT FOR THE SUPPLY OF GOODS", "Agreement for the Provision of Cleaning Services"],
)
def test_a_heading_that_starts_with_the_agreement_word_is_the_title(heading: str) -> None:
    text = f"Exhibit 2.1\n\n{heading}\n\nThis Agreement{PREAMBLE}"
    assert _title(text) == (heading, 13, 13 + len(heading))


def test_an_agreement_word_inside_a_heading_line_keeps_the_short_title_as_an_alias() -> None:
    # "X Agreement on Y" alone on its line: the whole heading is the title (titles_2: the
    # heading as the document shows it), and "X Agreement", the name CUAD gives such a contract,
    # an alias the gate matches.
    text = "Cooperation Agreement on Mobile Game Business\n\nThe parties hereby agree as follows.\n"
    assert _title(text) == ("Cooperation Agreement on Mobile Game Business", 0, 45)
    _, aliases = agreement_names(text)
    assert [(a.text, a.source, a.start, a.end) for a in aliases] == [("Cooperation Agreement", "heading", 0, 21)]


def test_a_prose_line_starting_with_agreement_is_no_heading() -> None:
    text = "Agreement is made on June 1, 2020 between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n"
    assert find_title(text) is None


def test_amended_and_restated_above_the_heading_joins_it() -> None:
    text = "AMENDED AND RESTATED\nSTRATEGIC ALLIANCE AGREEMENT\n\nThis Amended and Restated Strategic Alliance Agreement" + PREAMBLE
    title, aliases = agreement_names(text)
    assert title is not None and title.text == "AMENDED AND RESTATED STRATEGIC ALLIANCE AGREEMENT"
    assert (title.start, title.end) == (0, 49)
    # The preamble's name is the same title in other case: no alias, and never the title.
    assert aliases == []


def test_a_number_right_after_the_heading_is_part_of_the_title() -> None:
    text = "MASTER PURCHASE AGREEMENT NO. 2020-117\n\nThis Master Purchase Agreement" + PREAMBLE
    title, aliases = agreement_names(text)
    assert title is not None and (title.text, title.start, title.end) == ("MASTER PURCHASE AGREEMENT NO. 2020-117", 0, 38)
    assert ("MASTER PURCHASE AGREEMENT", "heading", 0, 25) in [(a.text, a.source, a.start, a.end) for a in aliases]


def test_a_number_without_a_digit_or_behind_a_label_colon_is_not_part_of_the_title() -> None:
    title, _ = agreement_names("SUPPLY AGREEMENT NO. FINAL\n\nThis Supply Agreement" + PREAMBLE)
    assert title is not None and title.text == "SUPPLY AGREEMENT"


def test_without_a_heading_the_preamble_name_for_itself_is_the_title() -> None:
    text = "This Agreement for the Supply of Goods" + PREAMBLE
    assert _title(text) == ("Agreement for the Supply of Goods", 5, 38)


def test_the_bare_agreement_heading_is_the_title_with_its_span() -> None:
    text = "\n   AGREEMENT\n\nTHIS AGREEMENT is made this 4th day of June, 2015 by and between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n"
    assert _title(text) == ("AGREEMENT", 4, 13)


def test_a_section_heading_after_the_preamble_paragraph_is_no_title() -> None:
    text = (
        'THIS AGREEMENT is made as of January 1, 2016 between Halcyon Systems, Inc. ("Halcyon") and Brookfield'
        ' Analytics LLC ("Brookfield").\n\nTERM\n\nThe term is one year.\n\nENTIRE AGREEMENT\n\nThis is the whole agreement.\n'
    )
    title, aliases = agreement_names(text)
    assert title is None and aliases == []
    # A heading inside the preamble's own paragraph still counts.
    text = "THIS SOFTWARE LICENSE AGREEMENT" + PREAMBLE
    assert _title(text) == ("SOFTWARE LICENSE AGREEMENT", 5, 31)


def test_a_lettered_schedule_names_its_parent() -> None:
    text = "SCHEDULE A TO MASTER SERVICES AGREEMENT\n\nPRICING\n\n1. Fees. Customer shall pay the fees below.\n"
    title, aliases = agreement_names(text)
    assert title is not None and (title.text, title.start, title.end) == ("SCHEDULE A TO MASTER SERVICES AGREEMENT", 0, 39)
    read = parent_amendment(title, aliases, text)
    assert read is not None
    assert (read[0].relation, read[0].number, read[0].parent, read[1], read[2]) == (
        "schedule_of", "A", "MASTER SERVICES AGREEMENT", 0, 39,
    )
    # "to" is no schedule's letter, and a lower-case letter is prose.
    assert amendment_of("Schedule to the Supply Agreement").number is None  # type: ignore[union-attr]
    assert amendment_of("Schedule a to the Supply Agreement").number is None  # type: ignore[union-attr]


SOW = (
    "STATEMENT OF WORK NO. 4\n\nThis Statement of Work No. 4 is entered into under the Master Services"
    " Agreement dated January 1, 2020 between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n\n"
    "1. Services. Brookfield shall deliver monthly analytics reports.\n\n2. Governing Law. This Statement of Work"
    " is governed by the laws of the State of New York.\n"
)


def test_a_statement_of_work_is_titled_by_its_heading_and_bound_to_the_parent_its_prose_names() -> None:
    title, aliases = agreement_names(SOW)
    assert title is not None and (title.text, title.start, title.end) == ("STATEMENT OF WORK NO. 4", 0, 23)
    read = parent_amendment(title, aliases, SOW)
    assert read is not None
    assert (read[0].relation, read[0].word, read[0].number, read[0].parent) == (
        "schedule_of", "statement of work", "4", "Master Services Agreement",
    )
    assert SOW[read[1] : read[2]] == "Master Services Agreement"


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "title-shapes-kb", {"sow": SOW})


def test_a_statement_of_work_never_answers_for_its_parent(kb: KB) -> None:
    parties = "between Halcyon Systems, Inc. and Brookfield Analytics LLC"
    docs, _ = kb.docs(f"What law governs the Master Services Agreement {parties}?")
    assert docs == set()
    (agreement,) = kb.store.find_subjects(OPERATOR, type="agreement", limit=5)
    assert agreement.name == "STATEMENT OF WORK NO. 4"
    bindings = [(b.relation, b.object_id, SOW[b.char_start : b.char_end]) for b in agreement.bindings if b.relation == "schedule_of"]
    assert bindings == [("schedule_of", "agreement:master services agreement", "Master Services Agreement")]
    # Through the whole evidence machine: the parent is refused, the statement of work found.
    report = kb.ask(f"What law governs the Master Services Agreement {parties}?")
    assert report.state == "SUBJECT_NOT_FOUND" and report.candidate_subjects == []
    report = kb.ask(f"What law governs the Statement of Work No. 4 {parties}?")
    assert report.state == "CONCLUDED"
    assert [c.subject_id for c in report.candidate_subjects] == ["agreement:statement of work no 4@sow"]
    report = kb.ask(f"What law governs the Statement of Work No. 5 {parties}?")
    assert report.state == "SUBJECT_NOT_FOUND" and report.candidate_subjects == []


@pytest.mark.parametrize(
    ("opening", "title", "start"),
    [
        ("Exhibit 10.9\n\nMEMORANDUM OF UNDERSTANDING\n\nThis Memorandum of Understanding is entered into as of May 2, 2019"
         " by and between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n", "MEMORANDUM OF UNDERSTANDING", 14),
        ("OFFICE LEASE\n\nThis Office Lease is made as of April 1, 2017 between Harbor Point Properties LLC and Halcyon"
         " Systems, Inc.\n", "OFFICE LEASE", 0),
        ("Letter of Intent\n\nMarch 3, 2020\n\nDear Mr. Patel:\n\nThis letter sets out the proposed terms.\n", "Letter of Intent", 0),
    ],
)
def test_a_contract_titled_without_an_agreement_word_is_titled_by_its_heading(opening: str, title: str, start: int) -> None:
    assert _title(opening) == (title, start, start + len(title))


def test_an_instrument_word_after_the_preamble_or_in_prose_is_no_title() -> None:
    after = (
        "This instrument is made on June 1, 2018 between Halcyon Systems, Inc. and Brookfield Analytics LLC.\n"
        "GRANT OF LICENSE\n\nHalcyon grants Brookfield a licence.\n"
    )
    assert agreement_names(after) == (None, [])
    # A heading that ends in "Agreement" wins over an instrument line above it.
    text = "SOFTWARE LICENSE\n\nSOFTWARE LICENSE AGREEMENT\n\nThis Software License Agreement" + PREAMBLE
    assert _title(text) == ("SOFTWARE LICENSE AGREEMENT", 18, 44)


def test_a_title_case_heading_split_over_two_lines_is_one_title() -> None:
    text = "Master Software License and\nServices Agreement\n\nThis Agreement" + PREAMBLE
    title, _ = agreement_names(text)
    assert title is not None and title.text == "Master Software License and Services Agreement"
    assert (title.start, title.end) == (0, 46) and text[title.start : title.end] == "Master Software License and\nServices Agreement"
    # Two title-case lines that each stand alone are not joined.
    text = "Halcyon Systems Confidential\nServices Agreement\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("Services Agreement", 29, 47)


def test_a_year_opening_the_heading_line_is_part_of_the_title() -> None:
    text = "2019 SALES AGENCY AGREEMENT\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("2019 SALES AGENCY AGREEMENT", 0, 27)
    # A page number before the heading is not.
    text = "2 SALES AGENCY AGREEMENT\n\nThis Agreement" + PREAMBLE
    assert _title(text) == ("SALES AGENCY AGREEMENT", 2, 24)


def test_the_agreement_word_alone_continued_by_a_joining_caps_line_is_one_title() -> None:
    text = "AGREEMENT\nFOR THE PROVISION OF CONSULTING SERVICES\n\nThis Agreement" + PREAMBLE
    title, _ = agreement_names(text)
    assert title is not None and title.text == "AGREEMENT FOR THE PROVISION OF CONSULTING SERVICES"
    assert (title.start, title.end) == (0, 50)
    # "BETWEEN" below it opens the party list, not the title.
    text = "AGREEMENT\nBETWEEN HALCYON SYSTEMS, INC. AND BROOKFIELD ANALYTICS LLC\n\nTHIS AGREEMENT is made on June 1, 2020.\n"
    assert _title(text) == ("AGREEMENT", 0, 9)


@pytest.mark.parametrize("sub_heading", ["TERMS AND CONDITIONS", "General Terms and Conditions"])
def test_a_terms_and_conditions_sub_heading_under_the_agreement_heading_is_not_the_title(sub_heading: str) -> None:
    text = f"MASTER SERVICES AGREEMENT\n\n{sub_heading}\n\nThis Master Services Agreement" + PREAMBLE
    title, aliases = agreement_names(text)
    assert title is not None and (title.text, title.start, title.end) == ("MASTER SERVICES AGREEMENT", 0, 25)
    # Alone above the preamble it is the title.
    text = f"{sub_heading}\n\nThis Agreement" + PREAMBLE
    assert _title(text) == (sub_heading, 0, len(sub_heading))


def test_every_opening_of_the_title_probe_comes_out_exactly() -> None:
    # bench/title_shapes.py is the generalisation probe these tests come from: it stays at 100%.
    from bench.title_shapes import CASES, check

    assert len(CASES) >= 30
    assert {name: problem for name, (text, title, relation) in CASES.items() if (problem := check(text, title, relation))} == {}
