"""Party and title readers for instruments without an agreement word, charter parties and a few
name bounds (issue 9). The shapes come from reading sets of real filings (leases, time charters,
indemnity deeds, Chinese joint ventures); each is written here with invented names. The real
spaCy pipeline; each case asserts the exact title and names bound."""

from __future__ import annotations

import pytest

from ingest.annotate import _subject_name
from tests.helpers import agreement_title as _title, bound_party_names


# A filing flattened to one line: the file name ("2 ex-10_1.txt") is page furniture, the run-in
# heading is written twice, and the instrument opens its own clause ("... TO LEASE dated as of").
FLAT_LEASE_AMENDMENT = (
    "EX-10.1 2 ex-10_1.txt EXHIBIT 10.1 Exhibit 10.1 SECOND AMENDMENT TO LEASE SECOND AMENDMENT TO LEASE "
    "dated as of this 12 day of May, 2003, by and between Harriet J. Calloway and Desmond R. Pyle as TRUSTEES "
    "OF MERIDALE TRUST under Declaration of Trust dated June 2, 1980, but not individually (\"Landlord\") and "
    "VELLUM SYSTEMS, INC., a Delaware corporation (\"Tenant\"). R E C I T A L S By Lease dated July 1, 1999, "
    "(the \"Lease\"), Landlord did lease to Tenant 12,000 square feet of rentable floor area."
)

# SHELLTIME's opening: "IT IS THIS DAY [date] AGREED between X of <place> (... "Owners") ... and Y".
CHARTER_ON_LINES = (
    "EX-10.1 2 charter.htm TIME CHARTER PARTY\n\nTime Charter Party\n\nLONDON, 3RD March 2006\n\n"
    "IT IS THIS DAY AGREED between HALCYON VESSEL LIMITED PARTNERSHIP, A DELAWARE PARTNERSHIP of DELAWARE "
    "(hereinafter referred to as \"Owners\"), being owners of the good vessel called M/T \"ASTER\" (hereinafter "
    "referred to as \"the vessel\") described as per Clause 1 hereof and PELORUS TANKERS A/S of OSLO, NORWAY "
    "(hereinafter referred to as \"Charterers\"):\n1. At the date of delivery of the vessel\n"
)
CHARTER_FLAT = (
    "TIME CHARTER PARTY IT IS THIS DAY 14 of May 2007 AGREED between Ardent Tankers Ltd. of Hamilton, Bermuda "
    "(hereinafter referred to as \"Owners\"), being owners of the good motor tanker vessel called M/T \"ARDENT\" "
    "and Quillfield Bulk AB of Gothenburg, Sweden (hereinafter referred to as \"Charterers\"): Description and "
    "1. At the date of delivery"
)


@pytest.mark.parametrize(
    ("text", "title", "parties"),
    [
        (FLAT_LEASE_AMENDMENT, "SECOND AMENDMENT TO LEASE",
         {"Harriet J. Calloway", "Desmond R. Pyle", "VELLUM SYSTEMS, INC."}),
        (CHARTER_ON_LINES, "Time Charter Party", {"HALCYON VESSEL LIMITED PARTNERSHIP", "PELORUS TANKERS A/S"}),
        (CHARTER_FLAT, "TIME CHARTER PARTY", {"Ardent Tankers Ltd.", "Quillfield Bulk AB"}),
    ],
    ids=["flat-lease-amendment", "charter-on-lines", "charter-flat"],
)
def test_an_instrument_or_charter_party_opens_its_own_party_clause(text: str, title: str, parties: set[str]) -> None:
    assert _title(text) == title
    assert bound_party_names(text) == parties


def test_a_cited_lease_in_a_recital_opens_no_party_clause() -> None:
    text = (
        "AMENDMENT NO. 1 TO SUPPLY AGREEMENT\nThis Amendment No. 1 is made as of May 1, 2005 between Tarrow "
        "Foods, Inc. (\"Buyer\") and Glenmere Dairy Ltd. (\"Supplier\").\nWHEREAS, Buyer occupies premises under "
        "that certain Lease dated as of June 1, 1999 between Corvid Realty LLC and Tarrow Foods, Inc.;\n"
    )
    assert bound_party_names(text) == {"Tarrow Foods, Inc.", "Glenmere Dairy Ltd."}


