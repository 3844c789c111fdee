"""Party clause and title shapes of stop 56 (issue 9). Each was found on a fresh labelled set of
real contract openings; the names here are invented. Each test but the guards fails on the code
before its rule (checked by running these tests against that code).
"""

from __future__ import annotations

from ingest.definitions import find_definitions
from tests.helpers import agreement_title, bound_party_aliases, bound_party_names


def _antecedents(text: str) -> dict[str, str]:
    return {d.term: d.name.text for d in find_definitions(text) if d.name is not None}


# --- names ---


def test_a_unit_of_an_institution_is_named_with_the_institution() -> None:
    labelled = (
        "COOPERATION AGREEMENT\nParty A: Xiamen Quill Systems Co., Ltd.\nParty B: College of Computing, Westland"
        " University of Defense Technology\nParty A and Party B agree as follows.\n1. Purpose\n"
    )
    # Before, "College of Computing" alone (the comma closed the name).
    assert bound_party_names(labelled) == {
        "Xiamen Quill Systems Co., Ltd.",
        "College of Computing, Westland University of Defense Technology",
    }
    clause = (
        "RESEARCH AGREEMENT\n\nThis Agreement is made between Kestrel Inc. (\"Sponsor\") and the School of"
        " Medicine, University of Harbourton (\"School\").\n\n1. Research.\n"
    )
    assert bound_party_names(clause) == {"Kestrel Inc.", "School of Medicine, University of Harbourton"}
    # Guard: a company named after a comma is no institution a unit belongs to.
    guard = (
        "SUPPLY AGREEMENT\n\nThis Agreement is made among Institute Holdings Inc. (\"IHI\"), Beta Corp."
        " (\"Beta\") and Gamma LLC (\"Gamma\").\n\n1. Supply.\n"
    )
    assert bound_party_names(guard) == {"Institute Holdings Inc.", "Beta Corp.", "Gamma LLC"}


def test_a_bracketed_place_spaced_inside_its_brackets_is_part_of_the_name() -> None:
    text = (
        "TRANSFER AGREEMENT\nParty A: Weiqu Software ( Beijing ) Co., Ltd.\nParty B: Norland Tech Ltd.\n"
        "Party A and Party B agree as follows.\n1. Transfer\n"
    )
    # Before, "Weiqu Software" (the spaced bracket ended the name).
    assert bound_party_names(text) == {"Weiqu Software ( Beijing ) Co., Ltd.", "Norland Tech Ltd."}


def test_dashes_inside_a_name() -> None:
    prefix = (
        "DISTRIBUTION AGREEMENT\nThis Agreement is made by and between i\u2013QUANT Corporation, a Delaware"
        " corporation (\"Manufacturer\"), and Harbour Pharma Industries, Ltd., a Japanese corporation"
        " (\"Distributor\").\nRECITALS\n"
    )
    # Before, "QUANT Corporation": the prefix and its en dash were dropped.
    assert bound_party_names(prefix) == {"i\u2013QUANT Corporation", "Harbour Pharma Industries, Ltd."}
    en_dash = prefix.replace("i\u2013QUANT Corporation", "Walsh\u2013Nevada Corporation")
    # Before, "Walsh\u2013".
    assert bound_party_names(en_dash) == {"Walsh\u2013Nevada Corporation", "Harbour Pharma Industries, Ltd."}
    em_dash = (
        "DISTRIBUTION AGREEMENT\nThis DISTRIBUTION AGREEMENT (\u201cAgreement\u201d) effective between Cytoquill,"
        " Inc. (\u201cCytoquill\u201d), a corporation organized under the laws of the State of Delaware and"
        " MUNDIQUILL \u2014 Interc\u00e2mbio Mundial de Com\u00e9rcio, S.A. (\u201cDistributor\u201d), organized under"
        " the laws of Portugal.\nIN CONSIDERATION of the mutual promises the parties agree as follows:\n"
    )
    # Before, "MUNDIQUILL" and "Interc\u00e2mbio Mundial de Com\u00e9rcio, S.A." as two parties.
    assert bound_party_names(em_dash) == {
        "Cytoquill, Inc.",
        "MUNDIQUILL \u2014 Interc\u00e2mbio Mundial de Com\u00e9rcio, S.A.",
    }


