"""A party name read in a party clause (``ingest.party_clauses``) exactly: the gate's binding by
the agreement's own text. ``find_party`` returns the slot a name fills, or None.

The slot's normalised form (``normalise_org``/``normalise_person``, as the registry) must equal
the name's: exact, never fuzzy. A party slot, in a preamble or Parties section:
  * starts at the clause start, or right after "between"/"among", "by" (not "represented by",
    "owned by", ...: ``by_refused_after``), a list "; " / ", and" / "), and", an enumerator
    "(1)" / "2." after one of those, a bare "and" whose left neighbour is itself a name ("Bank of
    America and Acme"), or a "," whose left neighbour is a name or a definition's ")" (then the
    slot must end in a legal form or be followed by a definition or ", a ..." description);
  * ends at the clause end, ",", "(", ")", ";", "and", a line break, a sentence's ".", or its own
    legal form;
  * reads as a name: every word capitalised, a number, dotted ("e.l.f."), a legal form or a
    joiner ("of", "&", "dba"); no quotes;
  * is never a place (a known jurisdiction), never inside an address (a neighbour with a number
    and a street word, or followed by ", <state>" / a postal code), never after "of", "at", "in",
    "a"/"an", "c/o" (so never "a subsidiary of X", "on behalf of X", "under the laws of X").
In a signature block a slot is a whole line (or a cell of a two-column line) that the next
non-empty line signs with "By": the company a signatory signs for, never the signatory's own
"Name:"/"Title:" lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ingest.lexicons import lexicons
from ingest.names import party_name_problem
from ingest.normalize import normalise_jurisdiction, normalise_org, normalise_person
from ingest.party_clauses import PARTIES_SECTION, PREAMBLE, SIGNATURE_BLOCK
from service.evidence.data import load

MAX_NAME_CHARS = 200


@dataclass(frozen=True, slots=True)
class ClauseName:
    """A party name read in a party clause: the slot's document offsets and its clause."""

    source: str
    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class _Data:
    line_labels: frozenset[str]
    joiners: frozenset[str]
    by_refused_after: frozenset[str]
    address_words: frozenset[str]


@lru_cache(maxsize=1)
def _data() -> _Data:
    raw = load("party_slots.json")
    return _Data(
        line_labels=frozenset(raw["signature_line_labels"]),
        joiners=frozenset(raw["name_joiners"]),
        by_refused_after=frozenset(raw["by_refused_after"]),
        address_words=frozenset(raw["address_words"]),
    )


_RUN = re.compile(r"(?:[^\W_]|[.'’`´])+|&")
_DELETED = re.compile(r"[.'’`´]")


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """``name_words`` with offsets: (word, start, end), periods and apostrophes inside a word."""
    out = []
    for m in _RUN.finditer(text):
        word = "and" if m.group() == "&" else _DELETED.sub("", m.group().casefold())
        if word:
            out.append((word, m.start(), m.end()))
    return out


def find_party(clause: dict[str, Any], name: str) -> ClauseName | None:
    """Where ``name`` fills a party slot of ``clause`` (a ``clause_records`` entry), or None.
    Exact: the slot's normalised form equals the name's (org or person normalisation)."""
    text = str(clause.get("text") or "")
    base = int(clause.get("char_start") or 0)
    source = str(clause.get("source") or "")
    if not text or not name.strip() or len(name) > MAX_NAME_CHARS:
        return None
    if source == PREAMBLE and not _opens_a_contract(text):
        return None
    keys = [k for k in dict.fromkeys((normalise_org(name), normalise_person(name))) if k]
    for start, end in _occurrences(text, keys):
        ok = _signature_slot(text, start, end) if source == SIGNATURE_BLOCK else _clause_slot(text, start, end, source)
        if ok:
            return ClauseName(source, base + start, base + end, text[start:end])
    return None


@lru_cache(maxsize=512)
def _token_index(text: str) -> tuple[tuple[tuple[str, int, int], ...], tuple[str, ...], frozenset[str]]:
    """A clause's tokens, words and word set, read once per clause text (a clause is at most a
    few thousand characters, and one gate call may try many names on the same clauses)."""
    tokens = tuple(_tokens(text))
    words = tuple(t[0] for t in tokens)
    return tokens, words, frozenset(words)