def test_a_monegasque_company_keeps_its_legal_form() -> None:
    text = (
        "SHIPMANAGEMENT AGREEMENT\nThis Agreement is made between RIVIERA MARINE S.A.M., a company organised "
        "under the laws of Monaco (\"Managers\"), and TIDEWATER SHIPPING CO. LTD (\"Owners\").\n"
    )
    assert bound_party_names(text) == {"RIVIERA MARINE S.A.M.", "TIDEWATER SHIPPING CO. LTD"}


def test_a_name_in_capitals_ends_before_of_and_an_address_in_title_case() -> None:
    text = (
        "DEED OF INDEMNITY\nTHIS DEED is made on 2 March 2015\nBETWEEN:\n(1) NICHOLAS ROSE of Blackhall Barns, "
        "Oxford OX2 8QH (the \"Indemnifier\"); and\n(2) FERNWOOD ANALYTICS LIMITED, a company incorporated in "
        "England (the \"Company\").\n"
    )
    assert bound_party_names(text) == {"NICHOLAS ROSE", "FERNWOOD ANALYTICS LIMITED"}


def test_a_clause_number_opening_a_line_starts_the_name_after_it() -> None:
    # "Article 1 Introduction\n1.1 X Group Company(as "Party A")": read back from the definition,
    # the name stops at the clause number; the heading above is no part of it. (A mention glued
    # to the bracket, "X Group Company(as", is no spelling of the name either.)
    text = (
        "EXHIBIT 10.7\nSino-foreign Joint Venture Contract for\nWestport Dragon Food Company Limited\n"
        "Article 1 Introduction\n1.1 Hunan Dafeng Group Company(as \"Party A\") and Quillon General Limited\n"
        "(as \"Party B\"), based on the principal of equality and mutual benefits, agreed to jointly establish "
        "the Westport Dragon Food Company Limited.\nArticle 2 Joint Venture Parties\n"
        "2.1 The joint venture parties of this contract are:\nParty A: Hunan Dafeng Group Company, registered in\n"
        "Changsha, Hunan, the P.R.C.\nLegal representative: Li Wei\nPosition: Chairman\n"
        "Party B: Quillon General Limited\nLegal representative: Anna Berg\nPosition: Chairman\n"
        "Article 3 Joint Venture Company\n"
    )
    assert bound_party_names(text) == {"Hunan Dafeng Group Company", "Quillon General Limited"}


def test_the_subject_name_prefers_balanced_brackets_over_length() -> None:
    assert _subject_name({"Harbour Pines Group Company(as": 2, "Harbour Pines Group Company": 0}) == (
        "Harbour Pines Group Company"
    )
    # A bracket the name holds whole stays: "Quillon Laboratories (Bermuda) Ltd." is the longer spelling.
    assert _subject_name({"Quillon Laboratories (Bermuda) Ltd.": 0, "Quillon Laboratories Ltd.": 3}) == (
        "Quillon Laboratories (Bermuda) Ltd."
    )


def test_a_year_closing_the_line_above_is_no_part_of_the_name() -> None:
    text = (
        "Exhibit 10.10\nREVOLVING CREDIT AGREEMENT\nDated as of September 27, 1996\n"
        "Harlow Financial Corporation, a Delaware corporation (the \"Borrower\"), located at 12 Main Street and "
        "Bank\nQuillby, a Minnesota banking corporation (the \"Bank\"), agree as follows:\nARTICLE I.\n"
    )
    assert bound_party_names(text) == {"Harlow Financial Corporation", "Bank Quillby"}


def test_a_form_field_and_a_collective_term_are_no_parties() -> None:
    # "Customer Name (herein "Customer")" is a form's field label; "Customer and Lumen LLC" joins
    # that field's term to a name. The merger's '"Constituent Corporations' is the text of a term.
    form = (
        "MASTER SERVICE AGREEMENT\n\nCustomer Name (herein \u201cCustomer\u201d) Tallow Web LLC\n\n"
        "This Master Service Agreement (\u201cAgreement\u201d) is made as of the date of the last execution below "
        "between Customer and Lumen Data LLC (\u201cLumen\u201d), a Delaware limited liability company.\n"
    )
    assert "Customer Name" not in bound_party_names(form)
    assert "Lumen Data LLC" in bound_party_names(form)
    merger = (
        "PLAN OF MERGER AND AGREEMENT Plan of Merger and Agreement (this \"Agreement\") by and between Corvane, "
        "Inc., a New Mexico corporation (the \"New Mexico Corporation\"), and Corvane Holdings, Inc., a Delaware "
        "corporation (the \"Delaware Corporation\"), said corporations being hereinafter sometimes referred to "
        "collectively as the \"Constituent Corporations\"; WITNESSETH: WHEREAS, the Delaware Corporation is a "
        "corporation duly organized;"
    )
    assert bound_party_names(merger) == {"Corvane, Inc.", "Corvane Holdings, Inc."}


