"""Agreement title shapes from a fourth set of real openings (issue 9, realD, read only to find
the general shape): a heading continued on the next line ("... OF AN", "WITH ..."), the agreement
word alone over "IN RELATION TO", a filing stamp before the title, a contents page run into the
cover line, instrument titles without an agreement word (a charter party, a facilities cover), a
running label over the heading the preamble repeats, and an amendment with no heading that names
itself "this ... Agreement". Invented names and texts throughout; each test asserts the exact
title and its span."""

from __future__ import annotations

from tests.test_title_shapes_more import _title  # the span's words, white space collapsed, are the title


def _span(text: str, first: str, last: str) -> tuple[int, int]:
    start = text.index(first)
    return start, text.index(last, start) + len(last)


def test_a_leading_agreement_title_ending_in_an_article_goes_on_over_the_next_line() -> None:
    text = (
        "AGREEMENT FOR THE SALE OF AN\nINDUSTRIAL BAKERY BUSINESS\n\n"
        "THIS AGREEMENT is made on 3 May 2019 between Zarvix Labs Limited and Quorra Systems Limited.\n"
    )
    assert _title(text) == (
        "AGREEMENT FOR THE SALE OF AN INDUSTRIAL BAKERY BUSINESS",
        *_span(text, "AGREEMENT FOR", "BUSINESS"),
    )


def test_an_article_ends_no_split_heading_that_does_not_open_with_the_agreement_word() -> None:
    # "EXHIBIT A" over a heading is a label: its "A" joins nothing.
    text = (
        "EXHIBIT A\nSUPPLY AGREEMENT\n\n"
        "This Supply Agreement is made on 3 May 2019 between Zarvix Labs Limited and Quorra Systems Limited.\n"
    )
    assert _title(text) == ("SUPPLY AGREEMENT", *_span(text, "SUPPLY", "AGREEMENT"))


def test_a_with_line_under_the_heading_continues_the_title() -> None:
    text = (
        "PATENT LICENSE AGREEMENT\nWITH DEVELOPMENT MILESTONES\n\n"
        "This Agreement is made on 3 May 2019 between Zarvix Labs, Inc. and Quorra Systems LLC.\n"
    )
    assert _title(text) == (
        "PATENT LICENSE AGREEMENT WITH DEVELOPMENT MILESTONES",
        *_span(text, "PATENT", "MILESTONES"),
    )


def test_a_with_line_naming_the_other_party_is_no_part_of_the_title() -> None:
    # The preamble names the person again: the line under the heading says who, not what.
    text = (
        "CONSULTING AGREEMENT\nWITH MARTA VELLIN\n\n"
        "This Agreement is made on 3 May 2019 between Zarvix Labs, Inc. and Marta Vellin.\n"
    )
    assert _title(text) == ("CONSULTING AGREEMENT", *_span(text, "CONSULTING", "AGREEMENT"))


def test_the_agreement_word_alone_over_in_relation_to_and_its_subject_is_one_title() -> None:
    text = (
        "AGREEMENT\nIN RELATION TO\nHARBOUR PILOTAGE SERVICES\n\nDated 3 May 2019\n\nZARVIX LABS LIMITED\n\n"
        "and\n\nQUORRA SYSTEMS LIMITED\n\nCONTENTS\n1. DEFINITIONS\n"
    )
    assert _title(text) == (
        "AGREEMENT IN RELATION TO HARBOUR PILOTAGE SERVICES",
        *_span(text, "AGREEMENT\nIN", "SERVICES"),
    )


def test_a_heading_line_opening_with_agreement_in_respect_of_is_a_title() -> None:
    text = (
        "AGREEMENT IN RESPECT OF THE SUPPLY OF TIMBER\n\n"
        "THIS AGREEMENT is made on 3 May 2019 between Zarvix Labs Limited and Quorra Systems Limited.\n"
    )
    assert _title(text) == (
        "AGREEMENT IN RESPECT OF THE SUPPLY OF TIMBER",
        *_span(text, "AGREEMENT IN", "TIMBER"),
    )


def test_a_filing_stamp_before_the_title_is_page_furniture() -> None:
    text = (
        "CONFORMED COPY\nAS EXECUTED - MASTER SUPPLY AGREEMENT\n\nThis Agreement is made on 3 May 2019 between"
        " Zarvix Labs, Inc. and Quorra Systems LLC.\n"
    )
    assert _title(text) == ("MASTER SUPPLY AGREEMENT", *_span(text, "MASTER", "AGREEMENT"))


def test_a_contents_page_run_into_the_cover_line_is_no_title() -> None:
    # Page numbers before the next entry's section number: the entries are a contents page, and
    # the cover line's agreement word before its party list is the title.
    text = (
        "AGREEMENT BETWEEN ZARVIX LABS, INC. AND QUORRA SYSTEMS LLC ARTICLE I INTERPRETATION 1 1.1 Definitions"
        " 1 1.2 Net Sales 2 1.3 Quorra Supply Agreement 3 1.4 Territory 4 ARTICLE II GRANT 4"
    )
    assert _title(text) == ("AGREEMENT", 0, 9)


