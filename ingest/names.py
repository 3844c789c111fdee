"""Name normalisation shared by ingest (entity ids) and the registry look-ups (exact match after
normalisation, never a fuzzy one)."""

from __future__ import annotations

import re
import unicodedata

_PUNCT = re.compile(r"[^\w\s&]")
_SPACE = re.compile(r"\s+")


def normalise_text(value: str) -> str:
    """Casefold, unify Unicode forms, drop punctuation and collapse whitespace."""
    value = unicodedata.normalize("NFKC", value).casefold()
    value = value.replace("’", "'").replace("'s ", " ")
    value = _PUNCT.sub(" ", value)
    return _SPACE.sub(" ", value).strip()
