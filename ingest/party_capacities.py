"""Parties named with the capacity they hold: the "<name>, as <role>" construction of a party list.

Credit, facility, indenture, guarantee and escrow agreements name each party with its role, in a
preamble ("among ACME HOLDINGS, INC., as Borrower, the Lenders party hereto, and BANK OF XANADU,
N.A., as Administrative Agent") or stacked on the cover, one entry per line ("CORVID BANK, N.A.,\\nas
Syndication Agent"), several names sharing one role ("A BANK,\\nB BANK\\nand\\nC BANK,\\nas
Co-Documentation Agents"). The role after "as" says that the name before it is a party, so the
name needs no legal form ("HARBOR NATIONAL BANK"); a class of parties ("THE LENDERS PARTY HERETO")
is no name and ends the entry. Cue words are data (``ner_models/party_capacities.json``).

Where: inside the party windows (``definitions.preamble_windows``), and on a cover page before the
first of them, where an entry must start its line (a run-on heading "... AMONG THE COMPANY AS
BORROWER, SMBC AS LENDERS" is a filing's caption, not a list).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ingest.agreements import find_title
from ingest.lexicons import load_json
from ingest.names import (
    NameSpan,
    after_non_party_lead,
    ends_in_legal_suffix,
    has_legal_suffix,
    name_at,
    party_name_problem,
    without_legal_form,
)
from ingest.text import name_words

# A cover page's list ends at the contents page or the first article.
_COVER_END = re.compile(r"(?im)^[ \t]*(?:TABLE[ \t]+OF[ \t]+CONTENTS|ARTICLE[ \t]+(?:I|1)\b|SECTION[ \t]+1\b)")
_COVER_CHARS = 4_000
_HEADER_CHARS = 200
_SENTENCE_STOP = re.compile(r"\.[ \t]+(?=[A-Z])")
_CLAUSE_KEYWORD = re.compile(r"(?i:between|among)\b")
# Entries read per party list, and names per entry (names sharing one role).
_CUES_LIMIT = 40
_GROUP_LIMIT = 12

_ROLE_WORD = r"[A-Z][\w\-/]*"
_ROLE_JOIN = r"(?:(?:and|AND|&|of|OF|for|FOR|an?|the)[ \t]+)"
# "as", an article, then capitalised role words on the line (one break before a last word alone:
# "as Co-Documentation\nAgents").
_ROLE_CUE = re.compile(
    rf"(?<![\w])(?:as|AS|As)[ \t\n]+(?:(?:the|an?|THE|AN?)[ \t]+)?"
    rf"(?P<role>{_ROLE_WORD}(?:[ \t]+{_ROLE_JOIN}?{_ROLE_WORD}){{0,8}}(?:[ \t]*\n[ \t]*{_ROLE_WORD}(?=[ \t]*(?:[,.;]|\n|$)))?)"
)
# What stands between a name and its "as": a comma, a line break, "acting", "but solely" (after
# "not in its individual capacity").
# (A line in another script between them is the name written again: "VOYAGO GROUP LIMITED\n
# 沃亞集團有限公司\nas Borrower".)
# ("MIDLAND BANK, a federally chartered savings association, as Administrative Agent": the name's
# description, an article and lower-case words (a jurisdiction may stand among them), comes first.)
_BEFORE_CUE = re.compile(
    r"(?:[ \t]*,[ \t\n]*(?:a|an)[ \t\n]+(?:[\w.\-]+[ \t\n]+){0,7}[a-z][\w\-]*(?=[ \t]*,))?"
    r"[ \t]*,?[ \t\n]*(?:[^\x00-\x7f\n]+[ \t]*\n[ \t\n]*)?(?:(?:but|BUT|But)[ \t]+)?(?:(?:acting|ACTING|Acting|solely|SOLELY|Solely)[ \t]+)?\Z"
)
# Where a list entry may start: a line, or after a comma, "and", "among"/"between" or "(b)".
_ENTRY_START = re.compile(
    r"\n[ \t]*|,[ \t]+|(?<![\w])(?:19|20)\d{2}[ \t]+|(?<![\w])(?:and|AND|among|AMONG|Among|between|BETWEEN|Between)[ \t\n]+|\([a-z0-9]{1,3}\)[ \t]+"
)
_BRANCH_AFTER_FORM = re.compile(r"[ \t]+(?:[A-Z][\w\-]*[ \t]+){1,4}([A-Z][\w\-]*)")
_YEAR = re.compile(r"(?<![\w(])(?:19|20)\d{2}(?![\w)])")
# Names sharing one role: "A,\nB\nand\nC," (at most two blank lines between them).
# (A name written again in another script after it on its line, "BANK OF X (CHINA) LIMITED
# SHANGHAI BRANCH 某某銀行上海分行", is the same entry.)
_GROUP_SEPARATOR = re.compile(
    r"(?:[ \t]+[^\x00-\x7f\s][^\n]*)?"
    r"(?:[ \t]*,)?[ \t]*(?:\n[ \t]*){0,3}(?:(?:and|AND|&)[ \t]+|(?:and|AND|&)[ \t]*(?:\n[ \t]*){1,3})?\Z"
)


@dataclass(frozen=True, slots=True)
class _Cues:
    role_heads: frozenset[str]
    class_words: frozenset[str]
    branch_words: frozenset[str]
    cover_only_heads: frozenset[str]
    credit_heading: re.Pattern[str]


@lru_cache(maxsize=1)
def _cues() -> _Cues:
    data = load_json("party_capacities.json")
    return _Cues(
        role_heads=frozenset(data["role_heads"]),
        class_words=frozenset(data["class_words"]),
        branch_words=frozenset(data["branch_words"]),
        cover_only_heads=frozenset(data["cover_only_heads"]),
        # "ARRANGED BY", "Structured and Arranged by:" alone on a line.
        credit_heading=re.compile(
            r"(?im)^[ \t]*(?:(?:jointly|solely)[ \t]+)?(?:{verbs})(?:[ \t]+(?:and|&)[ \t]+(?:{verbs}))?[ \t]+by[ \t]*:?[ \t]*$".format(
                verbs="|".join(re.escape(v) for v in sorted(data["credit_heading_verbs"], key=lambda v: (-len(v), v)))
            )
        ),
    )


def _role_heads(role: re.Match[str]) -> list[tuple[str, int]]:
    """The role words of a role phrase ("Administrative Agent and Collateral Agent": agent, agent),
    singular, each with where it ends; none for "as Amended", "AS OF"."""
    heads = _cues().role_heads
    found = []
    for word in re.finditer(r"[\w\-/]+", role.group("role")):
        folded = word.group().casefold()
        singular = folded[:-1] if folded.endswith("s") and folded[:-1] in heads else folded
        if singular in heads:
            found.append((singular, role.start("role") + word.end()))
    return found


def continues_role_list(text: str, name: NameSpan) -> bool:
    """Whether ``name`` is the last role of a role list that an "and" joins ("as Administrative
    Agent, Swing Line Lender and L/C Issuer"): its last word is a role head, and a role head and
    "and" stand right before it on its line."""
    last = re.findall(r"[\w\-/]+", name.text)
    heads = _cues().role_heads
    if not last or last[-1].casefold().rstrip("s") not in heads or last[-1].casefold() == "bank":
        return False
    before = text[max(0, name.start - 40) : name.start]
    joined = re.search(r"([\w\-/]+)[ \t]+(?:and|AND|&)[ \t]+\Z", before)
    return joined is not None and joined.group(1).casefold().rstrip("s") in heads


# What follows a class of parties written like a name: "THE FINANCIAL INSTITUTIONS listed in Part
# II of Schedule 1", "THE BANKS named herein", "the Lenders party hereto from time to time".
_CLASS_CONTINUATION = re.compile(
    r"[ \t\n]+(?:listed|named|identified|set[ \t\n]+forth|described|referred|party|parties|from[ \t\n]+time|"
    r"signator(?:y|ies)|(?:that|which|who)[ \t\n]+(?:are|is|become|becomes|may))\b",
    re.I,
)


def names_a_class(text: str, name: NameSpan) -> bool:
    """Whether ``name`` is a class of parties written like a name, no party: without a legal form,
    it ends in a plural class word ("institutions", "lenders") and words that point to where the
    members are listed follow it ("THE FINANCIAL INSTITUTIONS listed in Part II of Schedule 1")."""
    words = name_words(name.text)
    if not words or has_legal_suffix(name.text):
        return False
    last = words[-1]
    return last.endswith("s") and last in _cues().class_words and _CLASS_CONTINUATION.match(text, name.end) is not None


def overread(name: str) -> bool:
    """Whether a name read elsewhere runs over two list entries or a class of parties ("THE
    LENDERS NAMED HEREIN, ORLO BANK AG", "MERIN CAPITAL,\nORLO SECURITIES (USA)
    LLC"): an entry's capacity name inside it is read instead."""
    return bool(set(name_words(name)) & _cues().class_words) or re.search(r",[ \t]*\n", name) is not None


def _acceptable(text: str, name: NameSpan, common_words: frozenset[str]) -> bool:
    words = name_words(name.text)
    if not words or overread(name.text):
        return False
    # "SOLE LEAD ARRANGER AND\nSOLE BOOKRUNNER": the rest of a role phrase, not a name ("FIRST
    # UNION NATIONAL BANK" is one).
    last = words[-1]
    if last != "bank" and (last in _cues().role_heads or (last.endswith("s") and last[:-1] in _cues().role_heads)):
        return False
    # "N.A., NORDVIK BANK ASA", "S. DE R.L. DE C.V. AND ...": a legal form ends a name, never opens one.
    first = re.split(r"[ \t\n]+", name.text, maxsplit=1)[0].rstrip(",")
    if has_legal_suffix(first) or re.match(r"(?:S|s)\.[ \t]+(?:de|DE|A)\b", name.text):
        return False
    # "March 2, 2009\nORLO BANK ...", "1998 First Calder ...": a date's year before the
    # entry, on the line above or run into it.
    if _YEAR.search(name.text):
        return False
    # "ALBA MEXICO, S. DE R.L. DE C.V. AND ZENTRA ..., S. DE R.L. DE C.V.": two names with forms.
    joined = re.search(r"[ \t\n](?:and|AND)[ \t\n]", name.text)
    if joined is not None and ends_in_legal_suffix(name.text[: joined.start()].rstrip(" ,")):
        return False
    # "HARBOR TRUST BANK and CORVID USA, INC.": a shouted name writes its own "AND"; a
    # lower-case "and" between shouted words joins two names.
    letters = re.sub(r"\band\b", "", name.text)
    if re.search(r"\sand\s", name.text) and letters.upper() == letters:
        return False
    if after_non_party_lead(text, name.start):
        return False
    return party_name_problem(name.text, common_words) is None


def _bare_legal_form(name: str) -> bool:
    """Whether ``name`` is a legal form alone ("N. A.", "Inc.", "L. L. C."), its spaced initials
    read together."""
    joined = re.sub(r"(?<=\b[A-Z])\.[ \t]+(?=[A-Z]\.)", ".", name.strip())
    probe = f"Quill {joined}"
    return ends_in_legal_suffix(probe) and without_legal_form(probe).strip(" ,.") == "Quill"


def _entry_name(
    text: str, floor: int, end: int, common_words: frozenset[str], *, line_start: bool
) -> NameSpan | None:
    """The longest name that ends exactly at ``end`` and starts where a list entry may start
    (after ``floor``); a branch named after its bank ("KESSEL AG, STAMFORD BRANCH") is one name."""
    starts = [floor, *(m.end() for m in _ENTRY_START.finditer(text, floor, end))]
    for start in sorted(set(starts)):
        if line_start and text[text.rfind("\n", 0, start) + 1 : start].strip():
            continue
        name = name_at(text, start, end)
        # "KESSEL BANK AG NEW YORK BRANCH": a branch's place after its bank's legal form.
        if name is not None and name.end < end and has_legal_suffix(name.text):
            branch = _BRANCH_AFTER_FORM.fullmatch(text, name.end, end)
            if branch is not None and branch.group(1).casefold() in _cues().branch_words:
                name = NameSpan(text[name.start : end], name.start, end)
        if name is None or name.end != end or not _acceptable(text, name, common_words):
            continue
        # ("The Bank of New York Mellon Trust Company,\n\nN. A., as Trustee": a legal form alone
        # on the entry's line closes the name on the line above, after its comma.)
        if _bare_legal_form(name.text):
            comma = re.search(r",[ \t]*\n[ \t\n]*\Z", text[floor : name.start])
            company = _entry_name(text, floor, floor + comma.start(), common_words, line_start=line_start) if comma else None
            return NameSpan(text[company.start : name.end], company.start, name.end) if company is not None else None
        last = name_words(name.text)[-1]
        # The branch may stand on the line below its bank's ("... BANK OF CHINA,\nHONG KONG BRANCH").
        comma = re.search(r",(?:[ \t]+|[ \t]*\n[ \t]*)\Z", text[floor : name.start])
        if last in _cues().branch_words and comma is not None:
            bank = _entry_name(text, floor, floor + comma.start(), common_words, line_start=line_start)
            if bank is not None:
                return NameSpan(text[bank.start : name.end], bank.start, name.end)
        return name
    return None


@dataclass(frozen=True, slots=True)
class Capacities:
    """What a party list states with capacities: the names, and the role phrases after "as"
    (a name read inside one, "Collateral Agent" of "as Administrative Agent and Collateral Agent",
    is no party)."""

    names: list[NameSpan]
    roles: list[tuple[int, int]]

    def in_role(self, name: NameSpan) -> bool:
        return any(start <= name.start and name.end <= end for start, end in self.roles)


def _region_names(
    text: str,
    start: int,
    end: int,
    common_words: frozenset[str],
    roles: list[tuple[int, int]],
    *,
    line_start: bool,
    title_start: int = 0,
) -> list[NameSpan]:
    names: list[NameSpan] = []
    floor = start
    for count, cue in enumerate(_ROLE_CUE.finditer(text, start, end)):
        if count >= _CUES_LIMIT:
            break
        heads = _role_heads(cue)
        if not heads:
            continue
        role_end = heads[-1][1]
        roles.append((cue.start("role"), role_end))
        # "TALLOW SECURITIES INC., as Lead Arranger and Book Manager" under the cover's title, above
        # the party clause: the firm arranged the deal; the contract's own list would name it if it
        # were a party. (A cover that lists the parties above the title, "Dated ...\nA LIMITED\nas
        # Borrower\n...\nFACILITY AGREEMENT", is the party list itself, arrangers included.)
        if line_start and cue.start() > title_start and all(head in _cues().cover_only_heads for head, _ in heads):
            floor = role_end
            continue
        before = _BEFORE_CUE.search(text, floor, cue.start())
        name_end = before.start() if before is not None else cue.start()
        group: list[NameSpan] = []
        while len(group) < _GROUP_LIMIT and name_end > floor:
            name = _entry_name(text, floor, name_end, common_words, line_start=line_start)
            if name is None:
                break
            group.append(name)
            separator = _GROUP_SEPARATOR.search(text, floor, name.start)
            if separator is None or not re.search(r"[,\n]|and|AND|&", separator.group()):
                break
            name_end = separator.start()
        names.extend(reversed(group))
        floor = role_end
    return names


def _sentence_end(text: str, start: int, end: int) -> int:
    """Where the party clause's sentence ends: a later sentence may cite another agreement and its
    trustee ("... under the Indenture with X Bank, as Trustee"). "N.A." and "Inc." end none."""
    for stop in _SENTENCE_STOP.finditer(text, start, end):
        if re.search(r"(?:\b\w{1,4}|\.\w+)\Z", text[start : stop.start()]):
            continue
        return stop.start()
    return end


def capacity_names(
    text: str, windows: Sequence[tuple[int, int]], common_words: frozenset[str] = frozenset()
) -> list[NameSpan]:
    """Every name a party list states with its capacity ("X, as Administrative Agent"), in text order."""
    return read_capacities(text, windows, common_words).names


def read_capacities(
    text: str, windows: Sequence[tuple[int, int]], common_words: frozenset[str] = frozenset()
) -> Capacities:
    """The names a party list states with their capacities and the role phrases, in the party
    clauses of ``windows`` (their first sentence) and on the cover page before the first of them."""
    # (The opening pages stand in for a party clause when no "between"/"among" opens one early:
    # those are read as a cover, entry by line.)
    clauses = [(s, e) for s, e in windows if _CLAUSE_KEYWORD.match(text, s)]
    cover_end = min(len(text), clauses[0][0] if clauses else _COVER_CHARS, _COVER_CHARS)
    regions: list[tuple[int, int, bool]] = [(0, cover_end, True)] if cover_end > 0 else []
    regions.extend((s, _sentence_end(text, s, e), False) for s, e in clauses)
    title = find_title(text) if regions and regions[0][2] else None
    title_start = title.start if title is not None else 0
    found: dict[tuple[int, int], NameSpan] = {}
    roles: list[tuple[int, int]] = []
    for start, end, line_start in regions:
        # (A filing's running header "Table of Contents" above the cover ends nothing.)
        contents = _COVER_END.search(text, min(end, start + _HEADER_CHARS), end)
        end = contents.start() if contents is not None else end
        # "ARRANGED BY" under a cover's party list: the firms below it are credited for arranging
        # the deal, not listed as its parties (the party clause names them if they are).
        credit = _cues().credit_heading.search(text, start, end)
        end = credit.start() if credit is not None else end
        for name in _region_names(text, start, end, common_words, roles, line_start=line_start, title_start=title_start):
            found.setdefault((name.start, name.end), name)
    return Capacities([found[key] for key in sorted(found)], sorted(set(roles)))
