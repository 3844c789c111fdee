"""Agreement title shapes found failing on half A of two real held-out sets (issue 9: contract
openings read from public filings, kept outside the repo) and on the synthetic bench: an EDGAR
header line above the heading, a cover page's party list run into the title, a form's edition
after a dash, a British "THIS AGREEMENT is dated ..." line above the heading, a heading broken
over lines above or below its agreement word, and a preamble that names the document and defines
a term of that name when no heading has an agreement word. All texts here are invented; each
test asserts the exact title and span."""

from __future__ import annotations

from ingest.agreements import agreement_names, find_title, parent_amendment


def _title(text: str) -> tuple[str, int, int] | None:
    title, _ = agreement_names(text)
    return (title.text, title.start, title.end) if title else None


def test_an_edgar_header_line_is_furniture_above_the_heading() -> None:
    # No preamble clause ("is effective as of"): the first heading in the opening is the title.
    text = (
        "EX-10.4 2 ex104-supply.htm SUPPLY AGREEMENT Exhibit 10.4\n\nSUPPLY AND LICENSE AGREEMENT\n\n"
        "THIS SUPPLY AND LICENSE AGREEMENT is effective as of May 1, 2014 and is by and between Quarry Lane"
        " Foods, Inc. and Tamsin Brands LLC.\n"
    )
    assert _title(text) == ("SUPPLY AND LICENSE AGREEMENT", 58, 86)


def test_a_filing_run_into_one_line_keeps_its_heading_after_the_edgar_header() -> None:
    # The header's line is the whole filing here (over 200 characters): the heading on it counts.
    text = (
        'EX-10.9 3 file009.txt LOAN AGREEMENT EXHIBIT 10.9 LOAN AGREEMENT This Loan Agreement (the "Agreement")'
        " is made as of June 3, 2009 by and between Ridgeway Capital Partners, L.P., a Delaware limited"
        " partnership, and Osprey Marine Services, Inc., a Florida corporation, with reference to the facts below.\n"
    )
    assert _title(text) == ("LOAN AGREEMENT", 50, 64)


def test_a_cover_party_list_run_into_the_title_is_cut_at_its_last_party_word() -> None:
    text = (
        "ORCHARD MILLS INC. -and- THE LENDERS LISTED ON THE SIGNATURE PAGES ATTACHED HERETO FACILITY AGREEMENT"
        " as of May 2, 2015\n\nThis Agreement made as of the 2nd day of May, 2015, BETWEEN: Orchard Mills Inc."
        " -and- each Lender listed on the signature pages.\n"
    )
    assert _title(text) == ("FACILITY AGREEMENT", 83, 101)


def test_a_forms_edition_after_a_dash_is_not_part_of_the_title() -> None:
    text = (
        "CONTRACT FOR THE LEASE OF EQUIPMENT - 2012 EDITION\nLESSOR KESTREL PLANT HIRE PTY LTD\n"
        "LESSEE BRAMBLE CIVIL WORKS LIMITED\n"
    )
    assert _title(text) == ("CONTRACT FOR THE LEASE OF EQUIPMENT", 0, 35)


def test_the_heading_under_a_dated_line_is_the_title() -> None:
    text = (
        "THIS AGREEMENT is dated 3 March 2020\n\nDISTRIBUTION AGREEMENT\n\nBETWEEN:\n\n"
        '(1) HOLLOWAY & PRICE LIMITED (the "Supplier"); and\n\n(2) MERIDEN RETAIL LIMITED (the "Distributor").\n'
    )
    assert _title(text) == ("DISTRIBUTION AGREEMENT", 38, 60)


def test_a_dated_line_that_names_the_parties_is_a_preamble_not_a_line_above_the_heading() -> None:
    text = (
        "THIS AGREEMENT is dated 3 March 2020 between Holloway & Price Limited and Meriden Retail Limited.\n\n"
        "DISTRIBUTION AGREEMENT\n"
    )
    assert _title(text) is None


def test_a_heading_word_broken_onto_the_line_above_joins_when_the_text_repeats_it() -> None:
    text = (
        "Exhibit 10.2\nPREFERRED\nSTOCK PURCHASE AGREEMENT\nTHIS\nPREFERRED STOCK PURCHASE AGREEMENT"
        ' (this "Agreement") is made as of July 9, 2016 by and among Larkspur Devices, Inc. and the investors'
        " listed on Exhibit A.\n"
    )
    assert _title(text) == ("PREFERRED STOCK PURCHASE AGREEMENT", 13, 47)


def test_a_word_above_the_heading_that_the_text_does_not_repeat_stays_out() -> None:
    text = (
        'KESTREL\nSUPPLY AGREEMENT\nThis Supply Agreement (the "Agreement") is made as of July 9, 2016 by and'
        " between Kestrel Optics GmbH and Wren Medical, Inc.\n"
    )
    assert _title(text) == ("SUPPLY AGREEMENT", 8, 24)


def test_a_caps_line_continuing_the_heading_with_for_joins_it() -> None:
    text = (
        "Exhibit 10.14\nContract #: 4471\nTRANSPORTATION SERVICE AGREEMENT\nFOR RATE SCHEDULE FTS-2\n"
        "This Transportation Service Agreement, made and entered into this 4th day of May, 2001, by and between"
        " Granite Ridge Pipeline Company and Lakeview Gas Utilities, Inc.\n"
    )
    assert _title(text) == ("TRANSPORTATION SERVICE AGREEMENT FOR RATE SCHEDULE FTS-2", 31, 87)


