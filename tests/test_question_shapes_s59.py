"""Question shapes of stop 59 (issue 9), found by asking the gate about fresh real contract openings
(``bench/gate_sets.py``); the names here are invented.

* A legal form written with a slash ("Kestrel Pharma A/S", Danish; "Harrow Linhas S/A", Brazilian)
  is one word of a party's name: the "S" after the slash opened a capitalised run of its own when
  more of the question followed, and the question was refused ("'S' is not a name"). A spaced
  " / " still separates two parties.
* An agreement's subject in lower case after its title word ("the Agreement for fully disclosed
  clearing services between ...") is more of the title, matched exactly; before, the question
  was refused as text between title and party list. Anything else there still fails closed.
* A person's generation after a comma ("Mr. James E. Turner, Jr.") is part of the name."""

from __future__ import annotations

import pytest

from service.evidence.subject_class import parse_question


@pytest.mark.parametrize(
    ("question", "parties"),
    [
        ("What law governs the License Agreement between Kestrel Pharma A/S and Quill Deutschland GmbH?",
         ["Kestrel Pharma A/S", "Quill Deutschland GmbH"]),
        ("What law governs the Hosting Agreement between Quill Data Corp., Westgaard A/S and Harrow Science Limited?",
         ["Quill Data Corp.", "Westgaard A/S", "Harrow Science Limited"]),
        # (A guard: this one was read before too; the "S" of "S/A" ends no run.)
        ("Under the Maintenance Agreement between HARROW LINHAS AEREAS S/A and Quill Inc., who pays?",
         ["HARROW LINHAS AEREAS S/A", "Quill Inc."]),
    ],
)
def test_a_legal_form_with_a_slash_is_part_of_the_name(question: str, parties: list[str]) -> None:
    subject = parse_question(question)
    assert subject.failures == []
    assert subject.parties == parties


def test_guard_a_spaced_slash_still_separates_two_parties() -> None:
    subject = parse_question("What law governs the Reseller Agreement between Kestrel Corporation / Quill Technologies?")
    assert subject.failures == []
    assert subject.parties == ["Kestrel Corporation", "Quill Technologies"]


@pytest.mark.parametrize(
    ("question", "title"),
    [
        ("What law governs the Agreement for fully disclosed clearing services between Quill Financial LLC and "
         "Harrow Partners LLC?", "Agreement for fully disclosed clearing services"),
        ("What law governs the LICENSE AGREEMENT FOR QX-992 AND QX-993 between Harrow Foundation, Inc. and Quill, Inc.?",
         "LICENSE AGREEMENT FOR QX 992 AND QX 993"),  # (a title in capitals is read cleaned, as before)
        ("What law governs the Agreement no. 5852 relative to a repayable advance between The Westland Region and "
         "Quillbio SA?", "Agreement no. 5852 relative to a repayable advance"),
    ],
)
def test_an_agreements_subject_after_its_title_word_is_title(question: str, title: str) -> None:
    subject = parse_question(question)
    assert subject.failures == []
    assert subject.agreement_title == title
    assert len(subject.parties) == 2


def test_guard_other_text_between_title_and_list_still_fails_closed() -> None:
    subject = parse_question(
        "What law governs the Intellectual Property Agreement, D between HARROW INTERNATIONAL INC. and QUILL MOTION INC.?"
    )
    assert subject.parties == []
    assert subject.failures == [
        "the question names parties after 'Intellectual Property Agreement', but ', D' between the title and the "
        "party list is neither title nor party names"
    ]


def test_a_persons_generation_after_a_comma_is_part_of_the_name() -> None:
    subject = parse_question(
        "What law governs the Severance Agreement between Kestrel Steel Corporation and Mr. Richard M. Harrow, Jr. "
        "and John Quill, III?"
    )
    assert subject.failures == []
    assert subject.parties == ["Kestrel Steel Corporation", "Mr. Richard M. Harrow, Jr.", "John Quill, III"]


def test_bound_an_agreements_subject_holds_at_most_16_words() -> None:
    def ask(words: int) -> list[str]:
        subject = " ".join(["widget"] * words)
        return parse_question(f"What law governs the Agreement for {subject} between Acme Inc. and Beta LLC?").failures

    assert ask(16) == []
    assert ask(17) and "neither title nor party names" in ask(17)[0]