def _occurrences(text: str, keys: list[str]) -> list[tuple[int, int]]:
    """Every span of ``text`` whose normalised form is one of ``keys``: the key's words, maybe
    after leading words/honorifics and before legal forms. Longest first, then leftmost."""
    tokens, words_t, vocabulary = _token_index(text)
    if not any(set(key.split()) <= vocabulary for key in keys):
        return []
    words = list(words_t)
    lex = lexicons()
    leading = lex.leading_words | lex.honorifics
    found: set[tuple[int, int]] = set()
    for key in keys:
        wanted = key.split()
        n = len(wanted)
        for i in range(len(words) - n + 1):
            if words[i : i + n] != wanted:
                continue
            starts = [i]
            while starts[-1] > 0 and words[starts[-1] - 1] in leading and len(starts) < 3:
                starts.append(starts[-1] - 1)
            ends = {i + n}
            frontier = [i + n]
            while frontier:
                at = frontier.pop()
                for suffix in lex.strippable_suffixes:
                    if tuple(words[at : at + len(suffix)]) == suffix and at + len(suffix) not in ends:
                        ends.add(at + len(suffix))
                        frontier.append(at + len(suffix))
            for s in starts:
                for e in ends:
                    span = (tokens[s][1], tokens[e - 1][2])
                    slot = text[span[0] : span[1]]
                    if key in (normalise_org(slot), normalise_person(slot)):
                        found.add(span)
    return sorted(found, key=lambda se: (-(se[1] - se[0]), se[0]))


_KEYWORD = re.compile(r"(?i)\b(?:between|among|amongst)\b")
_CONTRACT_WORDS = re.compile(
    r"(?i)\b(?:agreement|contract|amendment|addendum|deed|memorandum|made|entered|dated|executed|concluded|signed)\b"
)


def _opens_a_contract(text: str) -> bool:
    """A preamble says what it makes before its "between" ("This Agreement is made ... between"),
    or the "between" opens it ("between\n\nACME ..."): a "between" in a definition ("between
    SEV and DCL") or in prose is no party clause."""
    keyword = _KEYWORD.search(text)
    if keyword is None:
        return bool(_CONTRACT_WORDS.search(text))
    lead = text[: keyword.start()]
    return not lead.strip() or bool(_CONTRACT_WORDS.search(lead))


# A slot never starts with an article or determiner ("A Seminole Indian Company to be formed", "This
# Agreement") or a clause word ("By"), and is never only a party role
# ("The COMPANY", "Licensee") or a legal form alone ("Ltd.").
_NOT_A_NAME_START = frozenset({"a", "an", "this", "that", "these", "those", "such", "said", "each", "any", "all", "by", "between", "among", "and", "its", "their", "his", "her"})


def _not_a_name(slot: str) -> bool:
    if party_name_problem(slot) is not None:
        return True
    words = [w for w, _, _ in _tokens(slot)]
    if not words or words[0] in _NOT_A_NAME_START:
        return True
    lex = lexicons()
    roles = {r.casefold() for r in lex.party_roles} | set(lex.non_party_terms)
    suffix_words = {w for suffix in lex.strippable_suffixes for w in suffix}
    generic = roles | suffix_words | _data().joiners | lex.leading_words | {"party", "parties", "undersigned"}
    if all(w in generic for w in words) or " ".join(words) in roles:
        return True
    # A group's defined term ("the Nissin Parties", "the Sellers") names no one party.
    if words[-1] in ("party", "parties") or (words[-1].endswith("s") and words[-1][:-1] in roles):
        return True
    key = normalise_org(slot)
    return bool(normalise_jurisdiction(key)) or key in roles


_ENUMERATOR_END = re.compile(r"(?:\(\s*(?:\d{1,2}|[a-zA-Z]|[ivxIVX]{1,4})\s*\)|(?<![\w.])\d{1,2}[.)])\s*$")
_WORD_END = re.compile(r"([\w/]+)\W*$")


# Words that go on with the same party after its legal form: "Inc., d/b/a ...", "Inc. of ...".
_AFTER_FORM = frozenset({"d", "dba", "f", "fka", "formerly", "of", "trading", "doing"})


def _joins_two_names(slot: str) -> bool:
    """A legal form inside the slot followed by "and", "&", "," or ";": "Acme Inc. and Beta LLC"
    are two names, never one party ("Alliance Bancorp, Inc. of Pennsylvania" is one)."""
    tokens = _tokens(slot)
    words = [w for w, _, _ in tokens]
    for i in range(1, len(words)):
        for suffix in lexicons().strippable_suffixes:
            j = i + len(suffix)
            if j < len(words) and tuple(words[i:j]) == suffix:
                between = slot[tokens[j - 1][2] : tokens[j][1]]
                if words[j] == "and" or (re.search(r"[,;]", between) and words[j] not in _AFTER_FORM):
                    return True
    return False


