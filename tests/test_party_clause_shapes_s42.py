"""Party clause and title shapes from a sixth held-out probe of contract openings (issue 9, stop
42; names invented, texts rewritten from the probe's shapes). Each test but the guards fails on
the code before its rule.
"""

from __future__ import annotations

from ingest.definitions import find_definitions
from tests.helpers import agreement_title, bound_party_aliases, bound_party_names


def _definitions(text: str) -> dict[str, tuple[str | None, bool]]:
    return {d.term: (d.name.text if d.name else None, d.is_party_alias) for d in find_definitions(text)}


WAIVER = (
    "FIRST AMENDMENT TO NOTE PURCHASE AGREEMENT\n\nTHIS FIRST AMENDMENT TO NOTE PURCHASE AGREEMENT (this "
    "\"Amendment\") is entered into as of May 2, 2023, by and among LORENZA DEVICES SA, a company limited by shares "
    "incorporated under the laws of Switzerland, with its registered office at Rue du Lac 4, 1003 Lausanne, "
    "Switzerland (the \"Company\"), MOREL CAPITAL AG, as purchaser (the \"Purchaser\"), and, solely for purposes of "
    "Section 5, TALLIS AGENCY SERVICES LLC, in its capacity as collateral agent (the \"Collateral Agent\").\n\n"
    "RECITALS\n\nA. The parties are parties to a Note Purchase Agreement.\n"
)


def test_a_purpose_qualifier_after_the_lists_and_keeps_the_name_its_definitions() -> None:
    # Before, the definition after ", and, solely for purposes of Section 5," found no name.
    assert _definitions(WAIVER)["Collateral Agent"] == ("TALLIS AGENCY SERVICES LLC", True)
    assert bound_party_aliases(WAIVER)["TALLIS AGENCY SERVICES LLC"] == ["Collateral Agent"]


def test_a_purpose_qualifier_before_an_undefined_name_is_read_past_by_the_review() -> None:
    # Before, the learned review saw "Section 5," before the name, not the list's "and".
    text = (
        "This Amendment is entered into as of April 4, 2023, by and among HALVARD SA, a Swiss company, QUINTON "
        "KAPITAL AG, as purchaser, and, for the limited purposes set forth in Section 9, MERIDEN LOAN AGENCY LLC.\n\n"
        "1. Amendments.\n"
    )
    # (The sentence's period stays on the name's span; the registry's normalisation drops it.)
    assert bound_party_names(text) == {"HALVARD SA", "QUINTON KAPITAL AG", "MERIDEN LOAN AGENCY LLC."}


def test_a_charter_partys_this_day_clause_may_set_its_date_off_in_commas() -> None:
    # Before, "It is this day, 4 February 2022, mutually agreed between" was no preamble, so the
    # heading without an agreement word titled nothing.
    text = (
        "Exhibit 10.4\n\nTIME CHARTER PARTY\n\nM/T \"ASKEBY STAR\"\n\nIt is this day, 9 March 2021, mutually agreed "
        "between Askeby Rederi A/S, a company incorporated in Denmark (hereinafter referred to as \"Owners\"), and "
        "Caldwell Shipping Ltd., a Marshall Islands corporation (hereinafter referred to as \"Charterers\"), as "
        "follows:\n\n1. Duration. Owners agree to let the Vessel.\n"
    )
    assert agreement_title(text) == "TIME CHARTER PARTY"
    assert bound_party_names(text) == {"Askeby Rederi A/S", "Caldwell Shipping Ltd."}


AVENANT = (
    "AMENDMENT NO. 2 TO THE SUPPLY AGREEMENT\n\nBETWEEN THE UNDERSIGNED:\n\nCOMPAGNIE DES EAUX MINÉRALES DU LARZAC, "
    "a société anonyme whose registered office is at 2 rue des Lilas, 12100 Millau, France, represented by Mr. Paul "
    "Vidal,\n\nhereinafter referred to as \"CEML\" or the \"Supplier\",\n\nAND:\n\nNORTHBROOK BEVERAGE, INC., a "
    "corporation organized under the laws of the State of Ohio,\n\nhereinafter referred to as \"Northbrook\" or the "
    "\"Buyer\",\n\nWHEREAS:\n\n- The Parties entered into a supply agreement.\n"
)


