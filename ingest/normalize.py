"""Name normalisation and the entity id formats.

Entity ids are ``<type>:<normalised name>``: ``org:acme holdings``, ``person:jane doe``,
``jurisdiction:delaware``, ``role:chief executive officer``, ``place:san mateo``. Agreements are
``agreement:<normalised title>@<doc_id>`` because titles ("DISTRIBUTION AGREEMENT") repeat across
documents while each agreement is its own subject.
"""

from __future__ import annotations

import re

from ingest.lexicons import lexicons

_DELETED = re.compile(r"[.'’`´]")
_SEPARATORS = re.compile(r"[^\w]+|_")
_CURLY = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "\u00a0": " "})


def straighten_quotes(text: str) -> str:
    """Same length as the input, so offsets survive."""
    return text.translate(_CURLY)


def name_words(text: str) -> list[str]:
    """Casefold; periods and apostrophes vanish ("Inc." -> "inc", "Reed's" -> "reeds") so dotted
    and undotted spellings meet; "&" reads "and"; any other punctuation separates words."""
    folded = _DELETED.sub("", text.casefold()).replace("&", " and ")
    return [w for w in _SEPARATORS.split(folded) if w]


def _strip_suffixes(words: list[str]) -> list[str]:
    suffixes = lexicons().strippable_suffixes
    changed = True
    while changed:
        changed = False
        for suffix in suffixes:
            n = len(suffix)
            # Never strip a name to nothing: a bare "Company" stays "company".
            if len(words) > n and tuple(words[-n:]) == suffix:
                words = words[:-n]
                changed = True
                break
    return words


def normalise_org(text: str) -> str:
    words = name_words(text)
    lex = lexicons()
    while len(words) > 1 and words[0] in lex.leading_words:
        words = words[1:]
    return " ".join(_strip_suffixes(words))


def normalise_person(text: str) -> str:
    words = name_words(text)
    honorifics = lexicons().honorifics
    while len(words) > 1 and words[0] in honorifics:
        words = words[1:]
    return " ".join(words)


def normalise_plain(text: str) -> str:
    return " ".join(name_words(text))


def normalise_jurisdiction(text: str) -> str:
    """The canonical jurisdiction key, or "" when the place is not a known jurisdiction."""
    words = name_words(text)
    if words and words[0] == "the":
        words = words[1:]
    return lexicons().jurisdictions.get(" ".join(words), "")


def agreement_id(title: str, doc_id: str) -> str:
    return f"agreement:{normalise_plain(title)}@{doc_id}"
