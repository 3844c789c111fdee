"""Party and title shapes of stop 70 (issue 9), each found on set new23 (US interlocal and
intergovernmental agreements, UK NHS covers, French partnership conventions, a Council of Europe
loan, a ship sale's memorandum; collected by helpers who read no Attest code), read this stop
after its clean figures were taken at stop 69. The names here are invented. Each test but the
guards fails on the code before its rule.

- A clause that opens with a name its term is made from defines that name, though the reading ran
  on over a line break into the place after it ("; the Town of Ashby, a municipal corporation in
  Orange\\nCounty, Westmark\\n(hereinafter referred to as "Ashby")").
- A list of parties separated by semicolons, each member carrying its description and its
  definition, names each member; a comma list of local governments names each ("... BY AND BETWEEN
  THE VILLAGE OF ARDEN, TOWN OF PERRYVILLE, TOWN OF ROSEDALE, AND TOWN OF YORKTON ...").
- A UK cover lists its parties above the title ("SOMERSHIRE PRIMARY CARE TRUST (1)\\nAS
  CO-ORDINATING COMMISSIONER FOR ITSELF AND AS AGENT ...\\nAND\\n..."); a capacity in capitals is
  a role line at any length; "TERMS AND CONDITIONS FOR THE PROVISION OF ..." titles the contract; a
  cover entry alone on its line next to the cover's "AND" is one company's name
  ("HARROW CLEANING AND ENVIRONMENTAL SERVICES LIMITED").
- French party lists name their sides ("Entre d'une part,", "et d'autre part,"), may leave blank
  lines before an entry and open it with a lower-case article ("le Lycée ..."); a French title
  alone on its line is written in sentence case ("Convention de partenariat"); a name's French
  article is dropped like "the" when names are compared ("L'Université de Westland" is
  "Université de Westland"); the question parser reads such a title before "between" ("the
  Convention de partenariat between ...").
- A cover's joiner alone on its line ends the entry above it ("between\\nX FUND\\nand\\nTHE
  REPUBLIC OF Y\\nThe X FUND (hereinafter called the "Fund")"); "on the one hand" closes a side.
- A US venue caption run into the heading ("STATE OF GEORGIA COUNTY OF GLYNN AMENDMENT NO. 1 TO
  SUBLEASE AGREEMENT", "STATE OF GEORGIA GWINNETT COUNTY LEASE AGREEMENT") is no word of the title.
- A ship sale's "Sellers" and "Buyers" are its parties, each one company (never a group's
  "(collectively, the "Borrowers")"); a seat after a legal form and "of the" ("INC. of the Republic
  of the Marshall Islands") is where the party is, no party.
- "... of the one part\n\nAND\n\nY LIMITED a company ..." after a long description of the first
  party: the "and" after the side's closing words opens the second party.
- A ministry named for its portfolios runs on over "OF THE REPUBLIC OF THE UNION OF X" in capitals
  as in title case, never over "ON ..."; the question parser keeps such a name's commas and "and"
  inside it ("Ministry of Agriculture, Livestock and Irrigation of ...").

- A legal form alone on a cover entry's line closes the name on the line above ("The Bank of New
  York Mellon Trust Company,\n\nN. A., as Trustee"): "N. A." is no party of its own (left open
  since stop 68), and its spaced spelling is stripped like "N.A." when names are compared.
- Bounds: the side's closing "and" is looked for within 1,500 characters of the first party's
  name; a portfolio body's "of (the) X" tail reads at most four segments.

The gate test runs on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.annotate import _comma_list
from ingest.normalize import normalise_org
from service.evidence.subject_class import parse_question
from tests.helpers import agreement_title, bound_party_names, defined_terms
from tests.kb import KB, ingested_kb

SEMICOLON_TOWNS = (
    "INTERLOCAL AGREEMENT REGARDING EMERGENCY PLANNING\n"
    "THIS AGREEMENT, made and entered into this 3rd day of May 2024\n"
    "between the Town of Kestrel Hill, a municipal corporation in Orange County, Westmark\n"
    "(hereinafter referred to as \"Kestrel Hill\"); the Town of Ashby, a municipal corporation in Orange\n"
    "County, Westmark (hereinafter referred to as \"Ashby\"); the Town of Harrowgate, a\n"
    "municipal corporation in Orange County, Westmark and Orange County, a political\n"
    "subdivision of the State of Westmark (hereinafter referred to as the\"County\"), for the provision\n"
    "of a comprehensive plan.\nWITNESSETH\nWHEREAS, the County and Towns are public bodies;\n"
)
TOWNS_IN_TITLE = (
    "INTER-GOVERNMENTAL AGREEMENT BY AND BETWEEN THE VILLAGE OF ARDEN, TOWN OF PERRYVILLE, TOWN OF ROSEDALE, "
    "AND TOWN OF YORKTON REGARDING FIRE PROTECTION\n\n"
    "WHEREAS, the Village of Arden, a Westmark municipal corporation, and the Towns of Perryville, Rosedale and "
    "Yorkton (together, the “Municipalities”), desire to address common needs; and\n"
)
NHS_COVER = (
    "SOMERSHIRE PRIMARY CARE TRUST (1)\n\n"
    "AS CO-ORDINATING COMMISSIONER FOR ITSELF AND AS AGENT FOR AND ON BEHALF OF THE ASSOCIATES\n\nAND\n\n"
    "HARBOURTON AND SOMERSHIRE NHS FOUNDATION TRUST (2)\n\nAS PROVIDER\n\n"
    "TERMS AND CONDITIONS FOR THE PROVISION OF HEALTH SERVICES\n\nGateway Reference 9164 C O N T E N T S\n\n"
    "1. DEFINITIONS AND INTERPRETATION...... 1\n\n2. COMMENCEMENT, DURATION AND TRANSITION...... 1\n"
)
CLEANING_COVER = (
    "ROYAL WESTMARK HOSPITALS NHS TRUST\n\nAND\n\nHARROW CLEANING AND ENVIRONMENTAL SERVICES LIMITED\n\n"
    "TERMS AND CONDITIONS FOR THE PROVISION OF SOFT FACILITIES MANAGEMENT (FM) SERVICES\n\n"
    "KESTREL SOLICITORS LLP 1 St George’s Road, London SW19 4DR\n\nCONTENTS CLAUSE\n\nPage\n\n1.\n\n"
    "Definitions and Interpretation ........................ 1\n"
)
FRENCH_SIDES = (
    "CONVENTION DE PARTENARIAT \"UNIVERCITES\"\n\nUNIVERSITE – GRAND HARBOURG – VILLE DE HARBOURG\n\n"
    "Entre d'une part,\n\nL'Université de Westland, représentée par son Président, Monsieur Alain Roux, dûment "
    "habilité, et désignée ci-après par l'Université,\n\net d'autre part,\n\nLa Communauté Urbaine du Grand "
    "Harbourg, représentée par son Président en exercice, et désignée ci-après par le Grand Harbourg,\n\net ,\n\n"
    "La Ville de Harbourg, représentée par son Maire en exercice, et désignée ci-après par la Ville de Harbourg,\n\n"
    "Il est convenu ce qui suit:\n\nPréambule\n\nL'Université, le Grand Harbourg et la Ville de Harbourg ont la "
    "volonté de poursuivre le partenariat.\n"
)
FRENCH_SENTENCE_CASE = (
    "Convention entre l’UWJV et le Lycée Roux\n\n \n\nConvention de partenariat\n\n \n\nEntre\n\n \n\n \n\n"
    "L’Université de Westland Jules-Verne\n\nReprésentée par son président, Monsieur Michel Blanc\n\n \n\n"
    "ci-après dénommée l’UWJV\n\n \n\net\n\n \n\n \n\nle Lycée Louis Roux\n\nReprésenté par son proviseur, "
    "Madame Isabelle Noir\n\n \n\nVu le code de l’éducation, notamment son article L612-3 ;\n"
)
FUND_COVER = (
    "FONDS DE DEVELOPPEMENT SOCIAL DU KESTREL\nKESTREL SOCIAL DEVELOPMENT FUND\nFund/Project 1241 (1996)\n"
    "Framework Loan Agreement\nFRAMEWORK LOAN AGREEMENT\nbetween\nTHE KESTREL SOCIAL DEVELOPMENT FUND\nand\n"
    "THE REPUBLIC OF WESTMARK\nThe KESTREL SOCIAL DEVELOPMENT FUND (hereinafter called the “Fund“), Paris, on the one "
    "hand,\nand the REPUBLIC OF WESTMARK (hereinafter called the “Borrower“), on the other hand,\n"
    "– Having regard to the application of the Government of the Republic of Westmark;\n"
    "HAVE AGREED UPON THE FOLLOWING:\nArticle 1\nThis loan is granted under the Loan Regulations of the Fund.\n"
)
SHIP_SALE = (
    "MEMORANDUM OF AGREEMENT\nDated: 1 May 2020\n"
    "KESTREL SHIPPING COMPANY INC. of the Republic of the Marshall Islands, hereinafter\n"
    "called the “Sellers”, have agreed to sell, and\n"
    "HARROW ENGINEERING SDN BHD. of Malaysia, hereinafter called the “Buyers”, have agreed to\nbuy:\n"
    "Name of vessel: P. SOPHIA\nIMO Number: 9414034\n"
)


VENUE_CAPTION = (
    "STATE OF GEORGIA COUNTY OF GLYNN AMENDMENT NO. 1 TO SUBLEASE AGREEMENT ------------------- This Amendment to "
    "Sublease Agreement made this the 23rd day of May, 1994, by and between the KESTREL COUNTY DEVELOPMENT AUTHORITY, "
    "hereinafter referred to as \"Authority\", and HARROW AEROSPACE CORPORATION, a Georgia Corporation, hereinafter "
    "referred to as \"Sublessee.\" W I T N E S S E T H: WHEREAS, the Authority leased land.\n"
)


MINISTRY_TITLE = (
    "MEMORANDUM OF UNDERSTANDING BETWEEN THE DEPARTMENT OF AGRICULTURE OF THE REPUBLIC OF WESTMARK AND THE MINISTRY "
    "OF AGRICULTURE, LIVESTOCK AND IRRIGATION OF THE REPUBLIC OF THE UNION OF HARBOURIA ON FOOD SECURITY AND "
    "AGRICULTURAL COOPERATION\n\nTHE DEPARTMENT OF AGRICULTURE OF THE REPUBLIC OF WESTMARK and, THE MINISTRY OF "
    "AGRICULTURE, LIVESTOCK AND IRRIGATION OF THE REPUBLIC OF THE UNION OFHARBOURIA, (hereinafter referred to "
    "singularly as \"Participant\" and collectively as the \"Participants\");\n\nDESIRING to strengthen relations;\n"
)


ONE_PART = (
    "AGREEMENT\n                          FOR CIVIL & STRUCTURAL WORKS\n\n          This Agreement for Civil & "
    "Structural Works (the \"Agreement\")\n                is made at Hyderabad on the 2ND day of JULY, 2007.\n\n"
    "BETWEEN\n\n     KESTREL INDIA PRIVATE LIMITED, a company incorporated under the Companies\n     act 1956 having "
    "its registered office at 3rd Floor, My Home Tycoon,\n     Begumpet Hyderabad - 500016, and its branch office at "
    "Plot No 10, I.T. Park,\n     Nanakramaguda, R.R. District, represented by its "
    "Financial Controller, MR\n     HARI RAJU (hereinafter referred to as the \"OWNER\" which expression shall,\n     "
    "unless repugnant to the context or meaning hereof, be deemed to mean and\n     include its successors, assigns "
    "and affiliates) of the one part\n\nAND\n\n     HARROWJI PALLONJI & COMPANY LIMITED a company incorporated under "
    "the\n     Companies Act 1956, having its registered office at Mumbai.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "shapes-s70", {"towns": SEMICOLON_TOWNS, "french": FRENCH_SENTENCE_CASE})


def test_a_clause_opening_with_the_name_its_term_is_made_from_defines_that_name() -> None:
    # Before: "Ashby" defined "Westmark" (the reading ran over "Orange\nCounty" into the state).
    assert defined_terms(SEMICOLON_TOWNS)["Ashby"] == "Town of Ashby"


def test_a_semicolon_list_of_defined_members_names_each() -> None:
    # Before: the Town of Harrowgate, named only in the list, was no party.
    assert bound_party_names(SEMICOLON_TOWNS) == {"Town of Kestrel Hill", "Town of Ashby", "Town of Harrowgate", "Orange County"}


def test_a_comma_list_of_local_governments_names_each() -> None:
    # Before: the village and "Perryville"-less readings; the towns between commas were dropped.
    assert {"TOWN OF PERRYVILLE", "TOWN OF ROSEDALE"} <= bound_party_names(TOWNS_IN_TITLE)
    start = TOWNS_IN_TITLE.index(",")
    assert [n.text for n in _comma_list(TOWNS_IN_TITLE, start, 200)][:2] == ["TOWN OF PERRYVILLE", "TOWN OF ROSEDALE"]


def test_guard_a_comma_list_takes_no_bare_place() -> None:
    text = "between the Village of Arden, Westmark, and Beta LLC"
    assert _comma_list(text, text.index(","), len(text)) == []


def test_a_uk_cover_lists_its_parties_above_its_terms_and_conditions_title() -> None:
    # Before: no title, so no agreement and no party.
    assert agreement_title(NHS_COVER) == "TERMS AND CONDITIONS FOR THE PROVISION OF HEALTH SERVICES"
    assert bound_party_names(NHS_COVER) == {"SOMERSHIRE PRIMARY CARE TRUST", "HARBOURTON AND SOMERSHIRE NHS FOUNDATION TRUST"}


def test_a_cover_entry_alone_on_its_line_is_one_company() -> None:
    # Before: "HARROW CLEANING" (a "person") and "ENVIRONMENTAL SERVICES LIMITED".
    assert agreement_title(CLEANING_COVER) == (
        "TERMS AND CONDITIONS FOR THE PROVISION OF SOFT FACILITIES MANAGEMENT (FM) SERVICES"
    )
    assert bound_party_names(CLEANING_COVER) == {
        "ROYAL WESTMARK HOSPITALS NHS TRUST", "HARROW CLEANING AND ENVIRONMENTAL SERVICES LIMITED",
    }


def test_french_sides_blank_lines_and_sentence_case_titles() -> None:
    # Before: no party of either list, and no title of the second.
    assert {normalise_org(n) for n in bound_party_names(FRENCH_SIDES)} == {
        "universite de westland", "communaute urbaine du grand harbourg", "ville de harbourg",
    }
    assert agreement_title(FRENCH_SENTENCE_CASE) == "Convention de partenariat"
    assert bound_party_names(FRENCH_SENTENCE_CASE) == {"Université de Westland Jules-Verne", "Lycée Louis Roux"}


def test_a_french_article_is_dropped_like_the() -> None:
    assert normalise_org("L'Université de Westland") == normalise_org("Université de Westland") == "universite de westland"
    assert normalise_org("La Ville de Harbourg") == "ville de harbourg"
    # (Guard: a shouted "LA" is a name's own word.)
    assert normalise_org("LA FITNESS INC.") == "la fitness"


def test_a_covers_joiner_line_ends_the_entry_and_on_the_one_hand_closes_a_side() -> None:
    # Before: no party (the Fund's reading ran from the cover's "between" over both entries).
    terms = defined_terms(FUND_COVER)
    assert (terms["Fund"], terms["Borrower"]) == ("The KESTREL SOCIAL DEVELOPMENT FUND", "REPUBLIC OF WESTMARK")


def test_a_ship_sales_sellers_and_buyers_are_its_companies_without_their_seats() -> None:
    # Before: "Sellers" defined the Marshall Islands and "Buyers" no party.
    assert bound_party_names(SHIP_SALE) == {"KESTREL SHIPPING COMPANY INC.", "HARROW ENGINEERING SDN BHD."}


def test_listed_towns_pass_the_gate_and_a_town_the_list_does_not_name_fails(kb: KB) -> None:
    docs, _ = kb.docs("What law governs the Interlocal Agreement between Town of Harrowgate and Town of Ashby?")
    assert docs == {"towns"}
    docs, _ = kb.docs("What law governs the Interlocal Agreement between the Town of Harrowgate and Orange County?")
    assert docs == {"towns"}
    # (Guard: a town the list does not name fails.)
    docs, _ = kb.docs("What law governs the Interlocal Agreement between Town of Harrowgate and Town of Perryville?")
    assert docs == set()


def test_a_venue_caption_run_into_the_heading_is_no_word_of_the_title() -> None:
    # Before: "STATE OF GEORGIA COUNTY OF GLYNN AMENDMENT NO. 1 TO SUBLEASE AGREEMENT".
    assert agreement_title(VENUE_CAPTION) == "AMENDMENT NO. 1 TO SUBLEASE AGREEMENT"
    from ingest.agreements import _strip_noise

    assert _strip_noise("STATE OF NEW YORK KINGS COUNTY LEASE AGREEMENT")[0] == "LEASE AGREEMENT"
    # (Guards: no US state, no caption; a state alone is no caption either.)
    assert _strip_noise("STATE OF MIND COUNTY OF X AGREEMENT")[0] == "STATE OF MIND COUNTY OF X AGREEMENT"
    assert _strip_noise("STATE OF GEORGIA SUPPLY AGREEMENT")[0] == "STATE OF GEORGIA SUPPLY AGREEMENT"


def test_the_question_parser_reads_a_french_title_before_between() -> None:
    asked = parse_question("What law governs the Convention de partenariat between L’Université de Westland and le Lycée Roux?")
    assert (asked.agreement_title, asked.parties) == ("Convention de partenariat", ["L'Université de Westland", "le Lycée Roux"])
    # (Guard: an English title ending in its agreement word is read as before.)
    english = parse_question("What law governs the Convention Center Agreement between Acme Inc. and Beta LLC?")
    assert english.agreement_title == "Convention Center Agreement"


def test_french_parties_pass_the_gate_with_or_without_their_article(kb: KB) -> None:
    asked = "What law governs the Convention de partenariat between {} and {}?"
    docs, _ = kb.docs(asked.format("L’Université de Westland Jules-Verne", "le Lycée Louis Roux"))
    assert docs == {"french"}
    docs, _ = kb.docs(asked.format("Université de Westland Jules-Verne", "Lycée Louis Roux"))
    assert docs == {"french"}
    # (Guard: a lycée the list does not name fails.)
    docs, _ = kb.docs(asked.format("Université de Westland Jules-Verne", "Lycée Louis Blanc"))
    assert docs == set()


def test_a_ministry_named_for_its_portfolios_runs_on_over_of_the_republic() -> None:
    # Before: "THE MINISTRY OF AGRICULTURE" (the title's reading stopped at its comma).
    assert "MINISTRY OF AGRICULTURE, LIVESTOCK AND IRRIGATION OF THE REPUBLIC OF THE UNION OF HARBOURIA" in (
        bound_party_names(MINISTRY_TITLE)
    )
    from ingest.names import name_at

    caps = "THE MINISTRY OF TRADE, INDUSTRY AND ENERGY OF THE REPUBLIC OF KESTREL ON TRADE"
    assert name_at(caps, 4, len(caps)).text == "MINISTRY OF TRADE, INDUSTRY AND ENERGY OF THE REPUBLIC OF KESTREL"


def test_the_question_parser_keeps_a_ministrys_portfolios_in_its_name() -> None:
    from service.evidence.subject_class import read_party_list

    listed = read_party_list("Acme Inc. and Ministry of Agriculture, Livestock and Irrigation of the Republic of Harbouria")
    assert (listed.pieces, listed.failures) == (
        ["Acme Inc.", "Ministry of Agriculture, Livestock and Irrigation of the Republic of Harbouria"], [],
    )
    # (Guards: a company after the "and" is the next party; a comma before a company still splits.)
    assert read_party_list("the Minister for Health and Acme Pty Ltd").pieces == ["the Minister for Health", "Acme Pty Ltd"]
    assert read_party_list("Department of Energy, Acme Inc. and Beta LLC").pieces == ["Department of Energy", "Acme Inc.", "Beta LLC"]
    # (A company after the "and" with its form in brackets' wake, and a second body with its own head
    # word, are the next parties: the office and the first department keep no portfolio.)
    assert read_party_list("The Secretary of State for Transport and High Speed Four (HS4) Limited").pieces == [
        "The Secretary of State for Transport", "High Speed Four (HS4) Limited",
    ]
    assert read_party_list("U.S. Department of Justice and U.S. Department of Homeland Security").pieces == [
        "U.S. Department of Justice", "U.S. Department of Homeland Security",
    ]


def test_the_and_after_the_first_sides_closing_words_opens_the_second_party() -> None:
    from ingest.annotate import _between_names
    from ingest.definitions import preamble_windows

    # Before: the clause reader read the owner alone (the "AND" stood past the 400 characters a
    # clause's "and" is looked for in); with the text cut after "having its", nothing else bound
    # the second party either.
    assert [n.text for n in _between_names(ONE_PART, preamble_windows(ONE_PART))] == [
        "KESTREL INDIA PRIVATE LIMITED", "HARROWJI PALLONJI & COMPANY LIMITED",
    ]
    cut = ONE_PART[: ONE_PART.index("registered office at Mumbai")]
    assert bound_party_names(cut) == {"KESTREL INDIA PRIVATE LIMITED", "HARROWJI PALLONJI & COMPANY LIMITED"}


def test_the_side_closing_and_is_looked_for_within_1500_characters() -> None:
    from ingest.annotate import _ONE_PART_CHARS, _between_names
    from ingest.definitions import preamble_windows

    assert _ONE_PART_CHARS == 1500
    head = "AGREEMENT\n\nBETWEEN\n\nKESTREL INDIA PRIVATE LIMITED, a company having its registered office at Pune"
    tail = " of the one part\n\nAND\n\nHARROWJI PALLONJI & COMPANY LIMITED a company.\n"
    # The "of the one part AND" phrase starts right at the bound's edge, then one character past it.
    start = head.index(", a company")
    near = head + " " * (_ONE_PART_CHARS - (len(head) - start) - len(" of the one part\n\nAND\n\n")) + tail
    far = head + " " * (_ONE_PART_CHARS + 1 - (len(head) - start)) + tail
    assert [n.text for n in _between_names(near, preamble_windows(near))][-1] == "HARROWJI PALLONJI & COMPANY LIMITED"
    assert "HARROWJI PALLONJI & COMPANY LIMITED" not in [n.text for n in _between_names(far, preamble_windows(far))]


def test_a_portfolio_bodys_of_the_tail_reads_at_most_four_segments() -> None:
    from ingest.names import name_at

    four = "Ministry of Trade, Industry and Energy of the Union of the Republic of the State of Kestrel"
    assert name_at(four, 0, len(four)).text == four
    five = four + " of the Bay"
    assert name_at(five, 0, len(five)).text == four


def test_a_legal_form_alone_on_an_entrys_line_closes_the_name_above() -> None:
    text = (
        "INDENTURE\n\nDated as of May 1, 2020\n\nAmong\n\nKESTREL HOLDINGS, INC.,\n\nas Issuer,\n\nand\n\n"
        "The Bank of Westmark Mellon Trust Company,\n\nN. A., as Trustee\n\nTHIS INDENTURE, dated as of May 1, 2020, "
        "is among Kestrel Holdings, Inc., a Delaware corporation (the \"Company\"), and The Bank of Westmark Mellon "
        "Trust Company, N.A., a national banking association, as trustee (the \"Trustee\").\n"
    )
    # Before: "N. A." was a third party.
    assert bound_party_names(text) == {"Kestrel Holdings, Inc.", "The Bank of Westmark Mellon Trust Company, N.A."}
    from ingest.party_capacities import _bare_legal_form

    assert [_bare_legal_form(n) for n in ("N. A.", "L. L. C.", "Inc.", "Acme Inc.", "Trust")] == [True, True, True, False, False]
    # (Its spaced spelling is the same form when names are compared, as "L. L. C." and "S. A." were.)
    assert normalise_org("Westmark Bank, N. A.") == normalise_org("Westmark Bank, N.A.") == "westmark bank"
