"""Parties a contract writes in a layout rather than a prose clause (issue 9, party recall).

The prose grammar (``annotate._between_names`` and the definitions) reads "between X and Y".
Many openings instead lay their parties out, and the layout is regular where the wording is not:

- a **list** after a lead ("BETWEEN:", "PARTIES", "by and among the following parties:"), each
  item opening with its marker ("(1)", "1.", "(a)", "-", a bullet) and then the party's name,
  followed by its description, address or registration number;
- **label rows**: a field whose label is a party role ("Party A: X Co., Ltd.", "Licensor:\\nX",
  "Name of Lessee: X", a table row "|Licensor|X Corp|"), between other rows that are no parties
  ("Address:", "Legal Representative:");
- a **cover page** that stacks the names with a separator line between them ("X LIMITED\\n- and
  -\\nY PLC"), each name maybe followed by a role line ("AS LANDLORD", '"Carrier"').

The opening is cut into cells (a line, or each "|" cell of a table line, or each column of a line
laid out with wide gaps); the three shapes are recognised on the cells by layout alone, and the
name at each slot is read by the one name reader (``names.name_at``) and checked by the one set of
false-party checks (``names.party_name_problem``, ``names.after_non_party_lead``). The cue words
are data (``ner_models/party_layout.json``). The caller (``annotate._parties``) treats the names
like the other names the party grammar states outright.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from ingest.lexicons import load_json
from ingest.names import (
    NameSpan,
    after_non_party_lead,
    ends_in_legal_suffix,
    ends_in_local_unit,
    has_legal_suffix,
    name_at,
    organisation_head,
    party_name_problem,
    surname_first,
    without_enumerator,
    without_legal_form,
    without_registration,
)

# The opening the layout reader looks at: covers and party lists sit on the first pages.
LAYOUT_SCAN_CHARS = 8_000
# Bounds on the work per document: cells read, cells scanned after a lead, items per list.
_CELL_LIMIT = 400
_LIST_SCAN_CELLS = 40
# A list's first item comes within this many cells of its lead, each next one within the second.
_FIRST_ITEM_CELLS = 3
_NEXT_ITEM_CELLS = 8
_ITEM_LIMIT = 12
# Role lines skipped between a stacked name and its separator ("AS LANDLORD", '"Carrier"').
_ROLE_CELLS_LIMIT = 3
# A value a label row gives is at most this long (a name, maybe its address after it).
_VALUE_CHARS = 200
# A name without a legal form is taken from a slot only when it has this many words (a person's
# full name, "Marlow Credit Union"), and at most the second bound.
_MIN_BARE_WORDS = 2
_MAX_BARE_WORDS = 6
# A person's name stacked without a role line beside a company on a cover: "JANE Q. ROE".
_MAX_PERSON_WORDS = 4
# Words that never open a person's name ("OF THE ONE PART" is prose in capitals).
_CONNECTORS = frozenset({"of", "the", "and", "de", "van", "von", "&"})
# A caption line naming the parties after its title is one of the opening's first cells.
_CAPTION_CELLS = 8
# A cover run into one line ("Deed Acme Pty Ltd (ACN 1) (Owner) Beta Limited (ABN 2) ...") is on
# the first page: names closed by a registration number or a bare term are read this far only.
_COVER_RUN_CHARS = 2_000

# ("Technical Service Framework Agreement ... Table of Contents ... Party A：X Ltd. ... And Party
# B：Y Limited": a contents page stands above the party rows; the layout reads on past it when a
# party letter's label row follows it.)
_CONTENTS_CUE = re.compile(r"TABLE\s+OF\s+CONTENTS|Table\s+of\s+Contents")
_PARTY_LABEL_AFTER_CONTENTS = re.compile(r"(?m)^[ \t|]*(?:Party|PARTY)[ \t]+[A-Z]\d?[ \t]*(?:\([^()\n]{1,30}\))?[ \t]*[:：]")
_COLUMN_GAP = re.compile(r"[ \t]{3,}")
# A cell written in Chinese or Japanese only: no Latin letter, some CJK character (two linear
# searches, no backtracking over a long line).
_LATIN_LETTER = re.compile(r"[A-Za-z]")
_CJK_CHARACTER = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_TABLE_BAR = re.compile(r"[|│]")
# ("[Lessee] : X K.K.": a translated form may bracket its label.)
_LABEL = re.compile(
    r"^\[?(?P<label>[A-Za-z][A-Za-z'’ /]{0,50}?(?:[ \t\n]+[A-Z]\d?)?)\]?[ \t]*(?:\((?P<aside>[^()]{1,30}|(?i:hereinafter|herein)[^()]{1,40})\))?[ \t]*[:：][ \t]*"
)
# 'Lessee (hereinafter referred to as "Party B"): ...': the aside's term without its lead words.
_ASIDE_LEAD = re.compile(r"(?i:hereinafter|herein)(?:[ \t]+(?i:referred[ \t]+to[ \t]+as|called|the))*[ \t]*[\"“]?([^\"”]*)[\"”]?[ \t]*")
# The row under a role's bare label that names the party: "Legal Name:", "Enterprise Name:".
_NAME_ROW = re.compile(r"(?i:(?:legal|enterprise|company|corporate|registered|full|entity)[ \t]+)?(?i:name)")
_ASIDE_PARTY_OPEN = re.compile(r"^[A-Za-z][A-Za-z'’ /]{0,50}?[ \t]*\([ \t]*(?i:party)[ \t]*$")
_ASIDE_PARTY_CLOSE = re.compile(r"^([A-Z]\d?)[ \t]*\)[ \t]*[:：][ \t]*")
_SPLIT_PARTY_LABEL = re.compile(r"^[A-Z]\d?[ \t]*[:：]")
_FILLED_TO_END = re.compile(r"^[\s.,;:]*$")
_BARE_NAME_WORD = re.compile(r"(?:[A-Z][\w'’.\-]*|of|the|and|de|van|von|&)$")
# The rest of an institution's name after a lower-case joiner, on the slot's line: joiners and
# capitalised words, ending in a capitalised word; the whole name at most 16 words.
_INSTITUTION_TAIL = re.compile(r"[ \t]+(?:of|the|and|for|&)(?:[ \t]+(?:[A-Z][\w'’\-]*|of|the|and|for|&))*[ \t]+[A-Z][\w'’\-]*")
_MAX_INSTITUTION_WORDS = 16
_INLINE_NUMBER = re.compile(r"(?<![\w(])\((\d{1,2})\)[ \t]+")
# A number closing a cover's entry ("ACME LIMITED (1)", "ACME LIMITED(1) - AND - BETA LIMITED(2)"):
# the name stands before it, the line ends or a joiner follows.
_TRAILING_NUMBER = re.compile(r"(?<=[\w.])[ \t]*\((\d{1,2})\)(?=[ \t]*(?:$|[-–—]|(?i:and)\b))", re.M)
# The words a name before its trailing number may have, read backwards from the number: no digit
# opens one here (a date's year ends the walk: "DATED 14 JANUARY 2002 ACME LIMITED(1)").
_BACKWARD_NAME_WORD = re.compile(r"(?:[A-Z][\w.&'’,\-]*|of|OF|the|THE|&)$")
_BACKWARD_WORDS = 8


@dataclass(frozen=True, slots=True)
class LayoutCell:
    """A piece of the opening that the layout treats as one unit: ``text[start:end]``, stripped."""

    start: int
    end: int
    text: str
    row: int
    in_table: bool


@dataclass(frozen=True, slots=True)
class LayoutName:
    name: NameSpan
    # Which layout named it: "item", "run" (one more name run on in an item), "label", "cover",
    # "stack" (a cover's names one per line beside its title, each a party of its own) or
    # "caption" (a title's caption line, which only completes what the other readers find).
    shape: str
    slot_end: int  # where the slot (the item, the field's value, the cover line) ends


# A name read at a slot, and where that slot ends.
_Slot = tuple[NameSpan, int]


@dataclass(frozen=True, slots=True)
class _Cues:
    lead: re.Pattern[str]
    item_marker: re.Pattern[str]
    separator: re.Pattern[str]
    role_cell: re.Pattern[str]
    end_cue: re.Pattern[str]
    labels: dict[str, str]  # casefolded label -> the party role it names, as roles.json spells it
    contact_labels: frozenset[str]  # casefolded labels of a notice or contact block's rows
    group_heads: frozenset[str]  # plural words that open a description of a group
    roles: frozenset[str]  # casefolded party roles: a cell of one only states a role ("LANDLORD")
    caption_title_words: frozenset[str]  # a caption's title ends in one: "Employment Agreement - X and Y"
    registration: re.Pattern[str]  # "(ACN 000 000 000)", "ABN": a company number's label after a name
    address_lead: re.Pattern[str]  # "of 9 The Centreway", "whose registered office is at": an address after a name
    identity_rest: re.Pattern[str]  # ", I.D. no. 012345678", ", PCN 512345678": a line's rest after a party's name
    shared_labels: frozenset[str]  # casefolded labels of a role shared with another party: "joint guarantor"
    beneficiary_lead: re.Pattern[str]  # "As Security Trustee For": the next line names whom the party above holds for


@lru_cache(maxsize=1)
def _cues() -> _Cues:
    data = load_json("party_layout.json")
    excluded = {r.casefold() for r in data["label_roles_excluded"]}
    named = [*load_json("roles.json")["party_roles"], *data["label_roles_extra"]]
    roles = sorted({r for r in named if r.casefold() not in excluded})
    labels = {form.format(role=role.casefold()): role for form in data["label_forms"] for role in roles}
    return _Cues(
        lead=re.compile(data["leads"]),
        item_marker=re.compile(data["item_marker"]),
        separator=re.compile(data["separators"]),
        role_cell=re.compile(data["role_cells"]),
        end_cue=re.compile(data["end_cues"]),
        labels=labels,
        contact_labels=frozenset(c.casefold() for c in data["contact_labels"]),
        group_heads=frozenset(g.casefold() for g in data["group_heads"]),
        roles=frozenset(r.casefold() for r in load_json("roles.json")["party_roles"]),
        caption_title_words=frozenset(w.casefold() for w in data["caption_title_words"]),
        registration=re.compile(data["registration_marker"]),
        address_lead=re.compile(data["address_lead"]),
        identity_rest=re.compile(data["identity_rest"]),
        shared_labels=frozenset(form.format(role=role.casefold()) for form in data["shared_role_forms"] for role in roles),
        beneficiary_lead=re.compile(data["beneficiary_lead"]),
    )


def _bare_role(text: str) -> bool:
    """Whether a cell is a party role alone ("Landlord", "THE TENANT")."""
    return re.sub(r"^(?:the|THE|The)[ \t]+", "", text.strip(" \t,;.:")).casefold() in _cues().roles


def _role_cell(text: str) -> bool:
    """Whether a cell only states the role or description of the party above it: "AS
    LANDLORD", '"Carrier"', "(the "Seller")", "a Delaware corporation", or a party role alone
    ("TENANT", "the Licensee")."""
    return _cues().role_cell.match(text) is not None or _bare_role(text)


def cover_joiner(line: str) -> bool:
    """Whether a cover's line only joins its parties: a separator ("AND", "- and -", "&") or a
    list's lead ("BETWEEN:"), the layout reader's own cues."""
    cell = line.strip(" \t|")
    cues = _cues()
    return cues.separator.match(cell) is not None or cues.lead.match(cell) is not None


def layout_end(text: str) -> int:
    """Where the opening's layout ends: the first end cue (recitals, a contents page) or
    ``LAYOUT_SCAN_CHARS``; past a contents page whose parties follow it, the next end cue after
    it, or the same bound again from the contents page."""
    limit = min(len(text), LAYOUT_SCAN_CHARS)
    cue = _cues().end_cue.search(text, 0, limit)
    if cue is None:
        return limit
    if _CONTENTS_CUE.fullmatch(cue.group()) and _PARTY_LABEL_AFTER_CONTENTS.search(text, cue.end(), min(len(text), cue.end() + LAYOUT_SCAN_CHARS)):
        further = min(len(text), cue.end() + LAYOUT_SCAN_CHARS)
        after = _cues().end_cue.search(text, cue.end(), further)
        return after.start() if after is not None else further
    return cue.start()


def cells(text: str, end: int) -> list[LayoutCell]:
    """The cells of ``text[:end]``: each line, split at table bars and at column gaps of three or
    more spaces; empty cells are dropped. At most ``_CELL_LIMIT``."""
    found: list[LayoutCell] = []
    position, row = 0, 0
    while position < end and len(found) < _CELL_LIMIT:
        line_end = text.find("\n", position, end)
        line_end = end if line_end == -1 else line_end
        line = text[position:line_end]
        in_table = _TABLE_BAR.search(line) is not None
        pieces = _TABLE_BAR.split(line) if in_table else [line]
        offset = position
        for piece in pieces:
            column_start = 0
            for gap in [*_COLUMN_GAP.finditer(piece), None]:
                column_end = gap.start() if gap is not None else len(piece)
                raw = piece[column_start:column_end]
                stripped = raw.strip()
                # ("越宝企业管理咨询（广州）有限公司\nSuperior Treasure ... Limited\n和 and\n...": a bilingual
                # cover writes each name twice; the lines with no Latin letter are the other
                # language's, no cells of the English layout.)
                if stripped and _CJK_CHARACTER.search(stripped) and not _LATIN_LETTER.search(stripped):
                    stripped = ""
                if stripped:
                    begin = offset + column_start + (len(raw) - len(raw.lstrip()))
                    for part_start, part in _inline_label_parts(stripped):
                        found.append(LayoutCell(begin + part_start, begin + part_start + len(part), part, row, in_table))
                if gap is not None:
                    column_start = gap.end()
            offset += len(piece) + 1
        position, row = line_end + 1, row + 1
    return found[:_CELL_LIMIT]


# A label inside a long line opens a cell of its own: "... Depository. Party A: Lanting Ltd.",
# "Legal Representative: Li Wei Party B: ..." (a party letter's label after any word).
_INLINE_LABEL = (
    r"(?:(?<=[.;])[ \t]+(?=[A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?[ \t]*(?:\([^()\n]{1,30}\))?[ \t]*[:：])"
    r"|[ \t]+(?=(?:Party|PARTY)[ \t]+[A-Z]\d?[ \t]*(?:\([^()\n]{1,30}\))?[ \t]*[:：])"
)


@lru_cache(maxsize=1)
def _inline_label() -> re.Pattern[str]:
    """Where a label inside a cell or a run-in line starts: after a full stop or semicolon, before
    "Party X:" or a party role's label ("Assignee:"), or (group 1) before a form's field label
    without punctuation before it ("... General Company Address: 1 Da Ma Lu ...": ``form_labels``
    of party_filters.json, capitalised); ``_inline_label_parts`` takes the last only after an
    organisation's name."""
    labels = "|".join(re.escape(w) for w in sorted(load_json("party_filters.json")["form_labels"], key=len, reverse=True))
    # ("... by the following Parties: Assignor: Acme Co.,Ltd.( Hereinafter "Party A") Legal
    # Person: LI,JINYUAN Assignee: ...": a party role's label, capitalised, opens a field in a line
    # run together after a value's end, a punctuation mark or a word in capitals; never inside a
    # longer label: "Tenant's Broker:", "Associated Employer:".)
    roles = "|".join(re.escape(r) for r in sorted({r for r in _cues().labels.values() if " " not in r}, key=len, reverse=True))
    return re.compile(
        _INLINE_LABEL
        + rf"|(?:(?<=[:).,;\]\"”])|(?<=[A-Z0-9][A-Z0-9]))[ \t]+(?=(?:{roles})[ \t]*[:：])"
        + rf"|([ \t]+)(?=(?=[A-Z])(?i:{labels})[ \t]*[:：]))"
    )