def test_trade_name_leads_and_a_name_that_is_only_etc() -> None:
    slash = (
        "INTERACTIVE SERVICES AGREEMENT This Agreement is made and entered into by and between Harbor Online,"
        ' Inc. ("Harbor"), a Delaware corporation, and NewsQuill, Inc., d/b/a/ YellowQuill, Inc. ("YellowQuill"),'
        " a Delaware corporation. INTRODUCTION Harbor and YellowQuill each desires to enter into an agreement.\n"
    )
    aliases = bound_party_aliases(slash)
    # Before, "YellowQuill, Inc." alone: "d/b/a/" was no trade-name lead.
    assert "NewsQuill, Inc., d/b/a/ YellowQuill, Inc." in aliases
    does = (
        "DISTRIBUTORSHIP AGREEMENT\nAGREEMENT made as of January 1, 1995, by and between Quill-Cal Corporation,"
        ' an Arizona corporation ("Quill-Cal"), and NATROVA, INC., a California corporation ("Natrova") which also'
        ' does business as Nutriquills, Etc. ("Nutriquills").\nARTICLE I APPOINTMENT\n'
    )
    # Before, "Etc." was bound as a third party with the term "Nutriquills".
    assert bound_party_names(does) == {"Quill-Cal Corporation", "NATROVA, INC."}


def test_a_limited_company_written_l_c() -> None:
    text = (
        "MARKETING AGREEMENT\nMARKETING AGREEMENT, made as of this 7th day of June, 1996, by and between GOLDEN"
        ' KESTREL INTERNATIONAL, INC., a Florida corporation ("GKI"), and Quill Golf EQUIPMENT COMPANY, L.C.,'
        ' a Florida limited liability company ("Quill Golf").\nW I T N E S S E T H:\n'
    )
    # Before, "Quill Golf EQUIPMENT COMPANY" without its legal form.
    assert bound_party_names(text) == {"GOLDEN KESTREL INTERNATIONAL, INC.", "Quill Golf EQUIPMENT COMPANY, L.C."}


# --- where a party clause starts and who it names ---


def test_a_clause_saying_who_the_parties_are() -> None:
    listed = (
        "TECHNOLOGY LICENSE CONTRACT\n\n1.02 PARTIES. There are two parties to this contract. They are: (a) KESTREL"
        ' FOUNDATION FOR MEDICAL RESEARCH, a Minnesota charitable corporation (called "KESTREL" in this contract),'
        ' and (b) QUILL-TECH J.V. Ltd. (called the "COMPANY" in this contract).\n\n1.03 PURPOSE.\n'
    )
    # Before, only "QUILL-TECH J.V. Ltd." (the clause had no "between").
    assert bound_party_names(listed) == {"KESTREL FOUNDATION FOR MEDICAL RESEARCH", "QUILL-TECH J.V. Ltd."}
    plain = (
        "TECHNOLOGY LICENSE AGREEMENT\n\nThe parties to this Agreement are HARROW FOUNDATION, a Minnesota"
        ' charitable corporation ("HARROW"), and QUILL-TECH INC. ("COMPANY").\n\n1.03\n'
    )
    assert bound_party_names(plain) == {"HARROW FOUNDATION", "QUILL-TECH INC."}


def test_a_parties_heading_closes_the_contents_page_above_it() -> None:
    contents = "".join(f"|{n}\n|{heading}\n" for n, heading in enumerate(("DEFINITIONS", "SERVICES", "CHARGES", "TERM"), 1))
    text = (
        "|DATED 2015\n|HARROW PLC\n|(1)\n|and\n|QUILLEZE LIMITED\n|(2)\n|TRANSITIONAL SERVICES AGREEMENT\n|1\n"
        f"CONTENTS\n{contents}|DATE OF AGREEMENT\n|2015\nPARTIES\n|(1)\n|HARROW PLC, a company incorporated in"
        " England (Company Number 00549034) whose registered office is at 2 Gregory Street, Hyde, Cheshire, SK14"
        ' 4TH (the "Seller"); and\n|(2)\n|QUILLEZE LIMITED, a company incorporated in England (Company Number'
        ' 05801085) whose office is at 2 Gregory Street, Hyde (the "Company").\nINTRODUCTION\n'
    )
    # Before, the contents page's "CHARGES" was the antecedent of "Seller" and a party.
    assert _antecedents(text)["Seller"] == "HARROW PLC"
    assert bound_party_names(text) == {"HARROW PLC", "QUILLEZE LIMITED"}


