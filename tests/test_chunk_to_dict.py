"""``Chunk.to_dict`` gives what ``dataclasses.asdict`` gave (the reference below, the code as it
was), shares no list or dict with the chunk, and no longer deep-copies leaf by leaf."""

from __future__ import annotations

import copy
from dataclasses import asdict, replace

from ingest.schema import Chunk


def _chunk() -> Chunk:
    return Chunk(
        chunk_id="c1", doc_id="d", revision="r", ordinal=3, title="Supply Agreement",
        filename="d.txt", mime="text/plain", page=2, section=["1. TERMS", "1.1 Delivery"],
        element_index=7, line_start=10, line_end=12, char_start=100, char_end=180,
        text="Acme Corp. shall deliver the goods within 30 days.", acl=["alice", "group:legal"],
        collection="contracts", ingested_at="2026-01-01T00:00:00.000+00:00",
        embedding=[0.25] * 384,
        entities=[{"text": "Acme Corp.", "label": "ORG", "entity_id": "org:acme", "char_start": 0,
                   "char_end": 10}],
        entity_ids=["org:acme"],
        relations=[{"subject_id": "org:acme", "relation": "party_to", "object_id": "agreement:s",
                    "role": None, "char_start": 0, "char_end": 10}],
        relation_keys=["party_to|org:acme|agreement:s"],
        sentences=[{"char_start": 0, "char_end": 51, "entity_ids": ["org:acme"]}],
        units=[[0, 51], [52, 80]], unit_vectors=b"\x00\x01" * 8,
    )


def reference(chunk: Chunk, with_embedding: bool = False) -> dict:
    data = asdict(replace(chunk, embedding=None, unit_vectors=None))
    data.pop("unit_vectors")
    if with_embedding:
        data["embedding"] = None if chunk.embedding is None else list(chunk.embedding)
    else:
        data.pop("embedding")
    return data


def test_to_dict_is_what_asdict_gave_in_the_same_key_order():
    chunk = _chunk()
    for with_embedding in (False, True):
        got, want = chunk.to_dict(with_embedding), reference(chunk, with_embedding)
        assert got == want and list(got) == list(want)
    bare = replace(chunk, embedding=None, units=None, page=None)
    assert bare.to_dict(True) == reference(bare, True)


def _mutate_every_container(value) -> int:
    """Change every list and dict inside ``value`` in place; returns how many it changed."""
    changed = 0
    if isinstance(value, dict):
        for item in list(value.values()):
            changed += _mutate_every_container(item)
        value["mutated"] = True
        changed += 1
    elif isinstance(value, list):
        for item in list(value):
            changed += _mutate_every_container(item)
        value.append("mutated")
        changed += 1
    return changed


def test_changing_the_dict_never_changes_the_chunk():
    chunk = _chunk()
    before = copy.deepcopy(chunk)
    for with_embedding in (False, True):
        data = chunk.to_dict(with_embedding)
        # section, acl, entities (+1 dict), entity_ids, relations (+1), relation_keys,
        # sentences (+1 dict, +1 entity_ids list), units (+2 pairs), the dict itself; embedding
        assert _mutate_every_container(data) == 15 + with_embedding
        assert chunk == before


def test_to_dict_deep_copies_no_leaf(monkeypatch):
    calls = []
    real = copy.deepcopy
    monkeypatch.setattr(copy, "deepcopy", lambda *a, **k: calls.append(a[0]) or real(*a, **k))
    _chunk().to_dict(with_embedding=True)
    assert calls == []  # asdict deep-copied every string and number of the record