def _inline_label_parts(cell_text: str) -> list[tuple[int, str]]:
    """``cell_text`` cut before each label inside it, as (offset, stripped part)."""
    parts: list[tuple[int, str]] = []
    begin = 0
    cuts = [
        cut for cut in _inline_label().finditer(cell_text)
        # ("Customer Address:", "Order Start Date:" are labels whole: a field label cuts only
        # after an organisation's name, one with a legal form or a head noun.)
        if cut.group(1) is None or _organisation_before(cell_text[: cut.start()])
    ]
    for cut in [*cuts, None]:
        end = cut.start() if cut is not None else len(cell_text)
        if cell_text[begin:end].strip():
            parts.append((begin, cell_text[begin:end].rstrip()))
        if cut is not None:
            begin = cut.end()
    return parts


def _organisation_before(before: str) -> bool:
    """Whether the text before a field label ends in an organisation's name (the words after the
    last label's colon, if any)."""
    tail = re.split(r"[:：]", before)[-1].strip()
    return bool(tail) and (ends_in_legal_suffix(tail) or organisation_head(tail))


def _checked(text: str, name: NameSpan | None, common_words: frozenset[str]) -> NameSpan | None:
    if name is None or party_name_problem(name.text, common_words) is not None:
        return None
    if after_non_party_lead(text, name.start) or _names_a_group(name.text, common_words):
        return None
    return name


def _names_a_group(name: str, common_words: frozenset[str]) -> bool:
    """Whether a slot describes a group instead of naming a party: a group word (``group_heads``)
    or a plural word the document also writes in lower case, alone or before "of" ("THE
    PERSONS", "THE SHAREHOLDERS OF ACME LTD."); the group's members are named elsewhere.
    ("The Regents of the University of ...": "regents" is no group word.)"""
    words = re.findall(r"[\w'’]+", name)
    if words and words[0].casefold() == "the":
        words = words[1:]
    if not words:
        return False
    head = words[0].casefold()
    return (
        (head in _cues().group_heads or (head.endswith("s") and head in common_words))
        and (len(words) == 1 or words[1].casefold() == "of")
    )


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


# A contract's words of agreement: a label row with none of them before it stands in the header.
_AGREEMENT_WORDS = re.compile(r"(?i)\b(?:shall|agrees?|agreed|hereby|whereas|hereto|hereunder|notices?)\b")


def _contact_row(text: str, found: list[LayoutCell], index: int) -> bool:
    """Whether the label row at ``found[index]`` stands in a notice or contact block: a cell
    within two of it is a contact label ("Tel:", "Contact person:", "Address:"). (A contact row
    above a blank line belongs to the block before: "Pledgee: X Co., Ltd." / "Address: ..." / "" /
    "Pledgor: Wang Lei" names the pledgor.)"""
    for other in found[max(0, index - 2) : index + 3]:
        if other.end <= found[index].start and _BLANK_LINE.search(text, other.end, found[index].start):
            continue
        label = _LABEL.match(other.text)
        words = label.group("label") if label is not None else other.text.rstrip(":：")
        if " ".join(words.split()).casefold() in _cues().contact_labels and other is not found[index]:
            return True
    return False


def after_contact_label(text: str, start: int) -> bool:
    """Whether the name at ``start`` is a contact row's value: only a contact label and its colon
    stand before it on its line, a street number too ("Address:  3000 Hanover St.", "Contact Name:
    Jane Roe")."""
    line = text[text.rfind("\n", 0, start) + 1 : start]
    label = re.fullmatch(r"[ \t|]*([A-Za-z][A-Za-z \t\-]{0,30}?)[ \t]*[:：][ \t]*(?:[0-9][\w\-]*[ \t]+)?", line)
    return label is not None and " ".join(label.group(1).split()).casefold() in _cues().contact_labels


def _bare_name(name: str) -> bool:
    """A name without a legal form that a slot may still hold: two to six capitalised words (a
    person, "Marlow Credit Union"), no digits."""
    words = name.split()
    return (
        _MIN_BARE_WORDS <= len(words) <= _MAX_BARE_WORDS
        and not any(c.isdigit() for c in name)
        and all(_BARE_NAME_WORD.match(w) for w in words)
        and words[0][:1].isupper()
    )


def _slot_name(text: str, start: int, end: int, common_words: frozenset[str]) -> NameSpan | None:
    """The name at a slot ``text[start:end]``: one with a legal form, or a bare name that fills
    the slot up to punctuation or is closed by a comma or a parenthesis."""
    name = _checked(text, name_at(text, start, end), common_words)
    if name is None:
        return None
    if ends_in_legal_suffix(name.text) or has_legal_suffix(name.text.split(",")[0]):
        return name
    name = _checked(text, surname_first(text, name, end, common_words), common_words) or name
    rest = text[name.end : end]
    # "Party B: Shaanxi Research Institution of Chinese Traditional Medicines": an organisation's
    # head noun names it as a legal form would, when the name fills its slot.
    if organisation_head(name.text) and name.text[:1].isalpha() and _FILLED_TO_END.match(rest) is not None:
        return name
    # "Party B: China Institute of Sports Science of the General Administration of Sport of
    # China": the name reader stops at a lower-case "of the"; the organisation's name goes on in
    # capitalised words and joiners to the slot's end, which the row's layout sets.
    whole = _INSTITUTION_TAIL.match(rest)
    if (
        whole is not None and organisation_head(name.text) and name.text[:1].isalpha()
        and _FILLED_TO_END.match(rest[whole.end() :]) is not None
        and len(name.text.split()) + len(whole.group().split()) <= _MAX_INSTITUTION_WORDS
    ):
        return NameSpan(text[name.start : name.end + whole.end()], name.start, name.end + whole.end())
    closed = _FILLED_TO_END.match(rest) is not None or re.match(r"[ \t]*[,(]", rest) is not None
    return name if (closed or _addressed(rest)) and _bare_name(name.text) else None


def _addressed(rest: str) -> bool:
    """Whether the slot's rest after a name is its address, a number in it ("of Windsor House,
    42-50 Victoria Street,"): "INTERPRETATION OF TERMS" goes on in words."""
    return _cues().address_lead.match(rest) is not None and re.search(r"\d", rest) is not None


@dataclass(frozen=True, slots=True)
class LabelSlot:
    """A label row that names a party: its role as a term ("Party A", "Licensor"), where the
    label stands, the name, and where the value's slot ends."""

    term: str
    term_start: int
    name: NameSpan
    slot_end: int


