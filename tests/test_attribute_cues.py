"""Which attribute a question asks for (``detect_attribute``, cues in service/data/attribute_cues.json)."""

from __future__ import annotations

import pytest

from service.evidence.subject_class import detect_attribute


@pytest.mark.parametrize(
    "question",
    [
        "For how long is the Supply Agreement extended after the initial term?",
        "Can the Supply Agreement be extended?",
        "Does the Supply Agreement extend automatically?",
        "Who may extend the term of the Supply Agreement?",
    ],
)
def test_extending_the_term_is_a_renewal_question(question: str) -> None:
    assert detect_attribute(question) == "renewal_term"


@pytest.mark.parametrize(
    "question",
    [
        "Does the license in the Supply Agreement extend to the affiliates of the licensee?",
        "Does the licence extend to its subsidiaries?",
        "Does the warranty extend to third parties?",
    ],
)
def test_extending_rights_to_someone_is_no_renewal_question(question: str) -> None:
    assert detect_attribute(question) != "renewal_term"
