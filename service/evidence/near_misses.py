"""Near-miss suggestions for a failed gate: registry names within a small edit distance of a name
the registry does not know, for ``suggested_next_actions`` only (never used to answer).

The names compared are a prebuilt index per (principal view, subject types): the normalised name
and aliases of every subject of those types that ``store.find_subjects`` shows that principal
(the first ``scan`` of each type by subject id, as always). Building it reads and normalises a
few thousand subjects, so it is kept, per store, for as long as the store's registry generation
(``registry_generation()``, moved by every write that can change a registry answer) stays the
same; a store without one (Elasticsearch) builds it per call.

The cache never widens what a principal sees. Its key is the view that decides visibility in
``find_subjects``: "unrestricted", or the principal's sorted ACL tokens. Two principals share an
index only when every document is visible to both or to neither, and the index is built by
``find_subjects`` for that view, with its generation read in the same snapshot.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from ingest.normalize import normalise_plain
from ingest.store.port import Principal, Store

INDEXES_PER_STORE = 64  # (view, types) indexes kept per store, least recently used out


@dataclass(frozen=True, slots=True)
class NameIndex:
    """Normalised registry names of one view and some types: ``keys`` sorted, ``forms`` maps
    each key to the alphabetically first spelling that normalises to it."""

    keys: tuple[str, ...]
    forms: dict[str, str]


_indexes: "weakref.WeakKeyDictionary[Any, OrderedDict[tuple[Any, ...], NameIndex]]" = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _view(principal: Principal) -> tuple[str, ...]:
    """What decides which registry subjects ``principal`` sees (see ``Store.find_subjects``)."""
    return ("<unrestricted>",) if principal.unrestricted else ("acl", *principal.acl_tokens())


def build_index(store: Store, principal: Principal, types: tuple[str, ...], scan: int) -> NameIndex:
    """Names and aliases of the first ``scan`` subjects (by id) of each of ``types`` that
    ``principal`` may see."""
    forms: dict[str, str] = {}
    for subject_type in types:
        for subject in store.find_subjects(principal, type=subject_type, limit=scan):
            for form in (subject.name, *subject.aliases):
                key = normalise_plain(form)
                if key and (key not in forms or form < forms[key]):
                    forms[key] = form
    return NameIndex(tuple(sorted(forms)), forms)


def name_index(store: Store, principal: Principal, types: tuple[str, ...], scan: int) -> NameIndex:
    """:func:`build_index`, cached per store and registry generation when the store has one."""
    generation_of = getattr(store, "registry_generation", None)
    if generation_of is None:
        return build_index(store, principal, types, scan)
    with store.snapshot():  # the generation and the index: one state of the store
        key = (generation_of(), _view(principal), types, scan)
        with _lock:
            per_store = _indexes.get(store)
            index = per_store.get(key) if per_store is not None else None
            if index is not None:
                per_store.move_to_end(key)
                return index
        index = build_index(store, principal, types, scan)
    with _lock:
        per_store = _indexes.setdefault(store, OrderedDict())
        # An older generation's indexes are never asked for again by a newer snapshot.
        for stale in [k for k in per_store if k[0] < key[0]]:
            del per_store[stale]
        per_store[key] = index
        while len(per_store) > INDEXES_PER_STORE:
            per_store.popitem(last=False)
    return index


def near_misses(
    store: Store, principal: Principal, names: list[str], types: tuple[str, ...], *,
    scan: int, max_names: int, per_name: int,
) -> list[str]:
    """Registry names within a small edit distance of each unresolved name (after
    normalisation): at most ``per_name`` for each of the first ``max_names`` names, nearest
    first, ties by spelling, compared with the index of ``types`` (``scan`` subjects each)."""
    queries = [normalise_plain(n) for n in names[:max_names]]
    if not any(queries):
        return []
    index = name_index(store, principal, tuple(types), scan)
    suggestions: list[str] = []
    for name, query in zip(names, queries):
        if not query:
            continue
        cutoff = max(1, min(3, len(query) // 8))
        found = process.extract(query, index.keys, scorer=Levenshtein.distance, score_cutoff=cutoff, limit=None)
        ranked = sorted((distance, index.forms[key]) for key, distance, _ in found if distance > 0)
        for _, form in ranked[:per_name]:
            if form not in suggestions and form != name:
                suggestions.append(form)
    return suggestions