def test_an_acronym_may_leave_out_french_joining_words() -> None:
    # Before, "CEML" was not made from "Compagnie des Eaux Minérales du Larzac" ("des" and "du"
    # counted), and a six-word name without a legal form took no other term.
    assert _definitions(AVENANT)["CEML"] == ("COMPAGNIE DES EAUX MINÉRALES DU LARZAC", True)
    assert bound_party_names(AVENANT) == {"COMPAGNIE DES EAUX MINÉRALES DU LARZAC", "NORTHBROOK BEVERAGE, INC."}


def test_a_hereinafter_clause_defines_every_term_joined_by_or() -> None:
    # Before, only the first quoted term ("CEML") was read; "Supplier" was lost.
    defined = _definitions(AVENANT)
    assert defined["Supplier"] == ("COMPAGNIE DES EAUX MINÉRALES DU LARZAC", True)
    assert defined["Buyer"] == ("NORTHBROOK BEVERAGE, INC.", True)


def test_a_hereinafter_clauses_and_opens_the_next_party_guard() -> None:
    # Guard: 'hereinafter "ABC" AND "XY" TECHNOLOGIES': the "and" is the list's, not the terms'.
    text = (
        "AGREEMENT ENTERED BETWEEN \"ALMACENES BRAVO S.A. DE C.V.\" represented in this act by Mr. Luis Ortega, "
        "hereinafter \"ABC\" AND \"XY\" TECHNOLOGIES represented in this act by Ms. Rosa Diaz, hereinafter \"XY\" "
        "in accordance with the following recitals."
    )
    assert "ABC" in _definitions(text)
    assert "XY" in {term for term in _definitions(text)}
    assert _definitions(text)["XY"][0] == '"XY" TECHNOLOGIES'


def test_a_class_of_lenders_listed_in_a_schedule_is_no_party() -> None:
    # Before, "THE FINANCIAL INSTITUTIONS" took the term "Original Lenders" and was bound.
    text = (
        "TERM FACILITY AGREEMENT\n\nTHIS AGREEMENT is dated 3 June 2021 and made between:\n\n(1) BRENTHAM FINANCE "
        "S.À R.L., a société à responsabilité limitée incorporated in Luxembourg (the \"Borrower\");\n\n(2) THE "
        "FINANCIAL INSTITUTIONS listed in Part II of Schedule 1 as lenders (the \"Original Lenders\"); and\n\n(3) "
        "HOLBECK BANK PLC as agent of the Finance Parties (the \"Agent\").\n\nIT IS AGREED as follows:\n"
    )
    assert bound_party_names(text) == {"BRENTHAM FINANCE S.À R.L.", "HOLBECK BANK PLC"}


def test_a_name_of_that_shape_with_a_legal_form_stays_a_party_guard() -> None:
    # Guard: a company whose name ends in a class word but carries a legal form is named, not a class.
    text = (
        "SERVICES AGREEMENT\n\nThis Services Agreement is made as of June 1, 2021 by and between Kestrel Lenders, "
        "Inc., a Delaware corporation (the \"Client\"), and Pallas Data LLC (the \"Provider\").\n\nRECITALS\n"
    )
    assert bound_party_names(text) == {"Kestrel Lenders, Inc.", "Pallas Data LLC"}


def test_holders_named_after_namely_are_parties_and_their_company_is_not() -> None:
    # Before, the company after "stockholders of" was bound as the "Company", and the list after
    # "namely" broke at a member's trustee capacity.
    text = (
        "VOTING AGREEMENT\n\nThis VOTING AGREEMENT (this \"Agreement\"), dated as of May 1, 2023, is entered into by "
        "and among Quarry Hill Pharma, Inc., a Delaware corporation (\"Parent\"), and each of the undersigned "
        "stockholders of Linden Therapeutics, Inc., a Delaware corporation (the \"Company\"), namely Maria "
        "Castellano, Peter J. Wolcott, as trustee of the Wolcott Family Trust u/a/d March 2, 2010, Ashgrove Partners "
        "Fund II, L.P. and Ashgrove Partners Affiliates Fund II, L.P. (each, a \"Stockholder\" and collectively, the "
        "\"Stockholders\").\n\nWHEREAS, Parent and the Company are entering into a merger agreement;\n"
    )
    assert bound_party_names(text) == {
        "Quarry Hill Pharma, Inc.", "Maria Castellano", "Peter J. Wolcott",
        "Ashgrove Partners Fund II, L.P.", "Ashgrove Partners Affiliates Fund II, L.P.",
    }


