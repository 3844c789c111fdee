"""Who signs under whom in a signature block (issue 9: parties named only where they sign).

A signature block pairs heads with signatures. A head is a line filled by a company's name
("ACME HOLDINGS, INC.") or by a party's role label ("EMPLOYEE:", "Consultant"); a signature is a
"By:" line (an officer signing for the head above) or a "/s/ Jane Roe" line (a person signing).
Stacked blocks write head, signature, head, signature; side-by-side columns flattened by a page
converter write the heads of one row first and their signatures after ("ACME INC. | EMPLOYEE"
over "/s/ Bo Chen | /s/ Jane Roe"). Both read right when heads and signatures are paired in
order, first come first served, each head within ``_HEAD_REACH_LINES`` lines of its signature.

What the pairing says: a company head that is signed for is a party; a "/s/" signer paired with
a company head signs for it and is no party; a "/s/" right under a "By:" signs for someone too.
Lines keep their table bars ("|By:", "|/s/ Jane Roe"): the bars are layout, not text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ingest.lexicons import load_json
from ingest.names import NameSpan, ends_in_legal_suffix, name_at

# Bounds: lines walked from the signature start; how many lines above a signature its head may
# stand (a flattened row of columns puts a few cells between them); how many short lines above
# the first signature mark a block without any lead may start.
_WALK_LINES = 400
_HEAD_REACH_LINES = 8
_LOOKBACK_LINES = 4
# A line above the first signature mark that is this long or longer is prose, not a head.
_HEAD_LINE_CHARS = 60
# Only a short paper (an acknowledgement, a short amendment: its parties may appear only where it
# signs) is read by the pairing and the unled block start. A full contract names its parties in
# its party clause; there the two added only false parties on CUAD tune half B (2, recall
# unchanged).
SHORT_PAPER_CHARS = 6_000

_BARS = " \t|│"
_BY = re.compile(r"(?i)by[ \t]*:")
_SLASH_S = re.compile(r"/s/[ \t]*")
# A signature mark opening a line: where a block without a lead starts.
_MARK_LINE = re.compile(r"(?m)^[ \t|│]*(?:[Bb][Yy][ \t]*:|/s/)")


@dataclass(frozen=True, slots=True)
class SignedBlock:
    """What a signature block's pairing found: company heads signed for, the offsets of "/s/"
    marks whose signer signs for someone else (a company head, a "By:" above) and of those
    signed under a party's role label ("EMPLOYEE:")."""

    companies: tuple[NameSpan, ...]
    agent_marks: frozenset[int]
    role_marks: frozenset[int]


@dataclass(frozen=True, slots=True)
class _Words:
    roles: frozenset[str]
    office: re.Pattern[str]


@lru_cache(maxsize=1)
def _words() -> _Words:
    roles = load_json("roles.json")
    offices = sorted(
        (v for t in roles["titles"].values() if t["relation"] in ("officer_of", "director_of") for v in t["variants"]),
        key=len,
        reverse=True,
    )
    return _Words(
        roles=frozenset(r.casefold() for r in roles["party_roles"]),
        office=re.compile(r"\b(?:" + "|".join(re.escape(v).replace(r"\ ", r"[ \t]+") for v in offices) + r")\b"),
    )


@dataclass(frozen=True, slots=True)
class _Line:
    start: int  # where the line's content starts, after its bars and spaces
    end: int  # where it ends, before trailing bars and spaces
    text: str
    in_table: bool  # the line had a table bar: a cell of a (maybe flattened) row


def _lines(text: str, start: int, limit: int) -> list[_Line]:
    """The non-empty lines from the one holding ``start``, bars stripped, at most ``limit``."""
    position = text.rfind("\n", 0, start) + 1
    found: list[_Line] = []
    while position < len(text) and len(found) < limit:
        line_end = text.find("\n", position)
        line_end = len(text) if line_end == -1 else line_end
        raw = text[position:line_end]
        content = raw.strip(_BARS)
        if content:
            begin = position + len(raw) - len(raw.lstrip(_BARS))
            found.append(_Line(begin, begin + len(content), content, any(c in raw for c in "|│")))
        position = line_end + 1
    return found