def _label_term(label: str) -> str | None:
    """The role a party label names, spelled as ``roles.json`` spells it ("Licensor" for
    "NAME OF LICENSOR"), or "Party A" for a party letter; None for any other label."""
    folded = " ".join(label.replace("’", "'").split()).casefold()
    letter = re.fullmatch(r"(?:the )?party ([a-z]\d?)", folded)
    if letter is not None:
        return f"Party {letter.group(1).upper()}"
    # "ON THE FIRST PART: The Northlake Development Company, ...", "OF THE SECOND PART:": the
    # party's part in the contract labels its entry (a civil-law drafting, "de la primera parte").
    part = _PART_LABEL.fullmatch(folded)
    if part is not None:
        return f"{part.group(1).capitalize()} Part"
    # "Research and Development Party: Tongji University", "Entrusting Party: ...": a label
    # naming the party by its part in the contract is the party's term as written.
    if _PARTY_ROLE_LABEL.fullmatch(label.strip()) is not None:
        return " ".join(label.split())
    # "Joint Guarantor: BI SHIHAI", "Co-Borrower: ...": a role shared with another party is still
    # a party's label; the label as written is the term (two parties may share the role).
    if folded in _cues().shared_labels:
        return " ".join(label.split())
    # "Organizer/Promoter: Gulfside Grand Prix LLC", "Assignor/Seller:": two names of one role,
    # the label a party's when each of its halves is; the term is the last one.
    if folded.count("/") == 1:
        halves = [_cues().labels.get(half.strip()) for half in folded.split("/")]
        if all(halves) and halves[0] != halves[1]:
            return halves[1]
    return _cues().labels.get(folded)


def _plural_role_label(label: str) -> str | None:
    """The role a plural label names ("Pledgors", "Sellers"), as its singular label; else None."""
    folded = " ".join(label.split()).casefold()
    if not folded.endswith("s"):
        return None
    return _cues().labels.get(folded[:-1])


_PART_LABEL = re.compile(r"(?:(?:on|of) )?the (first|second|third|fourth|fifth) part")
_PARTY_ROLE_LABEL = re.compile(r"[A-Z][a-z]+(?:[ \t]+(?:[A-Z][a-z]+|and|&)){0,4}[ \t]+Party")
# How many numbered items a plural role label ("Pledgors:") may head.
_PLURAL_LABEL_ITEMS = 16


# A party the preamble names by pointing at a label row: 'the entity named above
# ("Remarketer/Integrator")', 'the licensee listed above ("LICENSEE")'. The term is the label.
_NAMED_ABOVE = re.compile(
    r"(?i:the|such)[ \t\n]+(?i:entity|party|company|person|individual|corporation|customer|licensee|licensor|organi[sz]ation)"
    r"[ \t\n]+(?i:named|listed|identified|specified|indicated|set[ \t\n]+forth)[ \t\n]+(?i:above|below)"
    r"[ \t\n]*\([ \t\n]*(?:the[ \t\n]+)?[\"“]([A-Z][^\"”()\n]{0,40})[\"”][ \t\n]*\)"
)
# A party the preamble names by pointing at the form's "Name:" row below: 'and the following
# named carrier ("Carrier"):' over "Name:     LOAD SOURCE LOGISTICS". The term is the party's.
_FOLLOWING_NAMED = re.compile(
    r"(?i:the)[ \t\n]+(?i:following)[ \t\n]+(?:(?i:named|described|identified)[ \t\n]+)?[a-z][a-z\-]{2,30}"
    r"[ \t\n]*\([ \t\n]*(?:the[ \t\n]+)?[\"“]([A-Z][^\"”()\n]{0,40})[\"”][ \t\n]*\)[ \t]*:"
)
# How far below its pointer the "Name:" row may stand.
_FOLLOWING_NAME_ROW_CHARS = 200
_INITIALS_SKIP = frozenset({"of", "and", "the", "&"})


# A table cell holding only a quoted short name: '“RQS Capital”'.
_QUOTED_LABEL = re.compile(r"[ \t]*[\"“]([A-Z][\w&.'’\-]*(?:[ \t]+[A-Z][\w&.'’\-]*){0,3})[\"”][ \t]*")


def _short_name_of(label: str, name: str) -> bool:
    """Whether ``label`` is ``name``'s short name: its first words ("RQS Capital" of "RQS Capital
    Limited") or its initials; only a name with a legal form."""
    if not ends_in_legal_suffix(name):
        return False
    return _first_words_of(label, name) or _initials_label(label, name)


def _first_words_of(label: str, name: str) -> bool:
    """Whether ``label`` is ``name``'s first words ("RQS Capital" of "RQS Capital Limited")."""
    words, label_words = name.casefold().replace(",", " ").split(), label.casefold().split()
    return 0 < len(label_words) and words[: len(label_words)] == label_words


def _own_short_label(label: str, name: str) -> bool:
    """Whether a row's label is its value's own short name: the initials or the first words of a
    name with a legal form or an organisation's head noun ("Shell" of "SHELL CHEMICAL COMPANY"),
    fewer words than the name."""
    if _initials_label(label, name):
        return True
    if not (ends_in_legal_suffix(name) or organisation_head(name)):
        return False
    return len(label.split()) < len(name.replace(",", " ").split()) and _first_words_of(label, name)


def _initials_label(label: str, name: str) -> bool:
    """Whether ``label`` is the initials of ``name``'s words before its legal form, in capitals
    ("HP" of "HEWLETT-PACKARD COMPANY", "IBM" of "INTERNATIONAL BUSINESS MACHINES CORPORATION"):
    a party's short name standing as its row's label. Only a name with a legal form or an
    organisation's head noun."""
    if not re.fullmatch(r"[A-Z]{2,6}", label) or not (ends_in_legal_suffix(name) or organisation_head(name)):
        return False
    bare = [w for w in re.split(r"[\s\-]+", without_legal_form(name)) if w and w.casefold() not in _INITIALS_SKIP]
    initials = "".join(w[0] for w in bare).upper()
    # (An organisation's head noun is often left out of its initials: "HP" of "... COMPANY".)
    return len(bare) >= 2 and label in (initials, initials[:-1] if organisation_head(name) else initials)


def _continued_value(text: str, name: NameSpan, start: int, cell: LayoutCell, following: LayoutCell | None) -> NameSpan:
    """A name without its legal form that fills its line may go on on the next line, when it
    ends there in one ("PARTY A: QINGHE\\nLANTIAN HOLDING GROUP CO., LTD.")."""
    if following is None or has_legal_suffix(name.text) or _FILLED_TO_END.match(text[name.end : cell.end]) is None:
        return name
    wider = name_at(text, start, following.end)
    return wider if wider is not None and wider.end > cell.end and ends_in_legal_suffix(wider.text) else name


def label_slots(text: str, common_words: frozenset[str] = frozenset()) -> list[LabelSlot]:
    """Label rows in the opening: "Party A: X Co., Ltd.", "Licensor:" over "X Corp",
    "|Licensor|X Corp|", "Name of Lessee: X"; "Address:" and "Legal Representative:" rows name
    no party."""
    found = cells(text, layout_end(text))
    referenced = {" ".join(m.group(1).split()).casefold() for m in _NAMED_ABOVE.finditer(text, 0, LAYOUT_SCAN_CHARS)}
    # (Each pointer names the first "Name:" row under it, once.)
    pointers = {m.end(): " ".join(m.group(1).split()) for m in _FOLLOWING_NAMED.finditer(text, 0, LAYOUT_SCAN_CHARS)}
    slots: list[LabelSlot] = []
    index = 0
    while index < len(found):
        cell = found[index]
        label_text, label_start, value_start = None, cell.start, cell.end
        following = found[index + 1] if index + 1 < len(found) else None
        match = _LABEL.match(cell.text)
        if match is not None:
            label_text, value_start = match.group("label"), cell.start + match.end()
        elif cell.text in ("Party", "PARTY") and following is not None and _SPLIT_PARTY_LABEL.match(following.text):
            # "|Party\n|A: Yunshan Beacon Ltd.": a converted page broke the label over two cells.
            colon = re.match(r"([A-Z]\d?)[ \t]*[:：][ \t]*", following.text)
            label_text = f"Party {colon.group(1)}" if colon else None
            value_start = following.start + (colon.end() if colon else 0)
            cell, index = following, index + 1
            following = found[index + 1] if index + 1 < len(found) else None
        elif following is not None and _ASIDE_PARTY_OPEN.search(cell.text) and _ASIDE_PARTY_CLOSE.match(following.text):
            # "Purchaser(Party\nB): Beijing ...": a line break inside the label's party letter.
            close = _ASIDE_PARTY_CLOSE.match(following.text)
            label_text = f"Party {close.group(1)}"
            value_start = following.start + close.end()
            cell, index = following, index + 1
            following = found[index + 1] if index + 1 < len(found) else None
        elif cell.in_table:
            # A table's label cell, the value in the next cell of its row.
            label_text = cell.text
        term = _label_term(label_text) if label_text is not None else None
        pointed = None
        # "Services Consignor (Party A): PetroChina ...": the party letter in the label's aside.
        if term is None and match is not None and match.group("aside") is not None:
            lead = _ASIDE_LEAD.fullmatch(match.group("aside"))
            aside = _label_term(lead.group(1) if lead is not None else match.group("aside"))
            term = aside if aside is not None and aside.startswith("Party ") else None
            # (A role with its party letter heads the party's own block: its contact rows follow.)
            pointed = label_start if term is not None else None
        if term is None and label_text is not None and " ".join(label_text.split()).casefold() in referenced:
            # "Remarketer/Integrator: Emtec, Inc." over "... between Dell and the entity named
            # above ("Remarketer/Integrator")": the preamble makes the label a party's term.
            term = " ".join(label_text.split())
        if term is None and label_text is not None and label_text.strip().casefold() == "name":
            pointed = next((end for end in sorted(pointers) if end <= label_start <= end + _FOLLOWING_NAME_ROW_CHARS), None)
            if pointed is not None:
                term = pointers.pop(pointed)
        quoted = _QUOTED_LABEL.fullmatch(cell.text) if term is None and cell.in_table and following is not None else None
        if quoted is not None and following is not None and following.in_table:
            # '|“RQS Capital” | RQS Capital Limited, a limited company ...': a table row whose label
            # is the party's own short name in quotes, its first words or its initials.
            read = _slot_name(text, following.start, min(following.end, following.start + _VALUE_CHARS), common_words)
            if read is not None and read.start == following.start and _short_name_of(quoted.group(1), read.text):
                slots.append(LabelSlot(quoted.group(1), cell.start + quoted.start(1), read, following.end))
                index += 2
                continue
        if term is None and match is not None and value_start < cell.end:
            # "HP: HEWLETT-PACKARD COMPANY": the party's own short name as the row's label.
            read = name_at(text, value_start, cell.end)
            if read is not None and _initials_label(label_text, read.text):
                slots.append(LabelSlot(label_text, label_start, read, cell.end))
            index += 1
            continue
        if term is None and match is not None and following is not None and following.row == cell.row:
            # "Shell:     SHELL CHEMICAL COMPANY, for itself ...": the label alone in its cell and
            # the party's own first words (or initials), its name in the next cell of the row.
            read = name_at(text, following.start, min(following.end, following.start + _VALUE_CHARS))
            if read is not None and read.start == following.start and _own_short_label(label_text, read.text):
                slots.append(LabelSlot(" ".join(label_text.split()), label_start, read, following.end))
                index += 2
                continue
        plural = _plural_role_label(label_text) if term is None and match is not None and label_text is not None else None
        if plural is not None and value_start >= cell.end:
            # "Pledgors:" alone over "(1) Liu Jianguo, a PRC citizen ..." and "(2) ...": each
            # numbered item under a plural role's label names one of its parties.
            item = index + 1
            while item < len(found) and item - index <= _PLURAL_LABEL_ITEMS:
                marker = _cues().item_marker.match(found[item].text)
                if marker is None or marker.end() == 0:
                    break
                name = _slot_name(text, found[item].start + marker.end(), found[item].end, common_words)
                if name is not None:
                    slots.append(LabelSlot(plural, found[item].start, name, found[item].end))
                item += 1
            index = item
            continue
        if term is None:
            index += 1
            continue
        value_end = cell.end
        # "Party B: 富原集團（國際）有限公司" over "TOP WEALTH GROUP (INTERNATIONAL) LIMITED": a value
        # written only in another script; the party's name in Latin letters is on the line below.
        if value_start < cell.end and not re.search(r"[A-Za-z0-9]", text[value_start : cell.end]):
            value_start = cell.end
        if value_start >= cell.end:
            # "Seller:" alone: its value is the next cell (a table's bare label cell: of its
            # row), unless that cell is another label; "Transferor (Party A):" over "Legal Name:
            # X Co., Ltd.": a name row under the role's own row holds its value.
            label_below = _LABEL.match(following.text) if following is not None else None
            name_below = label_below is not None and _NAME_ROW.fullmatch(label_below.group("label").strip()) is not None
            if following is None or (label_below is not None and not name_below) or (
                cell.in_table and following.row != cell.row and match is None
            ):
                index += 1
                continue
            value_start, value_end = following.start + (label_below.end() if name_below else 0), following.end
            following = found[index + 2] if index + 2 < len(found) else None
        limit = min(value_end, value_start + _VALUE_CHARS)
        read = name_at(text, value_start, limit)
        if read is not None:
            value_cell = LayoutCell(value_start, value_end, "", cell.row, cell.in_table)
            read = _continued_value(text, read, value_start, value_cell, following)
            if read.end > value_end:
                value_end = limit = read.end
        name = _slot_name(text, value_start, limit, common_words)
        # "Recipient: Jane Roe" over "Tel:": a contact of a notice block, unless a company.
        # (A row the preamble points at names its party, contact rows under it or not.)
        # ("Party B: Chen Lei" over "ID Number:" and "Address:": a party letter names a party,
        # whatever rows follow it.)
        # ("Licensor: Runjiao Wang" over "Address:" in a header no sentence comes before: the
        # party's own block; a notice block stands in the contract's body.)
        if name is not None and (
            has_legal_suffix(name.text)
            or pointed is not None
            or term.startswith("Party ")
            or not _contact_row(text, found, index)
            or _AGREEMENT_WORDS.search(text, 0, label_start) is None
        ):
            slots.append(LabelSlot(term, label_start, name, value_end))
        index += 1
    return slots + _unlabelled_entries(text, found, slots, common_words)


