"""Party and title readers from stop 29's reading sets (issue 9): degrees written in capitals or
without dots, two persons each opened by an honorific under one term, a place after a form in
capitals, field labels, an institution's system and board, a country's postal prefix, and marks
written in ASCII in a title. The shapes come from real filings (consulting agreements, escrows,
licences, Chinese service agreements, university amendments); each is written here with invented
names. The real spaCy pipeline; each case asserts the exact names or title."""

from __future__ import annotations

import pytest

from ingest.names import NameSpan, _post_nominal, name_at, party_name_forms, party_name_problem
from tests.helpers import agreement_title as _title, bound_party_names


CONSULTING = (
    "Exhibit 10.28\n\nQUILLON BIOSCIENCES, INC.\n\nCONSULTING AGREEMENT\n\n"
    "THIS CONSULTING AGREEMENT (the \"Agreement\") is entered into as of the 1st day of November, 2010, "
    "by and between QUILLON BIOSCIENCES, INC., a Delaware corporation (the \"Company\"), and {person} "
    "(\"CONSULTANT\").\n\nThe Company desires to retain Consultant as an independent contractor.\n"
)


@pytest.mark.parametrize(
    ("person", "without_degree"),
    [
        ("HAROLD WENTRIDGE, PH.D.", "HAROLD WENTRIDGE"),
        ("Harold N. Wentridge, MD", "Harold N. Wentridge"),
        ("Harold Wentridge, PhD", "Harold Wentridge"),
        ("Harold Wentridge, M.D.", "Harold Wentridge"),
    ],
)
def test_a_degree_in_capitals_or_without_dots_is_part_of_the_persons_name(person: str, without_degree: str) -> None:
    assert bound_party_names(CONSULTING.format(person=person)) == {"QUILLON BIOSCIENCES, INC.", person}
    # A question may ask for the person with or without the degree.
    assert party_name_forms(person) == [person, without_degree]


def test_a_state_and_zip_code_or_a_verb_is_no_degree() -> None:
    assert _post_nominal().match(", MD 21201") is None
    assert _post_nominal().match(" MD 21201") is None
    assert _post_nominal().match(", do hereby agree") is None
    assert _post_nominal().match(", MD (hereinafter").group() == ", MD"
    assert _post_nominal().match(", PH.D. (\"CONSULTANT\")").group() == ", PH.D."


ESCROW = (
    "MAKE GOOD ESCROW AGREEMENT\nThis Make Good Escrow Agreement (the \"Make Good Agreement\"), dated as of "
    "October 9, 2007, is entered into by and among Harrowgate III, Inc., a Delaware corporation (the\n"
    "\"Company\"), {pair}, each in their individual\ncapacity (the \"Make Good Pledgors\"), Pellam Securities "
    "LLC, as agent\n(\"Pellam\") and Ridgeway Stock Transfer, Inc. (hereinafter referred to as\n\"Escrow "
    "Agent\"), for the benefit of the Investors (as defined\nbelow).\nWHEREAS, each of the investors has "
    "entered into a Securities Purchase Agreement.\n"
)


@pytest.mark.parametrize(
    ("pair", "persons"),
    [
        ("Ms. Hui Fen Tao and Ms. Lam Bo Yee Wai Ng", {"Ms. Hui Fen Tao", "Ms. Lam Bo Yee Wai Ng"}),
        ("Mr. Daniel Ostrow and Ms. Priya Ranganathan", {"Mr. Daniel Ostrow", "Ms. Priya Ranganathan"}),
        ("Daniel Ostrow and Priya Ranganathan", {"Daniel Ostrow", "Priya Ranganathan"}),
    ],
)
def test_two_persons_each_with_an_honorific_under_one_term_are_two_parties(pair: str, persons: set[str]) -> None:
    assert bound_party_names(ESCROW.format(pair=pair)) == {
        "Harrowgate III, Inc.", "Pellam Securities LLC", "Ridgeway Stock Transfer, Inc.", *persons,
    }