def test_a_definition_below_a_representation_paragraph_is_the_party_above_it() -> None:
    text = (
        "MANUFACTURING AND SUPPLY AGREEMENT\n\nThis Agreement is entered into as of 08 June 1999 by and between\n\n"
        "-    HARROW SERUMS & VACCINS, a French societe anonyme, having its registered head office at 58, avenue"
        " Leclerc, 69007, LYON, FRANCE\n\n     Represented by Mr. Michel QUILL, acting as Directeur General.\n\n"
        '     (hereinafter referred to as "HSV")\n\n                    OF THE FIRST PART,\n\nAND :\n\n'
        "-    KESTREL SCIENCES SA a corporation existing and organized under the laws of France\n\n"
        '     Represented by Mrs. Anne ROE, acting as President.\n\n     (hereinafter referred to as "KS")\n\n'
        "     OF THE SECOND PART,\n\nWHEREAS\n"
    )
    # Before, "Represented" was bound with the term "HSV".
    assert bound_party_aliases(text) == {"HARROW SERUMS & VACCINS": ["HSV"], "KESTREL SCIENCES SA": ["KS"]}


def test_an_agency_within_a_department_names_no_party_in_the_department() -> None:
    text = (
        "PATENT LICENSE AGREEMENT\nThis Cover Page serves to identify the Parties to this Agreement:\n1) The"
        ' National Quill Institutes ("NQI") or the Centers for Harbour Control ("CHC"), hereinafter singly or'
        ' collectively referred to as "PHS," agencies of the Westland Public Health Service within the Department'
        ' of Health and Human Services ("DHHS"); and\n2) Kestrel Research, Inc., hereinafter referred to as'
        ' "Licensee."\n'
    )
    names = bound_party_names(text)
    # Before, "Department of Health and Human Services" (or its "Human Services" half) was a party.
    assert not any("Human Services" in name for name in names)
    assert {"Centers for Harbour Control", "Kestrel Research, Inc."} <= names


def test_a_mexican_antecedents_heading_is_no_party() -> None:
    text = (
        "AGREEMENT entered into by and between, AMERICAN QUILL CORPORATION, hereinafter known as THE OWNER; and"
        " AMERICAN QUILL DE MEXICO, S.A. DE C.V., hereinafter known as THE CONTRACTOR, and which is formalized in"
        " accordance with the following Antecedents and Clauses: A N T E C E D E N T S : I. THE CONTRACTOR is a"
        " Mexican mercantile corporation.\n"
    )
    # Before, "Antecedents" was bound as a third party.
    assert bound_party_names(text) == {"AMERICAN QUILL CORPORATION", "AMERICAN QUILL DE MEXICO, S.A. DE C.V."}


# --- titles ---


def test_a_translated_title_opening_with_agreement_may_hold_an_article() -> None:
    text = (
        "Exhibit 10.12\nXiamen Quill System Co., Ltd.\nAnd\nCollege of Computing, Westland University of Defense"
        " Technology\nAgreement on Establishing a Joint Lab for Advanced Software Technology\nParty A: Xiamen Quill"
        " System Co., Ltd.\nParty B: College of Computing, Westland University of Defense Technology\nWith a view"
        " to a long-term cooperative relationship, Party A and Party B decide to set up the Lab.\nI. Purpose\n"
    )
    # Before, no title (and so no agreement record and no party at all).
    assert agreement_title(text) == "Agreement on Establishing a Joint Lab for Advanced Software Technology"
    assert bound_party_names(text) == {
        "Xiamen Quill System Co., Ltd.",
        "College of Computing, Westland University of Defense Technology",
    }