def _unlabelled_entries(
    text: str, found: list[LayoutCell], slots: list[LabelSlot], common_words: frozenset[str]
) -> list[LabelSlot]:
    """More parties of a role row, each a name alone on its cell with the same kind of rows under
    it: "Party B: Haitao Jiang (... "Pledgor")" / "Address: ***" / "ID card number: ***" / "Bing
    Wang" / "Address: ***" / ... names Bing Wang a "Pledgor" too. An entry is a cell that is no
    label, filled by a name (``_slot_name``), with a row that names no party right under it; rows
    with their value on them ("Address: ***") are skipped between entries. The run stops at the
    first cell that is neither: a role row, a row whose value is on the next line ("Legal
    Representative:" over its value, which is no entry), a heading, prose."""
    more: list[LabelSlot] = []
    for slot in slots:
        # (The cells after the slot's value: a value may run on over a line, "Changchun\nYongxin
        # Dirui Medical Co., Ltd.".)
        index = next((i for i, cell in enumerate(found) if cell.start >= max(slot.slot_end, slot.name.end)), None)
        if index is None:
            continue
        entries = 0
        while index < len(found) and entries < _ITEM_LIMIT:
            cell = found[index]
            row = _LABEL.match(cell.text)
            if row is not None:
                # A row under the entry ("Address:", "ID card number:") that names no party and
                # carries its value; a role row ends the run.
                if _label_term(row.group("label")) is not None or row.end() >= len(cell.text):
                    break
                index += 1
                continue
            following = found[index + 1] if index + 1 < len(found) else None
            row_below = _LABEL.match(following.text) if following is not None else None
            if row_below is None or _label_term(row_below.group("label")) is not None:
                break
            name = _slot_name(text, cell.start, cell.end, common_words)
            if name is None or name.start != cell.start or _FILLED_TO_END.match(text[name.end : cell.end]) is None:
                break
            more.append(LabelSlot(slot.term, cell.start, name, cell.end))
            entries += 1
            index += 2
    return more


def _marker_key(match: re.Match[str]) -> tuple[str, str] | None:
    """A list marker's kind and value: ("paren", "1"), ("dot", "a"), ("bullet", "-")."""
    for kind in ("paren", "dot", "bullet"):
        value = match.group(kind)
        if value is not None:
            return kind, value
    return None


_DEFINITION_REST = re.compile(
    r"[ \t]*,?[ \t]*\((?:the[ \t]+|hereinafter[^()\"“]{0,40})?[\"“][^\"”()]{1,40}[\"”]\)[ \t]*[.,;]?[ \t]*(?:and)?$"
)


# A role's term in brackets without quotes, closing an item ("(Council).", "(Developer)"): one to
# three capitalised words.
_UNQUOTED_ROLE_REST = re.compile(r"[ \t]*\((?:the[ \t]+)?[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+){0,2}\)[ \t]*[.,;]?[ \t]*(?:and)?$")


def _defined_item(text: str, cell: LayoutCell) -> bool:
    """Whether ``cell`` is a name followed only by its definition ("Acme Co., Ltd. (the "Pledgee")"),
    or, in a list after its lead, by its company number and its role's term without quotes
    ("Hornsby Shire Council (Council).", "Acme Pty Ltd (ACN 100 778 336) (Developer).")."""
    name = name_at(text, cell.start, cell.end)
    if name is None:
        return False
    rest = text[name.end : cell.end]
    if _DEFINITION_REST.match(rest) is not None:
        return True
    registration = _cues().registration.match(rest)
    return _UNQUOTED_ROLE_REST.match(rest[registration.end() if registration else 0 :]) is not None


def _numbered_entity(text: str, cell: LayoutCell) -> bool:
    """Whether ``cell`` is a name followed only by its identity or company number ("Jane Roe,
    I.D. no. 012345678", "Acme Ltd., PCN 512345678"; ``identity_rest``)."""
    name = name_at(text, cell.start, cell.end)
    return (
        name is not None
        and name.start == cell.start
        and _cues().identity_rest.match(text[name.end : cell.end]) is not None
    )


def _described_item(text: str, cell: LayoutCell, following: LayoutCell | None) -> bool:
    """Whether ``cell`` holds only a name with a legal form and the next cell describes it ("a
    California corporation"): a cover's list of parties after its lead."""
    if following is None or not _role_cell(following.text):
        return False
    name = name_at(text, cell.start, cell.end)
    return (
        name is not None
        and ends_in_legal_suffix(name.text)
        and _FILLED_TO_END.match(text[name.end : cell.end]) is not None
    )


def _addressed_item(text: str, cell: LayoutCell, following: LayoutCell | None) -> bool:
    """Whether ``cell`` opens with a name with a legal form, maybe with its company number, and
    its address follows, on the same line or the next ("MiniFAB (Aust) Pty Ltd ACN 100 768 474\nof
    9 The Centreway, ... (MiniFAB)", "OcuSense, Inc. of 12707 High Bluff Dr., ... (OcuSense)"): an
    unmarked entry of a list of parties after its lead."""
    name = name_at(text, cell.start, cell.end)
    if name is None or name.start != cell.start or not ends_in_legal_suffix(name.text):
        return False
    cues = _cues()
    position = name.end
    registered = cues.registration.match(text, position, cell.end)
    if registered is not None:
        position = registered.end()
    if cues.address_lead.match(text, position, cell.end) is not None:
        return True
    return (
        _FILLED_TO_END.match(text[position : cell.end]) is not None
        and following is not None
        and cues.address_lead.match(following.text) is not None
    )


def _follows(previous: tuple[str, str] | None, current: tuple[str, str]) -> bool:
    """Whether ``current`` is the next marker of the list ``previous`` opened (or opens one)."""
    kind, value = current
    if previous is None:
        return kind in ("bullet", "unmarked") or value in ("1", "a", "A", "i")
    if previous[0] != kind:
        return False
    if kind in ("bullet", "unmarked"):
        return previous[1] == value
    before = previous[1]
    if before.isdigit() and value.isdigit():
        return int(value) == int(before) + 1
    if value in ("ii", "iii", "iv", "v", "vi") or before in ("i", "ii", "iii", "iv", "v"):
        romans = ["i", "ii", "iii", "iv", "v", "vi"]
        return before in romans and value in romans and romans.index(value) == romans.index(before) + 1
    return len(before) == len(value) == 1 and ord(value) == ord(before) + 1


def _item_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """List items after a lead: "BETWEEN:\\n(1) X LIMITED ...; and\\n(2) Y PLC ...", "PARTIES\\n|(1)\\n|X Inc., ..."."""
    cues = _cues()
    names: list[_Slot] = []
    for index, cell in enumerate(found):
        if not cues.lead.search(cell.text):
            continue
        previous: tuple[str, str] | None = None
        items = 0
        position = index + 1
        last = index
        while position < min(len(found), index + 1 + _LIST_SCAN_CELLS) and items < _ITEM_LIMIT:
            item = found[position]
            position += 1
            if position - 1 - last > (_NEXT_ITEM_CELLS if items else _FIRST_ITEM_CELLS):
                break
            if cues.separator.match(item.text):
                continue
            marker = cues.item_marker.match(item.text)
            key = _marker_key(marker) if marker is not None else None
            marker_end = marker.end() if marker is not None else 0
            following = found[position] if position < len(found) else None
            # A marked list's items are all marked: a line under a marked item that ends in a
            # definition ("... Quay Lane, London (the "Landlord")") is that item's last line.
            unmarked_ok = previous is None or previous[0] == "unmarked"
            if key is None and unmarked_ok and (
                _defined_item(text, item)
                or _described_item(text, item, following)
                or _numbered_entity(text, item)
                or _addressed_item(text, item, following)
            ):
                # "Wen Jiaqi (the "Pledgor")\nID No.: ...", "Hollowell Corporation\na Nevada
                # corporation": an unmarked item, a name filling its line with its definition
                # or above its description line, its particulars on the rows below ("Jane Roe,
                # I.D. no. 012345678\nOf 4 Elm St.\n(Hereinafter: "Seller")": a name and its number).
                key = ("unmarked", "")
            if key is None:
                continue
            if not _follows(previous, key):
                break
            previous, items, last = key, items + 1, position - 1
            start, end = item.start + marker_end, item.end
            if start >= end and position < len(found):
                # "|(1)\n|Harlow Vane, Inc., a company ...": the marker alone in its cell.
                start, end = found[position].start, found[position].end
                position += 1
            # An item's bare name is closed by its description (", holder of ...", "(the
            # "Executive")"); one that fills its line is a heading ("(1) DEFINITIONS").
            name = _slot_name(text, start, min(end, start + _VALUE_CHARS), common_words)
            if name is not None and (
                has_legal_suffix(name.text) or re.match(r"[ \t]*[,(]", text[name.end : end])
                # ("1. TRANSPORT FOR LONDON of Windsor House, 42-50 Victoria Street,": a name its
                # address follows, a number in it; "1. INTERPRETATION OF TERMS" has none.)
                or _addressed(text[name.end : end])
            ):
                names.append((name, end))
    return names


