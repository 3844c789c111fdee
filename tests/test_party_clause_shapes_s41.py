"""Party clause shapes from a fifth held-out probe of contract openings (issue 9, stop 41; names
invented, texts rewritten from the probe's shapes). Each test fails on the code before its rule.
"""

from __future__ import annotations

from ingest.definitions import find_definitions
from tests.helpers import agreement_title, bound_party_aliases, bound_party_names


def _antecedents(text: str) -> dict[str, str | None]:
    return {d.term: d.name.text if d.name else None for d in find_definitions(text)}


def test_a_stacked_cover_entry_may_close_with_a_trustee_capacity() -> None:
    # Before, the second line did not fill its cell with a name and its number, so the trustee
    # company was no party.
    text = (
        "Supply Agreement\n\nHarrowgate Medical Pty Ltd\n\nBellbird Contract Services Pty Ltd as trustee for the "
        "Bellbird Unit Trust\n\n\n\nDetails\n\nDate            4 May 2021\n\nBackground\n\nA    Harrowgate sells the "
        "Products in Australia.\n"
    )
    assert bound_party_names(text) == {"Harrowgate Medical Pty Ltd", "Bellbird Contract Services Pty Ltd"}


JOINDER = (
    "JOINDER AGREEMENT\n\nTHIS JOINDER AGREEMENT, dated as of May 2, 2023 (this \"Joinder Agreement\"), is entered into "
    "by and between Kallmeyer Pumpen GmbH, a limited liability company organized under the laws of the Federal "
    "Republic of Germany (the \"Additional Grantor\"), and HOLLOWAY TRUST COMPANY, N.A., as collateral agent (in such "
    "capacity, together with its successors and assigns, the \"Collateral Agent\") for the Secured Parties.\n\n"
    "Reference is made to the Guarantee and Collateral Agreement, dated as of June 1, 2020 (as amended, restated, "
    "supplemented or otherwise modified from time to time, the \"Guarantee and Collateral Agreement\"), among "
    "KALLMEYER INDUSTRIAL HOLDINGS, INC., a Delaware corporation (the \"Borrower\"), the other Grantors from time to "
    "time party thereto and the Collateral Agent. Capitalized terms used herein have the meanings given to them in "
    "the Guarantee and Collateral Agreement.\n"
)


def test_the_cited_agreements_clause_ends_at_its_sentence_and_adds_no_reviewed_party() -> None:
    # Before, the learned review added the cited agreement's borrower: its title stands too far
    # back for the review's own cue.
    from ingest.definitions import cited_clause_spans

    start = JOINDER.index("among KALLMEYER")
    assert cited_clause_spans(JOINDER) == [(start, JOINDER.index(". Capitalized"))]
    assert bound_party_aliases(JOINDER) == {
        "HOLLOWAY TRUST COMPANY, N.A.": ["Collateral Agent"],
        "Kallmeyer Pumpen GmbH": ["Additional Grantor"],
    }


def test_an_address_abbreviation_ends_no_clause() -> None:
    # Before, "Col." ended the clause, so "(the "Distributor")" defined the colonia's name.
    text = (
        "DISTRIBUTION AGREEMENT\n\nThis Distribution Agreement is made on this 9th day of May, 2019\n\nBy and Between:\n\n"
        "Orvane Systems Ltd., an Israeli company, having its principal offices at 4 HaBarzel Street, Tel Aviv, Israel\n\n"
        "(hereinafter: \"Orvane\")\n\nof the first part;\n\nAnd:\n\nRedes Quintero S.A. de C.V., a company organized under "
        "the laws of the United Mexican States, having its offices at Av. Reforma 222, Piso 4, Col. Santa Fe Cuajimalpa, "
        "05348 Ciudad de México, Mexico\n\n(hereinafter: the \"Distributor\")\n\nof the second part;\n\nWHEREAS the "
        "parties wish to cooperate;\n"
    )
    assert _antecedents(text)["Distributor"] == "Redes Quintero S.A. de C.V."
    assert bound_party_aliases(text) == {"Orvane Systems Ltd.": ["Orvane"], "Redes Quintero S.A. de C.V.": ["Distributor"]}


def test_signature_blocks_side_by_side_name_each_column_and_a_company_head_counts() -> None:
    # Before, the reading before the first "By:" held the right column only, and "... COMPANY"
    # (no legal form) headed no block: one party of two was read.
    text = (
        "MARKETING SERVICES AGREEMENT\n\nThis Marketing Services Agreement (the \"Agreement\") is entered into as of the "
        "date of the last signature below between the agency and the client identified in the signature blocks below "
        "(each a \"Party\").\n\nAGENCY:                                        CLIENT:\n\n"
        "CORALINE DIGITAL PARTNERS, INC.               WESTBROOK MUTUAL FUEL COMPANY\n\n"
        "By: /s/ Amos T. Leary                         By: /s/ Rita P. Gomez\nName: Amos T. Leary                  "
        "         Name: Rita P. Gomez\nTitle: President                              Title: Vice President\n\n"
        "SCHEDULE OF SERVICES\n\nCampaign: regional radio.\n"
    )
    assert bound_party_names(text) == {"CORALINE DIGITAL PARTNERS, INC.", "WESTBROOK MUTUAL FUEL COMPANY"}


