"""Finding a proper name in raw text by its shape, without the model.

Used where spaCy's NER is unreliable in contracts: the party names of a preamble ("by and
between WOMEN.COM NETWORKS, INC., a Delaware corporation ...") and the name a defined term
points back to.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache

from ingest.lexicons import load_json, phrase_alternation
from ingest.normalize import normalise_jurisdiction, normalise_plain
from ingest.quantities import dates_in
from ingest.sentences import ends_sentence

# "Acme", "ACME", "2THEMART.COM", "T-Mobile", "K*TEC", "eDiets", "iMine", "i2", "m3communications",
# "salesforce.com", "&".
# "Columbia Laboratories (Bermuda) Ltd.", "THE VÄRDE FUND XII (MASTER), L.P.": a parenthesised
# word inside a name, never at its end (``_QUALIFIER_AHEAD`` is filled in with the legal forms); a
# parenthesised number only right before the legal form ("S&A HOLDINGS (2013), LLC"), so a list's
# "(2) Nissin Kogyo Co., Ltd." stays a number and a name.
# "QX(3) TRADING INC.": a number in brackets written against a capitalised word is part of
# that word. A bracketed place of two or three words ("HARBOUR MERCHANT BANK (HONG KONG) LIMITED",
# "Wattlebird (Licence Company) Pty Ltd") only right before the legal form, where no prose can stand.
# A word broken by an end-of-line hyphen reads on into its lower-case rest ("Thunder-\nbird"): a
# capitalised rest ("Hoffmann-\nLa Roche") is a word of its own anyway. Full-width brackets, as
# Chinese drafting writes a place inside a name, are part of the word they touch ("Erhua Medical
# Technology（Changzhou）Co.,Ltd"). A year in brackets is a word before a capitalised one too ("Odem
# Electronic (1992) Technologies Ltd.", Israeli drafting). A filing converted from HTML may space
# a bracketed word ("Weihu Software ( Beijing ) Co., Ltd."): one space inside each bracket is read.
# A plus closes or joins a word of a name ("A+ Accounting Services, Inc.", "A+E Networks").
# An en dash between two letters joins a word as a hyphen does ("Walsh–Nevada"), and a short
# lower-case prefix may be joined to a capitalised word by a dash ("i-STAT", "i–STAT").
_WORD = (
    r"(?:[A-Z0-9][\w.&'’\-/*（）°]*(?:\+(?=[\w \t]))?(?:(?<=[A-Za-z0-9])–(?=[A-Za-z0-9])[\w.&'’\-/]*)*(?:(?<=[a-z]-)\n[ \t]*[a-z][\w.&'’\-]*)?(?:(?<=[A-Z])\([0-9]{1,2}\)(?=[ \t]+[A-Z]))?"
    r"|_DOTTED_LOWER|(?<![a-z])(?:[a-z]{1,3}[\-–]|[a-z]{1,8})[A-Z][\w.&'’\-]*|[a-z]{1,3}[0-9][\w.&'’\-]*|[a-z][\w\-]*\.(?:com|net|org|io)\b|&"
    r"|\( ?[A-Z][\w.&'’\-]* ?\)(?=[ \t]+[A-Z]|_QUALIFIER_AHEAD)|\([0-9]{2,4}\)(?=_QUALIFIER_AHEAD)|\((?:19|20)[0-9]{2}\)(?=[ \t]+[A-Z])"
    r"|\( ?[A-Z][\w.&'’\-]*(?:[ \t]+[A-Z][\w.&'’\-]*){1,2} ?\)(?=_QUALIFIER_AHEAD)"
    r"|(?<=[A-Za-z][ \t])#[0-9]{1,4}(?![\w#]))"
)
# ("Forest Park Hospital Corporation #1", "Fire Protection District #3": an entity's own number
# after a hash is a word of its name, as "No. 1" is.)
_ENTITY_NUMBER = re.compile(r"[ \t]+#[0-9]{1,4}(?![\w#])")
# ("taketoAuction", "eUniverse", "i-STAT": lower-case letters opening a capitalised word are the
# name's own, read whole.)
# "e.l.f. Beauty, Inc.": a lower-case dotted initialism of three letters or more opens a name when a
# capitalised word follows ("i.e.", "a.m." have two letters; "a.k.a." is a trade-name joiner).
_DOTTED_LOWER = r"(?<![\w.])(?!(?:a\.k\.a|f\.k\.a|d\.b\.a)\.)[a-z](?:\.[a-z]){2,}\.(?=[ \t]+[A-Z])"
_WORD = _WORD.replace("_DOTTED_LOWER", _DOTTED_LOWER)
# Words that join the capitalised words of one name. A lone "-" or "/" too: "MEZZANINE PARTNERS -
# OFFSHORE INVESTMENT MASTER FUND II, L.P.", "Blackstone / GSO Long-Short Credit Income Fund".
# Spanish and Portuguese names join by "y" and "e" ("IRSA Inversiones y Representaciones Sociedad
# Anónima", "Sampaio e Oliveira Ltda"), and Argentine forms are written with it ("S.A.C.I.F. y A.").
_CONNECTOR = r"(?:and|of|de|du|des|la|le|del|van|von|der|for|the|y|e|dba|d/b/a|f/k/a|-|–|—|/)"
# A shouted name's own joining words ("FARMERS AND TRADERS BANK OF WESTLAND ... SUB-BRANCH") join
# like their lower-case forms, so they do not spend the name's word budget.
_JOINT = rf"(?:{_CONNECTOR}|AND|OF)"
# The particles of a person's (or a house's) name, lower case but for the Irish "Ó", one to three
# in a row between its capitalised words: "Jan van der Berg", "Luis de la Torre", "Maria dos
# Santos", "Ahmed bin Rashid", "Ciarán Ó Briain", "Banco do Brasil".
_PARTICLES = r"(?:(?:van|von|der|den|de|la|le|du|des|del|della|do|dos|da|das|di|bin|binti|bint|ibn|al|el|ter|ten|zu|Ó)[ \t]+){1,3}"
# Lower-case words that may stand inside a name that ends in a legal form ("Pay at Home Corp.",
# "Made in Nature, LLC", "Back to Basics, Inc.", "Love on a Leash, LLC"): one or two of them
# between capitalised words. Only trusted when the whole still ends in a legal form.
_INNER_WORD = r"(?:at|in|to|on|of|and|the|for|a|an|en|&)"
_INNER_WORDS_LIMIT = 2
# How far before a found name's start a wider reading over inner words may begin.
_INNER_LOOKBACK = 60
# A person's name opened by the initial "A." (one space, then two or three name words).
_INITIAL_A_PERSON = re.compile(r"A\.[ ][A-Z][a-z]+(?:[ ][A-Z]\.)?(?:[ ][A-Z][a-z'’\-]+){1,2}")
# Spaces, or a single line break (a name never spans a blank line).
_GAP = r"(?:[ \t]+(?:\n[ \t]*)?|[ \t]*\n[ \t]*)"
_NOT_NAME_WORDS = frozenset(
    {
        "agreement", "this", "whereas", "between", "among", "by", "dated", "effective", "made",
        "recitals", "background", "witnesseth", "parties", "party", "exhibit", "schedule", "section",
        "article", "page", "table", "contents", "the", "and", "a", "an", "in", "as", "is", "on", "at",
        "with", "having", "located", "its", "their", "address", "hereinafter", "herein", "each",
        "inc", "with", "collectively", "individually", "together", "referred", "name", "title",
    }
)


@lru_cache(maxsize=1)
def _suffix_regex() -> str:
    # A dotted form's last period is optional ("S.A" for "S.A.", "S.À R.L" for "S.à r.l."): the
    # callers allow one period after the suffix anyway.
    # The callers read the forms case-insensitively ("INC.", "Corp"); a case-exact form keeps its
    # own case inside that ("AG", never the "Ag" of "Mid-Cal Ag Aviation Inc.").
    data = load_json("legal_suffixes.json")
    exact = frozenset(data["case_exact_forms"])
    forms = {f[:-1] if f.endswith(".") and "." in f[:-1] else f for f in data["org_suffixes"]}
    suffixes = sorted(forms, key=lambda s: (-len(s), s))
    alternatives = "|".join(
        f"(?-i:{re.escape(s)})" if s in exact else re.escape(s).replace(r"\ ", r"\s*") for s in suffixes
    )
    return rf"(?:{alternatives})(?![\w])"


@lru_cache(maxsize=1)
def _split_suffix_regex() -> str:
    """The legal forms whose later part starts in lower case ("S.à r.l.", "S. de R.L."): a word
    never starts one of them, so the legal-form tail reads it whole instead of "S.à" as a word."""
    forms = {
        f[:-1] if f.endswith(".") and "." in f[:-1] else f
        for f in load_json("legal_suffixes.json")["org_suffixes"]
        if re.search(r"\s[a-zà-ÿ]", f)
    }
    alternatives = "|".join(re.escape(s).replace(r"\ ", r"\s*") for s in sorted(forms, key=lambda s: (-len(s), s)))
    return rf"(?:{alternatives})\.?(?![\w])"


@lru_cache(maxsize=1)
def _word() -> str:
    # A parenthesised qualifier may also stand right before the legal form: "(MASTER), L.P.".
    word = _WORD.replace("_QUALIFIER_AHEAD", rf",?[ \t]*(?i:{_suffix_regex()})")
    return rf"(?!{_split_suffix_regex()}){word}"


def _words_then_legal_forms(joint: str) -> re.Pattern[str]:
    """Up to 12 capitalised words, each two joined by ``joint``, then any legal forms
    (", Inc."; several: "Co., Ltd."). The name readers below differ only in their joint."""
    word = _word()
    tail = rf"(?:\s*,?\s*(?i:{_suffix_regex()})\.?)*"
    return re.compile(rf"{word}(?:{joint}{word}){{0,11}}{tail}")


@lru_cache(maxsize=1)
def _name_regex() -> re.Pattern[str]:
    return _words_then_legal_forms(rf"{_GAP}(?:{_JOINT}{_GAP}|{_PARTICLES})?")


@lru_cache(maxsize=1)
def _comma_name_regex() -> re.Pattern[str]:
    """Like ``_name_regex`` but words may also be joined by a comma: "Stratton, Cheeseman &
    Walsh-Nevada, Inc.". Only used when the result ends in a legal suffix (see ``name_at``)."""
    return _words_then_legal_forms(rf",?{_GAP}(?:{_JOINT}{_GAP})?")


# "GAMES "N" FUN, INC.": a quoted short token between two capitalised words of a name that ends in
# a legal form. (A defined term is longer and stands in brackets after the name.)
_QUOTED_TOKEN = r"[\"“][A-Z0-9][A-Za-z0-9]{0,3}[\"”]"


@lru_cache(maxsize=1)
def _quoted_name_regex() -> re.Pattern[str]:
    """Like ``_name_regex`` but two words may also be joined over a quoted short token. Only used
    when the result ends in a legal form (see ``name_at``)."""
    return _words_then_legal_forms(rf"{_GAP}(?:{_CONNECTOR}{_GAP}|{_QUOTED_TOKEN}{_GAP})?")


@lru_cache(maxsize=1)
def _inner_word_name_regex() -> re.Pattern[str]:
    """Like ``_name_regex`` but capitalised words may also be joined by one or two lower-case
    ``_INNER_WORD``s ("Pay at Home Corp."). Only used when the result ends in a legal form."""
    joint = rf"(?:{_CONNECTOR}|{_INNER_WORD})"
    return _words_then_legal_forms(rf"[ \t]+(?:{joint}[ \t]+){{0,{_INNER_WORDS_LIMIT}}}")


# A second name joined to a party's name: a trade or former name, or the principal an agent
# signs for ("Wells Fargo Bank on behalf of ... Trust").
# Also the trade-name phrasings "trading as" / "t/a" (British), "operating as" and "operating
# (with|under) the (service|trade|business) name", and the dotted "d.b.a." / "f.k.a." / "a.k.a.";
# "d/b/a/" with a stray closing slash. A trade name may open with a lower-case "the" ("American
# Marine Recreation, Inc., doing business as the Boattree"): part of the trade name as written.
_TRADE_NAME = re.compile(
    r"[\s,]+(?:dba|d/b/a/?|f/k/a|a/k/a|d\.b\.a\.|f\.k\.a\.|a\.k\.a\.|t/a|doing\s+business\s+as|(?:also\s+)?does\s+business\s+as|trading\s+as|operating\s+as"
    r"|operating\s+(?:with|under)\s+the\s+(?:service|trade|business)\s+name)\s+(?:(?-i:the)\s+(?=(?-i:[A-Z])))?(?=[A-Z0-9])"
    r"|[\s,]+(?:acting\s+)?on\s+behalf\s+of\s+(?=[A-Z0-9])",
    re.I,
)


# A trade name after a dash, only right after a legal form ("Emirates Telecommunications
# Corporation - ETISALAT", "Acme Inc. – dba Acme Direct"): before a legal form a dash joins the
# words of one name ("MEZZANINE PARTNERS - OFFSHORE ... FUND II, L.P.").
_DASH_TRADE_NAME = re.compile(r"[ \t]+[-–—][ \t]+(?:(?:dba|d/b/a)[ \t]+)?(?=[A-Z0-9])", re.I)


def _dash_trade_match(text: str, pos: int, limit: int | None = None) -> re.Match[str] | None:
    """The dash that opens a trade name at ``pos``, when the name before it ends in a legal form."""
    match = _DASH_TRADE_NAME.match(text, pos, len(text) if limit is None else limit)
    # (Only the name's tail is read: a legal form is a few characters long.)
    if match is None or not ends_in_legal_suffix(text[max(0, pos - 80) : pos]):
        return None
    return match


def trade_joiner_before(text: str, pos: int, floor: int = 0) -> int | None:
    """Where the trade- or former-name joiner that ends right at ``pos`` starts (", LLC dba Clear
    ..." read from "Clear"), or None. ("on behalf of" joins a principal, another party: not it.)"""
    # (The joiner's look-ahead reads the name's first character: the search runs one past ``pos``.)
    for match in _TRADE_NAME.finditer(text, max(floor, pos - _TRADE_JOINER_CHARS), pos + 1):
        if match.end() == pos and "behalf" not in match.group().casefold():
            return match.start()
    return None


_TRADE_JOINER_CHARS = 40


def trade_name_split(name: str) -> tuple[str, str] | None:
    """("695014 B.C. Ltd.", "Galaxy Telecom") for "695014 B.C. Ltd. dba Galaxy Telecom"."""
    match = _TRADE_NAME.search(name)
    if match is None or match.start() == 0 or match.end() == len(name):
        for dash in _DASH_TRADE_NAME.finditer(name):
            if dash.start() > 0 and dash.end() < len(name) and ends_in_legal_suffix(name[: dash.start()]):
                return name[: dash.start()], name[dash.end() :]
        return None
    # ("Acme Inc. - dba Beta Shop": the dash before "dba" is no part of the legal name.)
    return name[: match.start()].rstrip(" ,-–—"), name[match.end() :]


def legal_name(name: str) -> str:
    """``name`` without a trade name after it ("Acme Services, Inc." of "Acme Services, Inc. d/b/a
    Acme Direct"): where a legal form is looked for."""
    split = trade_name_split(name)
    return split[0] if split else name


@lru_cache(maxsize=1)
def _legal_suffix_end() -> re.Pattern[str]:
    # The suffix must start a word: "USA" does not end in "S.A.", nor "China" in "N.A."
    return re.compile(rf"(?<![\w])(?i:{_suffix_regex()})\.?$")


def without_legal_form(name: str) -> str:
    """``name`` without the legal forms closing it ("HEWLETT-PACKARD" of "HEWLETT-PACKARD
    COMPANY", "Kestrel" of "Kestrel Co., Ltd.")."""
    bare = name.strip()
    while True:
        cut = _legal_suffix_end().sub("", bare).rstrip(" ,\t\n")
        if cut == bare or not cut:
            return bare
        bare = cut


@dataclass(frozen=True, slots=True)
class NameSpan:
    text: str
    start: int
    end: int


def has_legal_suffix(name: str) -> bool:
    return bool(_legal_suffix_end().search(_without_branch(name.strip())))


def legal_form(name: str) -> str | None:
    """The legal form ``name`` ends in, letters only and casefolded ("gmbh", "inc"), or None."""
    found = _legal_suffix_end().search(_without_branch(name.strip()))
    return re.sub(r"[\W_]+", "", found.group()).casefold() if found else None


def _without_branch(name: str) -> str:
    """"Kestrel Bank Ltd." of "Kestrel Bank Ltd. Harbour Branch": the branch after a legal form
    (``name_at`` reads it as part of the name) leaves the name ending in that form."""
    if not re.search(r"(?i)branch$", name):
        return name
    for cut in re.finditer(r"[ \t,]", name):
        if cut.start() > 0 and _BRANCH.fullmatch(name, cut.start()) and _legal_suffix_end().search(name[: cut.start()]):
            return name[: cut.start()]
    return name


@lru_cache(maxsize=1)
def _legal_suffix_word_end() -> re.Pattern[str]:
    return re.compile(rf"(?:^|(?<=[\s,]))(?i:{_suffix_regex()})\.?$")


def ends_in_legal_suffix(name: str) -> bool:
    """Stricter than ``has_legal_suffix``: the suffix is a word of its own ("Acme SA", not "USA"),
    after at least one other word."""
    stripped = _without_branch(name.strip())
    match = _legal_suffix_word_end().search(stripped)
    return bool(match) and match.start() > 0


@lru_cache(maxsize=1)
def _suffix_inside() -> re.Pattern[str]:
    # A legal suffix ends a name unless another suffix follows ("Corporation LLC", "Co., Ltd.").
    suffix = _suffix_regex()
    # (The period is taken whole: "CORP., LTD." is one form run, not "CORP" cut before its "."; a
    # next form is capitalised: "S.A R.L. incorporated in ..." ends at "R.L.".)
    return re.compile(rf"[\s,]+(?i:{suffix})\.?+(?![\s,]*(?=[A-Z(])(?i:{suffix}))")


