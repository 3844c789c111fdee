"""The parties of a letter agreement: its addressee, its sender and who accepts it.

A facility letter, an engagement letter or a letter agreement names no parties after "between".
Its structure does: the addressee block above the salutation ("Acme Trading Limited\\n12 Harbour
Road\\nAttention: Mr Lee\\n\\nDear Sirs,"), the addressee's "To:" line, the sender's letterhead
or its own words ("We, Beta Bank Limited (the "Bank"), are pleased to offer ..."), the sender
signing under its close ("Very truly yours,\\nBETA BANK LIMITED\\nBy: ...") and the addressee
under its acceptance ("Accepted and agreed:\\nACME TRADING LIMITED\\nBy: ..."). Only a text whose
words say it states a contract is read so (``agreement_cues``): a cover letter is no agreement.
Cue words are data (``ner_models/letters.json``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from ingest.lexicons import lexicons, load_json
from ingest.names import NameSpan, ends_in_legal_suffix, has_legal_suffix, name_at

# How far into the text a salutation opens a letter, and how far above it the addressee block
# may start.
LETTER_OPENING_CHARS = 4_000
_BLOCK_CHARS = 1_500
# How far after the salutation the letter's words must say it states a contract.
_CUE_CHARS = 3_000

# A letter agreement or confirmation: "To: Acme Bank, N.A. ..." / "From: Beta AG, London Branch".
_LETTER_PARTY = re.compile(r"(?m)^[ \t]*(?:To|TO|From|FROM)[ \t]*:[ \t]*")
# The sender introduces itself: "We, Tamrind Geo Pte. Ltd. (Reg. No. ...) ("Company"), are pleased
# to offer you ...", also inside a sentence ("... discussions, we, Kestrel Bank Limited (the "Bank")").
_LETTER_SENDER = re.compile(r"(?<![\w])[Ww]e,[ \t]+")
# Its addressee: "Dear Mara Quell," after the same name heads the address block on its own line.
_SALUTATION_PERSON = re.compile(r"(?m)^[ \t]*Dear[ \t]+")
# What may follow a name that fills an addressee block's line: punctuation, its definition
# ('(the "Borrower")'), a bracketed customer number.
_LINE_REST = re.compile(r"[ \t,.;:]*(?:\([^()\n]{0,60}\)|\[[^\[\]\n]{0,60}\])?[ \t,.;:]*\Z")


_PARAGRAPHS_LIMIT = 4
_COMPANY_BODY = re.compile(r"(?i:the[ \t]+)?(?:Board|BOARD)[ \t]+(?i:of[ \t]+directors[ \t]+of)[ \t]+")
# The name's own definition right after it: ' (the "Bank")', ' ("Lender")'.
_DEFINES = re.compile(r"[ \t]*\((?:the[ \t]+)?[\"“]")


@dataclass(frozen=True, slots=True)
class _Cues:
    salutation: re.Pattern[str]
    salutation_any_case: re.Pattern[str]
    agreement: re.Pattern[str]
    signature: re.Pattern[str]
    block_label: re.Pattern[str]
    one_name_greeting: re.Pattern[str]
    person_line: re.Pattern[str]


def _alternatives(words: list[str]) -> str:
    return "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=1)
def _cues() -> _Cues:
    data = load_json("letters.json")
    # The lexicon's honorifics ("mr", "dr", ...) as letters write them ("Mr.", "Dr").
    honorific = "|".join(re.escape(h.capitalize()) for h in sorted(lexicons().honorifics, key=len, reverse=True))
    return _Cues(
        salutation=re.compile(rf"(?m)^[ \t]*(?:{_alternatives(data['salutations'])})\b"),
        salutation_any_case=re.compile(rf"(?i)[ \t]*(?:{_alternatives(data['salutations'])})\b"),
        agreement=re.compile(rf"(?i)\b(?:{_alternatives(data['agreement_cues'])})\b"),
        signature=re.compile(rf"(?m)^[ \t|]*(?:{_alternatives(data['signature_leads'])})\b"),
        block_label=re.compile(rf"(?i)[ \t|]*(?:{_alternatives(data['block_labels'])})\b"),
        # "Dear Jonathan:", "Dear Mr. Reyes,": a greeting by one of the addressee's names
        # (group 1: the honorific, if any; group 2: the name).
        one_name_greeting=re.compile(rf"[ \t]*Dear[ \t]+(?:({honorific})\.?[ \t]+)?([A-Z][\w'’\-]+)[ \t]*[,:]"),
        # An addressee block's line that is a person's name, maybe after an honorific (group 1:
        # the name).
        person_line=re.compile(
            rf"(?m)^[ \t]*(?:(?:{honorific})\.?[ \t]+)?"
            r"([A-Z][\w'’\-]+(?:[ \t]+[A-Z]\.)?(?:[ \t]+[A-Z][\w'’\-]+){1,2})[ \t]*$"
        ),
    )


def letter_salutation(text: str) -> int | None:
    """Where a letter agreement's salutation line starts, or None when the text is no letter
    agreement (no salutation in its opening, or no words of a contract after it)."""
    salutation = _cues().salutation.search(text, 0, min(len(text), LETTER_OPENING_CHARS))
    if salutation is None:
        return None
    cue = _cues().agreement.search(text, 0, min(len(text), salutation.end() + _CUE_CHARS))
    if cue is None and _cues().signature.search(text, salutation.end()) is None:
        return None
    return salutation.start()


def opens_with_salutation(line: str) -> bool:
    """Whether ``line`` opens with a letter's salutation (``salutations`` of letters.json), in
    any case: "Dear Sirs,", "DEAR XXXXX,"."""
    return _cues().salutation_any_case.match(line) is not None


def letter_signature_start(text: str) -> int | None:
    """Where a letter agreement's signatures begin: its close or its acceptance after the
    salutation ("Very truly yours,", "Accepted and agreed:"), or None."""
    salutation = letter_salutation(text)
    if salutation is None:
        return None
    lead = _cues().signature.search(text, salutation + 1)
    return lead.start() if lead is not None else None


# A close or acceptance line longer than this is prose that opens with the word ("Accepted
# orders shall ..."), not a signature lead.
_LEAD_LINE_CHARS = 60


def signature_lead_start(text: str) -> int | None:
    """Where the first close or acceptance line stands in any text ("Sincerely,", "Agreed to and
    accepted by:"), salutation or not: an acknowledgement or a short amendment signs under one
    without being a letter. Only a short line counts (``_LEAD_LINE_CHARS``)."""
    for lead in _cues().signature.finditer(text):
        line_end = text.find("\n", lead.start())
        line_end = len(text) if line_end == -1 else line_end
        if len(text[lead.start() : line_end].strip(" \t|")) < _LEAD_LINE_CHARS:
            return lead.start()
    return None


# A filing's bracketed note of a letterhead, before the name and after it.
_LETTERHEAD_NOTE = re.compile(r"\[[ \t]*(?:(?i:letterhead[ \t]+of)[ \t]+)?(?=[A-Z])")
_LETTERHEAD_END = re.compile(r"[ \t]*(?:(?i:letterhead)[ \t]*)?\][ \t]*$", re.MULTILINE)


def _addressee_block(text: str, salutation: int) -> list[NameSpan]:
    """Names with a legal form that fill a line of the block above the salutation."""
    names: list[NameSpan] = []
    position = max(0, salutation - _BLOCK_CHARS)
    position = text.find("\n", position) + 1 if position > 0 else 0
    while 0 <= position < salutation:
        line_end = text.find("\n", position, salutation)
        line_end = salutation if line_end == -1 else line_end
        start = position + len(text[position:line_end]) - len(text[position:line_end].lstrip(" \t|"))
        # ("[LETTERHEAD OF HOLLOWAY STREET CAPITAL MARKETS, LLC]", "[Kestrel Bank plc Letterhead]":
        # a filing's note of the letterhead names the sender.)
        letterhead = _LETTERHEAD_NOTE.match(text, start, line_end)
        if letterhead is not None:
            name = name_at(text, letterhead.end(), line_end)
            if name is not None and ends_in_legal_suffix(name.text) and _LETTERHEAD_END.match(text, name.end, line_end):
                names.append(name)
        elif not _cues().block_label.match(text, start, line_end):
            name = name_at(text, start, line_end)
            if name is not None and ends_in_legal_suffix(name.text) and _LINE_REST.match(text[name.end : line_end]):
                names.append(name)
        position = line_end + 1
    return names


def _speaking_sender(text: str, salutation: int) -> NameSpan | None:
    """The sender opening the letter's body with its own name and definition: "Kestrel Bank
    Limited (the "Bank") is pleased to inform you ..." (the first paragraph that is no heading,
    within ``_PARAGRAPHS_LIMIT`` lines after the salutation)."""
    position = text.find("\n", salutation)
    for _ in range(_PARAGRAPHS_LIMIT):
        if position == -1:
            return None
        position += 1
        line_end = text.find("\n", position)
        line_end = len(text) if line_end == -1 else line_end
        line = text[position:line_end].strip()
        # (A "Re:" line or a shouted heading between the salutation and the body.)
        if not line or line.isupper() or _cues().block_label.match(text, position, line_end):
            position = line_end
            continue
        start = position + len(text[position:line_end]) - len(text[position:line_end].lstrip())
        # ("We, Kestrel Bank Limited (the "Bank")": the sender's own words, read by ``_LETTER_SENDER``.)
        if _LETTER_SENDER.match(text, start):
            return None
        name = name_at(text, start, line_end)
        if name is not None and ends_in_legal_suffix(name.text) and _DEFINES.match(text, name.end, line_end):
            return name
        return None
    return None


def _retained_firm(text: str, salutation: int) -> NameSpan | None:
    """The firm an engagement letter's first words say the addressee retains, with its definition:
    "We are pleased your firm is retaining CapitalKeys, LLC ("CK" or the "Firm")", "I appreciate
    your decision to retain Avalanche Strategic Communications (ASC)" (an unquoted acronym of the
    name's words defines it too). Within ``_RETAINED_CHARS`` after the salutation."""
    window_end = min(len(text), salutation + _RETAINED_CHARS)
    verb = _RETAINS.search(text, salutation, window_end)
    if verb is None:
        return None
    name = name_at(text, verb.end(), window_end)
    if name is None:
        return None
    if _DEFINES.match(text, name.end, window_end) and (ends_in_legal_suffix(name.text) or len(name.text.split()) >= 2):
        return name
    acronym = _ACRONYM_TERM.match(text, name.end, window_end)
    initials = "".join(word[0] for word in name.text.split() if word[:1].isupper())
    return name if acronym is not None and acronym.group(1) == initials and len(initials) >= 2 else None


