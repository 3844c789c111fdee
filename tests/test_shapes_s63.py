"""Party and question shapes of stop 63 (issue 9), each found on a labelled set of real contract
openings (``bench/gate_sets.py``, sets new10 and new11, both halves read this stop); the names
here are invented. Each test but the guards fails on the code before its rule.

- A local government opened by a capital "The" is no person living in a town ("The City of
  Quillfield, Iowa"), and its state after the comma is part of its name wherever the party list
  names it, first in the list too; it is also asked for without the state.
- A lower-case "the" after "between" opens a local government's name ("between the City of
  Harborton, Harborton, Texas, a municipal corporation, ...").
- A term made from two names of one clause ("City Bank ... and the City of Harborton (the
  "City")") is the nearer name's.
- A numbered list's company without the parenthesised qualifier of another member's name
  ("Quill Biolabs Limited" beside "Quill Biolabs (Cayman) Limited") is a party of its own.
- A question's title word may hold a slash ("CONTRACT AGREEMENT EXTENSION/RENEWAL"), and a
  title's own "WITH" subject before "between" is more of the title ("PATENT LICENSE AGREEMENT
  WITH RESEARCH COMPONENT between ...").
- A lower-case "the" after the list's "and" opens an institution's name ("and the\nIOWA STATE
  UNIVERSITY OF ...").
- A firm named once at the foot of a cover with its address and contact lines drafted the
  document; it is no party the learned review may add.
- A "PARTIES" heading underlined by dashes in a filing run into one line opens the party clause.
- No title opens with "AND": a caps heading broken over a line holding only "AND" goes on up over
  the line above it ("DRILLING BID PROPOSAL\nAND\nDAYWORK DRILLING CONTRACT"); a caps run cut open
  at a joining word ("FOR CONTRACT") is no heading.
- A record number or a cover's date run into a heading is no part of the title ("CAG-17-172
  PROFESSIONAL SERVICES AGREEMENT", "... LLC JANUARY 2013 FIRST REVISED ... AGREEMENT").

(Set new12's half A was read late in the stop, after its clean figures were taken.)

(Set new13's half A was read this stop too.)

The gate test runs on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.agreements import agreement_names
from ingest.names import party_name_forms
from service.evidence.subject_class import parse_question
from tests.helpers import bound_party_names
from tests.kb import KB, ingested_kb

GROUND_LEASE = (
    "GROUND LEASE AGREEMENT THIS GROUND LEASE AGREEMENT (\"Lease\") is effective as of the latter of the signature "
    "dates below (\"Effective Date\") by and between The City of Quillfield, Iowa (\"Lessor\") and ORVELLE 2013 LLC, "
    "a Delaware limited liability company (\"Lessee\"). 1. This Lease is governed by the laws of Iowa.\n"
)
NAMING_RIGHTS = (
    "NAMING RIGHTS AGREEMENT\nThis Agreement is dated as of June 7, 2012 , and is between City Bank, a Texas\n"
    "banking association, whose address for notice is 5219 City Bank Parkway, Harborton, Texas,\n79407, c/o Orvelle "
    "Quill, President, and the City of Harborton (the \"City\"), whose address for\nnotice is 1625 13th Street, "
    "Harborton, Texas 79401.\nWHEREAS, the City owns the Harborton Municipal Coliseum.\n"
)
SHARE_EXCHANGE = (
    "SHARE EXCHANGE AGREEMENT\nThis Share Exchange Agreement (this Agreement) is made on 20th September 2021.\n"
    "BETWEEN\n1 | Quill Biolabs (Cayman) Limited, an exempted company incorporated under the laws of the Cayman "
    "Islands with company number 380440 (the Cayman Holdco); |\n2 | Quill Biolabs (UK) Limited, a company incorporated "
    "under the laws of England and Wales with company number 13630639 (the UK Company); |\n3 | Quill Biolabs Limited, "
    "a limited company organized under the laws of Hong Kong with company number 29311747 (the HK Company); and |\n"
    "4 | Each of the selling shareholders of the HK Company as listed in Schedule 1 hereto. |\nRECITALS\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "shapes-s63", {"lease": GROUND_LEASE, "naming": NAMING_RIGHTS})


def test_a_local_government_opened_by_the_is_no_person_in_a_town() -> None:
    # Before: "The City" was bound, read as a person "of" the town of Quillfield.
    assert bound_party_names(GROUND_LEASE) == {"City of Quillfield, Iowa", "ORVELLE 2013 LLC"}


def test_a_local_government_first_in_the_list_holds_its_state() -> None:
    text = (
        "LICENSE AGREEMENT\n\nThis License Agreement is made by and between The City of Quillton, Kansas "
        "(\"Licensee\") and Orvelle Soft, Inc., a Delaware corporation (\"Licensor\").\n\n1. Grant.\n"
    )
    # Before: "The City of Quillton" was bound, without its state.
    assert bound_party_names(text) == {"City of Quillton, Kansas", "Orvelle Soft, Inc."}


def test_a_local_government_is_also_named_without_its_state() -> None:
    assert party_name_forms("The City of Quillton, Kansas") == ["The City of Quillton, Kansas", "The City of Quillton"]
    assert party_name_forms("HARBOR COUNTY, COLORADO") == ["HARBOR COUNTY, COLORADO", "HARBOR COUNTY"]


def test_guard_a_company_and_its_state_keep_one_form() -> None:
    assert party_name_forms("Quill Hosting, Texas") == ["Quill Hosting, Texas"]


def test_the_lease_passes_with_and_without_the_citys_state(kb: KB) -> None:
    for city in ("The City of Quillfield, Iowa", "City of Quillfield"):
        docs, _ = kb.docs(f"What law governs the GROUND LEASE AGREEMENT between {city} and ORVELLE 2013 LLC?")
        assert docs == {"lease"}


def test_a_lower_case_the_after_between_opens_a_local_government() -> None:
    text = (
        "CLEANING CONTRACT\nThis agreement made and entered on this the 12 day of May, 2003, between the City of "
        "Harborton, Harborton,\nTexas, a municipal corporation, acting by and through its City Manager, hereinafter "
        "referred to as\nCITY and Quill Janitorial Service, Route 1, Box 127, Blossom, Texas 75416, hereinafter\n"
        "known as CONTRACTOR, for cleaning services.\nIn consideration of the covenants herein contained, City and "
        "Contractor hereby agree as follows:\n"
    )
    # Before: no name was read after "between the"; a town after the comma is no state.
    assert "City of Harborton" in bound_party_names(text)


def test_a_term_made_from_two_names_is_the_nearer_ones(kb: KB) -> None:
    # Before: "City" was City Bank's term, and the City of Harborton was no party.
    assert bound_party_names(NAMING_RIGHTS) == {"City Bank", "City of Harborton"}
    docs, _ = kb.docs("What law governs the NAMING RIGHTS AGREEMENT between City Bank and City of Harborton?")
    assert docs == {"naming"}


def test_guard_a_term_made_from_the_first_name_only_stays_its() -> None:
    text = (
        "SERVICES AGREEMENT\nThis Agreement is between Quill Bank, a Texas banking association, and Orvelle "
        "Corporation, a Delaware corporation (the \"Contractor\"), and names Quill Bank the \"Bank\".\n"
    )
    assert bound_party_names(text) == {"Quill Bank", "Orvelle Corporation"}


def test_a_companys_unqualified_twin_in_a_numbered_list_is_a_party() -> None:
    # Before: "Quill Biolabs Limited" was taken for a short form of "Quill Biolabs (Cayman) Limited".
    assert bound_party_names(SHARE_EXCHANGE) == {
        "Quill Biolabs (Cayman) Limited", "Quill Biolabs (UK) Limited", "Quill Biolabs Limited",
    }


def test_a_title_word_may_hold_a_slash() -> None:
    subject = parse_question(
        "What law governs the CONTRACT AGREEMENT EXTENSION/RENEWAL between Board of Quill County Commissioners and "
        "Orvelle Files Software, Inc.?"
    )
    assert subject.failures == []
    assert subject.agreement_title == "CONTRACT AGREEMENT EXTENSION RENEWAL"


@pytest.mark.parametrize("gap", ["/", "EXTENSION/", "A/B/"])
def test_guard_a_slash_that_joins_no_word_still_fails_closed(gap: str) -> None:
    subject = parse_question(f"What law governs the Supply Agreement {gap} between Orvelle Inc. and Quill LLC?")
    assert subject.failures == [
        f"the question names parties after 'Supply Agreement', but {gap!r} between the title and the party "
        "list is neither title nor party names"
    ]


INSTITUTION = (
    "EXHIBIT 10.4\nAMENDMENT NO. 3\nto the\nSPONSORED PROJECT AGREEMENT\nbetween\nQuillChannel Technologies "
    "Corporation (Sponsor)\nand the\nNEVADA STATE UNIVERSITY OF SCIENCE AND TECHNOLOGY (NSU)\nWHEREAS the Sponsor and "
    "NSU mutually agree to amend the research program under the Sponsored Project Agreement;\n"
)
COVER_FIRM = (
    "Exhibit 10.53\n\nService Agreement\n\nfor Chief Executive Officer\n\nOrvelle International Limited\n\n(the "
    "Company)\n\nand\n\nQuill Heng Fai Ambrose\n\n(the Executive)\n\n\n\nHarbor Lin & Bok LLP\n\n1 Robinson Road\n\n"
    "#18-00 Quill Tower\n\nSingapore 048542\n\nT +65 6535 1944\n\nF +65 6535 8577\n\nE hlb@example.com\n\n\n"
    "This Agreement is made on this 10th day of December 2021.\n\nBetween:\n\n(1)Orvelle International Limited "
    "(Company Registration Number 200916763W), a company incorporated in Singapore and having its registered office at "
    "7 Temasek Boulevard (the \u201cCompany\u201d); and\n\n(2)Quill Heng Fai Ambrose (the \u201cExecutive\u201d).\n\n"
    "It is agreed as follows:\n"
)
FLATTENED = (
    "EX-10 4 quillsteiner.txt QUILL SWITZERLAND & J ORVELLE DATED April 1, 2001 ------------------------------ "
    "RESTATED AND AMENDED SERVICE "
    "AGREEMENT ------------------------------ PARTIES ------- 1. QUILL SWITZERLAND, INC, whose registered office is in "
    "Bern Switzerland (\"the Company\"); and 2. JEFFREY J. ORVELLE of Chalet Uhu, 3780 Gstaad, Switzerland (\"the "
    "Executive\"). All capitalized terms used herein shall have the meanings set forth in the Service Agreement. "
    "WITNESSETH ---------- WHEREAS, Harbor Investments (U.K.) PLC and the Executive have entered into that certain "
    "Service Agreement dated as of April 6, 1990 (the \"Service Agreement\");\n"
)


def test_a_lower_case_the_after_the_lists_and_opens_an_institution() -> None:
    # Before: only the term "NSU" was bound for the university.
    assert bound_party_names(INSTITUTION) == {
        "QuillChannel Technologies Corporation", "NEVADA STATE UNIVERSITY OF SCIENCE AND TECHNOLOGY",
    }


def test_guard_a_role_after_the_lists_and_the_is_no_institution() -> None:
    text = (
        "SECURITY AGREEMENT\nThis Security Agreement is made between Quill Holdings, Inc. (the \"Grantor\") and the "
        "Secured Party.\n1. Grant.\n"
    )
    assert bound_party_names(text) == {"Quill Holdings, Inc."}


def test_a_firm_with_contact_lines_at_the_foot_of_a_cover_is_no_party() -> None:
    # Before: the learned review added "Harbor Lin & Bok LLP", and a question naming it passed.
    assert bound_party_names(COVER_FIRM) == {"Orvelle International Limited", "Quill Heng Fai Ambrose"}


def test_guard_a_party_written_again_in_the_clause_keeps_its_contact_lines() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nHarbor Quill Limited\n1 Robinson Road\nT +65 6535 1944\n\nThis Agreement is made "
        "between Harbor Quill Limited (the \"Supplier\") and Orvelle Pte. Ltd. (the \"Buyer\").\n\n1. Supply.\n"
    )
    assert bound_party_names(text) == {"Harbor Quill Limited", "Orvelle Pte. Ltd."}


def test_a_parties_heading_underlined_by_dashes_opens_the_clause() -> None:
    # Before: "the Company" was read as "AMENDED SERVICE AGREEMENT", and the company was no party.
    assert bound_party_names(FLATTENED) == {"QUILL SWITZERLAND, INC", "JEFFREY J. ORVELLE"}


def test_a_titles_with_subject_before_between_is_more_of_the_title() -> None:
    subject = parse_question(
        "What law governs the FIFTH AMENDMENT TO THE PATENT LICENSE AGREEMENT WITH RESEARCH COMPONENT between "
        "Quill Research Foundation, Inc. and Orvelle Corporation?"
    )
    assert subject.failures == []
    assert subject.agreement_title == "FIFTH AMENDMENT TO THE PATENT LICENSE AGREEMENT WITH RESEARCH COMPONENT"
    assert subject.parties == ["Quill Research Foundation, Inc.", "Orvelle Corporation"]


def test_guard_with_alone_still_opens_the_party_list() -> None:
    subject = parse_question("What law governs the Supply Agreement with Orvelle Inc. and Quill LLC?")
    assert subject.failures == []
    assert subject.agreement_title == "Supply Agreement"
    assert subject.parties == ["Orvelle Inc.", "Quill LLC"]


def test_a_local_governments_state_may_be_followed_by_the_body_it_acts_through() -> None:
    text = (
        "CONCESSIONAIRE LICENSE AGREEMENT\nTHIS AGREEMENT, entered into this 1st day of July, 2014, by\nand between "
        "the BOARD OF COUNTY COMMISSIONERS OF QUILL RIVER COUNTY,\nFLORIDA through its Parks Division, a political "
        "subdivision of the State of Florida (the \"County\")\nand HARBOR COAST CONSULTING INC. (\"Concessionaire\").\n"
        "WITNESSETH:\n"
    )
    # Before: the board was bound without its state, and a question naming it with the state failed.
    assert bound_party_names(text) == {
        "BOARD OF COUNTY COMMISSIONERS OF QUILL RIVER COUNTY, FLORIDA", "HARBOR COAST CONSULTING INC.",
    }


def _title(heading: str) -> str | None:
    text = (
        f"EXHIBIT 10.1\n\n{heading}\n\nThis Agreement is made between Quill Foundation, Inc. (\"QF\") and Orvelle "
        "Corporation, a Delaware corporation (\"Operator\").\n\nRECITALS\n"
    )
    title, _ = agreement_names(text)
    return title.text if title is not None else None


def test_a_heading_broken_over_an_and_line_goes_on_over_the_line_above() -> None:
    # Before: "AND DAYWORK DRILLING CONTRACT" (the form's name after the dash is an alias).
    title = _title("DRILLING BID PROPOSAL\nAND\nDAYWORK DRILLING CONTRACT - U.S.")
    assert title == "DRILLING BID PROPOSAL AND DAYWORK DRILLING CONTRACT"


@pytest.mark.parametrize("above", ["Quill Inc.", "Dated May 1, 2010"])
def test_a_name_or_a_date_above_the_and_line_stays_out_and_so_does_the_and(above: str) -> None:
    # Before: "AND SUPPLY AGREEMENT".
    assert _title(f"{above}\nAND\nSUPPLY AGREEMENT") == "SUPPLY AGREEMENT"


@pytest.mark.parametrize(("address_lines", "bound"), [(7, False), (8, True)])
def test_bound_a_drafting_firms_contact_line_is_within_eight_lines_of_its_name(address_lines: int, bound: bool) -> None:
    # The firm's line, then ``address_lines`` lines of its address, then its telephone line: the
    # eighth line with text after the name is still its block, the ninth no longer.
    address = "\n\n".join(f"{n} Robinson Road" for n in range(1, address_lines + 1))
    text = COVER_FIRM.replace("1 Robinson Road\n\n#18-00 Quill Tower\n\nSingapore 048542", address)
    assert ("Harbor Lin & Bok LLP" in bound_party_names(text)) is bound


@pytest.mark.parametrize(
    ("opening", "title"),
    [
        ("CAG-17-172 PROFESSIONAL SERVICES AGREEMENT This Professional Services Agreement",
         "PROFESSIONAL SERVICES AGREEMENT"),
        (
            "FIRST REVISED AND RESTATED MULTI-MEDIA RIGHTS AND SPONSORSHIP RIGHTS LICENSING AGREEMENT BETWEEN THE "
            "UNIVERSITY OF NEW QUILL. AND ORBO SPORTS PROPERTIES, LLC JANUARY 2013 FIRST REVISED AND RESTATED "
            "MULTI-MEDIA RIGHTS AND SPONSORSHIP RIGHTS LICENSING AGREEMENT THIS FIRST REVISED AND RESTATED MULTI-MEDIA "
            "RIGHTS AND SPONSORSHIP RIGHTS LICENSING AGREEMENT (\u2018Agreement\u201d or \u201cContract\u2019)",
            "FIRST REVISED AND RESTATED MULTI-MEDIA RIGHTS AND SPONSORSHIP RIGHTS LICENSING AGREEMENT",
        ),
    ],
)
def test_a_record_number_or_a_date_run_into_the_heading_is_no_part_of_the_title(opening: str, title: str) -> None:
    text = f"{opening} is made and entered into by and between Quill Corp. (\"Quill\") and Orvelle, LLC (\"Orvelle\").\n"
    found, _ = agreement_names(text)
    # Before: "CAG-17-172 PROFESSIONAL ...", "JANUARY 2013 FIRST REVISED ...".
    assert found is not None and found.text == title


def test_a_caps_run_cut_open_at_a_joining_word_is_no_heading() -> None:
    text = (
        "C-16-008 - Orvelle Transportation, Inc., Fixed Route Bus OperationsC 01007.0001!252495.4 FIXED ROUTE "
        "TRANSPORTATION CONTRACT SERVICES AGREEMENT By and Between CITY OF QUILLTON and ORVELLE TRANSPORTATION, INC. "
        "AGREEMENT FOR CONTRACT SERVICES BETWEEN THE CITY OF QUILLTON AND ORVELLE TRANSPORTATION, INC. THIS AGREEMENT "
        "FOR CONTRACT SERVICES (herein\" Agreement\") is made and entered into this 1st day of January, 2016 by and "
        "between the City of Quillton, a municipal corporation (\"City\") and Orvelle Transportation, Inc., a "
        "California Corporation (\"Contractor\").\n"
    )
    found, _ = agreement_names(text)
    # Before: "FOR CONTRACT".
    assert found is not None and found.text == "AGREEMENT FOR CONTRACT SERVICES"


def test_a_local_governments_state_may_be_followed_by_its_address() -> None:
    text = (
        "MAINTENANCE AGREEMENT\nThis is an AGREEMENT between QPS DEVELOPMENT, INC., a Wisconsin\ncorporation "
        "(\"QPSD\"), and BOARD OF COUNTY COMMISSIONERS OF QUILL COUNTY,\nFLORIDA with its principal offices at Key "
        "West, Florida (\"User\").\nQPSD and User have entered into an Agreement with respect to Software.\n"
    )
    assert "BOARD OF COUNTY COMMISSIONERS OF QUILL COUNTY, FLORIDA" in bound_party_names(text)