def _unled_item(
    text: str, cell: LayoutCell, following: LayoutCell | None, common_words: frozenset[str]
) -> tuple[NameSpan | None, int, bool]:
    """The name an item of a list without a lead holds, where its slot ends, and whether it is a
    person's name that only fills its line: a name with a legal form, or a person's name (two to
    ``_MAX_PERSON_WORDS`` words) closed by a comma or a parenthesis ("Jane Roe, a citizen of ...")
    or filling the line ("(2) LAURENCE BAIN" on a cover); the marker may stand alone in its cell."""
    marker = _cues().item_marker.match(cell.text)
    start, end = cell.start + (marker.end() if marker is not None else 0), cell.end
    if start >= end and following is not None:
        start, end = following.start, following.end
    name = _slot_name(text, start, min(end, start + _VALUE_CHARS), common_words)
    if name is None or name.start != start:
        return None, end, False
    if has_legal_suffix(name.text):
        return name, end, False
    words = [w.strip(".,'’").casefold() for w in name.text.split()]
    if len(words) > _MAX_PERSON_WORDS or words[0] in _CONNECTORS:
        return None, end, False
    if re.match(r"[ \t]*[,(]", text[name.end : end]) is not None:
        return name, end, False
    filled = (
        len(words) >= 2
        and _FILLED_TO_END.match(text[name.end : end]) is not None
        and not set(words) & common_words
    )
    return (name, end, True) if filled else (None, end, False)


def _unled_list_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """A numbered list of the parties that opens the document without a lead ("(1)\nJane Roe,
    a citizen of ...;\n(2)\nAcme Co., Ltd. (the "Pledgee")."), among its first cells. Every
    item of the run must hold a name (the recitals' numbered prose breaks the run, and then
    nothing is read), at least two, one of them with a legal form. A person's name that only
    fills its line counts on a cover, a run with the title or date line right beside it ("DATED
    23 April 2004\n(1) ACME PLC\n(2) JANE ROE\nSERVICE AGREEMENT")."""
    cues = _cues()
    markers = [cues.item_marker.match(cell.text) for cell in found[:_CAPTION_CELLS]]
    first = next((i for i, m in enumerate(markers) if m is not None and _marker_key(m) == ("paren", "1")), None)
    if first is None:
        return []
    run: list[_Slot] = []
    previous: tuple[str, str] | None = None
    position, last = first, first
    bare_person = False
    while position < len(found) and len(run) < _ITEM_LIMIT and position - last <= _NEXT_ITEM_CELLS:
        cell = found[position]
        position += 1
        marker = cues.item_marker.match(cell.text)
        key = _marker_key(marker) if marker is not None else None
        if key is None or key[0] != "paren":
            continue
        if not _follows(previous, key):
            break
        following = found[position] if position < len(found) else None
        name, slot_end, filled = _unled_item(text, cell, following, common_words)
        if name is None:
            return []
        run.append((name, slot_end))
        bare_person = bare_person or filled
        previous, last = key, position - 1
    if len(run) < 2 or not any(has_legal_suffix(name.text) for name, _ in run):
        return []
    if bare_person:
        beside = [found[i] for i in (first - 2, first - 1, last + 1, last + 2) if 0 <= i < len(found)]
        if not any(_title_cell(cell.text) for cell in beside):
            return []
    return run


_RUN_ON_JOIN = re.compile(r"[ \t\n]*(?:,[ \t\n]*)?(?:(?:and|AND)[ \t\n]+)?")


def _run_on_names(text: str, name: NameSpan, common_words: frozenset[str]) -> list[NameSpan]:
    """Names with a legal form that follow ``name`` with nothing between them but a comma or
    "and", maybe over a line break: one item listing several companies ("(4) ACME LIMITED ACME
    TRADING LIMITED and ACME\nSERVICES LIMITED whose registered offices are ..."). Each is a party
    of its own; a legal form closes each name, so none is a piece of another. At most
    ``_ITEM_LIMIT`` more."""
    more: list[NameSpan] = []
    end = name.end
    while len(more) < _ITEM_LIMIT:
        join = _RUN_ON_JOIN.match(text, end)
        start = join.end() if join is not None else end
        if start == end and start < len(text) and not text[start].isspace():
            break
        following = _checked(text, name_at(text, start, min(len(text), start + _VALUE_CHARS)), common_words)
        if following is None or following.start != start or not ends_in_legal_suffix(following.text):
            break
        more.append(following)
        end = following.end
    return more


def _inline_item_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """A numbered list run into one line ("... DEED (1) Acme Limited (in liquidation) (2)
    Beta Limited (3) ..."): consecutive numbers from (1), each name ending in a legal form (no
    line layout backs a bare name here)."""
    names: list[_Slot] = []
    for cell in found:
        numbers = list(_INLINE_NUMBER.finditer(text, cell.start, cell.end))
        run: list[_Slot] = []
        expected = 1
        for number, following in zip(numbers, [*numbers[1:], None]):
            if int(number.group(1)) != expected:
                break
            expected += 1
            limit = following.start() if following is not None else min(cell.end, number.end() + _VALUE_CHARS)
            name = _checked(text, name_at(text, number.end(), limit), common_words)
            if name is not None and ends_in_legal_suffix(name.text):
                run.append((name, limit))
            else:
                person = _inline_person(text, number.end(), limit, common_words)
                if person is not None:
                    run.append((person, limit))
            if len(run) >= _ITEM_LIMIT:
                break
        # A person's item counts only beside a company's: two person-shaped items alone may be
        # a numbered heading run ("(1) GENERAL TERMS (2) SPECIAL TERMS").
        if len(run) >= 2 and any(has_legal_suffix(name.text) for name, _ in run):
            names.extend(run)
    return names


def _trailing_number_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """A cover's entries numbered after the name, one per line or run into one ("DATED 14 JANUARY
    2002 ACME LIMITED(1) - AND - BETA LIMITED(2)"): consecutive numbers from (1), at least two,
    each closing a name that ends in a legal form. A name starts at the earliest word of the
    capitalised run before its number from which the name reader reads up to the number."""
    markers = [m for cell in found for m in _TRAILING_NUMBER.finditer(text, cell.start, cell.end)]
    run: list[_Slot] = []
    expected = 1
    previous_end = 0
    for marker in markers:
        if int(marker.group(1)) != expected:
            break
        name = _name_before(text, max(previous_end, text.rfind("\n", 0, marker.start()) + 1), marker.start(), common_words)
        if name is None:
            break
        run.append((name, marker.end()))
        expected += 1
        previous_end = marker.end()
        if len(run) >= _ITEM_LIMIT:
            break
    return run if len(run) >= 2 else []


def _name_before(text: str, floor: int, end: int, common_words: frozenset[str]) -> NameSpan | None:
    """The name ending in a legal form that ends at ``end``, read from the earliest capitalised
    word before it (none before ``floor``). A run longer than ``_BACKWARD_WORDS`` words gives no
    name: where it starts cannot be told, and a name cut short is a wrong name. (``names.name_before``
    reads its window's runs from the front, and a cover's date and dashes before the name leave it
    none to read: "DATED 14 JANUARY 2002 ACME LIMITED".)"""
    starts: list[tuple[int, str]] = []
    for word in reversed(list(re.finditer(r"\S+", text[floor:end]))):
        if not _BACKWARD_NAME_WORD.match(word.group()):
            break
        if len(starts) == _BACKWARD_WORDS:
            return None
        starts.append((floor + word.start(), word.group()))
    for start, word in reversed(starts):
        if word.casefold() in _CONNECTORS:
            continue
        name = _checked(text, name_at(text, start, end), common_words)
        if name is not None and name.start == start and not text[name.end : end].strip() and ends_in_legal_suffix(name.text):
            return name
    return None


# A person's name in one case throughout: "JANE Q. ROE", "Jane Q. Roe", "J Roe" (an initial
# with or without its dot), two to ``_MAX_PERSON_WORDS`` words.
_CAPS_WORD = r"(?:[A-Z]\.?|[A-Z][A-Z'’\-]+)(?![\w'’\-])"
_TITLE_WORD = r"(?:[A-Z]\.?|[A-Z][a-z][a-z'’\-]*)(?![\w'’\-])"
_INLINE_PERSON = re.compile(
    rf"(?P<caps>{_CAPS_WORD}(?:[ \t]+{_CAPS_WORD}){{1,{_MAX_PERSON_WORDS - 1}}})"
    rf"|(?P<title>{_TITLE_WORD}(?:[ \t]+{_TITLE_WORD}){{1,{_MAX_PERSON_WORDS - 1}}})"
)
_INLINE_CLOSE = re.compile(r"[ \t]*(?:[,;(]|$)")
_MIXED_CASE_WORD = re.compile(r"[ \t]+[A-Z][a-z]")
_CAPS_RUN_WORD = re.compile(r"[ \t]+[A-Z]{2,}\b")


def _inline_person(text: str, start: int, limit: int, common_words: frozenset[str]) -> NameSpan | None:
    """A person's name as an item of a numbered run ("(2) JANE ROE Service Agreement", "(3) J
    Roe AGREEMENT FOR SALE"): person-shaped words in one case, closed by punctuation, the item's
    end, or a word in the other case (the document's title after the cover's last party); no
    word the document writes in lower case, no connector first, no initial last."""
    found = _INLINE_PERSON.match(text, start, limit)
    if found is None:
        return None
    rest = text[found.end() : limit]
    after = _MIXED_CASE_WORD if found.group("caps") else _CAPS_RUN_WORD
    if not (_FILLED_TO_END.match(rest) or _INLINE_CLOSE.match(rest) or after.match(rest)):
        return None
    words = [w.strip(".'’").casefold() for w in found.group().split()]
    if len(words[-1]) < 2 or words[0] in _CONNECTORS:
        return None
    if any(w in common_words or w in _CONNECTORS for w in words if len(w) > 1):
        return None
    return _checked(text, NameSpan(found.group(), found.start(), found.end()), common_words)


def _fills(text: str, name: NameSpan, cell: LayoutCell) -> bool:
    """Whether ``name`` fills its cell, up to punctuation or a role stated in the same cell (its
    company number may follow it: "Acme Pty Ltd ACN 618 123 970")."""
    registered = _cues().registration.match(text, name.end, cell.end)
    rest = text[registered.end() if registered is not None else name.end : cell.end].strip()
    return name.start == cell.start and (
        not rest or _FILLED_TO_END.match(rest) is not None or _role_cell(rest.lstrip(", "))
    )


def _address_cell(cell_text: str) -> bool:
    """A cover's address line under a name: it holds a number ("An der Goldgrube 12", "D-55131
    Mainz") and no legal form."""
    if _cues().registration.search(cell_text) is not None:
        return False  # ("The Council of the City of Ryde ABN 81 621 292 610": a company number.)
    return re.search(r"[0-9]", cell_text) is not None and not has_legal_suffix(cell_text)