def test_an_honorific_after_a_job_title_is_still_a_signatory_line() -> None:
    assert party_name_problem("Financial Director Mr R Moore") == "signatory"
    assert party_name_problem("Ms. Hui Fen Tao and Ms. Lam Bo Yee") is None


LICENCE_IN_CAPITALS = (
    "Exhibit 10.1\nApril 28, 2017\nSOFTWARE LICENCE AGREEMENT\nbetween\nHARROWFIELD GAMES COMPANY LIMITED\n"
    "(as \"Licensor\")\nand\nQUILLON LEISURE CORPORATION OF AMERICA\n(as \u201cLicensee\")\n"
    "THIS SOFTWARE LICENCE AGREEMENT (this \"Agreement\") is made on April 28, 2017:\nBETWEEN:\n(1) |\n"
    "HARROWFIELD GAMES COMPANY LIMITED, a private limited company incorporated under the laws of Hong Kong "
    "(\"Licensor\"); and |\n(2) |\nQUILLON LEISURE CORPORATION OF AMERICA, a corporation organised and existing "
    "under the laws of Delaware (\"Licensee\"). |\nWHEREAS:\nA. |\nThe Licensor owns certain software.\n"
)


def test_a_place_after_a_form_written_in_capitals_is_part_of_the_name() -> None:
    assert bound_party_names(LICENCE_IN_CAPITALS) == {
        "HARROWFIELD GAMES COMPANY LIMITED", "QUILLON LEISURE CORPORATION OF AMERICA",
    }
    assert party_name_forms("QUILLON BANCORP, INC. OF PENNSYLVANIA") == [
        "QUILLON BANCORP, INC. OF PENNSYLVANIA", "QUILLON BANCORP, INC.",
    ]


NUMBERED_WITH_ADDRESS_LABELS = (
    "Exclusive Technology Consulting and Service Agreement\n"
    "The Exclusive Technical Consulting and Service Agreement (hereinafter referred to as \u201cthe Agreement\u201d) "
    "is concluded in Shenzhen on September 27th, 2020 by the following both parties:\n"
    "1. Shanghai Quillmere Information Technology Co., Ltd. (hereinafter referred to as the \u201cSole-funded Company\u201d)\n"
    "Registered address: Room 378, No.588, West Huanhu No. 2 Road, China (Shanghai) Pilot Free Trade Zone Lin-gang Special Area\n"
    "2. Dongguan Harrowby Supply Chain Management Co., Ltd. (hereinafter referred to as the \u201cDomestic Company\u201d)\n"
    "Registered address: No. 28, Middle Guanhuang Road, Gaobu Town, Dongguan City, Guangdong Province\n"
    "Whereas:\n(1) The Sole-funded Company is a wholly foreign-owned enterprise.\n"
)


def test_a_field_label_is_no_name_and_a_numbered_party_is_read_from_its_lines_start() -> None:
    # The address line above runs to the regular expression's length into "Dongguan Harrowby"; the
    # second party is read again from its own line.
    assert bound_party_names(NUMBERED_WITH_ADDRESS_LABELS) == {
        "Shanghai Quillmere Information Technology Co., Ltd.",
        "Dongguan Harrowby Supply Chain Management Co., Ltd.",
    }


UNIVERSITY_AMENDMENT = (
    "AMENDMENT NO. 1 TO\n\nPATENT AND TECHNOLOGY LICENSE AGREEMENT\n\n"
    "This AMENDMENT NO. 1 dated and effective as of the 15th day of June,\n2000, to the Patent and Technology "
    "License Agreement dated June 14, 1996\n(hereinafter referred to as the \"AGREEMENT\") is between THE UNIVERSITY "
    "OF WESTLAND\nHARLOW CANCER CENTER (hereinafter referred to as \"HCC\"), located at 1515\nHolcombe Boulevard, "
    "Westport, Texas, and which is a component institution of THE\nUNIVERSITY OF WESTLAND SYSTEM (hereinafter "
    "referred to as \"SYSTEM\") which is\ngoverned by a BOARD OF REGENTS (hereinafter referred to as \"BOARD\") and\n"
    "Quillon Therapeutics, Inc., a Delaware corporation, located at 333 N. Sam Houston Parkway, Suite 1035,\n"
    "Westport, Texas 77060 (hereinafter referred to as \"LICENSEE\").\n\n RECITALS\n\nA. LICENSEE agreed.\n"
)


