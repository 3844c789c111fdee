"""The trained party-name tagger: a small spaCy NER (one label, PARTY) read over a contract's
opening and its signature block only.

Trained by ``scripts/train_party_ner.py`` on the tune contracts of cuad-dev (CUAD v1, CC BY 4.0,
The Atticus Project): the CUAD ``parties`` names, where the contract writes them, are the PARTY
spans. The model files ship in the repository (``ner_models/party_ner/``) and are loaded once;
nothing is downloaded. Its spans are candidates only: ``ingest/annotate.py`` passes them through
the same false-party filters as every other source before one becomes a party.
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

MODEL_DIR = Path(__file__).resolve().parents[1] / "ner_models" / "party_ner"
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


@lru_cache(maxsize=1)
def load_party_model(model_dir: str = str(MODEL_DIR)) -> Language:
    """The tagger, loaded once. A missing or unreadable model is a clear error, never a download."""
    if not (Path(model_dir) / "config.cfg").is_file():
        raise InternalError(
            f"party-name model missing at {model_dir}: run scripts/train_party_ner.py or restore ner_models/party_ner/"
        )
    try:
        return spacy.load(model_dir)
    except (OSError, ValueError) as exc:
        raise InternalError(f"party-name model at {model_dir} could not be loaded: {exc}") from exc


def tagged_names(text: str, windows: Sequence[tuple[int, int]] | None = None) -> list[TaggedName]:
    """The tagger's PARTY spans over ``text`` (document offsets), in text order."""
    nlp = load_party_model()
    pieces = list(windows if windows is not None else model_windows(text))
    found: list[TaggedName] = []
    for doc, (offset, _) in zip(nlp.pipe(text[s:e] for s, e in pieces), pieces, strict=True):
        for ent in doc.ents:
            if ent.label_ == LABEL:
                found.append(TaggedName(ent.text, offset + ent.start_char, offset + ent.end_char))
    return sorted(found, key=lambda n: (n.start, n.end))


# The tagged names are added to the grammar's parties when the grammar found fewer than this
# many (bench/party_model_eval.py measured the choices on held-out tune halves).
UNION_BELOW = 2


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