def test_a_predecessor_in_interest_is_no_party_where_the_recitals_name_it_again() -> None:
    # Before, the learned review added the predecessor from the recitals.
    text = (
        "AMENDED AND RESTATED SUPPLY AGREEMENT\n\nThis Amended and Restated Supply Agreement (this \"Agreement\") is "
        "entered into as of May 1, 2017 by and between Cordell Botanicals, LLC, a Utah limited liability company (as "
        "successor in interest to Cordell Laboratories, Inc.) (\"Supplier\"), and Northbay Organic Grocers Co., an Oregon "
        "corporation (\"Buyer\").\n\nWHEREAS, Cordell Laboratories, Inc. and Buyer entered into that certain Supply "
        "Agreement dated as of March 1, 2013 (the \"Original Agreement\");\n\nWHEREAS, effective as of January 1, 2016, "
        "Cordell Laboratories, Inc. merged with and into Supplier, with Supplier succeeding to all rights and "
        "obligations of Cordell Laboratories, Inc. under the Original Agreement; and\n\nWHEREAS, Supplier and Buyer "
        "desire to amend and restate the Original Agreement.\n"
    )
    assert bound_party_aliases(text) == {
        "Cordell Botanicals, LLC": ["Supplier"],
        "Northbay Organic Grocers Co.": ["Buyer"],
    }


def test_a_one_word_person_reading_is_a_short_name_of_a_cover_party() -> None:
    # Before, "Kendrick" (tagged PERSON by the model) stayed a party beside KENDRICK PAYMENTS CORP.
    text = (
        "HOSTING SERVICES AGREEMENT\n\nbetween\n\nSTRATAVALE CLOUD SERVICES, LLC\n\nand\n\nKENDRICK PAYMENTS CORP.\n\n"
        "Agreement No. SV-2018-0101\n\n\n\nHOSTING SERVICES AGREEMENT\n\nThis Hosting Services Agreement (this "
        "\"Agreement\") is entered into as of the date of the last signature below by and between Stratavale (as "
        "identified on the cover page, \"Provider\") and Kendrick (as identified on the cover page, \"Customer\"). "
        "Provider will deliver the Services from data centers located in Ashburn, Virginia.\n"
    )
    assert bound_party_names(text) == {"STRATAVALE CLOUD SERVICES, LLC", "KENDRICK PAYMENTS CORP."}


WARRANT = (
    "THIS WARRANT HAS NOT BEEN REGISTERED UNDER THE SECURITIES ACT OF 1933, AS AMENDED (THE \"ACT\").\n\n"
    "Warrant No. W-11\n\nCOMMON STOCK PURCHASE WARRANT\n\nFENWAY THERAPEUTICS, INC.\n\n     THIS CERTIFIES THAT, for "
    "value received, Saltmarsh Venture Lending Fund III, L.P., or its registered assigns (the \"Holder\"), is "
    "entitled to purchase from Fenway Therapeutics, Inc., a Delaware corporation (the \"Company\"), up to 90,000 "
    "shares of Common Stock. This Warrant is issued in connection with the Loan and Security Agreement dated as of "
    "June 3, 2022 (the \"Loan Agreement\") among the Company, Saltmarsh Capital Management, LLC, as collateral agent, "
    "and the lenders from time to time party thereto.\n"
)


def test_a_blank_line_after_a_legal_form_ends_the_clause_and_registered_assigns_close_the_name() -> None:
    # Before, "INC.\n\n" was read as an abbreviation, so the clause ran up over the company's
    # heading line and "Holder" defined the company; ", or its registered assigns" closed nothing.
    assert _antecedents(WARRANT)["Holder"] == "Saltmarsh Venture Lending Fund III, L.P."


def test_a_between_right_after_another_documents_definition_is_that_documents_clause() -> None:
    # Before, "among the Company, Saltmarsh Capital Management, LLC, ..." was read as the warrant's
    # own party clause (its first "among"), binding the collateral agent.
    assert bound_party_aliases(WARRANT) == {
        "Fenway Therapeutics, Inc.": ["Company", "FENWAY THERAPEUTICS, INC."],
        "Saltmarsh Venture Lending Fund III, L.P.": ["Holder"],
    }


def test_an_amendments_own_clause_after_its_parents_definition_stays_its_own() -> None:
    # No two parties are defined before the sentence: the "between" is the document's own.
    text = (
        "AMENDMENT NO. 1\n\nThis Amendment No. 1 amends the Supply Agreement dated as of May 1, 2019 (the \"Supply "
        "Agreement\") between Arbor Foods, Inc. (\"Arbor\") and Tillman Farms LLC (\"Tillman\").\n\n1. Price.\n"
    )
    assert bound_party_aliases(text) == {"Arbor Foods, Inc.": ["Arbor"], "Tillman Farms LLC": ["Tillman"]}


def test_a_reference_line_may_name_the_letter_with_a_lower_case_joiner() -> None:
    # Before, "Re: Amended and Restated Employment Letter" was no reference (its "and"), and the
    # letter was titled by its defined term, "Agreement".
    text = (
        "HOLLIS ANALYTICS, INC.\n1 Market Street\nSan Jose, California 95113\n\nMarch 2, 2022\n\nJonah P. Whitcombe\n"
        "12 Birch Way\nSaratoga, CA 95070\n\nRe:   Amended and Restated Employment Letter\n\nDear Jonah:\n\nThis letter "
        "agreement (this \"Agreement\") amends and restates the offer letter between you and Hollis Analytics, Inc. (the "
        "\"Company\") dated May 1, 2020.\n\n1.   Position. You will serve as Chief Technology Officer.\n"
    )
    assert agreement_title(text) == "Amended and Restated Employment Letter"
