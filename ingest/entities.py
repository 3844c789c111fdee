"""Entity mentions: the spaCy pipeline with our EntityRuler, and resolving each mention to a
document-scoped canonical entity id (see ``ingest/normalize.py`` for the id formats)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from spacy.language import Language
from spacy.tokens import Doc

from ingest.definitions import Definition
from ingest.entity_id import AGREEMENT, EntityId
from ingest.lexicons import lexicons, load_jsonl
from ingest.names import has_legal_suffix
from ingest.nlp_model import load_english
from ingest.normalize import (
    normalise_jurisdiction,
    normalise_org,
    normalise_person,
    normalise_plain,
)
from ingest.text import straighten_quotes

# Mention labels as they appear in EntityMention["label"], and the id prefix of each.
ID_PREFIX = {
    "ORG": "org",
    "PERSON": "person",
    "JURISDICTION": "jurisdiction",
    "PLACE": "place",
    "ROLE": "role",
    "AGREEMENT": "agreement",
}
SUBJECT_LABELS = ("ORG", "PERSON", "JURISDICTION")
_MODEL_LABELS = {"ORG": "ORG", "PERSON": "PERSON", "GPE": "PLACE", "LOC": "PLACE", "NORP": "NORP"}
_GENERIC_ORG_WORDS = frozenset(
    {
        "company", "corporation", "party", "parties", "agreement", "board", "board of directors",
        "committee", "government", "court", "state", "commission", "securities and exchange commission",
        "sec", "us", "llc", "inc", "ltd", "article", "section", "exhibit", "schedule", "annex", "appendix",
        "confidential", "confidential treatment", "affiliate", "affiliates", "licensor", "licensee",
        "name", "title", "by", "its", "date", "notice", "notices", "attn", "attention",
    }
)
_TRAILING_FUNCTION_WORDS = frozenset({"at", "of", "for", "and", "the", "in", "on", "to", "by", "with", "or"})
_LEADING_THE = re.compile(r"^(?:the|The|THE)\s+")
_ROLE_PREFIX = re.compile(r"^(?:its|their|his|her)\s+", re.I)


@lru_cache(maxsize=1)
def annotation_pipeline() -> Language:
    """en_core_web_sm with the EntityRuler before "ner" (the model keeps the ruler's entities
    and labels around them). A private instance: ``load_english()``'s cached pipeline is shared
    with other callers and must not grow our ruler. The parser is swapped for the statistical
    sentence splitter: nothing here reads dependencies, and the parser is the costliest stage."""
    nlp = load_english.__wrapped__(("lemmatizer", "parser"))  # type: ignore[attr-defined]
    if "senter" in nlp.disabled:
        nlp.enable_pipe("senter")
    ruler = nlp.add_pipe(
        "entity_ruler", before="ner", config={"validate": False, "phrase_matcher_attr": "LOWER"}
    )
    ruler.add_patterns(load_jsonl("entity_patterns.jsonl"))  # type: ignore[attr-defined]
    return nlp


@dataclass(frozen=True, slots=True)
class Mention:
    """A resolved mention, offsets into the document text."""

    start: int
    end: int
    label: str
    entity_id: str
    text: str
    from_alias: bool = False


@dataclass(frozen=True, slots=True)
class AliasTable:
    """Per document: defined term (exact spelling) -> entity id, plus the party names themselves,
    so every literal occurrence of either becomes a mention."""

    by_term: dict[str, tuple[str, str]]  # surface -> (entity_id, label)
    by_normalised: dict[str, tuple[str, str]]
    non_party_terms: frozenset[str]  # casefolded defined terms that are not parties
    pattern: re.Pattern[str] | None

    def retargeted(self, moved: Mapping[str, tuple[str, str]]) -> AliasTable:
        """The table with the entities in ``moved`` (entity id -> (entity id, label)) pointing at
        their new targets: a spelling merged into another party's keeps its terms."""
        def target(t: tuple[str, str]) -> tuple[str, str]:
            return moved.get(t[0], t)

        return AliasTable(
            {k: target(v) for k, v in self.by_term.items()},
            {k: target(v) for k, v in self.by_normalised.items()},
            self.non_party_terms,
            self.pattern,
        )


def entity_id_for(label: str, text: str, ruler_id: str = "") -> str:
    if label == "ORG":
        return f"org:{normalise_org(text)}"
    if label == "PERSON":
        return f"person:{normalise_person(text)}"
    if label == "JURISDICTION":
        return f"jurisdiction:{ruler_id or normalise_jurisdiction(text) or normalise_plain(text)}"
    if label == "ROLE":
        return f"role:{ruler_id or normalise_plain(text)}"
    return f"{ID_PREFIX[label]}:{normalise_plain(text)}"


def build_alias_table(
    definitions: Sequence[Definition],
    party_types: dict[str, str],
    extra_names: dict[str, tuple[str, str]] | None = None,
) -> AliasTable:
    """``party_types``: entity id -> label for the named antecedents; ``extra_names``: surface ->
    (entity id, label) for names known otherwise. The first definition of a term wins, so a later
    "Company" in an exhibit cannot steal the preamble's meaning."""
    by_term: dict[str, tuple[str, str]] = {}
    non_party: set[str] = set()
    for definition in definitions:
        if not definition.is_party_alias or definition.name is None:
            non_party.add(definition.term.casefold())
            continue
        label = party_types.get(entity_id_for("ORG", definition.name.text), "ORG")
        entity_id = entity_id_for(label, definition.name.text)
        by_term.setdefault(definition.term, (entity_id, label))
        by_term.setdefault(definition.name.text, (entity_id, label))
    for name, target in sorted((extra_names or {}).items()):
        by_term.setdefault(name, target)
    non_party -= {term.casefold() for term in by_term}
    by_normalised: dict[str, tuple[str, str]] = {}
    for term, target in sorted(by_term.items()):
        by_normalised.setdefault(normalise_org(term), target)
    pattern = None
    if by_term:
        alternatives = "|".join(re.escape(t) for t in sorted(by_term, key=lambda t: (-len(t), t)))
        pattern = re.compile(rf"(?<![\w\-])(?:{alternatives})(?![\w\-])")
    return AliasTable(by_term, by_normalised, frozenset(non_party), pattern)


