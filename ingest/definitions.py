"""Defined terms: ``Acme Holdings, Inc. (the "Company")`` makes "Company" mean Acme in this
document, and only in this document.

A term is kept as a party alias when it names its antecedent by role (a ``party_roles`` entry
such as "Distributor"), is derived from the name ("Women.com" for WOMEN.COM NETWORKS, INC.,
"IBM" for International Business Machines), or is defined in the preamble. Every other quoted
term ("Products", "Territory") is a non-party term, which also suppresses the model's frequent
ORG false positives on such capitalised words.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import islice

from ingest.lexicons import lexicons, load_json, phrase_alternation
from ingest.names import (
    LABEL_COLON,
    after_non_party_lead,
    NameSpan,
    ends_in_legal_suffix,
    ends_in_local_unit,
    government_body_name,
    has_legal_suffix,
    institution_name,
    is_campus_institution,
    is_place,
    legal_name,
    local_government,
    lowercase_words,
    name_after_colon,
    name_at,
    name_before,
    names_a_document,
    names_a_thing,
    office_holders_organisation,
    office_of_prefix,
    organisation_head,
    party_name_problem,
    prefixed_role,
    representation_lead,
    slot_name_at,
    surname_first,
    trade_joiner_before,
    with_local_seat,
    without_enumerator,
    words_without_honorifics,
)
from ingest.normalize import normalise_jurisdiction, normalise_org
from ingest.party_layout import cover_joiner, label_slots
from ingest.text import ends_in_abbreviation, name_words, on_edgar_header_line, straighten_quotes

_PAREN = re.compile(r"\(([^()]{1,250})\)")
# The parenthesis has to open with the definition: ("X"), (the "X"), (hereinafter referred to as "X").
_DEFINING_OPENING = re.compile(
    r"""^\s*(?:(?:the|this|hereinafter|herein|hereafter|after|referred|to|as|called|collectively|"""
    r"""individually|each|together|a|an|its|jointly|below|be|shall|will|known|defined|'')[\s,:\-–—]*)*"[^"]""",
    re.I,
)
_CLOSING_DEFINITION = re.compile(r'[,;]\s*(?:and\s+)?(?:collectively\s*,?\s*)?(?:the\s+)?"([^"]{1,60})"\s*$', re.I)
_QUOTED = re.compile(r'"([^"]{1,80})(?:"|$)')
# Definitions without parentheses: ', hereinafter referred to as "TKCI";'
# ("... registered with the commercial register under HRB 34431,\n- hereinafter the "Existing
# Shareholder" -": a dash may set the clause off.)
# ('hereinafter referred to as "SDMSO" or the "Distributor"': every term joined by "or" is the
# party's; an "and" opens the next party: 'hereinafter "QYS" AND "QX" TECHNOLOGIES ...'.)
# ("..., hereinafter jointly referred to simply as\n"PUBLISHING HOUSE";": an adverb may stand on
# either side of "referred to".) ("..., hereinafter named "BRENCO",": translated drafting's verb.)
_HEREINAFTER = re.compile(
    r'[,\s\-–—]+hereinafter\s+(?:(?:simply|jointly|collectively|individually|together)\s+){0,2}'
    r'(?:(?:referred\s+to|called|designated|named|denominated)\s+(?:(?:simply|jointly|collectively|individually|together)\s+){0,2}(?:as\s+)?)?(?:the\s+)?'
    r'("[^"]{1,60}"(?:\s*(?:,\s*or|or|/)\s*(?:the\s+)?"[^"]{1,60}"){0,3})',
    re.I,
)
# ("..., hereinafter as the FIRST PARTY;", "hereinafter referred to as the SECOND PARTY.": an
# ordinal and "PARTY", as a Philippine memorandum of agreement names its parties.)
_HEREINAFTER_SHOUTED = re.compile(
    r"[,\s]+hereinafter\s+(?:referred\s+to\s+as|called|named|designated\s+as|as)\s+(?:the\s+)?"
    r"((?:FIRST|SECOND|THIRD|FOURTH|FIFTH)[ \t]+PARTY|[A-Z][A-Z\-]{2,30})(?=[ \t]*[;,.]|[ \t]*\n)"
)
# ("..., of Marshall Islands\nhereinafter called the Sellers,": a party's role word in title case,
# without quotes, closed by the clause's punctuation.)
# (Only on a line of its own under the party's line, the memorandum's layout: in prose, "Party of
# the First Part, hereinafter called Lessor," names the party by the old parts of a deed.)
_HEREINAFTER_ROLE = re.compile(
    r"[, \t]*\n[ \t]*hereinafter\s+(?:referred\s+to\s+as|called|named|designated\s+as)\s+(?:the\s+)?"
    r"([A-Z][a-z]{2,20})(?=[ \t]*[;,.]|[ \t]*\n)"
)


def _role_word(term: str) -> bool:
    """Whether ``term`` is a party's role word ("Seller", "Buyers")."""
    roles = lexicons().party_roles
    return term in roles or (term.endswith("s") and term[:-1] in roles)


_TERM_JOINER = re.compile(r"^\s*(?:,|or|and|,\s*or|/)?\s*(?:the\s+)?$", re.I)
# ("Participating Parties" / "Contracting Parties" over the names: a "Parties" heading too.)
_PREAMBLE_START = re.compile(
    r"\b(?:between|among|BETWEEN|AMONG|Between|Among)\b|^\s*(?:(?:Participating|Contracting)\s+)?Parties\b"
    # ("B E T W E E N: PHILIP ROE, a businessman residing in ... (the "Principal")": a cover's
    # keyword spaced out letter by letter opens the clause as the word does.)
    r"|\bB[ \t]E[ \t]T[ \t]W[ \t]E[ \t]E[ \t]N\b|\bA[ \t]M[ \t]O[ \t]N[ \t]G\b",
    re.M,
)
# The words that end a preamble and open the recitals or the operative text; the recorded party
# clauses end there too (``ingest/party_clauses.py``).
PREAMBLE_END_WORDS = (
    r"\b(?:WHEREAS|Whereas|RECITALS|Recitals|BACKGROUND|PRELIMINARY STATEMENTS?|W\s?I\s?T\s?N\s?E\s?S\s?S\s?E\s?T\s?H|NOW,? THEREFORE|"
    r"Now,? therefore|IN CONSIDERATION|In consideration|The parties agree|THE PARTIES AGREE|"
    # ("... ("SUBTENANT"), with reference to the following facts:\n\nA. Zapco ..., as landlord, and
    # Disney Enterprises, Inc. ..., as tenant, entered into ...": Californian drafting's lead into
    # its lettered recitals.)
    r"(?i:with[ \t\n]+reference[ \t\n]+to[ \t\n]+the[ \t\n]+following)(?:[ \t\n]+(?i:facts|recitals|circumstances))?(?=[ \t]*:)|"
    # ("...\nBackground\nAcquiror\nand Ad Authority, Inc. ... are\nparties to ...": a title-case
    # heading alone on its line.)
    r"(?<=\n)Background(?=[ \t]*:?[ \t]*\n)|"
    # ("Parties:\n... \nPremises:\nA. | Tianci is a Nevada corporation ...": the recitals' heading
    # some share exchange agreements use, alone on its line with its colon.)
    r"(?<=\n)(?:Premises|PREMISES)(?=[ \t]*:[ \t]*\n)|"
    # ("... (the "Agreement"). Section 2.7 is hereby amended to recite: ... UTRC licensed certain
    # Technology to Argus Pharmaceuticals, Inc. ("Argus")": an amendment's operative text, whose
    # quoted clauses define third parties.)
    r"(?:Section|SECTION|Article|ARTICLE|Paragraph|Clause)[ \t]+[0-9][0-9.()a-z]*[ \t]+(?:of[ \t]+the[ \t]+[A-Z][a-z]+[ \t]+)?is[ \t]+hereby[ \t]+amended)\b"
)
_PREAMBLE_END = re.compile(PREAMBLE_END_WORDS)
# What a listed party joins the contract for, between the list's "and" and its name: "solely for
# purposes of Section 5,", "for the limited purposes set forth in Sections 3 and 9,", "(solely with
# respect to Article VII)". Ends at its comma or bracket.
PURPOSE_QUALIFIER = (
    r"\(?(?:(?:solely|only)\s+)?(?:for\s+(?:the\s+)?(?:limited\s+)?purposes?\s+(?:of|set\s+forth\s+in|described\s+in)"
    r"|(?:solely|only)\s+(?:with\s+respect\s+to|as\s+to))\s+[^,()\"\n]{1,60}?(?:\s+only)?\s*[,)]"
)
_LEADING_CONNECTORS = re.compile(
    r"^(?:[\s,:;\-–|]|\band\b|\bby\b|\bnamely\b|\bbetween\b|\bamong\b|"
    # ("B E T W E E N: IM(2) MERCHANDISING ... A N D: THE TIREX CORPORATION ...": the keywords
    # spaced out letter by letter.)
    r"\bB[ \t]E[ \t]T[ \t]W[ \t]E[ \t]E[ \t]N\b|\bA[ \t]N[ \t]D\b|"
    r"\bwith\b|\bon\s+the\s+(?:one|other)\s+(?:hand|part)\b|\bparties\b(?=\s*:?\s*\n)|"
    # ("and, on the other part,\nII) SAMPAIO E OLIVEIRA ... LTDA": Latin drafting's "part" and a
    # roman numeral closed by a bracket alone.)
    r"\b[IVX]{1,4}\)|"
    # ("... ("Vendor") OF THE FIRST PART AND: WILLIAM ROE, ...": the part closing the previous
    # party opens no name; "OF THE FIRST-PART" too.)
    r"\bof\s+the\s+(?:first|second|third|fourth|fifth|one|other)[\s-]+part\b|"
    r"\bin\s+favou?r\s+of\b|\bfor\s+the\s+benefit\s+of\b|&|\(\w{1,3}\)|\b\d{1,2}\.|"
    # ("For value received as stated below, Jane Roe of ... (hereinafter ASSIGNOR), sells, assigns
    # ... unto Acme LLC": an assignment's opening words before its maker.)
    r"\bfor\s+value\s+received(?:\s+as\s+(?:stated|set\s+forth)\s+(?:below|herein))?)+", re.I
)
# "This Agreement ... (the "AGREEMENT") is entered into by the City of Fort Stockton, Texas, ...
# ("COFS")": the clause after the title's definition opens with the verb, and the party follows "by".
# A one-sided instrument names its maker the same way: "THIS GUARANTY (this "Guaranty") is made as
# of October 3, 2019 by X ("Guarantor"), in favor of Y ("Lender")" (a note, a deed: the date may
# hold a comma, only before its year, and a comma may close it: "as of July 31, 2019, by X"; "made
# and given", "executed and delivered"). A lone
# "issued|granted|given|delivered by" added a false party on tune half B and is not read.
# ("... is entered into as of May 1, 2003, by Acme Inc., ...": a comma may close the date.)
# ("... shall be effective as January 1, 2023 (the "Effective Date"), and is entered into by Acme
# Inc. ... (the "Company")": the verb may follow ", and".)
_MADE_BY = re.compile(
    r"^\s*(?:,\s*)?(?:and\s+)?(?:is|are|was)?\s*(?:hereby\s+)?(?:made|entered\s+into|executed)"
    r"(?:\s+and\s+(?:entered\s+into|given|delivered))?"
    r"(?:\s+(?:as\s+of|on|effective)\s+[^,()\"]{0,40}?(?:,\s*(?:19|20)\d{2})?,?)?\s+by\s+(?:and\s+(?:between|among)\s+)?(?:the\s+)?(?=[A-Z])",
    re.I,
)
_MADE_BY_INSIDE = re.compile(r"\b(?:made|entered\s+into|executed)\s+by\s+(?!and\b)(?:the\s+)?(?=[A-Z])")
_SENTENCE_BREAK = re.compile(r"\.\s+(?=[A-Z\"(])|;|\n\s*\n|:\s*\n")
_ABBREVIATIONS = frozenset(
    "inc corp co ltd llc no nos reg st mr mrs ms dr jr sr bros plc lp sa nv bv ag gmbh pty pvt pte sdn bhd vs u.s e.g i.e"
    # An address's abbreviations end no sentence either ("Av. Insurgentes Sur 1605, Piso 9, Col. San
    # José Insurgentes": "Col." is the colonia, not the clause's end).
    " ave av avda blvd rd ste fl apt bldg col".split()
)
PREAMBLE_SCAN_CHARS = 15_000
# How far before an address a party clause's company name is looked for.
_ADDRESS_LOOKBACK = 300
PREAMBLE_WINDOW_CHARS = 2_500
# Definitions this early are in the opening pages even without a "between".
OPENING_CHARS = 3_000


@dataclass(frozen=True, slots=True)
class Definition:
    term: str
    term_start: int
    term_end: int
    paren_end: int
    name: NameSpan | None  # the antecedent; None when no name precedes the parenthesis
    in_preamble: bool
    is_party_alias: bool


def preamble_windows(text: str) -> list[tuple[int, int]]:
    """Spans that introduce the parties: from each "between"/"among" in the opening pages up to
    the recitals (or a fixed window)."""
    windows = between_windows(text)
    # A party clause ends where it cites another agreement's own party clause.
    cited = [start for start, _ in _cited_clauses(text, windows)]
    windows = [(start, min([end, *(c for c in cited if c > start)])) for start, end in windows if start not in cited]
    windows = [(start, _before_parties_to_another(text, start, end)) for start, end in windows]
    # A letter agreement's parties come before any "between" ("Acme Corp. (the "Company") ...
    # hereby confirm their agreement with ..."): when the first "between" is past the opening
    # pages, the opening is a party window too.
    if not windows or windows[0][0] >= OPENING_CHARS:
        windows = [(0, opening_end(text)), *windows]
    return windows


# A sentence saying names are parties to an agreement ("Shareholder, Purchaser and Asia Gaming &
# Resort Limited ... are the parties to a Stock Purchase Agreement"): a recital without its word.
_PARTIES_TO = re.compile(r"\b(?:are|were)[ \t\n]+(?:the[ \t\n]+)?parties[ \t\n]+to\b")
_SENTENCE_END = re.compile(r"[.;][ \t]*\n|\.[ \t]+(?=[A-Z])")


def _before_parties_to_another(text: str, start: int, end: int) -> int:
    """Where a party window ends when a later sentence in it says who are parties to an agreement:
    at that sentence's start (the party clause ended before it); ``end`` otherwise."""
    cited = _PARTIES_TO.search(text, start, end)
    if cited is None:
        return end
    breaks = [m.end() for m in _SENTENCE_END.finditer(text, start, cited.start())]
    return breaks[-1] if breaks else end


# The recitals that close an opening without a "between" ("PARTY A: ... PARTY B: ... RECITALS
# WHEREAS, Party B is a company organized by Party A and Usunco Automotive Limited ("Usunco")").
# Also a "BACKGROUND" or "RECITALS" heading alone on its line ("... (Buyer).\n\nBACKGROUND\n\nThe
# Seller is the owner of the entire issued share capital of Thistle Ltd (the Company)": the
# target the recitals name is no party). A contents page's entry carries its page number, and
# the recital words themselves never open a contents page.
_RECITALS_OPEN = re.compile(
    r"\b(?:WHEREAS|Whereas|NOW,? THEREFORE|Now,? therefore)\b"
    r"|(?m:^[ \t]*(?:BACKGROUND|Background|RECITALS|Recitals|PRELIMINARY[ \t]+STATEMENTS?)[ \t]*:?[ \t]*$)"
    # ("... ("R&D") RECITALS: A. CISTRON has ...": a filing run into one line keeps the heading's
    # colon and its first item's letter.)
    r"|\b(?:BACKGROUND|RECITALS)[ \t]*:[ \t]+(?=(?:A|1|\([aA1]\))[.)]?[ \t])"
)


def opening_end(text: str) -> int:
    """Where the opening pages' party window ends: the first recital, or ``OPENING_CHARS``."""
    limit = min(len(text), OPENING_CHARS)
    recital = _RECITALS_OPEN.search(text, 0, limit)
    return recital.start() if recital is not None else limit


# A verb that amends, replaces or cites an agreement, then the agreement's title, right before a
# "between": "amends and restates the Trademark License and Option Agreement ", "supersedes the
# Supply Agreement dated May 1, 1994 ".
_CITED_AGREEMENT_CHARS = 200
_CITED_AGREEMENT_BEFORE = re.compile(
    r"\b(?:amends?|amending|restates?|restating|supersedes?|superseding|replaces?|replacing|terminates?|modif(?:y|ies|ying)"
    r"|pursuant[ \t\n]+to|under)\b[^.;()\"“”]{0,140}?\b(?:Agreement|AGREEMENT|Contract|CONTRACT)"
    r"(?:[ \t\n]+dated[^.;()]{1,40}?)?[ \t\n]+(?:by[ \t\n]+and[ \t\n]+)?\Z"
)


# A legend's words pointing to another agreement ("... ARE SET FORTH IN AN OPTION AGREEMENT"),
# written in capitals; shared with the definition reader's legend check (``annotate._in_legend``).
SET_FORTH_IN_ANOTHER = (
    r"\b(?:ARE|IS)[ \t\n]+(?:SET[ \t\n]+FORTH|DESCRIBED|CONTAINED|PROVIDED)[ \t\n]+IN[ \t\n]+(?:AN?|THE|THAT[ \t\n]+CERTAIN)[ \t\n]+"
)
# (Before a party window, in any case, the agreement it points to named within the window's reach.)
_SET_FORTH_IN_BEFORE = re.compile(
    r"(?i:" + SET_FORTH_IN_ANOTHER + r")[^.;()]{0,60}?\b(?:Agreement|AGREEMENT|Contract|CONTRACT)\b[^.;()]{0,80}?\Z"
)