def test_a_reading_begun_inside_another_party_name_is_dropped() -> None:
    text = (
        "1\nEXHIBIT 2.2\nJanuary 27, 1999\nHollis Analysis Corporation\n12 Main Street\n"
        "Re: First Amendment to the Asset Purchase Agreement dated\nas of January 20, 1999 by and between Q.R.\n"
        "Corporation and Hollis Analysis Corporation\nDear Ladies and Gentlemen:\n"
        "Reference is made hereby to the Asset Purchase Agreement (the \"Agreement\") dated as of January 20, "
        "1999 by and between Q.R. Corporation\n(\"Q.R.\") and Hollis Analysis Corporation (\"HAC\"). By execution "
        "and delivery of\nthis agreement (the \"First Amendment\"), the parties are effecting an amendment\nto the "
        "Agreement on the terms set forth herein.\n"
    )
    assert bound_party_names(text) == {"Q.R. Corporation", "Hollis Analysis Corporation"}


def test_a_person_initial_does_not_end_a_recital_that_cites_another_agreement() -> None:
    # The recital's subject list ("X, Inc. (the "Company"), Jane R. Quill, ... and the Buyer have
    # entered into that certain Share Purchase Agreement") names the parties of another agreement:
    # the period after "R" is an initial, not the end of the recital's clause.
    text = (
        "NON-COMPETITION AGREEMENT\n\nTHIS NON-COMPETITION AGREEMENT (this \u201cAgreement\u201d) is entered into "
        "on this 15 day of June, 2024, by and between Tallis Finance, Inc., a Delaware corporation (the "
        "\u201cBuyer\u201d), and Jane R. Quill (the \u201cRestricted Party\u201d).\n\nWHEREAS, Brockway Electric, "
        "Inc., an Ohio corporation (the \u201cCompany\u201d), Jane R. Quill, Dale B. Morrow, and the Buyer have "
        "entered into that certain Share Purchase Agreement dated as of May 1, 2024 (the \u201cPurchase "
        "Agreement\u201d); and\n"
    )
    assert bound_party_names(text) == {"Tallis Finance, Inc.", "Jane R. Quill"}


def test_a_converted_contents_table_names_no_party() -> None:
    # "SECTION 1.01. |\nDefined Terms | 1 |": a contents row whose number, heading and page number
    # stand in cells of their own; the cover's "BY AND AMONG" clause names only the company.
    text = (
        "REGISTRATION RIGHTS AGREEMENT BY AND AMONG THE INVESTORS ON SCHEDULE A HERETO, AND QUILLMOOR HOLDINGS, "
        "INC. Dated as of May 2, 2019\nExhibit 10.20\nBY AND AMONG\nTHE INVESTORS ON SCHEDULE A HERETO,\nAND\n"
        "Dated as of May 2, 2019\nTABLE OF CONTENTS\nPage | ||||||\nARTICLE I DEFINITIONS |\n1 | |||||\n"
        "SECTION 1.01. |\nDefined Terms | 1 | ||||\nSECTION 1.02. |\nOther Interpretive Provisions | 4 | ||||\n"
        "ARTICLE II REGISTRATION RIGHTS |\n4 | |||||\nSECTION 2.01. |\nDemand Registration | 4 | ||||\n"
        "SECTION 2.03. |\nRegistration Procedures | 6 | ||||\n\nThis REGISTRATION RIGHTS AGREEMENT (this "
        "\u201cAgreement\u201d) is entered into as of May 2, 2019 by and among Quillmoor Holdings, Inc., a Delaware "
        "corporation (the \u201cCompany\u201d), and the Investors.\n"
    )
    names = bound_party_names(text)
    assert "Defined Terms" not in names and "Registration Procedures" not in names
    assert "Quillmoor Holdings, Inc." in names


