"""Agreement titles, compared alike on both sides: the title a question names and the title
ingest detected. Shared by the subject class reader, the hard gate and the registry questions."""

from __future__ import annotations

from ingest.lexicons import lexicons
from ingest.text import name_words


def known_agreement_kind(title: str) -> str | None:
    """The kind of an agreement title by the very rule ingest used for the registry's ``kind``
    attribute (``ingest.agreements.agreement_kind``), None where that says "other"."""
    from ingest.agreements import agreement_kind as ingest_kind

    kind = ingest_kind(title)
    return None if kind == "other" else kind


def expand_abbreviations(title: str) -> str:
    abbreviations = {k.casefold(): v for k, v in lexicons().agreement_abbreviations.items()}
    words = []
    for word in name_words(title):
        words.extend(name_words(abbreviations.get(word, word)))
    return " ".join(words)


def clean_title(title: str) -> str:
    """Title words without leading articles and without the leading noise ingest drops from a
    detected title ("FORM OF ...", ner_models/agreement_kinds.json), so both sides compare alike."""
    words = name_words(title)
    noise = [tuple(name_words(n)) for n in lexicons().title_prefix_noise]
    changed = True
    while changed:
        changed = False
        while words and words[0] in ("the", "this", "that", "a", "an"):
            words, changed = words[1:], True
        for phrase in noise:
            if phrase and len(words) > len(phrase) and tuple(words[: len(phrase)]) == phrase:
                words, changed = words[len(phrase) :], True
    return " ".join(words)
