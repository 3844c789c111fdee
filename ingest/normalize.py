"""Name normalisation and the entity id formats.

Entity ids are ``<type>:<normalised name>``: ``org:acme holdings``, ``person:jane doe``,
``jurisdiction:delaware``, ``role:chief executive officer``, ``place:san mateo``. Agreements are
``agreement:<normalised title>@<doc_id>`` because titles ("DISTRIBUTION AGREEMENT") repeat across
documents while each agreement is its own subject.
"""

from __future__ import annotations

from ingest.entity_id import AGREEMENT, EntityId
from ingest.lexicons import lexicons
from ingest.text import name_words


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
    return str(EntityId(AGREEMENT, normalise_plain(title), doc_id))
