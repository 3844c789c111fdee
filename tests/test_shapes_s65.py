"""Party and title shapes of stop 65 (issue 9), each found on a labelled set of real contract
openings (``bench/gate_sets.py``): first the halves B of sets new14 and new15, read this stop after
their clean figures were taken at stop 64; the names here are invented. Each test but the guards
fails on the code before its rule.

- A title whose subject after the agreement word holds a comma still records its head as an
  alias ("IMPROVEMENTS AGREEMENT" of "IMPROVEMENTS AGREEMENT FOR QUILLMOOR MINOR SUBDIVISION,
  PHASE A AND C"), so a question naming the head finds it, all named parties bound as always;
  a subject the title lacks still fails.
- A cover's name whose own line holds an "AND" ("HARBOR CONVENTION AND VISITORS AUTHORITY"
  stacked over "AND" and the next name) is one name: the prose reader's half and its reading
  across the "AND" line hide neither of the cover's names.
- A list item's number may run into the name's capitals ("2.QUILLMOOR COMPANY B.V."), as a text
  layer writes it.
- A division's company is read after a comma the text layer wrote without a space
  ("QuillView,a division of N.Orvelle Computer Corporation").

From the halves A of sets new16 and new17, collected this stop by helpers who read no Attest code
(government memoranda, planning and service-delivery agreements, interlocal agreements), read
after their clean figures were taken:

- A separator line between dashes ("- and -", "– and –") stands between two described entries,
  each opening with the party's name ("The QUILLMOOR STATE UNIVERSITY AT HARBOR, an autonomous
  campus ...").
- A cover's name may be followed by its company number ("Council of the City of Quillton ABN 81
  621 292 610\nand\nOrvelle Pty Ltd ACN 618 123 970"); a name without a legal form stops before it.
- Names stacked under a title are read past the statute line between ("Quillmoor Planning
  Agreement\nUnder s93F of the Environmental Planning and Assessment Act 1979\n...").
- A local government's unit names it on a cover as a head noun does ("QUILLTON BAY MUNICIPALITY"),
  and a special district is an organisation ("Harbor County Water District").
- A caps heading goes on over a line that ends its phrase open when the next caps line closes it
  ("INTERMUNICIPAL AGREEMENT\nFOR THE PROVISION OF\nACCOUNTING SERVICES"), and over the joining
  word its run left at the end of the line ("INTERLOCAL AGREEMENT FOR\nFEDERAL AGENCY PERMIT
  STAFFING SUPPORT").
- "of the FIRST PART AND INDIAN OIL ..." closes one entry and opens the next: "FIRST PART" is no
  party, nor a person's name.
- A record number of letters and digits before a heading run into one line is no word of the
  title ("A136-G0092418 AMENDMENT NUMBER 01 LOCAL AGENCY AGREEMENT").
- "AGREEMENT, dated June 3, 1994, between X (the "Bank") and Y (the "Borrower")", a development
  bank's loan agreement, is the document's own party clause, not a citation of another agreement.
- "hereinafter as the FIRST PARTY;" / "hereinafter referred to as the SECOND PARTY." define the
  entry's name as a party, as a Philippine memorandum of agreement writes it.
- A heading's leading article is no word of its title ("AN INTERGOVERNMENTAL AGREEMENT").
- A deed's cover closes each entry with its role in brackets ("Quillmoor Pty Limited (ACN 083 171
  546) (Grantor)"): the entries are a stack of parties, and the cover makes its heading ("Royalty
  Deed") the title, as a role line of its own did.

The gate tests run on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.names import party_name_forms
from tests.helpers import agreement_title, bound_party_names
from tests.kb import KB, ingested_kb

SUBJECT_HEADING = (
    "IMPROVEMENTS AGREEMENT\nFOR QUILLMOOR MINOR SUBDIVISION, PHASE A AND C\n(PATHWAY IMPROVEMENTS AND LANDSCAPING)\n"
    "THIS AGREEMENT is made and entered into this 1st day of December 2019, by and between the Orvelle Meadows Land "
    "Partners, LLC, hereinafter called the \"Subdivider\", and the City of Harborton, a self-governing municipal "
    "corporation, hereinafter called the \"City\".\nWHEREAS, the Subdivider desires to file a final plat; and\n"
)
AND_IN_COVER_NAME = (
    "Exhibit 10.21\nExecution Version\n\nNAMING RIGHTS AND MARKETING AGREEMENT\nBETWEEN\n"
    "HARBOR CONVENTION AND VISITORS AUTHORITY\nAND\nQUILLMOOR COUNTY STADIUM LLC\n"
)
GLUED_ITEM_NUMBERS = (
    "Agreement for the sale and purchase of shares\nin the share capital of Orvelle Beheer B.V.\n\n"
    "THIS AGREEMENT (the Agreement) is made on the date as stated on the first page.\nBETWEEN:\n"
    "1.MR J.P.Q. DE VRIES, born on 31 January 1948, residing in Brussels, Belgium (the Seller);\n"
    "2.QUILLMOOR COMPANY B.V., a private company with limited liability incorporated under the laws of the "
    "Netherlands, with its statutory seat in Amsterdam (Quillmoor Company);\n"
    "3.ORVELLE CONCORDIA B.V., a private company with limited liability incorporated under the laws of the "
    "Netherlands, with its statutory seat in Heemstede (Orvelle Concordia); and\n"
    "4.HARBORWICK B.V., a private company with limited liability incorporated under the laws of the Netherlands, "
    "with its statutory seat in Amsterdam (the Purchaser).\n"
)
GLUED_DIVISION = (
    "QUILLVIEW CONTRACTUAL SERVICES AGREEMENT THIS AGREEMENT(hereinafter the\"Agreement\")is made this 14th day of "
    "November,2016 by and between Harborton Holdings, LLC,(hereinafter the\"Client\"),and QuillView,a division of "
    "N.Orvelle Computer Corporation,an Ontario Corporation, with its place of business at 4464 Markham Street "
    "(hereinafter the \"Vendor\"). RECITALS A. The Vendor desires to perform certain services.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "shapes-s65", {"improvements": SUBJECT_HEADING, "naming": AND_IN_COVER_NAME}
    )


def test_a_heading_named_without_its_subject_passes_the_gate(kb: KB) -> None:
    # Before: 'title ... does not match IMPROVEMENTS AGREEMENT'.
    docs, _ = kb.docs(
        "What law governs the Improvements Agreement between Orvelle Meadows Land Partners, LLC and City of Harborton?"
    )
    assert docs == {"improvements"}
    # (The full heading's "Phase A and C" reads as no title a question parser can close: it fails
    # closed, saying why, as before.)
    docs, result = kb.docs(
        "What law governs the Improvements Agreement for Quillmoor Minor Subdivision, Phase A and C between Orvelle "
        "Meadows Land Partners, LLC and City of Harborton?"
    )
    assert docs == set()
    assert "between the title and the party list is neither title nor party names" in result.failures[0]


def test_guard_a_heads_words_still_need_every_party_and_its_own_subject(kb: KB) -> None:
    # A party the agreement does not bind fails, the head matching or not.
    docs, _ = kb.docs("What law governs the Improvements Agreement between Orvelle Meadows Land Partners, LLC and City of Quillton?")
    assert docs == set()
    # Another subject after the same head is another agreement.
    docs, _ = kb.docs(
        "What law governs the Improvements Agreement for Harbor Major Subdivision between Orvelle Meadows Land "
        "Partners, LLC and City of Harborton?"
    )
    assert docs == set()


def test_an_and_inside_a_cover_names_line_joins_one_name() -> None:
    # Before: only "HARBOR CONVENTION" was bound; the cover's second name was hidden by a reading
    # across the "AND" line.
    assert bound_party_names(AND_IN_COVER_NAME) == {"HARBOR CONVENTION AND VISITORS AUTHORITY", "QUILLMOOR COUNTY STADIUM LLC"}


def test_the_cover_with_an_and_inside_a_name_passes_the_gate(kb: KB) -> None:
    docs, _ = kb.docs(
        "What law governs the NAMING RIGHTS AND MARKETING AGREEMENT between HARBOR CONVENTION AND VISITORS AUTHORITY "
        "and QUILLMOOR COUNTY STADIUM LLC?"
    )
    assert docs == {"naming"}
    # (A guard: the half the prose reader stopped at is no party of the agreement.)
    docs, _ = kb.docs(
        "What law governs the NAMING RIGHTS AND MARKETING AGREEMENT between HARBOR CONVENTION and QUILLMOOR COUNTY STADIUM LLC?"
    )
    assert docs == set()


def test_guard_a_heading_split_by_and_over_a_cover_stacks_no_names() -> None:
    text = (
        "INTELLECTUAL PROPERTY\nAND\nTECHNOLOGY TRANSFER AGREEMENT\n\nThis Agreement is made between Quillmoor "
        "Holdings Inc. and Orvelle Trading LLC, a Delaware company.\n\n1. Scope.\n"
    )
    assert bound_party_names(text) == {"Quillmoor Holdings Inc.", "Orvelle Trading LLC"}


def test_list_item_numbers_run_into_the_names_are_read() -> None:
    # Before: "QUILLMOOR COMPANY B.V." was not bound (its item marker had no space after the dot).
    assert {"QUILLMOOR COMPANY B.V.", "ORVELLE CONCORDIA B.V.", "HARBORWICK B.V."} <= bound_party_names(GLUED_ITEM_NUMBERS)


def test_guard_a_section_number_is_no_item_marker() -> None:
    text = (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Quillmoor Holdings Inc. and Orvelle Trading LLC, a Delaware company.\n\n"
        "1.1 Scope. The Supplier shall supply.\n1.2 Price. The Buyer shall pay.\n"
    )
    assert bound_party_names(text) == {"Quillmoor Holdings Inc.", "Orvelle Trading LLC"}


def test_a_divisions_company_is_read_after_a_comma_without_a_space() -> None:
    # Before: "QuillView" was bound alone, and "N.Orvelle Computer Corporation" named no party.
    assert "QuillView,a division of N.Orvelle Computer Corporation" in bound_party_names(GLUED_DIVISION)
    assert party_name_forms("QuillView,a division of N.Orvelle Computer Corporation")[1:] == [
        "N.Orvelle Computer Corporation", "QuillView",
    ]


DASHED_ENTRIES = (
    "Memorandum of Agreement\n\nKnow All Men by These Presents:\n\nThis Memorandum of Agreement is entered into by and "
    "between:\n\nThe QUILLMOOR SENIOR HIGH SCHOOL, of the Harbor District with postal address at Purok 2,\nQuillmoor "
    "herein represented by MS. JANE R. ROE, School Head\nand hereinafter referred to as the \u201cQuillmoor School\u201d;\n\n"
    "\u2013 and \u2013\n\nThe ORVELLE STATE UNIVERSITY AT HARBOR, an autonomous external campus of the Orvelle State "
    "University,\nwith office address at Pedro Street, Harbor, herein represented by DR. JOHN Q. DOE, hereinafter "
    "referred to as the \u201cOSU HARBOR\u201d.\n\nWitnesseth\n\nWHEREAS, the Parties wish to cooperate;\n"
)
NUMBERED_COVER = (
    "19357185_1\n\nCouncil of the City of Quillton ABN 81 621 292 610\n\nand\n\nOrvelle Gladesville Pty Ltd ABN 53 606 "
    "547 460\n\nPlanning Agreement\n\nEnvironmental Planning and Assessment Act 1979\n\n312 Victoria Road, Gladesville\n"
)
STACK_UNDER_STATUTE = (
    "Quillmoor Planning Agreement\n\nUnder s93F of the Environmental Planning and Assessment Act 1979\n\nQuillton City "
    "Council\n\nQuillmoor Funds Management Limited\n\nOrvelle Nominees Limited\n"
)
MUNICIPAL_COVER = (
    "SERVICE DELIVERY AGREEMENT\n\nbetween\n\nQUILLTON BAY MUNICIPALITY\n\nand\n\nORVELLE MUNICIPALITY\n\nand\n\n"
    "HARBOR COAST DISTRICT MUNICIPALITY\n\nTel +27 21 410 2200\n\nTABLE OF CONTENTS\n"
)
WATER_DISTRICT = (
    "Quill-Met - Construction of Betterments QuillMet Contract No.GH090182BC\nh .\nINTERGOVERNMENTAL AGREEMENT\nFOR "
    "CONSTRUCTION OF BETTERMENTS\nBY HARBOR COUNTY COMMUTER RAIL PROJECT\nORVELLE STATION\nThis Intergovernmental "
    "Agreement (\"Agreement\") is made and entered into by\nand between the Quill-County Metropolitan Transportation "
    "District of Oregon, a mass\ntransit district organized under the laws of the state of Oregon (\"QuillMet\") and "
    "the City of\nOrvelle, a political subdivision of the State of Oregon (\"City\") (jointly referred to herein\nas "
    "\"the Parties\"), as of the effective date shown below.\nRECITALS\nA. On or about October 1, 2002, the Cities of "
    "Orvelle, Westbrook and\nEastbrook, and Harbor County (the \"County\") executed an agreement.\n"
)
OPEN_PHRASE_HEADING = (
    "INTERMUNICIPAL AGREEMENT\nFOR THE PROVISION OF\nACCOUNTING SERVICES\n\nTHIS AGREEMENT is entered into by the Town of "
    "Quillton, MA, a corporate body politic (the \"Provider\") and the Town of Orvelle, MA, a corporate body politic (the "
    "\"End User\"), which execute this agreement as follows:\nWHEREAS, the End User needs accounting services; and\n"
)
DANGLING_FOR_HEADING = (
    "Interlocal Agency Agreement 067526\n\n\nINTERLOCAL AGREEMENT FOR\nFEDERAL AGENCY PERMIT STAFFING SUPPORT\nBY AND "
    "BETWEEN\nTHE PORT OF QUILLTON AND THE PORT OF ORVELLE\n\nTHIS INTERLOCAL AGREEMENT (\"Agreement\") is entered into by "
    "and between the Port of Quillton and the Port of Orvelle, both port districts (the \"ports\").\nWHEREAS, the ports "
    "support the agencies.\n"
)
FIRST_PART_AND = (
    "MEMORANDUM OF UNDERSTANDING This MEMORANDUM OF UNDERSTANDING (MOU) made and entered into on 1 May 2019, between "
    "QUILLMOOR COUNCIL OF INDUSTRIAL RESEARCH (QCIR), a society registered under the Societies Registration Act, having "
    "its registered office at Rafi Marg, New Delhi 110001 (hereinafter called Party A) of the FIRST PART AND ORVELLE "
    "OIL CORPORATION LIMITED (OOCL), a company incorporated under the Companies Act, 1956 having its registered office "
    "at Mumbai 400051 (hereinafter called Party B) of the SECOND PART AND HARBOR ENGINEERS LIMITED (HEL), a company "
    "having its registered office at 12 Janpath, New Delhi 110011 (hereinafter called Party C) of the THIRD PART.\nWHEREAS the parties "
    "wish to cooperate.\n"
)


def test_entries_around_a_dashed_separator_are_the_parties() -> None:
    # Before: only the first entry, defined by its own name, was bound.
    assert bound_party_names(DASHED_ENTRIES) == {"The QUILLMOOR SENIOR HIGH SCHOOL", "The ORVELLE STATE UNIVERSITY AT HARBOR"}


def test_a_covers_names_with_company_numbers_are_read() -> None:
    # Before: the first line, its number read as an address, stacked nothing.
    assert bound_party_names(NUMBERED_COVER) == {"Council of the City of Quillton", "Orvelle Gladesville Pty Ltd"}


def test_names_stacked_under_a_title_and_its_statute_are_read() -> None:
    # Before: no party (the statute line stood between the title and the stack).
    assert bound_party_names(STACK_UNDER_STATUTE) == {
        "Quillton City Council", "Quillmoor Funds Management Limited", "Orvelle Nominees Limited",
    }


def test_guard_a_stack_without_a_title_beside_it_is_not_read() -> None:
    text = STACK_UNDER_STATUTE.replace("Quillmoor Planning Agreement", "Notices to be sent to")
    text += "\nThis Agreement is made between Westland Holdings Inc. and Harbor Trading LLC, a Delaware company.\n"
    assert bound_party_names(text) == {"Westland Holdings Inc.", "Harbor Trading LLC"}


def test_municipalities_stacked_on_a_cover_are_the_parties() -> None:
    # Before: only the first two, from the prose reading of "between ... and ...".
    assert bound_party_names(MUNICIPAL_COVER) == {
        "QUILLTON BAY MUNICIPALITY", "ORVELLE MUNICIPALITY", "HARBOR COAST DISTRICT MUNICIPALITY",
    }


def test_a_special_district_is_an_organisation() -> None:
    # Before: only the City was bound.
    assert bound_party_names(WATER_DISTRICT) == {"Quill-County Metropolitan Transportation District of Oregon", "City of Orvelle"}


def test_a_heading_goes_on_over_an_open_phrase_closed_below() -> None:
    # Before: "INTERMUNICIPAL AGREEMENT".
    assert agreement_title(OPEN_PHRASE_HEADING) == "INTERMUNICIPAL AGREEMENT FOR THE PROVISION OF ACCOUNTING SERVICES"
    # (A guard: a phrase the next line does not close in capitals leaves the heading as it was.)
    ship = "SHIPBUILDING CONTRACT\nFOR THE CONSTRUCTION OF A\n154,800 Cubic Meter LNG Carrier\n\nThis Contract is made between A Ltd and B Ltd.\n"
    assert agreement_title(ship) == "SHIPBUILDING CONTRACT"


def test_a_heading_goes_on_over_its_dangling_joining_word() -> None:
    # Before: "INTERLOCAL AGREEMENT".
    assert agreement_title(DANGLING_FOR_HEADING) == "INTERLOCAL AGREEMENT FOR FEDERAL AGENCY PERMIT STAFFING SUPPORT"


def test_first_part_and_opens_the_next_entry() -> None:
    # Before: "FIRST PART" and "SECOND PART" were bound, split off as persons.
    assert bound_party_names(FIRST_PART_AND) == {
        "QUILLMOOR COUNCIL OF INDUSTRIAL RESEARCH", "ORVELLE OIL CORPORATION LIMITED", "HARBOR ENGINEERS LIMITED",
    }


RECORD_NUMBER_HEADING = (
    "QDOT ~ IG200003 ~ Local Agency Agreement Misc. Contracts and Agreements No. 33625/73000-00004069 A136-G0092418 "
    "AMENDMENT NUMBER 01 LOCAL AGENCY AGREEMENT State Funded Local Project Program This is Amendment No. 01 to the "
    "Agreement between the STATE OF WESTLAND, acting by and through its Department of Transportation, hereinafter "
    "referred to as \"State\", and the CITY OF ORVELLE, hereinafter referred to as \"Agency\", entered into on April 3, 2020.\n"
)
BANK_LOAN = (
    "June 03, 1994\n\n\nLOAN AGREEMENT\n\n(HARBOR FREEPORT PROJECT) BETWEEN QUILLMOOR BANK FOR RECONSTRUCTION AND "
    "DEVELOPMENT AND ORVELLE BAY METROPOLITAN AUTHORITY\n\nLOAN NUMBER 3745 PH\n\nAGREEMENT, dated June 3, 1994, "
    "between QUILLMOOR BANK FOR RECONSTRUCTION AND DEVELOPMENT (the \"Bank\") and ORVELLE BAY METROPOLITAN AUTHORITY (the "
    "\"Borrower\").\n\nWHEREAS (A) the Republic of Westland (the \"Guarantor\") and the Borrower have requested the Bank to "
    "assist in the financing of the Project;\n"
)


def test_a_record_number_before_a_run_in_heading_is_no_title_word() -> None:
    # Before: "A136-G0092418 AMENDMENT NUMBER 01 LOCAL AGENCY AGREEMENT".
    assert agreement_title(RECORD_NUMBER_HEADING) == "AMENDMENT NUMBER 01 LOCAL AGENCY AGREEMENT"


def test_a_loan_agreements_own_dated_clause_names_its_parties() -> None:
    # Before: one party, the heading's two names run together over their "AND".
    assert bound_party_names(BANK_LOAN) == {"QUILLMOOR BANK FOR RECONSTRUCTION AND DEVELOPMENT", "ORVELLE BAY METROPOLITAN AUTHORITY"}


def test_guard_an_agreement_dated_in_a_recital_is_still_cited() -> None:
    text = (
        "SIDE LETTER\n\nThis Side Letter is made between Quillmoor Holdings Inc. (\"Quillmoor\") and Orvelle Trading LLC "
        "(\"Orvelle\").\n\nWHEREAS, the Credit Agreement, dated June 3, 1994, between Harbor Bank N.A. (the \"Bank\") and "
        "Westland Freight Corp. (the \"Borrower\") governs the loan;\n"
    )
    assert bound_party_names(text) == {"Quillmoor Holdings Inc.", "Orvelle Trading LLC"}


ORDINAL_PARTY_TERMS = (
    "MEMORANDUM OF AGREEMENT\n\nThis Memorandum of Agreement is entered into this 1 st day of December 2022 in the "
    "Municipality\nof Quillmoor, Bulacan, by and between:\n\nThe MUNICIPALITY OF QUILLMOOR, a local government with "
    "original\n\n\ncharter, represented by MUNICIPAL MAYOR JOHN T. ROE, hereinafter as the\nFIRST PARTY;\n\nThe ORVELLE "
    "DISTRICT SUPERVISOR, represented by JANE G. DOE\n\n\nhereinafter referred to as the SECOND PARTY.\n\nWITNESSETH:\n"
)


def test_ordinal_party_terms_define_the_entries() -> None:
    # Before: only the municipality was bound.
    assert bound_party_names(ORDINAL_PARTY_TERMS) == {"The MUNICIPALITY OF QUILLMOOR", "The ORVELLE DISTRICT SUPERVISOR"}


def test_a_headings_leading_article_is_no_title_word() -> None:
    text = (
        "AN INTERGOVERNMENTAL AGREEMENT BETWEEN THE VILLAGE OF QUILLMOOR\n\nTHIS INTERGOVERNMENTAL AGREEMENT is entered "
        "into this 10th day of October, 2017 between the Village of Quillmoor (hereinafter referred to as the "
        "\u201cMunicipality\") and the County of Orvelle (hereinafter referred to as the \"County\").\n"
    )
    # Before: "AN INTERGOVERNMENTAL AGREEMENT".
    assert agreement_title(text) == "INTERGOVERNMENTAL AGREEMENT"


DEED_COVER = (
    "Exhibit 4.17\n\n \n\nQuillmoor\n\n \n\nRoyalty Deed\n\n \n\nDated 16 June 2023\n\n \n\nQuillmoor Management Pty. "
    "Limited (ACN 083 171 546) (Grantor)\n\n \n\nOrvelle Acquisition Limited (Guarantor)\n\n \n\nHarbor Operations "
    "Australia Pty Limited (ACN 128 115 140) (Grantee)\n\n \n\n \n\nWestland & Wood\n\nLevel 61\n\nSydney NSW 2000\n"
)



def test_a_deed_cover_with_bracketed_roles_names_its_parties_and_title() -> None:
    # Before: no title, so no agreement record and no party.
    assert agreement_title(DEED_COVER) == "Royalty Deed"
    assert bound_party_names(DEED_COVER) == {
        "Quillmoor Management Pty. Limited", "Orvelle Acquisition Limited", "Harbor Operations Australia Pty Limited",
    }



def test_the_entry_above_a_dashed_separator_is_walked_back_at_most_entry_lines() -> None:
    from ingest.party_layout import _ENTRY_LINES, layout_names

    assert _ENTRY_LINES == 8

    def entries(lines_above: int) -> list[str]:
        description = "".join(f"described on line {i}\n" for i in range(lines_above - 1))
        text = (
            "Memorandum of Agreement\n\nby and between:\n\nThe QUILLMOOR SENIOR HIGH SCHOOL, of the Harbor District\n"
            f"{description}\u2013 and \u2013\n\nThe ORVELLE STATE UNIVERSITY, with office address at Pedro Street;\n\nWitnesseth\n"
        )
        return [n.name.text for n in layout_names(text) if n.shape == "item"]

    # The entry's first line 8 lines above the separator is read; 9 lines above, where the entry
    # starts cannot be told, and the separator stacks nothing.
    assert entries(_ENTRY_LINES) == ["The QUILLMOOR SENIOR HIGH SCHOOL", "The ORVELLE STATE UNIVERSITY"]
    assert entries(_ENTRY_LINES + 1) == []
