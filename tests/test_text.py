"""ingest.text: the leaf text helpers (issue 15 moved them here from normalize/sentences/units)."""

from __future__ import annotations

import re

import pytest

from ingest.lexicons import phrase_alternation
from ingest.text import ends_in_abbreviation, name_words, straighten_quotes, trim_span


def test_trim_span_exact_offsets() -> None:
    text = "  Acme Inc.\n\t"
    assert trim_span(text, 0, len(text)) == (2, 11)
    assert text[2:11] == "Acme Inc."


def test_trim_span_with_base_offset() -> None:
    # ``text`` is the slice of a document that begins at offset 100.
    text = " \u00a0Term \n"
    assert trim_span(text, 100, 100 + len(text), base=100) == (102, 106)


def test_trim_span_extra_edge_characters() -> None:
    text = "\ufeff\u200b Clause 1.\u200b"
    assert trim_span(text, 0, len(text)) == (0, len(text))  # neither is whitespace to isspace()
    assert trim_span(text, 0, len(text), also="\u200b\ufeff") == (3, 12)


def test_trim_span_blank_span_is_empty() -> None:
    assert trim_span("a   b", 1, 4) == (4, 4)


def test_name_words_and_straighten_quotes() -> None:
    assert name_words("Reed’s & Co., Inc.") == ["reeds", "and", "co", "inc"]
    assert straighten_quotes("“Seller’s”") == "\"Seller's\""


@pytest.mark.parametrize(
    ("before", "abbreviation"),
    [("Acme Inc", True), ("made in the U.S", True), ("signed by Acme Holdings", False), ("the Agreement", False)],
)
def test_a_period_after_a_short_word_or_dotted_run_ends_an_abbreviation(before: str, abbreviation: bool) -> None:
    text = before + ". Next"
    assert ends_in_abbreviation(text, 0, len(before)) is abbreviation


def test_a_phrase_alternation_puts_longer_phrases_first_and_widens_blanks() -> None:
    pattern = phrase_alternation(["for value", "for value received", "hereby"], r"[ \t\n]+")
    assert pattern == r"for[ \t\n]+value[ \t\n]+received|for[ \t\n]+value|hereby"
    assert re.match(pattern, "for\n value  received").group() == "for\n value  received"
    assert phrase_alternation(["b.c", "a"]) == r"b\.c|a"