def test_a_section_number_alone_does_not_make_a_title_a_contents_entry() -> None:
    text = "Version 2.1\n\nHosting Services Agreement\n\nThis Agreement is made between Zarvix Labs, Inc. and Quorra Systems LLC.\n"
    assert _title(text) == ("Hosting Services Agreement", *_span(text, "Hosting", "Agreement"))


def test_a_charter_party_heading_is_an_instrument_title_when_the_text_calls_itself_so() -> None:
    # "This" ends its line; the document names itself on the next.
    text = (
        "Exhibit 10.7\nVoyage Charter\nForm VC-2\nThis\n"
        "Voyage Charter, signed at Piraeus on 3 May 2019, lets the vessel of Zarvix Shipping Inc. (Owners) to"
        " Quorra Trading Ltd (Charterers).\n"
    )
    assert _title(text) == ("Voyage Charter", *_span(text, "Voyage", "Charter"))


def test_a_facilities_cover_over_its_party_list_is_titled_by_its_heading() -> None:
    text = (
        "REVOLVING CREDIT FACILITIES\n\nBetween\n\nZARVIX LABS LIMITED\n(the Borrower)\n\nand\n\n"
        "QUORRA BANK LIMITED\n(the Lender)\n"
    )
    assert _title(text) == ("REVOLVING CREDIT FACILITIES", *_span(text, "REVOLVING", "FACILITIES"))


def test_a_facility_heading_over_a_note_that_never_speaks_of_itself_is_no_title() -> None:
    text = "CREDIT FACILITY\nThe board discussed the loan with the bank today and will meet again in June.\n"
    assert _title(text) is None


def test_the_heading_the_preamble_repeats_under_its_rule_wins_over_a_running_label() -> None:
    text = (
        "                                   NORTHGATE CAMPUS LEASE\n\n"
        "                      OFFICE BUILDING LEASE\n"
        "                      =====================\n\n"
        '     This Office Building Lease is made and entered into as of May 3, 2019, between Zarvix Realty LLC'
        ' ("Landlord") and Quorra Systems LLC ("Tenant").\n'
    )
    assert _title(text) == ("OFFICE BUILDING LEASE", *_span(text, "OFFICE", "LEASE"))


def test_an_amendment_without_a_heading_is_named_by_this_not_by_the_agreement_it_cites() -> None:
    text = (
        "1. Clause 4 is deleted from the Supply Agreement with effect from 3 May 2019.\n"
        "2. Save as changed by this Variation Agreement, all other terms stay in force.\n"
    )
    start = text.index("Variation")
    assert _title(text) == ("Variation Agreement", start, start + len("Variation Agreement"))


def test_a_cited_agreement_stays_the_title_when_nothing_calls_itself_this() -> None:
    text = "1. Words defined in the Supply Agreement keep their meaning.\n"
    start = text.index("Supply")
    assert _title(text) == ("Supply Agreement", start, start + len("Supply Agreement"))


def _amendment_under_qualifier(qualifier: str) -> str:
    return (
        f"1 THIRD AMENDMENT TO SUBLEASE ({qualifier}) This Third Amendment to Sublease (\"Amendment\") is made and"
        ' entered into as of May 3, 2019 by and between Zarvix Labs, Inc. ("Sublandlord") and Quorra Systems LLC'
        ' ("Subtenant").'
    )


def test_a_short_qualifier_between_a_heading_and_the_preamble_repeating_it_keeps_the_heading() -> None:
    qualifier = "Harbor Point Building 4, Floors 2 and 3."  # at the bound: 40 characters
    assert len(qualifier) == 40
    text = _amendment_under_qualifier(qualifier)
    assert _title(text) == ("THIRD AMENDMENT TO SUBLEASE", 2, 29)


def test_a_qualifier_past_its_bound_is_no_part_of_the_heading_line() -> None:
    # One character more: the parenthesis is text, not a qualifier, and the preamble's own name
    # stands.
    text = _amendment_under_qualifier("Harbor Point Building 4, Floors 2 and 3.-")
    start = text.index("Third Amendment")
    assert _title(text) == ("Third Amendment to Sublease", start, start + len("Third Amendment to Sublease"))


def test_table_cell_bars_around_a_heading_line_are_layout() -> None:
    text = (
        "Exhibit 10.3\nHosting Agreement |\nDate: 3 May 2019 QUORRA SYSTEMS PTE LTD\nAttention: Dana Reyes\n"
        "HOSTING AGREEMENT BETWEEN\nZarvix Labs Pte Ltd and Quorra Systems Pte Ltd\nDear Sirs,\n"
        "Further to our discussions, this Hosting Agreement sets out the terms of the services.\n"
    )
    start = text.index("Hosting Agreement")
    assert _title(text) == ("Hosting Agreement", start, start + len("Hosting Agreement"))
