"""Party clause shapes from the seventh held-out probe's remaining misses and an eighth probe of
contract openings (issue 9, stop 43; names invented, texts rewritten from the probes' shapes).
Each test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.definitions import find_definitions, notice_slot_names
from tests.helpers import agreement_title, bound_party_aliases, bound_party_names


def _supply(description: str) -> str:
    return (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made as of March 9, 2018, by and between Pelagic Marine "
        "Biologics, Inc., a Delaware corporation (\"Pelagic\"), and Ashgrove Sterile Fill Finish Ltd., "
        f"{description} (\"Ashgrove\").\n\n1. Supply. Ashgrove shall supply the Product.\n"
    )


def test_an_and_inside_a_place_of_incorporation_opens_no_party() -> None:
    # Before, "Wales" was a party holding the term "Ashgrove", and Ashgrove's own name had none.
    text = _supply("a company incorporated in England and Wales")
    assert bound_party_names(text) == {"Pelagic Marine Biologics, Inc.", "Ashgrove Sterile Fill Finish Ltd."}
    assert bound_party_aliases(text)["Ashgrove Sterile Fill Finish Ltd."] == ["Ashgrove"]
    # Doubled spaces (an EDGAR conversion) and a place added to the list for this stop.
    for description in (
        "a  company  registered  in  England  and  Wales  with  company  number  04417  ",
        "a company organised under the laws of Trinidad and Tobago",
    ):
        assert bound_party_names(_supply(description)) == {
            "Pelagic Marine Biologics, Inc.",
            "Ashgrove Sterile Fill Finish Ltd.",
        }


def test_guard_an_and_between_two_companies_still_opens_the_next_party() -> None:
    text = (
        "This Agreement is made as of May 1, 2020 between Wexford Holdings Ltd., a company incorporated in England "
        "and Wales, and Wales Fabrication Ltd. (\"Fabricator\").\n"
    )
    definitions = {d.term: d.name.text if d.name else None for d in find_definitions(text)}
    assert definitions["Fabricator"] == "Wales Fabrication Ltd."


WARRANT = (
    "ZEPHYRA SOLAR HOLDINGS, INC.\n\nWARRANT TO PURCHASE COMMON STOCK\n\nWarrant No. W-14\n\nTHIS CERTIFIES THAT, "
    "for value received, Bramblewood Capital Partners, L.P. or its registered assigns (the \"Holder\") is entitled "
    "to purchase from Zephyra Solar Holdings, Inc., a Nevada corporation (the \"Company\"), up to 750,000 shares of "
    "Common Stock.\n\n1. Exercise. Exercise of this Warrant may be made by delivery of a Notice of Exercise.\n\n"
    "IN WITNESS WHEREOF, the Company has caused this Warrant to be executed.\n\nZEPHYRA SOLAR HOLDINGS, INC.\n\n"
    "By: /s/ Camille Ortega-Vance\nName: Camille Ortega-Vance\nTitle: Chief Executive Officer\n"
)


def test_a_holders_registered_assigns_without_a_comma_close_its_clause() -> None:
    # Before, "or its registered assigns" without a comma before it hid the holder from its term.
    definitions = {d.term: d.name.text if d.name else None for d in find_definitions(WARRANT)}
    assert definitions["Holder"] == "Bramblewood Capital Partners, L.P."
    assert "Bramblewood Capital Partners, L.P." in bound_party_names(WARRANT)


CONSULTING = (
    "CONSULTING AGREEMENT\n\nThis Consulting Agreement (the \"Agreement\") is made effective as of January 10, "
    "2023 between the Company and the Consultant identified in Section 12 below.\n\n1. Services. The Consultant "
    "shall provide advisory services to the Company.\n\n12. Notices. All notices shall be delivered as follows:\n\n"
    "If to the Company:\nVireo Pulmonary Therapeutics, Inc.\n200 Cambridge Park Drive\nCambridge, MA 02140\n\n"
    "with a copy (which shall not constitute notice) to:\nAbernathy Locke LLP\nOne Federal Plaza, Boston, MA 02110\n\n"
    "If to the Consultant:\nHarold T. Beaumont, Jr.\n18 Old Farm Lane\nChapel Hill, NC 27514\n\n"
    "IN WITNESS WHEREOF, the parties have executed this Agreement.\n"
)


def test_a_clause_naming_its_parties_by_term_binds_the_notices_addressees() -> None:
    # Before, the consultant, named only in the notices clause, was no party.
    assert [(term, name.text) for term, name in notice_slot_names(CONSULTING)] == [
        ("Company", "Vireo Pulmonary Therapeutics, Inc."),
        ("Consultant", "Harold T. Beaumont, Jr."),
    ]
    assert bound_party_names(CONSULTING) == {"Vireo Pulmonary Therapeutics, Inc.", "Harold T. Beaumont, Jr."}
    # The copy's addressee is no party: only a term the party clause uses is read.
    assert "Abernathy Locke LLP" not in bound_party_names(CONSULTING)


def test_guard_a_notice_addressee_never_replaces_a_party_the_preamble_names() -> None:
    text = (
        "SERVICES AGREEMENT\n\nThis Services Agreement is made as of June 1, 2021 between Halden Systems, Inc. "
        "(the \"Company\") and Orrin Labs LLC (the \"Consultant\").\n\n9. Notices.\n\nIf to the Company:\nHalden "
        "Group Holdings Corp.\nAttention: Legal\n\nIf to the Consultant:\nOrrin Labs LLC\n"
    )
    # The notices go to the parent, which the preamble's definition already answers for.
    assert bound_party_names(text) == {"Halden Systems, Inc.", "Orrin Labs LLC"}


def test_a_predecessor_by_assignment_and_the_company_a_stockholder_holds_are_no_parties() -> None:
    # Before, the assigning lender and the company whose stock the holder owns were parties.
    amendment = (
        "SECOND AMENDMENT TO LOAN AGREEMENT\n\nThis SECOND AMENDMENT TO LOAN AGREEMENT (this \"Amendment\") is "
        "entered into as of September 30, 2020, by and between Ostrander Commercial Bank, N.A. (\"Lender\"), as "
        "successor by assignment to Pellham Capital Finance LLC (\"Original Lender\"), and Riverstone Outdoor Co., "
        "a Colorado corporation (\"Borrower\").\n\n1. Amendments.\n"
    )
    assert bound_party_names(amendment) == {"Ostrander Commercial Bank, N.A.", "Riverstone Outdoor Co."}
    voting = (
        "VOTING AGREEMENT\n\nThis VOTING AGREEMENT (this \"Agreement\"), dated as of August 9, 2022, is entered into "
        "by and between Brackenridge Industrial Corp., a Delaware corporation (\"Parent\"), and the stockholder of "
        "Sundial Packaging Systems, Inc., a Nevada corporation (the \"Company\"), set forth on the signature page "
        "hereto (the \"Stockholder\").\n\n1. Agreement to Vote.\n"
    )
    assert "Sundial Packaging Systems, Inc." not in bound_party_names(voting)
    assert "Brackenridge Industrial Corp." in bound_party_names(voting)


PLACEMENT_LETTER = (
    "EXHIBIT 10.14\n\n[LETTERHEAD OF HOLLOWAY STREET CAPITAL MARKETS, LLC]\n\n                June 5, 2017\n\n"
    "CONFIDENTIAL\n\nNexaura Diagnostics, Inc.\n1800 Tamsin Court, Suite 210\nSan Diego, CA 92121\nAttention: Dr. "
    "Priya Venkataraman, Chief Executive Officer\n\nRe: Exclusive Placement Agent Engagement\n\nDear Dr. "
    "Venkataraman:\n\nThis letter agreement (this \"Agreement\") confirms the terms upon which Holloway Street "
    "Capital Markets, LLC (\"Holloway\" or the \"Placement Agent\") has been engaged by Nexaura Diagnostics, Inc. "
    "(the \"Company\") to act as exclusive placement agent in connection with the proposed private placement.\n\n"
    "1.  Appointment. The Company hereby appoints Holloway as its exclusive placement agent.\n"
)


def test_a_letters_subject_line_without_an_agreement_word_titles_it() -> None:
    # Before, the title was "Agreement" (the letter's own defined term).
    assert agreement_title(PLACEMENT_LETTER) == "Exclusive Placement Agent Engagement"
    offer = (
        "[LETTERHEAD OF SILVERBIRCH GENOMICS, INC.]\n\nMarch 28, 2022\n\nMs. Priyanka Raghunathan\n2290 Bayview "
        "Terrace\nSan Mateo, CA 94402\n\nRe: Offer of Employment\n\nDear Priyanka:\n\nOn behalf of Silverbirch "
        "Genomics, Inc. (the \"Company\"), I am pleased to offer you the position of Vice President. This letter "
        "agreement sets out the terms of your employment.\n\nThis offer is contingent on your signing the "
        "Company's Employee Proprietary Information and Inventions Assignment Agreement.\n\nVery truly yours,\n"
    )
    # Before, the agreement the offer cites in its last paragraph was the title.
    assert agreement_title(offer) == "Offer of Employment"


def test_guard_a_subject_line_naming_an_agreement_or_a_company_is_no_title() -> None:
    # (An agreement word on the line is read by the heading rules, not this one.)
    for subject in ("Promissory Note", "Kestrel Holdings, Inc.", "Loan 4471 Extension"):
        text = PLACEMENT_LETTER.replace("Exclusive Placement Agent Engagement", subject)
        assert agreement_title(text) != subject


def test_a_filings_letterhead_note_names_the_letters_sender() -> None:
    # Before, the placement agent, named on the letterhead and in the body's run-in clause, was no party.
    assert bound_party_names(PLACEMENT_LETTER) == {"HOLLOWAY STREET CAPITAL MARKETS, LLC", "Nexaura Diagnostics, Inc."}
    text = PLACEMENT_LETTER.replace("[LETTERHEAD OF HOLLOWAY STREET CAPITAL MARKETS, LLC]", "[Holloway Street Capital Markets, LLC Letterhead]")
    assert bound_party_names(text) == {"Holloway Street Capital Markets, LLC", "Nexaura Diagnostics, Inc."}


JOINDER = (
    "EXHIBIT C\n\nFORM OF JOINDER AGREEMENT\n\nJOINDER AGREEMENT, dated as of October 3, 2022 (this \"Joinder\"), "
    "made by RIDGELINE SENSOR SYSTEMS, LLC, a Texas limited liability company (the \"New Grantor\"), in favor of "
    "Larkspur National Trust Company, as collateral agent (in such capacity, the \"Collateral Agent\") for the "
    "Secured Parties under the Guarantee and Collateral Agreement dated as of March 18, 2021 (as amended, "
    "supplemented or otherwise modified, the \"Collateral Agreement\") among Cortland Dynamics Corp. (the "
    "\"Borrower\"), the other Grantors from time to time party thereto and the Collateral Agent.\n\nW I T N E S S "
    "E T H:\n\nWHEREAS, the New Grantor is a Subsidiary of the Borrower.\n"
)


def test_an_agreement_cited_after_the_instruments_own_parties_in_one_sentence_adds_none() -> None:
    # Before, the cited agreement's "among" was read as the joinder's party clause: the borrower
    # was a party and the collateral agent, named before it, was not (the cited document's long
    # "as amended, supplemented or otherwise modified, the" was no definition either).
    assert bound_party_names(JOINDER) == {"RIDGELINE SENSOR SYSTEMS, LLC", "Larkspur National Trust Company"}


def test_guard_an_amendment_naming_no_party_before_the_agreement_it_cites_reads_that_clause() -> None:
    text = (
        "AMENDMENT NO. 1 TO CREDIT AGREEMENT\n\nThis AMENDMENT NO. 1 (this \"Amendment\"), dated as of May 1, "
        "2020, to the Credit Agreement dated as of June 1, 2018 (as amended, restated, supplemented or otherwise "
        "modified from time to time, the \"Credit Agreement\"), among Halden Foods Corp. (the \"Borrower\") and "
        "Quarry Bank, N.A. (the \"Agent\").\n\n1. Amendments.\n"
    )
    assert bound_party_names(text) == {"Halden Foods Corp.", "Quarry Bank, N.A."}


def test_at_most_sixteen_notice_addressee_lines_are_read() -> None:
    # The bound (definitions._NOTICE_ENTRIES): the 16th addressee line is read, a 17th is not.
    def with_fillers(count: int) -> str:
        fillers = "".join("If to Observer:\nOrrin Watch LLC\n\n" for _ in range(count))
        return CONSULTING.replace("If to the Company:", fillers + "If to the Company:").replace(
            "If to the Company:\nVireo Pulmonary Therapeutics, Inc.\n", ""
        )

    assert [term for term, _ in notice_slot_names(with_fillers(15))] == ["Consultant"]
    assert notice_slot_names(with_fillers(16)) == []
