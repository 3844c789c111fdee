"""Party clause and title shapes of stop 60 (issue 9), each found on the read half of a fresh
labelled set of real contract openings (realDZ-EE); the names here are invented. Each test but
the guards fails on the code before its rule (checked by running these tests against that code).
"""

from __future__ import annotations

from ingest.annotate import annotate_document
from tests.helpers import agreement_title, bound_party_names


def test_a_group_term_that_opens_a_partys_longer_term_is_not_named_by_the_clause() -> None:
    text = (
        'SUPPLY AGREEMENT\nTHIS SUPPLY AGREEMENT ("Agreement") is made effective this\n20th day of January, 1996 by '
        'and between Harrow\nSemiconductor Corporation, a Delaware corporation ("HSC") and Quill Industries Sdn Bhd, '
        'a Malaysian\ncorporation ("QII Sdn Bhd"). HSC\nand/or QII Sdn Bhd may be referred to herein as a "party".\n'
        'W I T N E S S E T H:\nWHEREAS, Orvelle Pacific Berhad ("OPB"), on the one\nhand, and Quill-Craft, Inc., a '
        'California corporation, Quillcraft Sdn Bhd, a\nMalaysian corporation (collectively "QII"), on the other hand, '
        "and HSC have entered\ninto that certain Purchase and Sale Agreement dated November 9, 1995.\n"
    )
    # Before, "QII" inside "QII Sdn Bhd" named the recital's group: Quill-Craft, Inc. and
    # Quillcraft Sdn Bhd, sellers under another agreement, were bound as parties.
    assert bound_party_names(text) == {"Harrow Semiconductor Corporation", "Quill Industries Sdn Bhd"}


def test_guard_a_group_the_clause_names_by_its_term_is_made_of_parties() -> None:
    text = (
        "PURCHASE AGREEMENT\nThis Agreement is made between Harrow Inc. and the Sellers.\n\nWHEREAS, Quill LLC, Orvelle "
        'Corp. and Westland Ltd. (collectively, the "Sellers") own the shares;\n'
    )
    assert bound_party_names(text) == {"Harrow Inc.", "Quill LLC", "Orvelle Corp.", "Westland Ltd."}


def test_a_numbered_articles_heading_on_a_contents_page_is_no_title() -> None:
    text = (
        "EXHIBIT 10.19\nTABLE OF CONTENTS\nArticle 1 Scope of the Agreement\nArticle 2 Product Definition\n"
        'Article 3 Price and Payment\nThis Agreement is made by and between:\nHARLOW INTERNATIONAL (hereinafter referred '
        'to as "HARLOW"), a United States\nCorporation.\nand\nQuillstar Electronics (hereinafter referred to as QSE), a '
        "Korean Corporation.\n"
    )
    # Before, the title was "Article 1 Scope of the Agreement".
    assert agreement_title(text) == "Agreement"


def test_by_and_before_between_is_no_heading() -> None:
    text = (
        "THIS AGREEMENT MADE AND ENTERED INTO IN WESTPORT, ON THE 2ND DAY OF OCTOBER, 1996\nBY AND BETWEEN: 3294340 "
        'HARLOW INC., a Canadian corporation (hereinafter referred to as "Licensor")\nAND: THE QUILL GROUP INC., an '
        'Ontario corporation (hereinafter referred to as "Licensee")\n'
    )
    # Before, the title was "BY AND".
    assert agreement_title(text) == "Agreement"
    assert bound_party_names(text) == {"3294340 HARLOW INC.", "THE QUILL GROUP INC."}


def test_a_province_after_a_town_closes_an_address_and_is_no_antecedent() -> None:
    text = (
        "THIS AGREEMENT MADE AND ENTERED INTO IN WESTPORT,\nON THE 2ND DAY OF OCTOBER, 1996\nBY AND BETWEEN: 3294340 "
        "HARLOW INC., a body politic and corporate, duly\nincorporated according to the Canadian Business\nCorporations "
        "Act, having its head office in the City of Westport, Province of\nQuebec,\n(hereinafter referred to as "
        '"Licensor")\nPARTY OF THE FIRST PART\n-----------------------\nAND: THE QUILL GROUP INC., a body politic and '
        "corporate, duly\nincorporated according to the laws of the Province of\nOntario, having its head office at 55, "
        "Centre Drive, in the City of\nMississauga, Province of Ontario,\n(hereinafter referred to as \"Licensee\")\n"
        "PARTY OF THE SECOND PART\n"
    )
    # Before, "Province of Ontario" was the antecedent of "Licensee" and bound as a party (and
    # the title was "BY AND").
    assert bound_party_names(text) == {"3294340 HARLOW INC.", "THE QUILL GROUP INC."}
    assert agreement_title(text) == "Agreement"


def test_guard_a_province_named_as_a_party_is_one() -> None:
    text = 'This Agreement is made between Harrow Inc. ("Harrow") and the Province of Ontario (the "Province").'
    assert bound_party_names(text) == {"Harrow Inc.", "Province of Ontario"}


def test_a_title_case_line_of_title_opening_words_above_the_heading_is_its_first_line() -> None:
    text = (
        "Exhibit 10.22\nThird Amended and Restated\nPartnership Agreement\n\nThis Agreement is made between Harrow "
        "Inc. and Quill LLC."
    )
    # Before, "Partnership Agreement": in title case, the line above joined only when the text
    # repeated the whole heading.
    assert agreement_title(text) == "Third Amended and Restated Partnership Agreement"