@lru_cache(maxsize=1)
def _form_then_participle() -> re.Pattern[str]:
    # "... BETWEEN REGENCY INTRASTATE GAS LLC AND ANADARKO ENERGY SERVICES COMPANY RELATING TO
    # SECTION 311(A)": a participle after a legal form (or "Company") opens a modifier of the
    # title, not more of the name.
    return re.compile(rf"(?<![\w])(?:(?i:{_suffix_regex()})\.?|(?i:company))(?=[ \t\n]+(?:[A-Z][a-z]+ing|[A-Z]+ING)(?![\w]))")


_EXHIBIT_LABEL = re.compile(r"(?:\d{1,3}[ \t]+)?(?:EXHIBIT|Exhibit)[ \t]+[0-9][0-9.]*(?:\([a-z0-9]{1,4}\))*[ \t\n]+(?=[A-Z][A-Za-z])")
# (A text layer may drop the space after the comma: "CityView,a division of N.Harris Computer Corporation".)
_DIVISION_OF = re.compile(r"(?:,[ \t\n]*|[ \t\n]+)(?:A|AN|a|an)[ \t\n]+(?:division|Division|DIVISION)[ \t\n]+(?:OF|of)[ \t\n]+(?=[A-Z])")
_PARENT_OF = re.compile(r"[ \t\n,]+(?:A|AN|a|an)[ \t\n]+(?i:division|subsidiary|unit)[ \t\n]+(?:OF|of)(?![\w])")
_SHOUTED_CAPACITY = re.compile(r"[ \t\n]+AS[ \t\n]+([A-Z]+)\b")
_KINSHIP = re.compile(r"[ \t\n]+(?:[SDW]/[Oo]|SON[ \t]+OF|DAUGHTER[ \t]+OF|WIFE[ \t]+OF)(?![\w/])")
# A numbered clause opening a line ("\n1. ", "\n1.1 ", "\n2.3.1 "): no name runs across it.
_LINE_CLAUSE_NUMBER = re.compile(r"\n[ \t]*\d{1,3}(?:(?:\.\d{1,3})+\.?|\.)[ \t]+(?=[A-Z])")
_CAPACITY_WORDS = frozenset({"assignee", "trustee", "receiver", "nominee", "custodian", "representative", "successor"})


@lru_cache(maxsize=1)
def _form_labels() -> frozenset[str]:
    return frozenset(load_json("party_filters.json")["form_labels"])


# A firm's "& Co." closing what a suffix search found inside a name.
_AMPERSAND_CO = re.compile(r"&[ \t]*(?:Co|CO)\.?$")


# (On the same line or the next: "between Customer and Developer.\n- 2.2 "Customer" shall mean ...".)
_FULL_STOP_BEFORE_WORD = re.compile(r"\.(?=[ \t]+[A-Z]|[ \t]*\n\s*(?:[-–•][ \t]+)?[A-Z0-9])")


@lru_cache(maxsize=1)
def _legal_form_word() -> re.Pattern[str]:
    return re.compile(rf"(?i:{_suffix_regex()})\.?")


_LAST_WORD = re.compile(r"\S+\Z")


_PHRASE_OPENERS = frozenset({"by", "to", "for", "from", "with", "of", "in", "and", "or", "as", "an", "if", "per", "via"})
# ("... between Euroball Aps and AB SKF Page 1 of 23": a page's number run into the line after a
# name is page furniture, no word of it.)
_CONTENTS_HEADING = re.compile(
    r"(?<![\w])(?:TABLE[ \t\n]+OF[ \t\n]+CONTENTS|Table[ \t\n]+of[ \t\n]+Contents"
    r"|(?:Page|PAGE)[ \t]+[0-9]{1,4}[ \t]+(?:of|OF)[ \t]+[0-9]{1,4}\b)\b"
)


# "... AND HASBRO\n      DATED AS OF OCTOBER 14, 1997": a cover's date line below a name opens no
# more of it.
# ("... and INTERNATIONAL DEVELOPMENT ASSOCIATION Dated August 16, 1988 CREDIT NUMBER ...", "OCP AND
# MPC DATED AS OF JANUARY 1ST": a flattened cover's date opens no more of the name on the same
# line either, when a date or "as of" follows the word.)
_DATED_LINE = re.compile(
    r"[ \t]*\n[ \t]*(?:DATED|Dated)\b"
    r"|[ \t]+(?:DATED|Dated)[ \t]+(?=(?:AS[ \t]+OF|as[ \t]+of)\b|[0-9]|(?i:january|february|march|april|may|june|july|august|september|october|november|december)\b)"
)


@lru_cache(maxsize=1)
def _topic_line() -> re.Pattern[str]:
    """A line break, then a line opened by a topic word (``topic_line_words`` of
    party_filters.json) in capitals or with a capital first letter; or such a word in capitals
    run into the line ("THE KESTREL PARK DISTRICT REGARDING DOG PARK", a heading's names)."""
    words = load_json("party_filters.json")["topic_line_words"]
    spellings = [w.upper() for w in words] + [w[:1].upper() + w[1:] for w in words]
    shouted = [w.upper() for w in words]
    return re.compile(
        r"[ \t]*\n[ \t]*(?:" + phrase_alternation(spellings, r"[ \t]+") + r")\b"
        r"|[ \t]+(?:" + phrase_alternation(shouted, r"[ \t]+") + r")\b"
    )


# A date line's own label before its date ("DATED", "Date:", "Dated as of").
_DATE_LABEL = re.compile(r"^[ \t]*(?:DATED|Dated|DATE|Date)(?:[ \t]+(?:AS[ \t]+OF|as[ \t]+of))?[ \t]*:?")


def _below_date_line(span: str) -> int:
    """Where the line after ``span``'s first line starts, when that first line is a date alone
    (``quantities.dates_in``) and a capital opens the next; else 0."""
    line_end = span.find("\n")
    if line_end <= 0:
        return 0
    dates = dates_in(span, 0, line_end)
    # ("DATED 27 September 2025\nTRIO-TECH INTERNATIONAL PTE. LTD.": the date's own label may open
    # its line.)
    if len(dates) != 1 or _DATE_LABEL.sub("", span[: dates[0].start]).strip() or span[dates[0].end : line_end].strip(" \t,."):
        return 0
    below = line_end + 1 + len(span[line_end + 1 :]) - len(span[line_end + 1 :].lstrip(" \t"))
    return below if span[below : below + 1].isupper() else 0


def _above_date_line(span: str) -> int:
    """Where ``span``'s last line starts, when that line is a date alone under the name's line
    (a cover's "THE TRUSTEES OF THE UNIVERSITY OF PENNSYLVANIA\n1 DECEMBER 1994"); else 0."""
    span = span.rstrip()
    line_start = span.rfind("\n") + 1
    if line_start <= 0 or not span[:line_start].strip():
        return 0
    if _MONTH_AND_DAY.fullmatch(span, line_start) is not None:
        return line_start
    # ("TREND\nMINING COMPANY\nJanuary\n1, 2005": a cover that sets one word per line wraps the
    # date's month and day over two lines.)
    month_start = span.rfind("\n", 0, line_start - 1) + 1
    if month_start > 0 and span[:month_start].strip() and _MONTH_AND_DAY.fullmatch(span, month_start) is not None:
        return month_start
    dates = dates_in(span, line_start, len(span))
    if len(dates) != 1 or span[line_start : dates[0].start].strip() or span[dates[0].end :].strip(" \t,."):
        return 0
    return line_start


# "DECEMBER 1" of "DECEMBER 1, 1994": a name read up to the comma holds the date's first words
# (the month and the day may stand on two lines: "January\n1, 2005").
_MONTH_AND_DAY = re.compile(
    r"[ \t]*(?i:january|february|march|april|may|june|july|august|september|october|november|december)[ \t]*\n?[ \t]*(?<=[ \t\n])[0-9]{1,2}(?:st|nd|rd|th)?"
)


# One capitalised word after a name's "Co.", then its description: " Consolidated, a Delaware".
_WORD_AFTER_CO = re.compile(r"[ \t]+([A-Z][a-z]{3,}|[A-Z]{4,}),[ \t\n]+(?:an?|AN?)[ \t\n]+[A-Za-z]")


_HEAD_STOP_AND = re.compile(r"\b(?:COMPANY|Company|CORPORATION|Corporation)(\.)[ \t\n]+(?:AND|and)[ \t\n]+[A-Z]")


# An identity document's number after a name: "ID No. 058251414", "I.D. 005051388", "HKID No.
# P248097(6)", "Passport No. E1234567".
_IDENTITY_NUMBER = re.compile(
    r"[ \t,]+(?:I\.?D\.?|HKID|NRIC|(?:Passport|PASSPORT)|(?:ID|I\.D\.)[ \t]+(?:Card|CARD))"
    r"(?:[ \t]+(?:No\.?|NO\.?|Number|NUMBER))?[ \t]*:?[ \t]*[A-Z]?[0-9]"
)
# A Roman series numeral, II to X, closing a name ("... Corporation II").
_SERIES_NUMERAL = re.compile(r"[ \t]+(?:II|III|IV|V|VI|VII|VIII|IX|X)[ \t]*")
# A state and a US postal code opening a run ("California 94103 ", "TX 78745-1234 ").
_STATE_AND_POSTAL_CODE = re.compile(r"([A-Z][A-Za-z.]*(?:[ \t]+[A-Z][A-Za-z.]*)?)[ \t]+[0-9]{5}(?:-[0-9]{4})?[ \t\n]+(?=[A-Z])")


def _trim(text: str, start: int, end: int, *, checked_first: bool = True) -> NameSpan | None:
    span = text[start:end]
    participle = _form_then_participle().search(span)
    if participle is not None and participle.start() > 0:
        span = span[: participle.end()]
    # "THE DIABLO MANAGEMENT GROUP AS ASSIGNEE FOR THE BENEFIT OF CREDITORS OF ...": a shouted
    # "AS" before a role opens the party's capacity, not more of its name.
    capacity = _SHOUTED_CAPACITY.search(span)
    if capacity is not None and capacity.group(1).casefold().rstrip("s") in _party_role_words() | _CAPACITY_WORDS:
        span = span[: capacity.start()]
    # "TRANS HARBOUR GAS COMPANY A DIVISION OF HARBOUR ENERGY CORPORATION": the division is the
    # name; its parent follows "a division of" (a parent is named after "a subsidiary of" too).
    parent = _PARENT_OF.search(span)
    if parent is not None and parent.start() > 0:
        span = span[: parent.start()]
    # "RAVI MEHRA S/o Shri Karan Mehra": South Asian drafting describes a person by a parent or
    # spouse ("S/o", "D/o", "W/o"; "son of" is lower case and ends the name anyway): the
    # person's name ends before it, the relative is no part of it.
    kin = _KINSHIP.search(span)
    if kin is not None and kin.start() > 0:
        span = span[: kin.start()]
    # "JAMES RIVER COAL COMPANY\nTABLE OF CONTENTS ARTICLES ...": a cover page runs into its table
    # of contents (or its page number); the document's own part opens no name's words.
    contents = _CONTENTS_HEADING.search(span)
    if contents is not None and contents.start() > 0:
        span = span[: contents.start()]
    dated = _DATED_LINE.search(span)
    if dated is not None and dated.start() > 0:
        span = span[: dated.start()]
    # ("... AND\nTHE GOVERNMENT OF UNITED STATES OF AMERICA\nCONCERNING THE DEVELOPMENT ...": a
    # cover's line on the document's subject is no part of the name above it.)
    topic = _topic_line().search(span)
    if topic is not None and topic.start() > 0:
        span = span[: topic.start()]
    # ("... UNIVERSITY OF PENNSYLVANIA\n1 DECEMBER 1994": a cover's date line under the last
    # name is no part of it either.)
    above_date = _above_date_line(span)
    if above_date:
        span = span[:above_date].rstrip()
    # "AMONG GEORGIA POWER COMPANY, JAMES RIVER COAL COMPANY. AND JAMES RIVER COAL SALES. INC.": an
    # organisation's head word with a full stop closes its name; the "and" after it joins the next.
    closed = _HEAD_STOP_AND.search(span)
    if closed is not None and closed.start() > 0:
        span = span[: closed.start(1)]
    # "THE SCRIPPS RESEARCH INSTITUTE\nA CALIFORNIA NONPROFIT\nPUBLIC BENEFIT CORPORATION": on a
    # cover, a line opened by "A"/"AN" and a jurisdiction is the party's description, no part of
    # its name.
    described = _described_line_start(span)
    if described is not None:
        span = span[:described]
    # "2.Ideanomics, Inc.": a list number written against the name is no part of it.
    enumerator = re.match(r"\d{1,2}\.(?=[A-Z][A-Za-z])", span)
    # "BETWEEN:\n1     GEMINI RESEARCH LIMITED a corporation ...": a bare item number opening its
    # line, set off from the name by a tab or a run of spaces, is no part of it either.
    if enumerator is None and not text[text.rfind("\n", 0, start) + 1 : start].strip():
        enumerator = re.match(r"\d{1,2}(?:\t|[ ]{2,})[ \t]*(?=[A-Z][A-Za-z])", span)
        # ("That each other are:\nI- AMYRIS BRASIL LTDA , ...\nII- TONON ...": Brazilian drafting
        # numbers the parties in Roman numerals and a dash.)
        if enumerator is None:
            enumerator = re.match(r"(?:I{1,3}|IV|VI{0,3}|IX|X)[ \t]*[-–][ \t]+(?=[A-Z][A-Za-z])", span)
    # "between (RE-SELLER) TASQ TECHNOLOGY, INC.": a bracketed label before the name (the
    # party's role) is no part of it; no name opens with a parenthesis.
    if enumerator is None:
        enumerator = _BRACKETED_LABEL.match(span)
    if enumerator is not None:
        start, span = start + enumerator.end(), span[enumerator.end() :]
    # ("Mordechai Shemesh ID No. 058251414", "Yanki Avni I.D. 005051388": a person's identity
    # number after the name is no part of it.)
    identity = _IDENTITY_NUMBER.search(span)
    if identity is not None and identity.start() > 0:
        span = span[: identity.start()]
    # ("..., San Francisco, California 94103 Southside Wrecker, Inc. (...)": an address's state
    # and postal code run into the next party's name are no part of it.)
    postal = _STATE_AND_POSTAL_CODE.match(span)
    if postal is not None and normalise_jurisdiction(postal.group(1)):
        start, span = start + postal.end(), span[postal.end() :]
    # "JUNE 22, 1999\nMYWEB INC.": a letter's date line above a name is no part of it.
    below_date = _below_date_line(span)
    if below_date:
        start, span = start + below_date, span[below_date:]
    # "Article 1 Introduction\n1.1 Hunan Dafeng Group Company (as ...)": a clause number opening a
    # line closes the heading above it; the name starts after the number.
    clause = next(reversed(list(_LINE_CLAUSE_NUMBER.finditer(span))), None)
    if clause is not None:
        start, span = start + clause.end(), span[clause.end() :]
    # "Dated as of September 27, 1996\nBNC Financial Corporation": a number closing the line above
    # (a date's year) is no part of a name that starts on the next line.
    number_line = re.match(r"[0-9]+[ \t]*\n[ \t]*(?=[A-Z])", span)
    if number_line is not None:
        start, span = start + number_line.end(), span[number_line.end() :]
    # "1 EXHIBIT 1.1 HARROW CASUALTY GROUP, INC.": a page number and an exhibit's label that a
    # filing runs into the first line are page furniture before the name.
    # (Only before a name with a legal form: "Exhibit 10.1 ENGLISH TRANSLATION ..." is a heading.)
    furniture = _EXHIBIT_LABEL.match(span)
    if furniture is not None and furniture.end() < len(span) and _legal_suffix_end().search(span):
        start, span = start + furniture.end(), span[furniture.end() :]
    form_first = _form_before_name().match(span)
    for inside in _suffix_inside().finditer(span):
        # "695014 B.C. Ltd. dba Galaxy Telecom": a trade name continues the name.
        if _TRADE_NAME.match(span, inside.end()):
            continue
        # ("Allied Capital Corporation II, a Maryland corporation": a series numeral closing the
        # name after its legal form is the name's own.)
        if _SERIES_NUMERAL.fullmatch(span, inside.end()):
            continue
        # "National University Corporation Chiba University": a form written before the name.
        if form_first is not None and inside.end() <= form_first.end():
            continue
        # "Fizz & Co. Beverages, LLC": a firm's "& Co." is a word of a longer name that ends in
        # a legal form of its own.
        # (Not across a comma: "Smith & Co., Acme Trading LLC" are two.)
        if _AMPERSAND_CO.search(span, 0, inside.end()) and re.match(r"[ \t]+[A-Z]", span[inside.end() :]) and _legal_suffix_end().search(span, inside.end()):
            continue
        # "Research Corporation Technologies, Inc.": a legal form written out in full is a word of
        # a longer name when capitalised words follow it on the line and a comma and a legal form
        # of its own close them.
        # (In one case: "ACME CORPORATION Beta Labs, Inc." are two names run together.)
        # ("THE TIREX CORPORATION CANADA INC.": in capitals the comma may be left out, and the
        # words before the last legal form are then all the name's own.)
        if (
            inside.group()[-1:].isalpha()
            and re.match(r"[ \t]+[A-Z][\w\-]*(?:[ \t]+[A-Z][\w\-]*){0,3},[ \t]*\S", span[inside.end() :])
            and _legal_suffix_end().search(span, inside.end())
            and inside.group().strip().isupper() == span[inside.end() :].split(",")[0].strip().isupper()
        ):
            continue
        closing = _legal_suffix_end().search(span, inside.end()) if span.isupper() else None
        if (
            closing is not None
            and inside.group()[-1:].isalpha()
            and re.fullmatch(r"[ \t]+[A-Z][\w\-]*(?:[ \t]+[A-Z][\w\-]*){0,2}[ \t]+", span[inside.end() : closing.start()])
        ):
            continue
        if inside.start() > 0 and inside.end() < len(span):
            span = span[: inside.end()]
            break
    # "by and among Aveon, the Company, the Sellers and Michael Katz. Capitalized terms used
    # herein ...": a full stop that ends a sentence (by the sentence splitter's rules: no
    # abbreviation, initial or number before it) ends the name, unless a legal form closes the
    # words after it ("Acme Mfg. Co.").
    for stop in _FULL_STOP_BEFORE_WORD.finditer(span):
        word = _LAST_WORD.search(span, 0, stop.end())
        # ("PT. Supratama Makmur Sejahtera": a form written before the name keeps its full stop.)
        if form_first is not None and stop.start() < form_first.end():
            continue
        if (
            ends_sentence(span, stop.start(), 0)
            and not _legal_suffix_end().search(span, stop.end())
            and not (word is not None and _legal_form_word().fullmatch(word.group()))
        ):
            span = span[: stop.start()]
            break
    # Trailing connectors or punctuation are not part of the name: "Acme and" -> "Acme".
    while True:
        stripped = re.sub(rf"(?:{_GAP}{_CONNECTOR}|[\s,;:&\-/])+$", "", span)
        if stripped == span:
            break
        span = stripped
    # "Jane Roe\nDate:": a form's field label before its colon ends the name before it.
    label = re.search(r"(?:^|[\s,]+)([A-Za-z][\w\-]*)$", span)
    if (
        label is not None
        and label.start() > 0
        and label.group(1).casefold() in _form_labels()
        and re.match(r"[ \t]*:", text[start + len(span) :])
    ):
        span = span[: label.start()]
    # A lone trailing period belongs to an abbreviation ("Inc.") but not to "Acme."
    if span.endswith(".") and not re.search(r"(?:\b[A-Za-z]{1,4}\.|\.[A-Za-z]\.)$", span):
        span = span[:-1]
    if not span or span.casefold() in _NOT_NAME_WORDS:
        return None
    first = re.split(r"[\s,]+", span, maxsplit=1)[0]
    # ("ON Semiconductor Corporation", "AT 14, Inc.": a function word written in capitals before a
    # name that is not all capitals is the name's acronym, when a legal form closes the name.)
    # (Not a preposition or joiner that opens a phrase before a name: "BY Acme Inc.", "TO Acme Inc.")
    acronym = (
        len(first) >= 2 and first.isalpha() and first.isupper() and not span.isupper()
        and first.casefold() not in _PHRASE_OPENERS and _legal_suffix_end().search(span) is not None
    )
    # ("A & C UNITED AGRICULTURE ... INC.": an "A" joined by "&" is a letter of the name, no article.)
    initials = re.match(r"A[ \t]*&[ \t]*[A-Z]", span) is not None
    # ("iN DEMAND L.L.C.": a function word's letters in a brand's mixed case are the name's own.)
    mixed_case = first[:1].islower() and any(c.isupper() for c in first[1:])
    if checked_first and not acronym and not initials and not mixed_case and first.casefold().strip(".") in _NOT_NAME_WORDS and not re.match(r"the\s", span, re.I):
        # ("A. Victor Kovens": a first initial "A." before a person's names is no article.)
        # (Not a recital's "A. Licensor Company ...": no role word among them.)
        if not _INITIAL_A_PERSON.fullmatch(span) or {w.casefold() for w in span.split()[1:]} & _party_role_words():
            return None
    letters = [c for c in span if c.isalpha()]
    if len(letters) < 2:
        return None
    return NameSpan(span, start, start + len(span))