def block_start(text: str) -> int | None:
    """Where a signature block with no lead starts (no "IN WITNESS WHEREOF", no letter close):
    the short lines (a company's name, a role label) right above the first line that opens with
    a signature mark, or None when no line does or the text is no short paper."""
    mark = _MARK_LINE.search(text) if len(text) <= SHORT_PAPER_CHARS else None
    if mark is None:
        return None
    start, seen = mark.start(), 0
    # (Blank lines count towards no head, but the walk up is bounded all the same.)
    for _ in range(3 * _LOOKBACK_LINES):
        if seen >= _LOOKBACK_LINES or start <= 0:
            break
        above_start = text.rfind("\n", 0, start - 1) + 1
        line = text[above_start : start - 1].strip(_BARS)
        if len(line) >= _HEAD_LINE_CHARS:
            break
        seen += 1 if line else 0
        start = above_start
    return start


def _company_head(text: str, line: _Line) -> NameSpan | None:
    """The company a line states and nothing else, bar punctuation: "ACME HOLDINGS, INC."."""
    name = name_at(text, line.start, line.end)
    if name is None or name.start != line.start or not ends_in_legal_suffix(name.text):
        return None
    return name if not text[name.end : line.end].strip(" \t.,;:") else None


def _role_head(line: _Line) -> bool:
    """A party's role label heading its column: "EMPLOYEE:", "Consultant", "THE EXECUTIVE"."""
    bare = re.sub(r"(?i)^the[ \t]+", "", line.text.rstrip(" \t:.,"))
    return bare.casefold() in _words().roles


def signed_block(text: str, start: int) -> SignedBlock:
    """Pair the heads and signatures of the block from ``start`` (see the module's words)."""
    lines = _lines(text, start, _WALK_LINES)
    heads: list[tuple[int, NameSpan | None]] = []  # (line index, company or None for a role)
    companies: list[NameSpan] = []
    agent_marks: set[int] = set()
    role_marks: set[int] = set()
    after_by = False
    for index, line in enumerate(lines):
        heads = [h for h in heads if index - h[0] <= _HEAD_REACH_LINES]
        by = _BY.match(line.text)
        slash = _SLASH_S.match(line.text)
        if by is not None:
            head = heads.pop(0) if heads else None
            if head is not None and head[1] is not None:
                companies.append(head[1])
            inline = _SLASH_S.search(line.text, by.end())
            if inline is not None:
                agent_marks.add(line.start + inline.start())
            # "|By:\n|\n/s/ Jane Roe": the signature under the "By:" is the officer's.
            after_by = inline is None and not line.text[by.end() :].strip(" \t_")
            continue
        if slash is not None:
            if after_by:
                agent_marks.add(line.start)
            else:
                head = heads.pop(0) if heads else None
                if head is not None and head[1] is not None:
                    companies.append(head[1])
                    agent_marks.add(line.start)
                elif head is not None:
                    role_marks.add(line.start)
            after_by = False
            continue
        after_by = False
        company = _company_head(text, line)
        # Outside a table, a role label right above or below a company's name labels that
        # company ("LICENSOR:\nACME INC.", "ACME INC.\nLICENSOR"): one head, the company's. In a
        # table the next cell may be the next column's head ("ACME INC. | EMPLOYEE:").
        stacked = index > 0 and not line.in_table and not lines[index - 1].in_table
        if company is not None:
            if stacked and heads and heads[-1] == (index - 1, None):
                heads.pop()
            heads.append((index, company))
        elif _role_head(line) and not (stacked and heads and heads[-1][0] == index - 1 and heads[-1][1] is not None):
            heads.append((index, None))
    unique = {(c.start, c.end): c for c in companies}
    return SignedBlock(tuple(unique[k] for k in sorted(unique)), frozenset(agent_marks), frozenset(role_marks))


def signs_in_office(text: str, signer: NameSpan) -> bool:
    """Whether the signer of a "/s/" mark states an office under it ("/s/ Jane Roe\\nJane Roe\\n
    Senior Vice President", "Name: Jane Roe\\nTitle: CFO"): an officer signs for the company, not
    for herself. The line after the signature, or after its typed name, names the office
    (``roles.json`` officer and director titles) or is a filled "Title:" row."""
    following = _lines(text, signer.end, 3)[1:]
    typed = " ".join(signer.text.split()).casefold()
    if following and (
        " ".join(following[0].text.split()).casefold() == typed or re.match(r"(?i)name[ \t]*:", following[0].text)
    ):
        following = following[1:]
    if not following:
        return False
    office = following[0].text
    title = re.match(r"(?i)title[ \t]*:[ \t|]*", office)
    if title is not None:
        return bool(office[title.end() :].strip())
    return _words().office.search(office) is not None and len(office) < _HEAD_LINE_CHARS
