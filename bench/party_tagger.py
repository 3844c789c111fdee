"""A trained party-name tagger (a small spaCy NER, one label PARTY) read over a contract's
opening and signature block, and its union with the party grammar. Tried for issue 9 and not
taken (docs/ARCHITECTURE.md, "Trained party tagger: tried and not taken"): nothing in ingest/
uses it, no model ships. ``scripts/train_party_ner.py`` trains one from the cuad-dev tune
contracts (CUAD v1, CC BY 4.0, The Atticus Project); ``bench/party_model_eval.py`` measures it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import spacy
from spacy.language import Language

from ingest.errors import InternalError
from ingest.names import NameSpan, after_non_party_lead, ends_in_legal_suffix, name_at
from ingest.text import name_words

import ingest.annotate as annotate
from ingest.entities import entity_id_for
from ingest.names import lowercase_words, party_name_forms, party_name_problem

LABEL = "PARTY"
# The party clause sits in the opening pages; a signature block follows "IN WITNESS WHEREOF".
OPENING_CHARS = 5_000
SIGNATURE_CHARS = 2_500
# The tagger reads ~paragraph-sized pieces (the shape it was trained on), cut at a newline or space.
WINDOW_CHARS = 600
_WITNESS = re.compile(r"IN\s+WITNESS\s+WHEREOF", re.I)


@dataclass(frozen=True, slots=True)
class TaggedName:
    text: str
    start: int
    end: int


def model_regions(text: str) -> list[tuple[int, int]]:
    """Where the tagger reads: the opening, and the signature block after the last "IN WITNESS
    WHEREOF" past the opening (merged with the opening when they overlap)."""
    regions = [(0, min(len(text), OPENING_CHARS))]
    witness = [m.start() for m in _WITNESS.finditer(text, OPENING_CHARS)]
    if witness:
        start, end = witness[-1], min(len(text), witness[-1] + SIGNATURE_CHARS)
        regions.append((start, end))
    return regions