def government_body_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names government bodies for their portfolios ("Acme Inc. and Ministry of
    Trade, Industry and Energy"), with the "of (the) X" segments after the last portfolio, as
    ``name_at`` reads them: a list's reader keeps the commas and "and" inside them."""
    spans: list[tuple[int, int]] = []
    for match in _portfolio_regex().finditer(text):
        if not text[match.start()].isupper():
            continue
        core = re.sub(r"(?:[ \t]+(?i:of|the))+\Z", "", match.group())
        end = match.start() + len(core)
        of_tail = _PORTFOLIO_OF_TAIL.match(text, end)
        end = max(match.end(), of_tail.end()) if of_tail is not None else match.end()
        # ("the Minister for Health and Acme Pty Ltd", "Secretary of State for Transport and High
        # Speed Two (HS2) Limited", "Department of Justice and U.S. Department of Homeland
        # Security": a name after the "and" with a legal form or a head of its own is the next
        # party, no portfolio.)
        last = name_at(text, match.start("last"), len(text))
        if last is not None and (
            (has_legal_suffix(last.text) and not re.search(r"\s(?:and|AND|&)\s", last.text)) or organisation_head(last.text)
        ):
            continue
        spans.append((match.start(), end))
    return spans


def government_body_name(name: str) -> bool:
    """Whether ``name`` is a government body named for its portfolios ("Ministry of Trade,
    Industry and Energy ..."): a name, although longer and more joined than a company's."""
    return _portfolio_regex().match(name) is not None and name[:1].isupper()


@lru_cache(maxsize=1)
def _street_start() -> re.Pattern[str]:
    """A street and its number inside a run of capitalised words: "Elm Street 77", "Quillweg 8",
    "Harbour Str. 5" (``address_words`` and the compound endings ``street_endings`` of
    party_filters.json); the street's own name is the one capitalised word before a separate
    street word."""
    data = load_json("party_filters.json")
    words = phrase_alternation(data["address_words"])
    endings = phrase_alternation(data["street_endings"])
    return re.compile(
        rf"[ \t\n]+(?:[A-Z][\w'’\-]*[ \t]+(?i:{words}|{endings})\.?|[A-Z][\w'’\-]*(?i:{endings})\.?)[ \t]+\d{{1,5}}\b"
    )


def street_at(text: str, begin: int) -> bool:
    """Whether the words at ``begin`` are a street and its number ("Nederlinger Str. 11",
    "Elm Street 77"; ``_street_start``)."""
    return _street_start().match(" " + text[begin : begin + 80]) is not None


def before_street_address(name: NameSpan) -> NameSpan:
    """``name`` without the street address it ran on into when no comma closed it ("Dr. Jane Roe
    Harbour Strasse 77 70469 Westport" is "Dr. Jane Roe"); unchanged when no street follows at
    least two words of a name."""
    street = _street_start().search(name.text)
    if street is None or len(name.text[: street.start()].split()) < 2:
        return name
    return NameSpan(name.text[: street.start()], name.start, name.start + street.start())


def _comma_joins_description(name: str) -> bool:
    """Whether a comma inside a name read over commas opens what is no part of the name: a
    description ("HARBOUR ROAD, A REGISTERED LIMITED PARTNERSHIP": an article, then words before
    the legal form; a bare "BANK, A F.S.B." is the form itself) or the list's last joint
    ("..., Landlord, and QUILL WIRE VENTURES, LLC": a role or another name before ", and")."""
    described = re.search(r",[ \t\n]+(?:A|AN|An)[ \t\n]+(\S+)", name)
    if described is not None and not re.match(rf"(?i:{_suffix_regex()})", described.group(1)):
        return True
    return re.search(r",[ \t\n]+(?:and|AND)[ \t\n]", name) is not None


# A US ZIP code right after a name's last word ("Reno NV 89502"): the name was a city and state.
_POSTAL_CODE_AFTER = re.compile(r"[ \t]+[0-9]{5}(?:-[0-9]{4})?(?![\w-])")
# A number closing a word run inside a name ("Florida 32746"): where a postal code would end.
_NUMBER_WORD_END = re.compile(r"[0-9](?=[ \t\n,]|$)")


def _holds_postal_code(name: str) -> bool:
    """Whether some run of ``name``'s words ends in a postal code (``postal_codes`` of
    ``party_filters.json``, read on each prefix that ends in a number)."""
    postal = _party_filters().postal_codes
    return any(p.search(name[: m.end()]) for m in _NUMBER_WORD_END.finditer(name) for p in postal)


# "ALGERS, WINSLOW & WESTERN RAILWAY COMPANY": a firm's list of names, closed by "&", ending in
# "Company" (no legal form on its own: "the Company" is any contract's term).
_FIRM_LIST_COMPANY = re.compile(r"[^,&]+(?:,[^,&]+)+&[^,&]+[ \t\n](?i:company)")


def _firm_list_company(name: str) -> bool:
    return _FIRM_LIST_COMPANY.fullmatch(name) is not None


# A country's one or two capital letters closing a name, then a dash and a postal code ("CH-1015").
_COUNTRY_POSTAL_PREFIX = re.compile(r"(?<=\S)[ \t\n]+[A-Z]{1,2}$")
_POSTAL_AFTER_DASH = re.compile(r"[ \t]*[-–][ \t]*[0-9]{4,5}(?![\w])")
# A person's name (given name, initials, one or two surnames) and the comma before an office she
# holds (``office_of_prefix``): "Jane Westby, Chief Executive of ", "John Roe, the President of ".
_PERSON_COMMA = re.compile(r"[A-Z][a-z]+(?:[ \t]+[A-Z]\.)*(?:[ \t]+[A-Z][a-z'’\-]+){1,2},[ \t\n]+")
# A person's name with a middle initial: "Terence E. Hahm".
_PERSON_WITH_INITIAL = re.compile(r"[A-Z][a-z]+[ \t]+[A-Z]\.[ \t]+[A-Z][a-z'’\-]+")
# A lower-case field label and its colon right after a capitalised word ("Registered address:").
_LABEL_AFTER_NAME = re.compile(r"[ \t]+([a-z][a-z\-]*)[ \t]*:")


# A label's colon, full-width too ("Lessee：").
LABEL_COLON = re.compile(r"[ \t]*[:：][ \t]*")


def name_after_colon(text: str, position: int, end: int | None = None) -> NameSpan | None:
    """The name right after the colon at ``position`` (spaces around it allowed), read on that
    line and before ``end``: a label row's value ("Party B: X Co., Ltd."). None when no colon
    stands there or no name starts right after it."""
    colon = LABEL_COLON.match(text, position, len(text) if end is None else end)
    if colon is None:
        return None
    line_end = text.find("\n", colon.end())
    stop = line_end if line_end != -1 else len(text)
    name = name_at(text, colon.end(), stop if end is None else min(end, stop))
    return name if name is not None and name.start == colon.end() else None


def _plain_name_at(text: str, pos: int, limit: int) -> NameSpan | None:
    """The plain reading of a name starting at ``pos``, trimmed (no extensions of ``name_at``):
    the name after a prefix that a rule of ``name_at`` matched (a dash, "dba", a nickname)."""
    match = _name_regex().match(text, pos, limit)
    return _trim(text, match.start(), match.end()) if match else None


@lru_cache(maxsize=1)
def _form_then_quoted() -> re.Pattern[str]:
    """A legal form written before the company's quoted name, as contracts drafted in Russian,
    Ukrainian or Kazakh write it in English: 'Limited Liability Company "Lispromgaz"', 'Open Joint
    Stock Company "Harbourgaz"', 'OJSC "Harbourgaz"' (``forms_before_name`` and
    ``form_abbreviations_before_name`` of legal_suffixes.json). The name is the form with the
    quoted name; the quotes must close on the line."""
    data = load_json("legal_suffixes.json")
    forms = "|".join(r"[ \t]+".join(re.escape(w) for w in re.split(r"[ \t]+", f)) for f in sorted(data["forms_before_name"], key=len, reverse=True))
    abbreviations = "|".join(re.escape(a) for a in sorted(data["form_abbreviations_before_name"], key=len, reverse=True))
    return re.compile(
        r"(?:(?:Open|OPEN|Closed|CLOSED|Public|PUBLIC|Private|PRIVATE|Non-[Pp]ublic)[ \t]+)?"
        rf"(?:(?i:{forms})|{abbreviations})"
        r"[ \t]+[\"“«„][ \t]*[A-Z0-9][^\"”»“\n]{0,60}?[ \t]*[\"”»“]"
    )


# A caps name run on into its caps description: "PABST BREWING COMPANY A DELAWARE CORPORATION".
_CAPS_ARTICLE = re.compile(r"[ \t]+(?:A|AN)[ \t]+(?=[A-Z])")
_CAPS_PLACE_WORDS = 4


def caps_description_start(name: str) -> int | None:
    """Where a caps description starts inside ``name``: an article in capitals before a
    jurisdiction of one to four caps words ("... COMPANY A DELAWARE CORPORATION", "... LIMITED, A
    BRITISH VIRGIN ISLANDS CORPORATION"); None when there is none."""
    for article in _CAPS_ARTICLE.finditer(name):
        # ("BANK OF A ...": an article after a joining word is inside the name.)
        if re.search(r"(?i)(?:^|[ \t])(?:of|the|and|for|&)$", name[: article.start()]):
            continue
        words = name[article.end() :].split()
        for count in range(1, min(_CAPS_PLACE_WORDS, len(words) - 1) + 1):
            place = " ".join(words[:count])
            if place.isupper() and normalise_jurisdiction(place):
                return article.start()
    return None


# "... of the FIRST PART AND INDIAN OIL CORPORATION LIMITED (IOCL)": the entry's closing phrase
# and the list's "AND" before the next party's name.
# (A reader may start at "FIRST" or at "PART": the ordinal is read at ``pos`` or right before it.)
_PART_ORDINAL = r"(?:ONE|OTHER|FIRST|SECOND|THIRD|FOURTH|FIFTH|SIXTH)"
_PART_AND = re.compile(rf"(?P<ordinal>{_PART_ORDINAL}[ \t\n]+)?PART[ \t\n]+(?:AND|and)[ \t\n]+(?=[A-Z])")
_PART_ORDINAL_BEFORE = re.compile(rf"\b{_PART_ORDINAL}[ \t]\Z")


# "(2)", "(NO.7)", "(No. 3)" inside a name, and up to four words after it.
_VEHICLE_NUMBER = re.compile(r"[ \t]*\((?:[Nn][Oo]\.?[ \t]*)?[0-9]{1,3}\)((?:[ \t]+[A-Z][\w.&'-]*){1,4})")


def _numbered_vehicle(text: str, plain: NameSpan, limit: int) -> NameSpan | None:
    """"ProLogis Texas II (2) LLC", "FIRST FLEXIBLE (NO.7) PLC": a company of a numbered series (a
    financing vehicle) carries its number in brackets inside its name, before its legal form.
    The number belongs to the name only when a legal form closes the words after it; a number
    after a whole name ("Acme LLC (1)") is another thing."""
    if ends_in_legal_suffix(plain.text):
        return None
    number = _VEHICLE_NUMBER.match(text, plain.end, limit)
    if number is None:
        return None
    words = list(re.finditer(r"\S+", number.group(1)))
    for word in reversed(words):
        end = number.start(1) + word.end()
        candidate = text[plain.start : end].rstrip(",")
        if ends_in_legal_suffix(candidate):
            return NameSpan(candidate, plain.start, plain.start + len(candidate))
    return None


@lru_cache(maxsize=1)
def _unit_of_place() -> re.Pattern[str]:
    """A body's regional unit after its name (``regional_unit_heads`` of party_filters.json):
    ", Division of Samar", ", Region VIII", closed by a comma or a bracket."""
    # (Capitalised or in capitals: a lower-case "division" after a comma is prose.)
    heads = "|".join(sorted(f"{w.capitalize()}|{w.upper()}" for w in load_json("party_filters.json")["regional_unit_heads"]))
    return re.compile(
        rf",[ \t]*(?P<unit>(?:{heads})[ \t]+(?:(?:of|OF)[ \t]+)?"
        r"[A-Z][\w'’\-]*(?:[ \t]+[A-Z][\w'’\-]*){0,2})(?=[ \t]*[,(])"
    )


def name_at(text: str, pos: int, limit: int) -> NameSpan | None:
    """The name starting exactly at ``pos`` (not reaching past ``limit``), if one does; after an
    entry's closing "FIRST PART AND", the name after it."""
    part_and = _PART_AND.match(text, pos, limit)
    if part_and is not None and (part_and.group("ordinal") or _PART_ORDINAL_BEFORE.search(text, max(0, pos - 7), pos)):
        pos = part_and.end()
    form_first = _form_then_quoted().match(text, pos, limit)
    if form_first is not None:
        return NameSpan(form_first.group(), pos, form_first.end())
    match = _name_regex().match(text, pos, limit)
    if not match:
        return None
    plain = _trim(text, match.start(), match.end())
    described = caps_description_start(plain.text) if plain is not None else None
    if plain is not None and described is not None:
        # ("PABST BREWING COMPANY A DELAWARE CORPORATION": the name ends before its description.)
        kept = plain.text[:described].rstrip(" ,")
        plain = NameSpan(kept, plain.start, plain.start + len(kept))
    # A comma inside a name is trusted only when the name still ends in a legal suffix and the
    # comma-free reading stops at that comma ("Stratton" of "Stratton, Cheeseman & ..., Inc.").
    if plain is not None and text[plain.end : plain.end + 1] == ",":
        wide = _comma_name_regex().match(text, pos, limit)
        candidate = _trim(text, wide.start(), wide.end()) if wide else None
        if (
            candidate is not None
            and candidate.end > plain.end
            and (ends_in_legal_suffix(candidate.text) or _firm_list_company(candidate.text))
            and not ends_in_legal_suffix(plain.text)
            and _suffix_inside().search(candidate.text[: len(plain.text) + 1]) is None
            # "BANKERS BANK, INCLUDING THE LIMITED WARRANTY": a clause, not a name.
            and not re.search(r"(?i),.*\bthe\b", candidate.text)
            and not _comma_joins_description(candidate.text)
            and len(candidate.text.split()) <= 8
            # "Lake Mary, Florida 32746 and NSA INTERNATIONAL, INC.": the address closing the
            # party before ran on into the next party's name over "and".
            and not _holds_postal_code(candidate.text)
            # "Michael W. Payton, Terence E. Hahm, Quindeca Corporation, ...": commas between
            # persons' names list parties; a firm's own comma joins no "First M. Last".
            and not any(_PERSON_WITH_INITIAL.fullmatch(piece.strip()) for piece in candidate.text.split(",")[:-1])
            # ("Jane Westby, Chief Executive of Harrow Holdings Limited": a person and an office
            # she holds in a company, never one name.)
            and not _person_then_office(candidate.text)
            # ("Effective May 31, 2001, Fennick Corporation Technologies, Inc.": a date before it.)
            and not re.search(r"(?<![\w])(?:19|20)[0-9]{2},", candidate.text)
        ):
            plain = candidate
    portfolio = _portfolio_regex().match(text, pos, limit)
    # ("between the Minister for Health and Acme Pty Ltd": a name with a legal form after the
    # "and" is the next party, no portfolio.)
    if portfolio is not None:
        tail = name_at(text, portfolio.start("last"), limit)
        portfolio = None if tail is not None and has_legal_suffix(tail.text) else portfolio
    if portfolio is not None and (plain is None or portfolio.end() > plain.end) and text[pos].isupper():
        plain = NameSpan(portfolio.group(), pos, portfolio.end())
        # ("MINISTRY OF AGRICULTURE, LIVESTOCK AND IRRIGATION OF THE REPUBLIC OF THE UNION OF
        # MYANMAR ON FOOD SECURITY": the last portfolio's name runs on over "of (the)" and a
        # country's or unit's words, never over another linking word.)
        core = re.sub(r"(?:[ \t]+(?i:of|the))+\Z", "", portfolio.group())
        of_tail = _PORTFOLIO_OF_TAIL.match(text, pos + len(core), limit)
        if of_tail is not None and of_tail.end() > plain.end:
            plain = NameSpan(text[pos : of_tail.end()], pos, of_tail.end())
    if plain is not None and not ends_in_legal_suffix(plain.text) and re.match(rf"{_GAP}{_QUOTED_TOKEN}", text[plain.end : limit]):
        quoted = _quoted_name_regex().match(text, pos, limit)
        candidate = _trim(text, quoted.start(), quoted.end()) if quoted else None
        if candidate is not None and candidate.end > plain.end and ends_in_legal_suffix(candidate.text):
            plain = candidate
    # "Pay at Home Corp.", "Made in Nature, LLC": lower-case words inside a name that ends in a
    # legal form; the plain reading stops before them ("Pay", or nothing for "Made").
    if plain is None or not ends_in_legal_suffix(plain.text):
        inner = _inner_word_name(text, pos, limit)
        if inner is not None and (plain is None or inner.end > plain.end):
            plain = inner
    if plain is None:
        return None
    numbered = _numbered_vehicle(text, plain, limit)
    if numbered is not None:
        plain = numbered
    # "Ecole Polytechnique de Westland\nCH -1015 Lausanne": a country's letters before a dash
    # and a postal code open the address, not the name.
    country = _COUNTRY_POSTAL_PREFIX.search(plain.text)
    if country is not None and _POSTAL_AFTER_DASH.match(text, plain.end, limit) and not ends_in_legal_suffix(plain.text):
        plain = _trim(text, plain.start, plain.start + country.start())
        if plain is None:
            return None
    # "Registered address: Room 378, ...": a form's field label whose first word is capitalised
    # ("Registered", "Business", "Contact") is no name.
    label = _LABEL_AFTER_NAME.match(text, plain.end, limit)
    if label is not None and label.group(1) in _form_labels() and len(plain.text.split()) <= 2:
        return None
    # "ROBERT ALBERT SMEATON of Blocks C-D, 2nd Floor": "of" and a place inside a building (or a
    # street number) open the party's address; the name ends before "of".
    # (Read on past the name's end: the word after a street number may follow a comma.)
    of_address = _of_address().search(text, plain.start, min(limit, plain.end + 24))
    if of_address is not None and of_address.start() < plain.end:
        plain = _trim(text, plain.start, of_address.start())
        if plain is None:
            return None
    # "NICHOLAS ROSE of Blackhall Barns": a name written in capitals goes on over "of" only in
    # capitals ("BANK OF AMERICA"); a word in title case after it opens the party's address.
    caps_of = _CAPS_NAME_OF_TITLE_CASE.search(plain.text)
    if caps_of is not None and plain.text[: caps_of.start()].isupper():
        plain = _trim(text, plain.start, plain.start + caps_of.start())
        if plain is None:
            return None
    # "Reno NV 89502", "Denver, CO 80202": a state code read as a legal form is the city and
    # state of an address when a postal code follows it.
    if ends_in_legal_suffix(plain.text) and _POSTAL_CODE_AFTER.match(text, plain.end, limit):
        return None
    # "between Wade B. Cook of Seattle, Washington (hereinafter called the Author)": a person's
    # town after "of", its state or country after a comma, is where the person lives.
    residence = _PERSON_OF_TOWN.fullmatch(plain.text)
    if (
        residence is not None
        and not organisation_head(residence.group(1))
        # ("The University of Moratuwa, Sri Lanka, a University created by ...": an institution
        # named by its head before "of" is no person living there.)
        and not organisation_head(plain.text)
        # ("between The City of Waterloo, Iowa ("Lessor")": a local government is no person.)
        and not local_government(_LEADING_THE.sub("", plain.text))
        and (state := re.match(r",[ \t\n]*([A-Z][\w.]*(?:[ \t]+[A-Z][\w.]*)?)", text[plain.end : limit])) is not None
        and is_place(state.group(1))
    ):
        return _trim(text, plain.start, plain.start + residence.end(1))
    wider = _of_the_name(text, plain, limit)
    if wider is not None:
        return wider
    # ("The Department of Education, Division of Samar, an agency of ...": a government body's
    # regional unit written after a comma is part of the body's name as the clause gives it.)
    unit = _unit_of_place().match(text, plain.end, limit)
    if unit is not None and organisation_head(_LEADING_THE.sub("", plain.text)) and not has_legal_suffix(plain.text):
        return NameSpan(text[plain.start : unit.end("unit")], plain.start, unit.end("unit"))
    # "ROTARY LIFT, a Division of Dover Industries, Inc.": a division contracts under its own
    # name and its company's, and the party clause writes both as the party's name (its
    # registry key stays the division's: ``party_name_forms``).
    division = _DIVISION_OF.match(text, plain.end, limit)
    if division is not None and not has_legal_suffix(plain.text):
        parent = _plain_name_at(text, division.end(), limit)
        if parent is not None and parent.start == division.end() and ends_in_legal_suffix(parent.text):
            return NameSpan(text[plain.start : parent.end], plain.start, parent.end)
    # "Global Music International, Inc. d/b/a Independent Music Network": the trade name
    # belongs to the party's name as written.
    trade = _TRADE_NAME.match(text, plain.end, limit)
    if trade:
        trade_name = _plain_name_at(text, trade.end(), limit)
        if trade_name is not None:
            return NameSpan(text[plain.start : trade_name.end], plain.start, trade_name.end)
    # "Emirates Telecommunications Corporation - ETISALAT": a trade name after a dash, only when
    # it closes the name's run (the line, a parenthesis or a comma follows), so a dash that opens
    # prose ("Acme Inc. - Exhibit A to ...") is not read as one.
    dash = _dash_trade_match(text, plain.end, limit)
    if dash:
        trade_name = _plain_name_at(text, dash.end(), limit)
        if (
            trade_name is not None
            and not ends_in_legal_suffix(trade_name.text)
            and len(trade_name.text.split()) <= 4
            and re.match(r"[ \t]*(?:$|\n|[,;(]|[ \t]{3})", text[trade_name.end : limit] or "\n")
        ):
            return NameSpan(text[plain.start : trade_name.end], plain.start, trade_name.end)
    # "Kestrel Bank Co., Ltd. Harbour City Branch": a branch named after the legal form is the
    # party (a bank contracts through its branch), also "..., acting through its Harbour Branch".
    branch = _BRANCH.match(text, plain.end, limit)
    if branch is not None and ends_in_legal_suffix(plain.text):
        return NameSpan(text[plain.start : branch.end()], plain.start, branch.end())
    # ("Forest Park Hospital Corporation #1, a Missouri corporation": the entity's own number after
    # its legal form, as a word of a name holds one before, "Fire District #3".)
    numbered = _ENTITY_NUMBER.match(text, plain.end, limit)
    if numbered is not None and ends_in_legal_suffix(plain.text):
        return NameSpan(text[plain.start : numbered.end()], plain.start, numbered.end())
    # "Coca-Cola Bottling Co. Consolidated, a Delaware corporation": after an abbreviated "Co."
    # one more capitalised word, that no place or role is, still closes the registered name when
    # the party's description follows it.
    word_after_co = _WORD_AFTER_CO.match(text, plain.end, limit)
    if (
        word_after_co is not None
        and re.search(r"\b(?:Co|CO)\.$", plain.text)
        and not is_place(word_after_co.group(1))
        and word_after_co.group(1).casefold() not in _party_role_words()
    ):
        return NameSpan(text[plain.start : word_after_co.end(1)], plain.start, word_after_co.end(1))
    # "Alliance Bancorp, Inc. of Pennsylvania": a jurisdiction after the legal form is part of
    # the registered name.
    # ("Quillon Packaging Corporation of America": a region the registry does not take for a
    # jurisdiction; "QUILLON CORPORATION OF AMERICA" in capitals.)
    of_place = re.match(r"[ \t]+(?:of|OF)[ \t]+([A-Z][\w.]*(?:[ \t]+[A-Z][\w.]*)?)(?=\s*[,(;]|\s+(?:and|AND)\b|\s*$)", text[plain.end : limit])
    if of_place and ends_in_legal_suffix(plain.text) and is_place(of_place.group(1)):
        end = plain.end + of_place.end()
        return NameSpan(text[plain.start : end], plain.start, end)
    # "Washington University in St. Louis", "The Trustees of Columbia University in the City of
    # New York": a university's place after "in" is part of its corporate name.
    campus = _UNIVERSITY_IN_PLACE.match(text, plain.end, limit)
    if campus is not None and is_campus_institution(plain.text.split()[-1]):
        return NameSpan(text[plain.start : campus.end(1)], plain.start, campus.end(1))
    # "The University of North Carolina at Chapel Hill", "University of Texas at Austin": a state
    # university's campus after "at" is part of its name too.
    campus = _UNIVERSITY_AT_PLACE.match(text, plain.end, limit)
    head = _CAMPUS_OF.match(plain.text) if campus is not None else None
    if campus is not None and head is not None and is_campus_institution(head.group(1)):
        return NameSpan(text[plain.start : campus.end(1)], plain.start, campus.end(1))
    # "College of Computer, National University of Defense Technology": a unit of an institution
    # is named with the institution after a comma; both make the party's name.
    institution = _institution_after_unit(text, plain, limit)
    if institution is not None:
        return institution
    # "HARBOUR BANK, NA (USA), a national banking association", "Keystone Trust (Delaware), a
    # business trust": a bracketed jurisdiction right after an organisation's name is part of the
    # name (another company than the one without it), when the name's clause goes on after it.
    qualifier = _PLACE_QUALIFIER.match(text, plain.end, limit)
    if (
        qualifier is not None
        and is_place(qualifier.group(1))
        and (ends_in_legal_suffix(plain.text) or organisation_head(plain.text))
    ):
        return NameSpan(text[plain.start : qualifier.end(1) + 1], plain.start, qualifier.end(1) + 1)
    # "Banco X, S.A., Institucion de Banca Multiple, Grupo Financiero X": the financial group a
    # Mexican bank belongs to is part of its registered name after the form.
    descriptor = _form_descriptor().match(text, plain.end, limit)
    if descriptor is not None and ends_in_legal_suffix(plain.text):
        named = _plain_name_at(text, descriptor.end(), limit)
        if named is not None and not has_legal_suffix(named.text) and len(named.text.split()) <= 5:
            return NameSpan(text[plain.start : named.end], plain.start, named.end)
    # 'Marcus "Flash" Thompson': a person's nickname in quotes between the given name and the
    # surname is written inside the name (the quotes are no definition: a name goes on after them).
    nickname = _NICKNAME.match(text, plain.end, limit)
    if nickname is not None and not has_legal_suffix(plain.text) and len(plain.text.split()) <= 2:
        surname = _plain_name_at(text, nickname.end(), limit)
        if (
            surname is not None
            and not has_legal_suffix(surname.text)
            and len(surname.text.split()) <= 2
            # ('Harbour "HB" Group': initials in quotes and an organisation's head word make a
            # company's defined term, no person's nickname.)
            and any(c.islower() for c in nickname.group(1))
            and not organisation_head(f"{plain.text} {surname.text}")
        ):
            plain = NameSpan(text[plain.start : surname.end], plain.start, surname.end)
    # "Shenzhen Zhongke Investment Fund Partnership (Limited Partnership)": Chinese drafting writes
    # a partnership's kind in brackets after its name, as part of it.
    bracketed = _BRACKETED_PARTNERSHIP.match(text, plain.end, limit)
    if bracketed is not None and plain.text.endswith("Partnership"):
        return NameSpan(text[plain.start : bracketed.end()], plain.start, bracketed.end())
    # "Thomas J. Whitaker, Jr.": a generational suffix closes a person's name (not a title that
    # follows it: "John Roe, Sr. Vice President").
    generation = _GENERATION.match(text, plain.end, limit)
    if generation and not has_legal_suffix(plain.text) and len(plain.text.split()) >= 2:
        plain = NameSpan(text[plain.start : generation.end()], plain.start, generation.end())
    # "Robert M. Campbell, Jr., M.D.": a degree after a person's name is written with it.
    degree = _post_nominal().match(text, plain.end, limit)
    if degree and not has_legal_suffix(plain.text) and 2 <= len(plain.text.split()) <= 6:
        return NameSpan(text[plain.start : degree.end()], plain.start, degree.end())
    return plain


def _institution_after_unit(text: str, plain: NameSpan, limit: int) -> NameSpan | None:
    """``plain`` widened over ", <institution>" when ``plain`` names a unit of an institution
    ("School of Medicine", "Graduate School", "Millet Research Institute") and the name after
    the comma holds an institution word ("University of Kent"); None otherwise
    (``institution_units`` of party_filters.json)."""
    filters = _party_filters()
    words = [w.casefold() for w in plain.text.split()]
    if words and words[0] == "the":
        words = words[1:]
    if words[:1] == ["graduate"]:
        words = words[1:]
    # (The unit word opens the unit's name, "School of Medicine", or closes it, "Millet Research
    # Institute, Shanxi Academy of Agricultural Science".)
    if not words or len(words) > 6 or has_legal_suffix(plain.text):
        return None
    if words[0] not in filters.institution_units and words[-1].strip(".,") not in filters.institution_units:
        return None
    comma = re.match(r",[ \t]*(?:\n[ \t]*)?", text[plain.end : limit])
    if comma is None:
        return None
    after = _plain_name_at(text, plain.end + comma.end(), limit)
    if after is None or not {w.strip(".,").casefold() for w in after.text.split()} & filters.unit_institutions:
        return None
    return NameSpan(text[plain.start : after.end], plain.start, after.end)


def is_campus_institution(word: str) -> bool:
    """Whether ``word`` is an institution named with its campus's place after "in" ("University"
    in "Washington University in St. Louis"; ``campus_institutions`` of party_filters.json)."""
    return word.casefold() in _party_filters().campus_institutions


_BRACKETED_PARTNERSHIP = re.compile(r"[ \t]*\((?:Limited|General|Special[ \t]+General)[ \t]+Partnership\)")
# A nickname in straight or curly quotes after a given name, then the next name word (group 1:
# the nickname).
_NICKNAME = re.compile(r"[ \t]+[\"“]([A-Z][\w'’\-]*(?:[ \t]+[A-Z][\w'’\-]*)?)[\"”][ \t]+(?=[A-Z][a-z])")
# "in the City of New York", "in St. Louis" after a university's name, closed by a comma, a
# parenthesis, "and" or the line's end (group 1 ends the place).
_UNIVERSITY_IN_PLACE = re.compile(
    r"([ \t]+in[ \t]+(?:the[ \t]+City[ \t]+of[ \t]+)?[A-Z][\w.]*(?:[ \t]+[A-Z][\w.]*){0,2})(?=[ \t]*[,(;\n]|[ \t]+and\b|[ \t]*$)"
)
_UNIVERSITY_AT_PLACE = re.compile(
    r"([ \t]+at[ \t]+[A-Z][\w.\-]*(?:[ \t]+[A-Z][\w.\-]*){0,2})(?=[ \t]*[,(;\n]|[ \t]+and\b|[ \t]*$)"
)
# The institution word before the "of" of a name: "University" in "The University of North Carolina".
_CAMPUS_OF = re.compile(r"(?:The[ \t]+|THE[ \t]+)?(?:[A-Z][\w\-]*[ \t]+){0,2}?([A-Z][A-Za-z]*)[ \t]+(?:of|OF)[ \t]")
_CAPS_NAME_OF_TITLE_CASE = re.compile(r"[ \t\n]+of[ \t\n]+[A-Z][a-z]")


@lru_cache(maxsize=1)
def _of_address() -> re.Pattern[str]:
    """ "of" and the word opening an address (``address_after_of`` of party_filters.json, or a
    number) inside a name's reading."""
    words = "|".join(re.escape(w) for w in sorted(load_json("party_filters.json")["address_after_of"], key=len, reverse=True))
    # A number opens an address only when a word follows it ("of 14 Elm Road"); "Trust of 1998,"
    # keeps its year.
    return re.compile(rf"[ \t\n]+(?:of|OF|Of)[ \t\n]+(?:[0-9][\w/\-]*,?[ \t]+[A-Z0-9]|(?i:{words})\b)")


@lru_cache(maxsize=1)
def _form_before_name() -> re.Pattern[str]:
    """A legal form written before the name it forms, then a capitalised word (``forms_before_names``
    of party_filters.json)."""
    forms = "|".join(r"[ \t]+".join(map(re.escape, f.split())) for f in sorted(load_json("party_filters.json")["forms_before_names"], key=len, reverse=True))
    return re.compile(rf"(?:the[ \t]+)?(?i:{forms})(?=[ \t]+[A-Z])")


@lru_cache(maxsize=1)
def _post_nominal() -> re.Pattern[str]:
    """One or more degrees after a person's name (``post_nominals`` of legal_suffixes.json), each
    also in capitals and without its dots, as preambles write them ("MARK ROE, PH.D.", "Eric
    Roe, MD"). Spellings stay case-sensitive, so "Jane Doe, do hereby" holds no degree; a degree
    never runs into a number ("Baltimore, MD 21201" is a state and its zip code)."""
    spellings = {
        variant
        for degree in load_json("legal_suffixes.json")["post_nominals"]
        for variant in (degree, degree.upper(), degree.replace(".", ""), degree.upper().replace(".", ""))
    }
    degrees = "|".join(re.escape(d) for d in sorted(spellings, key=lambda d: (-len(d), d)))
    return re.compile(rf"(?:,?[ \t]+(?:{degrees})(?![\w.])(?![ \t]*[0-9]))+")


# A bracketed place after a name, before the clause goes on: ", a ...", a definition, the line's end.
_PLACE_QUALIFIER = re.compile(r"[ \t]*\n?[ \t]*\(([A-Z][\w.]*(?:[ \t]+[A-Z][\w.]*){0,2})\)(?=[ \t]*(?:[,;]|\n|$|\([ \t]*(?:the[ \t]+)?[\"“]))")


@lru_cache(maxsize=1)
def _form_descriptor() -> re.Pattern[str]:
    """A descriptor after a legal form that the registered name goes on with (``form_descriptors``
    of party_filters.json), then the capitalised words it names."""
    words = phrase_alternation(load_json("party_filters.json")["form_descriptors"], r"[ \t\n]+")
    return re.compile(rf",?[ \t\n]+(?i:{words})[ \t\n]+(?=[A-Z])")


# A leading article, no word of a local government's unit ("The City of Waterloo").
_LEADING_THE = re.compile(r"\A(?:The|THE)[ \t\n]+")
# A person's name (given name, initials, one or two surnames, a generation: "Jr."), then "of"
# and a town.
_PERSON_OF_TOWN = re.compile(
    r"([A-Z][a-z]+(?:[ \t]+[A-Z]\.)*(?:[ \t]+[A-Z][a-z'’\-]+){1,2}(?:,?[ \t]+(?:Jr|Sr|JR|SR)\.?|[ \t]+(?:II|III|IV))?)"
    r"[ \t\n]+of[ \t\n]+[A-Z][a-z]+(?:[ \t]+[A-Z][a-z]+)?"
)


def is_place(words: str) -> bool:
    """Whether ``words`` name a jurisdiction or a region ("Delaware", "USA", "America")."""
    return bool(normalise_jurisdiction(words)) or " ".join(words.split()).casefold() in _party_filters().regions


@lru_cache(maxsize=1)
def _organisation_heads() -> frozenset[str]:
    return frozenset(load_json("party_filters.json")["organisation_heads"])


# A minister of the British Crown named by office ("THE SECRETARY OF STATE FOR TRANSPORT"): a
# corporation sole, a party in its own name (``corporation_sole``), not an office held at an
# organisation called "State" (``office_of_prefix``).
_STATE_FOR = r"state[ \t\n]+for\b"
_SECRETARY_OF_STATE = re.compile(rf"(?:the[ \t\n]+)?secretary[ \t\n]+of[ \t\n]+{_STATE_FOR}[ \t\n]+\w", re.I)


def corporation_sole(name: str) -> bool:
    """Whether ``name`` is a minister named by office ("The Secretary of State for Health")."""
    return _SECRETARY_OF_STATE.match(name.strip()) is not None


def organisation_head(name: str) -> bool:
    """Whether ``name`` is an organisation's name by its head noun, without a legal form: its
    last word is one (``organisation_heads`` of party_filters.json: "Harbour Parklands Trust",
    "MIDLAND BANK") or the word before its first "of" or "for" is ("University of Westland", "Bank of
    Kestrel", "Institute for Cancer Research"). At least two words; a head alone ("Trust", "the Bank") is a defined term's word."""
    words = [w.strip(".,'’").casefold() for w in re.findall(r"[^\s()]+", name)]
    words = [w for w in words if w]
    if words and words[0] == "the":
        words = words[1:]
    if len(words) < 2:
        return False
    heads = _organisation_heads()
    # ("the Local Government", "the Federal Government": two words closed by "government" are a
    # kind of government, a term; "THE MOROBE PROVINCIAL GOVERNMENT" names one.)
    if words[-1] == "government" and len(words) < 3:
        return False
    if words[-1] in heads or corporation_sole(name):
        return True
    # ("Institute for Mechanical Engineering Problems", "Center for Blood Research": or before "for".)
    return any(joiner in words[1:] and words[words.index(joiner, 1) - 1] in heads for joiner in ("of", "for"))


def organisation_head_word(word: str) -> bool:
    """Whether ``word`` is an organisation's head noun (``organisation_heads`` of party_filters.json)."""
    return word.strip(".,'’").casefold() in _organisation_heads()


def institution_name(name: str) -> bool:
    """Whether ``name`` is an organisation's by a head noun anywhere before an "of" or "for", or
    at its end (``organisation_head``): "The Regents of the University of Westland" too, whose
    first "of" follows no head."""
    if organisation_head(name):
        return True
    words = [w.strip(".,'’").casefold() for w in re.findall(r"[^\s()]+", name)]
    heads = _organisation_heads()
    return len(words) >= 3 and any(w in heads and nxt in ("of", "for") for w, nxt in zip(words[1:], words[2:]))


# One or two branches (a sub-branch of a city branch), each of up to five capitalised words
# ("Wujiang Sub-branch": a translation may write the branch word in lower case after "Sub-").
_BRANCH = re.compile(
    r"(?:,?[ \t]+(?:acting[ \t]+through[ \t]+its[ \t]+)?(?:[A-Z][\w'’\-]*[ \t]+){1,5}(?:(?:SUB-|Sub-)(?:BRANCH|[Bb]ranch)|BRANCH|Branch)(?![\w\-])){1,2}"
)
_GENERATION = re.compile(r",?[ \t]+(?:Jr|Sr|JR|SR)\.?(?![\w.])(?![ \t]+[A-Z][a-z])|,[ \t]+(?:II|III|IV)(?![\w.])")


# "of the" between two capitalised runs of one institution's name.
# (Over a line break too: "The Regents\nof the University of Westland".)
_OF_THE = re.compile(rf"{_GAP}of{_GAP}the{_GAP}(?=[A-Z])")
_OF_THE_BEFORE = re.compile(rf"{_GAP}of{_GAP}the{_GAP}$")


@lru_cache(maxsize=1)
def _of_the_words() -> tuple[frozenset[str], frozenset[str]]:
    data = load_json("party_filters.json")
    return frozenset(data["of_the_heads"]), frozenset(data["of_the_institutions"])


def _joins_over_of_the(left: str, right: str) -> bool:
    """Whether "<left> of the <right>" is one institution's name: the left run ends in a
    governing body or an institution's head ("The Regents", "Bank"), or the right run holds an
    institution word ("... Leland Stanford Junior University"). A name with a legal form never
    continues this way ("Acme Inc. of the one part")."""
    if has_legal_suffix(left):
        return False
    heads, institutions = _of_the_words()
    last = left.split()[-1].casefold().strip(".,")
    # "Ministry of Finance of the Republic of Westland": a state after "of the" is the body's own.
    state = " ".join(right.split()).casefold()
    # "Republic of the Philippines", "Kingdom of the Netherlands": a state's own word before "of the".
    bare = _LEADING_THE.sub("", " ".join(left.split())).casefold()
    return (
        f"{bare} of" in _party_filters().government_prefixes
        or last in heads
        or any(w.casefold().strip(".,") in institutions for w in right.split())
        or any(state.startswith(p) for p in _party_filters().government_prefixes)
    )


# The "of (the) X" segments after a body's last portfolio: capitalised words, none a linking word.
_TAIL_WORD = r"(?!(?i:of|the|on|for|and|to|in|at|by|with|regarding|concerning|relating|between|among)\b)[A-Z][\w'’\-]*"
_PORTFOLIO_OF_TAIL = re.compile(rf"(?:[ \t]+(?i:of)(?:[ \t]+(?i:the))?[ \t]+{_TAIL_WORD}(?:[ \t]+{_TAIL_WORD}){{0,2}}){{1,4}}")


@lru_cache(maxsize=1)
def _portfolio_regex() -> re.Pattern[str]:
    """A government body named for its portfolios, joined by commas and a last "and": "Ministry
    of Trade, Industry and Energy", at most five portfolios before the last "and"
    (``government_bodies`` in party_filters.json), or an institution named so for its fields
    ("Imperial College of Science, Technology and Medicine", ``portfolio_institutions``). Commas
    join a name's words only where a legal form closes it elsewhere; here the head word does."""
    data = load_json("party_filters.json")
    heads = "|".join(re.escape(h) for h in sorted(data["government_bodies"]))
    institutions = "|".join(re.escape(h) for h in sorted(data["portfolio_institutions"]))
    offices = "|".join(re.escape(h).replace(r"\ ", r"[ \t\n]+") for h in sorted(data["portfolio_offices"]))
    word = r"[A-Z][\w'’\-]*"
    # (An institution's head may follow the first words of its name: "IMPERIAL COLLEGE OF SCIENCE,
    # TECHNOLOGY AND MEDICINE"; a body's opens it, "of" or "for" after it ("Department for
    # Education and Skills"); a minister's office names its portfolios after "for" ("THE
    # SECRETARY OF STATE FOR HEALTH AND SOCIAL CARE"), an article maybe before it.)
    return re.compile(
        rf"(?:(?i:{heads})[ \t]+(?i:of|for)|(?:(?:the|THE|The)[ \t]+)?(?i:{offices})[ \t]+(?i:for)"
        rf"|(?:{word}[ \t]+){{0,3}}(?i:{institutions})(?![\w'’\-])[ \t]+(?i:of))"
        rf"[ \t]+{word}(?:,[ \t]+{word}){{0,4}},?[ \t]+(?:and|AND|&)[ \t]+(?P<last>{word})(?:[ \t]+{word}){{0,2}}"
    )


def _of_the_name(text: str, plain: NameSpan, limit: int) -> NameSpan | None:
    """"The Regents of the University of California" for the plain reading "The Regents"."""
    joint = _OF_THE.match(text, plain.end, limit)
    if joint is None:
        return None
    right = name_at(text, joint.end(), limit)
    if right is None or not _joins_over_of_the(plain.text, right.text):
        return None
    return NameSpan(text[plain.start : right.end], plain.start, right.end)


# A line opened by a shouted article and up to three capitalised words (a place's name).
_ARTICLE_LINE = re.compile(r"[ \t]*\n[ \t]*(?:A|AN)[ \t]+([A-Z][\w.\-]*(?:[ \t]+[A-Z][\w.\-]*){0,2})")


# A bracketed word or two opening a reading, then the name's capitalised first word.
_BRACKETED_LABEL = re.compile(r"\([A-Za-z][\w\-]*(?:[ \t][A-Za-z][\w\-]*)?\)[ \t]+(?=[A-Z])")


def _described_line_start(span: str, first: int = 1) -> int | None:
    """Where a line describing the party ("A CALIFORNIA NONPROFIT", "AN OHIO CORPORATION") starts
    inside ``span``, at ``first`` or later: an article and a jurisdiction's name (one to three
    words) open it."""
    for match in _ARTICLE_LINE.finditer(span):
        words = match.group(1).split()
        if match.start() >= first and any(normalise_jurisdiction(" ".join(words[:count])) for count in range(1, len(words) + 1)):
            return match.start()
    return None


def after_description_line(text: str, pos: int) -> bool:
    """Whether ``pos`` opens the line right after a description line ("A CALIFORNIA NONPROFIT\\n
    PUBLIC BENEFIT CORPORATION"): the words there go on with the description, no party's name."""
    line_start = text.rfind("\n", 0, pos) + 1
    if text[line_start:pos].strip() or line_start == 0:
        return False
    previous_start = text.rfind("\n", 0, line_start - 1)
    return previous_start >= 0 and _described_line_start(text[previous_start:line_start], 0) == 0


# ", a Delaware corporation" written without its comma: "Crosset Company an Ohio corporation".
_ARTICLE_PLACE = re.compile(r"[ \t]+an?[ \t]+([A-Z][\w.]*(?:[ \t]+[A-Z][\w.]*)?)[ \t]+[a-z]")


def _holds_description(name: str) -> bool:
    """Whether a reading across lower-case words ran into a party's description: an article and
    a jurisdiction ("Crosset Company an Ohio corporation" is "Crosset Company", described; in
    capitals too, ``caps_description_start``). An
    article before any other word still joins one name ("Love on a Leash, LLC")."""
    return any(normalise_jurisdiction(m.group(1)) for m in _ARTICLE_PLACE.finditer(name)) or bool(caps_description_start(name))


def _inner_word_name(text: str, pos: int, limit: int) -> NameSpan | None:
    """The name at ``pos`` read across lower-case inner words, when it ends in a legal form, holds
    such a word, and has at most 8 words ("Made" may start it: "Made in Nature, LLC")."""
    match = _inner_word_name_regex().match(text, pos, limit)
    if match is None:
        return None
    candidate = _trim(text, match.start(), match.end(), checked_first=False)
    if candidate is None or not ends_in_legal_suffix(candidate.text) or len(candidate.text.split()) > 8:
        return None
    if _holds_description(candidate.text):
        return None
    words = candidate.text.split()
    if not any(re.fullmatch(_INNER_WORD, w) for w in words[1:-1]) or words[0].casefold() in _NOT_NAME_WORDS - {"made"}:
        return None
    # "issued by the Company to Jetco Holdings, LLC": a role word or a word after "the" is prose.
    if words[0].casefold() in _party_role_words() or re.search(r"(?i)\bthe[ \t]+$", text[max(0, pos - 8) : pos]):
        return None
    # ("Acme Corp. and Beta LLC" is cut at the first form by ``_trim``, and so holds no inner word.)
    return candidate


# Where a party clause's slot closes: punctuation, a parenthesis or the line's end.
_SLOT_CLOSE = re.compile(r"[ \t]*(?:[.,;:(]|\n|$)")
_SLOT_INNER_LIMIT = 2
_SLOT_WORDS_LIMIT = 8
_LOWER_CASE_NAME = re.compile(r"[a-z][\w&'’\-]*(?:\.(?:com|net|org|io)\b)?(?:[ \t]+[a-z][\w&'’\-]*(?:\.(?:com|net|org|io)\b)?){0,3}")
# Words that start or fill prose in a party slot ("and its affiliates", "and each other").
_NOT_SLOT_WORDS = frozenset(
    "a an the its his her their our your each any all such other others certain one both either "
    "neither this that these those it we you they us them me who which whose affiliates subsidiaries successors "
    "assigns company parties party hereto thereto herein between among and or of".split()
)


@lru_cache(maxsize=1)
def _slot_name_regex() -> re.Pattern[str]:
    """Capitalised words joined by up to ``_SLOT_INNER_LIMIT`` lower-case words of any kind:
    "Petro data Management Services Limited"."""
    # ("Trip shareholders and Azul S.A.": "and" between lower-case words joins two names, not one.)
    joint = r"(?:(?!(?:and|or|between|among|with|by|from)\b)[a-z][\w\-]*)"
    return _words_then_legal_forms(rf"[ \t]+(?:{joint}[ \t]+){{0,{_SLOT_INNER_LIMIT}}}")


# Words that never open a name even in a party clause's slot (the clause's own words).
_SLOT_OPENERS_NEVER_NAMES = frozenset({"the", "this", "and", "a", "an", "by", "its", "each", "inc", "with", "as"})


def slot_name_at(text: str, pos: int, limit: int) -> NameSpan | None:
    """The name that fills a party clause's slot at ``pos`` (right after "between", or the "and"
    between two parties), where the slot itself says a name stands. Beyond ``name_at`` it reads
    a name ending in a legal form across any lower-case inner words ("Petro data Management
    Services Limited.,") and an all-lower-case name ("between AstroNutrition.com and deep
    systems."), each only when the slot closes right after it (punctuation, a parenthesis or
    the line's end). An all-lower-case name must also be written the same way elsewhere in the
    document (a letterhead, a signature): one lower-case run alone is prose."""
    plain = name_at(text, pos, limit)
    if plain is not None and ends_in_legal_suffix(plain.text):
        return plain
    # "between At Home Corporation, a Delaware corporation": in the slot a capitalised function
    # word opens the name (elsewhere "At"/"In" open prose), when a legal form closes the slot.
    opening = _name_regex().match(text, pos, limit)
    if opening is not None and re.match(r"[A-Z][a-z]{1,3}[ \t]+[A-Z]", text[pos:limit]):
        whole = _trim(text, opening.start(), opening.end(), checked_first=False)
        if (
            whole is not None
            and len(whole.text.split()) >= 3
            and ends_in_legal_suffix(whole.text)
            and _SLOT_CLOSE.match(text, whole.end, limit)
            and whole.text.split()[0].casefold() in _NOT_NAME_WORDS - _SLOT_OPENERS_NEVER_NAMES
        ):
            return whole
    match = _slot_name_regex().match(text, pos, limit)
    if match is not None:
        wide = _trim(text, match.start(), match.end())
        if (
            wide is not None
            and (plain is None or wide.end > plain.end)
            and ends_in_legal_suffix(wide.text)
            and not _holds_description(wide.text)
            and len(wide.text.split()) <= _SLOT_WORDS_LIMIT
            and not re.search(r"[a-z]", wide.text[:1])
            and wide.text.split()[0].casefold() not in _party_role_words() | _NOT_NAME_WORDS
            and _SLOT_CLOSE.match(text, wide.end, limit)
        ):
            return wide
    if plain is not None:
        return surname_first(text, plain, limit)
    lower = _LOWER_CASE_NAME.match(text, pos, limit)
    if lower is None or not _SLOT_CLOSE.match(text, lower.end(), limit):
        return None
    words = lower.group().split()
    if any(w.casefold() in _NOT_SLOT_WORDS or w.casefold() in _party_role_words() for w in words):
        return None
    written = re.compile(r"(?<![\w.])" + r"[ \t]+".join(re.escape(w) for w in words) + r"(?![\w])")
    if sum(1 for _ in written.finditer(text)) < 2:
        return None
    return NameSpan(lower.group(), lower.start(), lower.end())


def surname_first(text: str, name: NameSpan, limit: int, common_words: frozenset[str] = frozenset()) -> NameSpan:
    """A person written surname first, the given names after a comma, as one name, when a
    person's description closes the slot: "(2) Chau, Tien Hsiang, holder of HKID ...", "CHANG,
    Cho-Po (the "Executive")". Only a one-word surname; the given names are one to three
    capitalised words, none a legal form, a place or a word the document writes in lower case.
    (A comma list of companies, "between Alpha, Beta and Gamma Corp.", has no such closing.)"""
    if len(name.text.split()) != 1 or not name.text[:1].isupper():
        return name
    given = _GIVEN_NAMES_AFTER_COMMA.match(text, name.end, limit)
    if given is None:
        return name
    words = given.group(1).split()
    if any(w.casefold() in common_words or w.casefold() in _NOT_NAME_WORDS for w in words):
        return name
    if has_legal_suffix(given.group(1)) or normalise_jurisdiction(given.group(1)) or normalise_jurisdiction(name.text):
        return name
    return NameSpan(text[name.start : given.end(1)], name.start, given.end(1))


# ", Tien Hsiang" right after a surname, then a person's description: a parenthesis (the defined
# term) or ", holder of", ", born", ", an individual", ", residing", an identity document.
_GIVEN_NAMES_AFTER_COMMA = re.compile(
    r",[ \t]+([A-Z][A-Za-z'’\-]*(?:[ \t]+[A-Z][A-Za-z'’\-]*){0,2})(?=[ \t]*(?:\(|,[ \t]*(?i:holder|born|"
    r"an?[ \t]+(?:individual|natural|citizen|resident)|residing|resident|nationality|national|"
    r"(?:hk)?id\b|i\.d\.|identity|passport)))"
)


def words_without_honorifics(name: str) -> list[str]:
    """A name's words without its honorifics ("Ms. Kong Amy Wai Ng" -> its four name words), to
    judge a person's shape by the words of the name itself."""
    return [w for w in name.split() if normalise_plain(w) not in _party_filters().honorifics]


_LINE_LIST_NUMBER = re.compile(r"[ \t]*(?:\(?[0-9]{1,2}[.)]|\([a-z]\))[ \t]+")


def name_before(text: str, end: int, window: int = 160) -> NameSpan | None:
    """The last name that ends at ``end`` (give or take a comma and spaces)."""
    start = max(0, end - window)
    best: NameSpan | None = None
    previous: re.Match[str] | None = None
    for match in _name_regex().finditer(text, start, end):
        if text[match.end() : end].strip(" \t\n,") == "":
            best = _trim(text, match.start(), match.end())
            # "... Special Area\n2. Dongguan Herui Supply Chain Co., Ltd. (": a reading of the
            # line above ran on into this line's first words up to its length; the name is read
            # again from the line's start (after its list number).
            if best is not None and previous is not None and previous.end() == match.start() - 1 and "\n" in previous.group():
                line = previous.start() + previous.group().rindex("\n") + 1
                number = _LINE_LIST_NUMBER.match(text, line, match.start())
                again = _name_regex().match(text, number.end() if number else line, end)
                reread = _trim(text, again.start(), again.end()) if again is not None else None
                if reread is not None and reread.end == best.end:
                    best = reread
        previous = match
    # 'AND "QX" TECHNOLOGIES REPRESENTED BY ...': a quoted short token written before the
    # name's first word is part of the name as written (a word alone, "TECHNOLOGIES", is none).
    lookback = max(start, best.start - 12) if best is not None else start
    token = re.search(rf"(?:^|(?<=[\s,:;]))({_QUOTED_TOKEN})[ \t]+$", text[lookback : best.start]) if best else None
    if best is not None and token is not None:
        opening = lookback + token.start(1)
        best = NameSpan(text[opening : best.end], opening, best.end)
    if best is not None and (joint := _OF_THE_BEFORE.search(text, start, best.start)) is not None:
        # "... between the Board of Regents of the University of Westland System (": read from
        # its end the name is "University of Westland System"; the run before "of the" joins it.
        left = name_before(text, joint.start(), window)
        if left is not None and _joins_over_of_the(left.text, best.text):
            return NameSpan(text[left.start : best.end], left.start, best.end)
    if best is not None and _post_nominal().fullmatch(" " + best.text):
        # "Arthur Pilla, Ph.D. (the ...)": read from its end the name is the degree alone; the
        # person's name before it is written with it (``name_at`` reads the degree on).
        person = name_before(text, best.start, window)
        whole = name_at(text, person.start, end) if person is not None else None
        if whole is not None and whole.end == best.end:
            return whole
    if best is not None and ends_in_legal_suffix(best.text):
        # "Made in Nature, LLC" read from its end is "Nature, LLC": the name runs back over
        # lower-case inner words to a capitalised start on the same line.
        line_start = max(start, text.rfind("\n", 0, best.start) + 1, best.start - _INNER_LOOKBACK)
        for word in re.finditer(r"(?<![\w.&'’\-/*])[A-Z0-9]", text[line_start : best.start]):
            wider = _inner_word_name(text, line_start + word.start(), best.end)
            if wider is not None and wider.end == best.end:
                return wider
    return best


_LINE_END_HYPHEN = re.compile(r"(?<=[a-z])-[ \t]*\n[ \t]*(?=[a-z])")


def party_name_forms(name: str) -> list[str]:
    """The ways a party's name as written is also spelled, whitespace collapsed: the whole, the
    legal name without a trade name ("695014 B.C. Ltd." of "... dba Galaxy Telecom") and the
    trade name, the legal form without a jurisdiction ("Alliance Bancorp, Inc." of "... of
    Pennsylvania"), a person's name without an honorific ("Alan P. Whitmore" of "Dr. Alan P.
    Whitmore"), a person's without a nickname ('Marcus Thompson' of 'Marcus "Flash" Thompson') and
    a firm's without its courtesy prefix ("Kaveri Ltd." of "M/s Kaveri Ltd."). The last entry is the legal name the entity id is made from."""
    # "Thunder-\nbird Logistics, Inc.": a word the line end hyphenated is one word.
    whole = " ".join(_LINE_END_HYPHEN.sub("", name).split())
    forms = [whole]
    legal = whole
    split = trade_name_split(whole)
    if split:
        legal, trade = split
        forms.append(trade)
    # "ROTARY LIFT, a Division of Dover Industries, Inc.": the division is also asked for by its
    # own name, the entity id's, and, being no legal person of its own, by its parent's: the
    # company that contracts through it.
    division = _DIVISION_OF.search(legal)
    if division is not None and division.start() > 0:
        parent = legal[division.end() :]
        legal = legal[: division.start()]
        forms.append(legal)
        if ends_in_legal_suffix(parent):
            forms.insert(1, parent)
    of_place = re.match(r"^(.*\S)\s+(?:of|OF)\s+[A-Z][\w.]*(?:\s+[A-Z][\w.]*)?$", legal)
    # ("Quillon Packaging Corporation of America": a form written as a word runs on into the place; the
    # place is the registered name's own, not a note after it.)
    if of_place and ends_in_legal_suffix(of_place.group(1)) and not re.search(r"(?i)[ \t](?:corporation|company)$", of_place.group(1)):
        forms.append(legal)
        legal = of_place.group(1)
    # "Osprey Capital AG, Zurich Branch": a branch is no legal person of its own, so the bank is
    # also asked for by its name alone. The entity id stays the branch's: a contract may name the
    # bank and its branch as two parties.
    # "The City of Salina, Kansas": a local government is also asked for without its state, and
    # the entity id is made from the name without it (as "of Pennsylvania" above).
    seat = _LOCAL_SEAT_TAIL.search(legal)
    if seat is not None and seated_local_government(legal):
        forms.append(legal)
        legal = legal[: seat.start()]
    # ("the Village of Itasca of DuPage County": so is a local government named with the county it
    # lies in.)
    county = _IN_COUNTY_TAIL.search(legal)
    if county is not None and local_government(_LEADING_THE.sub("", legal[: county.start()])):
        forms.append(legal)
        legal = legal[: county.start()]
    bank = _without_branch(legal)
    if bank != legal:
        forms.append(bank.rstrip(" ,"))
    # "Robert M. Campbell, Jr., M.D.": also asked for without the degree.
    degree = re.search(rf"(?:{_post_nominal().pattern})$", legal)
    if degree is not None and degree.start() > 0 and not has_legal_suffix(legal):
        forms.append(legal)
        legal = legal[: degree.start()]
    # "Dr. Alan P. Whitmore": the person is also asked for without the honorific ("Prof. Dr.
    # Alan Whitmore" without each of them; at most the name's own word count, so bounded).
    honorific = re.match(r"([A-Za-z]+)\.?[ \t]+(?=[A-Z])", legal)
    while (
        honorific is not None
        and honorific.group(1).casefold() in _party_filters().honorifics
        and not has_legal_suffix(legal)
        and len(legal[honorific.end() :].split()) >= 2
    ):
        forms.append(legal)
        legal = legal[honorific.end() :]
        honorific = re.match(r"([A-Za-z]+)\.?[ \t]+(?=[A-Z])", legal)
    # 'Marcus "Flash" Thompson': the person is also asked for without the nickname, and the
    # entity id is made from the name without it.
    nickname = _NICKNAME.search(legal)
    if nickname is not None and not has_legal_suffix(legal):
        forms.append(legal)
        legal = legal[: nickname.start()] + " " + legal[nickname.end() :]
    # "M/s Kaveri Lumen Private Limited": a firm's courtesy prefix is no part of its legal name.
    prefix = _party_filters().firm_prefix.match(legal)
    if prefix is not None and len(legal[prefix.end() :].split()) >= 2:
        forms.append(legal)
        legal = legal[prefix.end() :]
    # No form without a parenthesised qualifier: "Columbia Laboratories (Bermuda) Ltd." and
    # "Columbia Laboratories Ltd." are different companies, and an alias would let a question
    # about one pass on the other's agreement.
    ordered = [f for f in forms if f != legal] + [legal]
    return list(dict.fromkeys(ordered))


@dataclass(frozen=True, slots=True)
class _PartyFilters:
    document_words: frozenset[str]
    clause_words: frozenset[str]
    regions: frozenset[str]
    government_prefixes: tuple[str, ...]
    local_government_units: frozenset[str]
    address_words: frozenset[str]
    postal_codes: tuple[re.Pattern[str], ...]
    honorifics: frozenset[str]
    non_party_lead: re.Pattern[str]
    firm_prefix: re.Pattern[str]
    representation_lead: re.Pattern[str]
    representation_bound: re.Pattern[str]
    currency_words: frozenset[str]
    number_words: frozenset[str]
    redaction_word: re.Pattern[str]
    filing_label: re.Pattern[str]
    class_nouns: frozenset[str]
    role_modifiers: frozenset[str]
    class_participles: frozenset[str]
    role_prefixes: tuple[str, ...]
    country_suffix: re.Pattern[str]
    adviser_words: frozenset[str]
    thing_words: frozenset[str]
    time_and_sum_words: frozenset[str]
    street_endings: tuple[str, ...]
    place_endings: tuple[str, ...]
    division_words: frozenset[str]
    identifier_labels: frozenset[str]
    building_endings: frozenset[str]
    campus_institutions: frozenset[str]
    institution_units: frozenset[str]
    unit_institutions: frozenset[str]
    document_labels: frozenset[str]
    trade_registers: tuple[str, ...]  # casefolded: "company register", "register of companies"


@lru_cache(maxsize=1)
def _party_filters() -> _PartyFilters:
    data = load_json("party_filters.json")
    return _PartyFilters(
        honorifics=frozenset(load_json("legal_suffixes.json")["honorifics"]),
        document_words=frozenset(data["document_words"]),
        clause_words=frozenset(data["clause_words"]),
        regions=frozenset(data["regions"]),
        government_prefixes=tuple(data["government_prefixes"]),
        local_government_units=frozenset(data["local_government_units"]),
        address_words=frozenset(data["address_words"]),
        postal_codes=tuple(re.compile(p) for p in data["postal_codes"]),
        currency_words=frozenset(data["currency_words"]),
        number_words=frozenset(data["number_words"]),
        redaction_word=re.compile(data["redaction_word"]),
        filing_label=re.compile(data["filing_label"]),
        class_nouns=frozenset(data["class_nouns"]),
        role_modifiers=frozenset(data["role_modifiers"]),
        class_participles=frozenset(data["class_participles"]),
        # Longest first: "sub-" before "sub".
        role_prefixes=tuple(sorted(data["role_prefixes"], key=lambda p: (-len(p), p))),
        country_suffix=re.compile(data["country_suffix"]),
        adviser_words=frozenset(data["adviser_words"]),
        thing_words=frozenset(data["thing_words"]),
        campus_institutions=frozenset(data["campus_institutions"]),
        institution_units=frozenset(data["institution_units"]),
        unit_institutions=frozenset(data["unit_institutions"]),
        document_labels=frozenset(data["document_labels"]),
        trade_registers=tuple(r.casefold() for r in data["trade_registers"]),
        time_and_sum_words=frozenset(data["time_and_sum_words"]),
        street_endings=tuple(data["street_endings"]),
        place_endings=tuple(data["place_endings"]),
        division_words=frozenset(data["division_words"]),
        identifier_labels=frozenset(data["identifier_labels"]),
        building_endings=frozenset(data["building_endings"]),
        firm_prefix=re.compile(
            r"(?i:" + "|".join(re.escape(p) for p in sorted(data["firm_prefixes"], key=len, reverse=True)) + r")\.?[ \t]+(?=[A-Z0-9])"
        ),
        non_party_lead=re.compile(
            r"(?i)(?<![\w/])(?:"
            + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(data["non_party_leads"], key=len, reverse=True))
            + r")\s*:?\s*(?:the\s+)?$"
        ),
        representation_lead=re.compile(
            r"(?i)(?<![\w/])(?:"
            + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(data["representation_leads"], key=len, reverse=True))
            + r")\b\.?"
        ),
        representation_bound=re.compile(
            r"(?i)\n[ \t]*\n|\n[ \t]*[-–]?[ \t]*and[ \t]*[-–]?[ \t]*\n|"
            + "|".join(
                re.escape(w).replace(r"\ ", r"\s+") + (r"\b" if w[-1].isalpha() else "")
                for w in sorted(data["representation_bounds"], key=len, reverse=True)
            )
        ),
    )