def test_a_party_letter_row_names_a_person_above_identity_and_address_rows() -> None:
    text = (
        "Exhibit 10.1\nShare Exchange and Acquisition Agreement with Western Tarim\nOrchard Development Co., Ltd.\n"
        "December 06, 2017, in Beijing\nParty A: Korla Linden Agriculture Technology Ltd. (\u201cParty A\u201d)\n"
        "Effective controller: Zhang Wei\n|Address:\n|Room 1606, Building B, Rencai Mansion, Korla\n"
        "Party B: Chen Ming\nID Number:\n|Address:\n|Room 2201, Building B, Bazhou Mansion, Korla\n"
        "1. Korla Linden Agriculture Technology Ltd. (\u201cLinden\u201d) incorporated on September 30th, 2017.\n"
    )
    assert bound_party_names(text) == {"Korla Linden Agriculture Technology Ltd.", "Chen Ming"}


def test_a_title_opening_word_alone_on_the_line_above_continues_the_heading() -> None:
    text = (
        "FINAL May\n21\nMASTER\nDISTRIBUTION AGREEMENT\nas of 21\nMay 2009\n|\nbetween\n|\nQuendel\nCeramics GmbH\n"
        "|\n- hereinafter referred to as \"QC\" -\n|\nand\n|\nTorvick Fasteners Corp.\n|\n"
        "- hereinafter referred to as \"DISTRIBUTOR\" -\n"
    )
    assert _title(text) == "MASTER DISTRIBUTION AGREEMENT"
    # A word of another kind alone above a heading is a letterhead or furniture.
    assert _title("QUENDEL\nDISTRIBUTION AGREEMENT\nThis Distribution Agreement is made between Quendel GmbH and "
                  "Torvick Fasteners Corp.\n") == "DISTRIBUTION AGREEMENT"


def test_two_persons_one_wrapped_term_defines_are_two_parties() -> None:
    text = (
        "MAKE\nGOOD ESCROW AGREEMENT\nThis\nMake\nGood Escrow Agreement (the \"Make Good Agreement\"), dated effective "
        "as of May\n3,\n2007, is entered into by and among Tarquin Quest, Inc., a Delaware\ncorporation (the "
        "\"Company\"), Hollister Agee & Loomis, Inc., as agent (\u201cHollister\u201d),\nKenji Arakawa and Mei Lin, "
        "each in their individual capacities (each a \"Make\nGood Pledgor\" and together the \"Make Good "
        "Pledgors\"), and Quarry Transfer\nCorporation, as escrow agent (\"Escrow Agent\").\nWHEREAS,\neach of the "
        "investors has entered into a Securities Purchase Agreement.\n"
    )
    assert bound_party_names(text) == {
        "Tarquin Quest, Inc.", "Hollister Agee & Loomis, Inc.", "Kenji Arakawa", "Mei Lin", "Quarry Transfer Corporation",
    }


def test_a_running_header_and_page_number_before_the_heading_are_no_title() -> None:
    text = (
        "Exclusive License Agreement Page 1 LICENSE AGREEMENT This License Agreement (\"License Agreement\") is "
        "effective February 1, 2000 and is between Tallgrass Research Institute, Inc., a Kansas corporation (the "
        "\"Institute\"), and Corvane Medical, Inc., a Delaware corporation (the \"Company\"). Background The "
        "Institute owns patents.\n"
    )
    assert _title(text) == "LICENSE AGREEMENT"
    assert bound_party_names(text) == {"Tallgrass Research Institute, Inc.", "Corvane Medical, Inc."}


def test_full_width_brackets_inside_a_chinese_company_name_are_part_of_it() -> None:
    text = (
        "EXCLUSIVE BUSINESS COOPERATION AGREEMENT\nThis Agreement is entered into by and between:\n"
        "Party A: Lintao Medical Technology\uff08Changzhou\uff09Co.,Ltd\nAddress: 12 Tongjiang Road, Changzhou\n"
        "Party B: Quanlu Medical Co., Ltd.\nAddress: 8 Yanling Road, Changzhou\n"
    )
    assert bound_party_names(text) == {"Lintao Medical Technology\uff08Changzhou\uff09Co.,Ltd", "Quanlu Medical Co., Ltd."}
