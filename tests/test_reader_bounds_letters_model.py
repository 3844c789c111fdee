"""Bounds of the letter reader and of the model's party-clause fallback, each tested at the bound:
a letter's subject heading (12 words read, 13 not), how far after the salutation its words must
say it is a contract (3,000 characters), how long a close or acceptance line may be (under 60
characters), how much of a "between" clause the model's names are read from (600 characters) and
how many (4). Invented names only."""

from __future__ import annotations

import pytest

from ingest.agreements import _LETTER_SUBJECT_WORDS, letter_subject
from ingest.annotate import _MODEL_CLAUSE_CHARS, _MODEL_NAMES_LIMIT, _model_clause_names
from ingest.letter_parties import _CUE_CHARS, _LEAD_LINE_CHARS, letter_salutation, signature_lead_start

_HEADING_WORDS = "ALPHA BETA GAMMA DELTA EPSILON ZETA ETA THETA IOTA KAPPA LAMBDA MU NU".split()


@pytest.mark.parametrize(("words", "read"), [(12, True), (13, False)])
def test_a_letter_subject_heading_is_read_up_to_twelve_words(words: int, read: bool) -> None:
    assert _LETTER_SUBJECT_WORDS == 12
    heading = " ".join([*_HEADING_WORDS[: words - 1], "FACILITY"])
    text = f"Kestrel Bank Limited\n1 Mill Lane\n\nDear Sirs,\n{heading}\n\nThis letter sets out the terms.\n"
    subject = letter_subject(text)
    start = text.index(heading)
    found = (subject.text, subject.start, subject.end) if subject else None
    assert found == ((heading, start, start + len(heading)) if read else None)


@pytest.mark.parametrize(("end", "letter"), [(3_000, True), (3_001, False)])
def test_a_letter_needs_its_contract_words_within_3000_characters_of_the_salutation(end: int, letter: bool) -> None:
    # Measured from the salutation word's end ("Dear") to the cue's end.
    assert _CUE_CHARS == 3_000
    cue = "this letter"
    body = " Ms Quell," + " x" * 2_000
    text = "Dear" + body[: end - len(cue) - 1] + " " + cue + " sets out our terms.\n"
    assert text.index(cue) + len(cue) - len("Dear") == end
    assert letter_salutation(text) == (0 if letter else None)


@pytest.mark.parametrize(("length", "lead"), [(59, True), (60, False)])
def test_a_close_line_counts_when_shorter_than_60_characters(length: int, lead: bool) -> None:
    assert _LEAD_LINE_CHARS == 60
    line = "Sincerely, " + "y" * (length - len("Sincerely, "))
    assert len(line) == length
    text = "The parties sign below.\n" + line + "\nOrrin Tools Inc.\n"
    assert signature_lead_start(text) == (text.index("Sincerely") if lead else None)


def _clause(name_end: int) -> tuple[str, list[tuple[int, int, str]]]:
    """A "between" clause whose second model name ends ``name_end`` characters after "between"."""
    head = "This Agreement is made between Orrin Tools Inc., "
    name = "Mire Corp"
    filler = ("and " * 200)[: head.index("between") + name_end - len(head) - len(name) - 1]
    text = head + filler.ljust(len(filler)) + " " + name + " and others"
    orrin, mire = text.index("Orrin"), text.index(name)
    return text, [(orrin, orrin + len("Orrin Tools Inc."), "ORG"), (mire, mire + len(name), "ORG")]


@pytest.mark.parametrize(("name_end", "read"), [(600, True), (601, False)])
def test_the_model_reads_names_in_the_first_600_characters_of_the_clause(name_end: int, read: bool) -> None:
    assert _MODEL_CLAUSE_CHARS == 600
    text, spans = _clause(name_end)
    mire = text.index("Mire Corp")
    assert mire + len("Mire Corp") - text.index("between") == name_end
    found = [(name.text, name.start, label) for name, label in _model_clause_names(text, spans, frozenset())]
    expected = [("Orrin Tools Inc.", text.index("Orrin"), "ORG")]
    assert found == (expected + [("Mire Corp", mire, "ORG")] if read else expected)


def test_the_model_reads_at_most_four_names_of_a_clause() -> None:
    assert _MODEL_NAMES_LIMIT == 4
    names = ["Orrin Tools Inc.", "Pell Pumps Inc.", "Gorse Labs Inc.", "Fen Works Inc.", "Mire Corp."]
    text = "This Agreement is made between " + " and ".join(names) + "."
    spans = [(text.index(n), text.index(n) + len(n), "ORG") for n in names]
    found = [name.text for name, _ in _model_clause_names(text, spans, frozenset())]
    assert found == names[:4]