def between_windows(text: str) -> list[tuple[int, int]]:
    windows: list[tuple[int, int]] = []
    head = text[:PREAMBLE_SCAN_CHARS]
    for match in _PREAMBLE_START.finditer(head):
        # ("EX-10.1 2 ex101.htm LICENSE AGREEMENT, BY AND AMONG THE COMPANY, SGENIA SOLUTIONS,
        # S.L., AND ...": the filer's description of the exhibit names no party in the contract's
        # own words.)
        if on_edgar_header_line(text, match.start()):
            continue
        # ("... ("FD"), amends and restates the Trademark License and Option Agreement between FB
        # and NewStork Inc. until ...": after a party clause, an agreement the sentence amends or
        # cites names its own parties, not this one's.)
        # (The party clause ends where the sentence turns to the cited agreement: its verb.)
        # ("CERTAIN RIGHTS ... OF OPIC ARE SET FORTH IN AN OPTION AGREEMENT, DATED AS OF FEBRUARY
        # 24, 1995, BY AND AMONG AMOCO ...": a legend that points to another agreement names that
        # agreement's parties.)
        if _SET_FORTH_IN_BEFORE.search(text, max(0, match.start() - _CITED_AGREEMENT_CHARS), match.start()):
            continue
        cited = _CITED_AGREEMENT_BEFORE.search(text, max(0, match.start() - _CITED_AGREEMENT_CHARS), match.start()) if windows else None
        if cited is not None:
            start, end = windows[-1]
            if start < cited.start() < end:
                windows[-1] = (start, cited.start())
            continue
        limit = min(len(text), match.start() + PREAMBLE_WINDOW_CHARS)
        end_match = _PREAMBLE_END.search(text, match.end(), limit)
        windows.append((match.start(), end_match.start() if end_match else limit))
    return windows


# "is made|entered into|executed ... by" and its "by" (group 1): a party clause without "between".
_MADE_BY_OPENER = re.compile(
    r"\b(?:(?:is|are)\s+(?:hereby\s+)?|and\s+)(?:made|entered\s+into|executed)\b[^()\"\n.;]{0,80}?\b(by)\s+(?!and\b)(?=[A-Z])"
)
# "The parties to this Agreement are Acme Inc. ... and Beta LLC ...", "There are two parties to
# this contract. They are: (a) MAYO FOUNDATION ..., and (b) ...": a party clause that says who
# the parties are, its "are" (group 1) opening the names as "by" does.
_PARTIES_ARE_OPENER = re.compile(
    r"\b(?:[Tt]he|THE)[ \t\n]+(?:parties|PARTIES)[ \t\n]+(?:\([^()\n]{1,120}\)[ \t\n]+)?(?:to|of|TO|OF)[ \t\n]+(?:this|THIS)[ \t\n]+[A-Za-z]+[ \t\n]+(are|ARE)\b[ \t\n:]*(?=[A-Z(])"
    r"|\b(?:parties|PARTIES)[ \t\n]+(?:to|TO)[ \t\n]+(?:this|THIS)[ \t\n]+[A-Za-z]+\.[ \t\n]+(?:They|THEY)[ \t\n]+(are|ARE)\b[ \t\n:]*(?=[A-Z(])"
)
# Where a makers' clause ends: its sentence's end or a blank line ("Inc. and" is no sentence end:
# the reader of its names stops at a name's own legal form); a semicolon before the list's next
# enumerated item ("...; and (b) Steven L. Carter") continues it, and so does a middle initial's
# full stop.
_MADE_BY_CLAUSE_END = re.compile(
    r"\.[ \t]*\n|(?<![ \t\n][A-Z])\.[ \t]+(?=[A-Z][a-z])|\n[ \t]*\n|;(?![ \t\n]*(?:(?:and|AND)[ \t\n]+)?\([a-zA-Z0-9]{1,3}\)[ \t\n])"
)


def made_by_windows(text: str) -> list[tuple[int, int]]:
    """The first makers' clause before the recitals ("This Pledge Agreement is entered into by
    Tiger Capital Inc. and Sun Harbor Trading LLC."), from its "by" to its sentence's end: a window
    of the shape ``between_windows`` gives, opened by "by" instead of "between"."""
    limit = opening_end(text)
    match = _MADE_BY_OPENER.search(text, 0, limit) or _PARTIES_ARE_OPENER.search(text, 0, limit)
    if match is None:
        return []
    keyword = 1 if match.group(1) is not None else 2
    end = min(limit, match.start(keyword) + PREAMBLE_WINDOW_CHARS)
    stop = _MADE_BY_CLAUSE_END.search(text, match.end(), end)
    return [(match.start(keyword), stop.start() + 1 if stop is not None else end)]


def _in_windows(pos: int, windows: list[tuple[int, int]]) -> bool:
    return any(start <= pos < end for start, end in windows)


_CLAUSE_WINDOW = 700


def clause_start(text: str, paren_start: int, floor: int) -> int:
    """Where the clause holding the antecedent begins: after the previous parenthesis, sentence
    end, "between" or blank line, whichever is last."""
    start = max(floor, paren_start - _CLAUSE_WINDOW)
    window = text[start:paren_start]
    best = start
    for match in _SENTENCE_BREAK.finditer(window):
        # ("The DEPARTMENT OF EDUCATION CITY OF MATI DIVISION,\n\n\nrepresented herein by ...,
        # hereinafter referred to as the "DEPED"": a blank line between a comma and a lower-case
        # word is the text layer's, inside the clause. "the Parties,\n\nQUORVANT – ..." opens a
        # member's own clause after it.)
        if (
            match.group().startswith("\n")
            and window[: match.start()].rstrip(" \t").endswith(",")
            and window[match.end() : match.end() + 1].islower()
        ):
            continue
        # (A blank line after "INC." still ends the clause: "BRAMBLE THERAPEUTICS, INC.\n\nTHIS
        # CERTIFIES THAT ... Lakemont Fund II, L.P. (the "Holder")".)
        if match.group().startswith(".") and not re.search(r"\n[ \t]*\n", match.group()):
            word = re.findall(r"[\w.]+$", window[: match.start()])
            if word and (word[0].casefold().strip(".") in _ABBREVIATIONS or "." in word[0] or len(word[0]) <= 2):
                continue
        best = start + match.end()
    # ("EX-10.1 ... AGREEMENT Between YEDA RESEARCH ... LIMITED ... (hereinafter, "YEDA")": a
    # title-case "Between" opens the clause too.)
    for match in re.finditer(r"\b(?:between|among|BETWEEN|AMONG|Between|Among)\b", window):
        best = max(best, start + match.end())
    # ("CLINICAL SUPPLY AGREEMENT Harlow Vision Sciences ("HVS"), ... and ... agree:": a heading
    # in capitals run into the opening of a preamble without "between" ends before its first name.)
    for match in _HEADING_RUN_INTO_NAME.finditer(window):
        best = max(best, start + match.end())
    # ("... |CHARGES\n|9 ...\nPARTIES\n|(1)\n|FINDEL PLC, a company ... (the "Seller")": a
    # "PARTIES" heading alone on its line opens the clause; a contents page above it is no part.)
    for match in _PARTIES_HEADING_LINE.finditer(window):
        best = max(best, start + match.end())
    # ('... hereinafter referred to as "SAF", of the one part,\nThe Pondicherry University, ...':
    # the side's closing words end the clause before.)
    for match in _SIDE_CLOSING_WORDS.finditer(window):
        best = max(best, start + match.end())
    # ("between\nTHE COUNCIL OF EUROPE SOCIAL DEVELOPMENT FUND\nand\nTHE REPUBLIC OF SLOVENIA\n
    # The COUNCIL ... FUND (hereinafter called the "Fund")": a cover's joiner alone on its line
    # ends the cover's entry above it.)
    # (The layout reader's own joiner cue, ``party_layout.cover_joiner``.)
    line_start = 0
    for line_end in (m.start() for m in re.finditer("\n", window)):
        if cover_joiner(window[line_start:line_end]):
            best = max(best, start + line_end + 1)
        line_start = line_end + 1
    return best


# ("..., Paris, on the one hand,\nand the REPUBLIC OF SLOVENIA (...)": or "on the one hand"
# before the list's "and"; "on the one hand (collectively, ...)" closes a group, no side.)
_SIDE_CLOSING_WORDS = re.compile(
    r"\b(?i:of[ \t\n]+the[ \t\n]+(?:one|first|second|third|other)[ \t\n]+part)\b[ \t]*[,;]?(?:[ \t\n]*and\b)?"
    r"|\b(?i:on[ \t\n]+the[ \t\n]+one[ \t\n]+hand)[ \t]*[,;]?[ \t\n]*and\b"
)


# (A filing run into one line keeps the heading's underline as a run of dashes after it: "...
# SERVICE AGREEMENT ------- PARTIES ------- 1. FAIRCHILD ...".)
# ("... 14. Schedule 1 - Licensed Modules 14 i Licence Agreement PARTIES: 1. THE TRUSTEES OF ...":
# or a "PARTIES:" label run into its first numbered item.)
_PARTIES_HEADING_LINE = re.compile(
    r"(?m)^[ \t|]*(?:PARTIES|Parties)[ \t]*:?[ \t|]*\n|(?<=[ \t])PARTIES[ \t]+-{3,}[ \t]+"
    r"|(?<=[ \t])PARTIES[ \t]*:[ \t]+(?=\(?1[.)][ \t]+[A-Z])"
)


_HEADING_RUN_INTO_NAME = re.compile(r"\b(?:AGREEMENT|CONTRACT)[ \t]+(?=[A-Z][a-z])")


# Joining words an acronym leaves out ("ASC" of "Alpha Systems of Canada"), in the languages party
# names are written in ("SDMSO" of "Société de Distribution Médicale du Sud-Ouest", "BdB" of
# "Banco do Brasil").
INITIALS_SKIP = frozenset({
    "and", "of", "the", "for", "&", "de", "du", "des", "la", "le", "les", "et", "di", "del", "della", "da", "do", "dos", "das",
})


# ", Fl. 33139 ", ", CA 94304-1234", ", Florida 33498", ", New York 10019": a state (abbreviated
# or written out, one or two words) and a US postal code closing an address.
_STATE_AND_POSTAL_CODE = re.compile(
    r"[ \t]*,[ \t]*(?:[A-Z][A-Za-z]{1,3}\.?|[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?)[ \t]+[0-9]{5}(?:-[0-9]{4})?[ \t,]*"
)


def _name_after_institution(text: str, leading: NameSpan, terms: Sequence[str], paren_start: int) -> NameSpan | None:
    """The name after the one bare "and" of ``leading`` when the words before it are an
    institution's name (its head noun: "Larkspur Medical Foundation", "The Regents of the
    University of Westland") and ``terms`` are made from the later name alone. ("State Street Bank
    and Trust Company ("State Street")": a term from the words before keeps the name whole.)"""
    joiners = list(re.finditer(r"[ \t\n]+(?:and|AND)[ \t\n]+", leading.text))
    if len(joiners) != 1 or not terms:
        return None
    before = leading.text[: joiners[0].start()].strip(" ,")
    if has_legal_suffix(before) or not institution_name(before):
        return None
    later = name_at(text, leading.start + joiners[0].end(), paren_start)
    if later is None or later.end != leading.end or not (ends_in_legal_suffix(later.text) or organisation_head(later.text)):
        return None
    if any(_is_name_derived(term, before) for term in terms) or not any(_is_name_derived(term, later.text) for term in terms):
        return None
    return later


def term_made_from(term: str, name: str) -> bool:
    """Whether ``term`` is made from ``name`` (its words, initials or clipped words)."""
    return _is_name_derived(term, name)


def _is_name_derived(term: str, name: str) -> bool:
    term_words = name_words(term)
    # ("GWL&A" of "Great-West Life & Annuity Insurance Company": an acronym's "&" is one letter
    # of it, the initial of the name's own "&"; it splits the acronym into no words.)
    if "&" in term and not re.search(r"\s", term.strip()):
        term_words = ["".join(w for w in term_words if w != "and")]
    name_list = name_words(name)
    if not term_words or not name_list:
        return False
    joined_term, joined_name = "".join(term_words), "".join(name_list)
    if joined_term in joined_name:
        return True
    initials = "".join(w[0] for w in name_list)
    content_initials = "".join(w[0] for w in name_list if w not in INITIALS_SKIP)
    # ("ALGERS, WINSLOW & WESTERN RAILWAY COMPANY ("AWW")": an acronym may leave out the legal
    # form and one last word before it, never more.)
    core = list(name_list)
    form = next((f for f in lexicons().strippable_suffixes if len(f) < len(core) and tuple(core[-len(f) :]) == f), ())
    core = core[: len(core) - len(form)]
    core_initials = "".join(w[0] for w in core if w not in INITIALS_SKIP)
    clipped = len(joined_term) >= 3 and len(term_words) == 1 and core_initials[:-1] == joined_term
    # ("The Board of Supervisors of Louisiana State University and Agricultural and Mechanical
    # College ... ("LSU")": an acronym of three or more of the name's words in a row.)
    # ("the U.S. Department of Justice ("DOJ")": with a joining word's initial too.)
    inner = len(joined_term) >= 3 and len(term_words) == 1 and (joined_term in content_initials or joined_term in initials)
    # ("Petroleum Development Corporation ... ("PEDCO")": a short word made of the first letters of
    # the name's words in a row, from its first word.)
    content = [w for w in name_list if w not in INITIALS_SKIP]
    syllables = len(joined_term) >= 4 and len(term_words) == 1 and _prefixes_of(joined_term, content)
    # ("Ogilvy Public Relations Worldwide (hereinafter "Ogilvy PR")": the name's first word whole,
    # then the initials or first letters of the words after it, in a row.)
    shortened = len(term_words) >= 2 and bool(content) and term_words[0] == content[0] and _prefixes_of(joined_term, content)
    return (
        joined_term in (initials, content_initials) or clipped or inner or syllables or shortened
        or set(term_words) <= set(name_list)
    )


def _prefixes_of(term: str, words: Sequence[str]) -> bool:
    """Whether ``term`` is made of a prefix of each of two or more of ``words`` in a row, from the
    first ("pedco": "PEtroleum Development COrporation")."""
    def covers(rest: str, index: int, used: int) -> bool:
        if not rest:
            return used >= 2
        if index >= len(words):
            return False
        word = words[index]
        return any(rest[:size] == word[:size] and covers(rest[size:], index + 1, used + 1) for size in range(min(len(rest), len(word)), 0, -1))
    return covers(term, 0, 0)


# "Mr. Jan Roe, ..., acting in the name and on behalf of Acme Co. Ltd.": the words before the
# company a representative appears for (``acting_for_leads`` in party_filters.json).
@lru_cache(maxsize=1)
def acting_for_lead() -> re.Pattern[str]:
    leads = phrase_alternation(load_json("party_filters.json")["acting_for_leads"], r"[ \t\n]+")
    return re.compile(r"(?i)(?<![\w])(?:" + leads + r")[ \t\n]+")


_BEFORE_ACTING_FOR = re.compile(r"[ \t\n]*,?[ \t\n]*")


def _represented_company(text: str, person: NameSpan, paren_start: int) -> NameSpan | None:
    """The company the clause's first name appears for ("James Farinella, acting on behalf and in
    representation of T & G2, Inc. (OTCBB: TTGG), whose address is ... (hereinafter referred to as
    The Company)"): named with a legal form right after the lead, or None."""
    gap = _BEFORE_ACTING_FOR.match(text, person.end, paren_start)
    lead = acting_for_lead().match(text, gap.end(), paren_start) if gap is not None else None
    if lead is None:
        return None
    company = name_at(text, lead.end(), paren_start)
    if company is None or company.start != lead.end() or not ends_in_legal_suffix(company.text):
        return None
    return company


_ITS_PART_BEFORE = re.compile(r"\b(?:its|their)[ \t\n]+(?:[A-Z][\w'’\-]*[ \t\n]+){1,4}(?:on|of|for)[ \t\n]+\Z")
_ITS_PART_CHARS = 60


@lru_cache(maxsize=1)
def _units_after() -> re.Pattern[str]:
    """A government's units after it, each after a comma (``government_unit_heads`` of
    party_filters.json: "..., Department of Buildings and General Services, Office of Purchasing
    & Contracting"), up to the definition."""
    # (Capitalised or in capitals: a lower-case "division" after a comma is prose.)
    heads = "|".join(sorted(f"{w.capitalize()}|{w.upper()}" for w in load_json("party_filters.json")["government_unit_heads"]))
    return re.compile(
        rf"(?:[ \t\n]*,[ \t\n]*(?:the[ \t\n]+)?(?:{heads})"
        r"\b[^,()\"“”;.]{0,80}?)+[ \t\n]*,?[ \t\n]*\Z"
    )


_STATE_GOVERNMENT = re.compile(r"(?i:state|commonwealth|government|republic|province|territory)[ \t\n]+(?i:of)[ \t\n]+[A-Z]")


_OF_PLACE_BEFORE = re.compile(r",[ \t]*(?:of|OF)[ \t]+\Z")
_OF_THE_PLACE_BEFORE = re.compile(r"(?<=\.)[ \t]+(?:of|OF)[ \t]+(?:the|THE)[ \t]+\Z")


def _government_over_its_units(text: str, paren_start: int, floor: int, terms: tuple[str, ...]) -> NameSpan | None:
    """"between the State of Vermont, Department of Buildings and General Services, Office of
    Purchasing & Contracting (hereinafter "State")": a clause naming a government and then its
    units defines the government when the term is made from its name, not the last unit's."""
    segment_start = clause_start(text, paren_start, floor)
    opening = re.match(r"[\s,:;]*(?:the[ \t\n]+)?", text[segment_start:paren_start])
    head = name_at(text, segment_start + opening.end(), paren_start)
    if head is None or not any(_is_name_derived(t, head.text) for t in terms):
        return None
    if not (local_government(head.text) or government_body_name(head.text) or _STATE_GOVERNMENT.match(head.text)):
        return None
    return head if _units_after().fullmatch(text, head.end, paren_start) else None


