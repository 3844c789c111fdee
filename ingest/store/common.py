"""Backend-neutral helpers shared by the store adapters (SQLite and Elasticsearch), so that the
same records give the same answers on every backend: timestamps, the words of a user query, the
name and role keys of the subject registry, and the merge of per-document subject records."""

from __future__ import annotations

import functools
import hashlib
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

from ingest.deadline import check_deadline
from ingest.normalize import normalise_org as name_key
from ingest.normalize import normalise_plain as role_key
from ingest.schema import Binding, Subject, SubjectRecord

__all__ = [
    "chain_entry",
    "verify_audit_chain",
    "merge_subject_records",
    "name_key",
    "query_words",
    "role_key",
    "subject_kwargs",
    "translate_errors",
]

_WORD = re.compile(r"\w+", re.UNICODE)
# Methods that must not be wrapped: context managers keep their own protocol, and ``ping`` and
# ``close`` must work (and fail their own way) while the store is down.
_UNWRAPPED = frozenset({"snapshot", "ping", "close"})


def _deadline_checked(method: Callable[..., Any]) -> Callable[..., Any]:
    """Every store call of a request that is past its deadline raises ``DeadlineExceeded``
    instead of running: the request's abandoned thread stops at its next store call."""

    @functools.wraps(method)
    def checked(*args: Any, **kwargs: Any) -> Any:
        check_deadline()
        return method(*args, **kwargs)

    return checked


def translate_errors(
    translate: Callable[[Callable[..., Any]], Callable[..., Any]],
) -> Callable[[type], type]:
    """A class decorator that wraps every public method of a store adapter in ``translate``, the
    adapter's own library-error translation (each adapter translates where its library enters),
    and in the request deadline check."""

    def decorate(cls: type) -> type:
        for name, value in list(vars(cls).items()):
            if name.startswith("_") or name in _UNWRAPPED or not callable(value):
                continue
            if isinstance(value, (staticmethod, classmethod)):
                continue
            setattr(cls, name, _deadline_checked(translate(value)))
        return cls

    return decorate


@lru_cache(maxsize=1)
def stopwords() -> frozenset[str]:
    lines = (Path(__file__).with_name("stopwords.txt")).read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip() for line in lines if line.strip() and not line.startswith("#"))


def query_words(text: str) -> list[str]:
    """The distinct casefolded words of a user query, stop words removed, sorted. Both backends
    search for exactly these words (any may match), so query syntax in user input is never
    interpreted."""
    return sorted({w.casefold() for w in _WORD.findall(text)} - stopwords())


def subject_kwargs(data: dict[str, Any]) -> dict[str, Any]:
    """A stored ``asdict(SubjectRecord)`` back to constructor arguments (bindings as Binding)."""
    data["bindings"] = [Binding(**b) for b in data.get("bindings", [])]
    return data


def merge_subject_records(records: Sequence[SubjectRecord], limit: int) -> list[Subject]:
    """Merge per-document records into registry subjects. Shared by both backends so that the
    same index state gives the same answer everywhere."""
    merged: dict[str, Subject] = {}
    for record in sorted(records, key=lambda r: (r.subject_id, r.doc_id, r.revision)):
        subject = merged.get(record.subject_id)
        if subject is None:
            subject = Subject(
                subject_id=record.subject_id,
                name=record.name,
                type=record.type,
                aliases=[],
                attributes={},
                bindings=[],
                mentions=[],
            )
            merged[record.subject_id] = subject
        subject.aliases = sorted({*subject.aliases, *record.aliases} - {subject.name})
        for key, value in sorted(record.attributes.items()):
            subject.attributes.setdefault(key, value)
        subject.bindings.extend(record.bindings)
        subject.mentions.append(
            {
                "doc_id": record.doc_id,
                "revision": record.revision,
                "char_start": record.char_start,
                "char_end": record.char_end,
            }
        )
    out = sorted(merged.values(), key=lambda s: s.subject_id)[:limit]
    for subject in out:
        subject.bindings.sort(
            key=lambda b: (b.relation, b.object_id, b.doc_id, b.char_start, b.role or "")
        )
    return out


# -- the audit hash chain -------------------------------------------------------------------------
CHAIN_FIELDS = ("prev_hash", "hash")


def _entry_digest(prev_hash: str, body: dict[str, Any]) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256((prev_hash + "\n" + canonical).encode("utf-8")).hexdigest()


def chain_entry(prev_hash: str, body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with ``prev_hash`` and ``hash``: sha256 over the previous entry's hash and this
    entry's canonical JSON, so changing, removing or reordering any entry breaks every later
    hash. Both backends store entries this way."""
    return {**body, "prev_hash": prev_hash, "hash": _entry_digest(prev_hash, body)}


def verify_audit_chain(entries: Any) -> dict[str, Any]:
    """Walk entries in ``seq`` order (as ``list_audit`` returns them, with ``seq``) and check
    every link. Entries written before the chain existed (no ``hash``) are counted as
    ``unchained`` and may only come first. Returns ``{"ok", "checked", "unchained", "broken_at",
    "reason"}`` and, when intact, ``head``: the last hash. Someone able to rewrite the whole file
    can rebuild a consistent chain, so record the head elsewhere to anchor it."""
    previous = ""
    checked = unchained = 0
    chained = False
    for entry in entries:
        seq = entry.get("seq")
        if "hash" not in entry:
            if chained:
                return {"ok": False, "checked": checked, "unchained": unchained,
                        "broken_at": seq, "reason": "entry without a hash inside the chain"}
            unchained += 1
            continue
        chained = True
        body = {k: v for k, v in entry.items() if k not in (*CHAIN_FIELDS, "seq")}
        if entry.get("prev_hash") != previous:
            return {"ok": False, "checked": checked, "unchained": unchained, "broken_at": seq,
                    "reason": "prev_hash does not match the previous entry (removed or reordered)"}
        if _entry_digest(previous, body) != entry["hash"]:
            return {"ok": False, "checked": checked, "unchained": unchained, "broken_at": seq,
                    "reason": "hash does not match the entry (changed after it was written)"}
        previous = entry["hash"]
        checked += 1
    return {"ok": True, "checked": checked, "unchained": unchained, "broken_at": None, "reason": None,
            "head": previous}