# How far after the salutation the retained firm is named; the verb that retains it.
_RETAINED_CHARS = 400
_RETAINS = re.compile(r"\b(?:retain|retaining|engage|engaging)[ \t\n]+(?=[A-Z])")
# An unquoted acronym defining the name before it: " (ASC)".
_ACRONYM_TERM = re.compile(r"[ \t\n]*\(([A-Z]{2,6})\)")


def _greeted_by_one_name(text: str, salutation: int) -> NameSpan | None:
    """The person a letter agreement greets by a given name ("Dear Jonathan:") or by an honorific
    and surname ("Dear Mr. Reyes,") when a line of the addressee block names that person in
    full ("Mr. Jonathan Reyes"): the nearest such line above the salutation."""
    greeting = _cues().one_name_greeting.match(text, salutation)
    if greeting is None:
        return None
    by_surname, word = greeting.group(1) is not None, greeting.group(2)
    found = None
    for line in _cues().person_line.finditer(text, max(0, salutation - _BLOCK_CHARS), salutation):
        words = line.group(1).split()
        if (words[-1] if by_surname else words[0]) == word and not has_legal_suffix(line.group(1)):
            found = NameSpan(line.group(1), line.start(1), line.end(1))
    # ("Victor Romero\nPresident\n\nReality Wireless Networks, Inc.\n...\nDear Victor:": the
    # person greeted is the officer the letter reaches the company through, no party himself.)
    if found is not None and _officer_of_company_below(text, found.end, salutation):
        return None
    return found