def test_a_continuation_line_stops_before_a_party_list() -> None:
    text = (
        "LICENSE AGREEMENT\nBY AND BETWEEN\nSTARLING SOFTWARE, INC.\nAND\nBIRCHWOOD MEDIA LLC\n\n"
        "This License Agreement is made as of May 1, 2019.\n"
    )
    assert _title(text) == ("LICENSE AGREEMENT", 0, 17)


def test_an_amendment_of_a_sublease_names_itself_in_its_preamble() -> None:
    text = (
        'EXHIBIT 10.8 FIRST AMENDMENT TO SUBLEASE THIS FIRST AMENDMENT TO SUBLEASE (the "First Amendment") made'
        ' as of June 1, 2012, by and between Corvid Analytics LLC ("Sublandlord") and Plover Health, Inc.'
        ' ("Subtenant").\n'
    )
    assert _title(text) == ("FIRST AMENDMENT TO SUBLEASE", 46, 73)


def test_a_defined_term_without_this_or_the_still_names_the_amendment() -> None:
    text = (
        '1 THIRD AMENDMENT TO LEASE (Building 7) This Third Amendment to Lease ("Third Amendment") is made and'
        ' entered into as of May 22, 2003 by and between Marlow Land Company ("Landlord") and Tern Systems, Inc.'
        ' ("Tenant").\n'
    )
    # The heading as written is the title (a short parenthesised qualifier may stand between it and
    # the preamble that repeats it); the preamble repeats its words, so it adds no alias.
    title, aliases = agreement_names(text)
    assert title is not None and (title.text, title.start, title.end) == ("THIRD AMENDMENT TO LEASE", 2, 26)
    assert aliases == []


def test_an_assignment_defining_itself_by_its_first_word_is_titled_by_its_name() -> None:
    text = (
        'Exhibit 10.31\nASSIGNMENT OF PATENT RIGHTS\nTHIS ASSIGNMENT OF PATENT RIGHTS (this "Assignment") is'
        ' effective as of March 2, 2017 by and between Dunlin Labs, Inc. ("Assignor") and Dunlin IP Holdings'
        ' LLC ("Assignee").\n'
    )
    # (The heading line above shows the same name: it is the title's span.)
    assert _title(text) == ("ASSIGNMENT OF PATENT RIGHTS", 14, 41)


def test_a_company_name_defining_a_short_name_is_no_title() -> None:
    assert find_title('This Finch Holdings Inc. ("Finch") letter confirms our understanding.\n') is None


def _parent(text: str) -> tuple[str, str | None, int, int] | None:
    title, aliases = agreement_names(text)
    assert title is not None
    read = parent_amendment(title, aliases, text)
    return (read[0].relation, read[0].parent, read[1], read[2]) if read else None


def test_an_addendum_that_shall_amend_an_agreement_for_services_names_its_parent() -> None:
    text = (
        "Addendum No. 1\nThis Addendum No. 1 dated the 31st day of July, shall amend that certain Agreement for"
        ' Services (the "Agreement") originally dated July 1, 2023, by and between Heron Minerals Group and'
        " Stilt Public Affairs Inc.\n"
    )
    assert _title(text) == ("Addendum No. 1", 0, 14)
    assert _parent(text) == ("amends", "Agreement for Services", 88, 110)


def test_amend_before_a_defined_term_alone_names_no_parent() -> None:
    text = "ADDENDUM\nThe parties desire to amend the Lease as follows.\n"
    assert _parent(text) == ("amends", None, 0, 8)


def test_a_title_opening_with_the_agreement_word_inside_a_one_line_filing() -> None:
    text = (
        "EX-2.1 2 0002.txt AGREEMENT FOR SALE OF BUSINESS EXHIBIT 2.1 AGREEMENT FOR SALE OF BUSINESS AS GOING"
        " CONCERN (1) Quill Trading Limited (in administration) (2) Harrier Limited AGREEMENT FOR SALE OF"
        " BUSINESS AS GOING CONCERN THIS AGREEMENT is made on the date specified in the First Schedule WHEREAS"
        " A. The Vendor carries on the Business."
    )
    # The heading right above the preamble ("... GOING CONCERN THIS AGREEMENT is made"): a run
    # that opens with the agreement word ends before "THIS" too, so the title's span is there.
    assert _title(text) == ("AGREEMENT FOR SALE OF BUSINESS AS GOING CONCERN", 175, 222)


def test_an_agreement_word_inside_a_caps_title_opens_no_title_of_its_own() -> None:
    text = (
        'SERVICE AGREEMENT FOR TRANSFER AGENT SERVICES\n\nTHIS SERVICE AGREEMENT FOR TRANSFER AGENT SERVICES'
        ' (this "Agreement") is made as of May 1, 2020 by and between Plover Income Fund and Sandpiper Registrar'
        " LLC.\n"
    )
    # (The heading line above shows the same name: it is the title's span.)
    assert _title(text) == ("SERVICE AGREEMENT FOR TRANSFER AGENT SERVICES", 0, 45)
