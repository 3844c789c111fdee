"""Party clause and title shapes read from the misses of real contract openings (issue 9, stop 50:
half A of the new sets realAQ-realAX, EDGAR contracts of CUAD's families that no CUAD contract was
found to share; half B stays unread). Names are invented and texts rewritten from the shapes. Each
test but the guards fails on the code before its rule.
"""

from __future__ import annotations

from ingest.annotate import annotate_document
from tests.helpers import bound_party_names


def _party_aliases(text: str) -> dict[str, set[str]]:
    annotations = annotate_document(text, [(0, len(text))], doc_id="doc", revision="rev")
    agreement = next(s for s in annotations.subjects if s.type == "agreement")
    return {
        s.name: set(s.aliases)
        for s in annotations.subjects
        if any(b.relation == "party_to" and b.object_id == agreement.subject_id for b in s.bindings)
    }


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
    aliases = _party_aliases(text)
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
    aliases = _party_aliases(text)
    assert set(aliases) == {"Larkspur International Telecom Corp.", "Quillcomm, Inc."}
    assert {"Kestrel", "Kestrel Communications Services"} <= aliases["Larkspur International Telecom Corp."]


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