def _antecedent(
    text: str, paren_start: int, floor: int, terms: tuple[str, ...] = ()
) -> NameSpan | None:
    """The name a definition points back to. In a representation clause ("Acme S.A., represented
    by its CEO Jane Roe, hereinafter "Acme"", "X GmbH, vertreten durch ... (die "Gesellschaft")")
    the definition is the party's, named before the clause's lead, never its representative's."""
    name = _clause_antecedent(text, paren_start, floor, terms)
    # ("; the Town of Carrboro, a municipal corporation in Orange\nCounty, North Carolina\n
    # (hereinafter referred to as "Carrboro")": a reading the term is not made from yields to the
    # name opening the clause that the term is made from, when only its description follows it.)
    if terms and (name is None or not any(_is_name_derived(t, name.text) for t in terms)):
        name = _derived_clause_head(text, paren_start, floor, terms) or name
    # ("... individually and on behalf of its Task Force on Data Management (hereinafter "MODEMS
    # Task Force")": a name that ends a phrase a party's "its" opens names a part of that party,
    # an organ or a division, never a party of its own.)
    if name is not None and _ITS_PART_BEFORE.search(text, max(floor, name.start - _ITS_PART_CHARS), name.start):
        return None
    # ('ATLAS PETROLEUM INTERNATIONAL LIMITED, (also known as Atlas Petroleum International Nigeria
    # Ltd.), a body corporate ... (hereinafter called "Atlas")': a name the party is also known by,
    # in its remark, is no antecedent; the party's name before the remark is.)
    remark_lead = _ALSO_KNOWN_AS_BEFORE.search(text, max(floor, name.start - 40), name.start) if name is not None else None
    if remark_lead is not None:
        known = name_before(text, remark_lead.start())
        name = known if known is not None and known.start >= floor else name
    # A representative's clause: the definition is the company's the person appears for.
    represented = _represented_company(text, name, paren_start) if name is not None else None
    if represented is not None:
        name = represented
    if name is not None and terms and not any(_is_name_derived(t, name.text) for t in terms):
        name = _government_over_its_units(text, paren_start, floor, terms) or name
    # ("Marlin Shipping 3 LLC., of Marshall Islands\nhereinafter called the Sellers": a country or
    # state after ", of" is where the party is; the party is the name before it.)
    # ("MALOELAP SHIPPING COMPANY INC. of the Republic of the Marshall Islands (Name of sellers),
    # hereinafter called the "Sellers"": the same without the comma, after a legal form.)
    if name is not None and normalise_jurisdiction(name.text):
        of = _OF_PLACE_BEFORE.search(text, max(floor, name.start - 12), name.start) or _OF_THE_PLACE_BEFORE.search(
            text, max(floor, name.start - 12), name.start
        )
        seated = name_before(text, of.start()) if of is not None else None
        if seated is not None and seated.start >= floor and ends_in_legal_suffix(seated.text):
            name = seated
    # "an Asset Purchase Agreement between Licensor and IA Smart Start, LLC ("Smart Start")": a
    # party's role word and "and" open a reading; the defined name is what follows them.
    role_and = _ROLE_AND.match(name.text) if name is not None else None
    if role_and is not None and role_and.group().split()[0] in lexicons().party_roles:
        rest = name_at(text, name.start + role_and.end(), name.end)
        if rest is not None and rest.end == name.end:
            name = rest
    # "Collaborative Research Agreement\nNational University Corporation Osaka University
    # (hereinafter ...)": a reading that ran down from the title's line starts the name on the
    # line below it.
    if name is not None and _TITLE_LINE_END.match(name.text):
        below = re.match(r"[^\n]*\n[ \t]*", name.text)
        reread = name_at(text, name.start + below.end(), paren_start) if below else None
        if reread is not None and party_name_problem(reread.text) is None:
            name = reread
    # "would like Borosh Consulting, LLC dba Clear Financial Solutions (the "Firm")": a trade name
    # read alone is the party's second name; the antecedent is the legal name written with it.
    if name is not None:
        joiner = trade_joiner_before(text, name.start, floor)
        legal = name_before(text, joiner) if joiner is not None else None
        if legal is not None and legal.start >= floor and ends_in_legal_suffix(legal.text):
            name = NameSpan(text[legal.start : name.end], legal.start, name.end)
    # "Much and House Public Relations ("Much and House")": a term holding "and" shows the name
    # goes on back over its own "and".
    if name is not None and any(re.search(r"\s(?:and|&)\s", t) for t in terms):
        joined = _OWN_AND_BEFORE.search(text, max(floor, name.start - _OWN_AND_LOOKBACK), name.start)
        wider = name_at(text, joined.start(), name.end) if joined else None
        if (
            wider is not None and wider.end == name.end
            and any(_is_name_derived(t, wider.text) and not _is_name_derived(t, name.text) for t in terms)
        ):
            name = wider
    # "the Subscription Agreement of Halden County Employees' Retirement System (the "Investor")",
    # "Agreement of Limited Partnership of Birchfield & Ames Capital Partners 2019-A, L.P. (the
    # "Partnership")": a reading that holds a document and its "of" defines the organisation the
    # document is of, the name right before the definition.
    if name is not None and _DOCUMENT_OF.search(name.text):
        last_of = list(re.finditer(r"[ \t\n]+of[ \t\n]+(?=[A-Z])", text[name.start : paren_start]))
        start = name.start + last_of[-1].end() if last_of else paren_start
        closest = name_at(text, start, paren_start) if start < paren_start else None
        if (
            closest is not None
            and not text[closest.end : paren_start].strip(" \t\n,")
            and len(closest.text.split()) >= 2
            and party_name_problem(closest.text) is None
            and not _DOCUMENT_OF.search(closest.text)
            and not names_a_document(closest.text)
        ):
            name = closest
    # "PALISADE MUTUAL INSURANCE COMPANY\nOmaha, Nebraska\n(hereinafter ...)": a reading that ran
    # over a line break onto the party's seat ("City, State") ends at the break.
    if name is not None and "\n" in name.text:
        cut = name.text.index("\n")
        line_end = text.find("\n", name.start + cut + 1)
        seat = _SEAT_LINE.fullmatch(text, name.start + cut + 1, line_end if line_end != -1 else len(text))
        if seat is not None and normalise_jurisdiction(seat.group("place")):
            head = name.text[:cut].rstrip(" \t,")
            name = NameSpan(head, name.start, name.start + len(head))
    # ("B E T W E E N: ...", "A N D: ...": a heading word spaced out is no name.)
    if name is not None and _SPACED_WORD.fullmatch(name.text):
        return None
    lead = representation_lead(text, name.start) if name is not None else None
    # (A party represented by a company that is itself represented: "X GmbH, represented by its
    # shareholder Y Inc., here acting through Z": at most two clauses are stepped back over.)
    for _ in range(_REPRESENTATION_HOPS):
        if lead is None:
            break
        name = _clause_antecedent(text, lead.start(), floor, terms)
        if name is None:
            # ('BETWEEN "ACME S.A. DE C.V." REPRESENTED BY ...': the name may stand in quotes.)
            start = clause_start(text, lead.start(), floor)
            opening = re.match(r"[\s,:;\"“„]*", text[start : lead.start()])
            name = name_at(text, start + (opening.end() if opening else 0), lead.start())
        # The party's name is closed where its description starts (a comma, a parenthesis, a
        # quote, the line's end): a name cut short inside a longer one ("ACME(2) ...") is none.
        if name is not None and not _CLOSED_NAME.match(text, name.end, lead.start()):
            return None
        lead = representation_lead(text, name.start) if name is not None else None
    if name is None and lead is None and terms:
        # ('SYSTEM BUILDER SOFTWARE LIMITED a company incorporated in the Isle of Man of ("System
        # Builder Software")': no clause reading; the company the term is made from, written with
        # its legal form just before, is the antecedent.)
        name = _derived_company_before(text, paren_start, floor, terms)
    if name is None or lead is not None:
        return None
    # ("whose registered office is at ..., St. Helier, Jersey, JE2 4WQ, Channel Islands (the
    # "Company")": a place after a postal code closes an address, and names no one; a name after
    # one may still be a party's in a list without "and": "..., Oregon 97217, Texas A & M
    # University ("University")".)
    if _POSTAL_CODE_BEFORE.search(text, max(floor, name.start - 16), name.start) and is_place(name.text):
        return None
    return office_holders_organisation(text, without_enumerator(text, name))


def _derived_clause_head(text: str, paren_start: int, floor: int, terms: tuple[str, ...]) -> NameSpan | None:
    """The name opening the definition's clause (after its connector and a lower-case "the") when
    one of ``terms`` is made from it and only its description (", a municipal corporation in
    ...") stands between it and the definition; else None."""
    if _GROUP_DEFINITION.match(text, paren_start):
        return None
    start = clause_start(text, paren_start, floor)
    opening = _CLAUSE_HEAD_OPENING.match(text, start, paren_start)
    head = name_at(text, opening.end() if opening else start, paren_start)
    if (
        head is None
        or not any(_is_name_derived(t, head.text) for t in terms)
        or _ONLY_DESCRIPTION.fullmatch(text, head.end, paren_start) is None
        or party_name_problem(head.text) is not None
    ):
        return None
    return head


# What opens a clause before its name: white space, a list's connector, a lower-case "the".
_CLAUSE_HEAD_OPENING = re.compile(r"[\s,:]*(?:(?:and|AND|by|between|among)\s+)?(?:the\s+)?")


# A postal code and its comma right before a reading: UK ("JE2 4WQ, "), US ZIP ("10019, ").
_POSTAL_CODE_BEFORE = re.compile(r"(?<![\w])(?:[A-Z]{1,2}[0-9][0-9A-Z]?[ \t]?[0-9][A-Z]{2}|[0-9]{5}(?:-[0-9]{4})?)[ \t]*,[ \t\n]*\Z")


# How far before a definition the company its term is made from may start, and how long its
# description between its name and the definition may run.
_DERIVED_COMPANY_LOOKBACK = 200
_DERIVED_COMPANY_GAP = 80
# What stands between that company and the definition: its description as a company ("a company
# incorporated in the Isle of Man of").
_COMPANY_DESCRIPTION = re.compile(
    r"\b(?:an?|AN?)[ \t\n]+(?:[\w.\-]+[ \t\n]+){0,3}(?:company|corporation|partnership|COMPANY|CORPORATION|PARTNERSHIP)\b"
)
_COMPANY_DESCRIPTION_GAP = re.compile(r"[ \t\n]*,?[ \t\n]*" + _COMPANY_DESCRIPTION.pattern)


def _derived_company_before(text: str, paren_start: int, floor: int, terms: tuple[str, ...]) -> NameSpan | None:
    """The last name with a legal form within ``_DERIVED_COMPANY_LOOKBACK`` before the
    definition that one of ``terms`` is made from, at most ``_DERIVED_COMPANY_GAP`` characters
    before it, described as a company right after its name, with no other definition or sentence
    end between them; else None."""
    # (Most definitions without an antecedent have no company description before them: the
    # readings below are only tried when one stands within the gap.)
    if _COMPANY_DESCRIPTION.search(text, max(floor, paren_start - _DERIVED_COMPANY_GAP), paren_start) is None:
        return None
    start = max(floor, paren_start - _DERIVED_COMPANY_LOOKBACK)
    found: NameSpan | None = None
    # (Every capital opens a reading: "November 1995 PARTIES SYSTEM BUILDER SOFTWARE LIMITED"
    # holds the name; of the readings ending last, the shortest is the name.)
    for word in re.finditer(r"(?<![\w.&'’\-])[A-Z]", text[start:paren_start]):
        name = name_at(text, start + word.start(), paren_start)
        if name is None or (found is not None and name.end < found.end):
            continue
        if (
            ends_in_legal_suffix(name.text)
            and party_name_problem(name.text) is None
            and any(_is_name_derived(t, name.text) for t in terms)
            and paren_start - name.end <= _DERIVED_COMPANY_GAP
            and _COMPANY_DESCRIPTION_GAP.match(text, name.end, paren_start) is not None
            and not re.search(r"[()\"“”;]|\.[ \t\n]+[A-Z]", text[name.end : paren_start])
        ):
            found = name
    return found


_REPRESENTATION_HOPS = 2
# The opening of a remark on a party's other name, right before that name: "(also known as ".
_ALSO_KNOWN_AS_BEFORE = re.compile(
    r"[ \t\n]*,?[ \t\n]*\((?i:also[ \t\n]+known[ \t\n]+as|a/k/a|formerly(?:[ \t\n]+known[ \t\n]+as)?|f/k/a|previously[ \t\n]+known[ \t\n]+as)[ \t\n]+(?:the[ \t\n]+)?\Z"
)
_SPACED_WORD = re.compile(r"[A-Za-z](?:[ \t][A-Za-z])+")
_CLOSED_NAME = re.compile(r"[ \t]*(?:[,\"”\n]|$)|[ \t]+\(")


# An indefinite article right before a run: what follows describes a party ("a Delaware limited
# liability company"), it names none.
_DESCRIPTION_ARTICLE = re.compile(r"\b(?:an?|An?|AN?)\s+\Z")


# A capitalised agreement name inside a clause ("an Exclusive Distribution Agreement on
# January 1, 1999"): its words' first letters.
_AGREEMENT_NAME_IN_CLAUSE = re.compile(r"(?:[A-Z][\w&'’\-]*[ \t\n]+(?:(?:and|of|for|to|on|&)[ \t\n]+)?){1,6}(?:Agreement|AGREEMENT|Contract|CONTRACT)\b")


def _initials_of_agreement_in(segment: str, terms: tuple[str, ...]) -> bool:
    """Whether the one term a clause defines is the initials of an agreement the clause names:
    "B. Company and SMITH & NEPHEW, INC. entered into an Exclusive Distribution Agreement on
    January 1, 1999 ("EDA")" defines the document, and the names before it are no antecedent."""
    if len(terms) != 1 or _ACRONYM.fullmatch(terms[0]) is None:
        return False
    for match in _AGREEMENT_NAME_IN_CLAUSE.finditer(segment):
        words = [w for w in match.group().split() if w[:1].isupper()]
        if "".join(w[0] for w in words).upper() == terms[0]:
            return True
    return False


# "Part I General Rules and Definitions\nThe Nanjing Medical Group Company Limited (hereafter
# abbreviated to Party A)": a heading line without a full stop ran into the name. A capital "The"
# opening the definition's line opens the name, unless a joining word ends the line above ("Bank
# of\nThe West").
_LINE_OPENING_THE = re.compile(r"[ \t]*\n[ \t]*(?=The[ \t]+[A-Z])")
_JOINING_LINE_END = re.compile(r"(?:^|[\s,])(?i:of|and|for|the|de|&)\Z")


def _nearer_derived_name(
    text: str, segment_start: int, leading: NameSpan, terms: tuple[str, ...], paren_start: int
) -> NameSpan | None:
    """The name after the clause's last "and" (a lower-case "the" skipped), when a term is made
    from it and from ``leading`` too and only the name's description stands before the
    definition; else None."""
    # ("(together with Wrenwan ..., "WSMC")": a group's term is no one name's.)
    if not any(_is_name_derived(t, leading.text) for t in terms) or _GROUP_DEFINITION.match(text, paren_start):
        return None
    joiner = next(reversed(list(_LAST_JOINER.finditer(text, max(segment_start, leading.end), paren_start))), None)
    after = name_at(text, joiner.end(), paren_start) if joiner is not None else None
    if (
        after is None
        or not _ONLY_DESCRIPTION.fullmatch(text, after.end, paren_start)
        or party_name_problem(after.text) is not None
        or not any(_is_name_derived(t, after.text) for t in terms)
    ):
        return None
    return after


# The "and" before a list's last name ("..., and the City of Lubbock").
_LAST_JOINER = re.compile(r"(?<![\w&])(?:and|AND)[ \t\n]+(?:the[ \t\n]+)?(?=[A-Z])")


def _from_line_opening_the(text: str, leading: NameSpan, paren_start: int) -> NameSpan:
    """``leading`` from the "The" that opens a later line of it, when the name read from there
    ends where ``leading`` ends; else ``leading``."""
    for match in _LINE_OPENING_THE.finditer(text, leading.start, leading.end):
        if _JOINING_LINE_END.search(text, leading.start, match.start()):
            continue
        later = name_at(text, match.end(), paren_start)
        if later is not None and later.end == leading.end:
            return later
    return leading


def _clause_antecedent(
    text: str, paren_start: int, floor: int, terms: tuple[str, ...] = ()
) -> NameSpan | None:
    name = _clause_antecedent_read(text, paren_start, floor, terms)
    return _from_line_opening_the(text, name, paren_start) if name is not None else None


# A party block: the name on its own line, its address on a few short lines under it, then the
# definition on a line of its own ("GIT Worms S.à.r.l.\n15, rue Edward Steichen\nL-2540
# Luxembourg\n- hereinafter referred to as the "Borrower" -").
# The block's lines: the name's and at most four address lines.
_BLOCK_LINES = 5
_BLOCK_LINE_CHARS = 70
_BLOCK_LOOKBACK = 500
# What stands above a party block: the list's joiner or opener, alone on its line.
_BLOCK_SEPARATOR = re.compile(r"[ \t|]*[-–(]?[ \t]*(?i:and|between|by[ \t]+and[ \t]+between|among|by)[ \t]*[-–):]?[ \t]*")


def _address_block_head(text: str, paren_start: int, floor: int) -> NameSpan | None:
    """The name heading a party block whose definition stands alone under the block's address
    lines: the block is bounded above by a joiner line ("and"), an opener ("by and between") or
    the title, its first line is a name and nothing else, and its other lines are an address's
    (short, no legal form, one of them with a number in it)."""
    line_start = text.rfind("\n", floor, paren_start) + 1
    if re.match(r"[ \t]*\n", text[paren_start:]):
        # (The definition's site starts where the line above it ends.)
        end = paren_start
    elif text[line_start:paren_start].strip(" \t-–—(|"):
        return None
    else:
        end = line_start - 1
    lines: list[tuple[int, int]] = []
    while end > max(floor, paren_start - _BLOCK_LOOKBACK) and len(lines) <= _BLOCK_LINES:
        start = text.rfind("\n", floor, end) + 1
        if start <= floor and floor > 0:
            break
        line = text[start:end]
        if line.strip(" \t|"):
            if _BLOCK_SEPARATOR.fullmatch(line) or re.search(r"\b(?:AGREEMENT|Agreement|CONTRACT|Contract)\b", line):
                break
            lines.append((start, end))
        end = start - 1
        if end < 0:
            break
    else:
        return None
    if len(lines) < 2 or len(lines) > _BLOCK_LINES:
        return None
    head_start, head_end = lines[-1]
    address = [text[s:e].strip(" \t|") for s, e in lines[:-1]]
    if (
        any(len(line) > _BLOCK_LINE_CHARS or has_legal_suffix(line) for line in address)
        or not any(re.search(r"[0-9]", line) for line in address)
    ):
        return None
    opening = re.match(r"[ \t|]*", text[head_start:head_end])
    name_start = head_start + opening.end()
    name = slot_name_at(text, name_start, head_end)
    whole = text[name_start:head_end].rstrip(" \t,")
    if name is None:
        return None
    # ("between\nEcole\nPolytechnique de Westland\nCH -1015\n...": a name that goes on over its
    # line break onto the next line is wrapped, no block's head line.)
    wrapped = slot_name_at(text, name_start, lines[0][1])
    if wrapped is not None and wrapped.end > head_end:
        return None
    if name.end < name_start + len(whole):
        # ("Beralt Tin and Wolfram (Portugal) S.A." alone on its line: the line is one name when a
        # legal form closes it.)
        if not ends_in_legal_suffix(whole) or len(whole.split()) > _BLOCK_NAME_MOST_WORDS:
            return None
        name = NameSpan(whole, name_start, name_start + len(whole))
    return name


_BLOCK_NAME_MOST_WORDS = 10