def test_a_company_and_a_dash_before_the_title_are_no_part_of_it() -> None:
    text = (
        "EXHIBIT 10.4\nKESTREL SOIL LTD - REPRESENTATIVE AGREEMENT\nApril 17, 2013\nThis REPRESENTATIVE AGREEMENT"
        " is executed as of the 17th day of April 2013 by and between KESTREL SOIL Innovations Ltd, an Israeli"
        " company, and Quill Applications Corp., a Delaware corporation.\nWhereas, the parties agree.\n"
    )
    # Before, "KESTREL SOIL LTD - REPRESENTATIVE AGREEMENT".
    assert agreement_title(text) == "REPRESENTATIVE AGREEMENT"
    # Guard: a word before the dash that closes no legal form stays in the title.
    guard = text.replace("KESTREL SOIL LTD - REPRESENTATIVE AGREEMENT", "DOMESTIC - REPRESENTATIVE AGREEMENT")
    assert agreement_title(guard) != "REPRESENTATIVE AGREEMENT"


def test_an_amendment_heading_set_a_word_or_two_a_line() -> None:
    text = (
        "AMENDMENT\nNO. 1 TO\nEXCLUSIVE\nLICENSE AGREEMENT\nBETWEEN\nUNIVERSITY\nOF WESTLAND RESEARCH FOUNDATION,"
        " INC.\nAND\nQUILL\nCELL TECHNOLOGIES, INC.\nThis\nAmendment No. 1 (the \"Amendment\") is entered into this"
        " 27th day of February 2009 to that license agreement entered into by and between the University of"
        ' Westland Research Foundation, Inc. ("UWRF") and Quill Cell Technologies, Inc. ("Licensee").\n'
    )
    # Before, "AMENDMENT".
    assert agreement_title(text) == "AMENDMENT NO. 1 TO EXCLUSIVE LICENSE AGREEMENT"
    alone = (
        "AMENDMENT\nNO. 3 TO\nTHIS AMENDMENT is entered into this 27th day of February 2009 by and between Kestrel"
        ' Inc. ("K") and Beta LLC ("B").\n'
    )
    assert agreement_title(alone) == "AMENDMENT NO. 3"


def test_a_recital_subject_after_two_labelled_parties_is_no_party() -> None:
    text = (
        "TECHNOLOGY LICENSE AGREEMENT\n\nThis Technology License Agreement (\"Agreement\") is entered into on June 24,"
        " 2005 among the following parties:\n\nPARTY A: TAIYUAN QUILL CONSULTING CO., LTD.\nLEGAL ADDRESS: 426 Xuefu"
        " Street, Taiyuan, China\n\nPARTY B: SHANXI KESTREL RESOURCES CO., LTD.\nLEGAL ADDRESS: 426 Xuefu Street,"
        " Taiyuan, China\n\nWHEREAS, Party A is a wholly foreign owned enterprise registered in China;\n\nWHEREAS,"
        " Kestrel Investment Holding Limited (\u201cKestrel\u201d), an International Business Company incorporated in"
        " the British Virgin Islands, owns all of the registered capital of Party A;\n"
    )
    # Before, Kestrel Investment Holding Limited was bound: the label rows named no party yet.
    assert bound_party_names(text) == {"TAIYUAN QUILL CONSULTING CO., LTD.", "SHANXI KESTREL RESOURCES CO., LTD."}


def test_caps_title_words_the_run_reader_once_cut() -> None:
    modifier = (
        "CONFIDENTIAL TREATMENT REQUESTED\nCONTRACT MANUFACTURING AGREEMENT BETWEEN COMPANY AND QUILLTECH\nThis"
        " Agreement is entered into by and between Quilltech Sdn Bhd (hereinafter called Quilltech) and Kestrel Inc"
        " (hereinafter called KI).\n"
    )
    # Before, "MANUFACTURING AGREEMENT": "CONTRACT" ended a title of its own.
    assert agreement_title(modifier) == "CONTRACT MANUFACTURING AGREEMENT"
    acronym = (
        'EXHIBIT 10.7 MOBILE VIRTUAL NETWORK ENABLER ("MVNE") SERVICES AGREEMENT Between Quill Technology'
        " Services, LLC, and Kestrel Wireless Corp This Mobile Virtual Network Enabler Services agreement"
        ' ("Agreement") is made between Quill Technology Services, LLC ("QTS"), and Kestrel Wireless Corp.'
        ' ("CUSTOMER").\n'
    )
    # Before, "SERVICES AGREEMENT": a quoted acronym in brackets broke the run.
    assert agreement_title(acronym) == 'MOBILE VIRTUAL NETWORK ENABLER ("MVNE") SERVICES AGREEMENT'


