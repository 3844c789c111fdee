"""bench/ner_eval.py's gold party names: what the party-recall figure of issue 9 counts as a name."""

from __future__ import annotations

from bench.ner_eval import gold_party_names


def test_the_term_and_the_parenthesis_it_opens_are_cut() -> None:
    assert gold_party_names('Quillfeather Ltd. (the "Supplier"); Brambleton Inc. ("Buyer")') == [
        "Quillfeather Ltd.",
        "Brambleton Inc.",
    ]


def test_a_parenthesis_closed_before_the_term_is_part_of_the_name() -> None:
    labels = 'Quillfeather (Bermuda) Ltd. ("Quill"); Ostvik AB (publ); Fenmoor Partners (Offshore) Master, L.P.'
    assert gold_party_names(labels) == [
        "Quillfeather (Bermuda) Ltd.",
        "Ostvik AB (publ)",
        "Fenmoor Partners (Offshore) Master, L.P.",
    ]


def test_a_label_that_opens_with_a_stray_parenthesis_keeps_its_name() -> None:
    assert gold_party_names('(Quillfeather Holdings Corporation ("Company")') == ["Quillfeather Holdings Corporation"]


def test_back_references_and_blanks_are_not_names() -> None:
    labels = (
        'Quillfeather Ltd. ("Quill"); Brambleton Inc. ("Bramble"); '
        'Quill and Bramble (each a "Party"); (Bramble and Quill are together the "Parties"); [ ]'
    )
    assert gold_party_names(labels) == ["Quillfeather Ltd.", "Brambleton Inc."]


def test_a_name_whose_words_repeat_an_earlier_term_is_still_a_name_when_a_parenthesis_sets_it_apart() -> None:
    # "Fenmoor Capital (International) Limited" is a second company, not a back-reference to
    # "Fenmoor Capital": the closed parenthesis and its legal form are words the first lacks.
    labels = 'Fenmoor Capital, L.P. ("Fenmoor"); Fenmoor Capital (International) Limited ("Sub-Adviser")'
    assert gold_party_names(labels) == ["Fenmoor Capital, L.P.", "Fenmoor Capital (International) Limited"]