def model_windows(text: str) -> list[tuple[int, int]]:
    """The pieces of ``model_regions`` the tagger reads, each at most ``WINDOW_CHARS`` (cut at a
    newline, else a space, in the second half of the piece). Training uses the same pieces."""
    windows: list[tuple[int, int]] = []
    for region_start, region_end in model_regions(text):
        start = region_start
        while start < region_end:
            end = min(region_end, start + WINDOW_CHARS)
            if end < region_end:
                cut = text.rfind("\n", start + WINDOW_CHARS // 2, end)
                if cut == -1:
                    cut = text.rfind(" ", start + WINDOW_CHARS // 2, end)
                if cut != -1:
                    end = cut + 1
            if text[start:end].strip():
                windows.append((start, end))
            start = end
    return windows


# The model the bench reads (``--model``).
MODEL_DIR = ""


@lru_cache(maxsize=1)
def load_party_model(model_dir: str) -> Language:
    """The tagger, loaded once. A missing or unreadable model is a clear error."""
    if not (Path(model_dir) / "config.cfg").is_file():
        raise InternalError(
            f"party-name model missing at {model_dir}: train one with scripts/train_party_ner.py"
        )
    try:
        return spacy.load(model_dir)
    except (OSError, ValueError) as exc:
        raise InternalError(f"party-name model at {model_dir} could not be loaded: {exc}") from exc


def tagged_names(text: str, windows: Sequence[tuple[int, int]] | None = None) -> list[TaggedName]:
    """The tagger's PARTY spans over ``text`` (document offsets), in text order."""
    nlp = load_party_model(MODEL_DIR)
    pieces = list(windows if windows is not None else model_windows(text))
    found: list[TaggedName] = []
    for doc, (offset, _) in zip(nlp.pipe(text[s:e] for s, e in pieces), pieces, strict=True):
        for ent in doc.ents:
            if ent.label_ == LABEL:
                found.append(TaggedName(ent.text, offset + ent.start_char, offset + ent.end_char))
    return sorted(found, key=lambda n: (n.start, n.end))


# The tagged names are added to the grammar's parties when the grammar found fewer than this
# many (0: the grammar alone; a large number: always).
UNION_BELOW = 0


def party_model_candidates(text: str, defined_terms: frozenset[str] = frozenset()) -> list[NameSpan]:
    """The tagger's names as party candidates: "the" before a name dropped, a name with a legal
    form that starts there read whole (``name_at``), trailing punctuation trimmed. Not a quoted or
    defined term, nor a name after a non-party lead ("a subsidiary of"). The caller still applies
    the false-party filters (``party_name_problem``)."""
    found: list[NameSpan] = []
    for tagged in tagged_names(text):
        lead = re.match(r"(?i)the\s+", tagged.text)
        begin = tagged.start + (lead.end() if lead else 0)
        if re.search(r"[\"“”']\s*$", text[max(0, begin - 2) : begin]) or after_non_party_lead(text, begin):
            continue
        line_end = text.find("\n\n", begin)
        limit = min(len(text), tagged.end + 80, line_end if line_end != -1 else len(text))
        name = name_at(text, begin, max(limit, tagged.end))
        if name is None or name.end < tagged.end or not ends_in_legal_suffix(name.text):
            stripped = text[begin : tagged.end].rstrip(" ,;:")
            if stripped.endswith(".") and not ends_in_legal_suffix(stripped):
                stripped = stripped[:-1]
            name = NameSpan(stripped, begin, begin + len(stripped))
        if not name.text or name.text.casefold() in defined_terms or not name_words(name.text):
            continue
        if all(name != other for other in found):
            found.append(name)
    return found


_grammar_parties = annotate._parties


def union_parties(
    text: str,
    definitions: Sequence,
    person_spans: Sequence[tuple[int, int]],
    model_spans: Sequence[tuple[int, int, str]] = (),
) -> list:
    """``annotate._parties``, then, when it found fewer than ``UNION_BELOW`` parties, the tagger's
    names under the same filters as the grammar's spaCy fallback: ``party_name_problem``, not a
    party's defined term, a capitalised word the document never writes in lower case, not a
    subset or superset of a found party's words. (Measured first as a hook inside ``_parties``,
    commit 39e4fa6; installed by the bench so ingest/ stays as it is.)"""
    parties = _grammar_parties(text, definitions, person_spans, model_spans)
    if len(parties) >= UNION_BELOW:
        return parties
    common_words = lowercase_words(text)
    party_terms = {d.term.casefold() for d in definitions if d.in_preamble and d.is_party_alias and d.name}
    defined_terms = frozenset(d.term.casefold() for d in definitions)
    known = [set(name_words(p.name.text)) for p in parties]
    ids = {p.entity_id for p in parties}
    for name in party_model_candidates(text, defined_terms):
        if party_name_problem(name.text, common_words) or name.text.casefold() in party_terms:
            continue
        raw_words = [w for w in re.findall(r"[\w'’]+", name.text) if w.casefold() not in annotate._MODEL_JOINERS]
        words = set(name_words(name.text))
        if not any(w[:1].isupper() and w.casefold() not in common_words for w in raw_words) or any(
            words <= k or k <= words for k in known
        ):
            continue
        label = annotate._label_for(name, person_spans)
        entity_id = entity_id_for(label, party_name_forms(name.text)[-1])
        if entity_id not in ids:
            parties.append(annotate.Party(entity_id, label, name, None, name.start, name.end))
            ids.add(entity_id)
            known.append(words)
    return sorted(parties, key=lambda p: (p.evidence_start, p.entity_id))


def install_union(model_dir: str, below: int) -> None:
    """Makes ``annotate_document`` bind the union (the bench only)."""
    global MODEL_DIR, UNION_BELOW
    MODEL_DIR, UNION_BELOW = model_dir, below
    annotate._parties = union_parties