# How far back a representation clause's lead is looked for: a clause naming two representatives
# with their ID numbers runs to about 200 characters.
_REPRESENTATION_LOOKBACK = 300


def representation_lead(text: str, start: int) -> re.Match[str] | None:
    """The lead of the representation clause the name at ``start`` stands in, if any: "Acme S.A.,
    represented by its CEO Jane Roe (ID No. 1) and John Doe" names Jane Roe and John Doe as the
    people acting for Acme S.A., not as parties. The clause runs from its lead
    (``representation_leads`` of party_filters.json) to the next boundary: a definition's quote,
    "hereinafter", "of the ... part", "on the other hand", ";" or a blank line."""
    filters = _party_filters()
    floor = max(0, start - _REPRESENTATION_LOOKBACK)
    leads = list(filters.representation_lead.finditer(text, floor, start))
    if not leads:
        return None
    lead = leads[-1]
    if filters.representation_bound.search(text, lead.end(), start) is not None:
        return None
    # "Acme S.A. represented by Jane Roe and Beta GmbH represented by ...": after an "and" a
    # company (a name with a legal form) is the next party, a person another representative.
    if re.search(r"(?i)\band\b", text[lead.end() : start]):
        name = name_at(text, start, min(len(text), start + 200))
        if name is not None and name.start == start and ends_in_legal_suffix(name.text):
            return None
    return lead