# An officer's title line under a person's name in an addressee block ("President", "Chief
# Executive Officer", "President and CEO"): the officer roles of roles.json and the offices a
# signature line writes (``signature_offices`` of party_filters.json).
_OFFICE_JOINT = re.compile(r"[ \t]*(?:,|&|\band\b)[ \t]*", re.I)


@lru_cache(maxsize=1)
def _office_titles() -> frozenset[str]:
    offices = [(key, role) for key, role in lexicons().role_titles.items() if role.relation in ("officer_of", "director_of")]
    titles = {key for key, _ in offices} | {role.display.casefold() for _, role in offices}
    return frozenset(titles | {office.casefold() for office in load_json("party_filters.json")["signature_offices"]})


def _officer_of_company_below(text: str, person_end: int, salutation: int) -> bool:
    """Whether the line under the person's name is an officer's title and a line of the block
    below it names a company with a legal form."""
    below = re.match(r"[ \t]*\n[ \t]*([^\n]+)", text[person_end:salutation])
    if below is None:
        return False
    pieces = [p for p in _OFFICE_JOINT.split(below.group(1).strip(" \t.,;:")) if p]
    if not pieces or any(p.casefold() not in _office_titles() for p in pieces):
        return False
    rest = person_end + below.end()
    for line in re.finditer(r"[^\n]+", text[rest:salutation]):
        start = rest + line.start() + len(line.group()) - len(line.group().lstrip(" \t"))
        name = name_at(text, start, rest + line.end())
        if name is not None and ends_in_legal_suffix(name.text):
            return True
    return False


