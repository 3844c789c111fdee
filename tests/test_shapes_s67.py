"""Party shapes of stop 67 (issue 9), each found on sets new18, new19 and new20 B (petroleum
and mining agreements, World Bank credits, Indonesian and Moroccan contracts, US county service
contracts; collected by helpers who read no Attest code), read this stop after their clean figures
were taken at stops 65 and 66. The names here are invented. Each test but the guards fails on the
code before its rule.

- A cover that stacks its parties one per line, without "and", beside its list's lead ("BY AND
  AMONG"), its list's "AND" line, a title with a subtitle ("Sale Agreement – Harbour Project") or
  a bare date line ("6 November 2016"), names each of them; a government's name counts as an
  organisation's ("GOVERNMENT OF THE REPUBLIC OF WESTMARCH", "THE ASHBY RURAL LOCAL LEVEL
  GOVERNMENT": "government" is a head noun).
- An entity's own number after its legal form ("Harbour Hospital Corporation #1") is part of
  its name.
- A local government's state may be written "State of ..." ("Ashby County, State of North
  Carolina"), and the term defined by that name is the party's, not a second organisation's.
- A name's own initials in brackets ("THE GOVERNMENT OF WESTMARCH (GOW)") are its short name.
- A cover's date ends the name above it when its month and day wrap over two lines, and a date
  line opened by "DATED" ends no name below it; "Dated August 16, 1988" after a name on the
  same line is no part of it.
- A short name spelled by a name's initials leaves out European particles ("OCP" of OFFICE
  CHERIFIEN DES PHOSPHATES).
- A party list numbered with Roman numerals ("I. ...; and II. ...") keeps its numbers out of the
  names.
- A party's role written before its name ("by and between Purchaser KESTREL POLYMERS Ltd.") is no
  word of the name.

The gate test runs on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.names import name_at, party_name_forms, party_name_problem, without_own_initials
from tests.helpers import agreement_title, bound_party_names
from tests.kb import KB, ingested_kb

LED_STACK = (
    "PETROLEUM AGREEMENT\n\nBY AND AMONG\n\nGOVERNMENT OF THE REPUBLIC OF WESTMARCH\n\n\n\n"
    "WESTMARCH NATIONAL PETROLEUM CORPORATION\n\n\n\nWNPC EXPLORATION AND PRODUCTION COMPANY LIMITED\n\n\n"
    "HARBOUR UPSTREAM LIMITED\n\n\n\nIN RESPECT OF\n\nBLOCK 4\n\n\n\nDATED:\n\n2015\n\n\n\nTABLE OF CONTENTS\n\n"
    "1. DEFINITIONS\n"
)
TITLED_STACK = (
    "PETROLEUM AGREEMENT\n\n\n\n\n\n\nGOVERNMENT OF THE REPUBLIC OF WESTMARCH\n\n\n\n"
    "WESTMARCH NATIONAL PETROLEUM CORPORATION\n\n\n\nQUILLON GHANA LIMITED\n\n\n\nSOUTHWEST BLOCK\n\n\n2014\n\n\n\n"
    "TABLE OF CONTENTS\n"
)
SUBTITLED_STACK = (
    "Exhibit 4.19\n\n6 November 2016\n\n \n\nAshby Gold Resources Limited\n\n \n\nHarbour Mining Company Pty Ltd\n\n"
    " \n\nKestrel Fields Australia Pty Ltd\n\n \n\nSale Agreement – Harbour Project\n\n \n\npage i\n\n\nContents\n\n"
    "1    Interpretation      1\n"
)
STACK_AFTER_AND = (
    "PRODUCTION SHARING AGREEMENT\n\nBETWEEN\n\nWESTMARCH NATIONAL OIL COMPANY\n\nAND\n\n"
    "QUILLON ANGOLA (KWANZA), INC.\n\nKESTREL PESQUISA E PRODUCAO, SA\n\nHARBOUR EXPLORATION AND PRODUCTION ASA\n\n"
    "in the\n\nArea of Block 5\n\n\n\nTable of Contents\n"
)
GOVERNMENTS_CHAIN = (
    "MEMORANDUM OF AGREEMENT RELATING TO\n\nTHE ASHBY GOLD PROJECT\n\nBETWEEN\n\n"
    "THE INDEPENDENT STATE OF WESTMARCH;\n\nAND\n\nTHE ASHBY PROVINCIAL GOVERNMENT;\n\nAND\n\n"
    "ASHBY CONSOLIDATED GOLDFIELDS LIMITED;\n\nAND\n\nTHE HARBOUR RURAL LOCAL LEVEL GOVERNMENT;\n\nAND\n\n"
    "KESTREL URBAN LOCAL LEVEL GOVERNMENT.\n\nDATED: 05 May 2005\n"
)
NUMBERED_CORPORATION = (
    "CLINICAL AFFILIATION AGREEMENT\n\nThis Clinical Affiliation Agreement (this \"Agreement\") is made and entered into "
    "as of March 1, 2005, between Ashby College of Nursing LLC, a Delaware limited liability company (the "
    "\"College\") and Harbour Park Hospital Corporation #1, a Missouri corporation (\"HPH\").\n\nRECITALS\n"
)
STATE_OF_COUNTY = (
    "AGREEMENT\n\nTHIS AGREEMENT, entered into this 4th day of May, 2006 by and between QUILLON, Inc. (hereinafter "
    "called the \"Consultant\") and Ashby County, State of North Carolina (hereinafter called the \"County\"),\n"
    "WITNESSETH THAT:\n\nWHEREAS, County has programs which it operates with Federal funding.\n"
)
INITIALS_IN_HEADING = (
    "LARGE SCALE LICENCE AGREEMENT BETWEEN THE GOVERNMENT OF WESTMARCH (GOW) AND WM MINING LIMITED DATED 5TH "
    "DECEMBER, 2017\n\nTHIS AGREEMENT is made this 5th day of December 2017.\n\n1. Definitions.\n"
)
WRAPPED_DATE = (
    "EXHIBIT\n10.22\nASHBY-KESTREL\nVENTURE\nAGREEMENT\nbetween\nASHBY\nMETALS (BVI) LIMITED\nand\nKESTREL\n"
    "MINING COMPANY\nJanuary\n1, 2005\nTABLE\nOF CONTENTS\n"
)
DATED_ABOVE = (
    "Exhibit 10.6\nSPA (Quillon Malaysia)\nDATED 27 September 2025\nQUILLON INTERNATIONAL PTE. LTD.\n(“PURCHASER”)\n"
    "and\nHARBOUR ENTERPRISE SDN. BHD.\n(“SELLER”)\nSHARE PURCHASE AGREEMENT\nin respect of 50% of the total equity\n"
)
DATED_SAME_LINE = (
    "Page 1 CONFORMED COPY CREDIT NUMBER 1891 WM (Export Project) between REPUBLIC OF WESTMARCH and HARBOUR "
    "DEVELOPMENT ASSOCIATION Dated August 16, 1988 CREDIT NUMBER 1891 WM DEVELOPMENT CREDIT AGREEMENT AGREEMENT, "
    "dated August 16, 1988, between REPUBLIC OF WESTMARCH (the Borrower) and HARBOUR DEVELOPMENT ASSOCIATION (the "
    "Association). WHEREAS the Borrower has requested the Association to assist in the financing of the Project.\n"
)
PARTICLE_INITIALS = (
    "AMENDMENT NO 2 TO THE AGREEMENT\nDATED AS OF JANUARY 1, 2006\nBETWEEN\nOFFICE WESTMARCHIEN DES PHOSPHATES,\n"
    "(OWP)\nAND\nHARBOUR PHOSPHATES CORPORATION\n(HPC)\nAMENDMENT NO 2 TO THE AGREEMENT BETWEEN\n"
    "OWP AND HPC DATED AS OF JANUARY 1ST, 2006\n"
)
ROMAN_LIST = (
    "PARTNERSHIP AGREEMENT\n\nTHIS PARTNERSHIP AGREEMENT (\"Agreement\") is made in Bandung on this day by and between: "
    "I. PERUSAHAAN PERSEROAN (PERSERO) PT KESTREL TELEKOMUNIKASI, Tbk., a telecommunication company established "
    "pursuant to the laws of the Republic of Indonesia, hereinafter referred to as \"KESTREL\"; and II. PT HARBOUR "
    "INDUSTRI TELEKOMUNIKASI, a limited liability company established pursuant to the laws of the Republic of "
    "Indonesia, hereinafter referred to as \"PARTNER\". WITNESSETH\n"
)
ROLE_BEFORE_NAME = (
    "S U P P L Y C O N T R A C T V - 6730 hereby entered into by and between Purchaser KESTREL POLYMERS Ltd. "
    "241-242, UPPER MALL SCHEME, LAHORE 54000 PAKISTAN (hereinafter referred to as “PURCHASER”) and HARBOUR POWER "
    "SYSTEMS GMBH CARL BENZ STRASSE 1 D-68167 MANNHEIM (hereinafter referred to as “SUPPLIER”)\n\n1. Scope.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "shapes-s67", {"stack": TITLED_STACK, "county": STATE_OF_COUNTY})


def test_a_stack_under_its_lists_lead_names_each_party() -> None:
    # Before: "PRODUCTION COMPANY LIMITED" was read after the name's own "AND", and the corporation
    # and the last company not at all.
    assert bound_party_names(LED_STACK) == {
        "GOVERNMENT OF THE REPUBLIC OF WESTMARCH",
        "WESTMARCH NATIONAL PETROLEUM CORPORATION",
        "WNPC EXPLORATION AND PRODUCTION COMPANY LIMITED",
        "HARBOUR UPSTREAM LIMITED",
    }


def test_a_stack_under_its_title_names_the_government_too() -> None:
    # Before: the government and the corporation were not read.
    assert bound_party_names(TITLED_STACK) == {
        "GOVERNMENT OF THE REPUBLIC OF WESTMARCH",
        "WESTMARCH NATIONAL PETROLEUM CORPORATION",
        "QUILLON GHANA LIMITED",
    }


def test_a_stack_between_a_date_line_and_a_subtitled_title_is_read() -> None:
    # Before: no party was bound.
    assert bound_party_names(SUBTITLED_STACK) == {
        "Ashby Gold Resources Limited",
        "Harbour Mining Company Pty Ltd",
        "Kestrel Fields Australia Pty Ltd",
    }


def test_a_stack_after_the_lists_and_line_is_read_whole() -> None:
    # Before: "PRODUCTION ASA" was read after the last name's own "AND".
    names = bound_party_names(STACK_AFTER_AND)
    assert "HARBOUR EXPLORATION AND PRODUCTION ASA" in names
    assert "PRODUCTION ASA" not in names
    assert {"QUILLON ANGOLA (KWANZA), INC.", "KESTREL PESQUISA E PRODUCAO, SA"} <= names


def test_local_level_governments_on_and_lines_are_parties() -> None:
    # Before: the chain stopped at the first local level government.
    assert bound_party_names(GOVERNMENTS_CHAIN) == {
        "THE INDEPENDENT STATE OF WESTMARCH",
        "THE ASHBY PROVINCIAL GOVERNMENT",
        "ASHBY CONSOLIDATED GOLDFIELDS LIMITED",
        "THE HARBOUR RURAL LOCAL LEVEL GOVERNMENT",
        "KESTREL URBAN LOCAL LEVEL GOVERNMENT",
    }


def test_an_entitys_number_after_its_legal_form_is_part_of_its_name() -> None:
    # Before: "Harbour Park Hospital Corporation".
    assert bound_party_names(NUMBERED_CORPORATION) == {"Ashby College of Nursing LLC", "Harbour Park Hospital Corporation #1"}
    text = "and Kestrel Fire District #3 (the \"District\")"
    assert name_at(text, 4, len(text)).text == "Kestrel Fire District #3"


def test_guard_a_suite_number_is_no_name() -> None:
    text = "at 100 Main Street, Suite #200, Austin"
    assert name_at(text, 3, len(text)).text == "100 Main Street"


def test_a_state_written_as_state_of_is_part_of_a_countys_name() -> None:
    # Before: "Ashby County", and a second organisation "Ashby County, State of North Carolina" that the
    # term "County" pointed to.
    assert bound_party_names(STATE_OF_COUNTY) == {"QUILLON, Inc.", "Ashby County, State of North Carolina"}


def test_the_county_passes_the_gate_by_its_seated_and_its_bare_name(kb: KB) -> None:
    for county in ("Ashby County, State of North Carolina", "Ashby County"):
        docs, _ = kb.docs(f"What law governs the Agreement between QUILLON, Inc. and {county}?")
        assert docs == {"county"}, county
    # (Another county is another subject.)
    docs, _ = kb.docs("What law governs the Agreement between QUILLON, Inc. and Kestrel County?")
    assert docs == set()


def test_the_stacked_government_passes_the_gate_and_a_non_party_does_not(kb: KB) -> None:
    docs, _ = kb.docs(
        "What law governs the Petroleum Agreement between Government of the Republic of Westmarch and Quillon Ghana "
        "Limited?"
    )
    assert docs == {"stack"}
    docs, _ = kb.docs("What law governs the Petroleum Agreement between Southwest Block and Quillon Ghana Limited?")
    assert docs == set()


def test_a_names_own_initials_in_brackets_are_its_short_name() -> None:
    # Before: "THE GOVERNMENT OF WESTMARCH (GOW)".
    assert bound_party_names(INITIALS_IN_HEADING) == {"THE GOVERNMENT OF WESTMARCH", "WM MINING LIMITED"}


def test_initials_may_leave_out_an_article_and_other_initials_stay() -> None:
    assert without_own_initials("THE GOVERNMENT OF WESTMARCH (GOW)") == "THE GOVERNMENT OF WESTMARCH"
    assert without_own_initials("Memorandum of Understanding (MoU)") == "Memorandum of Understanding"
    assert without_own_initials("KESTREL HOLDINGS (XYZ)") == "KESTREL HOLDINGS (XYZ)"


def test_a_date_wrapped_over_two_lines_ends_the_name_above() -> None:
    # Before: "KESTREL MINING COMPANY January 1".
    assert bound_party_names(WRAPPED_DATE) == {"ASHBY METALS (BVI) LIMITED", "KESTREL MINING COMPANY"}


def test_a_dated_line_ends_no_name_below_it() -> None:
    # Before: "DATED 27 September 2025 QUILLON INTERNATIONAL PTE. LTD." too.
    assert bound_party_names(DATED_ABOVE) == {"QUILLON INTERNATIONAL PTE. LTD.", "HARBOUR ENTERPRISE SDN. BHD."}


def test_a_date_after_a_name_on_its_line_is_no_part_of_it() -> None:
    # Before: "HARBOUR DEVELOPMENT ASSOCIATION Dated August 16".
    assert bound_party_names(DATED_SAME_LINE) == {"REPUBLIC OF WESTMARCH", "HARBOUR DEVELOPMENT ASSOCIATION"}


def test_guard_dated_as_a_word_of_a_name_stays() -> None:
    # (Only a date or "as of" after the word makes it a date line's.)
    text = "between Kestrel Dated Ventures LLC and Harbour Inc."
    assert name_at(text, 8, len(text)).text == "Kestrel Dated Ventures LLC"


def test_initials_leave_out_a_european_particle() -> None:
    # Before: "OWP" was bound as a third party.
    assert bound_party_names(PARTICLE_INITIALS) == {"OFFICE WESTMARCHIEN DES PHOSPHATES", "HARBOUR PHOSPHATES CORPORATION"}


def test_roman_numbers_of_a_party_list_are_no_words_of_the_names() -> None:
    # Before: "I. PERUSAHAAN ..." and "II. PT HARBOUR ...".
    names = bound_party_names(ROMAN_LIST)
    assert "PERUSAHAAN PERSEROAN (PERSERO) PT KESTREL TELEKOMUNIKASI, Tbk." in names
    assert "PT HARBOUR INDUSTRI TELEKOMUNIKASI" in names
    assert not any(name.startswith(("I.", "II.")) for name in names)


def test_a_role_before_a_name_is_no_word_of_it() -> None:
    # Before: "Purchaser KESTREL POLYMERS Ltd.".
    assert "KESTREL POLYMERS Ltd." in bound_party_names(ROLE_BEFORE_NAME)
    assert "Purchaser KESTREL POLYMERS Ltd." not in bound_party_names(ROLE_BEFORE_NAME)


def test_guard_a_head_noun_opening_a_name_stays() -> None:
    text = (
        "LOAN AGREEMENT\n\nThis Loan Agreement is made by and between Bank KESTREL S.A., a Polish bank (the "
        "\"Lender\") and Harbour Mills Sp. z o.o. (the \"Borrower\").\n"
    )
    assert "Bank KESTREL S.A." in bound_party_names(text)


MUNICIPALITY_TERM = (
    "MEMORANDUM OF AGREEMENT\nKNOW ALL MEN BY THESE PRESENTS:\nThis Memorandum of Agreement, made and entered into by "
    "and between:\nThe Provincial Government of Ashby, a local government unit established and existing under the "
    "laws of the Republic of the Westmarch, represented herein by HON. JOSE DELA ROSA, Provincial Governor, and "
    "hereinafter referred to as the “PGA”;\n-AND-\nThe Municipality of Harbour, a local government unit established "
    "and existing under the laws of the Republic of the Westmarch, represented herein by Mayor, HON. MARIA SANTOS, "
    "hereinafter\nreferred to as “LGU Harbour”;\nWITNESSETH THAT:\n"
)


def test_a_municipalitys_name_defines_a_term_not_made_from_it() -> None:
    # Before: "LGU Harbour" was taken for a thing's term, and the municipality was not bound.
    assert bound_party_names(MUNICIPALITY_TERM) == {"The Provincial Government of Ashby", "The Municipality of Harbour"}


REGISTER_BEFORE_TERM = (
    "Exhibit (b)(2)\nKESTREL S.p.A.\nVia Roma 5\n40133 Bologna\nBologna, July 28, 2023\nTo\nHarbour Banca S.p.A.\n"
    "Subject matter: Financing agreement in the amount of Euro 100,000,000.00.\nAs a result of the understandings made "
    "and whereas:\na) | the company Kestrel S.p.A., headquartered in Bologna, Via Roma No. 5, tax code and "
    "registration number 03432221202 of the Company Register of Bologna (the Company), has applied to Harbour Banca "
    "S.p.A. for a medium-long term Financing; |\n"
)


def test_a_trade_register_is_no_party() -> None:
    # Before: "Company Register of Bologna" was bound as the Company.
    assert "Company Register of Bologna" not in bound_party_names(REGISTER_BEFORE_TERM)
    assert party_name_problem("Company Register of Bologna") == "register"
    assert party_name_problem("Register of Companies for Scotland") == "register"
    # (A company named for a register's words with its legal form is still a name.)
    assert party_name_problem("Companies Register Services Ltd.") is None


WRAPPED_DEPARTMENT = (
    "AGREEMENT\n\nThis AGREEMENT is made as of the date of the last signature affixed hereto, by and\nbetween Kestrel "
    "America, Inc. (“Kestrel America”) and Harbour Telecom Limited\n(“HTL”), on the one hand, and the Federal Bureau "
    "of Investigation (“FBI”), the U.S.\nDepartment of Justice (“DOJ”), and the U.S. Department of Homeland Security "
    "(“DHS”),\non the other (referred to individually as a “Party” and collectively as the “Parties”).\n"
)


def test_a_name_wrapped_over_a_line_defines_its_acronym() -> None:
    # Before: the Department of Justice was not bound: its name's line break, and the "O" of its
    # "of", kept "DOJ" from being read as its short name.
    assert bound_party_names(WRAPPED_DEPARTMENT) == {
        "Kestrel America, Inc.",
        "Harbour Telecom Limited",
        "Federal Bureau of Investigation",
        "U.S. Department of Justice",
        "U.S. Department of Homeland Security",
    }


def test_guard_a_kind_of_government_after_the_is_no_party() -> None:
    # ("government" names an organisation only with a name before it or an "of" after it.)
    text = (
        "LOCAL PROJECT ADVANCE FUNDING AGREEMENT\n\nTHIS Agreement is made by and between the State of Texas, "
        "acting by and through the Texas Department of Transportation, called the \"State\", and Hays County, Texas, "
        "called the \"Local Government\".\n\nWITNESSETH\n\nWHEREAS, a Master Agreement between the Local Government "
        "and the State has been adopted; and\n"
    )
    assert "Local Government" not in bound_party_names(text)


def test_a_village_named_with_its_county_is_asked_for_without_it() -> None:
    assert party_name_forms("Village of Itasca of DuPage County") == ["Village of Itasca of DuPage County", "Village of Itasca"]
    # (Only a local government's: a board keeps its county.)
    assert party_name_forms("Board of Commissioners of Kestrel County") == ["Board of Commissioners of Kestrel County"]


def test_a_roman_numbered_run_stops_at_its_last_numeral() -> None:
    # The bound: Roman numbers run to XII (``_ROMAN``), inside the run's limit of
    # ``_NUMBERED_SLOTS_LIMIT`` slots after the first; "XIII." and later open no slot.
    from ingest.annotate import _NUMBERED_SLOTS_LIMIT, _ROMAN, _numbered_slots

    numerals = [r.upper() for r in _ROMAN] + ["XIII", "XIV"]
    first = "BETWEEN I. ASHBY ONE LIMITED"
    text = first + "".join(f"; {numeral}. ASHBY {numeral} LIMITED" for numeral in numerals[1:]) + "."
    read = _numbered_slots(text, "I. ", len(first), len(text))
    assert len(read) == len(_ROMAN) - 1 <= _NUMBERED_SLOTS_LIMIT
    assert read[0].text == "ASHBY II LIMITED" and read[-1].text == "ASHBY XII LIMITED"