def _clause_slot(text: str, start: int, end: int, source: str) -> bool:
    slot = text[start:end]
    if not _name_like(slot) or _is_place(slot) or _is_address(slot) or _joins_two_names(slot) or _not_a_name(slot):
        return False
    left = _left_boundary(text, start, source)
    if left is None:
        return False
    right_ok, marked = _right_boundary(text, start, end)
    if not right_ok or _address_follows(text, end):
        return False
    if re.match(r"\s*(?:and|AND|And)\b", text[end:]) and not _ends_in_legal_form(slot):
        # "LOUISVILLE GAS and ELECTRIC COMPANY": without its own legal form a name before "and"
        # may be the first half of one name, never taken as a party on its own.
        return False
    # After a bare "," (a list of names, or a city after a company) only a slot that shows it is
    # a party counts: its own legal form, a definition, or a ", a ..." description after it.
    return left != "comma" or marked


def _left_boundary(text: str, start: int, source: str) -> str | None:
    """What opens the slot: "start", "keyword", "list", "and", "comma", or None (no slot)."""
    before = text[:start].rstrip()
    enumerated = _ENUMERATOR_END.search(before)
    if enumerated:
        before = before[: enumerated.start()].rstrip()
    if not before:
        return "start"
    if source == PARTIES_SECTION and enumerated and (before.endswith("\n") or "\n" in text[len(before) : start]):
        return "list"  # "(1) ACME LIMITED ...\n(2) BETA ..." in a Parties section
    if re.search(r"(?i)\b(?:between|among|amongst)\s*:?$", before):
        return "keyword"
    if re.search(r"(?i)\bby$", before):
        previous = _WORD_END.search(before[:-2])
        if previous is not None and previous.group(1).casefold() in _data().by_refused_after:
            return None
        if previous is not None and previous.group(1).casefold() == "and":
            return None  # "by and between" reads on to "between"
        return "keyword"
    if before.endswith(";"):
        return "list"
    if re.search(r"\bParty\s+(?:[A-Z]|\d{1,2}|One|Two|Three)\s*:$", before):
        return "list"  # "Party A: JingWei ... Co., Ltd."
    joined = re.search(r"(?i)\band\s*:?$", before)  # "and", or "AND:" in a laid-out preamble
    if joined:
        prior = before[: joined.start()].rstrip()
        # ", and" / "; and" / "), and", or after a definition closed by its quote
        # ('hereinafter referred to as "Licensor" and PLAN_B MEDIA AG').
        if not prior or prior[-1] in ",;)\"”":
            return "list"
        # A bare "and" follows a whole party only when that party ends in its legal form ("Acme
        # Inc. and Beta"); "LOUISVILLE GAS AND ELECTRIC COMPANY" is one name.
        return "and" if _left_element_is_name(prior) and _ends_in_legal_form(prior) else None
    if before.endswith(","):
        # A list of names ("among Alpha Inc., Beta LLC, ..."): the item before is a whole party,
        # ending in its legal form or its definition's ")"; "Stratton, Cheeseman ..." is one name.
        prior = before[:-1].rstrip()
        if prior.endswith(")"):
            return "comma"
        return "comma" if _left_element_is_name(prior) and _ends_in_legal_form(prior) else None
    return None


_ELEMENT_BREAK = re.compile(r"(?i)[,;()\n]|\b(?:between|among|by)\b")


def _left_element_is_name(prior: str) -> bool:
    """Whether the words before a bare "and"/"," (back to the last list mark) are a name
    themselves: "Bank of America and ...", not "the laws of Delaware and ..."."""
    breaks = list(_ELEMENT_BREAK.finditer(prior))
    element = prior[breaks[-1].end() :] if breaks else prior
    # "Stratton, Cheeseman & ..." and "Acme, Inc." have commas inside: the element may end in a
    # legal form; then the element before the form's comma is the name.
    element = element.strip()
    if not element:
        return False
    return _name_like(element) and not _is_place(element) and not _is_address(element)