def _seated_name_line_above(text: str, paren_start: int, floor: int) -> NameSpan | None:
    """("Marlin Shipping 3 LLC., of Marshall Islands\nhereinafter called the Sellers,": a definition
    opening its own line defines the company that opens the line above, written with its legal
    form and, after ", of", only its country or state.)"""
    if not re.match(r"[ \t]*\n", text[paren_start:]):
        return None
    line_start = text.rfind("\n", floor, paren_start) + 1
    if line_start <= floor and floor > 0:
        return None
    opening = re.match(r"[ \t|]*", text[line_start:paren_start])
    name = name_at(text, line_start + opening.end(), paren_start)
    if name is None or not ends_in_legal_suffix(name.text):
        return None
    seat = _SEAT_AFTER_OF.fullmatch(text, name.end, paren_start)
    if seat is None or (seat.group("place") and not normalise_jurisdiction(seat.group("place"))):
        return None
    return name


_SEAT_AFTER_OF = re.compile(r"[ \t.,]*(?:(?:of|OF)[ \t]+(?P<place>[A-Z][\w.'’\- ]{1,40}?))?[ \t.,]*")


def _clause_antecedent_read(
    text: str, paren_start: int, floor: int, terms: tuple[str, ...] = ()
) -> NameSpan | None:
    # "MARRIOTT INTERNATIONAL, INC., a Delaware corporation (to be renamed Sodexho Marriott
    # Services, Inc.) ("SMS")": a remark on the party's other name stands between its clause and
    # its definition; the definition is the clause's, read as if the remark were not there.
    remark = _NAME_REMARK.search(text, floor, paren_start)
    if remark is not None:
        paren_start = remark.start()
    block_head = _address_block_head(text, paren_start, floor) or _seated_name_line_above(text, paren_start, floor)
    if block_head is not None:
        return block_head
    segment_start = clause_start(text, paren_start, floor)
    if _initials_of_agreement_in(text[segment_start:paren_start], terms):
        return None
    # "LAKEHEAD BEVERAGE CORP., a corporation ...\n\n(the "Purchaser")": a definition alone on its
    # paragraph defines the paragraph above it (a party block laid out in paragraphs); the
    # clause is that paragraph.
    above = _PARAGRAPH_ABOVE.search(text, max(floor, paren_start - 400), paren_start)
    if not text[segment_start:paren_start].strip() and above is not None:
        segment_start, paren_start = clause_start(text, above.start(), floor), above.start()
        # ("... LYON, FRANCE\n\nRepresented by Mr. Michel GRECO, acting as Directeur General.\n\n
        # (hereinafter referred to as "PMC")": that paragraph is the party's representation
        # clause; the party is the paragraph above it.)
        opening = re.match(r"[\s\-–•|]*", text[segment_start:paren_start])
        lead = representation_lead(text, paren_start)
        higher = _PARAGRAPH_ABOVE.search(text, max(floor, segment_start - 400), segment_start)
        if lead is not None and lead.start() == segment_start + opening.end() and higher is not None:
            segment_start, paren_start = clause_start(text, higher.start(), floor), higher.start()
    # "TRADE SHOW MARKETING COMPANY LTD\n11359 - 162nd Street\n\nSurrey, B.C.\nCanada V4N 4P5\n(the
    # "Company")": a paragraph that is only an address's last lines (a postal code closes it, a
    # few short lines, no legal form) goes on from the paragraph above it. ("(2) JANE ROE of 17 Mill
    # Lane, Cambridge CB22 5LD (Employee)" is a party's own line, longer than an address line.)
    tail = text[segment_start:paren_start]
    above_tail = _PARAGRAPH_ABOVE.search(text, max(floor, segment_start - 400), segment_start)
    if (
        above_tail is not None and tail.count("\n") <= _ADDRESS_TAIL_LINES
        and all(len(line.strip()) <= _ADDRESS_TAIL_LINE_CHARS for line in tail.split("\n"))
        and party_name_problem(" ".join(tail.split())) == "address" and not has_legal_suffix(tail)
    ):
        segment_start = clause_start(text, above_tail.start(), floor)
    segment = text[segment_start:paren_start]
    # "BETWEEN:\n| Kestrel Systems Land Ltd.\n| Of the Harbour Industrial Park, Westport (Hereinafter
    # "Kestrel")": a line opened by "of" is the party's address; the party is the name that fills
    # the line above it alone (a registration number in brackets may follow).
    # (The definition may stand alone on the line below the address.)
    definition_line = text.rfind("\n", 0, paren_start)
    if definition_line > floor and not text[definition_line:paren_start].strip():
        definition_line = text.rfind("\n", 0, definition_line)
    address_line = _OF_ADDRESS_LINE.match(text, max(floor, definition_line), paren_start)
    # (One blank line may stand between the name's line and its address: "YEZUM-TECH BUSINESS AND
    # ASSETS LTD (Company Reg. No. 51-152477-9)\n\nOf 24 Shai Agnon St., Tel Aviv\n(Hereinafter: the
    # "Lessor")".)
    name_line_end = address_line.start() if address_line is not None else -1
    if address_line is not None and not text[text.rfind("\n", floor, name_line_end) + 1 : name_line_end].strip():
        name_line_end = max(floor, text.rfind("\n", floor, name_line_end))
    above_start = text.rfind("\n", floor, name_line_end) if address_line is not None else -1
    if address_line is not None and above_start >= 0:
        line_start = above_start + 1
        opening = re.match(r"[ \t|]*", text[line_start:name_line_end])
        above = slot_name_at(text, line_start + opening.end(), name_line_end) if opening else None
        if (
            above is not None
            and ends_in_legal_suffix(above.text)
            and _REGISTRATION_REMARK.fullmatch(text, above.end, name_line_end)
        ):
            return above
    # A segment opening with a comma and a lower-case word still describes the previous party
    # (", a Delaware corporation, and Paul Silas ("Celebrity")"): its own name comes after "and".
    # (", on the one hand, ABG-Shaq, LLC" is filler before a name of its own.)
    # (", in favor of U.S. BANK NATIONAL ASSOCIATION, ..." names the next party.)
    made_by = _MADE_BY.match(segment)
    if made_by is None:
        # "This PLEDGE AGREEMENT is dated as of May 1, 2004 and made by Acme Trust 2004-2, a Delaware
        # statutory trust (the "Grantor")": the maker follows "made by" inside the clause.
        made_by = next(iter(reversed(list(_MADE_BY_INSIDE.finditer(segment)))), None)
    # (", m3communications, Inc., a Florida corporation": a name's own lower-case opening, a letter or
    # three before a digit or a capital, is no description.)
    # (", the Marlow Springs Economic Development Corporation, a Type A ... ("MSEDC")": "the" and a
    # capitalised name of two words or more open the list's next member; ", the Issuer, and ..."
    # is a party's term.)
    continues_previous = made_by is None and re.match(
        r"\s*,\s*(?!(?:and\s*,?\s*)?(?:on\s+the\s+(?:one|other)\s+hand|in\s+favou?r\s+of|for\s+the\s+benefit\s+of|the\s+(?=[A-Z][\w&'’.\-]*\s+[A-Z]))\b)[a-z](?![a-z]{0,2}[0-9A-Z])",
        segment,
    ) is not None
    if made_by:
        segment_start, segment = segment_start + made_by.end(), segment[made_by.end() :]
    lead = _LEADING_CONNECTORS.match(segment)
    pos = segment_start + (lead.end() if lead else 0)
    article = re.match(r"(?:an?|A|An)\s+(?=[A-Z])", text[pos:paren_start])
    if article:
        pos += article.end()
    # (After a list's comma a lower-case "the" opens the member, no part of its name; one
    # capitalised word after it is a defined term, no member.)
    listed_the = re.match(r"the\s+(?=[A-Z][\w&'’.\-]*\s+[A-Z])", text[pos:paren_start]) if re.match(r"\s*,", segment) else None
    if listed_the:
        pos += listed_the.end()
    # ("and the president of Westland Institute of Science and Technology (hereinafter ...)".)
    office = office_of_prefix().match(text, pos, paren_start)
    if office:
        pos = office.end()
    # ("by and between the COUNTY OF JEFFERSON, TEXAS (the "County")", "and the City of Salina,
    # Kansas ("City")": a local government's name holds the state it lies in.)
    government = _local_government_with_seat(text, segment_start, paren_start)
    if government is not None:
        return government
    # "between the City of Riverton, a municipal corporation ("City")": a lower-case "the" right
    # after "between"/"among" is no part of the name, when only a description ends the clause
    # ("the difference between the Card Inventory Forecast less ... ("Penalty")" is prose).
    the_party = _THE_AFTER_BETWEEN.match(text, pos, paren_start) if _BETWEEN_BEFORE.search(text[max(0, pos - 12) : pos]) else None
    if the_party:
        named = name_at(text, the_party.end(), paren_start)
        if named is not None and _ONLY_DESCRIPTION.fullmatch(text, named.end, paren_start):
            pos = the_party.end()
            # "between the Borrower and Kestrel Bank Ltd. (the "Lender")": one capitalised word
            # after "the" is the first party's role; the name after its "and" is the definition's.
            role = _ROLE_AND.match(named.text)
            after = name_at(text, named.start + role.end(), paren_start) if role is not None else None
            if after is not None and after.end == named.end and ends_in_legal_suffix(after.text):
                pos = after.start
    # (A clause that the look-back window cut, with no break found in 700 characters, opens
    # mid-sentence: "... Register of the Ministry of Finance (CNPJ/MF) under No. ..., EDITORA
    # SCIPIONE S.A., ... hereinafter jointly referred to as "PUBLISHING HOUSE"": its first
    # capitalised words are no antecedent.)
    cut_mid_sentence = segment_start == paren_start - _CLAUSE_WINDOW > floor
    leading = name_at(text, pos, paren_start) if pos < paren_start and not continues_previous and not cut_mid_sentence else None
    # ("(2) Chau, Tien Hsiang, holder of HKID ... (the "Executive")": surname first.)
    leading = surname_first(text, leading, paren_start) if leading is not None else None
    # ("between GE Medical Systems and Affiliates ("Customer")": the group a party brings along is
    # no word of its name.)
    group = _GROUP_TAIL.search(leading.text) if leading is not None else None
    if leading is not None and group is not None and group.start() > 0:
        kept = leading.text[: group.start()].rstrip(" \t\n,")
        leading = NameSpan(kept, leading.start, leading.start + len(kept))
    # "We are pleased your firm is retaining CapitalKeys, LLC ("CK" or the "Firm")": a letter's
    # pronoun opening the sentence names no one; the name is read next to the definition.
    if leading is not None and leading.text.casefold() in _PRONOUNS:
        leading = None
    # "... offices at 1691 Michigan Avenue. Suite 601. Miami, Fl. 33139 (herein referred to as the
    # "Company")": the full stops of an address cut the clause; a city with only its state and
    # postal code after it is the address's end, no antecedent.
    if leading is not None and _STATE_AND_POSTAL_CODE.fullmatch(text, leading.end, paren_start):
        leading = None
    # "THE FOREGOING IS UNDERSTOOD AND AGREED TO BY:   Cardlytics, Inc. ("Supplier")": a run of
    # capitalised prose is no name; the name is the one next to the parenthesis.
    if leading is not None and party_name_problem(leading.text) is not None:
        # "(2) Sarah Jane Whitmore of 14 Elm Road, Oxford OX2 6HA (the "Consultant")": "of" and a
        # street number open the party's address; the name is the run before it.
        at_address = re.search(r"[ \t]+of[ \t]+\d", leading.text)
        short = name_at(text, leading.start, leading.start + at_address.start()) if at_address else None
        # "PURCHASING AGREEMENT\nINNOPHOS, INC. ("BUYER") hereby agrees ...": the reading ran up
        # over a heading line; the party's name opens the line the definition stands on.
        line_start = text.rfind("\n", leading.start, paren_start) + 1
        if short is None and line_start > leading.start:
            short = name_at(text, line_start, paren_start)
            if short is not None and (short.start != line_start or text[short.end : paren_start].strip(" \t,")):
                short = None
        if short is None:
            short = _line_opening_party(text, leading.start, paren_start)
        leading = short if short is not None and party_name_problem(short.text) is None else None
    if leading is not None:
        # "between City Bank, a Texas banking association, ..., and the City of Lubbock (the
        # "City")": a term made from both the clause's first name and the name right before the
        # definition is the nearer one's.
        nearer = _nearer_derived_name(text, segment_start, leading, terms, paren_start)
        if nearer is not None:
            return nearer
        # "BETWEEN THE EMPLOYER AND JANE ROE, ... 1. I, JANE ROE ("Employee")": the clause read
        # two names joined by "and"; the one the definition stands right after, written again
        # there, is its antecedent, not the pair.
        # "between Larkspur Medical Foundation and Kestrel Labs, Inc. ("Kestrel")": an
        # institution's head noun closes its name before a bare "and"; a term made from the words
        # after it, and none of the words before, is the later name's.
        later = _name_after_institution(text, leading, terms, paren_start)
        if later is not None:
            return later
        joined = re.search(r"\s(?:and|AND)\s+", leading.text)
        restated = name_before(text, paren_start) if joined else None
        if (
            joined is not None
            and restated is not None
            and restated.start >= leading.end
            and restated.text.casefold() == leading.text[joined.end() :].casefold()
        ):
            return restated
        # "..., Westport, Westland, on the one hand, and Harbour Law LLP (the "Firm")": the first
        # party's clause closes at "on the one hand"; what the clause read before it (the first
        # party's seat) is no antecedent of the term after the next name.
        one_hand = _ONE_HAND.search(text, leading.end, paren_start)
        if one_hand is not None:
            after = name_at(text, one_hand.end(), paren_start)
            if after is not None:
                return after
        # "made by Harbor Holdings, Inc. for the benefit of Kestrel Bank Ltd. (the "Lender")", "...
        # in respect of the obligations of Cove Partners LLC (the "Borrower")": a lead that names
        # another party (a beneficiary, the obligor a guaranty covers) opens the name the
        # definition belongs to, when only that name's description stands before it.
        if not any(_is_name_derived(term, leading.text) for term in terms):
            for lead in reversed(list(_OTHER_PARTY_LEAD.finditer(text, leading.end, paren_start))):
                after = name_at(text, lead.end(), paren_start)
                if (
                    after is not None
                    and _ONLY_DESCRIPTION.fullmatch(text, after.end, paren_start)
                    and party_name_problem(after.text) is None
                ):
                    return after
                break
        # "between iBio Inc., ... and Beijing CC-Pharming Ltd. of Beijing ("CC-Pharming")": a term
        # derived from a later name in the clause belongs to that name, not the first one.
        if terms and not any(_is_name_derived(term, leading.text) for term in terms):
            for joiner in reversed(list(re.finditer(r"(?:^|\s)(?:and|AND|&)\s+(?:the\s+(?=[A-Z]))?", segment))):
                start = segment_start + joiner.end()
                if start < leading.end:
                    break
                after = name_at(text, start, paren_start)
                if after is not None and joiner.group().rstrip().endswith("the") and not _ONLY_DESCRIPTION.fullmatch(text, after.end, paren_start):
                    continue
                if after is not None and any(_is_name_derived(term, after.text) for term in terms):
                    return after
            # "between Zenith Income Fund Inc. a corporation ..., and BOSTON SAFE DEPOSIT AND TRUST
            # COMPANY (the "Agent")": the previous party's clause closed at ", and"; the name after
            # it runs right up to the definition, which is that name's.
            last = next(reversed(list(_CLOSING_JOINER.finditer(segment))), None)
            if last is not None and segment_start + last.end() > leading.end:
                after = name_at(text, segment_start + last.end(), paren_start)
                if after is not None and _only_its_description(text, after, paren_start) and party_name_problem(after.text) is None:
                    return after
            # "among Marlow Korea Inc., Lotus Korea Inc. and Quartz Bank Ltd. (the "Lender")": a
            # role defined right after the last company of a list, joined by a bare "and", is that
            # company's (a plural term may name the whole list: left as it was).
            if ends_in_legal_suffix(leading.text) and not any(t.endswith("s") for t in terms):
                for joiner in reversed(list(re.finditer(r"\s(?:and|AND)\s+", segment))):
                    start = segment_start + joiner.end()
                    after = name_at(text, start, paren_start) if start > leading.end else None
                    if (
                        after is not None
                        and ends_in_legal_suffix(after.text)
                        and _only_its_description(text, after, paren_start)
                        and party_name_problem(after.text) is None
                    ):
                        return after
                    break
            # "Quartz Labs LLC, a wholly owned subsidiary of Cedar Holdings Corp. ("Cedar")": a
            # term made from the name right before the definition is that name's (here a parent,
            # no party), never the clause's first name's.
            closest = name_before(text, paren_start)
            if (
                closest is not None
                and closest.start >= leading.end
                # (", Chesapeake SP Partners, LLC, a Delaware limited liability company (the
                # "Company")": a run after "a"/"an" is the party's description, no name.)
                and _DESCRIPTION_ARTICLE.search(text, max(0, closest.start - 4), closest.start) is None
                and not text[closest.end : paren_start].strip()
                and any(_is_name_derived(term, closest.text) for term in terms)
            ):
                return closest
            # "by and among Dansington Corp., a company ..., The Tango Trust, a trust organized
            # under the laws of the Bahamas (the "Trust")": a list's item after a comma, with only
            # its description before the definition.
            for comma in reversed(list(_LIST_COMMA.finditer(text, leading.end, paren_start))):
                after = name_at(text, comma.end(), paren_start)
                if after is None or not _ONLY_DESCRIPTION.fullmatch(text, after.end, paren_start):
                    continue
                if any(_is_name_derived(term, after.text) for term in terms):
                    return after
                break
        # "Prior to the date hereof, the Executive was ... a director of GeoBio Energy, Inc., a
        # Colorado corporation ("Company")": one capitalised word that opens the sentence's prose is
        # no name; a company named with only its description before the definition is.
        if (
            len(leading.text.split()) == 1 and _PROSE_AFTER.match(text, leading.end)
            and not has_legal_suffix(leading.text) and not any(_is_name_derived(t, leading.text) for t in terms)
        ):
            before = name_before(text, paren_start)
            described = _named_before_description(text, floor, before) if before is not None and party_name_problem(before.text) == "description" else None
            if described is not None and described.start >= leading.end and ends_in_legal_suffix(described.text):
                return described
        return leading
    # "..., whose address is ..., for the benefit of HARBOUR CAPITAL BANK, NATIONAL ASSOCIATION, a
    # national banking association ("Lender")": the beneficiary's lead opens the name, inside the
    # clause too; only its description may follow it.
    for beneficiary in reversed(list(_BENEFICIARY_LEAD.finditer(segment))):
        after = name_at(text, segment_start + beneficiary.end(), paren_start)
        if after is not None and _ONLY_DESCRIPTION.fullmatch(text, after.end, paren_start):
            return after
        break
    # "..., having a mailing address at ... and Nanophase Technologies Corporation, a ... ("NTC")"
    # ("&" joins words inside a name: "... agreement with Harlan Webb & Company ("Agent")".)
    # ("..., and the Finley Family Irrevocable Trust dated May 1, 2009 (the "Trust")".)
    # ("..., Trustee, and (ii) Harlan Webb, Inc. a ... corporation, hereinafter called "Lessee"": a
    # list's enumerator after the joiner opens the next party.)
    # (", and, solely for purposes of Section 5, ALPINE LOAN SERVICES LLC, in its capacity as ...
    # ("Collateral Agent")": the sections a party joins for may stand after the joiner.)
    joiners = list(_JOINER_BEFORE_NAME.finditer(segment))
    for index in range(len(joiners) - 1, -1, -1):
        joiner = joiners[index]
        # ("... and the president of Westland Institute of Science (hereinafter ...)": the office
        # holder stands for the organisation.)
        office = office_of_prefix().match(text, segment_start + joiner.end(), paren_start)
        # ("..., and Licensor's Agent, SOUNDVIEW LICENSING, INC. ("SVL")": a role the party holds
        # for another, then a comma, comes before its name.)
        role = _ROLE_BEFORE_NAME.match(text, segment_start + joiner.end(), paren_start) if office is None else None
        if role is not None and role.group(1) not in lexicons().party_roles:
            role = None
        after = name_at(text, (office or role).end() if (office or role) else segment_start + joiner.end(), paren_start)
        # "..., and ARMADA SPORTS AND ENTERTAINMENT, INC., 254 South ... ("Licensor")": a shouted
        # name writes its own "AND"; when the reading after the joiner before it runs over this
        # one to the same end, and no legal form closes a name before this "AND", that is the name.
        # So does a name's own lower-case "and" ("..., and Tianjin Ascent Import and Export
        # Company, Ltd, a Chinese ... ("Distributor")") when the joiner before it closes the
        # previous party's clause with a comma and none stands before this one.
        if after is not None and index > 0 and (joiner.group().strip() == "AND" or _own_and(segment, joiners[index - 1], joiner)):
            wider = name_at(text, segment_start + joiners[index - 1].end(), paren_start)
            head = text[wider.start : segment_start + joiner.start()] if wider is not None else ""
            if (
                wider is not None
                and wider.end == after.end
                and not has_legal_suffix(head.strip(" ,"))
                and (joiner.group().strip() == "AND" or ends_in_legal_suffix(wider.text))
            ):
                after = wider
        # ("Ashgrove Ltd., a company incorporated in England and Wales ("Ashgrove")": an "and"
        # inside a place's name opens no party.)
        if after is not None and _joins_a_place(text, segment_start + joiner.start(), after):
            continue
        # ("Bar-Ilan Research and Development Company Ltd., a company ... (BAR-ILAN)": an "and"
        # joining a pair of common words inside one organisation's name opens no party, nor does
        # one right before such a pair when no comma or legal form closes a name before it.)
        if after is not None and _inside_coordinated_name(text, segment_start, segment_start + joiner.start(), after):
            continue
        # ("..., a company located at No. 8 Hanlin Road, Economic and Technological Development
        # Zone, Jilin City ... ("Party B")": an "and" with no comma before it, inside an address,
        # joins the address's words; it opens no party without a legal form.)
        # (Unless only the party's description follows the name: "... located at 12 Main Street and
        # Bank\nQuillby, a Minnesota banking corporation (the "Bank")".)
        if (
            after is not None
            and _inside_address(segment[: joiner.start() + 1])
            and not has_legal_suffix(after.text)
            and not _ONLY_DESCRIPTION.fullmatch(text, after.end, paren_start)
        ):
            continue
        # (After "and the" only a description may end the clause: "and the Department of the
        # Treasury of ... (the "Department")" names no "Department".)
        if after is not None and joiner.group().rstrip().endswith("the") and not _ONLY_DESCRIPTION.fullmatch(text, after.end, paren_start):
            continue
        if after is not None:
            return after
    # ("Hankook Tire Co. Ltd., 647-15 Yeoksam-dong, ..., Seoul 135-723 Korea, its affiliates and
    # subsidiaries (hereafter called "Hankook")": the group the party brings along closes its
    # clause; the name is read before it.)
    group = _GROUP_TAIL.search(text, max(floor, paren_start - _GROUP_TAIL_CHARS), paren_start)
    before = name_before(text, group.start() if group is not None else paren_start)
    # "..., and joined in by MICHAEL ROE, the principal shareholder of the Representative (the
    # "Principal")": a "the ..." appositive describes the name before it, and the definition after
    # the appositive is that name's, not the term the appositive ends in.
    if before is not None and not any(_is_name_derived(t, before.text) for t in terms):
        appositive = _THE_APPOSITIVE.search(text, max(floor, before.start - _APPOSITIVE_CHARS), before.start)
        described = name_before(text, appositive.start()) if appositive is not None else None
        if described is not None and described.start >= floor and party_name_problem(described.text) is None:
            return described
    if before is not None and party_name_problem(before.text) == "description":
        # "(this "Agreement") of Pippy Lane LLC, a Pennsylvania limited liability company (the
        # "Company")": the description closes the clause; the name stands before its ", a".
        # ("... which is wholly owned by Acme Holdings, Inc., a Delaware corporation ("Holdings")":
        # a parent the clause names is no party.)
        # (A parent is the definition's antecedent all the same: "a subsidiary of Pelham Crossing
        # Energy Corp., a Delaware corporation (the "Issuer")" defines Pelham, never "Delaware
        # corporation"; whether it is a party is decided with the parties.)
        described = _named_before_description(text, floor, before)
        if described is not None:
            return described
    # ("Smarte Solutions, Inc. of 611 S. Congress Avenue, Suite 350, Austin, Texas ("Smarte")": a
    # place closes the address too, when the term is made from the company's name.)
    place = before is not None and party_name_problem(before.text) == "place"
    # ("LAKEHEAD BEVERAGE CORP., a corporation incorporated under the laws of the Province of
    # Ontario\n\n(the "Purchaser")": a name after "the laws of" is the jurisdiction the party is
    # formed under, never the definition's antecedent; the company before it is.)
    governing = before is not None and _LAWS_OF_BEFORE.search(text, max(floor, before.start - 20), before.start) is not None
    # ("..., in the City of Mississauga, Province of Ontario,\n(hereinafter referred to as
    # "Licensee")": a province or state after a town and a comma closes an address; the
    # government it names is no antecedent.)
    region = before is not None and bool(normalise_jurisdiction(before.text)) and _after_a_town(text, floor, before.start)
    if before is not None and (party_name_problem(before.text) == "address" or place or governing or region):
        # "Zebra Technologies International, LLC, with an office at 3 Overlook Point, Lincolnshire
        # IL 60069 ("Zebra")": an address ends the clause; the party is the last company named
        # before the address (a blank line may separate the address from the term).
        region_start = max(floor, before.start - _ADDRESS_LOOKBACK)
        company = None
        position = region_start
        for word in re.finditer(r"(?<![\w.&'’\-])[A-Z0-9]", text[region_start : before.start]):
            if region_start + word.start() < position:
                continue
            found = name_at(text, region_start + word.start(), before.start)
            if found is not None and ends_in_legal_suffix(found.text) and party_name_problem(found.text) is None:
                company, position = found, found.end
        if governing:
            return company
        if place:
            return company if company is not None and any(_is_name_derived(t, company.text) for t in terms) else before
        return company or _named_before_location(text, region_start, before.start) or before
    return before