def _cover_name(text: str, cell: LayoutCell, common_words: frozenset[str], *, roled: bool) -> NameSpan | None:
    name = name_at(text, cell.start, cell.end)
    # ("1- TRANSGLOBE ENERGY CORPORATION\n...\n2- THE YEMEN COMPANY": the line's item number is
    # no word of the name; the name fills the rest of the line.)
    bare = without_enumerator(text, name) if name is not None else None
    if name is not None and bare is not None and bare.start > name.start:
        cell = replace(cell, start=bare.start, text=text[bare.start : cell.end])
        name = name_at(text, bare.start, cell.end)
    # ("The Council of the City of Ryde ABN 81 621 292 610": a name without a legal form read on
    # into its company number ends before it.)
    if name is not None:
        name = without_registration(name)
    name = _checked(text, name, common_words)
    if name is None or not _fills(text, name, cell):
        return None
    if ends_in_legal_suffix(name.text) or has_legal_suffix(name.text.split(",")[0]):
        return name
    # "DOT VN LIMITED LIABILITY COMPANY\nAND\nQUANG TRUNG SOFTWARE CITY DEVELOPMENT COMPANY": an
    # organisation's head noun names it as a legal form would, and so does a local government's
    # unit ("SALDANHA BAY MUNICIPALITY\nand\nSWARTLAND MUNICIPALITY").
    if (organisation_head(name.text) or ends_in_local_unit(name.text)) and name.text[:1].isalpha():
        return name
    # A bare name stacked on a cover needs its role line ("JOHN ROE\nAS CONSULTANT"): a heading
    # split by "AND" ("INTELLECTUAL PROPERTY\nAND\nTECHNOLOGY TRANSFER") is shouted too.
    return name if _bare_name(name.text) and roled else None


def _cover_person(text: str, cell: LayoutCell, common_words: frozenset[str]) -> NameSpan | None:
    name = _cover_name(text, cell, common_words, roled=True)
    if name is None or has_legal_suffix(name.text) or len(name.text.split()) > _MAX_PERSON_WORDS:
        return None
    # "OF THE ONE PART" under a party's entry is prose in capitals: a person's name opens with a
    # name word and holds no word the document writes in lower case.
    words = [w.strip(".,'’").casefold() for w in name.text.split()]
    if words[0] in _CONNECTORS or any(w in common_words for w in words):
        return None
    return name


def _wrapped_cover_name(text: str, upper: LayoutCell, lower: LayoutCell, common_words: frozenset[str]) -> NameSpan | None:
    """The name with a legal form that two stacked cover lines hold together, when the upper line
    holds no legal form and is no separator, role or title line ("SHANGHAI QUILL LONG MARCH
    MEDICAL" over "SCIENCE CO. LTD."); None otherwise."""
    cues = _cues()
    if (
        upper.in_table or lower.in_table or upper.row + 1 != lower.row
        or cues.separator.match(upper.text) or _role_cell(upper.text) or _title_cell(upper.text)
        or has_legal_suffix(upper.text) or not upper.text.isupper()
    ):
        return None
    joined = LayoutCell(upper.start, lower.end, text[upper.start : lower.end], upper.row, False)
    name = _cover_name(text, joined, common_words, roled=False)
    return name if name is not None and ends_in_legal_suffix(name.text) else None


_TRAILING_AND = re.compile(r"[ \t]+(?:and|AND)[ \t]*\Z")


def _cover_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """A cover page's stacked names: "X LIMITED\\n- and -\\nY PLC", "X LLC\\nAS LANDLORD\\nAND\\nY LLC\\nAS TENANT"."""
    cues = _cues()
    names: list[_Slot] = []
    for index, cell in enumerate(found):
        if not cues.separator.match(cell.text) or cell.in_table:
            continue
        # The name above the separator, past its role lines, or past its address lines ("BioNTech
        # RNA Pharmaceuticals GmbH\nAn der Goldgrube 12\nD-55131 Mainz\nand\n...": each holds a
        # number; then only a name with a legal form counts).
        above = index - 1
        while above >= 0 and index - above <= _ROLE_CELLS_LIMIT and _role_cell(found[above].text):
            above -= 1
        if above == index - 1:
            while above >= 0 and index - above <= _ROLE_CELLS_LIMIT and _address_cell(found[above].text):
                above -= 1
            if above < index - 1 and (above < 0 or not has_legal_suffix(found[above].text)):
                continue
        below = index + 1
        if above < 0 or below >= len(found):
            continue
        roled_below = below + 1 < len(found) and _role_cell(found[below + 1].text)
        first = _cover_name(text, found[above], common_words, roled=above < index - 1)
        second = _cover_name(text, found[below], common_words, roled=roled_below)
        # ("SHANGHAI QUILL LONG MARCH MEDICAL\nSCIENCE CO. LTD." on either side: a name with a
        # legal form wrapped over two lines of the cover, its first line no name of its own.)
        if above == index - 1 and above >= 1:
            wrapped = _wrapped_cover_name(text, found[above - 1], found[above], common_words)
            if wrapped is not None:
                first = wrapped
        if second is None and below + 1 < len(found):
            second = _wrapped_cover_name(text, found[below], found[below + 1], common_words) or second
        # ("and\nBavarian State Bank and\nDeutsche Bank AG ...\n(as Mandated Lead Arrangers)": the
        # entry below names two parties sharing one role, its first line closed by "and".)
        joined = _TRAILING_AND.search(found[below].text) if second is None else None
        if joined is not None:
            head = found[below].text[: joined.start()]
            second = _cover_name(
                text, replace(found[below], end=found[below].start + len(head), text=head), common_words, roled=False
            )
        # "ACME HOLDINGS LIMITED\nand\nJANE ROE": a company stacked with a person's name (two to
        # four words) is a cover naming both parties, without a role line; a heading split by
        # "AND" has no legal form on either side.
        if first is None and second is not None and has_legal_suffix(second.text):
            first = _cover_person(text, found[above], common_words)
        elif second is None and first is not None and has_legal_suffix(first.text):
            second = _cover_person(text, found[below], common_words)
        # Both sides must read as names: a separator between prose lines stacks nothing.
        if first is None or second is None:
            continue
        # ("AMONG\nA CHEMICAL CORPORATION,\nB PETROCHEMICAL COMPANY,\nC CHEMICALS INC.\nAND\nD, LP":
        # the entries stacked above the name over the separator, each closed by a comma, are more
        # names of the same list.)
        earlier: list[_Slot] = []
        previous = above - 1
        while (
            previous >= 0 and above - previous <= _ITEM_LIMIT and not found[previous].in_table
            and found[previous].text.rstrip().endswith(",")
        ):
            name = _stacked_entry(text, found[previous], common_words)
            if name is None:
                break
            earlier.append((name, found[previous].end))
            previous -= 1
        names.extend([*reversed(earlier), (first, found[above].end), (second, found[below].end)])
    return names


# A separator line flanked by dashes ("- and -", "–and–") stands only between the entries of a
# party list. Each entry is a paragraph that opens with the party's name and goes on with its
# description ("The MINDANAO STATE UNIVERSITY AT NAAWAN, an autonomous external campus ...",
# "The COMMISSION ON HIGHER EDUCATION (CHED), an agency of ...").
_DASHED_SEPARATOR = re.compile(r"[-–—][ \t]*(?:and|AND|And)[ \t]*[-–—][,;]?")
_ENTRY_CLOSE = re.compile(r"[ \t]*[,(;]")
_ENTRY_LINES = 8  # lines of the entry above a separator walked back to its first


def _entry_name(text: str, cell: LayoutCell, common_words: frozenset[str]) -> NameSpan | None:
    """The name opening an entry's first line, closed by a comma, a parenthesis or a semicolon:
    one with a legal form, an organisation's head noun, or capitalised words and joiners only."""
    name = _checked(text, name_at(text, cell.start, cell.end), common_words)
    if name is None or name.start != cell.start or _ENTRY_CLOSE.match(text, name.end, cell.end) is None:
        return None
    # ("ACME LIMITED (1)\n- AND -\n...": an entry numbered after its name is the trailing-number
    # reader's, with its own bounds.)
    if _TRAILING_NUMBER.match(text, name.end, cell.end) is not None:
        return None
    if has_legal_suffix(name.text) or organisation_head(name.text) or _bare_name(name.text):
        return name
    return None


def _dashed_entry_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """The two entries around each dashed separator line, a list's items: the one below opens on
    the next line, the one above on the first line of its paragraph (after a blank line, at most
    _ENTRY_LINES lines up)."""
    names: list[_Slot] = []
    for index, cell in enumerate(found):
        if cell.in_table or _DASHED_SEPARATOR.fullmatch(cell.text) is None or index + 1 >= len(found):
            continue
        below = _entry_name(text, found[index + 1], common_words)
        first = index - 1
        while first > 0 and index - first < _ENTRY_LINES and not _BLANK_LINE.search(text, found[first - 1].end, found[first].start):
            first -= 1
        above = None
        if first >= 0 and index - first <= _ENTRY_LINES and (first == 0 or _BLANK_LINE.search(text, found[first - 1].end, found[first].start)):
            above = _entry_name(text, found[first], common_words)
        # Both sides must read as entries: a separator with one entry beside it stacks nothing.
        if above is not None and below is not None:
            names.extend([(above, found[first].end), (below, found[index + 1].end)])
    return names


_CAPTION_DASH = re.compile(r"[ \t]+[-–—][ \t]+")
_CAPTION_AND = re.compile(r"[ \t]+(?:and|AND)[ \t]+")


def _caption_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """A caption line that names the parties after the document's title and a dash ("Employment
    Agreement - Acme Corp. and Jane Q. Roe", "Office Lease - Roe Associates and Acme Co. Inc."),
    among the opening's first cells. Every piece between the "and"s must be a name that fills it
    (a legal form, or two to six capitalised words), at least two; otherwise the line is no
    caption ("Agreement - Schedule of Fees and Charges")."""
    cues = _cues()
    names: list[_Slot] = []
    for cell in found[:_CAPTION_CELLS]:
        for dash in _CAPTION_DASH.finditer(text, cell.start, cell.end):
            title_words = re.findall(r"[A-Za-z]+", text[cell.start : dash.start()])
            if not title_words or title_words[-1].casefold() not in cues.caption_title_words:
                continue
            pieces: list[tuple[int, int]] = []
            begin = dash.end()
            for join in [*_CAPTION_AND.finditer(text, begin, cell.end), None]:
                pieces.append((begin, join.start() if join is not None else cell.end))
                if join is not None:
                    begin = join.end()
            read = [_caption_piece(text, start, end, common_words) for start, end in pieces]
            if len(read) >= 2 and all(name is not None for name in read):
                names.extend((name, name.end) for name in read if name is not None)
            break
    return names


# A cover run into one line: the heading, two names joined by "AND", then the date or the contents
# ("JOINT VENTURE AGREEMENT ACME MINING LIMITED AND BETA GOLD LIMITED January 22, 2007 TABLE OF
# CONTENTS"), as pages that lost their line breaks store a cover.
_RUN_IN_COVER = re.compile(
    r"\b(?:AGREEMENT|CONTRACT)[ \t]+(?P<first>[A-Z][^\n]{2,150}?)[ \t]+(?:AND|-[ \t]*AND[ \t]*-)[ \t]+"
    r"(?P<second>[A-Z][^\n]{2,150}?)(?=[ \t]+(?:DATED|Dated|dated|TABLE[ \t]+OF[ \t]+CONTENTS)\b|[ \t]*$|[ \t]+[A-Z][a-z]+[ \t]+\d{1,2},[ \t]+\d{4})",
    re.M,
)


