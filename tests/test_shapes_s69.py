"""Party and title shapes of stop 69 (issue 9), each found on set new22 (Philippine, Portuguese,
Luxembourg and German loan, offtake and lease contracts, US municipal and state agreements, Puerto
Rican leases, UK structured-finance and government order forms; collected by helpers who read no
Attest code), read this stop after its clean figures were taken at stop 68. The names here are
invented. Each test but the guards fails on the code before its rule.

- A cover's names joined by "AND", each closed by its legal form, run into the title on one caps
  line ("... (NO.7) PLC AND ACME TRUSTEE COMPANY LIMITED AND ... SUBSTITUTE ADMINISTRATOR
  AGREEMENT"): the title starts after the last name's form.
- A signing service's envelope id run into the heading ("DocuSign Envelope ID: A20E...") is no
  word of the title.
- A company of a numbered series carries its number in brackets inside its name, before its legal
  form ("Kestrel Ohio III (2) LLC").
- "ON THE FIRST PART:" and "ON THE SECOND PART:" label each party's entry.
- A party block: the name alone on its line, its address on short lines under it, the definition
  on a line of its own ("- hereinafter referred to as the "Borrower" -"), defines the block's name,
  never its country line; such a name alone on its line, defined by one singular term, is one
  party even with "and" inside it.
- An untitled text whose label rows name two parties by their parts ("LESSOR:", "LESSEE:") is a
  contract.
- Capitalised words joined by "of" or "for" before a name the model tagged open it ("Secretary of
  State for Work and Pensions", tagged from "State").
- A legend that points to another agreement ("... ARE SET FORTH IN AN OPTION AGREEMENT ... BY AND
  AMONG ...") names neither this contract's title nor its parties.
- A local government's state is part of its name though no comma follows it ("the City of
  Ashby, Rhode Island a municipal corporation").
- A clause naming a government and then its units ("the State of Westmark, Department of
  Buildings and General Services, Office of Purchasing & Contracting (hereinafter "State")")
  defines the government its term is made from; a bracketed remark closing the heading line
  ("[KESTREL HEALTH INC - CONTRACT # 37671]") is no word of the title, and the title runs to it.
- A ship sale's memorandum names each party by a role word without quotes ("X LLC., of Marshall
  Islands\n  hereinafter called the Sellers,"); the country after ", of" is where the party is, and
  the party the name before it.
- A government body's regional unit after a comma ("The Department of Education, Division of
  Norte, an agency of ...") is part of the body's name as the clause gives it.
- A cover's entry below its "and" whose first line closes with "and" ("Westmark State Bank and\n\n
  Harbour Bank AG branch Germany business\n\n(as arrangers)") still names its first line.
- A French party list opens with "ENTRE :" and joins its entries with "ET" alone on a line (or
  closing an entry's last line, "..., Et"); each entry's first line opens with the party's name
  after its article ("La Conférence des doyens d’université, association ..."); a representation
  clause ends at French drafting's "Ci-après" and its "«" quote.
- The question parser keeps a separator inside brackets in the name ("HRPTA Officers (Homeroom
  Parents and Teachers Association) of Aroroy"; an unclosed bracket still fails closed) and a local
  government's state after its comma ("Ashby County, Texas") in the name, as the clause writes it.
- Bounds: the French list is read only in the opening (4,000 characters); a party block holds its
  name and at most four address lines.

The gate test runs on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.agreements import find_title
from ingest.names import name_at
from service.evidence.subject_class import read_party_list
from tests.helpers import agreement_title, bound_party_names
from tests.kb import KB, ingested_kb

JOINED_COVER = (
    "1 EXECUTION COPY HARBOUR FINANCE PLC AND MORTGAGE TRUST SERVICES PLC AND CLOVER FLEXIBLE (NO.7) PLC AND "
    "KINGSWAY TRUSTEE COMPANY LIMITED AND HOMELOAN SERVICING LIMITED SUBSTITUTE ADMINISTRATOR AGREEMENT\n\n"
    "2 THIS SUBSTITUTE ADMINISTRATOR AGREEMENT is made as a Deed on 25 January 2007 BETWEEN: (1) HARBOUR FINANCE PLC a "
    "company incorporated under the laws of England and Wales (\"HFP\"); (2) KINGSWAY TRUSTEE COMPANY LIMITED a company "
    "incorporated under the laws of England and Wales (the \"Trustee\")."
)
GUARD_PARTNERSHIP_COVER = (
    "QUILLON LIMITED AND KESTREL LIMITED PARTNERSHIP AGREEMENT\n\nTHIS AGREEMENT is made between Quillon Limited "
    "(\"Quillon\") and Kestrel Limited (\"Kestrel\")."
)
ENVELOPE = (
    "DocuSign Envelope ID: B31E6B39-1EBA-4D60-A113-6BFC6CD55D94 FIRST AMENDMENT TO LEASE AGREEMENT THIS FIRST AMENDMENT "
    "TO LEASE AGREEMENT (this \"Amendment\") is entered into as of May 3, 2021, by and between Kestrel Ohio III (2) LLC, "
    "a Delaware limited liability company (\"Landlord\"), and Marrow Widgets, Inc., a Delaware corporation (\"Tenant\")."
)
PART_LABELS = (
    "NORTHLAKE INDUSTRIAL DEVELOPMENT COMPANY\nAMENDMENT TO LEASE CONTRACT\n\n"
    "ON THE FIRST PART: The NORTHLAKE INDUSTRIAL DEVELOPMENT COMPANY, a public corporation organized and existing by "
    "virtue of Act No. 18 of May 11, 1942, as amended, hereby represented by its Chief Financial Officer, Jorge Amado, "
    "hereinafter referred to as the \"COMPANY\" or \"LANDLORD\".\n\n"
    "ON THE SECOND PART: Vireo Medical, Inc., formerly known as Vireo Sciences Inc., a corporation authorized to do "
    "business in Puerto Rico, duly represented herein by its President, Sam Essig, hereinafter referred to as the "
    "\"TENANT\".\n\nONE: On April 11, 2003, the parties executed a lease agreement.\n"
)
PARTY_BLOCKS = (
    "LOAN AGREEMENT\n\nHALDOR Retail S.à.r.l.\n\n15, rue Edward Steichen\n\nL-2540 Luxembourg\n\nGrand Duchy of Luxembourg\n\n"
    "- hereinafter referred to as the “Borrower” -\n\nand\n\nNordmark Landesbank\n\nBrienner Straße 18\n\n80333 Munich\n\n"
    "- hereinafter referred to as the “Bank” -\n\nenter into the following Loan Agreement:\n\n1. Loan Amount\n\n"
    "The Bank grants the Borrower a loan of EUR 8,682,000.00. This Agreement is governed by the laws of Germany.\n"
)
ONE_LINE_BLOCK = (
    "Offtake Agreement\nTHIS OFFTAKE AGREEMENT (this “Agreement”) made and entered on January 1st, 2026 by and between\n"
    "Corvel Tin and Wolfram (Portugal) S.A.\nBarroca Grande\n6225-051 Aldeia de São Francisco de Assis, Portugal\n"
    "(“Seller”)\nAnd\nHakuto Electric Industries Ltd.\n4-5 Kitahama, Osaka 541-0041\n(“Buyer”)\nRECITALS\n"
)
LABELLED_TABLE = (
    "ESSENTIAL PROVISIONS\n|\nLESSOR:\n|NORTHWIND LAND, INC.\n|\nLESSEE:\n|PEOPLEWORKS (PHILIPPINES), INC.\n|\n"
    "TERM OF LEASE:\n|Ten (10) years, from August 1, 2005 to July 31, 2015\n|\n"
)
GUARD_MEMO = "MEMO\nTo: Finance\nFrom: Legal\nBuyer: Acme Corp.\nRe: pending items\n"
ORDER_FORM = (
    "ORDER FORM Mandatory Work Activity This Order Form is issued subject to the provisions of the framework agreement\n\n"
    "entered into between the Secretary of State for Work and Pensions and the Prime Contractor on 20 January 2011 (the "
    "Framework Agreement). The Prime Contractor agrees to supply the services.\n\nOrder Number\n\nDate FROM Contracting "
    "Body\n\n3 May 2011\n\nThe Secretary of State for Work and Pensions (the Contracting Body)\n\nService Address\n\n"
    "Caxton House Tothill Street Greater London SW1H 9NA\n"
)
POINTING_LEGEND = (
    "1 Exhibit 10.28 CERTAIN RIGHTS AND OBLIGATIONS OF THE NORTHERN EXPORT INSURANCE AGENCY (\"NEIA\") ARE SET FORTH IN "
    "AN OPTION AGREEMENT, DATED AS OF FEBRUARY 24, 1995, BY AND AMONG HARTWELL PRODUCTION COMPANY, HARTWELL CORPORATION "
    "AND NEIA, WHICH SHOULD BE REVIEWED IN CONNECTION WITH THE AGREEMENT SET FORTH HEREIN ______________ FINANCE "
    "AGREEMENT AMONG BELMONT INTERNATIONAL CONGO, INC. BELMONT CONGO HOLDINGS, INC. AND NORTHERN EXPORT INSURANCE AGENCY "
    "DATED AS OF DECEMBER 28, 1994 NEIA 679-94-139-IG ______________ 2 TABLE OF CONTENTS PAGE ---- ARTICLE I DEFINITIONS"
)
SEAT_WITHOUT_COMMA = (
    "MEMORANDUM OF AGREEMENT by and between the CITY OF ASHBY and HALDANE UNIVERSITY This Memorandum of Agreement (this "
    "\"Agreement\") is entered into by Haldane University, a private, non-profit institution of higher education, having a "
    "mailing address of University Hall, One Prospect Street, Ashby, Rhode Island 02912 (\"Haldane\"), and the City of "
    "Ashby, Rhode Island a municipal corporation located in the State of Rhode Island, having a mailing address of City "
    "Hall, 25 Dorrance Street, Ashby, Rhode Island 02903 (the \"City\"). I. Introduction\n"
)

GOVERNMENT_UNITS = (
    "STATE OF WESTMARK\n\nRETAINER CONTRACT FOR IT PROFESSIONAL SERVICES [KESTREL HEALTH INC - CONTRACT # 37671]\n\n"
    "1. Parties. This is a contract for services (the “Master Agreement”) between the State of Westmark, Department of\n"
    "Buildings and General Services, Office of Purchasing & Contracting (hereinafter “State”), and Kestrel Health Inc.,\n"
    "with principal place of business at Simsbury, CT (hereinafter called “Contractor”).\n"
)

REGIONAL_UNIT = (
    "MEMORANDUM OF AGREEMENT\n\nThis Memorandum of Agreement is entered into at the City of Catbalogan, by and between:\n\n"
    "The Department of Education, Division of Norte, an agency of the national government of the Republic of the\n"
    "Philippines, with office address at Arteche Blvd., Catbalogan City, represented by its Schools Division "
    "Superintendent,\nCarmela R. Tamayo, EdD, CESO V herein referred to as “DepEd Norte”;\n\n-and-\n\n"
    "Provincial Government of Norte, with office address at Norte Capitol Building, Catbalogan City, represented in this "
    "Agreement by the Provincial Governor, Hon. Reynolds Tan herein after referred\nto as the “PLGU”.\n\nWITNESSETH: That\n"
)

SHIP_SALE = (
    "Norwegian Shipbrokers’ Association’s Memorandum of Agreement for sale and purchase of ships.\nCode-name\n|\n|\n"
    "SALEFORM 1993\n|\n|\nMEMORANDUM OF AGREEMENT\nDated: 11 July 2014\nKestrel Shipping 3 LLC., of Marshall Islands\n"
    "hereinafter called the Sellers, have agreed to sell, and\nQR Aries Limited., of Marshall Islands\n"
    "hereinafter called the Buyers, have agreed to buy\nName: M/T ‘KESTREL TOPAZ’\n"
    "hereinafter called the Vessel, on the following terms and conditions:\nDefinitions and interpretation\n"
    "“Charterer” means Harbour Maritime Logistics PTE Ltd. of 1 Marina Boulevard Singapore 018989.\n"
)

COUNTY_CLAIM = (
    "CLAIM CONTRACT\n\nTHIS CLAIM CONTRACT is made by and between Ashby County, Texas, a political subdivision of the State "
    "of Texas (\"COUNTY\"), and Kestrel Youth League, Inc., a Texas nonprofit corporation (\"LEAGUE\"). This contract "
    "is governed by the laws of the State of Texas.\n"
)

SHARED_ENTRY_COVER = (
    "Non-Binding English Translation\n\nSeptember 25, 2018\n\nKESTREL Optical Networking SE\n\n(as borrower)\n\nand\n\n"
    "Westmark State Bank and\n\nHarbour Bank AG branch Germany business\n\n(as Mandated Lead Arrangers)\n\n"
    "the financial institutions named in the loan agreement\n\n(as lenders)\n\nand\n\nHarbour Bank Luxembourg S.A.\n\n"
    "(as agent)\n\n______________________________\n\nSYNOPSIS LOAN AGREEMENT\n\n______________________________\n"
)

FRENCH_LIST = (
    "CONVENTION-CADRE DE PARTENARIAT\nENTRE :\nLE DEPARTEMENT DE LA CHARENTE\nAyant son siège : 1 rue du Port 16000 "
    "ANGOULEME\nReprésenté par Monsieur Jean Roux En sa qualité de Président,\nCi-après désigné « le Département », Et\n"
    "L’UNIVERSITE DE SAINTONGE\nAyant son siège : Domaine Universitaire 17000 Saintes Représentée par Madame Anne Morel\n"
    "En sa qualité de Présidente,\nCi-après désignée « l’Université »\nCONSIDERANT QUE\n"
)
FRENCH_LIST_THREE = (
    "CONVENTION DE PARTENARIAT 2011-2013\nENTRE\nLa Conférence des doyens d’université, association loi 1901, ayant son "
    "siège social à Lyon, représentée par Monsieur Paul Roux agissant en qualité de Président,\nci-après désignée la "
    "« CDU »,\nD’UNE PART,\nET\nL’Agence de coopération des bibliothèques et des musées, Groupement d’intérêt public, "
    "représentée par Monsieur Luc Blanc,\nci-après désignée l’« ACBM »,\nD’AUTRE PART,\nET\nLa Caisse des prêts et "
    "garanties, établissement spécial, représentée par son Directeur Général,\nci- après désignée la « CPG »,\n"
    "DE TROISIEME PART,\nPREAMBULE\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "shapes-s69", {"blocks": PARTY_BLOCKS, "table": LABELLED_TABLE, "county": COUNTY_CLAIM})


def test_a_covers_names_joined_by_and_run_into_the_title_are_no_words_of_it() -> None:
    # Before: the title began inside the list ("PLC AND KINGSWAY TRUSTEE COMPANY LIMITED AND ...").
    assert agreement_title(JOINED_COVER) == "SUBSTITUTE ADMINISTRATOR AGREEMENT"


def test_guard_a_form_the_title_word_completes_stays_in_the_title() -> None:
    # ("LIMITED PARTNERSHIP" is a legal form: cutting after it would leave one word.)
    assert find_title(GUARD_PARTNERSHIP_COVER).text == "QUILLON LIMITED AND KESTREL LIMITED PARTNERSHIP AGREEMENT"


def test_an_envelope_id_is_no_word_of_the_title_and_a_series_number_is_the_names() -> None:
    # Before: the title began with the envelope's GUID and the landlord was "Kestrel Ohio III".
    assert agreement_title(ENVELOPE) == "FIRST AMENDMENT TO LEASE AGREEMENT"
    assert bound_party_names(ENVELOPE) == {"Kestrel Ohio III (2) LLC", "Marrow Widgets, Inc."}


def test_a_series_number_counts_only_before_a_legal_form() -> None:
    text = "Kestrel Ohio III (2) LLC, a Delaware limited liability company"
    assert name_at(text, 0, len(text)).text == "Kestrel Ohio III (2) LLC"
    # (Guard: a number after a whole name, or before a word that is no legal form.)
    guard = "Acme Holdings (1) and Beta LLC"
    assert name_at(guard, 0, len(guard)).text == "Acme Holdings"
    guard = "Acme Holdings (2) The Lender"
    assert name_at(guard, 0, len(guard)).text == "Acme Holdings"


def test_first_part_and_second_part_labels_name_each_party() -> None:
    # Before: no party at all (each definition's nearest name was the representative).
    assert bound_party_names(PART_LABELS) == {"The NORTHLAKE INDUSTRIAL DEVELOPMENT COMPANY", "Vireo Medical, Inc."}


def test_a_party_blocks_definition_under_its_address_defines_the_blocks_name() -> None:
    # Before: the Borrower was "Grand Duchy of Luxembourg" and the Bank no one ("80333 Munich").
    assert bound_party_names(PARTY_BLOCKS) == {"HALDOR Retail S.à.r.l.", "Nordmark Landesbank"}


def test_a_name_alone_on_its_line_with_and_inside_is_one_party() -> None:
    # Before: "Corvel Tin" (a person, to the model) and "Wolfram (Portugal) S.A.".
    assert bound_party_names(ONE_LINE_BLOCK) == {"Corvel Tin and Wolfram (Portugal) S.A.", "Hakuto Electric Industries Ltd."}


def test_an_untitled_table_labelling_two_parties_is_a_contract() -> None:
    # Before: no agreement at all (no title, no preamble).
    assert bound_party_names(LABELLED_TABLE) == {"NORTHWIND LAND, INC.", "PEOPLEWORKS (PHILIPPINES), INC."}


def test_guard_a_memo_with_one_role_label_is_no_contract() -> None:
    assert agreement_title(GUARD_MEMO) is None


def test_an_office_the_model_tagged_from_inside_is_read_from_its_head() -> None:
    # Before: "State for Work and Pensions".
    assert bound_party_names(ORDER_FORM) == {"Secretary of State for Work and Pensions"}


def test_a_legend_pointing_to_another_agreement_names_no_title_and_no_party() -> None:
    # Before: the title was the legend's 'NORTHERN EXPORT INSURANCE AGENCY ("NEIA") ARE SET FORTH IN AN
    # OPTION AGREEMENT', and the legend's companies were parties.
    assert agreement_title(POINTING_LEGEND) == "FINANCE AGREEMENT"
    assert bound_party_names(POINTING_LEGEND) == {
        "BELMONT INTERNATIONAL CONGO, INC.", "BELMONT CONGO HOLDINGS, INC.", "NORTHERN EXPORT INSURANCE AGENCY",
    }


def test_a_local_governments_state_without_its_comma_is_part_of_its_name() -> None:
    assert bound_party_names(SEAT_WITHOUT_COMMA) == {"Haldane University", "City of Ashby, Rhode Island"}


def test_a_government_over_its_units_is_the_party_and_a_remark_closes_the_heading() -> None:
    # Before: "General Services" (a unit's half) and the title "RETAINER CONTRACT".
    assert bound_party_names(GOVERNMENT_UNITS) == {"State of Westmark", "Kestrel Health Inc."}
    assert agreement_title(GOVERNMENT_UNITS) == "RETAINER CONTRACT FOR IT PROFESSIONAL SERVICES"


def test_a_bodys_regional_unit_after_its_comma_is_part_of_its_name() -> None:
    # Before: "The Department of Education".
    assert bound_party_names(REGIONAL_UNIT) == {"The Department of Education, Division of Norte", "Provincial Government of Norte"}
    # (Guard: a company's name takes no region after it.)
    text = "Acme Widgets Inc., Region IV, a Delaware corporation"
    assert name_at(text, 0, len(text)).text == "Acme Widgets Inc."


def test_a_ship_sales_role_words_without_quotes_define_its_parties() -> None:
    # Before: no party (the role words were no definitions; the Charterer's "means" row stood).
    assert bound_party_names(SHIP_SALE) == {"Kestrel Shipping 3 LLC.", "QR Aries Limited"}


def test_a_cover_entry_whose_first_line_closes_with_and_names_that_line() -> None:
    # Before: the cover named no one but the agent (the entry below the first "and" read as no name).
    assert bound_party_names(SHARED_ENTRY_COVER) == {
        "KESTREL Optical Networking SE", "Westmark State Bank", "Harbour Bank Luxembourg S.A.",
    }


def test_a_french_party_list_names_each_entry() -> None:
    # Before: the department alone (the university followed its representation clause), and no
    # party of the three-party list.
    assert bound_party_names(FRENCH_LIST) == {"DEPARTEMENT DE LA CHARENTE", "UNIVERSITE DE SAINTONGE"}
    assert bound_party_names(FRENCH_LIST_THREE) == {
        "Conférence des doyens d’université", "Agence de coopération des bibliothèques et des musées",
        "Caisse des prêts et garanties",
    }


def test_block_parties_and_table_parties_pass_the_gate_and_a_country_does_not(kb: KB) -> None:
    docs, _ = kb.docs("What law governs the Loan Agreement between HALDOR Retail S.à.r.l. and Nordmark Landesbank?")
    assert docs == {"blocks"}
    docs, _ = kb.docs("What law governs the Loan Agreement between Grand Duchy of Luxembourg and Nordmark Landesbank?")
    assert docs == set()
    docs, _ = kb.docs("What law governs the agreement between NORTHWIND LAND, INC. and PEOPLEWORKS (PHILIPPINES), INC.?")
    assert docs == {"table"}


def test_the_question_parser_keeps_a_bracketed_and_and_a_countys_state_in_the_name() -> None:
    listed = read_party_list("AROROY HIGH SCHOOL and HRPTA Officers (Homeroom Parents and Teachers Association) of Aroroy")
    assert (listed.pieces, listed.failures) == (
        ["AROROY HIGH SCHOOL", "HRPTA Officers (Homeroom Parents and Teachers Association) of Aroroy"], [],
    )
    unclosed = read_party_list("Acme (Holdings and Beta Inc.")
    assert unclosed.failures == ["unbalanced parenthesis in party name 'Acme (Holdings and Beta Inc.'"]
    assert read_party_list("Ashby County, Texas and Kestrel Youth League, Inc.").pieces == [
        "Ashby County, Texas", "Kestrel Youth League, Inc.",
    ]
    # (Guard: a state after a company is a piece of its own, which fails as no party.)
    assert read_party_list("Acme Inc., Texas and Beta LLC").pieces == ["Acme Inc.", "Texas", "Beta LLC"]


def test_guard_a_county_with_its_state_still_passes_the_gate(kb: KB) -> None:
    docs, _ = kb.docs("What law governs the Claim Contract between Ashby County, Texas and Kestrel Youth League, Inc.?")
    assert docs == {"county"}


def test_the_french_list_reader_reads_only_the_opening() -> None:
    from ingest.annotate import _french_list_names

    assert [n.text for n in _french_list_names(FRENCH_LIST)] == ["DEPARTEMENT DE LA CHARENTE", "UNIVERSITE DE SAINTONGE"]
    # (The same list past the opening's 4,000 characters names no one.)
    assert _french_list_names("Préambule.\n" * 400 + FRENCH_LIST) == []


def test_a_party_block_reads_at_most_four_address_lines() -> None:
    from ingest.definitions import find_definitions

    lines = "\n\n".join(f"{n} rue du Port" for n in range(1, 5))
    defined = {d.term: d.name.text if d.name else None for d in find_definitions(
        f"LOAN AGREEMENT\n\nHALDOR Retail S.à.r.l.\n\n{lines}\n\n- hereinafter referred to as the “Borrower” -\n\nand\n"
    )}
    assert defined["Borrower"] == "HALDOR Retail S.à.r.l."
    # (Five lines under the name: no block; the block's head is not read.)
    lines = "\n\n".join(f"{n} rue du Port" for n in range(1, 6))
    defined = {d.term: d.name.text if d.name else None for d in find_definitions(
        f"LOAN AGREEMENT\n\nHALDOR Retail S.à.r.l.\n\n{lines}\n\n- hereinafter referred to as the “Borrower” -\n\nand\n"
    )}
    assert defined["Borrower"] != "HALDOR Retail S.à.r.l."