def test_an_exhibit_number_set_off_at_the_headings_line_end_is_furniture() -> None:
    # Before, "SUBLEASE      Exhibit 10.22" was no heading line, and the title fell back to "Agreement".
    text = (
        "SUBLEASE                                                        Exhibit 10.9\n\nTHIS SUBLEASE (\"Sublease\") "
        "is dated for reference purposes as of March 1, 2021, and is made by and between HALCYON ASSAY CORP., a "
        "Delaware corporation (\"Sublandlord\"), and VERDANT CELL, INC., a Delaware corporation "
        "(\"Subtenant\").\n\nRECITALS\n\nA. Sublandlord leases certain premises.\n"
    )
    assert agreement_title(text) == "SUBLEASE"


WAIVER_LETTER = (
    "MILLBROOK SAVINGS BANK\n200 Main Street\nLancaster, Pennsylvania 17603\n\nMay 5, 2023\n\nOakridge Looms, Inc.\n"
    "40 Mill Road\nEphrata, Pennsylvania 17522\n\nRe: Limited Waiver and Consent\n\nLadies and Gentlemen:\n\nReference "
    "is made to that certain Credit Agreement dated as of March 14, 2019 (the \"Credit Agreement\") between Oakridge "
    "Looms, Inc., a Pennsylvania corporation (the \"Borrower\"), and Millbrook Savings Bank (the \"Lender\"). The "
    "Lender waives the Specified Default.\n\nVery truly yours,\n\nMILLBROOK SAVINGS BANK\n\nBy: /s/ Jane Keller\n"
    "Name: Jane Keller\n\n{acceptance}OAKRIDGE LOOMS, INC.\n\nBy: /s/ Tom Hale\nName: Tom Hale\n"
)


def test_a_waiver_letters_reference_line_titles_it_over_the_agreement_it_cites() -> None:
    # Before, the title was the cited "Credit Agreement", another agreement's name.
    text = WAIVER_LETTER.format(acceptance="ACKNOWLEDGED AND AGREED:\n\n")
    assert agreement_title(text) == "Limited Waiver and Consent"


def test_an_instrument_reference_line_needs_an_acceptance_or_self_reference_guard() -> None:
    # Guard: without an acceptance and without "this letter"/"this Consent", the reference line
    # names no title (the letter may only discuss a waiver).
    text = WAIVER_LETTER.format(acceptance="")
    assert agreement_title(text) != "Limited Waiver and Consent"


# From a seventh held-out probe (parties named outside a clean preamble).


def test_numbered_items_under_a_plural_role_label_are_parties() -> None:
    # Before, "Pledgors:" alone on its line named no one, so the two individuals were lost.
    text = (
        "Equity Pledge Agreement\n\nThis Equity Pledge Agreement is entered into by the following parties on May 2, "
        "2021 in Shanghai, the People's Republic of China:\n\nPledgee: Shanghai Qinglan Data Technology Co., Ltd.\n"
        "Address: Room 12, No. 8 Keyuan Road, Shanghai\n\nPledgors:\n(1) Wang Lixin, a PRC citizen with ID No. "
        "3101XXXX\n(2) Zhou Meiling, a PRC citizen with ID No. 3102XXXX\n\nWhereas:\n\n1. The Pledgors hold the equity.\n"
    )
    assert bound_party_aliases(text) == {
        "Shanghai Qinglan Data Technology Co., Ltd.": ["Pledgee"],
        "Wang Lixin": ["Pledgor"],
        "Zhou Meiling": ["Pledgor"],
    }


DEED = (
    "DEED OF VARIATION\nrelating to a Service Agreement\n\nTHIS DEED OF VARIATION is made on 3 October 2022\n\n"
    "BETWEEN:\n\n(1) the Company; and\n(2) the Executive,\neach as defined in clause 1.1.\n\n1. DEFINITIONS\n"
    "1.1 In this Deed:\n\"Company\" means Ashcombe Lettings Limited (company number 01234567), formerly known as "
    "Ashcombe Homes Limited, whose registered office is at 4 Bath Road, Swindon;\n\"Executive\" means Rosalind Mary "
    "Penrose-Hart of 9 Park Crescent, Bath BA1 2AB;\n\"Parent\" means Ashcombe Group plc.\n\n2. VARIATION\n2.1 The "
    "Executive's base salary is varied.\n"
)