# The same with the date first and the heading after the names ("DATED 7 DECEMBER, 1999 ACME
# P.L.C. and BETA, INC. FRAMEWORK AGREEMENT LINKLATERS ..."), as an English cover run into one line:
# the date and the first name up to "and"; the second name is read from there (``_COVER_HEADING``
# must follow it).
_DATED_RUN_IN_COVER = re.compile(
    r"\b(?:DATED|Dated)[ \t]+(?:\d{1,2}(?:st|nd|rd|th)?[ \t]+[A-Za-z]{3,9},?|[A-Za-z]{3,9}[ \t]+\d{1,2}(?:st|nd|rd|th)?,?)[ \t]+\d{4}"
    r"[ \t]+(?P<first>[A-Z][^\n]{2,150}?)[ \t]+(?:and|AND|-[ \t]*(?:and|AND)[ \t]*-)[ \t]+(?=[A-Z])"
)
_COVER_HEADING = re.compile(r"[ \t]+(?:[A-Z][A-Za-z&\-]*[ \t]+){0,8}(?:AGREEMENT|Agreement|CONTRACT|Contract)\b")


def _run_in_cover_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """The two names of a cover run into one line after its heading (``_RUN_IN_COVER``) or after
    its date and before its heading (``_DATED_RUN_IN_COVER``), among the opening's first cells:
    each must fill its piece and end in a legal form."""
    names: list[_Slot] = []
    for cell in found[:_CAPTION_CELLS]:
        match = _RUN_IN_COVER.search(text, cell.start, cell.end)
        if match is not None:
            read = [_caption_piece(text, match.start(g), match.end(g), common_words) for g in ("first", "second")]
        else:
            match = _DATED_RUN_IN_COVER.search(text, cell.start, cell.end)
            if match is None:
                continue
            second = _checked(text, name_at(text, match.end(), min(cell.end, match.end() + _VALUE_CHARS)), common_words)
            if second is None or second.start != match.end() or _COVER_HEADING.match(text, second.end, cell.end) is None:
                continue
            read = [_caption_piece(text, match.start("first"), match.end("first"), common_words), second]
        if all(name is not None and ends_in_legal_suffix(name.text) for name in read):
            names.extend((name, name.end) for name in read if name is not None)
    return names


def _caption_piece(text: str, start: int, end: int, common_words: frozenset[str]) -> NameSpan | None:
    name = _checked(text, name_at(text, start, end), common_words)
    if name is None or name.start != start or _FILLED_TO_END.match(text[name.end : end]) is None:
        return None
    return name if has_legal_suffix(name.text) or _bare_name(name.text) else None


def _label_stack_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """A party label alone in its cell over names stacked one per cell ("|Borrower\nAcme
    Limited\nBeta Limited\nGamma Limited", "Lenders:\nX Bank Ltd\nY Bank plc"): each cell
    filled by a name with a legal form is one more party of that role, up to the first cell that
    is none. At least two (one name is the label row's own value)."""
    names: list[_Slot] = []
    for index, cell in enumerate(found):
        label = cell.text.rstrip(" \t:：")
        if cell.text != label and not cell.text.rstrip().endswith((":", "：")):
            continue
        if _label_term(label) is None:
            continue
        stack: list[_Slot] = []
        for below in found[index + 1 : index + 1 + _ITEM_LIMIT]:
            name = _cover_name(text, below, common_words, roled=False)
            if name is None or not has_legal_suffix(name.text):
                break
            stack.append((name, below.end))
        if len(stack) >= 2:
            names.extend(stack)
    return names


_TRUSTEE_CLAUSE = re.compile(r"[ \t]+(?:as|AS)[ \t]+(?:trustee|TRUSTEE)[ \t]+(?:for|of|FOR|OF)[ \t]+(?:the[ \t]+|THE[ \t]+)?[A-Z][^()\n]{0,60}?(?=[ \t]*(?:\(|ABN|ACN|ARBN|ARSN))")
# The same capacity closing a stacked cover entry: the trust's name runs to the line's end or to
# its number.
_STACKED_TRUSTEE = re.compile(r"[ \t]+(?:as|AS)[ \t]+(?:trustee|TRUSTEE)[ \t]+(?:for|of|FOR|OF)[ \t]+(?:the[ \t]+|THE[ \t]+)?[A-Z][^()\n]{0,60}?(?=[ \t]*(?:ABN|ACN|ARBN|ARSN|$))", re.MULTILINE)
_BARE_TERM = re.compile(r"[ \t]*\([ \t]*(?:together[ \t]+|each[ \t]+)?[A-Z][\w&'’\-]*(?:[ \t]+[A-Z][\w&'’\-]*){0,3}[ \t]*\)")
_ASIDE = re.compile(r"[ \t]*\([^()\n]{1,40}\)")
_WORD_START = re.compile(r"(?<![\w&/.'’\-()])[A-Z0-9]")


def _closed_entry(text: str, name: NameSpan, limit: int) -> int | None:
    """Where a cover entry run into a line ends when ``name`` is closed as a party's entry: a
    registration number's label ("(ACN 000 000 000)", "ABN"), or asides ending in a bare
    capitalised term ("(in liquidation) (Vendor)", "(together Sponsors)"), maybe after
    a trustee's capacity ("as trustee for the Roe Family Trust"). None when it is not closed so."""
    cues = _cues()
    position = name.end
    trustee = _TRUSTEE_CLAUSE.match(text, position, limit)
    if trustee is not None:
        position = trustee.end()
    registered = cues.registration.match(text, position, limit)
    if registered is not None:
        position = registered.end()
    closed = registered is not None
    while True:
        term = _BARE_TERM.match(text, position, limit)
        aside = _ASIDE.match(text, position, limit)
        if term is not None:
            position, closed = term.end(), True
        elif aside is not None:
            position = aside.end()
        else:
            break
    return position if closed else None


def _registered_run_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """A cover run into one line that lists the parties, each name with a legal form closed by
    its company number or its bare defined term ("Acme Pty Ltd (ACN 1) (Owner) Beta Limited
    (ABN 2) and Gamma Pty Ltd (ABN 3) (together Sponsors)"), on the first page. At least two in
    one cell; a firm without a legal form (the law firm that drew the deed) is not read."""
    names: list[_Slot] = []
    for cell in found:
        if cell.start >= _COVER_RUN_CHARS:
            break
        run: list[_Slot] = []
        position = cell.start
        for start in _WORD_START.finditer(text, cell.start, cell.end):
            if start.start() < position:
                continue
            name = _checked(text, name_at(text, start.start(), cell.end), common_words)
            # ("Harbour Parklands Trust (ABN 1) (Owner)": an organisation named by its head noun is
            # closed by its number as a company is.)
            if name is None or name.start != start.start() or not (
                ends_in_legal_suffix(name.text) or (organisation_head(name.text) and name.text[:1].isalpha())
            ):
                continue
            closed = _closed_entry(text, name, cell.end)
            if closed is None:
                continue
            run.append((_wrapped_over_line_above(text, name, cell.end, common_words), closed))
            position = closed
            if len(run) >= _ITEM_LIMIT:
                break
        if len(run) >= 2:
            names.extend(run)
    return names


_WRAPPED_HEAD_CHARS = 80


def _wrapped_over_line_above(text: str, name: NameSpan, limit: int, common_words: frozenset[str]) -> NameSpan:
    """``name`` with its first words, when it opens its line and the line above (no blank line
    between) ends in them: a sentence wrapped inside the name ("between MAINES PAPER & FOOD\nSERVICE,
    INC. (MAINES), and ..."); else ``name``."""
    line_start = text.rfind("\n", 0, name.start) + 1
    if line_start == 0 or text[line_start : name.start].strip():
        return name
    above_start = text.rfind("\n", 0, line_start - 1) + 1
    if not text[above_start : line_start - 1].strip():
        return name
    # (Only the line's last words can open the name: at most ``_WRAPPED_HEAD_CHARS`` of it are read,
    # and the reading must open where a run of capitalised words does: after a lower-case word or
    # punctuation, "between MAINES", never inside a longer run.)
    window = max(above_start, line_start - 1 - _WRAPPED_HEAD_CHARS)
    for word in _WORD_START.finditer(text, window, line_start - 1):
        wider = _checked(text, name_at(text, word.start(), limit), common_words)
        if wider is None or wider.start != word.start() or wider.end != name.end:
            continue
        before = re.search(r"(\S+)[ \t]*\Z", text[above_start : wider.start])
        if before is None or before.group(1)[:1].islower() or before.group(1)[-1:] in ",;:(":
            return wider
        return name
    return name


def _registered_chain_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """Companies listed one after another, each closed by its company number and joined by a
    comma or "and", maybe over line breaks (a letter's addressees: "ACME LIMITED (Registered
    No.: 1), BETA\nHOLDINGS LIMITED (Registered No.: 2) and GAMMA LIMITED (Registered No.:
    3)"), on the first page. The chain opens at a line's start with a name that ends on its line
    (a heading line above, "The Directors", is no part of it); at least two names."""
    cues = _cues()
    names: list[_Slot] = []
    taken = 0
    for cell in found:
        if cell.start >= _COVER_RUN_CHARS:
            break
        if cell.start < taken or (cell.start > 0 and text[cell.start - 1] not in "\n"):
            continue
        chain: list[_Slot] = []
        position = cell.start
        while len(chain) < _ITEM_LIMIT:
            limit = min(len(text), position + _VALUE_CHARS)
            name = _checked(text, name_at(text, position, limit), common_words)
            if name is None or name.start != position or not ends_in_legal_suffix(name.text) or not name.text[:1].isalnum():
                break
            if not chain and "\n" in name.text:
                break
            # (The number may open the next line: "... SYSTEMS LIMITED\n(Registered No.: 4)".)
            gap = re.match(r"[ \t]*\n?", text[name.end : limit])
            registered = cues.registration.match(text, name.end + (gap.end() if gap else 0), limit)
            if registered is None or not registered.group().lstrip().startswith("("):
                break
            chain.append((name, registered.end()))
            # The next name follows a comma or an "and", nothing else ("(ACN 1) (Company) X" is
            # a cover run's entry, read there).
            join = _RUN_ON_JOIN.match(text, registered.end())
            if join is None or not re.search(r"[,]|\band\b|\bAND\b", join.group()):
                break
            position = join.end()
        if len(chain) >= 2:
            names.extend(chain)
            taken = chain[-1][1]
    return names


_DATE_LINE = re.compile(r"(?i:dated|date)\b[ \t:]*[\w ,.]{0,30}$")
# A cover's date alone on its line ("6 November 2016", "November 6, 2016").
_BARE_DATE_LINE = re.compile(
    r"[ \t]*(?:[0-9]{1,2}(?:st|nd|rd|th)?[ \t]+[A-Z][a-z]{2,8}|[A-Z][a-z]{2,8}[ \t]+[0-9]{1,2}(?:st|nd|rd|th)?,?)[ \t]+(?:19|20)[0-9]{2}[ \t]*"
)
# A title's subtitle after a dash or colon ("Sale Agreement – Gruyere Project").
_SUBTITLE = re.compile(r"[ \t]+[\-–—][ \t]+|:[ \t]+")


