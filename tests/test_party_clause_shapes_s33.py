"""Party clause shapes from a held-out probe of contract openings (issue 9, stop 33; names
invented). Each test fails on the code before its rule.
"""

from __future__ import annotations

from ingest.definitions import find_definitions
from tests.helpers import bound_party_aliases


def _antecedents(text: str) -> dict[str, tuple[str, int] | None]:
    return {d.term: (d.name.text, d.name.start) if d.name else None for d in find_definitions(text)}


def test_two_persons_before_a_collective_definition_are_two_parties() -> None:
    # Before, "Thaddeus M. Pruitt and Caroline S. Pruitt-Vance" was bound as one party.
    text = (
        "ASSET PURCHASE AGREEMENT\n\nThis ASSET PURCHASE AGREEMENT (this \"Agreement\") is entered into as of July 1, "
        "2020, by and among Ferncliff Outdoor Media, Inc., a Georgia corporation (\"Buyer\"), Redbud Billboard "
        "Company, LLC, an Alabama limited liability company (\"Seller\"), and Thaddeus M. Pruitt and Caroline S. "
        "Pruitt-Vance (each, a \"Principal\" and together, the \"Principals\").\n\nRECITALS\n"
    )
    assert bound_party_aliases(text) == {
        "Caroline S. Pruitt-Vance": [],
        "Ferncliff Outdoor Media, Inc.": ["Buyer"],
        "Redbud Billboard Company, LLC": ["Seller"],
        "Thaddeus M. Pruitt": [],
    }


INDENTURE = (
    "FIRST SUPPLEMENTAL INDENTURE\n\nFIRST SUPPLEMENTAL INDENTURE (this \"Supplemental Indenture\"), dated as of "
    "April 7, 2022, among Ashcroft Midstream (Canada) ULC, an unlimited liability company organized under the laws "
    "of the Province of British Columbia (the \"Guaranteeing Subsidiary\"), a subsidiary of Pelham Crossing Energy "
    "Corp., a Delaware corporation (the \"Issuer\"), the Issuer, and Wexmoor Trust Company, N.A., as trustee under "
    "the Indenture referred to below (the \"Trustee\").\n\nW I T N E S S E T H\n"
)


def test_a_parent_named_again_in_the_list_is_a_party_and_a_one_word_term_opens_no_member() -> None:
    # Before, "Issuer" defined "Delaware corporation", "Trustee" defined "Issuer" (the term ", the
    # Issuer," read as a list member), and the title itself was a party ("Supplemental Indenture").
    names = _antecedents(INDENTURE)
    assert names["Issuer"] == ("Pelham Crossing Energy Corp.", INDENTURE.index("Pelham"))
    assert names["Trustee"] == ("Wexmoor Trust Company, N.A.", INDENTURE.index("Wexmoor"))
    assert bound_party_aliases(INDENTURE) == {
        "Ashcroft Midstream (Canada) ULC": ["Guaranteeing Subsidiary"],
        "Pelham Crossing Energy Corp.": ["Issuer"],
        "Wexmoor Trust Company, N.A.": ["Trustee"],
    }


def test_a_parent_not_named_again_stays_no_party() -> None:
    text = INDENTURE.replace(", the Issuer, and", ", and")
    assert "Pelham Crossing Energy Corp." not in bound_party_aliases(text)


def test_a_seat_line_under_a_name_is_no_part_of_it() -> None:
    text = (
        "QUOTA SHARE REINSURANCE AGREEMENT\n\n(hereinafter referred to as the \"Agreement\")\n\nbetween\n\n"
        "PALISADE MUTUAL INSURANCE COMPANY\nOmaha, Nebraska\n(hereinafter referred to as the \"Company\")\n\nand\n\n"
        "CALLOWAY (BERMUDA) RE LTD.\nHamilton, Bermuda\n(hereinafter referred to as the \"Reinsurer\")\n\n"
        "ARTICLE I\nBUSINESS COVERED\n"
    )
    assert _antecedents(text)["Company"] == ("PALISADE MUTUAL INSURANCE COMPANY", text.index("PALISADE"))
    assert bound_party_aliases(text) == {
        "CALLOWAY (BERMUDA) RE LTD.": ["Reinsurer"],
        "PALISADE MUTUAL INSURANCE COMPANY": ["Company"],
    }


def test_the_last_role_of_a_role_list_is_no_party() -> None:
    text = (
        "CREDIT AGREEMENT\n\nDated as of December 14, 2022\n\namong\n\nGREYFIELD INDUSTRIAL HOLDINGS, INC.,\nas the "
        "Borrower,\n\nTHE LENDERS PARTY HERETO,\n\nBANK OF ELDERMOOR, N.A.,\nas Administrative Agent, Swing Line "
        "Lender and L/C Issuer\n\nCREDIT AGREEMENT\n\nThis CREDIT AGREEMENT is entered into as of December 14, 2022, "
        "among GREYFIELD INDUSTRIAL HOLDINGS, INC., a Delaware corporation (the \"Borrower\"), each lender from time "
        "to time party hereto, and BANK OF ELDERMOOR, N.A., as Administrative Agent.\n"
    )
    parties = bound_party_aliases(text)
    assert "L/C Issuer" not in parties
    assert {"BANK OF ELDERMOOR, N.A.", "GREYFIELD INDUSTRIAL HOLDINGS, INC."} <= set(parties)


SUPPLEMENT = (
    "SUPPLEMENT NO. 1 TO COLLATERAL AGREEMENT\n\nSUPPLEMENT NO. 1 dated as of August 15, 2023 (this \"Supplement\"), "
    "to the Collateral Agreement dated as of December 14, 2022 (the \"Collateral Agreement\"), among Greyfield "
    "Industrial Holdings, Inc., a Delaware corporation (the \"Borrower\"), and Bank of Eldermoor, N.A., as "
    "collateral agent (in such capacity, the \"Collateral Agent\").\n\nB. Accordingly, the Collateral Agent and "
    "Kinloch Specialty Coatings, LLC, an Ohio limited liability company (the \"New Subsidiary\"), agree as follows:\n"
)


def test_a_term_after_this_names_the_document_and_an_adverb_opens_no_name() -> None:
    # Before, "SUPPLEMENT NO. 1" was a party aliased "Supplement", and "New Subsidiary" defined
    # "Accordingly".
    names = _antecedents(SUPPLEMENT)
    assert names["New Subsidiary"] == ("Kinloch Specialty Coatings, LLC", SUPPLEMENT.index("Kinloch"))
    supplement = next(d for d in find_definitions(SUPPLEMENT) if d.term == "Supplement")
    assert not supplement.is_party_alias
    assert "SUPPLEMENT NO. 1" not in bound_party_aliases(SUPPLEMENT)


def test_a_term_after_a_document_of_an_organisation_is_the_organisations() -> None:
    text = (
        "SIDE LETTER AGREEMENT\n\nLadies and Gentlemen:\n\nReference is made to the Amended and Restated Agreement of "
        "Limited Partnership of Birchfield & Ames Capital Partners 2019-A, L.P. (the \"Partnership\"), and to the "
        "Subscription Agreement of Halden County Employees' Retirement System (the \"Investor\"). The Partnership "
        "agrees with the Investor as follows:\n"
    )
    names = _antecedents(text)
    assert names["Partnership"] == ("Birchfield & Ames Capital Partners 2019-A, L.P.", text.index("Birchfield"))
    assert names["Investor"] == ("Halden County Employees' Retirement System", text.index("Halden"))