# Offices that hold no party capacity of their own: a party clause that names the office holder
# ("between CEO of Acme Inc. and the president of Westland Institute of Science") makes the
# organisation the party, the office its representative. (A general partner or managing member
# is a party of its own.)
_OFFICE_RELATIONS = frozenset({"officer_of", "director_of"})
_OFFICES_WITH_CAPACITY = frozenset({"general partner", "managing member"})


@lru_cache(maxsize=1)
def office_of_prefix() -> re.Pattern[str]:
    """ "CEO of ", "the President of the ": an office held at the organisation named next."""
    titles = load_json("roles.json")["titles"]
    variants = {
        variant
        for canonical, entry in titles.items()
        if entry["relation"] in _OFFICE_RELATIONS and canonical not in _OFFICES_WITH_CAPACITY
        for variant in entry["variants"]
    }
    alternatives = "|".join(re.escape(v).replace(r"\ ", r"\s+") for v in sorted(variants, key=lambda v: (-len(v), v)))
    # ("THE SECRETARY OF STATE FOR TRANSPORT" is a minister, a corporation sole: no office of a "State".)
    return re.compile(rf"(?i:(?:the[ \t\n]+)?(?:{alternatives})[ \t\n]+of[ \t\n]+(?!{_STATE_FOR})(?:the[ \t\n]+)?)(?=[A-Z])")