def _clean_span(text: str, start: int, end: int) -> tuple[int, int]:
    span = text[start:end]
    lead = _LEADING_THE.match(span)
    if lead and len(span) > lead.end():
        start += lead.end()
    # (A table's cell bar glued to a name, "|HARROW PLC", is layout, not a character of it.)
    while end > start and text[end - 1] in " \t\n,;:'\"“”)|":
        end -= 1
    # A caption's dash ("Employment Agreement - Acme Corp. and ...") opens no name.
    while start < end and text[start] in " \t\n,;:'\"“”(-–—|":
        start += 1
    return start, end


def _is_junk_name(surface: str, aliases: AliasTable) -> bool:
    normalised = normalise_org(surface)
    if not normalised or not any(c.isupper() for c in surface):
        return True
    if "\n\n" in surface or len(surface) > 120:
        return True
    # "Sales at": the model cut a name short at a preposition.
    if surface.split()[-1] in _TRAILING_FUNCTION_WORDS:
        return True
    lex = lexicons()
    folded = surface.casefold()
    return (
        normalised in _GENERIC_ORG_WORDS
        or folded in lex.non_party_terms
        or folded in aliases.non_party_terms
        or normalised in aliases.non_party_terms
        or surface in lex.party_roles
    )


def _role_spelling_ok(surface: str, canonical: str) -> bool:
    """The ruler matches roles case-insensitively (one fast phrase matcher); spelling rules are
    applied here: party roles are capitalised defined terms ("Supplier", not "supplier"), and some
    titles count only in their usual case ("President", "CEO")."""
    lex = lexicons()
    if canonical not in lex.role_titles:
        return surface[:1].isupper()
    allowed = lex.case_sensitive_roles.get(surface.casefold())
    return allowed is None or surface in allowed


def model_mentions(doc: Doc, offset: int, text: str, aliases: AliasTable, agreement: tuple[str, str]) -> list[Mention]:
    """Mentions from the pipeline's entities, resolved through the document's alias table.
    ``agreement``: (normalised title, agreement id) of the document's own agreement."""
    found: list[Mention] = []
    for ent in doc.ents:
        label = ent.label_
        start, end = _clean_span(text, offset + ent.start_char, offset + ent.end_char)
        if end <= start:
            continue
        surface = text[start:end]
        if label in ("ORG", "PERSON"):
            target = aliases.by_term.get(surface) or aliases.by_normalised.get(normalise_org(surface))
            if target:
                found.append(Mention(start, end, target[1], target[0], surface, True))
                continue
            if _is_junk_name(surface, aliases):
                continue
            if label == "PERSON" and has_legal_suffix(surface):
                label = "ORG"
            found.append(Mention(start, end, label, entity_id_for(label, surface), surface))
        elif label == "JURISDICTION":
            if not surface[:1].isupper():
                continue
            found.append(Mention(start, end, label, entity_id_for(label, surface, ent.ent_id_), surface))
        elif label == "ROLE":
            role_match = _ROLE_PREFIX.match(surface)
            if role_match:
                start += role_match.end()
                surface = text[start:end]
            if not _role_spelling_ok(surface, ent.ent_id_):
                continue
            found.append(Mention(start, end, label, entity_id_for(label, surface, ent.ent_id_), surface))
        elif label == "AGREEMENT":
            normalised = normalise_plain(surface)
            title_norm, title_id = agreement
            if title_norm and (normalised == title_norm or title_norm.endswith(" " + normalised)):
                entity_id = title_id
            else:
                entity_id = str(EntityId(AGREEMENT, normalised, EntityId.parse(title_id).doc_id)) if title_id else ""
            if entity_id:
                found.append(Mention(start, end, label, entity_id, surface))
        elif label in _MODEL_LABELS:
            jurisdiction = normalise_jurisdiction(surface)
            if jurisdiction:
                found.append(Mention(start, end, "JURISDICTION", f"jurisdiction:{jurisdiction}", surface))
            elif _MODEL_LABELS[label] == "PLACE" and any(c.isupper() for c in surface):
                found.append(Mention(start, end, "PLACE", entity_id_for("PLACE", surface), surface))
    return found


def alias_mentions(text: str, start: int, end: int, aliases: AliasTable) -> list[Mention]:
    if aliases.pattern is None:
        return []
    straight = straighten_quotes(text[start:end])
    found = []
    for match in aliases.pattern.finditer(straight):
        entity_id, label = aliases.by_term[match.group()]
        found.append(
            Mention(start + match.start(), start + match.end(), label, entity_id, text[start + match.start() : start + match.end()], True)
        )
    return found


def merge_mentions(model: Iterable[Mention], aliases: Iterable[Mention]) -> list[Mention]:
    """Overlaps resolve to the longer mention; on a tie the alias wins (it is document-specific
    knowledge, the model's label is a guess)."""
    candidates = sorted(
        [*aliases, *model],
        key=lambda m: (-(m.end - m.start), not m.from_alias, m.start, m.entity_id),
    )
    chosen: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for mention in candidates:
        if any(mention.start < end and start < mention.end for start, end in taken):
            continue
        chosen.append(mention)
        taken.append((mention.start, mention.end))
    return sorted(chosen, key=lambda m: (m.start, m.end, m.entity_id))
