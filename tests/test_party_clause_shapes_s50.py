"""Party clause and title shapes read from the misses of real contract openings (issue 9, stop 50:
half A of the new sets realAQ-realAX, EDGAR contracts of CUAD's families that no CUAD contract was
found to share; half B stays unread). Names are invented and texts rewritten from the shapes. Each
test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.agreements import find_title
from tests.helpers import bound_party_aliases, bound_party_names


def test_a_listed_name_in_capitals_keeps_its_own_and() -> None:
    # Before, "HARBOUR AMERICAN LIFE" and "HEALTH INSURANCE COMPANY" were bound as two parties.
    text = (
        "SERVICES AGREEMENT\n\nThis Services Agreement (the \"Agreement\") is entered into by and among "
        "HARBOUR INDEMNITY LIFE INSURANCE COMPANY, a Pennsylvania corporation, and HARBOUR AMERICAN LIFE "
        "AND HEALTH INSURANCE COMPANY, a Pennsylvania corporation (collectively, \"Harbour\"), KESTREL "
        "PLAN SERVICES CORPORATION, a Delaware corporation (\"KPC\") and QUILL PLAN SERVICES, INC., a "
        "Florida corporation (\"QPS\"), effective as of February 1, 1998.\n\nWHEREAS, Harbour and QPS "
        "previously entered into a Services Agreement;\n"
    )
    assert bound_party_names(text) == {
        "HARBOUR INDEMNITY LIFE INSURANCE COMPANY",
        "HARBOUR AMERICAN LIFE AND HEALTH INSURANCE COMPANY",
        "KESTREL PLAN SERVICES CORPORATION",
        "QUILL PLAN SERVICES, INC.",
    }


def test_a_defined_company_keeps_the_words_before_its_own_and() -> None:
    # Before, only "Assembly Services Corporation" was bound; the words before its "and" were lost.
    text = (
        "Agreement\n\nEntered in Lianhe on November 5, 2002\n\n"
        "In order to develop amicable business relationship, Lianhe Foreign Processing and Assembly "
        "Services Corporation (hereinafter referred to as \"Business Agent\") cooperates with Lianhe "
        "Meadow Trade Development Corporation (hereinafter referred to as \"Party A\") and Quill Line "
        "Industrial Limited (hereinafter referred to as \"Party B\") on the basis of equality.\n"
    )
    aliases = bound_party_aliases(text)
    assert set(aliases) == {
        "Lianhe Foreign Processing and Assembly Services Corporation",
        "Lianhe Meadow Trade Development Corporation",
        "Quill Line Industrial Limited",
    }
    # The term the half's definition gave follows the whole name.
    assert "Business Agent" in aliases["Lianhe Foreign Processing and Assembly Services Corporation"]


def test_guard_an_institution_and_a_company_stay_two_parties() -> None:
    # An organisation's head noun ("Foundation") ends a name that stands alone.
    text = (
        "RESEARCH AGREEMENT\n\nBETWEEN\n\nLARKSPUR MEDICAL FOUNDATION AND KESTREL LABS, INC.\n\n"
        "This Agreement is dated May 1, 2001.\n"
    )
    assert bound_party_names(text) == {"LARKSPUR MEDICAL FOUNDATION", "KESTREL LABS, INC."}


def test_guard_a_role_before_and_joins_no_company_name() -> None:
    # "INTRODUCTION Buyer and ...": a heading's word and a party's role open no name.
    text = (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Pacer Medical, Inc. (\"Buyer\") and "
        "Quill Batteries Ltd. (\"Supplier\").\n\nINTRODUCTION Buyer and Quill Batteries Ltd. wish to "
        "set out the terms of supply.\n"
    )
    assert bound_party_names(text) == {"Pacer Medical, Inc.", "Quill Batteries Ltd."}


def test_guard_a_lower_case_and_between_names_in_capitals_stays_the_lists() -> None:
    text = (
        "DESIGN AGREEMENT\n\nThis Agreement is made by and between KESTREL ORBIT DESIGN and "
        "PERRIN LABS, INC. (\"Perrin\").\n"
    )
    assert bound_party_names(text) == {"KESTREL ORBIT DESIGN", "PERRIN LABS, INC."}


def test_a_third_cover_name_after_an_and_line_may_end_in_its_head_noun() -> None:
    # Before, the third name, "COMPANY" closing it on its second line, was no party.
    text = (
        "                             COAL TRANSPORTATION\n                                  AGREEMENT\n\n"
        "                                   BETWEEN\n\n                          HARBOUR GENERATING, LLC\n\n"
        "                                     AND\n\n                     THE KESTREL NORTHERN AND QUILL\n"
        "                               RAILWAY COMPANY\n\n                                     AND\n\n"
        "                          AMERICAN LARKSPUR MARINE\n                               SERVICE COMPANY\n\n"
        "                           Dated as of May 1, 2000\n"
    )
    assert bound_party_names(text) == {
        "HARBOUR GENERATING, LLC",
        "THE KESTREL NORTHERN AND QUILL RAILWAY COMPANY",
        "AMERICAN LARKSPUR MARINE SERVICE COMPANY",
    }


def test_guard_a_heading_after_an_and_line_is_no_party() -> None:
    # Only a name with a legal form or a head noun continues a cover's list.
    text = (
        "                             SUPPLY AGREEMENT\n\n                                   BETWEEN\n\n"
        "                          HARBOUR GENERATING, LLC\n\n                                     AND\n\n"
        "                          QUILL MARINE, INC.\n\n                                     AND\n\n"
        "                          TABLE OF CONTENTS\n"
    )
    assert bound_party_names(text) == {"HARBOUR GENERATING, LLC", "QUILL MARINE, INC."}


def test_a_dotted_dba_opens_a_trade_name_not_a_party() -> None:
    # Before, the trade name after "d.b.a." was bound as a third party.
    text = (
        "AMENDED AND RESTATED\nRESIDENTIAL DISTRIBUTOR PROGRAM AGREEMENT\n"
        "IT IS AGREED as of September 1, 1998, by and between Larkspur International Telecom\n"
        "Corp., d.b.a. Kestrel Communications Services (\"Kestrel\"), a Delaware corporation,\n"
        "with a principal place of business at 12 Main Street, Denver, Colorado 80202 and Quillcomm, "
        "Inc., a Delaware corporation\n(hereinafter \"Representative\").\n"
    )
    aliases = bound_party_aliases(text)
    assert set(aliases) == {"Larkspur International Telecom Corp.", "Quillcomm, Inc."}
    assert {"Kestrel", "Kestrel Communications Services"} <= set(aliases["Larkspur International Telecom Corp."])


def test_a_subsidiary_the_clause_names_beside_its_parent_is_a_party() -> None:
    # Before, only the parent was bound.
    text = (
        "RESEARCH AGREEMENT\nThis Agreement is effective February, 1995 (\"the EFFECTIVE DATE\") by and\n"
        "between Larkspur Western University, an Ohio non-profit corporation\n(\"UNIVERSITY\"), and "
        "Kestrel Therapeutics, Inc. and its wholly-owned subsidiary\nKestrel Research, Inc., Corporations "
        "having offices at 12 Main Street, Cleveland,\nOhio 44106 (herein individually and collectively "
        "referred to as \"KESTREL\").\n"
    )
    assert bound_party_names(text) == {
        "Larkspur Western University", "Kestrel Therapeutics, Inc.", "Kestrel Research, Inc.",
    }


def test_a_subsidiary_after_its_parents_description_is_a_party() -> None:
    # Before, "Quill Solutions, Inc." was no party.
    text = (
        "AMENDMENT NO. 3 TO ASSET PURCHASE AGREEMENT\nThis Amendment No. 3 to Asset Purchase Agreement "
        "(\"Amendment\") is made and\nentered into as of November 8, 2005, by and among Quill Network, Inc., a\n"
        "Delaware corporation and its subsidiary Quill Solutions, Inc., a Georgia\ncorporation (each a "
        "Seller, and collectively the \"Seller\"), and Harbour Equities\nCorporation, a Nevada corporation "
        "(\"Harbour\"), and Quill, Inc. a Delaware\ncorporation and subsidiary of Harbour (the \"Buyer\") with "
        "respect to the following\nfacts:\nA. Seller and Harbour entered into that certain Asset Purchase "
        "Agreement\ndated as of October 3, 2005.\n"
    )
    assert bound_party_names(text) == {
        "Quill Network, Inc.", "Quill Solutions, Inc.", "Harbour Equities Corporation", "Quill, Inc.",
    }


def test_guard_unnamed_subsidiaries_and_a_parent_are_no_parties() -> None:
    text = (
        "SALES REPRESENTATIVE AGREEMENT\nThis Agreement is made by and between Quill Health, LLC, a "
        "wholly-owned subsidiary of Larkspur Holdings Corp. (\"Quill\"), and Kestrel Corporation and its "
        "subsidiaries and affiliates (\"Kestrel\").\n"
    )
    assert bound_party_names(text) == {"Quill Health, LLC", "Kestrel Corporation"}


def test_a_cover_description_line_under_a_name_is_no_part_of_it() -> None:
    # Before, the description's lines were read into the institute's name.
    text = (
        "EXHIBIT 10.6\nRESEARCH FUNDING AND OPTION AGREEMENT\nBY AND BETWEEN\nTHE LARKSPUR RESEARCH INSTITUTE\n"
        "A CALIFORNIA NONPROFIT\nPUBLIC BENEFIT CORPORATION\nAND\nKESTRELISLET, INC.,\nA NEVADA CORPORATION\n"
        "*** Confidential portions of this document have been redacted and filed\nseparately with the Commission.\n"
    )
    assert bound_party_names(text) == {"THE LARKSPUR RESEARCH INSTITUTE", "KESTRELISLET, INC."}


def test_guard_a_line_opened_by_a_that_names_no_place_stays_in_the_name() -> None:
    # Only an article and a jurisdiction open a description line.
    text = (
        "LICENSE AGREEMENT\nBY AND BETWEEN\nKESTREL CLASS\nA HOLDINGS, INC.\nAND\nQUILL LABS, LLC\n\n"
        "This License Agreement is dated May 1, 2001.\n"
    )
    assert bound_party_names(text) == {"KESTREL CLASS A HOLDINGS, INC.", "QUILL LABS, LLC"}


def test_a_country_written_with_full_stops_is_no_party() -> None:
    # Before, "U.S.A." (the letters of "S.A." closing it) took the first party's term.
    text = (
        "JOINT VENTURE AGREEMENT This Joint Venture Agreement (\"Agreement\") is entered into as of the "
        "Effective Date (as defined below) by Kestrel Biosystems, Inc., a California corporation located at "
        "490 San Antonio Road, Palo Alto, California 94306, U.S.A. (\"KBI\") and Quill Corporation, a "
        "Japanese corporation located at 1-2-2 Hitotsubashi Chiyoda-ku, Tokyo 100-8601, Japan (\"QC\"). "
        "The Parties agree as follows: 1. DEFINITIONS\n"
    )
    aliases = bound_party_aliases(text)
    assert set(aliases) == {"Kestrel Biosystems, Inc.", "Quill Corporation"}
    assert "KBI" in aliases["Kestrel Biosystems, Inc."]


def test_a_bracketed_role_before_a_name_is_no_part_of_it() -> None:
    # Before, the party was bound as "(RE-SELLER) QUILL TECHNOLOGY, INC.".
    text = (
        "RE-SELLER AGREEMENT This Agreement is between (RE-SELLER) QUILL TECHNOLOGY, INC. with an office "
        "at 660 MENLO DR., ROCKLIN, CA 95767 and Kestrel USA, a New York corporation, with its principal "
        "place of business at 60 Gordon Dr., Syosset, NY 11791 and is effective on this 26 day of Nov 1999 "
        "(Effective Date). PURPOSE: Kestrel manufactures products.\n"
    )
    assert bound_party_names(text) == {"QUILL TECHNOLOGY, INC.", "Kestrel USA"}


def test_a_bracketed_word_inside_a_heading_is_the_titles() -> None:
    # Before, neither heading was a title, and the contract had no agreement record or parties.
    text = (
        "Exhibit 10.15\nProduct Sales (Purchase) Contract\nParty A (Purchaser): Shenzhen Kestrel Trading "
        "Partnership (Limited Partnership)\nAddress: 1117, Building A, Customs Building, Shenzhen, China\n"
        "Party B (Supplier): Dongguan Quill Daily Necessities Co., Ltd.\nAddress: Room 301, Building 1, "
        "Dongguan City, Guangdong Province, China\nParty A and Party B agree as follows.\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "Product Sales (Purchase) Contract"
    assert bound_party_names(text) == {
        "Shenzhen Kestrel Trading Partnership (Limited Partnership)", "Dongguan Quill Daily Necessities Co., Ltd.",
    }
    shouted = find_title("EXHIBIT 10.2\n\nASSEMBLY (MAQUILA) AGREEMENT\n\nThis Agreement is made by Quill S.A. de C.V.\n")
    assert shouted is not None and shouted.text == "ASSEMBLY (MAQUILA) AGREEMENT"


def test_guard_a_bracketed_list_letter_is_no_title_word() -> None:
    title = find_title("EXHIBIT 10.2\n\n(a) SUPPLY AGREEMENT\n\nThis Supply Agreement is made by Quill Inc.\n")
    assert title is not None and title.text == "SUPPLY AGREEMENT"


def test_a_name_opening_the_line_under_a_heading_with_a_subject_starts_there() -> None:
    # Before, the reading ran down from the heading's subject and the first party was lost.
    text = (
        "Exhibit 10.12\n[ENGLISH TRANSLATION]\nWritten Agreement Concerning Purchases of Regenerated PET Resin\n"
        "Kestrel Kinryo Corporation (hereinafter \"Kestrel Kinryo\") and Quill Refine Technology Co., Ltd., "
        "(hereinafter \"Quill Refine\") have agreed as stated below in relation to transactions in which "
        "Quill Refine will sell resin to Kestrel Kinryo.\nArticle 1 (Agreed matters)\n"
    )
    assert bound_party_names(text) == {"Kestrel Kinryo Corporation", "Quill Refine Technology Co., Ltd."}


def test_a_countrys_initialism_opening_a_heading_is_the_titles() -> None:
    # Before, "U.S." was taken for a sentence's end and left out of the title.
    title = find_title("EXHIBIT 10.1\n\nU.S. DISTRIBUTION AGREEMENT\n\nThis Agreement is made by Quill Inc.\n")
    assert title is not None and title.text == "U.S. DISTRIBUTION AGREEMENT"


def test_guard_a_legal_forms_initialism_before_a_heading_stays_out_of_it() -> None:
    title = find_title("KESTREL VENTURES, L.L.C. PRODUCT DISTRIBUTION AGREEMENT\n\nThis Agreement is made by Quill Inc.\n")
    assert title is not None and title.text == "PRODUCT DISTRIBUTION AGREEMENT"