def _title_cell(text: str) -> bool:
    """A cell holding a document's title ("Technology Licence Agreement": its last word a
    ``caption_title_words`` word, maybe before a subtitle, "Sale Agreement – Gruyere Project") or
    its date line ("Dated 1 March 2010", "6 November 2016")."""
    head = _SUBTITLE.split(text, maxsplit=1)[0]
    for part in dict.fromkeys((text, head)):
        words = re.findall(r"[A-Za-z]+", part)
        if words and words[-1].casefold() in _cues().caption_title_words and len(words) <= 8:
            return True
    return _DATE_LINE.match(text) is not None or _BARE_DATE_LINE.fullmatch(text) is not None


def _stacked_entry(text: str, cell: LayoutCell, common_words: frozenset[str]) -> NameSpan | None:
    """The name filling ``cell`` on a cover that stacks names without a separator: one with a
    legal form or an organisation's head noun ("... Research Organisation"), maybe followed by
    its company number ("ACN 000 000 000")."""
    # ("PARTIES\n1. MYKRIS LIMITED\n2. ...": a numbered item is a list's, which ``_item_names`` reads.)
    if _cues().item_marker.match(cell.text) is not None:
        return None
    name = _checked(text, name_at(text, cell.start, cell.end), common_words)
    if name is None or name.start != cell.start:
        return None
    if not (ends_in_legal_suffix(name.text) or (organisation_head(name.text) and name.text[:1].isalpha())):
        return None
    position = name.end
    # ("Acme Pty Ltd as trustee for the Acme Unit Trust": the trustee is the party, in its capacity.)
    trustee = _STACKED_TRUSTEE.match(text, position, cell.end)
    if trustee is not None:
        position = trustee.end()
    registered = _cues().registration.match(text, position, cell.end)
    if registered is not None:
        position = registered.end()
    # ("Cobar Management Pty. Limited (ACN 083 171 546) (Grantor)": a deed's cover closes each entry
    # with the party's role in brackets.)
    role = _BARE_TERM.match(text, position, cell.end)
    if role is not None and role.group().strip(" \t()").casefold() in _cues().roles:
        position = role.end()
    return name if _FILLED_TO_END.match(text[position : cell.end]) is not None else None


# A line naming a statute by its year ("Environmental Planning and Assessment Act 1979").
_STATUTE_LINE = re.compile(r"\b(?:Act|ACT)[ \t]+(?:No\.?[ \t]+\d+[ \t]+of[ \t]+)?(?:1[89]|20)\d\d\b")


def _title_stack_names(text: str, found: list[LayoutCell], common_words: frozenset[str]) -> list[_Slot]:
    """A first page that stacks the parties one per line, without a separator (each maybe over
    its role line), right under or over the title or date line ("Dated 1 March 2010\nAcme Pty Ltd ACN 000 000
    000\nBeta Limited\nLicence Agreement"): each stacked cell a name with a legal form or an
    organisation's head noun, at least two, one with a legal form. A stack with no title or
    date line beside it (a notice list, an address block) is not read."""
    names: list[_Slot] = []
    index = 0
    while index < len(found) and found[index].start < _COVER_RUN_CHARS:
        stack: list[_Slot] = []
        end = index
        while end < len(found) and len(stack) < _ITEM_LIMIT and not found[end].in_table:
            name = _stacked_entry(text, found[end], common_words)
            if name is None:
                break
            stack.append((name, found[end].end))
            end += 1
            # ("Lease Agreement\nProperty Reserve, Inc.\nLandlord\nFlow International
            # Corporation\nTenant": each name over its role line, a party role alone; "as Lead
            # Arranger" under a lender's name is a capacity, which the capacity reader weighs.)
            if end < len(found) and not found[end].in_table and _bare_role(found[end].text):
                end += 1
        if stack:
            beside = [found[i] for i in (index - 1, end) if 0 <= i < len(found)]
            # ("Mirvac Planning Agreement\nUnder s93F of the Environmental Planning and Assessment
            # Act 1979\nBlacktown City Council\n...": the statute a title is made under stands
            # between the title and the stack.)
            if index >= 2 and _STATUTE_LINE.search(found[index - 1].text) is not None:
                beside.append(found[index - 2])
            # ("PETROLEUM AGREEMENT\nBY AND AMONG\nGOVERNMENT OF THE REPUBLIC OF GHANA\nGHANA
            # NATIONAL PETROLEUM CORPORATION\n...": a list's own lead line above the stack marks it
            # as the title would.)
            # ("BETWEEN\nSONANGOL\nAND\nVAALCO ANGOLA (KWANZA), INC.\nSONANGOL PESQUISA E PRODUCAO,
            # SA\nINTEROIL EXPLORATION AND PRODUCTION ASA": so does the list's "AND" line.)
            # (Not when an address follows the stack: "and\nQUILL SCIENCE LIMITED\nPELLMORE COMMERCIAL
            # LLP\n5th Floor, 125 Princes Street" closes the cover with the drafting firm's block.)
            above = found[index - 1].text.strip() if index >= 1 else ""
            addressed = end < len(found) and _address_cell(found[end].text)
            led = bool(above) and (
                _cues().lead.search(above) is not None or (_cues().separator.match(above) is not None and not addressed)
            )
            titled = led or any(_title_cell(cell.text) for cell in beside)
            if len(stack) >= 2 and titled and any(ends_in_legal_suffix(n.text) for n, _ in stack):
                names.extend(stack)
            index = end
        else:
            index += 1
    return names


# A details table of an Australian deed or agreement ("Parties\nName\tNetComm Wireless Pty Ltd\nACN
# ...\nAddress ...\nShort name\tSeller\nName\tLantronix, Inc. ..."), maybe flattened into one
# line: each party's "Name" row, its company number, address or contact rows after it, and its
# "Short name" row closing the entry. A "Name" row is a party's only in a table with such a
# closing row after it.
_DETAILS_NAME = re.compile(r"(?<![\w])Name[ \t]*:?[ \t\n|]+(?=[A-Z0-9])")
_DETAILS_NEXT = re.compile(r"[ \t\n|,]*(?:(?:ABN|ACN|ARBN|ARSN|Address|Email|Fax|Telephone|Contact|Short[ \t]+name)\b|\n|\Z)")
_DETAILS_SHORT_NAME = re.compile(r"(?<![\w])Short[ \t]+name[ \t]*:?[ \t\n|]+[A-Z]")
_DETAILS_ENTRY_CHARS = 600


def _details_names(text: str, common_words: frozenset[str]) -> list[_Slot]:
    """The parties a details table names in its "Name" rows (``_DETAILS_NAME``), each entry closed
    by its "Short name" row within ``_DETAILS_ENTRY_CHARS``; at least two such entries."""
    limit = min(len(text), LAYOUT_SCAN_CHARS)
    names: list[_Slot] = []
    for row in _DETAILS_NAME.finditer(text, 0, limit):
        # (A row's value ends with its line; a flattened table's, at the next row's label.)
        line_end = text.find("\n", row.end(), limit)
        value_end = min(limit, row.end() + _VALUE_CHARS, line_end if line_end != -1 else limit)
        name = name_at(text, row.end(), value_end)
        name = _checked(text, without_registration(name) if name is not None else None, common_words)
        if name is None or name.start != row.end() or not (ends_in_legal_suffix(name.text) or organisation_head(name.text)):
            continue
        if _DETAILS_NEXT.match(text, name.end, limit) is None:
            continue
        short = _DETAILS_SHORT_NAME.search(text, name.end, min(limit, name.end + _DETAILS_ENTRY_CHARS))
        # (The entry's short name comes before the next entry's "Name" row.)
        following = _DETAILS_NAME.search(text, name.end, min(limit, name.end + _DETAILS_ENTRY_CHARS))
        if short is None or (following is not None and following.start() < short.start()):
            continue
        names.append((name, short.start()))
    return names if len(names) >= 2 else []


def layout_names(text: str, common_words: frozenset[str] = frozenset()) -> list[LayoutName]:
    """The parties the opening's layout names, in text order, each once (by span)."""
    found = cells(text, layout_end(text))
    items = _item_names(text, found, common_words)
    shaped = [
        *((slot, "item") for slot in items),
        *(
            ((more, more.end), "run")
            for name, _ in items
            if ends_in_legal_suffix(name.text)
            for more in _run_on_names(text, name, common_words)
        ),
        *((slot, "item") for slot in _inline_item_names(text, found, common_words)),
        *((slot, "item") for slot in _trailing_number_names(text, found, common_words)),
        *((slot, "item") for slot in _unled_list_names(text, found, common_words)),
        *(((slot.name, slot.slot_end), "label") for slot in label_slots(text, common_words)),
        *((slot, "cover") for slot in _cover_names(text, found, common_words)),
        *((slot, "item") for slot in _dashed_entry_names(text, found, common_words)),
        *((slot, "caption") for slot in _caption_names(text, found, common_words)),
        *((slot, "cover") for slot in _run_in_cover_names(text, found, common_words)),
        *((slot, "label") for slot in _label_stack_names(text, found, common_words)),
        *((slot, "cover") for slot in _registered_run_names(text, found, common_words)),
        *((slot, "stack") for slot in _title_stack_names(text, found, common_words)),
        *((slot, "stack") for slot in _registered_chain_names(text, found, common_words)),
        *((slot, "label") for slot in _details_names(text, common_words)),
    ]
    seen: set[tuple[int, int]] = set()
    result: list[LayoutName] = []
    for (name, slot_end), shape in sorted(shaped, key=lambda s: (s[0][0].start, s[0][0].end, s[1], s[0][1])):
        if (name.start, name.end) not in seen and not held_for(text, name.start):
            seen.add((name.start, name.end))
            # The slot's name is what its first parenthesis defines; a later one in the same
            # slot defines someone else ("(2) A Co., Ltd. ("A"), B, Inc. ("B") and ...").
            close = text.find(")", name.end, slot_end)
            result.append(LayoutName(name, shape, max(close + 1 if close != -1 else slot_end, name.end)))
    return result


def held_for(text: str, start: int) -> bool:
    """Whether the name at ``start`` opens the line after a trustee's capacity line ("As Security
    Trustee For\nITA MANAGEMENT SERVICES PTY LTD"): the trust or beneficiary the party above holds
    for, no party of its own (``beneficiary_lead`` of ``party_layout.json``)."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip(" \t"):
        return False
    # (The capacity line is short: look back a bounded stretch, not the whole text before.)
    above = text[max(0, line_start - _HELD_FOR_LOOKBACK) : line_start].rstrip(" \t\n").rsplit("\n", 1)[-1]
    return _cues().beneficiary_lead.match(above.strip(" \t")) is not None


# How far above a name its trustee's capacity line (and the blank lines before the name) may be.
_HELD_FOR_LOOKBACK = 200


def slot_name_for(laid_out: Sequence[LayoutName], position: int) -> NameSpan | None:
    """The name a layout slot holds when ``position`` (a definition's term) lies in that slot
    after it: "(2) Jane Roe, holder of Passport No. K1 (the "Executive")" defines Jane Roe, not
    the number next to the parenthesis."""
    for found in laid_out:
        if found.name.end <= position < found.slot_end:
            return found.name
    return None