def test_a_country_closing_a_place_is_no_title_word_and_a_self_name_keeps_its_party() -> None:
    text = (
        "Quill KK Non-Exclusive Japanese Distribution Agreement Quill KK Japan and Kestrel Steel Systems R&D"
        " Corporation December 17, 1997 Palo Alto, California, U.S.A QUILL KK NON-EXCLUSIVE JAPANESE DISTRIBUTION"
        " AGREEMENT This Quill KK Non-Exclusive Japanese Distribution Agreement ('Agreement') is entered into at"
        " Palo Alto, California, U.S.A., by and between Quill KK, having offices in Japan ('Quill'), and Kestrel"
        " Steel Systems R&D Corporation, having offices in Tokyo ('Distributor'). BACKGROUND Quill is in the"
        " business of licensing software.\n"
    )
    # Before, "U.S.A QUILL KK NON-EXCLUSIVE ...": the address's country opened the caps run. The
    # party's name stays: the preamble names the contract with it.
    assert agreement_title(text) == "QUILL KK NON-EXCLUSIVE JAPANESE DISTRIBUTION AGREEMENT"


def test_a_run_in_contract_heading_over_labelled_parties_with_field_labels() -> None:
    text = (
        "Exhibit 10.3 CONTRACT Party A: Guangzhou Quill Economic Development General Company Address: 1 Da Ma Lu,"
        " Guangzhou, PRC Telephone: 230 6496 Legal Representative: Mr Liang Roe, Manager Party B: Kestrel"
        " Industrial Company Limited Address: Flats C & D, Tai Po, Hong Kong Legal Representative: Mr. Fok Doe,"
        " Managing Director In order to strengthen management, Party A and Party B hereby enter into this"
        " agreement, the terms of which are as follows: ARTICLE 1 NAME, NATURE AND ADDRESS Name of the subject"
        ' Enterprise: Guangzhou Quill Toys Factory ("the Factory")\n'
    )
    # Before, no title (so no agreement and no party); then Party A was lost to its "Address:"
    # label and the factory the first article defines was bound as a third party.
    assert agreement_title(text) == "CONTRACT"
    assert bound_party_aliases(text) == {
        "Guangzhou Quill Economic Development General Company": ["Party A"],
        "Kestrel Industrial Company Limited": ["Party B"],
    }
    # Guard: a field label after a label's own words ("Customer Address:") cuts nothing.
    form = (
        "ORDER FORM\n\nCustomer Name: Harrow Security Systems, Inc.\nCustomer Address: 500 Market Street, San"
        " Francisco, CA 94105\nProvider: Quill Analytics Corp.\nOrder Start Date: March 1, 2021\n\nThis Order Form is"
        " governed by the Master Subscription Agreement between Customer and Provider.\n"
    )
    assert "Order Start" not in bound_party_names(form)


def test_a_contents_entry_below_the_cover_title_is_no_title() -> None:
    text = (
        "(1)QUILL INFORMATION SERVICES LIMITED\n\n(2)KESTREL GAMING INC.\n\nAGREEMENT FOR THE PROVISION OF\nA SPORTS"
        " BETTING SOLUTION\n\nCONTENTS\n\nClause Page\n1.     DEFINITIONS 1\n2.     FEES 8\nSCHEDULE 4   SERVICE LEVEL"
        ' AGREEMENT (SLA)\n\nTHIS AGREEMENT is made on 1 May 2020\nBETWEEN:\n(1) QUILL INFORMATION SERVICES LIMITED (the'
        ' "Supplier"); and\n(2) KESTREL GAMING INC. (the "Customer").\n'
    )
    # Before, "SCHEDULE 4 SERVICE LEVEL AGREEMENT (SLA)", the contents entry nearest the preamble.
    assert agreement_title(text) == "AGREEMENT FOR THE PROVISION OF A SPORTS BETTING SOLUTION"
    # Guard: with the contents page first, the heading after it is the title.
    first = (
        "TABLE OF CONTENTS\n\nARTICLE 1 DEFINITIONS..........1\nARTICLE 14 ENTIRE AGREEMENT..........22\n\n\nTECHNOLOGY"
        " LICENSE AGREEMENT\n\nThis Technology License Agreement is made by and between Kestrel Inc. (\"Kestrel\") and"
        ' Quill LLC ("Quill").\n'
    )
    assert agreement_title(first) == "TECHNOLOGY LICENSE AGREEMENT"


