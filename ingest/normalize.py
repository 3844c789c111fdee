"""Name normalisation and the entity id formats.

Entity ids are ``<type>:<normalised name>``: ``org:acme holdings``, ``person:jane doe``,
``jurisdiction:delaware``, ``role:chief executive officer``, ``place:san mateo``. Agreements are
``agreement:<normalised title>@<doc_id>`` because titles ("DISTRIBUTION AGREEMENT") repeat across
documents while each agreement is its own subject.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ingest.entity_id import AGREEMENT, EntityId
from ingest.lexicons import lexicons, load_json
from ingest.text import fold_marks, name_words


def _split_suffixes(words: list[str]) -> tuple[list[str], list[str]]:
    """(the name's words, the legal-form suffix words stripped from its end)."""
    suffixes = lexicons().strippable_suffixes
    stripped: list[str] = []
    changed = True
    while changed:
        changed = False
        for suffix in suffixes:
            n = len(suffix)
            # Never strip a name to nothing: a bare "Company" stays "company".
            if len(words) > n and tuple(words[-n:]) == suffix:
                stripped[:0] = words[-n:]
                words = words[:-n]
                changed = True
                break
    return words, stripped


# A nickname in quotes inside a person's name ('Marcus "Flash" Thompson'): no word of the
# person's key, so the name with and without it is one person.
_NICKNAME_INSIDE = re.compile(r"[ \t]+[\"“][^\"”\n]{1,40}[\"”](?=[ \t]+\w)")


@lru_cache(maxsize=1)
def _leading_article() -> re.Pattern[str]:
    """A name's leading article in another language ("L'Université de Bourgogne", "La Ville de
    Dijon"; ``leading_articles`` of legal_suffixes.json) is dropped like "the": the name is asked
    for with or without it. Only an elided article ("L'") or a word in title or lower case before
    a capital: a shouted "LA FITNESS" or "LE SAINT" keeps its first word."""
    data = load_json("legal_suffixes.json")["leading_articles"]
    elided = "|".join(re.escape(a[0].upper()) + re.escape(a[1:]) + "|" + re.escape(a) for a in sorted(data["elided"]))
    words = "|".join(re.escape(w.capitalize()) + "|" + re.escape(w) for w in sorted(data["words"]))
    return re.compile(rf"^[ \t\n]*(?:(?:{elided})['’][ \t]*|(?:{words})[ \t\n]+)(?=[A-ZÀ-Ý])")


def _org_words(text: str) -> list[str]:
    words = name_words(_leading_article().sub("", text))
    lex = lexicons()
    while len(words) > 1 and words[0] in lex.leading_words:
        words = words[1:]
    return words


def normalise_org(text: str) -> str:
    return fold_marks(" ".join(_split_suffixes(_org_words(text))[0]))


def legal_form_words(text: str) -> frozenset[str]:
    """The legal forms the spelling of an organisation's name carries, in short form: the suffix
    words ``normalise_org`` strips, with single letters run together ("L. L. C." -> "llc") and
    long spellings read as short ones ("Corporation" -> "corp", "Limited Liability Company" ->
    "llc"; ``form_spellings`` of ``legal_suffixes.json``). "Acme Corp." and "ACME CORPORATION"
    carry {"corp"}; "Acme, Inc." {"inc"}; a name with no form, none. Two spellings with one
    normalised name but forms neither of which holds the other ("Acme, Inc." and "Acme GmbH")
    are two legal persons, and the gate never takes one for the other."""
    stripped = _split_suffixes(_org_words(text))[1]
    joined: list[str] = []
    letters = ""
    for word in [*stripped, ""]:
        if len(word) == 1:
            letters += word
            continue
        if letters:
            joined.append(letters)
            letters = ""
        if word:
            joined.append(word)
    spellings = lexicons().form_spellings
    out: list[str] = []
    i = 0
    while i < len(joined):
        for long, short in spellings:
            if tuple(joined[i : i + len(long)]) == long:
                out.extend(short.split())
                i += len(long)
                break
        else:
            out.append(joined[i])
            i += 1
    return frozenset(fold_marks(w) for w in out if w not in lexicons().leading_words)


def normalise_person(text: str) -> str:
    words = name_words(_NICKNAME_INSIDE.sub(" ", text))
    honorifics = lexicons().honorifics
    while len(words) > 1 and words[0] in honorifics:
        words = words[1:]
    return fold_marks(" ".join(words))


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