# ", the principal shareholder of the ": an appositive opened by "the" and lower-case words, up to
# the name it ends in.
_APPOSITIVE_CHARS = 80
_THE_APPOSITIVE = re.compile(r",[ \t\n]+the[ \t\n]+[a-z][a-z \t\n\-]{0,50}?[ \t\n]+(?:of|to|for)[ \t\n]+(?:the[ \t\n]+)?\Z")
_PROSE_AFTER = re.compile(r"[ \t]+[a-z]+[ \t]")


def _named_before_description(text: str, floor: int, description: NameSpan) -> NameSpan | None:
    """The name right before a party's description ("Acme Holdings, Inc., a Delaware corporation"),
    or None. ("Warren Development Corp. a Delaware corporation ("WDC")": a legal form's period may
    stand for the comma.)"""
    window = max(floor, description.start - 12)
    article = re.search(r"(?:,[ \t\n]*|(?<=[A-Za-z]\.)[ \t\n]+)an?[ \t\n]+$", text[window : description.start])
    if article is None:
        return None
    described = name_before(text, window + article.start())
    return described if described is not None and party_name_problem(described.text) is None else None


def _named_before_location(text: str, region_start: int, address_start: int) -> NameSpan | None:
    """The name right before the last "located at" (``_LOCATION_LEAD``) between ``region_start``
    and ``address_start``: "and, Mountain States FDAF located at 9980 South 300 West, ..., Sandy,
    Utah 84070 ("Sponsor")" names "Mountain States FDAF", though no legal form closes it."""
    lead = None
    for lead in _LOCATION_LEAD.finditer(text, region_start, address_start):
        pass
    if lead is None:
        return None
    named = name_before(text, lead.start())
    return named if named is not None and party_name_problem(named.text) is None else None


# A verb that opens a party's address right after its name ("..., located at", "domiciled at").
_LOCATION_LEAD = re.compile(r"(?i)[ \t\n]*,?[ \t\n]+(?:located|situated|residing|domiciled)[ \t\n]+at\b")


def _joins_a_place(text: str, joiner_start: int, after: NameSpan) -> bool:
    """Whether the "and" at ``joiner_start`` is a jurisdiction's own word: up to three capitalised
    words before it, the "and" and the name read after it make a known jurisdiction ("England and
    Wales", "Trinidad and Tobago", ``ner_models/jurisdictions.json``)."""
    before = _PLACE_WORDS_BEFORE.search(text, max(0, joiner_start - _PLACE_LOOKBACK), joiner_start + 1)
    if before is None:
        return False
    words = before.group().split()
    return any(
        normalise_jurisdiction(" ".join([*words[-count:], "and", after.text]))
        for count in range(1, len(words) + 1)
    )


def _inside_coordinated_name(text: str, segment_start: int, joiner_start: int, after: NameSpan) -> bool:
    """Whether the "and" at ``joiner_start`` is an organisation name's own: the words on either side
    make a pair of ``name_coordinations`` (party_filters.json), or the name read after it opens
    with such a pair while the words before it run from the clause's start with no comma or legal
    form ("Louisiana State University and Agricultural and Mechanical College")."""
    pairs = _name_coordinations()
    before = _LAST_WORD.search(text, max(segment_start, joiner_start - 40), joiner_start + 1)
    after_words = after.text.split()
    if before is not None and after_words and coordinated_words(before.group(1), after_words[0]):
        return True
    opening = " ".join(after_words[:3]).casefold()
    if not any((opening + " ").startswith(pair + " ") for pair in pairs):
        return False
    head = text[segment_start:joiner_start].strip()
    return bool(head) and "," not in head and head[:1].isupper() and not has_legal_suffix(head)


def _inside_address(before_joiner: str) -> bool:
    """Whether a joiner right after ``before_joiner`` (its clause up to it) stands in an address: an
    address lead ("located at", "offices at") comes before it, and no comma right before the joiner
    nor a semicolon since the lead closes the address."""
    rest = after_address_lead(before_joiner)
    return rest is not None and ";" not in rest and not rest.rstrip().endswith(",")


def after_address_lead(text: str) -> str | None:
    """The text after the last address lead in ``text`` ("located at", "registered office at"),
    or None when there is none."""
    lead = None
    for lead in _ADDRESS_LEAD.finditer(text):
        pass
    return text[lead.end() :] if lead is not None else None


# Words that open a party's address inside its clause.
# ("... place of business c/o Walker Secretaries, Walker House, Grand Cayman": "care of" opens an
# address too.)
_ADDRESS_LEAD = re.compile(r"(?i)\b(?:(?:located|situated|address|offices?|business|residing|resident|domiciled)[ \t\n]+at|c/o)\b")


def _with_named_purpose(text: str, name: NameSpan, paren_start: int, terms: tuple[str, ...]) -> NameSpan:
    """``name`` read on over "for"/"of" and the capitalised words after it, when the definition's
    term is made from the longer name only: "NATIONAL CORPORATION FOR HOUSING PARTNERSHIPS, a
    District of Columbia corporation ("NCHP")" (the reading stopped at the legal form's word)."""
    more = _PURPOSE_WORDS.match(text, name.end, paren_start)
    if more is None or not terms:
        return name
    longer = NameSpan(text[name.start : more.end()], name.start, more.end())
    if any(_is_name_derived(t, longer.text) and not _is_name_derived(t, name.text) for t in terms):
        return longer
    return name


# "for"/"of" and up to four capitalised words after a name, up to its comma or the definition.
_PURPOSE_WORDS = re.compile(r"[ \t\n]+(?:for|FOR|of|OF)[ \t\n]+[A-Z][\w\-]*(?:[ \t\n]+[A-Z][\w\-]*){0,3}(?=[ \t\n]*(?:,|\())")


def coordinated_words(before: str, after: str) -> bool:
    """Whether "<before> and <after>" is a pair of ``name_coordinations`` (party_filters.json), words
    an organisation's own name joins ("Research and Development"), or two adjectives ("Financial and
    Economic", "Scientific and Technological"): a name ends in a noun, so an adjective before
    "and" is no name's last word."""
    pair = f"{before.casefold()} and {after.casefold()}"
    return (
        pair in _name_coordinations()
        or (_ADJECTIVE.fullmatch(before) is not None and _ADJECTIVE.fullmatch(after) is not None)
        # ("Hubei Chutian Broadcasting and Television Network Co., Ltd.", "Printing and Dyeing",
        # "Mining and Metallurgy": two activity nouns, the trades a company's name lists.)
        or (_ACTIVITY_NOUN.fullmatch(before) is not None and _ACTIVITY_NOUN.fullmatch(after) is not None)
    )


# A capitalised noun of an activity or a field by its ending ("Broadcasting", "Television",
# "Management", "Technology", "Electronics", "Culture", "Insurance"; four letters or more before
# the ending, so "Science" and "Nation" are no such word by it).
_ACTIVITY_NOUN = re.compile(r"(?i)[A-Z][a-z]{3,}(?:ing|ion|ment|ogy|ics|ure|ance|ence)")
# A capitalised adjective by its ending ("Financial", "Economic", "Technological", "Collective");
# not every "-al" ("Capital", "Hospital", "Dental" are nouns).
_ADJECTIVE = re.compile(r"(?i)[A-Z][a-z]{2,}(?:ial|ical|ural|onal|ic|ive|ous)")


@lru_cache(maxsize=1)
def _name_coordinations() -> frozenset[str]:
    return frozenset(load_json("party_filters.json")["name_coordinations"])


# The capitalised word right before a joiner.
_LAST_WORD = re.compile(r"([A-Z][\w\-]*)[ \t\n]+\Z")


# Up to three capitalised words right before a joiner (at most ``_PLACE_LOOKBACK`` characters).
_PLACE_LOOKBACK = 60
_PLACE_WORDS_BEFORE = re.compile(r"(?:[A-Z][\w.'’\-]*[ \t\n]+){1,3}(?=\s?\Z)")


def _own_and(segment: str, previous: re.Match[str], joiner: re.Match[str]) -> bool:
    """Whether a lower-case "and" may be a name's own word: the joiner before it follows a comma
    (it closed the previous party's description), this one follows none, and a name that ends in
    a legal form is then read over it (``_clause_antecedent``)."""
    return (
        joiner.group().strip() == "and"
        and segment[: previous.start() + 1].rstrip().endswith(",")
        and not segment[: joiner.start() + 1].rstrip().endswith(",")
    )


# A parenthesised remark on a party's other name right before its definition ("(formerly ...)",
# "(which is in the process of changing its corporate name to ...)").
_NAME_REMARK = re.compile(
    r"[ \t\n]*\((?i:to[ \t\n]+be[ \t\n]+renamed|formerly(?:[ \t\n]+known[ \t\n]+as)?|f/k/a|now[ \t\n]+known[ \t\n]+as|previously[ \t\n]+known[ \t\n]+as|which(?=[^()]{0,120}\bname\b))\b[^()]{0,120}\)[ \t\n]*\Z"
)
_BENEFICIARY_LEAD = re.compile(r"\b(?i:in[ \t\n]+favou?r[ \t\n]+of|for[ \t\n]+the[ \t\n]+benefit[ \t\n]+of)[ \t\n]+(?:the[ \t\n]+)?(?=[A-Z])")
# A beneficiary's lead, or the obligor's a guaranty or pledge covers, inside one party's clause.
_OTHER_PARTY_LEAD = re.compile(
    r"\b(?i:in[ \t\n]+favou?r[ \t\n]+of|for[ \t\n]+the[ \t\n]+benefit[ \t\n]+of"
    r"|(?:in[ \t\n]+respect[ \t\n]+of|with[ \t\n]+respect[ \t\n]+to|relating[ \t\n]+to)[ \t\n]+the[ \t\n]+obligations[ \t\n]+of)"
    r"[ \t\n]+(?:the[ \t\n]+)?(?=[A-Z])"
)
# What may follow a name on its line above its "of" address: a bracketed remark or a company
# registration number ("(Company Reg. No. 51-152477-9)", ", Company Reg. No. 512894940").
_REGISTRATION_REMARK = re.compile(
    r"[ \t|]*(?:\([^()\n]*\)|,?[ \t]*(?:Company[ \t]+)?(?:Reg\.|Registration|Registered|Registry)[ \t]+(?:No\.?|Number)[ \t]*:?[ \t]*[\w\-/. ]{1,30})?[ \t|,]*"
)
_OF_ADDRESS_LINE = re.compile(r"\n[ \t|]*(?:of|Of|OF)[ \t]+(?!the[ \t]+(?:first|second|third|one|other)[ \t-]+part\b)")
_ONE_HAND = re.compile(r"(?i),?[ \t\n]+on[ \t\n]+the[ \t\n]+one[ \t\n]+hand[ \t\n]*,?[ \t\n]*and[ \t\n]+")
# The end of the paragraph right above a line that opens with a definition: the blank line(s).
_ADDRESS_TAIL_LINES = 3
_ADDRESS_TAIL_LINE_CHARS = 40
_PARAGRAPH_ABOVE = re.compile(r"(?<=\S)[ \t]*\n[ \t]*\n\s*\Z")
# A line holding only a party's seat: "Omaha, Nebraska", "Hamilton, Bermuda".
_SEAT_LINE = re.compile(r"[ \t]*[A-Z][\w.'’\-]*(?:[ \t]+[A-Z][\w.'’\-]*){0,3},[ \t]*(?P<place>[A-Z][\w.'’\- ]{1,40}?)[ \t]*")
_THIS_TERM = re.compile(r"\b(?i:this)[ \t\n]+[\"“]\Z")
_DOCUMENT_OF = re.compile(r"\b(?i:agreement|contract)[ \t\n]+(?i:of)\b")
# A town and its comma right before a province or state ("City of Mississauga, |Province of Ontario").
_TOWN_AND_COMMA = re.compile(r"(?<![\w.&'’\-])([A-Z][\w.'’\-]*),[ \t]*\n?[ \t]*\Z")