def _person_then_office(name: str) -> bool:
    """Whether ``name`` opens with a person's name, a comma and an office of a body ("Jane Westby,
    Chief Executive of Harrow Holdings Limited"): a person and her office, never one name."""
    person = _PERSON_COMMA.match(name)
    return person is not None and office_of_prefix().match(name, person.end()) is not None


def office_holders_organisation(text: str, name: NameSpan) -> NameSpan:
    """The organisation a name read as "<office> of <organisation>" stands for, else the name."""
    office = office_of_prefix().match(text, name.start, name.end)
    if office is None:
        return name
    return NameSpan(text[office.end() : name.end], office.end(), name.end)


def local_government(name: str) -> bool:
    """Whether ``name`` opens with a local government's unit and "of" ("COUNTY OF JEFFERSON", "City
    of Riverton": ``local_government_units`` of party_filters.json)."""
    match = re.match(r"([A-Za-z]+)[ \t\n]+(?:of|OF|Of)[ \t\n]+[A-Z]", name)
    return match is not None and match.group(1).casefold() in _party_filters().local_government_units


# The state after a local government's name and its comma, closed by the name's description, its
# definition, the list's next "and", the body it acts through, its address ("with its principal
# offices") or the line's end ("The City of Salina, Kansas ("City")", "... INDIAN RIVER
# COUNTY,\nFLORIDA through its Parks Division").
# (One to three capitalised words: "Kansas", "New York", "St. Louis County".)
# ("Orange County, State of North Carolina": the state may be written as one, "State of".)
_LOCAL_SEAT = r",[ \t\n]*(?:(?:State|STATE|Commonwealth|COMMONWEALTH)[ \t]+(?:of|OF)[ \t]+)?([A-Z][A-Za-z.]*(?:[ \t]+[A-Z][A-Za-z.]*){0,2})"
# ("the City of Providence, Rhode Island a municipal corporation": a description's article may
# follow the state without its comma.)
_LOCAL_SEAT_AFTER = re.compile(_LOCAL_SEAT + r"(?=[ \t]*(?:[,(\"“\n]|(?:and|AND|acting|through|by|with|an?)\b|\Z))")


