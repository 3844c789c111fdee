"""Title, alias and party shapes of stop 62 (issue 9), each found on the read half A of two fresh
labelled sets of real contract openings (``bench/gate_sets.py``, sets new10 and new11); the names
here are invented. Each test but the guards fails on the code before its rule.

- The agreement *of* a company whose legal form follows a comma ("... COMPANY AGREEMENT OF
  HARBOR QUILL SYSTEMS, L.L.C."): read by ingest in a filing run into one line, and by the
  question parser as more of the title (before, refused as text between title and party list).
- A title-case heading whose head holds "and" goes on with its subject ("Exclusive Agency and
  Distribution Agreement for Game Products"); a cover that writes the preamble's heading with its
  subject on the next line titles the contract.
- A heading line opened by a company's name is also the title with that name.
- A letter's own name for itself ("this Facility Letter", "This letter agreement, together
  with ...") is an alias, and the title when the only other reading is a name its body cites.
- A local government's name holds the state after its comma wherever the party list names it
  ("and the City of Salina, Kansas ("City")", "Eagle County, Colorado"); an address's state and
  postal code run into the next party's name are no part of it.

The gate tests run on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.agreements import agreement_names
from service.evidence.subject_class import parse_question
from tests.helpers import bound_party_names
from tests.kb import KB, ingested_kb

LLC_AMENDMENT = (
    "EX-10.3 4 h80200ex10-3.txt AMENDMENT NO.1 TO LIMITED LIABILITY CO. AGREEMENT 1 EXHIBIT 10.3 AMENDMENT NO. 1 TO "
    "THE LIMITED LIABILITY COMPANY AGREEMENT OF HARBOR QUILL SYSTEMS, L.L.C. THIS AMENDMENT NO. 1 (the \"Amendment\") "
    "is made as of the 31st day of July, 2000, between and among Orvelle Technologies, Inc., a Texas corporation "
    "(\"Orvelle\"), and Harold M. Quill (\"Harold\"). 1. This Amendment shall be governed by the laws of Texas.\n"
)
GAME = (
    "Exhibit 10.7\nCONFIDENTIAL\nExclusive Agency\nand Distribution Agreement for\nGame Products\n"
    "Party A: Harbour Grand Universe Technology Limited\nParty B: Quillfun Company Limited\n"
    "Exclusive Agency and Distribution Agreement for Game Products\nThis Agreement is entered into on July 1, 2024.\n"
)
COVER = (
    "EXECUTION VERSION\n\nFIRST AMENDED AND RESTATED MASTER SUPPLY AGREEMENT\nFOR PURCHASE AND SALE OF STORAGE "
    "EQUIPMENT\n\n\nBy and Between\nQuillgrow USA Corporation\nAnd\nOrvelle, Inc.\n(\"Customer\")\n\n\ni\n\n"
    "FIRST AMENDED AND RESTATED MASTER SUPPLY AGREEMENT\nThis First Amended and Restated Master Supply Agreement (this "
    "\"Agreement\") is made and entered into as of February 28, 2020 by and among Quillgrow USA Corporation, a "
    "Delaware corporation (\"Supplier\"), and Orvelle, Inc., a Delaware corporation (\"Customer\").\n"
)
HOSTING = (
    "QUILLTIME HOSTING LLC HOSTING AGREEMENT\nExhibit 10.3\nQUILLTIME HOSTING LLC HOSTING AGREEMENT\nThis Hosting "
    "Agreement (\"Agreement\"), made as of October 6, 2021, is made by and between Quilltime Hosting LLC (\"Host\"), a "
    "Florida limited liability company, and Orvelle Mining Co. LLC (\"Client\"), a Florida limited liability company.\n"
    "1. This Agreement is governed by the laws of Florida.\n"
)
FACILITY_LETTER = (
    "Exhibit 10.6\nTo | Harbour Concept Investment Limited |\nDate | 16 June 2021 |\nImportant Notice: | This Facility "
    "Letter sets out the terms and conditions upon which the Bank would provide general banking facilities to you. |\n"
    "Dear Sirs,\nWith reference to our discussion, we, Bank of Quillton (Hong Kong) Limited (the \"Bank\"), are pleased "
    "to grant the following facilities to you (the \"Borrower\").\n"
)
LETTER_AGREEMENT = (
    "Exhibit 10.4\nQuillharbor Securities Limited\n3 Garden Road\nHong Kong\n16th January, 2010\nOrvelle CHEUNG\n"
    "Dear Orvelle:\nQuillharbor Securities Limited (the \"Company\") is pleased to offer you a position.\nThis letter "
    "agreement, together with the attached Standard Terms at Schedule A and the Restrictive Covenant Agreement "
    "(\"Covenant Agreement\") at Schedule B make up the terms of your employment (together, \"Letter Agreement\").\n"
)
CITY = (
    "FACILITY SPONSORSHIP AGREEMENT\nThis Agreement is made between Orvelle Wireless Corporation (\"Orvelle\"), a\n"
    "Delaware corporation, and the City of Quillton, Kansas (\"City\"), a Kansas municipal corporation, for\n"
    "sponsorship of the facility described herein.\n1. This Agreement is governed by the laws of Kansas.\n"
)
COUNTY = (
    "SOFTWARE LICENSE AGREEMENT between QUILLTITUDE SOLUTIONS, INC. ( \"Quilltitude \") having its principal place of "
    "business at: 851 Trafalgar Court, Maitland, Florida 32751 and HARBOR COUNTY, COLORADO ( \"Licensee \") having "
    "its principal address at: 500 Broadway, Eagle, Colorado 81631 (1) Definitions.\n"
)
POSTAL = (
    "LICENSED TOW PROVIDER AGREEMENT This service agreement (\"Agreement\") is offered this 30th day of October, 2015, "
    "by QUILLSCO, LLC (the \"Contractor\") with a mailing address at 450 7th Street, San Francisco, California 94103 "
    "Harbor Wrecker, Inc. (\"Tow Company\") with a mailing address at 8200 South Congress, Austin TX 78745.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "shapes-s62",
        {"llc": LLC_AMENDMENT, "hosting": HOSTING, "letter": FACILITY_LETTER, "city": CITY},
    )


def _names(text: str) -> tuple[str | None, list[tuple[str, str]]]:
    title, aliases = agreement_names(text)
    return (title.text if title else None), [(a.text, a.source) for a in aliases]


def test_the_agreement_of_a_company_is_read_in_a_filing_run_into_one_line() -> None:
    title, aliases = agreement_names(LLC_AMENDMENT)
    assert title is not None
    assert title.text == "AMENDMENT NO. 1 TO THE LIMITED LIABILITY COMPANY AGREEMENT OF HARBOR QUILL SYSTEMS, L.L.C."
    assert LLC_AMENDMENT[title.start : title.end] == title.text
    assert [(a.text, a.source) for a in aliases] == [
        ("AMENDMENT NO. 1 TO THE LIMITED LIABILITY COMPANY AGREEMENT", "heading")
    ]


def test_the_question_reads_the_company_an_agreement_is_of_as_title_words() -> None:
    subject = parse_question(
        "What law governs the AMENDMENT NO. 1 TO THE LIMITED LIABILITY COMPANY AGREEMENT OF HARBOR QUILL SYSTEMS, "
        "L.L.C. between Orvelle Technologies, Inc. and Harold M. Quill?"
    )
    assert subject.failures == []
    assert subject.agreement_title == (
        "AMENDMENT NO 1 TO THE LIMITED LIABILITY COMPANY AGREEMENT OF HARBOR QUILL SYSTEMS LLC"
    )
    assert subject.parties == ["Orvelle Technologies, Inc.", "Harold M. Quill"]


@pytest.mark.parametrize(
    ("gap", "shown"),
    [
        (", D", "', D'"),  # the fail-open shape of issue 9
        (" of Harbor Quill, D", "'of Harbor Quill, D'"),  # no legal form after the comma
        (" of Harbor Quill, Inc. and Beta", "'of Harbor Quill, Inc. and Beta'"),  # more than a form
    ],
)
def test_guard_any_other_comma_between_title_and_list_still_fails_closed(gap: str, shown: str) -> None:
    subject = parse_question(f"What law governs the Supply Agreement{gap} between Orvelle Inc. and Quill LLC?")
    assert subject.failures == [
        f"the question names parties after 'Supply Agreement', but {shown} between the title and the party "
        "list is neither title nor party names"
    ]


def test_the_llc_amendment_passes_on_its_whole_title_and_parties(kb: KB) -> None:
    docs, _ = kb.docs(
        "What law governs the AMENDMENT NO. 1 TO THE LIMITED LIABILITY COMPANY AGREEMENT OF HARBOR QUILL SYSTEMS, "
        "L.L.C. between Orvelle Technologies, Inc. and Harold M. Quill?"
    )
    assert docs == {"llc"}
    # Another company's agreement: refused, never the one the KB holds.
    docs, result = kb.docs(
        "What law governs the AMENDMENT NO. 1 TO THE LIMITED LIABILITY COMPANY AGREEMENT OF HARBOR QUILL HOLDINGS, "
        "L.L.C. between Orvelle Technologies, Inc. and Harold M. Quill?"
    )
    assert docs == set()
    assert result.rejected


def test_a_title_case_head_with_and_goes_on_with_its_subject() -> None:
    assert _names(GAME) == (
        "Exclusive Agency and Distribution Agreement for Game Products",
        [("Exclusive Agency and Distribution Agreement", "heading")],
    )


def test_a_cover_that_writes_the_subject_on_its_next_line_titles_the_contract() -> None:
    title, aliases = agreement_names(COVER)
    assert title is not None
    assert title.text == (
        "FIRST AMENDED AND RESTATED MASTER SUPPLY AGREEMENT FOR PURCHASE AND SALE OF STORAGE EQUIPMENT"
    )
    # The span is the cover's two lines as written.
    assert (title.start, title.end) == (19, 112)
    assert COVER[19:112] == "FIRST AMENDED AND RESTATED MASTER SUPPLY AGREEMENT\nFOR PURCHASE AND SALE OF STORAGE EQUIPMENT"
    assert ("FIRST AMENDED AND RESTATED MASTER SUPPLY AGREEMENT", "heading") in [(a.text, a.source) for a in aliases]


def test_guard_a_cover_with_the_same_heading_and_no_subject_changes_nothing() -> None:
    text = COVER.replace("\nFOR PURCHASE AND SALE OF STORAGE EQUIPMENT", "")
    assert _names(text)[0] == "FIRST AMENDED AND RESTATED MASTER SUPPLY AGREEMENT"


def test_a_heading_opened_by_a_companys_name_is_also_the_title_with_it(kb: KB) -> None:
    assert ("QUILLTIME HOSTING LLC HOSTING AGREEMENT", "heading_line") in _names(HOSTING)[1]
    docs, _ = kb.docs(
        "What law governs the QUILLTIME HOSTING LLC HOSTING AGREEMENT between Quilltime Hosting LLC and Orvelle "
        "Mining Co. LLC?"
    )
    assert docs == {"hosting"}


def test_a_letter_with_no_title_is_named_by_its_own_name(kb: KB) -> None:
    assert _names(FACILITY_LETTER) == (None, [("Facility Letter", "letter_self_name")])
    docs, _ = kb.docs(
        "What law governs the Facility Letter between Harbour Concept Investment Limited and Bank of Quillton "
        "(Hong Kong) Limited?"
    )
    # The addressee of this letter's table-laid address block is not bound (left for later):
    # the alias alone never passes a party the letter does not bind.
    assert docs == set()


def test_a_letter_names_itself_before_the_documents_its_body_cites() -> None:
    title, aliases = agreement_names(LETTER_AGREEMENT)
    assert title is not None
    assert (title.text, LETTER_AGREEMENT[title.start : title.end]) == ("letter agreement", "letter agreement")
    # Before: "Schedule A and the Restrictive Covenant Agreement", a name the body cites.
    assert all("Covenant" not in a.text for a in aliases)


def test_a_letters_heading_above_its_salutation_stays_the_title() -> None:
    text = "CONSULTING AGREEMENT\n\nDear Orvelle:\nThis letter agreement sets out the terms of your engagement.\n"
    assert _names(text) == ("CONSULTING AGREEMENT", [("letter agreement", "letter_self_name")])


def test_a_letter_of_offer_names_itself_in_its_notice() -> None:
    text = (
        "IMPORTANT NOTICE: THE TERMS OF THIS LETTER OF OFFER FORM A LEGALLY BINDING AGREEMENT BETWEEN THE CUSTOMER "
        "AND THE BANK.\nQUILL SOLUTION SDN. BHD.\nDear Sir(s),\nRe: Banking Facility\nWe are pleased to inform that "
        "Harbour Islamic Bank Berhad has approved the Facility.\n"
    )
    assert ("LETTER OF OFFER", "letter_self_name") in _names(text)[1]


def test_a_local_government_holds_its_state_wherever_the_list_names_it(kb: KB) -> None:
    assert bound_party_names(CITY) == {"Orvelle Wireless Corporation", "City of Quillton, Kansas"}
    assert bound_party_names(COUNTY) == {"QUILLTITUDE SOLUTIONS, INC.", "HARBOR COUNTY, COLORADO"}
    docs, _ = kb.docs(
        "What law governs the FACILITY SPONSORSHIP AGREEMENT between Orvelle Wireless Corporation and City of "
        "Quillton, Kansas?"
    )
    assert docs == {"city"}


def test_guard_a_companys_town_and_state_are_no_government() -> None:
    text = (
        "SERVICES AGREEMENT\n\nThis Agreement is made between Orvelle Marketing, Inc., of Austin, Texas "
        "(\"Contractor\") and Quill LLC (\"Quill\").\n"
    )
    assert bound_party_names(text) == {"Orvelle Marketing, Inc.", "Quill LLC"}


def test_an_addresss_state_and_postal_code_are_no_part_of_the_next_name() -> None:
    # Before: "California 94103 Harbor Wrecker, Inc." was bound and "Harbor Wrecker, Inc." missed.
    assert bound_party_names(POSTAL) == {"QUILLSCO, LLC", "Harbor Wrecker, Inc."}


def test_guard_a_county_a_person_resides_in_is_no_party() -> None:
    text = (
        "EXECUTIVE EMPLOYMENT AGREEMENT\n\nThis Agreement is made by and among Orvelle Bancorp, Inc., a Georgia "
        "corporation (the \"Company\"), and Harold M. Quill, an individual residing in Quill County, Georgia "
        "(\"Executive\").\n\nWHEREAS, the Company wishes to employ Executive;\n"
    )
    assert bound_party_names(text) == {"Orvelle Bancorp, Inc.", "Harold M. Quill"}


def test_a_series_numeral_after_a_legal_form_is_the_names_own() -> None:
    text = (
        "LOAN AGREEMENT\nTHIS LOAN AGREEMENT is entered into as of October 31, 1993 by and between Orvelle Growth "
        "Corporation, a California corporation (\"Lender\"), and Quill Capital Corporation II, a Maryland "
        "corporation (\"Borrower\").\n"
    )
    # Before: "Quill Capital Corporation" was bound, another company's name.
    assert bound_party_names(text) == {"Orvelle Growth Corporation", "Quill Capital Corporation II"}


def test_a_persons_identity_number_is_no_part_of_the_name() -> None:
    text = (
        "SHARE PURCHASE AGREEMENT\nTHIS AGREEMENT made as of May 21, 2000, by and among Orvelle Ltd. (the "
        "\"Company\"), Harold Quill ID No. 058251414 (the \"Founder\") and Quillstar Industries Ltd. (the "
        "\"Purchaser\").\n"
    )
    # Before: "Harold Quill ID No. 058251414" was bound.
    assert bound_party_names(text) == {"Orvelle Ltd.", "Harold Quill", "Quillstar Industries Ltd."}


@pytest.mark.parametrize(("words", "alias"), [(6, True), (7, False)])
def test_bound_a_company_opening_the_heading_line_has_at_most_six_words(words: int, alias: bool) -> None:
    company = " ".join(["QUILL"] * (words - 1) + ["LLC"])
    text = (
        f"{company} HOSTING AGREEMENT\n\nThis Hosting Agreement is made by and between Quilltime Hosting LLC "
        "(\"Host\") and Orvelle Mining Co. LLC (\"Client\").\n"
    )
    assert ((f"{company} HOSTING AGREEMENT", "heading_line") in _names(text)[1]) is alias


@pytest.mark.parametrize(("gap", "alias"), [(1_469, True), (1_470, False)])
def test_bound_a_letter_names_itself_within_1500_characters_of_its_salutation(gap: int, alias: bool) -> None:
    # The name's whole match, "This Facility Letter", ends at most 1,500 characters past the
    # salutation's start: 11 for "Dear Sirs,\n", then ``gap``, then its 20 characters.
    filler = ("we are pleased to grant the facilities to you " * 40)[: gap - 1] + "\n"
    text = f"Exhibit 10.6\nTo Harbour Concept Investment Limited\nDear Sirs,\n{filler}This Facility Letter sets out the terms.\n"
    assert _names(text) == (None, [("Facility Letter", "letter_self_name")] if alias else [])


@pytest.mark.parametrize(("words", "failures"), [(16, 0), (17, 1)])
def test_bound_the_company_an_agreement_is_of_has_at_most_sixteen_words(words: int, failures: int) -> None:
    name = " ".join(["Quill"] * words)
    subject = parse_question(f"What law governs the Limited Liability Company Agreement of {name}, L.L.C. between Orvelle Inc. and Harold Quill?")
    assert len(subject.failures) == failures