def _after_a_town(text: str, floor: int, start: int) -> bool:
    """Whether ``start`` follows a capitalised word and a comma that is no legal form's ("City of
    Mississauga, |Province of Ontario"; never "Beta LLC, |Province of Ontario")."""
    town = _TOWN_AND_COMMA.search(text, max(floor, start - 40), start)
    return town is not None and not ends_in_legal_suffix(town.group(1))


# ("a corporation incorporated in Delaware, (the "Supplier")": a formation verb and "in" name the
# place the same way.)
_LAWS_OF_BEFORE = re.compile(
    r"(?:\b(?i:laws?)[ \t\n]+of|\b(?:incorporated|organi[sz]ed|formed|registered|existing|domiciled)[ \t\n]+in)"
    r"[ \t\n]+(?:the[ \t\n]+)?\Z"
)
# How far back from a place's name "under the laws of the" is looked for: the words and the white
# space between, a fixed-width layout's wrap and indent included.
_FORMED_UNDER_LAWS_CHARS = 120
# A party's description of where it is formed ("existing under the laws of the Republic of Korea"),
# not a statute's title ("the Joint Venture Law of the People's Republic of China").
_FORMED_UNDER_LAWS = re.compile(r"\b(?:under|with|to)[ \t\n]+the[ \t\n]+laws[ \t\n]+of[ \t\n]+(?:the[ \t\n]+)?\Z")


def _local_government_with_seat(text: str, segment_start: int, paren_start: int) -> NameSpan | None:
    """A local government's name and the state after its comma, right before a definition's
    parenthesis ("the City of Salina, Kansas ("City")", "EAGLE COUNTY, COLORADO ("Licensee")"),
    wherever the clause's segment holds it; else None. A bare place ("Austin, Texas") is none:
    the name must be a local government's (``names.local_government``, or a unit closing it)."""
    for opening in reversed(list(_NAME_OPENING.finditer(text, segment_start, paren_start))):
        named = name_at(text, opening.start(), paren_start)
        if named is None or not (local_government(named.text) or ends_in_local_unit(named.text)):
            continue
        # ("an individual residing in Cobb County, Georgia ("Executive")": after a locating word
        # the government is where a party is, no party.)
        lead = _WORD_BEFORE.search(text, max(0, named.start - 40), named.start)
        if lead is not None and lead.group(1) not in _LIST_WORDS:
            continue
        # (Only white space may stand between the state and the definition.)
        seated = with_local_seat(text, named, paren_start)
        if seated is not named and not text[seated.end : paren_start].strip():
            return seated
    return None


# The lower-case word before a name (an article skipped), and the words a party list opens a
# name with.
_WORD_BEFORE = re.compile(r"\b([a-z]+)[ \t\n]+(?:the[ \t\n]+)?\Z")
_LIST_WORDS = frozenset({"and", "between", "among", "by", "with", "or"})
# Where a capitalised name may open: a capital after white space, a comma or the clause's start.
_NAME_OPENING = re.compile(r"(?<![\w.&'’\-])[A-Z]")


_ROLE_AND = re.compile(r"[A-Z][a-z]+[ \t\n]+and[ \t\n]+(?=[A-Z])")
_BETWEEN_BEFORE = re.compile(r"(?i)\b(?:between|among)\s+$")
_GROUP_WORD = r"(?:affiliates|subsidiaries|successors|(?:(?:permitted|registered)[ \t\n]+)?assigns)"
# ", its affiliates and subsidiaries", ", or its registered assigns" (a warrant's holder; the
# comma may be left out before "or"/"and": "X, L.P. or its registered assigns (the "Holder")")
# right before a definition.
_GROUP_TAIL = re.compile(
    rf"(?:,[ \t\n]*(?:(?:and|or)[ \t\n]+)?|[ \t\n]+(?:and|or)[ \t\n]+)its[ \t\n]+{_GROUP_WORD}(?:[ \t\n]*(?:,|and|&)[ \t\n]*(?:its[ \t\n]+)?{_GROUP_WORD})*[ \t\n]*\Z"
    # ("GE Medical Systems and Affiliates ("Customer")": the group named without "its".)
    r"|[ \t\n]+and[ \t\n]+(?:Affiliates|Subsidiaries|AFFILIATES|SUBSIDIARIES)[ \t\n]*\Z"
)
# How far before a definition the group tail may start (the search per definition stays bounded).
_GROUP_TAIL_CHARS = 120
# The capitalised words and the "and" right before a name (\Z: ending where the name starts).
# How far before a name its own "and" and the words before it are looked for.
_OWN_AND_LOOKBACK = 60
_OWN_AND_BEFORE = re.compile(r"(?<![\w&'’\-])(?:[A-Z][\w&'’\-]*[ \t]+){1,3}(?:and|&)[ \t]+\Z")
_PRONOUNS = frozenset({"i", "we", "you", "our", "us", "they", "it", "he", "she"})
# A first line that ends in the agreement word (a title) before the rest of a name read on.
# ("Written Agreement Concerning Purchases of Regenerated PET Resin\nNishino Kinryo Corporation
# (hereinafter ...)": or holds it before the title's subject.)
_TITLE_LINE_END = re.compile(r"[^\n]*\b(?i:agreement|contract)\b[^\n]*\n")
# A party's role for another before its name: "its Licensee, ", "Licensor's Agent, ".
_ROLE_BEFORE_NAME = re.compile(r"(?:its|their|[A-Z][A-Za-z]+['’]s)[ \t\n]+([A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?)[ \t]*,[ \t\n]+(?=[A-Z])")
# An "and" before a list's next name, maybe with the sections the party joins for after it, its
# item number, and a lower-case "the".
_JOINER_BEFORE_NAME = re.compile(
    r"(?:^|\s)(?:and|AND)(?:\s*,\s*" + PURPOSE_QUALIFIER + r")?\s+(?:\((?:[ivx]{1,4}|[a-h]|[0-9]{1,2})\)\s+)?(?:the\s+(?=[A-Z]))?"
)
# The last ", and" of a clause, before the capitalised word opening the next party's name.
_CLOSING_JOINER = re.compile(r",[ \t\n]*(?:and|AND)[ \t\n]+(?=[A-Z])")
# A comma and the capitalised word opening a list's next item.
_LIST_COMMA = re.compile(r",[ \t\n]+(?=[A-Z])")
_THE_AFTER_BETWEEN = re.compile(r"the\s+(?=[A-Z])")
# What may stand between such a name and its definition: ", a municipal corporation", "dated May
# 1, 2009" (a trust's deed), or a bare comma ("and the UNIVERSITY OF ... NEW JERSEY, ("UMDNJ")").
_ONLY_DESCRIPTION = re.compile(r"\s*(?:,\s*an?\s+[^()\"]*|,?\s+dated\s+[^()\"]*|,)?\s*")


# A definition that names a group ("(each a "Party")", "(collectively, "Sellers")"), not the
# name right before it.
_GROUP_DEFINITION = re.compile(r"\(\s*(?:hereinafter\s+)?(?:each|both|collectively|together|jointly|individually)\b", re.I)


def _only_its_description(text: str, name: NameSpan, paren_start: int) -> bool:
    """Whether only the name's own description (``_ONLY_DESCRIPTION``: ", a Texas corporation")
    or nothing stands between ``name`` and the definition opening at ``paren_start``, a
    definition of one party ("A and B, a Texas corporation ("Buyer")" defines B)."""
    if _GROUP_DEFINITION.match(text, paren_start):
        return False
    return not text[name.end : paren_start].strip() or _ONLY_DESCRIPTION.fullmatch(text, name.end, paren_start) is not None


def _line_opening_party(text: str, start: int, paren_start: int) -> NameSpan | None:
    """The name with a legal form that opens a line (maybe a table cell) between ``start`` and the
    definition, followed only by its description: "SERVICE AGREEMENT\ndated as of 1 January
    2023\n|WISeKey International Holding AG, a Swiss company with ... Switzerland\n(hereinafter
    the\nService Provider)" (the reading ran up over the heading lines)."""
    for line in islice(re.finditer(r"\n[ \t|]*", text[start:paren_start]), _LINES_LOOKED_AT):
        name = name_at(text, start + line.end(), paren_start)
        if name is not None and ends_in_legal_suffix(name.text) and _ONLY_DESCRIPTION.fullmatch(text, name.end, paren_start):
            return name
    return None


# How many lines of a clause read over heading lines are looked at for the party's own line.
_LINES_LOOKED_AT = 8


# (``^`` does not match at a ``pos`` inside the text: the same pattern without it.)
_CONNECTORS_AT = re.compile(_LEADING_CONNECTORS.pattern.removeprefix("^"), _LEADING_CONNECTORS.flags)


def leading_connectors(text: str, pos: int, end: int) -> int | None:
    """Where a name may start after the connectors and filler at ``pos`` (", and", "on the other
    hand,", "(b)"), or None when there are none."""
    lead = _CONNECTORS_AT.match(text, pos, end)
    return lead.end() if lead and lead.end() > pos else None


def _clean_term(raw: str, raw_start: int) -> tuple[str, int, int] | None:
    stripped = raw.lstrip()
    start = raw_start + len(raw) - len(stripped)
    article = re.match(r"(?:the|The)\s+", stripped)
    if article:
        stripped, start = stripped[article.end() :], start + article.end()
    term = stripped.rstrip().rstrip(".,")
    return (term, start, start + len(term)) if term else None


def _terms_in(paren_text: str, offset: int) -> list[tuple[str, int, int]]:
    """The quoted terms of one definition: ("SFDC", "Salesforce"), ("Company" or "RCP"); later
    quotes after other words ("Athlete" and together with X, collectively "Wade") name a group."""
    terms: list[tuple[str, int, int]] = []
    previous_end: int | None = None
    for match in _QUOTED.finditer(paren_text):
        if previous_end is not None and not _TERM_JOINER.match(paren_text[previous_end : match.start()]):
            break
        cleaned = _clean_term(match.group(1), offset + match.start(1))
        if cleaned:
            terms.append(cleaned)
        previous_end = match.end()
    return terms


@dataclass(frozen=True, slots=True)
class _Site:
    """Where a definition sits: the parenthesis (or "hereinafter" clause) and its terms."""

    start: int
    end: int
    terms: list[tuple[str, int, int]]
    quoted: bool = True


# A parenthesis holding an unquoted term, maybe after "hereinafter": "(Transporter)", "(hereinafter
# referred to as the Recipient)", "(hereafter abbreviated to Party A)". One or two capitalised
# words (a line may wrap between them); a lower-case letter may open the first before a capital
# ("(eRXSYS)").
_UNQUOTED_TERM = re.compile(
    r"\s*((?i:hereinafter|hereafter)\s+(?:(?i:referred\s+to\s+as|called|designated\s+as|abbreviated\s+(?:to|as))\s+)?)?(?:the\s+)?"
    r"((?:[a-z](?=[A-Z]))?[A-Z][\w\-]*(?:[ \t\n]+[A-Z][\w\-]*)?)\s*"
)


def _sites(straight: str) -> list[_Site]:
    sites: list[_Site] = []
    party_roles = lexicons().party_roles
    for paren in _PAREN.finditer(straight):
        if _DEFINING_OPENING.match(paren.group(1)):
            terms = _terms_in(paren.group(1), paren.start(1))
            if terms:
                sites.append(_Site(paren.start(), paren.end(), terms))
            continue
        # The definition closes the parenthesis after a description: "(in such capacity and
        # together with its successors and assigns in such capacity, the "Agent")".
        closing = _CLOSING_DEFINITION.search(paren.group(1))
        if closing:
            cleaned = _clean_term(closing.group(1), paren.start(1) + closing.start(1))
            if cleaned:
                sites.append(_Site(paren.start(), paren.end(), [cleaned]))
            continue
        # An unquoted role: "Great Lakes Gas Transmission Limited Partnership (Transporter)"; after
        # "hereinafter" any capitalised term is one ("(hereinafter the\nService Provider)").
        bare = _UNQUOTED_TERM.fullmatch(paren.group(1))
        if bare and (
            bare.group(2) in party_roles
            or (bare.group(1) and not names_a_document(bare.group(2)))
            or _acronym_of_company_before(straight, paren.start(), bare)
        ):
            term = (bare.group(2), paren.start(1) + bare.start(2), paren.start(1) + bare.end(2))
            sites.append(_Site(paren.start(), paren.end(), [term], quoted=False))
    sites += _uncovered_sites(_HEREINAFTER, straight, sites, lambda m: _terms_in(m.group(1), m.start(1)))
    # ("..., herein represented in the form of its By-Laws, hereinafter referred to as LICENSOR;
    # and": a shouted term without quotes or brackets, closed by the clause's punctuation.)
    sites += [
        replace(site, quoted=False)
        for site in _uncovered_sites(_HEREINAFTER_SHOUTED, straight, sites, lambda m: [(m.group(1), m.start(1), m.end(1))])
    ]
    # ("Marlin Shipping 3 LLC., of Marshall Islands\nhereinafter called the Sellers, have agreed to
    # sell": a party's role word without quotes, in the memorandum form a ship sale uses.)
    sites += [
        replace(site, quoted=False)
        for site in _uncovered_sites(_HEREINAFTER_ROLE, straight, sites, lambda m: [(m.group(1), m.start(1), m.end(1))])
        if _role_word(site.terms[0][0])
    ]
    # ('Dean Capawana ("Capawana"; MSGI, Parola, ... are sometimes referred to herein individually as
    # "Member" ...)': a term closed by a semicolon opens a parenthesis too long to read whole.)
    sites += _uncovered_sites(_TERM_THEN_SEMICOLON, straight, sites, _semicolon_term)
    return sorted(sites, key=lambda site: site.start)


def _acronym_of_company_before(straight: str, paren_start: int, bare: re.Match[str]) -> bool:
    """Whether an unquoted parenthesis holds an acronym of the company named right before it: "The
    Investor Relations Group, Inc. (IRG) agrees to provide ...". Only capitals, made from the
    name's words (``_is_name_derived``), after a name its legal form closes; "(USA)" after "Acme
    Inc." is no term."""
    if bare.group(1) or not _ACRONYM.fullmatch(bare.group(2)):
        return False
    company = name_before(straight, paren_start)
    return company is not None and ends_in_legal_suffix(company.text) and _is_name_derived(bare.group(2), company.text)


# ("eRXSYS, Inc. (eRXSYS)": a name's lower-case first letter may open its acronym too.)
_ACRONYM = re.compile(r"[a-z]?[A-Z]{2,6}")
_TERM_THEN_SEMICOLON = re.compile(r'\([ \t\n]*(?:the[ \t\n]+)?"([^"\n]{1,40})"[ \t\n]*;')


def _semicolon_term(match: re.Match[str]) -> list[tuple[str, int, int]]:
    cleaned = _clean_term(match.group(1), match.start(1))
    return [cleaned] if cleaned else []


def _uncovered_sites(
    pattern: re.Pattern[str],
    straight: str,
    sites: list[_Site],
    read_terms: Callable[[re.Match[str]], list[tuple[str, int, int]]],
) -> list[_Site]:
    """Definitions outside a parenthesis: each match of ``pattern`` that no earlier site covers."""
    covered = [(site.start, site.end) for site in sites]
    found: list[_Site] = []
    for match in pattern.finditer(straight):
        if any(s <= match.start() < e for s, e in covered):
            continue
        terms = read_terms(match)
        if terms:
            found.append(_Site(match.start(), match.end(), terms))
    return found


def _accept(term: str, name: str, strength: int, group: bool = False) -> bool:
    """strength 2: a "between ..." preamble; 1: the opening pages; 0: elsewhere."""
    lex = lexicons()
    # ("the "Make\nGood Pledgor"": a term the line wraps is the same term; so is a name, "the U.S.\n
    # Department of Justice ("DOJ")".)
    term = " ".join(term.split())
    name = " ".join(name.split())
    if term.casefold() in lex.non_party_terms or normalise_org(name) in lex.non_party_terms:
        return False
    # ("... Agreement between Vendor and AT&T Corp. (the "Transport Agreement")": a document.)
    if names_a_document(term):
        return False
    # ("... at a price of $1 per Offered Share (the "Offering Price")": a sum, a thing or a place.)
    if names_a_thing(term):
        return False
    # ("... registered in The People's Republic of China (the "PRC")": a term naming a jurisdiction
    # defines the place, whatever name the clause reads before it; a government body's may be one,
    # and so may a company's whose name opens with it: "NEW JERSEY ACQUISITION, INC. ("New
    # Jersey")", "USA Cable ("USA")".)
    if normalise_jurisdiction(term) and not government_body_name(name) and not _opens_with(name, term):
        return False
    # ("Borosh Consulting, LLC dba Clear Financial Solutions": the legal name before a trade name
    # has the form.)
    suffixed = has_legal_suffix(name) or has_legal_suffix(legal_name(name))
    # ("... COMPANY, a Wisconsin corporation, ("Sublandlord")": a prefixed role is a role.)
    # (A ship sale's "Sellers" and "Buyers" are its two parties, each one company: a role's plural
    # is the role; never a group's, "(collectively, the "Borrowers")", whose term is no one name's.)
    singular = term[:-1] if term.endswith("s") and not group else term
    if term in lex.party_roles or singular in lex.party_roles or prefixed_role(term, lex.party_roles):
        return strength >= 1 or suffixed
    if _is_name_derived(term, name):
        return strength >= 1 or suffixed or len(name_words(name)) <= 4
    return (strength >= 2 and term[:1].isupper() and _looks_like_name(name)) or (strength >= 1 and suffixed)


_THE_BEFORE_TERM = re.compile(r"\(\s*the\s+[\"“]\Z", re.I)