# The county a local government lies in, closing its name ("Village of Itasca of DuPage County").
_IN_COUNTY_TAIL = re.compile(r"[ \t\n]+(?:of|OF)[ \t\n]+(?:[A-Z][\w.'’\-]*[ \t\n]+){1,3}(?:County|COUNTY|Parish|PARISH)\Z")


# The same state closing a name already read ("City of Salina, Kansas").
_LOCAL_SEAT_TAIL = re.compile(_LOCAL_SEAT + r"\Z")


def local_government_or_unit(bare: str) -> bool:
    """Whether ``bare`` (a name without its leading article) is a local government's ("City of
    Salina") or ends in a local unit ("Kerr County"): a name whose state after its comma is its
    own (``with_local_seat``; the question parser joins such a state back to it)."""
    return local_government(bare) or ends_in_local_unit(bare)


def with_local_seat(text: str, name: NameSpan, limit: int) -> NameSpan:
    """``name`` with the state written after its comma, when it is a local government's ("the
    City of Salina, Kansas", "EAGLE COUNTY, COLORADO"): the state is part of such a name, as the
    party clause's definition reads it (``definitions._local_government_with_seat``). Any other
    name, or a town after the comma ("City of Paris, Paris, Texas"), is returned as it is."""
    if not local_government_or_unit(_LEADING_THE.sub("", name.text)):
        return name
    seat = _LOCAL_SEAT_AFTER.match(text, name.end, limit)
    if seat is None or not normalise_jurisdiction(seat.group(1)):
        return name
    return NameSpan(text[name.start : seat.end(1)], name.start, seat.end(1))


# An Australian company's or body's registration number after its name ("The Council of the City
# of Sydney ABN 22 636 550 790"): its label and digits are no words of the name.
_REGISTRATION_IN_NAME = re.compile(r"[ \t\n]+\(?(?:ABN|ACN|ARBN|ARSN)[ \t]*:?[ \t]*\d")


def without_registration(name: NameSpan) -> NameSpan:
    """``name`` up to a registration number's label it ran on into ("... City of Sydney ABN 22
    636 550 790" is "... City of Sydney"); unchanged when none follows a word of the name."""
    registration = _REGISTRATION_IN_NAME.search(name.text)
    if registration is None or registration.start() == 0:
        return name
    cut = name.text[: registration.start()].rstrip(" \t,")
    return NameSpan(cut, name.start, name.start + len(cut))


# A person's identity number on the line under the name ("Cohen Menahem\nI.D. No. 059183673"):
# the reading ran on over the line break into the number's label.
_IDENTITY_LINE_IN_NAME = re.compile(r"[ \t]*\n[ \t]*(?i:I\.?[ \t]?D\.?|identity(?:[ \t]+card)?|passport)[ \t]*(?i:no\b|number\b|#)")


def without_identity_line(name: NameSpan) -> NameSpan:
    """``name`` up to the line of an identity number it ran on into ("Cohen Menahem\nI.D. No.
    059183673" is "Cohen Menahem"); unchanged when no such line follows a word of the name."""
    line = _IDENTITY_LINE_IN_NAME.search(name.text)
    if line is None or line.start() == 0:
        return name
    return NameSpan(name.text[: line.start()], name.start, name.start + line.start())


def seated_local_government(name: str) -> bool:
    """Whether ``name`` is a local government's name closed by its state ("Orange County, North
    Carolina", "City of Salina, Kansas"), as ``with_local_seat`` reads it."""
    seat = _LOCAL_SEAT_TAIL.search(name)
    if seat is None or not normalise_jurisdiction(seat.group(1)):
        return False
    bare = _LEADING_THE.sub("", name[: seat.start()])
    return local_government(bare) or ends_in_local_unit(bare)


def ends_in_local_unit(name: str) -> bool:
    """Whether ``name`` is two words or more closed by a local government's unit ("Eagle County",
    ``local_government_units`` of party_filters.json)."""
    words = name.split()
    return len(words) >= 2 and words[-1].casefold() in _party_filters().local_government_units


def company_unit(name: str) -> bool:
    """Whether ``name`` is a company's department or division ("Medical Specialties Department of
    Harbour Mining and Manufacturing Company": the company written with a legal form or a company's
    head noun; a government's "Department of Health" is no such unit)."""
    unit = _COMPANY_UNIT.match(name)
    return unit is not None and (ends_in_legal_suffix(unit.group(1)) or _COMPANY_HEAD.search(unit.group(1)) is not None)


# A company's unit before its name ("Medical Specialties Department of ...") and a company's head noun.
_COMPANY_UNIT = re.compile(
    r"[A-Z][\w\-]*(?:[ \t\n]+[A-Z][\w\-]*){0,4}[ \t\n]+(?i:department|division)[ \t\n]+(?:of|OF)[ \t\n]+(.+)", re.S
)
_COMPANY_HEAD = re.compile(r"(?i)\b(?:company|corporation)\Z")


# A list's enumerator before a name: "1. ", "(2) ", "3) ", "(b) ".
_ENUMERATOR = re.compile(r"(?:\(?[0-9]{1,2}[.)]|[0-9]{1,2}\.[0-9]{1,2}\.?|\([a-z]\))[ \t]+(?=\S)")


# A bare number opening a line before a name ("2 ACME LIMITED"), and the punctuated enumerators
# of a numbered list's lines ("1. ", "(3) "); how far around the name its neighbours are looked for.
_BARE_NUMBER = re.compile(r"([0-9]{1,2})[ \t]+(?=[A-Z])")
_LIST_LINE_NUMBER = re.compile(r"(?m)^[ \t]*\(?([0-9]{1,2})[.)][ \t]+(?=\S)")
_LIST_NEIGHBOUR_CHARS = 800
# A bare item number right after a party clause's keyword or joint ("BETWEEN 1 ", "; and 2 ").
_BARE_ITEM_LEAD = re.compile(r"(?:\b(?:BETWEEN|Between|between|AMONG|Among|among|AND|and)|;)[ \t\n:]*\Z")
_BARE_ITEM = re.compile(r"(?:\b(?:BETWEEN|Between|between|AMONG|Among|among|AND|and)|;)[ \t\n:]+([0-9])[ \t]+(?=[A-Z])")


def _bare_enumerator(text: str, name: NameSpan) -> re.Match[str] | None:
    """A bare number at the start of the name's line that numbers a list item: "1. ALPHA LIMITED
    ...;\n2 BETA LIMITED ...;\n3. GAMMA PLC" drops one dot. It is an enumerator only when an item
    next to it in the list is numbered one less or one more with a dot or parenthesis ("3M
    COMPANY", "1284670 B.C. Ltd." open with a number of their own). Bounded: the neighbours are
    looked for ``_LIST_NEIGHBOUR_CHARS`` either side."""
    bare = _BARE_NUMBER.match(text, name.start, name.end)
    if bare is None:
        return None
    number = int(bare.group(1))
    if text[text.rfind("\n", 0, name.start) + 1 : name.start].strip():
        # ("... BETWEEN 1 ACME RACING, INC., ... ("ACME"); and 2 BETA AG, ...": on a page flattened
        # to one line, a bare number after the clause's keyword, its neighbour after another one.)
        if not _BARE_ITEM_LEAD.search(text, max(0, name.start - 12), name.start):
            return None
        window = text[max(0, name.start - _LIST_NEIGHBOUR_CHARS) : min(len(text), name.end + _LIST_NEIGHBOUR_CHARS)]
        neighbours = {int(m.group(1)) for m in _BARE_ITEM.finditer(window)}
        return bare if {number - 1, number + 1} & neighbours else None
    around = _LIST_LINE_NUMBER.finditer(
        text, max(0, name.start - _LIST_NEIGHBOUR_CHARS), min(len(text), name.end + _LIST_NEIGHBOUR_CHARS)
    )
    neighbours = {int(m.group(1)) for m in around}
    return bare if {number - 1, number + 1} & neighbours else None


# A recital's item letter opening a name ("B. Halcyon Holdings, Inc., the parent of ..."), and its
# neighbour's: the letter one before or after, opening a line or following a clause's end.
_LETTER_LABEL = re.compile(r"([A-Z])\.[ \t]+(?=[A-Z])")
_LABEL_PLACE = re.compile(r"(?:^|\n|[.;:][ \t]+)[ \t]*\Z")


def _recital_letter(text: str, name: NameSpan) -> re.Match[str] | None:
    """A recital's item letter read into a name: "A. Borrower and Lender are parties ... B.
    Halcyon Holdings, Inc., the parent of Halcyon, has executed ...". It is a label, not a
    person's initial ("J. Smith"), only where a label may stand (a line's start, after a clause's
    end) and when the letter before or after it labels an item the same way nearby. Bounded: the
    neighbours are looked for ``_LIST_NEIGHBOUR_CHARS`` either side."""
    label = _LETTER_LABEL.match(text, name.start, name.end)
    if label is None or _LABEL_PLACE.search(text, max(0, name.start - 4), name.start) is None:
        return None
    window = (max(0, name.start - _LIST_NEIGHBOUR_CHARS), min(len(text), name.end + _LIST_NEIGHBOUR_CHARS))
    return label if _neighbour_label(label.group(1)).search(text, *window) is not None else None


@lru_cache(maxsize=26)
def _neighbour_label(letter: str) -> re.Pattern[str]:
    """An item labelled by the letter before or after ``letter``, where a label may stand."""
    neighbours = "".join(chr(c) for c in (ord(letter) - 1, ord(letter) + 1) if ord("A") <= c <= ord("Z"))
    return re.compile(rf"(?:^|\n|[.;:][ \t]+)[ \t]*[{neighbours}]\.[ \t]+[A-Z]")


# A Roman item number opening a list's name ("by and between: I. PERUSAHAAN ...; and II. PT ..."),
# right after a list's lead, a colon, a semicolon, "and" or a line break: elsewhere "I." may be a
# person's initial.
_ROMAN_ENUMERATOR = re.compile(r"\(?(?:I|II|III|IV|V|VI)[.)][ \t]+(?=[A-Z]{2,}\b)")
_ROMAN_ENUMERATOR_BEFORE = re.compile(r"(?:[:;\n]|\b(?:and|AND|between|BETWEEN|among|AMONG))[ \t]*\Z")


def _roman_enumerator(text: str, name: NameSpan) -> re.Match[str] | None:
    enumerator = _ROMAN_ENUMERATOR.match(text, name.start, name.end)
    if enumerator is None or _ROMAN_ENUMERATOR_BEFORE.search(text, max(0, name.start - 12), name.start) is None:
        return None
    return enumerator


# A number and a dash opening a line's name ("1- TRANSGLOBE ENERGY CORPORATION\n...\n2- THE YEMEN
# COMPANY"), and its neighbours' lines: an item number only beside the item numbered one less or
# one more the same way ("3-D Systems", "1-800 Contacts" are no items: no space after the dash).
_DASHED_NUMBER = re.compile(r"([0-9]{1,2})[ \t]?[-–][ \t]+(?=[A-Z])")
_DASHED_LINE_NUMBER = re.compile(r"(?m)^[ \t]*([0-9]{1,2})[ \t]?[-–][ \t]+(?=[A-Z])")


def _dashed_enumerator(text: str, name: NameSpan) -> re.Match[str] | None:
    """A dashed item number opening the name's line ("2- THE YEMEN COMPANY"), beside its
    neighbour's. Bounded: the neighbours are looked for ``_LIST_NEIGHBOUR_CHARS`` either side."""
    dashed = _DASHED_NUMBER.match(text, name.start, name.end)
    if dashed is None or text[text.rfind("\n", 0, name.start) + 1 : name.start].strip():
        return None
    around = _DASHED_LINE_NUMBER.finditer(
        text, max(0, name.start - _LIST_NEIGHBOUR_CHARS), min(len(text), name.end + _LIST_NEIGHBOUR_CHARS)
    )
    number = int(dashed.group(1))
    return dashed if {number - 1, number + 1} & {int(m.group(1)) for m in around} else None


def without_enumerator(text: str, name: NameSpan) -> NameSpan:
    """The name without a list's enumerator read into it ("1. THE ACME COMPANY LIMITED", a bare
    "2 " among numbered items, a recital's item letter): an enumerator is never part of a name."""
    enumerator = (
        _ENUMERATOR.match(text, name.start, name.end) or _bare_enumerator(text, name) or _recital_letter(text, name)
        or _roman_enumerator(text, name) or _dashed_enumerator(text, name)
    )
    if enumerator is None:
        return name
    return NameSpan(text[enumerator.end() : name.end], enumerator.end(), name.end)


def after_non_party_lead(text: str, start: int) -> bool:
    """Whether the words right before ``start`` make the name there someone other than a party
    ("a subsidiary of Roche Holding AG", "c/o Pruitt LLP", "represented by Jane Roe":
    ``non_party_leads`` of party_filters.json). A name read from its last words ("Lang LLP" of
    "c/o Pruitt & Lang LLP") is judged from the words "&" joins to it."""
    joined = _AMPERSAND_BEFORE.search(text, max(0, start - 60), start)
    if joined is not None:
        start = joined.start()
    before = text[max(0, start - 40) : start]
    if _party_filters().non_party_lead.search(before) is not None:
        return True
    # (Not after the document's own term: "(this "Agreement") of Pippy Lane LLC" names a party.)
    of_definition = _OF_AFTER_DEFINITION.search(before)
    return of_definition is not None and not names_a_document(of_definition.group(1))


# "the undersigned stockholder (the "Stockholder") of Seneca Inc.": a name joined by "of" to a
# party's definition is what the party is described by (the company it holds), not a party.
_OF_AFTER_DEFINITION = re.compile(r"[\"“']([^\"“”'()]{1,40})[\"”'’]\)[ \t\n]+of[ \t\n]+(?:the[ \t\n]+)?$")


# A capitalised word of a name, and what may not stand right before its first letter.
_NAME_WORD = r"[A-Z][\w.'’\-]*"
_NOT_AFTER = r"(?<![\w.&'’\-])"
# Capitalised words joined by "&" right before a name's start: its first words ("Pruitt & ").
_AMPERSAND_BEFORE = re.compile(rf"{_NOT_AFTER}(?:{_NAME_WORD}[ \t]+){{1,3}}&[ \t]+\Z")
# The capitalised word right before an "&".
_WORD_BEFORE_AMPERSAND = re.compile(rf"{_NOT_AFTER}{_NAME_WORD}[ \t]*\Z")
# How far back the word before an "&" is looked for.
_AMPERSAND_WORD_WINDOW = 40


def ampersand_inside_name(text: str, ampersand_start: int, ampersand_end: int, end: int) -> bool:
    """Whether the "&" at ``ampersand_start`` is a name's own: a name read from the capitalised
    word right before it runs on past it ("..., One Procter & Gamble Plaza, Cincinnati"). The
    question :func:`after_non_party_lead` asks from the other side of the "&"."""
    window = text[max(0, ampersand_start - _AMPERSAND_WORD_WINDOW) : ampersand_start]
    word = _WORD_BEFORE_AMPERSAND.search(window)
    if word is None:
        return False
    name = name_at(text, ampersand_start - len(word.group()), end)
    return name is not None and name.end > ampersand_end


@lru_cache(maxsize=1)
def _party_role_words() -> frozenset[str]:
    roles = load_json("roles.json")["party_roles"]
    words = {w.casefold() for role in roles for w in role.split() if not re.fullmatch(r"[A-Z]", w)}
    return frozenset(words | {w + "s" for w in words})


_RAW_WORD = re.compile(r"[^\s,;:()\"“”]+")


# A table of contents' entry: a heading after its number ("SECTION 1. ", "Article IV ") or before
# a dot leader on its line ("DEFINITIONS; GRANT OF SECURITY........ 1").
# ("SECTION 1.01. |\nDefined Terms | 1 |": a converted table's contents row, the number in a cell
# of its own and the page number in the cell after the heading.)
_CONTENTS_NUMBER = re.compile(r"(?i:section|article|clause)[ \t]+[0-9IVX]{1,4}(?:\.[0-9]{1,3})*\.?[ \t|]*\n?[ \t|]*$")
_CONTENTS_LEADER = re.compile(r"[^\n]{0,80}?(?:\.[ \t]?){4,}|[^\n]{0,80}?…|[ \t]*\|[ \t]*[0-9]{1,3}[ \t]*\|")


