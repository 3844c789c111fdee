"""A bound party's name as its party clause writes it, read at a wider boundary.

The extraction binds a party by the name it read ("U.S. Bank National Association"); the
contract's party clause may write more around that very name ("U.S. Bank National Association
ND, Fargo, North Dakota, d/b/a Elan Financial Services", "Siemens AG Healthcare Sector,
Components & Vacuum Technology"). A question that names the party as the clause writes it is
naming that bound party. So a question's name is accounted for when, in a recorded party clause
(``attributes.party_clauses``, the agreement's own text), it is written verbatim (case, spacing
and quote style aside) over the whole of a bound party's name, at the place the ``party_to``
binding cites, reaching at most a few words past it (before it, only its article "The") and
over no other bound party's name, and the words it adds are no list, address, signature word or
place (``written_around``; the bounds are data, ``written_name`` in question_patterns.json).

Never a shorter reading (a name inside a bound name, "Exxon Corporation" of "Exxon Company,
U.S.A. (a division of Exxon Corporation)", may be a parent) and never a name elsewhere in the
clause: a reader of any name in the clauses was measured and removed (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ingest.names import ends_in_legal_suffix, party_name_problem
from ingest.normalize import normalise_jurisdiction
from ingest.text import straighten_quotes
from service.evidence.data import question_patterns

# A question's name never runs over a paragraph break or a semicolon: the clause's next entry.
_ENTRY_BREAK = re.compile(r"\n[ \t]*\n|;")
_LOWER_WORD = re.compile(r"(?<![\w./])[a-z][\w./]*")
_LIST_JOINT = re.compile(r"\s(?:and|AND|And)\s")


@dataclass(frozen=True, slots=True)
class _Reach:
    before: int  # characters a wider name may reach before the bound name (its article "The")
    after: int  # and past it (a trade name, a unit, a place: "..., d/b/a Elan Financial Services")
    joiners: frozenset[str]  # the only lower-case words it may add
    stop_words: frozenset[str]  # words it never adds, in any case ("By", "with", "Attn")


@lru_cache(maxsize=1)
def _reach() -> _Reach:
    raw = question_patterns()["written_name"]
    return _Reach(
        int(raw["before"]), int(raw["after"]),
        frozenset(w.casefold() for w in raw["joiners"]), frozenset(w.casefold() for w in raw["stop_words"]),
    )


@dataclass(frozen=True, slots=True)
class WrittenName:
    """A bound party's name where a party clause writes it: the clause's text (quotes
    straightened, the same length) and the name's span in it, with the other bound names' spans
    in the same clause (a wider reading may cover none of them)."""

    clause: str
    start: int
    end: int
    others: tuple[tuple[int, int], ...]


def written_names(
    clauses: object, bound: Sequence[tuple[int, int, Iterable[str]]]
) -> tuple[WrittenName, ...]:
    """The bound names found in the recorded ``clauses`` (``attributes.party_clauses``: dicts
    with ``char_start``, ``char_end`` and ``text``). ``bound``: per ``party_to`` binding of this
    agreement's document, its start offset, end offset and the party's spellings; a binding is
    used only when one of the spellings is written at its start (else it cites something else)."""
    if not isinstance(clauses, list):
        return ()
    found: list[tuple[int, int, int]] = []  # (clause index, start, end) in that clause
    texts: list[str] = []
    for clause in clauses:
        ok = isinstance(clause, Mapping) and all(isinstance(clause.get(k), int) for k in ("char_start", "char_end"))
        texts.append(straighten_quotes(clause["text"]) if ok and isinstance(clause.get("text"), str) else "")
    for start, _end, spellings in bound:
        for index, clause in enumerate(clauses):
            text = texts[index]
            if not text or not isinstance(clause, Mapping):
                continue
            offset = start - clause["char_start"]
            if not 0 <= offset < len(text):
                continue
            end = _spelling_end(text, offset, spellings)
            if end is not None:
                found.append((index, offset, end))
    return tuple(
        WrittenName(
            texts[index], start, end,
            tuple(sorted((s, e) for i, s, e in found if i == index and (s, e) != (start, end))),
        )
        for index, start, end in sorted(set(found))
    )


def _spelling_end(text: str, offset: int, spellings: Iterable[str]) -> int | None:
    """Where the longest of ``spellings`` written at ``offset`` ends, or None."""
    ends = [m.end() for name in spellings if name.strip() and (m := _verbatim(name).match(text, offset)) is not None]
    return max(ends) if ends else None


@lru_cache(maxsize=4096)
def _verbatim(name: str) -> re.Pattern[str]:
    """``name`` as whole words, any run of whitespace between them, case and quote style aside."""
    words = straighten_quotes(name).split()
    return re.compile(r"(?<!\w)" + r"\s+".join(re.escape(w) for w in words) + r"(?!\w)", re.IGNORECASE)


def written_around(name: str, written: Sequence[WrittenName]) -> bool:
    """Whether ``name`` is written, in one of the clauses, over the whole of a bound party's name
    and wider than it (``WrittenName``), within the reach bounds and over no other bound name."""
    if not name.strip() or not written:
        return False
    pattern = _verbatim(name)
    reach = _reach()
    for slot in written:
        low = max(0, slot.start - reach.before)
        high = min(len(slot.clause), slot.end + reach.after)
        for match in pattern.finditer(slot.clause, low, high):
            if match.start() > slot.start or match.end() < slot.end:
                continue
            if (match.start(), match.end()) == (slot.start, slot.end):
                continue  # the bound name itself: the registry's own match decides
            if _ENTRY_BREAK.search(slot.clause, match.start(), match.end()):
                continue
            if any(match.start() < e and s < match.end() for s, e in slot.others):
                continue
            # (", an Ohio limited liability company, a subsidiary of Orvelle Group, Inc.": a
            # description or a parent after the name is none of its words.)
            before, after = slot.clause[match.start() : slot.start], slot.clause[slot.end : match.end()]
            if any(w.group().casefold() not in reach.joiners for w in _LOWER_WORD.finditer(f"{before} {after}")):
                continue
            # ("located in Santa Monica, California and Unilab Corporation ("Unilab")": words joined
            # to a bound name by "and" are a list or a place, never the name's own: a name the
            # question lists beside a bound one must be bound itself.)
            if _LIST_JOINT.search(f" {before} {after} "):
                continue
            # (Before the name only its article: "Authorized Signatory DANIEL ROE", "A Seminole
            # Indian Company" are a signatory's title and a description.)
            if before.strip() not in ("", "The", "THE"):
                continue
            # ("Uniquest Corporation 780 Montague Expressway", "BLACKSTONE GP L.P. By", "KALLO Inc.
            # With", "Beijing CC-Pharming Ltd. of Beijing": an address, a signature's or a
            # sentence's next word, the place after a complete name.)
            words = {w.casefold() for w in re.findall(r"[^\W\d_]+", after)}
            if any(c.isdigit() for c in after) or words & reach.stop_words:
                continue
            if ends_in_legal_suffix(slot.clause[slot.start : slot.end]) and re.match(r"\s+(?i:of)\s", after):
                continue
            # ("Austin, Texas", "Acme A/S, Denmark": a place after the name is where it is, never
            # more of its name; a city read as a party stays that city alone.)
            if after.strip() and normalise_jurisdiction(after.strip(" \t\n,")):
                continue
            if party_name_problem(" ".join(slot.clause[match.start() : match.end()].split())) is not None:
                continue
            return True
    return False


def binding_spans(party_bindings: Iterable[tuple[Any, Any]], doc_id: str | None) -> list[tuple[int, int, list[str]]]:
    """(start, end, the party's spellings) of each ``party_to`` binding in ``doc_id``."""
    return [
        (binding.char_start, binding.char_end, [party.name, *party.aliases])
        for party, binding in party_bindings
        if doc_id is not None and binding.doc_id == doc_id
    ]