def _defined_as_itself_after_the(text: str, site_start: int, term_start: int, name: str, term: str) -> bool:
    """Whether one capitalised word without a legal form is defined as itself after "the" ('Tour
    (the "Tour")')."""
    words = name.split()
    return (
        len(words) == 1 and name.casefold() == " ".join(term.split()).casefold() and not has_legal_suffix(name)
        and _THE_BEFORE_TERM.search(text, site_start, term_start) is not None
    )


def _opens_with(name: str, term: str) -> bool:
    """Whether ``name``'s first words are ``term``'s words ("NEW JERSEY ACQUISITION, INC." and "New
    Jersey"), by the registry's word normalisation."""
    term_words = name_words(term)
    return bool(term_words) and tuple(name_words(name)[: len(term_words)]) == tuple(term_words)


def _looks_like_name(name: str) -> bool:
    """A party without a legal suffix is named by a few capitalised words ("Paul Silas")."""
    if government_body_name(name):
        return True
    # ("The Municipality of Lezo, a local government unit ..., hereinafter referred to as "LGU
    # Lezo"": a local government's name, its "of" inside, is a party's.)
    if local_government(re.sub(r"^(?:the|The|THE)[ \t\n]+", "", name)):
        return True
    words = name.split()
    capitalised = [w for w in words if w[:1].isupper() or w[:1].isdigit() or w == "&"]
    if 1 <= len(words) <= 5 and len(capitalised) == len(words):
        return True
    # "Hisashi Akazawa and Si Chen, each in their individual capacities (each a "Pledgor")": two
    # persons one term defines, each a name of its own (``annotate._person_pair`` splits them).
    # ("Ms. Zheng Roe and Ms. Kong Amy Wai Ng": an honorific is no word of the name.)
    halves = [words_without_honorifics(h) for h in re.split(r"[ \t\n]+and[ \t\n]+", name)]
    if len(halves) == 2 and all(2 <= len(h) <= 5 and all(w[:1].isupper() for w in h) for h in halves):
        return True
    # An institution's name holds joining words inside ("Westland Institute of Science and
    # Technology"), never at either end, is written in one case ("JANE ROE of Willow Barn Cottage"
    # ran on into an address) and holds an institution word (`of_the_institutions` of
    # party_filters.json: "Ready for Service Date", "Commonwealth of X" are no institutions).
    inner = words[1:-1]
    shouted = {w.isupper() for w in capitalised if any(c.isalpha() for c in w)}
    # ("Washington University in St. Louis": a university's place follows "in".)
    campus = {i + 1 for i, w in enumerate(inner) if w == "in" and is_campus_institution(words[i])}
    return (
        len(words) <= 8 and len(capitalised) >= 3 and words[0] in capitalised and words[-1] in capitalised
        and all(w in capitalised or w in _NAME_JOINERS or i + 1 in campus for i, w in enumerate(inner)) and len(shouted) == 1
        and any(w.casefold() in _institution_words() for w in capitalised)
    )


@lru_cache(maxsize=1)
def _institution_words() -> frozenset[str]:
    return frozenset(load_json("party_filters.json")["of_the_institutions"])


_NAME_JOINERS = frozenset({"of", "and", "for", "the", "de", "du", "des", "la", "le", "del", "y", "di"})


@dataclass(frozen=True, slots=True)
class _PartyScope:
    """Where a definition may name a party: the preamble windows, the opening pages up to the
    recitals that close the first party clause, and never inside another agreement's party
    clause that the preamble cites ("as an amendment to that certain Joint Venture Agreement
    dated ... by and among Autoliv ASP, Inc. ("Autoliv ASP") ... (the "JV Agreement")")."""

    windows: list[tuple[int, int]]
    recitals_start: int | None
    cited_clauses: list[tuple[int, int]]


# Words before a later "between"/"among" in its sentence that make it another agreement's clause:
# "that certain Supply Agreement dated ... by and among", "pursuant to an Indenture, dated as of
# ... (the "Base Indenture"), between" (never "This Agreement, dated ..., is made between").
_THAT_CERTAIN = re.compile(r"\bthat\s+certain\b", re.I)
_CITED_DOCUMENT = re.compile(r"\b(?:agreement|amendment|indenture|lease|contract)\b", re.I)
_CITED_DATED = re.compile(r"\b(?:dated|entered\s+into)\b", re.I)
_SELF_REFERENCE = re.compile(r"\bthis\s+(?:[\w\-]+\s+){0,5}$", re.I)
_CITED_LOOKBACK = 600


def _cites_another_agreement(sentence: str) -> bool:
    if _THAT_CERTAIN.search(sentence):
        return True
    # "This Agreement (the "Agreement"), dated as of ..., is made between", also after a heading
    # run on the same line ("Amendment No:   GAS TRANSPORTATION AGREEMENT   THIS AGREEMENT is made
    # and entered into ... by and between"): the document's own clause.
    documents = list(_CITED_DOCUMENT.finditer(sentence))
    # ("LOAN NUMBER 3745 PH\n\nAGREEMENT, dated June 3, 1994, between ...": an agreement word in
    # capitals that opens its sentence names the document itself, as a development bank's loan
    # agreement does.)
    own = [d for d in documents if _SELF_REFERENCE.search(sentence[: d.start()]) or (d.start() == 0 and d.group().isupper())]
    # ("WHEREAS, capitalized terms used ... in this Agreement shall have the meanings ... in the
    # Business Combination Agreement, dated as of ..., by and among ...": a recital is never the
    # document's own party clause; a mention of "this Agreement" in it vetoes nothing.)
    if own and _RECITAL_SENTENCE.match(sentence):
        documents = [d for d in documents if d not in own and not re.search(r"[\"“][^\"“”]*\Z", sentence[: d.start()])]
    elif own:
        return False
    return any(_CITED_DATED.search(sentence, document.end()) for document in documents)


_RECITAL_SENTENCE = re.compile(r"[ \t\n]*(?:[A-Z]\.[ \t]+)?(?:WHEREAS|Whereas)\b")


# A parenthesis that defines a term ('(the "Holder")', '(“Licensee”)', '(as amended, restated,
# supplemented or otherwise modified from time to time, the "Credit Agreement")'), its term in
# group 1.
_DEFINING_PAREN = re.compile(r"\((?:[^()\"“”]{0,100}?)[\"“]([^\"“”()]{1,60})[\"”]\)")
_DOCUMENT_TERM_BEFORE = re.compile(r"[\"”]\)[ \t\n,]*\Z")


def _defined_then_cited(text: str, start: int) -> bool:
    """Whether the first "between"/"among" at ``start`` follows right after another document's
    definition, in a sentence that cites it, with two parties already defined before that
    document's definition ("THIS CERTIFIES THAT ... Fund II, L.P. ... (the "Holder") ... from Bramble, Inc. (the
    "Company") ... This Warrant is issued in connection with the Loan and Security Agreement dated
    as of ... (the "Loan Agreement") among the Company, ...": the loan agreement's parties)."""
    before = text[max(0, start - _CITED_LOOKBACK) : start]
    if _DOCUMENT_TERM_BEFORE.search(before) is None:
        last = None
    else:
        last = list(_DEFINING_PAREN.finditer(before))
        last = last[-1] if last and before[last[-1].end() :].strip(" \t\n,") == "" else None
    if last is None or not names_a_document(last.group(1)):
        return False
    sentence_start = max((m.end() for m in _SENTENCE_BREAK.finditer(before, 0, last.start())), default=0)
    if not _cites_another_agreement(before[sentence_start:]):
        return False
    # (Or earlier in the same sentence, before the cited document: "JOINDER AGREEMENT ... made by
    # RIDGELINE ..., LLC (the "New Grantor"), in favor of Larkspur ... (the "Collateral Agent")
    # ... under the Guarantee and Collateral Agreement dated ... (the "Collateral Agreement")
    # among Cortland Dynamics Corp. ...": the joinder's parties are defined before it cites.)
    head = text[: max(0, start - _CITED_LOOKBACK) + last.start()]
    parties = [m for m in _DEFINING_PAREN.finditer(head) if not names_a_document(m.group(1))]
    return len(parties) >= 2