def contents_entry(text: str, name: NameSpan) -> bool:
    """Whether ``name`` is a heading of a table of contents, not a party: it follows a section's
    number or runs to a dot leader on its line. Bounded: 20 characters before, 80 after."""
    if _CONTENTS_NUMBER.search(text[max(0, name.start - 20) : name.start]):
        return True
    return _CONTENTS_LEADER.match(text, name.end, min(len(text), name.end + 90)) is not None


def names_a_thing(term: str) -> bool:
    """Whether a defined term names a thing, a sum or a place ("Offering Price", "Improvement
    Fee", "Building"): its last word is a thing word (``thing_words`` of party_filters.json). The
    name before it is then no party ("... at a price of $1 per Offered Share (the "Offering
    Price")")."""
    words = [w.strip(".'’").casefold() for w in _RAW_WORD.findall(term)]
    return bool(words) and words[-1] in _party_filters().thing_words


_SHOUTED_JOINT = re.compile(r"[ \t\n]+and[ \t\n]+")


def shouted_joint(name: NameSpan) -> NameSpan | None:
    """The last of two names in capitals that a reading joined at a lower-case "and" ("ACME
    DESIGN GROUP and BETA WORKS, INC."): a name written in capitals writes its own "AND" in
    capitals too, so a lower-case one is the clause's joint between two parties. Only when both
    sides are in capitals and one ends in a legal form; None otherwise."""
    joints = list(_SHOUTED_JOINT.finditer(name.text))
    if len(joints) != 1:
        return None
    left, right = name.text[: joints[0].start()], name.text[joints[0].end() :]
    shouted = all(not re.search(r"[a-z]", side) and re.search(r"[A-Z]{2}", side) for side in (left, right))
    if not shouted or not (ends_in_legal_suffix(right) or ends_in_legal_suffix(left)):
        return None
    return NameSpan(right, name.start + joints[0].end(), name.end)


def _role_prefix_rests(word: str) -> list[str]:
    """What is left of ``word`` after each ``role_prefixes`` prefix it opens with ("sublandlord" ->
    "landlord", "co-borrower" -> "borrower")."""
    return [word[len(p) :] for p in _party_filters().role_prefixes if word.startswith(p)]


def prefixed_role(term: str, roles: Collection[str]) -> bool:
    """Whether ``term`` is one of ``roles`` made another role by a prefix (``role_prefixes``:
    "Sublandlord", "Co-Borrower"): a defined term of that shape names a party as its role does."""
    rests = _role_prefix_rests(term.casefold())
    return bool(rests) and any(r.casefold() in rests for r in roles)


def _is_role_word(word: str) -> bool:
    """A role word, also made another role by a prefix ("Sublandlord", "Co-Borrower")."""
    return word in _party_role_words() or any(rest in _party_role_words() for rest in _role_prefix_rests(word))


def names_a_document(term: str) -> bool:
    """Whether a defined term names a document ("Transport Agreement", "Build Addendum"): its
    last word is a document word. Its antecedent is then no party, whatever its name looks like
    ("Second Lien Notes Agent" is a party's role)."""
    words = [w.strip(".'’").casefold() for w in _RAW_WORD.findall(term)]
    # ("Amendment No. 1", "Amendment #1", "Addendum 3": the document's number follows its word.)
    while len(words) > 1 and _DOCUMENT_NUMBER.fullmatch(words[-1]):
        words.pop()
    return bool(words) and words[-1] in _party_filters().document_words


_DOCUMENT_NUMBER = re.compile(r"#?[0-9]{1,3}[a-z]?|#|no|number|[ivx]{1,4}")


def lowercase_words(text: str) -> frozenset[str]:
    """The words a document writes in lower case: its common words ("provider", "unless"). A
    proper name is capitalised wherever it occurs, so a one-word "name" found here is not one."""
    # Not inside a web or mail address: "cybershop.com" is the name CyberShop written as a host.
    return frozenset(re.findall(r"(?<![\w\-./@])[a-z][a-z'’\-]*(?![\w\-@]|\.\w)", text))


def _money_amount(words: list[str], filters: _PartyFilters) -> bool:
    """Whether casefolded ``words`` write out a sum of money: a currency word with an amount (a
    number word, or a token with a digit: "00/100", "250,000")."""
    if not filters.currency_words & set(words):
        return False
    return any(w in filters.number_words or any(c.isdigit() for c in w) for w in words)


# A place, then an entity kind that is no legal suffix ("California General Partnership").
_PLACE_THEN_KIND = re.compile(r"(.+?)[ \t\n]+(?i:general[ \t\n]+partnership|partnership|joint[ \t\n]+venture)")
# Words that join a name's words and are no name of their own.
_NAME_JOINERS = frozenset({"and", "of", "for", "de"})


_UNCLOSED_QUOTE = re.compile(r"[ \t]*[\"“‘][^\"”’]*$")


def _named_for_its_address(name: str) -> bool:
    """Whether a name that opens with a street number and a street word is a company named for
    its building: "1200 Market Street Associates, LLC" (a name word follows the street word with no
    comma between, and a legal form ends it after a comma), not "751 Miller Drive, SE", "751 Miller
    Drive SE" or "508 Island Ave. Reno NV" (a state code reads as a two-letter form: the form must
    be dotted or longer)."""
    words = name.split()
    form = _legal_suffix_end().search(legal_name(name).strip())
    return (
        len(words) > 4
        and not words[2].endswith(",")
        and words[3][:1].isupper()
        and words[3].strip(".,").casefold() not in _party_filters().address_words
        and not has_legal_suffix(words[3])
        and form is not None
        and re.search(r",[ \t]*$", legal_name(name).strip()[: form.start()]) is not None
        and ("." in form.group() or len(form.group()) > 2)
    )


_DANGLING_JOINER = re.compile(r"\s(?:of|and|the|for|to|de|du|des|del|van|von|y|OF|AND|THE|FOR|TO)\s*\Z")


def party_name_problem(name: str, common_words: frozenset[str] = frozenset()) -> str | None:
    """Why ``name`` cannot be a contract party, or None when it can. The general shapes of a
    false party: a postal address ("1707 Toronto Ont.", "Lincolnshire, IL 60069"), contract
    prose ("THE FOREGOING IS UNDERSTOOD AND AGREED TO BY", "Pursuant"), a document ("Statement
    of Work"), a sum of money ("Fifty Thousand U.S. Dollars"), a place ("Delaware", "Europe") and
    a common word the document also writes in lower case (``common_words``, from
    ``lowercase_words``: "Provider", "Unless"). A name with a legal
    form ("Acme Holdings, Inc.") is only checked for a postal code."""
    filters = _party_filters()
    if any(p.search(name) for p in filters.postal_codes) or filters.country_suffix.match(name.strip()):
        return "address"
    # "University of" of "... the University of Texas System": a name never ends in a word that
    # joins it to more of itself; such a reading was cut short.
    if _DANGLING_JOINER.search(name):
        return "fragment"
    # '"Constituent Corporations': a quote opening a name that never closes it is a defined term's
    # text ('referred to collectively as the "Constituent Corporations"'); '"QX" TECHNOLOGIES' closes.
    if _UNCLOSED_QUOTE.match(name):
        return "term"
    # "751 Miller Drive, SE": a street number and a street word, whatever legal form ("SE") follows.
    street = [w.strip(".,'’").casefold() for w in name.split()]
    # ("1284670 B.C. Ltd.": a numbered company; the street word follows the street's own name.)
    if len(street) > 2 and street[0].isdigit() and street[2] in filters.address_words and not _named_for_its_address(name):
        return "address"
    # "the Zeus No. 1 Investments, a California General Partnership": a place and an entity kind
    # without a legal suffix describe the name before them.
    kind = _PLACE_THEN_KIND.fullmatch(name.strip())
    if kind is not None and normalise_jurisdiction(kind.group(1)):
        return "description"
    # "695014 B.C. Ltd. dba Galaxy Telecom": the legal name before a trade name has the form.
    split = trade_name_split(name)
    if has_legal_suffix(split[0] if split else name):
        # ("U.S.A." ends in the letters of "S.A." but is the country, whole.)
        if not split and normalise_jurisdiction(name.strip(" ,")):
            return "place"
        # "Delaware limited liability company", "Japanese corporation": an entity form, no name.
        bare = _legal_suffix_end().sub("", (split[0] if split else name).strip()).strip(" ,")
        if not bare or normalise_jurisdiction(bare):
            return "description"
        # "Restated Agreement of Limited Partnership": a legal form inside a document's title.
        if re.search(r"(?i)\b(?:agreements?|amendments?)\b", bare):
            return "document"
        # "Sino-foreign Joint Venture Contract for Sanhe ... Company Limited": a contract's title
        # naming the company it is for ("Contract Manufacturing Services Ltd." is a name).
        if re.search(r"(?i)\bcontracts?[ \t\n]+(?:for|of|on)\b", bare):
            return "document"
        # "DISTRIBUTION COOPERATION CONTRACT Between JOYMAIN ... GROUP, INC.": a title and its
        # party keyword run into the name; "between" is in no name.
        if re.search(r"(?i)\b(?:between|among|amongst)\b", bare):
            return "clause"
        # "THE SHAREHOLDERS OF ACME LTD.": a class of people described by the company they hold.
        lead = re.match(r"(?i)(?:the[ \t\n]+)?(\w+)[ \t\n]+of[ \t\n]", bare)
        if lead is not None and lead.group(1).casefold() in filters.class_nouns:
            return "role"
        return _adviser(bare, filters)
    raw = [w.strip(".'’").casefold() for w in _RAW_WORD.findall(name)]
    raw = [w for w in raw if w]
    if raw and raw[0] == "the":
        raw = raw[1:]
    # ("..., of Crow Agency, State of Montana, Party of the First Part, hereinafter called Lessor":
    # the old form's name for a side of the deed is a role, never a name.)
    if len(raw) == 5 and raw[0] in ("party", "parties") and raw[1:3] == ["of", "the"] and raw[4] == "part":
        return "role"
    # ("For value received, ACME LLC ... ("Borrower")": a capitalised joiner opening a sentence
    # carries no name.)
    if not raw or all(w in _NAME_JOINERS for w in raw):
        return "empty"
    # ("PRIVATE & CONFIDENTIAL" on a letter's line: the document's label, no name.)
    if " ".join("and" if w == "&" else w for w in name.casefold().split()) in filters.document_labels:
        return "label"
    # ("... registration number 03432221202 of the Company Register of Bologna (the Company)": a
    # trade register a party's registration cites is no party.)
    if " ".join(raw).startswith(filters.trade_registers):
        return "register"
    # "Xxxxx Xxxxxx": a filing's placeholder for a redacted name or address.
    if all(filters.redaction_word.match(w.strip(".,'’")) for w in name.split() if w.strip(".,'’")):
        return "redacted"
    # "EX-10.17 10": an EDGAR document header's exhibit type and sequence number, the filer's
    # label above the contract, read as a name when a definition's clause runs back over it.
    if filters.filing_label.match(name.strip()):
        return "filing label"
    if _money_amount(raw, filters):
        return "money"
    # ("THE 1010 COMPANY": a number named by an organisation's head noun is a company's name, unless
    # an address word is in it.)
    numbered_company = raw[0].isdigit() and organisation_head(name) and not filters.address_words & set(raw)
    if (raw[0].isdigit() and not numbered_company) or (any(w.isdigit() for w in raw) and filters.address_words & set(raw)):
        return "address"
    # "Quillweg 8", "Harbour Strasse 77": a street and its house number alone, the address after
    # a person's name ("Dr. Jane Roe, Quillweg 8, Westport").
    street = _street_start().match(" " + name.strip())
    if street is not None and street.end() == len(name.strip()) + 1:
        return "address"
    # ("Geo IS Tech Group": in a name not written in capitals, a word in capitals is an acronym,
    # not the clause word it spells.)
    acronyms = set() if name.isupper() else {w.casefold() for w in _RAW_WORD.findall(name) if len(w) >= 2 and w.isupper()}
    if (filters.clause_words & set(raw)) - acronyms:
        return "clause"
    # ("Whereasthe Entrepreneur": a recital's opening glued to its next word by a lost space.)
    if raw and raw[0].startswith("whereas"):
        return "clause"
    # "Financial Director Mr R Moore": a job title before a person's name is a signatory line.
    # ("Prof. Dr. Jane Roe": honorifics that open the name stack, they follow no job title.)
    # ("Ms. Zheng Roe and Ms. Amy Lee": in a pair of persons each opens with its own honorific.)
    titles = next((i for i, w in enumerate(raw) if w not in filters.honorifics), len(raw))
    paired = raw[0] in filters.honorifics
    if any(w in filters.honorifics and not (paired and raw[i - 1] in ("and", "&")) for i, w in enumerate(raw) if i >= max(1, titles)):
        return "signatory"
    if filters.document_words & set(raw):
        return "document"
    joined = " ".join(raw)
    if joined in filters.regions:
        return "place"
    # "Sublease Date", "Improvement Fee": a label or a defined sum, never an organisation; "The
    # FACILITY" alone is a thing.
    if raw[-1] in filters.time_and_sum_words or (len(raw) == 1 and raw[0] in filters.thing_words):
        return "thing"
    # ("Term of Consulting Service: From 5/15/99 to 6/30/99": a form's field opened by a time or
    # sum word and "of" is no organisation either.)
    if len(raw) > 2 and raw[0] in filters.time_and_sum_words and raw[1] == "of":
        return "thing"
    # "Kvernalleen": a street written as one word.
    if any(raw[-1].endswith(e) and len(raw[-1]) > len(e) + 2 for e in filters.street_endings):
        return "address"
    # "Kohoku-ku", "Yokohama-shi": a ward, city or prefecture of a Japanese address carries its
    # kind as a hyphenated ending; the word before the hyphen must be a place name of its own.
    last = name.split()[-1].strip(".,;:'’").casefold() if name.split() else ""
    if any(last.endswith(e) and len(last) > len(e) + 1 for e in filters.place_endings):
        return "address"
    # "FEIN 59-1234567": a tax number and its label identify a party; they are no name.
    if len(raw) >= 2 and raw[0] in filters.identifier_labels and all(re.fullmatch(r"[0-9\-]+", w) for w in raw[1:]):
        return "thing"
    # "Zhejiang Province", "Liandu District": a division of a Chinese or Japanese address.
    if len(raw) == 2 and raw[-1] in filters.division_words and not has_legal_suffix(name):
        return "place"
    # "Tai Ming Building": a building's name, the first line of an Asian address.
    if len(raw) > 1 and raw[-1] in filters.building_endings:
        return "address"
    adviser = _adviser(name, filters)
    if adviser is not None:
        return adviser
    if normalise_jurisdiction(name) and not any(joined.startswith(p) for p in filters.government_prefixes):
        return "place"
    # "C.    Client" (a recital's letter and a role): single letters carry no name.
    content = [w for w in raw if len(w) > 1 and w not in _NAME_JOINERS]
    if len(content) == 1 and content[0] in common_words:
        return "common word"
    # "C.    Client", "Remarketing Agents": role words name a party by its role, never by name.
    # ("INVESTORS BANK & TRUST COMPANY": an ampersand joins the words of a firm's name; roles are
    # joined by "and".)
    # ("THE PERSONS whose names ...", "Master Landlord", "Sublandlord": a class noun, a modified
    # or prefixed role; "The Various Holders Listed": a class described by where it is listed.)
    qualifiers = filters.role_modifiers | filters.class_participles
    if (
        content
        and all(_is_role_word(w) or w in filters.class_nouns or w in qualifiers for w in content)
        and not all(w in qualifiers for w in content)
        and "&" not in raw
    ):
        return "role"
    return None


def _adviser(name: str, filters: _PartyFilters) -> str | None:
    """ "adviser" when ``name`` holds a word only a law firm's or a notary's name holds
    ("Messrs Quill & Co Advocates & Solicitors"): a firm named on a cover or in a notice clause."""
    words = {w.strip(".,'’").casefold() for w in name.split()}
    return "adviser" if filters.adviser_words & words else None


# A short name in brackets closing a heading or a name ("(MoU)", "(“MSA”)", "(GOSL)"): two to
# eight letters.
_BRACKETED_INITIALS = re.compile(r"(.+?)[ \t]*\([ \t]*[\"“]?([A-Za-z]{2,8})[\"”]?[ \t]*\)")


def without_own_initials(line: str) -> str:
    """``line`` without a bracketed short name at its end that spells the initials of the words
    before it ("Memorandum of Understanding (MoU)", "MASTER SERVICES AGREEMENT (MSA)", "THE
    GOVERNMENT OF SIERRA LEONE (GOSL)": every word, the capitalised ones, or all but a leading
    article); any other line as it is: "(XYZ)" may be a word of it."""
    bracketed = _BRACKETED_INITIALS.fullmatch(line)
    if bracketed is None:
        return line
    words = re.findall(r"[A-Za-z][\w'’\-]*", bracketed.group(1))
    initials = bracketed.group(2).casefold()
    every = "".join(w[0] for w in words).casefold()
    capitalised = "".join(w[0] for w in words if w[0].isupper()).casefold()
    unarticled = every[1:] if words and words[0].casefold() in ("the", "a", "an") else every
    return bracketed.group(1) if initials in (every, capitalised, unarticled) else line


def name_without_own_initials(name: NameSpan) -> NameSpan:
    """``name`` without its own initials in brackets at its end (``without_own_initials``): "THE
    GOVERNMENT OF SIERRA LEONE (GOSL)" read up to a title's "AND" is "THE GOVERNMENT OF SIERRA
    LEONE"."""
    kept = without_own_initials(name.text)
    return name if kept == name.text else NameSpan(kept, name.start, name.start + len(kept))
