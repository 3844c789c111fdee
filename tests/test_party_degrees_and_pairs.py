"""Persons as parties: degrees written in capitals or without dots, and two persons each opened by
an honorific under one term (issue 9). The shapes come from reading sets of real filings
(consulting agreements, make-good escrows); each is written here with invented names. The real
spaCy pipeline; each case asserts the exact names bound and the forms a question may ask."""

from __future__ import annotations

import pytest

from ingest.names import _post_nominal, party_name_forms, party_name_problem
from tests.helpers import bound_party_names

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
