"""Versioned Elasticsearch index definitions (settings + mappings), one JSON file per index kind
and version: ``{kind}.v{N}.json``.

Index names carry the version and sit behind an alias without it: ``{prefix}-chunks-v1`` is reached
through ``{prefix}-chunks``. A migration to version N uses the newest file whose version is <= N,
so moving to a new version number without a new file re-creates the index with the same mapping
(useful to re-shard or to rebuild the HNSW graph).
"""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

KINDS: tuple[str, ...] = ("documents", "revisions", "chunks", "subjects", "audit", "visibility")
_FILE = re.compile(r"^(?P<kind>[a-z_]+)\.v(?P<version>\d+)\.json$")


@lru_cache(maxsize=1)
def _catalogue() -> dict[str, dict[int, str]]:
    found: dict[str, dict[int, str]] = {}
    for entry in resources.files(__name__).iterdir():
        match = _FILE.match(entry.name)
        if match:
            found.setdefault(match["kind"], {})[int(match["version"])] = entry.name
    return found


def versions(kind: str) -> list[int]:
    """The versions that have a file for ``kind``, ascending."""
    return sorted(_catalogue().get(kind, {}))


def latest_version(kind: str | None = None) -> int:
    """The newest version of one kind, or of all kinds together (the schema version)."""
    kinds = [kind] if kind else list(KINDS)
    return max(max(versions(k)) for k in kinds)


@lru_cache(maxsize=None)
def _load(name: str) -> dict[str, Any]:
    return json.loads(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))


def load(kind: str, version: int | None = None) -> dict[str, Any]:
    """``{"settings": ..., "mappings": ...}`` for ``kind`` at ``version`` (default: newest): the
    newest file whose version is <= ``version``. A fresh copy; the caller may change it."""
    available = versions(kind)
    if not available:
        raise KeyError(f"no mapping file for index kind {kind!r}")
    wanted = available[-1] if version is None else version
    usable = [v for v in available if v <= wanted]
    if not usable:
        raise KeyError(f"no mapping file for {kind!r} at or below version {wanted}")
    body = copy.deepcopy(_load(f"{kind}.v{usable[-1]}.json"))
    body.setdefault("mappings", {}).setdefault("_meta", {})["attest_version"] = wanted
    return body
