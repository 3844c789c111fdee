"""The names the subject parser lists for a question (``subject_class.find_names``): never the
question words that open a capitalised run ("What", "After the", "Must"), so the search keeps
them as asked words (``collect.query_question``) and the name-only gate never looks them up."""

from __future__ import annotations

import pytest

from service.evidence.subject_class import find_names


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("After the Endorsement Agreement between SQUARE TWO GOLF INC and KATHY WHITWORTH ends, what remains?",
         ["Endorsement Agreement", "SQUARE TWO GOLF INC and KATHY WHITWORTH"]),
        ("What's the start date of the Endorsement Agreement?", ["Endorsement Agreement"]),
        ("Must Acme Holdings pay royalties?", ["Acme Holdings"]),
        ("Between Nimbus Labs and Orion LLC, who pays?", ["Nimbus Labs and Orion LLC"]),
        ("According to the Guaranty, Pursuant to Section 5, who pays?", ["Guaranty", "Section 5"]),
        # An all-caps word is kept: it may be the name itself.
        ("What does US Bank owe The University of Iowa?", ["US Bank", "University of Iowa"]),
        ("What", []),
    ],
)
def test_find_names_drops_the_words_that_open_a_question(question: str, names: list[str]) -> None:
    assert find_names(question) == names