def test_a_licence_of_heading_and_a_numbered_addendum_heading() -> None:
    licence = (
        "DATED\n16th July 2019\n(1) QUILL UNIVERSITY INNOVATION LIMITED\nand\n(2) KESTREL VACCINES INC.\nLICENCE OF"
        " TECHNOLOGY\n(QUI PROJECT Nos. 13709 and 16867)\n1\nTHIS AGREEMENT is made on\nBETWEEN:\n(1) QUILL UNIVERSITY"
        " INNOVATION LIMITED (Company No. 2199542) (\"QUI\"); and\n(2) KESTREL VACCINES INC. (\"Licensee\").\n"
    )
    # Before, "Agreement" from "THIS AGREEMENT".
    assert agreement_title(licence) == "LICENCE OF TECHNOLOGY"
    addendum = (
        "Exhibit 10.5.2\nSecond Addendum\nThis Addendum Agreement is made this day of December 2001, between Quill"
        ' Pharma PLC of 5, Hunting Gate, Hitchin ("Quill") and Kestrel AG of Eptingerstrasse 51, Murtenz'
        ' ("Kestrel").\n'
    )
    # Before, "Addendum Agreement": the preamble's unnumbered name.
    assert agreement_title(addendum) == "Second Addendum"


def test_an_and_chain_stops_at_the_end_of_the_clause_sentence() -> None:
    text = (
        "MANUFACTURING & SUPPLY AGREEMENT\n\nThis MANUFACTURING & SUPPLY AGREEMENT (\"Agreement\") is entered into"
        ' between QUILL PHARMA AG, a Swiss corporation (hereinafter referred to as "QUILL"), and KESTREL AG, a Swiss'
        ' corporation (hereinafter referred to as "KESTREL"; (QUILL and KESTREL hereinafter sometimes referred to'
        ' as "Party" or "Parties"). KESTREL is a 100% owned subsidiary of HarrowPharma plc and HarrowPharma AG is'
        " a 100% owned subsidiary of HarrowPharma plc.\n\nWHEREAS, the Parties signed an agreement.\n"
    )
    # Before, "HarrowPharma AG" was bound: the chain of names after "and" ran past the sentence.
    assert bound_party_names(text) == {"QUILL PHARMA AG", "KESTREL AG"}


def test_amendment_titles_read_from_run_in_and_joined_openings() -> None:
    run_in = (
        "Exhibit 10.32 Amendment 3 Amendment 3 made and entered into this 29th day of January, 1999, will serve as an"
        " amendment to the existing Telemarketing Agreement made and entered into July 1, 1998 (the \"Agreement\"),"
        ' by and between Quill TeleServices, Inc. ("QT") and Kestrel Marketing, Inc. ("KM").\n'
    )
    # Before, "Telemarketing Agreement": the parent the amendment names.
    assert agreement_title(run_in) == "Amendment 3"
    joined = (
        "Exhibit 10.26\n\nSECOND AMENDMENT TO THE AUGUST 31, 2005 SUPPLY AGREEMENT BETWEEN HARROW HEALTH AS AND QUILL"
        ' CORPORATION\n\nTHIS SECOND AMENDMENT (this \u201cSecond Amendment\u201d) TO AGREEMENT between Harrow Health AS'
        " and Quill Corporation is made as of January 1st, 2009 by and between Kestrel Healthcare AS (formerly Harrow"
        ' Health AS) (\u201cBuyer\u201d) and QRI Rensselaer, Inc. (formerly Quill Corporation) (\u201cSeller\u201d)\n'
    )
    # Before, "TO AGREEMENT": a caps run opened by a joining word.
    assert agreement_title(joined) == "SECOND AMENDMENT"