def _right_boundary(text: str, start: int, end: int) -> tuple[bool, bool]:
    """(whether the slot may end here, whether what follows marks it as a party)."""
    after = text[end:]
    rest = after.lstrip(" \t")
    legal = _ends_in_legal_form(text[start:end])
    marked = legal or bool(
        re.match(r"\s*\(\s*(?:[\"“”']|the\b|hereinafter|herein|each\b|together\b)", after, re.I)
        or re.match(r"\s*,\s*(?:a|an)\s", after)
    )
    if legal:
        return not re.match(r"[\w&]", after), marked
    if not rest or rest[0] in ",();\n\"“":
        return True, marked
    if text[end - 1] == "." and (not after or after[0].isspace()):
        return True, marked
    if re.match(r"(?i)and\b", rest):
        return True, marked
    return False, marked


def _ends_in_legal_form(slot: str) -> bool:
    words = tuple(w for w, _, _ in _tokens(slot))
    return any(len(words) > len(s) and words[-len(s) :] == s for s in lexicons().strippable_suffixes)


def _name_like(span: str) -> bool:
    """Every word capitalised, a number, dotted, a legal form or a joiner; no quotes."""
    if re.search(r"[\"“”]", span):
        return False
    data = _data()
    named = False
    for raw in span.split():
        word = raw.strip(",;:()[]'’")
        if not word or word in ("&", "/", "-", "–"):
            continue
        folded = word.casefold().rstrip(".")
        if folded in data.joiners:
            continue
        if any(c.isupper() or c.isdigit() for c in word) or re.search(r"\w\.\w", word):
            named = True
            continue
        if tuple(w for w, _, _ in _tokens(word)) in set(lexicons().strippable_suffixes):
            continue
        return False
    return named


def _is_place(span: str) -> bool:
    return bool(normalise_jurisdiction(span))


def _is_address(span: str) -> bool:
    words = {w for w, _, _ in _tokens(span)}
    has_number = any(c.isdigit() for c in span)
    return has_number and bool(words & _data().address_words)


def _address_follows(text: str, end: int) -> bool:
    """", Illinois 62701", ", IL", ", 10017", ", Germany" right after the slot: a place in an
    address, not a party."""
    m = re.match(r"[ \t]*,[ \t]*([^,;()\n]{1,40})", text[end:])
    if m is None:
        return False
    nxt = m.group(1).strip()
    bare = re.sub(r"\s*\d[\d\s-]*$", "", nxt).strip()
    return bool(
        re.fullmatch(r"[A-Z]{2}(?:\s+\d{5}(?:-\d{4})?)?", nxt)
        or re.fullmatch(r"\d{4,}(?:-\d{4})?", nxt)
        or (bare and _is_place(bare))
    )


def _signature_slot(text: str, start: int, end: int) -> bool:
    """A whole line, or a cell of a line split by 2+ spaces/tabs, that the next non-empty line
    signs ("By:"); never a labelled line ("Name: ...")."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    line = text[line_start:line_end]
    cells = [(m.start() + line_start, m.end() + line_start) for m in re.finditer(r"\S+(?:[ ]\S+)*", line)]
    cell = next(((s, e) for s, e in cells if s <= start and end <= e), None)
    if cell is None:
        return False
    cell_text = text[cell[0] : cell[1]]
    slot = text[start:end]
    first = re.match(r"[\w/-]+", cell_text)
    if first is None or first.group().casefold() in _data().line_labels:
        return False
    if not _name_like(cell_text.rstrip(":")) or _is_place(slot) or _is_address(slot) or _joins_two_names(slot):
        return False
    if _not_a_name(slot):
        return False
    # The slot is the whole cell, or one of names set side by side on it, each closed by its
    # legal form ("Vayyar Imaging Ltd. IndeLiving Holdings, Inc.").
    head = text[cell[0] : start].strip()
    tail = text[end : cell[1]].strip().rstrip(":")
    if head and (not _ends_in_legal_form(head) or head.endswith(",")):
        return False
    if tail and not (_ends_in_legal_form(slot) and tail[0] not in ",(" ):
        return False
    # A company signing for another ("By: its General Partner\nACME MANAGEMENT LLC\nBy: ..."):
    # the line before it signs or names a capacity, so it is an agent, not the party.
    previous = [ln.strip() for ln in text[:line_start].split("\n") if ln.strip()]
    if previous and (
        re.match(r"(?i)by\b", previous[-1])
        or re.search(r"(?i)\b(?:general partner|manager|agent|attorney|trustee|on behalf of|for and on behalf)\b", previous[-1])
    ):
        return False
    following = text[line_end:].lstrip("\n")
    for nxt in following.split("\n")[:4]:
        stripped = nxt.strip()
        if not stripped or re.fullmatch(r"[_\s-]+", stripped):
            continue
        return bool(re.match(r"(?i)by\b", stripped))
    return False