def test_the_system_and_board_an_institution_belongs_to_are_no_parties() -> None:
    assert bound_party_names(UNIVERSITY_AMENDMENT) == {
        "THE UNIVERSITY OF WESTLAND HARLOW CANCER CENTER", "Quillon Therapeutics, Inc.",
    }


RESEARCH_AGREEMENT_ON_SHORT_LINES = (
    "Exhibit\n10.10\nTECHNOLOGY\nTRANSFER AND RESEARCH AGREEMENT\nbetween\nEcole\nPolytechnique de Westland\n"
    "CH -1015\nLausanne, Switzerland\nrepresented\nby Prof. Jean Harrow,\nHead of\nthe Solar Laboratory\n"
    "hereinafter\nreferred to as \"EPW\",\nand\nQuillon\nTrade & Invest S.A\nrepresented\nby Mr Michel Roe\n"
    "Route de\nFribourg 15, CH - 1723 Marly, Switzerland\nhereinafter\nreferred to as \"COMPANY\",\n"
    "(hereinafter\nindividually referred to as \"Party\" or collectively as \"Parties\")\nPreamble\n"
    "EPW has developed novel technologies.\n"
)


def test_a_countrys_letters_before_a_dash_and_postal_code_open_the_address() -> None:
    assert bound_party_names(RESEARCH_AGREEMENT_ON_SHORT_LINES) == {
        "Ecole Polytechnique de Westland", "Quillon Trade & Invest S.A",
    }
    assert name_at("Harbour Lab\nCH -1015 Lausanne", 0, 30) == NameSpan("Harbour Lab", 0, 11)
    # A two-letter legal form before a number stays the name's.
    assert name_at("Harbour Lab AG -1015", 0, 20) == NameSpan("Harbour Lab AG", 0, 14)


def test_a_degree_sign_is_part_of_a_companys_name() -> None:
    text = (
        "EXCLUSIVE LICENSE AGREEMENT\n\nThis EXCLUSIVE LICENSE AGREEMENT (\u201cAgreement\u201d) is made on the 15th "
        "day of September 2016 between\n\nHARROW UNIVERSITY, a company limited by guarantee incorporated in "
        "Singapore (\u201cHU\u201d) of the first part;\n\nAnd\n\n90\u00b0 THERAPEUTICS, LLC, an American company having "
        "its registered office address at 1025 Connecticut Avenue NW, Washington DC, USA 20036 (hereinafter "
        "referred to as \u201c90T\u201d) of the second part.\n\nWHEREAS HU owns certain patents.\n"
    )
    assert bound_party_names(text) == {"HARROW UNIVERSITY", "90\u00b0 THERAPEUTICS, LLC"}


@pytest.mark.parametrize(
    "heading",
    [
        "QUILLSTATION 2(R) LICENSED PUBLISHER AGREEMENT",
        "QUILLON(TM) SUPPLY AGREEMENT",
        "Quillon(R) Supply Agreement",
    ],
)
def test_a_mark_written_in_ascii_is_part_of_the_title(heading: str) -> None:
    text = (
        f"EXHIBIT 10.2\n\n                 {heading}\n\n  THIS AGREEMENT is entered into the 14th day of "
        "November, 2000 by and between\n\n   HARROW GAMES LIMITED (hereinafter referred to as \"HG\")\n\n"
        " - and -\n\n   ROWAN SOFT LIMITED (hereinafter referred to as \"Publisher\")\n\nWHEREAS\n\n(A) HG makes games.\n"
    )
    assert _title(text) == heading
    assert bound_party_names(text) == {"HARROW GAMES LIMITED", "ROWAN SOFT LIMITED"}