def test_guard_a_company_name_above_a_title_case_heading_stays_out() -> None:
    text = "Westland\nLicense Agreement\n\nThis Agreement is made between Westland Inc. and Quill LLC."
    assert agreement_title(text) == "License Agreement"


def test_the_heading_under_a_covers_unnumbered_party_names() -> None:
    text = (
        "DATED 9TH MARCH, 1998\nHARLOW FINANCIAL SYSTEMS LIMITED\nand\nQUILL SYSTEMS LIMITED\n"
        "--------------------------------------------\nLICENCE TO OCCUPY\npremises at Cross House,\n"
        "--------------------------------------------\nTHIS AGREEMENT is made on 9th March, 1998\nBETWEEN:\n(1) HARLOW "
        'FINANCIAL SYSTEMS LIMITED (the "LICENSOR"); and\n(2) QUILL SYSTEMS LIMITED (the "LICENSEE").\n'
    )
    # Before, "Agreement" (the preamble's word): only a numbered cover list ("(1) ... (2) ...")
    # gave its heading.
    assert agreement_title(text) == "LICENCE TO OCCUPY"


def test_guard_a_legend_under_a_covers_party_names_is_no_title() -> None:
    text = (
        "DATED 9TH MARCH, 1998\n\nHARLOW LIMITED\n\nand\n\nQUILL LIMITED\n\n\nCONFIDENTIAL\n\nTHIS AGREEMENT is made on "
        "9th March, 1998 BETWEEN Harlow Limited and Quill Limited.\n"
    )
    assert agreement_title(text) == "Agreement"


def test_a_part_of_a_party_its_clause_names_with_its_is_no_party() -> None:
    text = (
        'This Agreement is made between Harlow Academy, a nonprofit ("HA"), individually and on behalf of its Task '
        'Force on Data Management (hereinafter "QD Task Force"), and Quill Medical ("Developer").'
    )
    # Before, "Data Management" (the definition's antecedent) was bound as a party.
    assert bound_party_names(text) == {"Harlow Academy", "Quill Medical"}


def test_guard_a_subsidiary_a_party_acts_for_stays_a_party() -> None:
    text = 'This Agreement is made between Harlow Inc., on behalf of its subsidiary Quill Industries Ltd. ("Quill"), and Beta LLC ("Beta").'
    assert bound_party_names(text) == {"Harlow Inc.", "Quill Industries Ltd.", "Beta LLC"}


def test_names_stacked_above_a_covers_last_entry_each_closed_by_a_comma() -> None:
    text = (
        "PARENT AGREEMENT\n\nAMONG\n\nHARLOW CHEMICAL CORPORATION,\n\nQUILL OIL COMPANY,\n\nMILLWARD CHEMICALS INC.\n\n"
        "AND\n\nWESTAR CHEMICALS, LP\n\nDATED AS OF MAY 15, 1998\n"
    )
    # Before, "QUILL OIL COMPANY" was dropped: the cover reader took the names on either side of
    # "AND" only (the others came from the prose list reader, which did not read it).
    assert bound_party_names(text) == {
        "HARLOW CHEMICAL CORPORATION", "QUILL OIL COMPANY", "MILLWARD CHEMICALS INC.", "WESTAR CHEMICALS, LP",
    }



def test_a_persons_town_after_a_generation_and_of_is_no_part_of_the_name() -> None:
    text = (
        'IP AGREEMENT\n\nTHIS AGREEMENT is made on 12th day of May 2017\n\nBETWEEN Harold James Quill Jr. of Westport, New '
        'Zealand, Company Director ("the Licensor")\n\nAND Harlow International, Inc. a Florida corporation ("the '
        'Licensee").\n'
    )
    # Before, "Harold James Quill Jr. of Westport": the town rule read no generation.
    assert bound_party_names(text) == {"Harold James Quill Jr.", "Harlow International, Inc."}


def _agreement(text: str):
    annotations = annotate_document(text, [(0, len(text))], doc_id="d", revision="r")
    (agreement,) = [s for s in annotations.subjects if s.type == "agreement"]
    return agreement


def test_a_heading_opened_by_a_partys_brand_is_also_named_without_it() -> None:
    agreement = _agreement(
        'QUILLTA DEALER AGREEMENT\n\nThis Agreement is made between Quillta Motor Sales, U.S.A., Inc. ("QMS") and '
        'Harlow Motors, Inc. ("Dealer").'
    )
    # Before, only "QUILLTA DEALER AGREEMENT": a party's whole name (with or without its legal
    # form) had to open the heading.
    assert agreement.name == "QUILLTA DEALER AGREEMENT"
    assert agreement.attributes["title_aliases"] == [
        {"text": "DEALER AGREEMENT", "source": "brand_prefix", "char_start": 8, "char_end": 24}
    ]


def test_guard_a_title_word_opening_the_heading_is_no_brand() -> None:
    agreement = _agreement(
        'MASTER DEALER AGREEMENT\n\nThis Agreement is made between Master Motors, Inc. ("MM") and Harlow Motors, Inc. '
        '("Dealer").'
    )
    assert agreement.name == "MASTER DEALER AGREEMENT"
    assert agreement.attributes.get("title_aliases", []) == []
