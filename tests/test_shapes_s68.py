"""Party shapes of stop 68 (issue 9), each found on set new21 (employment, share and lease
agreements, Australian planning agreements and deeds, UK and Caribbean public bodies, Israeli,
Indian, Venezuelan and Yemeni contracts; collected by helpers who read no Attest code), read this
stop after its clean figures were taken at stop 67. The names here are invented. Each test but the
guards fails on the code before its rule.

- An Australian registration number after a name ("... City of Ashby ABN 22 636 550 790") is no
  word of it, and a registration number alone ("ABN 56 724 311 688") is no name.
- A cover's dashed item numbers ("1- QUILLON ENERGY CORPORATION") are no words of the names.
- A minister's office named for its portfolios after "for" ("THE SECRETARY OF STATE FOR HEALTH AND
  SOCIAL CARE") is one name, its "AND" inside it; so is a department named so after "for".
- A numbered party list's item names a party when its address follows the name ("1. HARBOUR FOR
  WESTPORT of Windsor House, 42-50 Victoria Street,").
- "X and the Y (hereafter referred to as "the Parties")" names both parties.
- A cover's stack of names, each over its role line ("Landlord", "Tenant"), beside the title, names
  each of them.
- "(hereinafter - the "Company")" defines a term; a letter-spaced "A n d:" joins two parties; a
  person's identity number on the line under the name is no part of it.
- "of the one part," closes a party's clause: the next party's clause opens after it.
- A "PARTIES:" label run into its first numbered item opens the first party's clause.
- "C.A." (a Venezuelan company) is a legal form; a commercial registry is no party.
- A form publisher's copyright mark after the title ("Commercial Lease ©") is no word of it.
- A Spanish title opens with its head noun ("CONVENIO DE COLABORACIÓN QUE CELEBRAN, ..."), and a
  Spanish party clause names each side after "POR UNA PARTE" and "POR LA OTRA PARTE", past the
  article ("EL (LA)"); "Sociedad Civil" is a legal form.
- An Australian details table ("Parties Name X Pty Ltd ACN ... Address ... Short name Seller Name
  Y, Inc. ..."), on its lines or flattened into one, names a party in each "Name" row its "Short
  name" row closes.
- A letter's addressee greeted by a given name, with an officer's title on the line under the name
  and the company below ("Victor Roe\nPresident\n\nHarbour Wireless Networks, Inc."), is the
  company's officer, no party (found on new22 B, scored clean, by its one fail-open question).

The gate test runs on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.agreements import find_title
from ingest.names import NameSpan, name_at, party_name_problem, without_enumerator
from tests.helpers import agreement_title, bound_party_names
from tests.kb import KB, ingested_kb

ABN_COVER = (
    "ATTACHMENT B\n\nPLANNING AGREEMENT\n\nThe Council of the City of Ashby ABN 22 636 550 790\n\n(\"Council\")\n\nand\n\n"
    "Harbour Memorial Club Limited ACN 001 038 740\n\n(\"Land Owner\")\n\nand\n\n"
    "Kestrel Capital Investors Limited ACN 001 777 591 in its capacity as trustee of the Kestrel Office Fund\n\n"
    "ABN 56 724 311 688\n\n(\"Guarantor\")\n\nPlanning Agreement\n\nTABLE OF CONTENTS\n\n1 INTRODUCTION 4\n"
)
DASHED_COVER = (
    "REPUBLIC OF WESTMARCH\n\n\n\nPRODUCTION SHARING AGREEMENT\n\n\n\nBETWEEN\n\n\n\nMINISTRY OF OIL AND MINERAL RESOURCES\n\n\n\n"
    "and\n\n\n\n1- QUILLON ENERGY CORPORATION\n\n\n\nand\n\n\n\n2- THE HARBOUR COMPANY\n\n\n\n"
    "(A SUBSIDIARY OF WESTMARCH OIL AND GAS CORPORATION)\n\n\n\nIN THE DAMIS AREA\n\n\n\nBLOCK S-1\n\n\n\nTABLE OF CONTENTS\n"
)
SECRETARY_SLOT = (
    "VARIATION TO CONTRACT FORM\nCONTRACT REF: C0454\nBETWEEN:\n(1)\nTHE SECRETARY OF STATE FOR HEALTH AND SOCIAL CARE acting as\n"
    "part of the Crown through the Department of Health and Social Care of 39 Victoria\nSt, Westminster, London SW1H 0EU "
    "(which expression includes its successors and\nassignees) (\"the Authority\"); and\n(2)\nTHE KESTREL CONFEDERATION, a "
    "registered charity (number 1090329),\nincorporated and registered in England and Wales with company number 04358614\n"
    "(\"the Contractor\")\n(together the \"Parties\")\nBACKGROUND\n"
)
ADDRESSED_ITEMS = (
    "(1) HARBOUR FOR WESTPORT\n\nand\n\n(2) KESTREL TRANSIT POLICE AUTHORITY\n\nPAN-WESTPORT POLICE SERVICES AGREEMENT\n\n"
    "DATE 2014\n\nPARTIES\n\n1. HARBOUR FOR WESTPORT of Windsor House, 42-50 Victoria Street,\n\nWestport SW1H 0TL (HfW); and\n\n"
    "2. KESTREL TRANSIT POLICE AUTHORITY of The Forum, 74-80 Camden\n\nStreet, Westport NW1 0EG (KTPA).\n\nBACKGROUND\n\n"
    "A. The KTPA is responsible for policing.\n"
)
PARTIES_TERM = (
    "INSTITUTIONAL CO-OPERATION AGREEMENT\n\nThe University of Westmarch and the Harbour Community Secretariat (hereafter referred to "
    "as \"the Parties\"):\n\nCONSCIOUS of the role ascribed to the Parties;\n\nHAVE AGREED as follows:\n"
)
ROLE_LINES = (
    "                                 EXHIBIT 10.11\n\n                                 Landing Center\n\n"
    "                                 Lease Agreement\n\n                             Quillon Reserve, Inc.\n"
    "                                    Landlord\n\n                         Harbour Flow Corporation\n"
    "                                     Tenant\n\n\n\n                            Index to Lease Agreement\n"
)
ISRAELI = (
    "Personal Employment Contract\nDrawn up and signed in Netanya on August 1, 2000\n|Between:\n|K.E.A. Engine Control Ltd. "
    "(Co. No. 512558669)\nPoleg Industrial Park - Netanya South\n1 HaOmanut St., Kiryat Nordau Industrial Zone, Netanya\n"
    "(hereinafter - the “Company”)\nOf the First Part\n|A n d:\n|Harel Menahem\nI.D. No. 059183673\n(hereinafter - the "
    "“Employee”)\nOf the Second Part\n|WHEREAS\n|the Company desires to employ the Employee;\n"
)
ONE_PART = (
    "MEMORANDUM OF UNDERSTANDING\nThis Memorandum of "
    "Understanding (MoU) between the Kestrel Foundation-India, a secular, non-profit organization, located at A-33 Vasant "
    "Marg, New Delhi 110 057, hereinafter referred to as \"KFI\", of the one part,\nThe Westmarch University, a Central "
    "University, created by an Act of Parliament, located at Kalapet, Puducherry, hereinafter referred to as "
    "\"University\", of the second part (hereinafter referred to as \"parties\")\nSets forth the agreements reached.\n"
)
PARTIES_INLINE = (
    "THE HARBOUR WOOL EDUCATION TRUST Dated: Licence Deed TABLE OF CONTENTS 1. Definitions 1 2. Licensing 4 "
    "10. Dispute Resolution 9 11. Notices 10 12. General 10 i Licence Agreement PARTIES: 1. THE TRUSTEES OF THE HARBOUR "
    "WOOL EDUCATION TRUST (ABN 12 886 519 613) of 70 Robertson Street, Kensington VIC 3031 (“HWET”) 2. KESTREL "
    "UNIVERSITY (ABN 61 616 369 313) of South Street, Murdoch WA 6150 (“Licensee”) RECITALS: A. The parties agree.\n"
)
VENEZUELAN = (
    "LEASE AGREEMENT OF BLOCK B MINING AREAS By and between, COMPANIA GENERAL DE MINERIA DE WESTMARCH C.A. \"KGM "
    "MINERVEN\", a state owned corporation, domiciled in El Callao, originally registered before the Commercial Registry "
    "of the Judicial Circuit of the Federal District under No. 20, (hereinafter KGM Minerven), herein represented by its "
    "President, and Quillon Mining Company, a corporation incorporated under the laws of the State of Delaware, U.S.A. "
    "(hereinafter Quillon), agree as follows:\n"
)
FORM_LEASE = (
    "EX-10.4 7 filename7.htm\n\n\nExhibit 10.4\n\n \n\n\nCode 143\n\n \n\nCommercial Lease ©\n\n \n\nThe Real Estate "
    "Institute of Westmarch Ltd | ACN004210897 | The agent using this form is NOT a member\n\n \n\nCOPYRIGHT COMMERCIAL "
    "LEASE©\n\n \n\nLandlord(s): \n\nQUILLON INVESTMENT LIMITED\n\n \n\nTenant(s): KESTREL INTERNATIONAL PTY LTD\n\n"
    " \n\nPremises: Units 401, 402, Level 4, 55 Harbour Rd, North Westport being the land on the plan attached to this "
    "lease.\n\n \n\n© 2022 The Real Estate Institute of Westmarch Ltd.\nPage 1 of 38\n\n \n\nABOUT THIS LEASE\n\n \n\n"
    "This is a standard form document.\n"
)
OFFICER_LETTER = (
    "[QUILLON SECURITIES CORP. LOGO]\n\n                                Member NASD/SiPC\n\n"
    "Victor Roe\nPresident\n\nHarbour Wireless Networks, Inc.\nCampbell, California 95008\n\n"
    "               FINANCIAL ADVISORY AGREEMENT\n\nDear Victor:\n\nThis  Agreement is made and entered into this 8th "
    "day of January  2004,  between\nQuillon  Securities  Corp.  (\"Quillon\")  and  Harbour  Wireless  Networks,  Inc.\n"
    "(together with all  subsidiaries, the \"Company\").\n\n           In  consideration  of the mutual  promises, the "
    "parties hereto agree as follows:\n"
)
PERSON_LETTER = OFFICER_LETTER.replace("Victor Roe\nPresident\n\nHarbour Wireless Networks, Inc.\n", "Victor Roe\n12 Elm Street\n")
SPANISH = (
    "CONVENIO DE COLABORACIÓN QUE CELEBRAN, POR UNA PARTE, LA UNIVERSIDAD NACIONAL AUTÓNOMA DE WESTMARCH, A QUIEN EN LO "
    "SUCESIVO SE LE DENOMINARÁ \"LA UNAW\", REPRESENTADA EN ESTE ACTO POR EL DR. JUAN ROE, EN SU CARÁCTER DE COORDINADOR, "
    "Y POR LA OTRA PARTE EL (LA) CENTRO DE INVESTIGACIÓN EN MATERIALES KESTREL, SOCIEDAD CIVIL, A QUIEN EN LO SUCESIVO SE "
    "LE DENOMINARÁ \"EL CIMK\", REPRESENTADO(A) EN ESTE ACTO POR EL DR. JOSÉ DOE, Y CUANDO ACTÚEN DE MANERA CONJUNTA SE "
    "LES DENOMINARÁ \"LAS PARTES\", QUIENES SE SUJETAN AL TENOR DE LOS SIGUIENTES ANTECEDENTES, DECLARACIONES Y "
    "CLÁUSULAS: ANTECEDENTES 1. El Consejo Nacional de Ciencia contempló el apoyo a proyectos.\n"
)
SPANISH_TITLE_CASE = (
    "Contrato de Prestación de Servicios\n\nContrato que celebran por una parte Quillon Privada, S.A. de C.V., "
    "representada por Juan Roe, y por la otra parte Kestrel Diseño, S. de R.L. de C.V., representada por José Doe.\n"
)
GUARD_ONE_SIDE = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Quillon Ltd (\"Quillon\") and Kestrel Inc. "
    "(\"Kestrel\").\n\n1. The goods are labelled, por una parte, Harbour Marca Registrada, as the Spanish label says.\n"
)
DETAILS_FLAT = (
    "Execution Version Lawyers Level 5 Sydney Business sale agreement for the industrial business Quillon Wireless Pty Ltd "
    "ACN 002 490 486 and Kestrel, Inc.\n\npage 5 Business sale agreement Dated NOVEMBER 7, 2024 Parties Name Quillon "
    "Wireless Pty Ltd ACN 002 490 486 Address Level 1, 10 Harbour Road, Westport Email legal@example.com Contact Legal "
    "Department Short name Seller Name Kestrel, Inc. Address 12 Elm Street, Westport Email legal@example.org Contact Jane "
    "Roe Short name Buyer Background A. The Seller carries on the Business. The parties agree 1. Definitions\n"
)
DETAILS_LINES = (
    "Deed of Licence\n\nDetails\n\nParties\n\nName\tHarbour Research Institute\nABN\t12 345 678 901\n"
    "Address\t1 Quay Street, Westport\nShort name\tLicensor\n\nName\tQuillon Pty Ltd\nACN\t002 490 486\n"
    "Address\t5 Elm Street, Westport\nShort name\tLicensee\n\nBackground\n\nA. The Licensor owns the Software.\n"
)
GUARD_NAME_ROW = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Quillon Ltd (\"Quillon\") and Kestrel Inc. "
    "(\"Kestrel\").\n\n12. Notices\n\nName: Harbour Logistics Limited\nAddress: 1 Quay Street\n"
    "Name: Westport Couriers Limited\nAddress: 5 Elm Street\n"
)
GUARD_HEADINGS = (
    "SERVICES AGREEMENT\n\nPARTIES\n\n1. INTERPRETATION OF TERMS\n\n2. SCOPE OF THE SERVICES\n\nThis Agreement is made "
    "between Quillon Ltd (\"Quillon\") and Kestrel Inc. (\"Kestrel\").\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "shapes-s68", {"secretary": SECRETARY_SLOT, "items": ADDRESSED_ITEMS})


def test_a_registration_number_is_no_word_of_a_name_and_alone_no_name() -> None:
    # Before: "ABN 56 724 311 688" was a party, and the council was not (its definition's name ran
    # on into its number). (The trustee's name over its number's line is still not read.)
    assert bound_party_names(ABN_COVER) == {"The Council of the City of Ashby", "Harbour Memorial Club Limited"}
    assert party_name_problem("ABN 56 724 311 688") == "thing"


def test_a_covers_dashed_item_numbers_are_no_words_of_the_names() -> None:
    # Before: "1- QUILLON ENERGY CORPORATION" was a party, and THE HARBOUR COMPANY was not read.
    assert bound_party_names(DASHED_COVER) == {
        "MINISTRY OF OIL AND MINERAL RESOURCES", "QUILLON ENERGY CORPORATION", "THE HARBOUR COMPANY",
    }


def test_guard_a_number_and_dash_opening_a_name_stays() -> None:
    text = "3- D Kestrel Systems, Inc.\nand\nQuillon Ltd"
    name = NameSpan("3- D Kestrel Systems, Inc.", 0, 26)
    # (No item numbered 2 or 4 the same way beside it: the number is the name's own.)
    assert without_enumerator(text, name) == name


def test_a_ministers_office_named_for_its_portfolios_is_one_name() -> None:
    # Before: "THE SECRETARY OF STATE FOR HEALTH" and "SOCIAL CARE" were two parties.
    assert bound_party_names(SECRETARY_SLOT) == {
        "THE SECRETARY OF STATE FOR HEALTH AND SOCIAL CARE", "THE KESTREL CONFEDERATION",
    }


def test_a_department_named_for_its_portfolios_after_for_is_read_whole() -> None:
    text = "Department for Environment, Food and Rural Affairs (Defra)"
    assert name_at(text, 0, len(text)).text == "Department for Environment, Food and Rural Affairs"


def test_guard_a_company_after_a_ministers_and_is_no_portfolio() -> None:
    text = "THE MINISTER FOR HEALTH AND KESTREL PTY LTD"
    name = name_at(text, 0, len(text))
    # (The portfolio reading stops; whatever the plain reading makes of it, no portfolio swallows
    # a name with a legal form as its last portfolio.)
    assert name is None or name.text != "THE MINISTER FOR HEALTH AND KESTREL"


def test_a_numbered_item_with_its_address_after_the_name_is_a_party() -> None:
    # Before: neither was read (no legal form, no comma after the name).
    assert bound_party_names(ADDRESSED_ITEMS) == {"HARBOUR FOR WESTPORT", "KESTREL TRANSIT POLICE AUTHORITY"}


def test_guard_numbered_headings_after_parties_name_no_party() -> None:
    assert bound_party_names(GUARD_HEADINGS) == {"Quillon Ltd", "Kestrel Inc."}


def test_a_list_the_parties_term_names_is_the_parties() -> None:
    # Before: no party was read.
    assert bound_party_names(PARTIES_TERM) == {"The University of Westmarch", "Harbour Community Secretariat"}


def test_a_stack_of_names_over_role_lines_beside_the_title_names_each() -> None:
    # Before: only the tenant was read.
    assert bound_party_names(ROLE_LINES) == {"Quillon Reserve, Inc.", "Harbour Flow Corporation"}


def test_a_dashed_hereinafter_a_spaced_and_and_an_identity_line() -> None:
    # Before: two address lines were parties and the employee was not read.
    assert bound_party_names(ISRAELI) == {"K.E.A. Engine Control Ltd.", "Harel Menahem"}


def test_of_the_one_part_closes_the_clause_before_the_next_party() -> None:
    # Before: "Puducherry", a place in the university's address, was the party.
    assert bound_party_names(ONE_PART) == {"Kestrel Foundation-India", "The Westmarch University"}


def test_a_parties_label_run_into_its_first_item_opens_the_clause() -> None:
    # Before: the trust's name on the cover stood for the trustees.
    assert bound_party_names(PARTIES_INLINE) == {"THE TRUSTEES OF THE HARBOUR WOOL EDUCATION TRUST", "KESTREL UNIVERSITY"}


def test_ca_is_a_legal_form_and_a_commercial_registry_no_party() -> None:
    # Before: "COMPANIA", "El Callao" and the registry were parties.
    assert bound_party_names(VENEZUELAN) == {"COMPANIA GENERAL DE MINERIA DE WESTMARCH C.A.", "Quillon Mining Company"}
    assert party_name_problem("Commercial Registry of the Judicial Circuit") == "register"


def test_the_minister_and_the_listed_authority_pass_the_gate_and_a_non_party_does_not(kb: KB) -> None:
    docs, _ = kb.docs(
        "What law governs the Variation to Contract between The Secretary of State for Health and Social Care and "
        "The Kestrel Confederation?"
    )
    assert docs == {"secretary"}
    docs, _ = kb.docs(
        "What law governs the Pan-Westport Police Services Agreement between Harbour for Westport and Kestrel Transit "
        "Police Authority?"
    )
    assert docs == {"items"}
    # (The half the old reading made a party is no party of the variation.)
    docs, _ = kb.docs("What law governs the Variation to Contract between Social Care and The Kestrel Confederation?")
    assert docs == set()


def test_a_copyright_mark_after_the_title_is_no_word_of_it() -> None:
    # Before: the title was "Commercial Lease ©".
    assert agreement_title(FORM_LEASE) == "Commercial Lease"
    # (A brand's mark stays its word's.)
    assert agreement_title("KESTREL® SUPPLY AGREEMENT\n\nThis Agreement is made between Quillon Ltd and Kestrel Inc.\n") == (
        "KESTREL® SUPPLY AGREEMENT"
    )


def test_an_officer_greeted_by_the_letter_is_no_party() -> None:
    # Before: Victor Roe was a third party, so a question naming him with the company passed the
    # gate.
    assert bound_party_names(OFFICER_LETTER) == {"Quillon Securities Corp.", "Harbour Wireless Networks, Inc."}


def test_guard_a_person_greeted_at_a_home_address_stays_a_party() -> None:
    assert "Victor Roe" in bound_party_names(PERSON_LETTER)


def test_a_spanish_clause_names_each_side_and_its_title_opens_with_the_head() -> None:
    # Before: no agreement was read (no title), so no party.
    assert agreement_title(SPANISH) == "CONVENIO DE COLABORACIÓN"
    assert bound_party_names(SPANISH) == {
        "UNIVERSIDAD NACIONAL AUTÓNOMA DE WESTMARCH", "CENTRO DE INVESTIGACIÓN EN MATERIALES KESTREL, SOCIEDAD CIVIL",
    }
    assert agreement_title(SPANISH_TITLE_CASE) == "Contrato de Prestación de Servicios"
    assert bound_party_names(SPANISH_TITLE_CASE) == {"Quillon Privada, S.A. de C.V.", "Kestrel Diseño, S. de R.L. de C.V."}


def test_guard_one_side_lead_in_prose_names_no_party() -> None:
    assert bound_party_names(GUARD_ONE_SIDE) == {"Quillon Ltd", "Kestrel Inc."}


def test_a_details_tables_name_rows_closed_by_short_names_are_parties() -> None:
    # Before: neither party was read from the flattened table, nor from the one on its lines.
    assert bound_party_names(DETAILS_FLAT) == {"Quillon Wireless Pty Ltd", "Kestrel, Inc."}
    assert bound_party_names(DETAILS_LINES) == {"Harbour Research Institute", "Quillon Pty Ltd"}


def test_guard_name_rows_without_short_names_are_no_parties() -> None:
    assert bound_party_names(GUARD_NAME_ROW) == {"Quillon Ltd", "Kestrel Inc."}


def test_guard_an_english_heading_opened_by_convention_is_no_title() -> None:
    # (A Spanish or French head needs its linking word after it: "CONVENTION DE ...".)
    assert find_title("CONVENTION CENTER AUTHORITY\n\nThe Authority and Quillon Ltd agree that the hall is let.\n") is None


def test_a_french_head_and_its_adjective_over_french_prose_is_a_title() -> None:
    text = (
        "CONVENTION MINIÈRE\n\nENTRE\n\nLA RÉPUBLIQUE DE WESTMARCH, représentée par le Ministre des Mines et de "
        "l'Énergie,\n\nET\n\nLA SOCIÉTÉ KESTREL S.A., représentée par son Président,\n\nIl a été convenu ce qui suit :\n"
    )
    # Before: no title.
    assert find_title(text).text == "CONVENTION MINIÈRE"


def test_a_title_word_wrapped_alone_onto_a_prose_line_joins_the_heading_above() -> None:
    text = (
        "Exhibit 10.17\nDATED as of December 24, 2024\nQUILLON INVESTMENTS LIMITED\n(as Borrower)\nAND\n"
        "KESTREL VANTAGE CAPITAL LIMITED\n(as Lender)\nAMENDED AND RESTATED LOAN\nAGREEMENT in respect of "
        "HK$26,000,000\nLoan Facility\nTHIS AMENDED AND RESTATED AGREEMENT is dated as of December 24, 2024 and made\n"
        "BETWEEN:\n(1) Quillon Investments Limited, a company incorporated under the laws of the British Virgin Islands "
        "(the “Borrower”); and\n(2) Kestrel Vantage Capital Limited, a company incorporated in Hong Kong (the "
        "“Lender”).\nWHEREAS the Lender made a loan facility available to the Borrower under the amended and restated "
        "loan agreement.\n"
    )
    # Before: the preamble's shorter "AMENDED AND RESTATED AGREEMENT", without "LOAN".
    assert agreement_title(text) == "AMENDED AND RESTATED LOAN AGREEMENT"


def test_a_head_initial_title_stops_at_its_word_bound() -> None:
    # (At most ten words after the head: a run of capitals longer than that is no title's.)
    text = (
        "CONVENIO DE UNO DOS TRES CUATRO CINCO SEIS SIETE OCHO NUEVE DIEZ ONCE\n\nQue celebran las partes de la "
        "manera y en los términos que se indican en el presente documento.\n"
    )
    assert find_title(text).text == "CONVENIO DE UNO DOS TRES CUATRO CINCO SEIS SIETE OCHO NUEVE"


def test_the_side_reader_reads_only_the_opening() -> None:
    from ingest.annotate import _side_names

    lead = "CONVENIO DE COLABORACIÓN QUE CELEBRAN, POR UNA PARTE, LA UNIVERSIDAD DE WESTMARCH, REPRESENTADA; "

    def clause(other_side_at: int) -> str:
        return lead + " " * (other_side_at - len(lead) - 2) + "Y POR LA OTRA PARTE, EL INSTITUTO KESTREL, REPRESENTADO."

    # The other side's lead and name inside the opening's 4,000 characters: both sides are read.
    assert [n.text for n in _side_names(clause(3900))] == ["UNIVERSIDAD DE WESTMARCH", "INSTITUTO KESTREL"]
    # Past the bound (its name would run over it): one side's lead alone reads nothing.
    assert _side_names(clause(3999)) == []
    assert _side_names(clause(4001)) == []