def test_terms_of_a_party_clause_are_bound_to_the_names_the_definitions_section_gives() -> None:
    # Before, the clause named only "the Company" and "the Executive"; neither name was bound.
    assert bound_party_aliases(DEED) == {
        "Ashcombe Lettings Limited": ["Company"],
        "Rosalind Mary Penrose-Hart": ["Executive"],
    }


def test_a_means_entry_the_party_clause_does_not_name_is_no_party_guard() -> None:
    # Guard: "Parent" is defined in the same section but is not in the clause.
    assert "Ashcombe Group plc" not in bound_party_names(DEED)


def test_a_list_after_namely_in_a_parties_article_reads_each_member() -> None:
    # Before, the list was read from the article's first words and broke; the individual was lost.
    text = (
        "SHARE EXCHANGE AGREEMENT\n\nTHIS SHARE EXCHANGE AGREEMENT is made as of May 1, 2022, by and among the parties "
        "identified in Article I.\n\nARTICLE I\nPARTIES\n\n1.1 Pubco. Tidewell Holdings Limited, an exempted company "
        "incorporated in the Cayman Islands (\"Pubco\").\n\n1.2 Shareholders. The holders of all of the issued shares "
        "of the Company, namely Brightfin Ventures Limited, a British Virgin Islands company, and Li Qiaoming, a "
        "citizen of the People's Republic of China (each a \"Shareholder\" and together the \"Shareholders\").\n\n"
        "ARTICLE II\nRECITALS\n"
    )
    assert {"Brightfin Ventures Limited", "Li Qiaoming"} <= bound_party_names(text)


def test_a_defined_terms_possessive_defines_no_party() -> None:
    # Before, "Employee's" (of "Employee's heirs and assigns") took the term "Released Parties".
    text = (
        "SEPARATION AGREEMENT AND GENERAL RELEASE\n\nThis Separation Agreement (\"Agreement\") is made by and between "
        "Employer and Employee (each as identified in Section 1).\n\n1. Parties.\n   (a) \"Employer\" means Quillon "
        "Media Group, Inc.\n   (b) \"Employee\" means Aoife K. Brennan-Walsh.\n\n2. Release. Employee, for Employee "
        "and Employee's heirs and assigns, releases Employer and its affiliates (the \"Released Parties\") from all "
        "claims.\n"
    )
    names = bound_party_names(text)
    assert "Employee's" not in names
    assert names == {"Quillon Media Group, Inc.", "Aoife K. Brennan-Walsh"}


def test_a_between_inside_a_definitions_entry_is_no_party_clause() -> None:
    # Guard: a "between" inside a definitions entry opens no party clause, so the name
    # another entry gives "STX" is never bound.
    from ingest.definitions import term_slot_names

    text = (
        "TRANSPORTATION CONTRACT\n\nJSC Orda Oil, hereinafter referred to as the \"Company\", on the one side and JSC "
        "Tobol Munai, hereinafter referred to as the \"Principal\", on the other side, agree as follows:\n\n"
        "2. DEFINITIONS\n\n\"Blend\" means the blend agreed between the Principal and STX.\n\n\"STX\" means Harwick "
        "Trading International Limited.\n"
    )
    assert term_slot_names(text) == []


def test_a_plural_role_label_heads_at_most_its_bound_of_items() -> None:
    # Bound: at most 16 numbered items under one plural label are read; the 17th names no party.
    from ingest.party_layout import label_slots

    items = "".join(f"({n}) Person{chr(64 + n)} Surname{chr(64 + n)}, a PRC citizen\n" for n in range(1, 18))
    text = (
        "Equity Pledge Agreement\n\nThis Equity Pledge Agreement is entered into by the following parties on May 2, "
        "2021:\n\nPledgee: Shanghai Qinglan Data Technology Co., Ltd.\n\nPledgors:\n" + items + "\nWhereas:\n\n1. Recital.\n"
    )
    pledgors = [slot.name.text for slot in label_slots(text) if slot.term == "Pledgor"]
    assert pledgors == [f"Person{chr(64 + n)} Surname{chr(64 + n)}" for n in range(1, 17)]