def _cited_clauses(text: str, clauses: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The between-windows after the first that open another agreement's party clause."""
    cited: list[tuple[int, int]] = []
    # "RECITALS\nA. Pursuant to that certain Loan Agreement ... between ELDERWOOD ST. CHARLES OPCO,
    # LLC ("Borrower"), and Lender": the first "between" may stand past the opening's party clause
    # ("made ... by", before its recitals) too; then it is another agreement's when its sentence
    # cites one.
    recitals = opening_end(text)
    first = clauses[:1] if clauses and (recitals <= clauses[0][0] < OPENING_CHARS or _defined_then_cited(text, clauses[0][0])) else []
    for start, end in [*first, *clauses[1:]]:
        if start >= OPENING_CHARS:
            break
        before = text[max(0 if start == clauses[0][0] else clauses[0][0], start - _CITED_LOOKBACK) : start]
        sentence = before[max((m.end() for m in _SENTENCE_BREAK.finditer(before)), default=0) :]
        if _cites_another_agreement(sentence):
            cited.append((start, end))
    return cited


_CITED_SENTENCE_STOP = re.compile(r"\.(?=[ \t\n]+[A-Z\"“(])|\n[ \t]*\n")


def cited_clause_spans(text: str) -> list[tuple[int, int]]:
    """Another agreement's party clause that this document cites ("Reference is made to the
    Guarantee and Collateral Agreement, dated ..., among Acme Holdings, Inc., the other Grantors
    ... and the Collateral Agent."), each up to its sentence's end: the names in it are that
    agreement's parties. A period after a short or dotted word ("Inc.", "N.A.") ends none."""
    spans: list[tuple[int, int]] = []
    for start, end in _cited_clauses(text, between_windows(text)):
        stop = end
        for match in _CITED_SENTENCE_STOP.finditer(text, start, end):
            word = re.search(r"[\w.]+$", text[max(start, match.start() - 40) : match.start()])
            if match.group().startswith(".") and word is not None and (len(word.group()) <= 4 or "." in word.group()):
                continue
            stop = match.start()
            break
        spans.append((start, stop))
    return spans


def _party_scope(text: str, windows: list[tuple[int, int]], sites: list[_Site]) -> _PartyScope:
    clauses = between_windows(text)
    recitals_start = None
    if clauses and clauses[0][0] < OPENING_CHARS:
        marker = _PREAMBLE_END.match(text, clauses[0][1])
        recitals_start = clauses[0][1] if marker else None
        # (A sentence on who are parties to an agreement opens the recitals without their word.)
        parties_to = _before_parties_to_another(text, *clauses[0])
        if parties_to < clauses[0][1]:
            recitals_start = parties_to
    elif opening_end(text) < min(len(text), OPENING_CHARS):
        recitals_start = opening_end(text)
    # "This Agreement ... is entered into by Acme Inc., ... (the "Company"), and Jane Roe ... (the
    # "Advisor")": a party clause opened by its verb and "by" instead of "between".
    windows = [*windows, *_made_by_windows(text)]
    cited: list[tuple[int, int]] = []
    for start, end in _cited_clauses(text, clauses):
        # The cited clause ends where the cited agreement is defined ("(the "JV Agreement")").
        closing = next(
            (site.end for site in sites if start < site.start < end and any(names_a_document(t) for t, _, _ in site.terms)),
            end,
        )
        cited.append((start, closing))
    return _PartyScope(windows, recitals_start, cited)




def _made_by_windows(text: str) -> list[tuple[int, int]]:
    """Party clauses in the opening pages opened by "is made|entered into|executed ... by"."""
    windows: list[tuple[int, int]] = []
    openers = [*_MADE_BY_OPENER.finditer(text, 0, min(len(text), OPENING_CHARS)), *_PARTIES_ARE_OPENER.finditer(text, 0, min(len(text), OPENING_CHARS))]
    for match in sorted(openers, key=lambda m: m.start()):
        limit = min(len(text), match.start() + PREAMBLE_WINDOW_CHARS)
        end_match = _PREAMBLE_END.search(text, match.end(), limit)
        windows.append((match.end(), end_match.start() if end_match else limit))
    return windows


def _strength(pos: int, scope: _PartyScope) -> int:
    if _in_windows(pos, scope.cited_clauses):
        return 0
    # Past the recitals that close the party clause, a defined company is a third party the
    # recitals talk about ("WHEREAS, ... through Veoneer Nissin Brake Systems Japan, Co., Ltd.").
    after_recitals = scope.recitals_start is not None and pos >= scope.recitals_start
    if _in_windows(pos, [w for w in scope.windows if not (after_recitals and w[0] >= scope.recitals_start)]):
        return 2
    return 1 if pos < OPENING_CHARS and not after_recitals else 0


_RECITAL_OPENING = re.compile(r"[\s,;]*(?:and\s+)?(?:WHEREAS|Whereas)\b[\s,:]*(?:the\s+)?")


def _in_recital_predicate(text: str, name_start: int) -> bool:
    """Whether the name at ``name_start`` stands inside a "WHEREAS" recital, after its first words
    (so not as the recital's subject)."""
    begin = clause_start(text, name_start, max(0, name_start - 700))
    opening = _RECITAL_OPENING.match(text, begin, name_start)
    return opening is not None and re.search(r"\b[a-z]+\b", text[opening.end() : name_start]) is not None


_RECITAL_SUBJECT = re.compile(
    r"[\s,;]*(?:and\s+)?(?:(?:WHEREAS|Whereas)\b[\s,:]*)?(?:\(?[A-Za-z0-9]{1,3}[.)][ \t]*)?(?:the\s+)?$"
)


def _recital_subject(text: str, name_start: int) -> bool:
    """Whether the name at ``name_start`` opens its clause (a recital's subject, "WHEREAS, Jane
    Roe ("Roe") is ..."), not its predicate ("... through Acme Co., Ltd. ("AC")")."""
    begin = clause_start(text, name_start, max(0, name_start - 700))
    return _RECITAL_SUBJECT.fullmatch(text, begin, name_start) is not None


# A recital about another agreement: "WHEREAS, Tessera Homes Inc. ("Borrower") has entered into a
# Loan Agreement with Senior Lender, ... guaranteed by ... pursuant to a Guaranty dated ...".
_RECITAL_CITES_AGREEMENT = re.compile(
    r"\b(?:entered\s+into|(?:is|are)\s+(?:a\s+)?part(?:y|ies)\s+to|executed|issued)\s+(?:an?|that\s+certain|certain)\s"
    # ("(A) SLOAN PHARMA SARL ... ("SLOAN"), and BPL were parties to the Distribution ... Agreement
    # dated ...": in the past tense, "the" cites the agreement this one replaces.)
    r"|\b(?:was|were)\s+(?:a\s+|the\s+)?part(?:y|ies)\s+to\s+(?:an?|that\s+certain|certain|the)\s"
)
# (A person's initial is no sentence end: "Amplex Electric, Inc. (the "Company"), Mark R. Radabaugh,
# ... and the Buyer have entered into that certain Share Purchase Agreement".)
# (Nor is a legal form's abbreviation: "Star China Ltd. (...), Valin MPM, Hunan Valin Tube & Wire
# Joint Stock Co. Ltd. (...) entered into a Capital Contribution Agreement".)
_RECITAL_CLAUSE_END = re.compile(
    r";|(?<!\b[A-Z])(?<!\bCo)(?<!\bInc)(?<!\bLtd)(?<!\bCorp)(?<!\bCO)(?<!\bINC)(?<!\bLTD)(?<!\bCORP)\.\s+(?=[A-Z\"])|\n\s*\n"
)
_RECITAL_READ_CHARS = 600


def _recital_cites_agreement(text: str, name_end: int) -> bool:
    """Whether the recital clause after a name tells of another agreement that name entered
    into: its subject is that agreement's party, not this one's."""
    limit = min(len(text), name_end + _RECITAL_READ_CHARS)
    stop = _RECITAL_CLAUSE_END.search(text, name_end, limit)
    return _RECITAL_CITES_AGREEMENT.search(text, name_end, stop.start() if stop else limit) is not None


def _role_label_definitions(straight: str) -> list[Definition]:
    """ "Party A (Shipper): Lanting Express Co., Ltd.", "Licensee: Marlow Credit Union", a
    table's "|Licensor|X Corp|": the layout reader's label rows define their role as a term
    for the party they name (``party_layout.label_slots``)."""
    return [
        Definition(slot.term, slot.term_start, slot.term_start + len(slot.term), slot.name.end, slot.name, True, True)
        for slot in label_slots(straight, lowercase_words(straight))
    ]


_SENTENCE_END = re.compile(r"\.[ \t\n]+(?=[A-Z])")
# Words by which a sentence names parties of its own ("is entered into by", "X, as guarantor, is
# a party hereto").
_PARTY_CLAUSE_CUES = re.compile(
    r"(?i)\b(?:between|among|parties|party|hereto|undersigned|made\s+by|entered\s+into\s+by|executed\s+by|joins?)\b"
)


# Words by which the rest of a name's sentence makes it a party ("... is a party hereto", "...
# joins this Agreement"), and how far that rest is read.
_JOINING_CUES = re.compile(r"(?i)\b(?:parties|party|hereto|undersigned|joins?)\b")
_CLAUSE_AFTER_END = re.compile(r"[,;\n]|\.(?=[ \t\n]+[A-Z])")
_REST_OF_SENTENCE_CHARS = 600


def _later_sentence(text: str, floor: int, name_start: int) -> str | None:
    """The text from the start of the sentence holding ``name_start`` up to it, when a sentence
    end (not an abbreviation's period) stands between ``floor`` and the name; else None."""
    # (One character past the name's start: a sentence end right before the name is seen only
    # with the capital that opens the name, "... for the Tenant. Quill Depot Co. ("Depot Owner")
    # leases ...".)
    ends = [
        m for m in _SENTENCE_END.finditer(text, floor, min(len(text), name_start + 1))
        if not ends_in_abbreviation(text, max(0, m.start() - 12), m.start())
    ]
    return text[ends[-1].end() : name_start] if ends else None


def _in_party_predicate(text: str, name_start: int, earlier: Sequence[Definition]) -> bool:
    """Whether the name at ``name_start`` stands in a later sentence that opens with a party's
    defined term and a lower-case word ("Owner is the owner of ..."), after that party's
    definition, with no party clause of its own."""
    named = [d for d in earlier if d.is_party_alias and d.name is not None and d.paren_end <= name_start]
    if not named:
        return False
    # (Only the sentence's own stretch is read: at most ``_PREDICATE_SENTENCE_CHARS`` back.)
    first_end = max(min(d.paren_end for d in named), name_start - _PREDICATE_SENTENCE_CHARS)
    sentence = _later_sentence(text, first_end, name_start)
    if sentence is None:
        return False
    subject = re.match(r"[ \t\n]*(?:\(?[A-Z0-9]{1,3}[.)][ \t]+)?(?:(?:The|the)[ \t]+)?([A-Z][\w\-]*(?:[ \t]+[A-Z][\w\-]*){0,2})[ \t\n]+[a-z]", sentence)
    # (A party's term as the subject makes the sentence about that party: only a clause that
    # makes or joins this agreement ("by and between", "hereto", "made by") is still a party clause.)
    if subject is None or _OWN_CLAUSE_CUES.search(sentence) is not None:
        return False
    return subject.group(1).casefold() in {d.term.casefold() for d in named}


_PREDICATE_SENTENCE_CHARS = 1_000
_OWN_CLAUSE_CUES = re.compile(r"(?i)\b(?:by\s+and\s+(?:between|among)|hereto|undersigned|made\s+by|entered\s+into\s+by|executed\s+by|joins?)\b")


def _after_closed_party_clause(text: str, name_start: int, paren_end: int, earlier: Sequence[Definition]) -> bool:
    """Whether the name at ``name_start`` stands in a sentence after the one that named two
    parties (each defined), and that sentence opens no party clause itself."""
    named = [d for d in earlier if d.is_party_alias and d.name is not None and d.name.start < name_start]
    if len({d.name.text for d in named}) < 2:
        return False
    second = sorted(named, key=lambda d: d.paren_end)[1]
    sentence = _later_sentence(text, second.paren_end, name_start)
    if sentence is None:
        return False
    if _PARTY_CLAUSE_CUES.search(sentence) is not None:
        return False
    # The clause right after the definition may join the name ("Kestrel Corp. (the "Guarantor") is
    # a party hereto"); it ends at a comma, a semicolon, a line break or the sentence's end (",\nX
    # and Y being referred to as the "Parties"" names others). A "between" there cites another
    # document's parties ("... leased to the Tenant under a lease between ...").
    limit = min(len(text), paren_end + _REST_OF_SENTENCE_CHARS)
    stop = next(
        (
            m.start() for m in _CLAUSE_AFTER_END.finditer(text, paren_end, limit)
            if m.group() != "." or not ends_in_abbreviation(text, max(0, m.start() - 12), m.start())
        ),
        limit,
    )
    return _JOINING_CUES.search(text, paren_end, stop) is None


# A term in single quotes where a definition's double quotes would stand: after "(" or a space,
# opening with a capital, closed right before ")", "," or ";" ("LYCOS, INC., a corporation ...
# ('Lycos')", "(the 'Company')"). An apostrophe inside a word never opens one.
_SINGLE_QUOTED_TERM = re.compile(r"(?<=[(\s])'([A-Z0-9][^'()\n\"]{0,60}?)'(?=\s*[),;])")


def _double_quoted(straight: str) -> str:
    """``straight`` with single-quoted terms written in double quotes, and a mark closing a
    quoted term blanked ('("IOS(R)")' reads '("IOS   ")': a parenthesis inside the definition's
    would end it), same length."""
    double = _SINGLE_QUOTED_TERM.sub(lambda m: f'"{m.group(1)}"', straight)
    return _MARK_IN_TERM.sub(lambda m: f'"{m.group(1)}{" " * len(m.group(2))}"', double)


_MARK_IN_TERM = re.compile(r'"([^"()\n]{1,40})(\((?:R|TM|SM)\))"')


# A label's own words before its aside, alone on the line: "Lessee ", "Party B ".
_LABEL_BEFORE_ASIDE = re.compile(r"(?:^|(?<=\n))[ \t|]*[A-Z][A-Za-z]*(?:[ \t]+[A-Za-z]+){0,3}[ \t]*$")


def _label_aside_value(text: str, paren_start: int, paren_end: int) -> NameSpan | str | None:
    """For a definition standing in a label row's label ('Lessee (hereinafter referred to as
    "Party B"): X Co., Ltd.'), the row's value (the name right after the colon, on that line), or
    "" when the row has none; None when the definition is no label's."""
    line_start = text.rfind("\n", 0, paren_start) + 1
    if not LABEL_COLON.match(text, paren_end) or not _LABEL_BEFORE_ASIDE.match(text, line_start, paren_start):
        return None
    return name_after_colon(text, paren_end) or ""


# A definition every member of the list before it carries: "(each a "Guarantor")",
# "(individually, a "Seller")".
_DISTRIBUTIVE_OPENING = re.compile(r"\([ \t\n]*(?:each|individually|severally)\b", re.I)
# What joins a name to the list member before it (", ", "and ", ", and "), after that member's
# own last character: a ")" closes a member's own definition ("Kestrel Bank Ltd. (the "Pledgee")
# and Sun Harbor LLC (each a "Pledgor")"), so the name after it is no list's member.
_LIST_JOINER_BEFORE = re.compile(r"[^)\s,][ \t\n]*(?:,[ \t\n]*(?:(?:and|AND)[ \t\n]+)?|(?:and|AND)[ \t\n]+)\Z")


def _named_again(text: str, site: _Site, name: NameSpan | None, earlier: Sequence[Definition]) -> NameSpan | None:
    """The antecedent of a party's term defined again: "WHEREAS, Minerco Inc., the parent company
    of Level 5 Beverage Company, Inc. (the "Licensee"), ..." after the preamble defined "Licensee"
    for Level 5 Beverage Company, Inc.: the name right before the parenthesis, when it is the one
    the term was defined for, is the term's again, whatever a wider reading of the clause took."""
    terms = {t for t, _, _ in site.terms}
    before = {
        " ".join(d.name.text.split()) for d in earlier
        if d.is_party_alias and d.name is not None and d.term in terms
    }
    if name is None or not before or " ".join(name.text.split()) in before:
        return name
    closest = name_before(text, site.start)
    return closest if closest is not None and " ".join(closest.text.split()) in before else name


# A label and its colon opening the line right before a name: the name is that row's value.
_LABEL_ROW_BEFORE = re.compile(r"[ \t|]*[A-Z][^\n:]{0,40}[:：][ \t]*")


def _third_after_two_parties(name: NameSpan, terms: Sequence[str], definitions: Sequence[Definition]) -> bool:
    """Whether two or more preamble definitions already named parties and ``name`` is no form of
    any of them: neither a part nor a whole of one's name, unless its own term is made from it and
    that party's is not ("Tel Aviv University ("TAU")" beside "Ramot at Tel Aviv University Ltd.
    ("Ramot")")."""
    named = [d for d in definitions if d.is_party_alias and d.in_preamble and d.name is not None]
    if len(named) < 2:
        return False
    words = set(name_words(name.text))
    own_term = any(_is_name_derived(t, name.text) for t in terms)
    for d in named:
        other = set(name_words(d.name.text))
        if other <= words:
            return False
        if words <= other and not (own_term and not _is_name_derived(d.term, name.text)):
            return False
    return True


def find_definitions(text: str) -> list[Definition]:
    straight = _double_quoted(straighten_quotes(text))
    windows = preamble_windows(straight)
    definitions: list[Definition] = []
    last_site_end = 0
    sites = _sites(straight)
    scope = _party_scope(straight, windows, sites)
    labelled = _role_label_definitions(straight)
    for site in sites:
        strength = _strength(site.start, scope)
        name = _antecedent(straight, site.start, last_site_end, tuple(t for t, _, _ in site.terms))
        if name is not None:
            name = _with_named_purpose(straight, name, site.start, tuple(t for t, _, _ in site.terms))
        name = _named_again(straight, site, name, definitions)
        # 'Lessee (hereinafter referred to as "Party B"): X Co., Ltd.': a definition inside a
        # label row's label is the row's value's, never the name on the line above.
        in_label = _label_aside_value(straight, site.start, site.end)
        if in_label is not None:
            name = in_label or None
        # A recital's subject may still define a party the clause names by role ("... and the
        # Seller. WHEREAS, Jane Quill Roe ("Roe") is the Seller").
        if (
            strength == 0 and name is not None and site.start < OPENING_CHARS
            and not _in_windows(site.start, scope.cited_clauses) and _recital_subject(straight, name.start)
            and not _recital_cites_agreement(straight, site.end)
            # ("B. Halcyon Holdings, Inc., the parent of Halcyon, has executed a Guaranty in favor
            # of Lender ... (the "Guaranty")": the term is the agreement the recital cites.)
            and _RECITAL_CITES_AGREEMENT.search(straight, name.end, site.start) is None
            # (Only while the clause has named fewer than two parties with their terms: after
            # "between A ("FBT") and B ("ATM Owner")", "D. Columbus Data Services, LLC ("CDS") may
            # act ... on behalf of FBT" is a third company the recitals talk about.)
            and sum(1 for d in definitions if d.is_party_alias and d.in_preamble and d.name is not None) < 2
        ):
            strength = 1
        # "LG. Philips LCD Co., Ltd., a corporation ... under the laws of the Republic of Korea
        # ("Korea"), having its principal office at ... ("LPL")": the definition of the place a
        # party is formed under defines no party and does not close that party's clause.
        place = (
            name is not None
            and bool(normalise_jurisdiction(name.text))
            and _FORMED_UNDER_LAWS.search(straight, max(0, name.start - _FORMED_UNDER_LAWS_CHARS), name.start) is not None
        )
        if not place:
            last_site_end = site.end
        # ("... ("Licensee") and Ramot at Tel Aviv University Ltd. ("Ramot") ... WHEREAS, Tel Aviv
        # University ("TAU") owns ...": once the clause has named two parties with their terms, a
        # recital's subject it defines, no form of those parties, is a third company the recitals
        # talk about.)
        # ("PARTY A: X CO., LTD. ... PARTY B: Y CO., LTD. WHEREAS, Puda Holding Limited ("Puda")
        # owns ... Party A": label rows name parties as preamble definitions do.)
        labelled_before = [d for d in labelled if d.term_start < site.start]
        recital_third = (
            strength < 2 and name is not None and _recital_subject(straight, name.start)
            and _third_after_two_parties(name, tuple(t for t, _, _ in site.terms), [*definitions, *labelled_before])
        )
        # ("Party A: X Company ... Party B: Y Limited ... ARTICLE 1 ... Name of the subject
        # Enterprise: Guangzhou Zhongxin Toys Factory ("the Factory")": once label rows have named
        # two parties, a company the text defines outside a party clause is a third one.)
        # (A name that is a label row's value or its label, "Target Company: Hangzhou ... Co., Ltd.
        # (hereinafter referred to as "Target Company")", is named as the parties are.)
        recital_third = recital_third or (
            name is not None and len(labelled_before) >= 2
            and not _LABEL_ROW_BEFORE.fullmatch(straight, straight.rfind("\n", 0, name.start) + 1, name.start)
            and not LABEL_COLON.match(straight, name.end)
            and _third_after_two_parties(name, tuple(t for t, _, _ in site.terms), labelled_before)
        )
        for term, start, end in site.terms:
            is_alias = name is not None and not place and _accept(
                term, name.text, strength, group=_GROUP_DEFINITION.match(straight, site.start) is not None
            )
            # An unquoted "(Transporter)" only defines a term after a full name (not "Gateway").
            is_alias = is_alias and (
                site.quoted or ends_in_legal_suffix(name.text) or len(name_words(name.text)) >= 2
            )
            # '... as it relates to the Tour (the "Tour")': one word defined as itself after "the"
            # is a thing the clause speaks of; a party's one-word name defines itself without the
            # article ('Microsoft ("Microsoft")') or defines a role (the "Company").
            if is_alias and _defined_as_itself_after_the(straight, site.start, start, name.text, term):
                is_alias = False
            # "WHEREAS, COFS has an existing Capitan Reef Aquifer ("CRA") water well": a name
            # defined inside a recital's predicate is a thing the recital talks about, not a party
            # (the recital's subject, "WHEREAS, Acme ("Acme") owns ...", still may be one).
            if is_alias and not has_legal_suffix(name.text):
                is_alias = not _in_recital_predicate(straight, name.start)
            # "... and Jane Roe (the "Executive"). This Agreement becomes effective upon the merger
            # with Kestrel, Inc. ("KI")": once a sentence has named two parties, a later sentence
            # that opens no party clause of its own defines a third party the contract talks about.
            if is_alias and strength == 2 and _after_closed_party_clause(straight, name.start, site.end, definitions):
                is_alias = False
            # "Owner is the owner and operator of the Las Vegas Aces ("Team") ...": a sentence whose
            # subject is a party's term talks about that party; what it defines is no party.
            if is_alias and _in_party_predicate(straight, name.start, definitions):
                is_alias = False
            # "by Harbor Holdings, Inc. and Cove Partners LLC (each a "Guarantor")": a term each
            # member of a list carries is no alias of the last member alone.
            # (The name read may be the list's first member, with the others between it and the
            # definition. A pair read as one name, "Kenji Arakawa and Mei Lin", stays one
            # definition: annotate splits it into two parties and aliases neither.)
            if is_alias and _DISTRIBUTIVE_OPENING.match(straight, site.start) and (
                _LIST_JOINER_BEFORE.search(straight, max(0, name.start - 16), name.start)
                or re.search(r"(?:,|\b(?:and|AND))[ \t\n]+[A-Z]", straight[name.end : site.start])
            ):
                is_alias = False
            # ('SUPPLEMENT NO. 1 dated as of ... (this "Supplement")': "this" before the term makes it
            # the document's own name, never a party's.)
            if is_alias and _THIS_TERM.search(straight, max(0, start - 12), start):
                is_alias = False
            if is_alias and recital_third:
                is_alias = False
            definitions.append(Definition(term, start, end, site.end, name, strength >= 1, is_alias))
    definitions.extend(labelled)
    return sorted(definitions, key=lambda d: (d.term_start, d.term))


# A definitions section's entry: '"Company" means Thornbury Estates Limited (company number ...),'.
_MEANS_ENTRY = re.compile(r'(?m)^[ \t]*(?:\d{1,2}(?:\.\d{1,2})*[ \t]+|\([a-z0-9]{1,3}\)[ \t]+)?"(?P<term>[A-Z][\w\-]*(?:[ \t]+[A-Z][\w\-]*){0,2})"[ \t]+means[ \t]+')
# Where a party clause that names its parties by term ends: its sentence's end or a blank line.
_CLAUSE_SENTENCE_END = re.compile(r"\.[ \t]|\.$|\n[ \t]*\n[ \t]*\d|\n[ \t]*\n[ \t]*[A-Z]{2}")
_TERM_CLAUSE_CHARS = 400
# How far into the text a definitions section naming the parties may stand.
MEANS_SCAN_CHARS = 8_000


def _term_clause(straight: str, start: int, end: int) -> str:
    """The sentence of a party clause that opens at ``start`` (at most ``_TERM_CLAUSE_CHARS``)."""
    stop = _CLAUSE_SENTENCE_END.search(straight, start, min(end, start + _TERM_CLAUSE_CHARS))
    return straight[start : stop.start() if stop is not None else min(end, start + _TERM_CLAUSE_CHARS)]


def _names_term(clause: str, term: str) -> bool:
    return re.search(r"(?<![\w\"])(?:the[ \t]+)?" + re.escape(term) + r"(?![\w\"'’])", clause) is not None


def term_slot_names(text: str) -> list[tuple[str, NameSpan]]:
    """Parties a clause names only by defined terms that a definitions section then says mean
    names: "BETWEEN: (1) the Company; and (2) the Executive, each as defined in clause 1.1." with
    '"Company" means Thornbury Estates Limited (company number ...)'. Each (term, name), the name
    cut at its description ("of 9 Lansdown Crescent", a parenthesis, a comma)."""
    straight = straighten_quotes(text)
    windows = between_windows(straight)
    if not windows:
        return []
    start, end = windows[0]
    # (The clause stands before the definitions section: a "between" inside an entry, '"CPC
    # Blend" means ... agreed between the Principal and STASCO', is no party clause.)
    entries = list(_MEANS_ENTRY.finditer(straight, 0, min(len(straight), MEANS_SCAN_CHARS)))
    if not entries or start >= entries[0].start():
        return []
    # (The clause's own sentence: "between Employer and Employee (each as identified in Section 1)".)
    clause = _term_clause(straight, start, end)
    found: list[tuple[str, NameSpan]] = []
    for entry in entries:
        if not _names_term(clause, entry.group("term")):
            continue
        line_end = straight.find("\n", entry.end())
        limit = line_end if line_end != -1 else len(straight)
        name = name_at(straight, entry.end(), limit)
        if name is None or name.start != entry.end():
            continue
        # ("Imogen Roe of 9 Lansdown Crescent, Bath": "of" and a number open the address.)
        address = re.search(r"[ \t]+of[ \t]+\d", name.text)
        if address is not None:
            name = NameSpan(name.text[: address.start()], name.start, name.start + address.start())
        if party_name_problem(name.text) is None:
            found.append((entry.group("term"), name))
    return found


# A notices clause's addressee line: "If to the Consultant:\nHarold T. Beaumont, Jr." (an item
# number may open it; ", to:" or ", at:" may close it; the name follows on its line or the next).
_NOTICE_ENTRY = re.compile(
    r"(?m)^[ \t]*(?:\(?[a-z0-9]{1,3}[.)][ \t]+)?If[ \t]+to[ \t]+(?:the[ \t]+)?"
    r"(?P<term>[A-Z][\w\-]*(?:[ \t]+[A-Z][\w\-]*){0,2})[ \t]*(?:,[ \t]*(?:to|at)[ \t]*)?:[ \t]*(?:\n[ \t]*)?(?=[A-Z])"
)
# At most this many addressee lines are read (a notices clause lists a few parties).
_NOTICE_ENTRIES = 16


def notice_slot_names(text: str) -> list[tuple[str, NameSpan]]:
    """Parties a clause names only by defined terms ("between the Company and the Consultant
    identified in Section 12 below") that the notices clause then addresses by name ("If to the
    Consultant:\nHarold T. Beaumont, Jr.\n18 Old Farm Lane"). Each (term, name): the addressee
    line's name when the party clause's own sentence uses the term. Whether a term is already
    bound to a name is the caller's to check."""
    straight = straighten_quotes(text)
    windows = between_windows(straight)
    if not windows:
        return []
    start, end = windows[0]
    clause = _term_clause(straight, start, end)
    found: list[tuple[str, NameSpan]] = []
    for count, entry in enumerate(_NOTICE_ENTRY.finditer(straight, start)):
        if count >= _NOTICE_ENTRIES:
            break
        if not _names_term(clause, entry.group("term")):
            continue
        line_end = straight.find("\n", entry.end())
        name = name_at(straight, entry.end(), line_end if line_end != -1 else len(straight))
        if name is not None and party_name_problem(name.text) is None:
            found.append((entry.group("term"), name))
    return found