def letter_names(text: str) -> list[NameSpan]:
    """The addressee and sender of a letter-form contract, in its opening: "To:"/"From:" lines,
    "We, <name>" with a legal form and a person greeted by the name the address block gives
    (any text), and for a letter agreement the names with a legal form that fill a line of its
    addressee block (a letterhead above it is the sender)."""
    names: list[NameSpan] = []
    opening = min(len(text), LETTER_OPENING_CHARS)
    for match in [*_LETTER_PARTY.finditer(text, 0, opening), *_LETTER_SENDER.finditer(text, 0, opening)]:
        line_end = text.find("\n", match.end())
        line_end = line_end if line_end != -1 else len(text)
        # "From: The Board of Directors of Harbour Global Company Ltd.": the company speaks
        # through its board; the board is no legal person.
        body = _COMPANY_BODY.match(text, match.end(), line_end)
        name = name_at(text, body.end() if body else match.end(), line_end)
        if name is not None and ends_in_legal_suffix(name.text):
            names.append(name)
    for match in _SALUTATION_PERSON.finditer(text, 0, opening):
        line_end = text.find("\n", match.end())
        name = name_at(text, match.end(), line_end if line_end != -1 else len(text))
        if name is None or has_legal_suffix(name.text) or not 2 <= len(name.text.split()) <= 4:
            continue
        if not re.match(r"[ \t]*[,:]", text[name.end : name.end + 2]):
            continue
        heading = re.compile(r"(?m)^[ \t]*" + r"[ \t]+".join(map(re.escape, name.text.split())) + r"[ \t]*$")
        if heading.search(text, 0, match.start()):
            names.append(name)
    salutation = letter_salutation(text)
    if salutation is not None:
        greeted = _greeted_by_one_name(text, salutation)
        if greeted is not None:
            names.append(greeted)
        names.extend(_addressee_block(text, salutation))
        sender = _speaking_sender(text, salutation)
        if sender is not None:
            names.append(sender)
        retained = _retained_firm(text, salutation)
        if retained is not None:
            names.append(retained)
    unique = {(n.start, n.end): n for n in names}
    return [unique[key] for key in sorted(unique)]
