"""Question shapes of stop 60 (issue 9), found by asking the gate about fresh real contract openings
(``bench/gate_sets.py``, read halves); the names here are invented.

* A "*" between letters ("Q*STAR Group, Inc.", as "E*TRADE Group, Inc.") and a "!" closing a word
  ("Zing! LLC", as "Snap! LLC" or "Yahoo! Inc.") are the name's own spelling, not stray
  punctuation: the question was refused ("stray '*' in party name ...", "'E' is not a name"). Any
  other place of those marks is still stray, and the name must still be bound exactly.
* A title whose first words stand before "of the" ("CHAIRMAN OF THE BOARD AGREEMENT") was read as
  "BOARD AGREEMENT" with "CHAIRMAN" a party, and refused. Those words are now offered as the
  title's own (a title reading, passed only on an exact title match with every party bound).
* An addendum named by its own heading, whose amendment word is not its first ("Kestrel Partner
  Program Addendum to the Authorized Kestrel Reseller Agreement"), was refused even on its exact
  title, because its preamble's alias ("Addendum to the ...") makes it an amendment and the
  question's title has no amendment key. Its exact own title now names it; the title of the
  agreement it amends still never does.

The gate tests run on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service.evidence.subject_class import parse_question
from service.evidence.titles import names_inner_amendment
from tests.kb import KB, ingested_kb

CHAIRMAN = (
    'CHAIRMAN OF THE BOARD AGREEMENT\n\nThis Chairman of the Board Agreement (the "Agreement") is entered into as of '
    'May 1, 2003 between QUILLNET, INC., a Nevada corporation (the "Company"), and Harold P. Vance (the '
    '"Chairman").\n\n1. Governing Law. This Agreement shall be governed by the laws of the State of Nevada.\n'
)
ADDENDUM = (
    "Kestrel Systems, Inc.\n\nKestrel Partner Program Addendum to the Authorized Kestrel Reseller\nAgreement\n\n"
    'This Addendum to the Authorized Kestrel Reseller Agreement ("Agreement") made\nbetween Kestrel Systems, Inc. '
    '("Kestrel") and Quillmark Computers, Inc. with its\nprincipal place of business in Westport ("Reseller") sets '
    "forth the terms for the Reseller.\n\n1. This Addendum shall be governed by the laws of the State of California.\n"
)
MARKETING = (
    'CO-MARKETING AGREEMENT\n\nThis Co-Marketing Agreement (the "Agreement") is made as of June 1, 1999 between '
    'Harbourline Incorporated, a Delaware corporation ("Harbourline"), and Q*STAR Group, Inc., a Delaware '
    'corporation ("Q*STAR"), and Zing! LLC, a Delaware limited liability company ("Zing").\n\n1. This Agreement is '
    "governed by the laws of Delaware.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "question-shapes-s60", {"chairman": CHAIRMAN, "addendum": ADDENDUM, "marketing": MARKETING}
    )


@pytest.mark.parametrize(
    ("question", "parties"),
    [
        ("What law governs the CO-MARKETING AGREEMENT between Harbourline Incorporated and Q*STAR Group, Inc.?",
         ["Harbourline Incorporated", "Q*STAR Group, Inc"]),
        ("What law governs the Co-Marketing Agreement among Harbourline Incorporated, Q*STAR Group, Inc. and Zing! LLC?",
         ["Harbourline Incorporated", "Q*STAR Group, Inc.", "Zing! LLC"]),
        ("In Q*STAR Group, Inc.'s Co-Marketing Agreement with Zing! LLC, which law governs?",
         ["Q*STAR Group, Inc.", "Zing! LLC"]),
        ("Zing! LLC and Harbourline Inc. signed a Co-Marketing Agreement; which law governs?",
         ["Zing! LLC", "Harbourline Inc."]),
    ],
)
def test_a_star_inside_a_word_and_a_bang_closing_one_are_part_of_the_name(question: str, parties: list[str]) -> None:
    subject = parse_question(question)
    assert subject.failures == []
    assert sorted(subject.parties) == sorted(parties)


@pytest.mark.parametrize(
    ("party", "failure"),
    [
        ("Q* Group, Inc", "stray '*' in party name 'Q* Group, Inc'"),
        ("Zing LLC *", "stray '*' in party name 'Zing LLC *'"),
        ("!Zing LLC", "stray '!' in party name '!Zing LLC'"),
        ("Zi!ng LLC", "stray '!' in party name 'Zi!ng LLC'"),
    ],
)
def test_those_marks_anywhere_else_are_still_stray(party: str, failure: str) -> None:
    subject = parse_question(f"What law governs the Co-Marketing Agreement between Harbourline Incorporated and {party}?")
    assert subject.failures == [failure]
    assert subject.parties == []


def test_a_name_with_those_marks_passes_only_as_bound(kb: KB) -> None:
    docs, _ = kb.docs("What law governs the CO-MARKETING AGREEMENT among Harbourline Incorporated, Q*STAR Group, Inc. "
                      "and Zing! LLC?")
    assert docs == {"marketing"}
    docs, result = kb.docs("What law governs the CO-MARKETING AGREEMENT between Harbourline Incorporated and "
                           "Q*STAR Holdings, Inc.?")
    assert docs == set()
    assert any("'Q*STAR Holdings, Inc'" in r["reason"] for r in result.rejected), result.rejected


def test_words_before_of_the_are_offered_as_the_titles_own() -> None:
    subject = parse_question("What law governs the CHAIRMAN OF THE BOARD AGREEMENT between QUILLNET, INC. and Harold P. Vance?")
    # The structure's reading is unchanged: "CHAIRMAN" is a name that must be bound there.
    assert subject.agreement_title == "BOARD AGREEMENT"
    assert subject.parties == ["QUILLNET, INC.", "Harold P. Vance", "CHAIRMAN"]
    assert subject.title_readings == [
        {"title": "CHAIRMAN OF THE BOARD AGREEMENT", "parties": ["QUILLNET, INC.", "Harold P. Vance"], "separators": [" and "]}
    ]


@pytest.mark.parametrize(
    "question",
    [
        "What law governs the CHAIRMAN OF THE BOARD AGREEMENT between QUILLNET, INC. and Harold P. Vance?",
        "What law governs the Chairman of the Board Agreement between Quillnet, Inc. and Harold P. Vance?",
    ],
)
def test_a_title_with_of_the_passes_on_its_exact_title(kb: KB, question: str) -> None:
    docs, result = kb.docs(question)
    assert docs == {"chairman"}, result.rejected


@pytest.mark.parametrize(
    ("question", "refused"),
    [
        # More words before "of the" than the title has: no title matches, and the main reading
        # has a name ("VICE CHAIRMAN") no binding accounts for.
        ("What law governs the VICE CHAIRMAN OF THE BOARD AGREEMENT between QUILLNET, INC. and Harold P. Vance?",
         "does not match 'BOARD AGREEMENT'"),
        # The title's last words alone are no title of it.
        ("What law governs the BOARD AGREEMENT between QUILLNET, INC. and Harold P. Vance?",
         "does not match 'BOARD AGREEMENT'"),
        # An exact title with a party the agreement does not bind (the reason reported is the main
        # reading's: a title reading that fails is not reported).
        ("What law governs the CHAIRMAN OF THE BOARD AGREEMENT between QUILLNET, INC. and Harold P. Vale?",
         "does not match 'BOARD AGREEMENT'"),
    ],
)
def test_a_title_with_of_the_is_refused_otherwise(kb: KB, question: str, refused: str) -> None:
    docs, result = kb.docs(question)
    assert docs == set()
    assert any(refused in r["reason"] for r in result.rejected), result.rejected


@pytest.mark.parametrize(
    ("title", "inner"),
    [
        ("Kestrel Partner Program Addendum to the Authorized Kestrel Reseller Agreement", True),
        ("Pricing Schedule No. 2 to the Supply Agreement", True),
        ("Addendum to the Reseller Agreement", False),  # the word opens it: amendment_key reads it
        ("Supply Agreement", False),
        ("Schedule of Fees Agreement", False),  # the word opens it
        ("Supply Agreement Supplement", False),  # closes it: amendment_key reads it
    ],
)
def test_names_inner_amendment(title: str, inner: bool) -> None:
    assert names_inner_amendment(title) is inner


@pytest.mark.parametrize(
    ("question", "match"),
    [
        ("What law governs the Kestrel Partner Program Addendum to the Authorized Kestrel Reseller Agreement between "
         "Kestrel Systems, Inc. and Quillmark Computers, Inc.?", "title exact"),
        # (The preamble's alias named it before too.)
        ("What law governs the Addendum to the Authorized Kestrel Reseller Agreement between Kestrel Systems, Inc. and "
         "Quillmark Computers, Inc.?", "title alias"),
    ],
)
def test_an_addendum_passes_on_its_own_heading(kb: KB, question: str, match: str) -> None:
    docs, result = kb.docs(question)
    assert docs == {"addendum"}, result.rejected
    assert [c.match for c in result.candidates] == [f"{match} + parties"]


def test_the_agreement_an_addendum_amends_is_still_not_the_addendum(kb: KB) -> None:
    docs, result = kb.docs("What law governs the Authorized Kestrel Reseller Agreement between Kestrel Systems, Inc. and "
                           "Quillmark Computers, Inc.?")
    assert docs == set()
    assert result.rejected == [{
        "subject_id": "agreement:kestrel partner program addendum to the authorized kestrel reseller agreement@addendum",
        "reason": "title 'Kestrel Partner Program Addendum to the Authorized Kestrel Reseller Agreement' does not match "
                  "'Authorized Kestrel Reseller Agreement'",
    }]


def test_bound_at_most_six_words_before_of_the_are_offered_as_the_titles_own() -> None:
    six = "What law governs the ALPHA BRAVO CHARLIE DELTA ECHO FOXTROT OF THE BOARD AGREEMENT between Quillnet, Inc. and Harold P. Vance?"
    seven = six.replace("ALPHA", "ZULU ALPHA")
    assert [r["title"] for r in parse_question(six).title_readings] == [
        "ALPHA BRAVO CHARLIE DELTA ECHO FOXTROT OF THE BOARD AGREEMENT"
    ]
    assert parse_question(seven).title_readings == []
