"""The agreement a contract is: its title, kind and dates, found in the opening text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ingest.letter_parties import letter_salutation, opens_with_salutation
from ingest.lexicons import legend_words, lexicons, load_json, phrase_alternation
from ingest.names import ends_in_legal_suffix, has_legal_suffix, name_at, organisation_head, without_own_initials
from ingest.normalize import normalise_jurisdiction
from ingest.text import EDGAR_HEADER, EDGAR_HEADER_CHARS, name_words
from ingest.quantities import DateSpan, dates_in

TITLE_SCAN_CHARS = 3_000
_LEADING_TITLE_WORDS = 20
# "LICENSE, DEVELOPMENT AND COMMERCIALIZATION AGREEMENT": a comma may end a word of the list.
# Capitals include accented ones: "VERTRÄGE", "ÉCHANGE" are caps words of a bilingual heading.
# ("AMENDMENT #1 TO MANUFACTURING AGREEMENT": a number may be written after "#"; "SCHEDULE 13D":
# a form's number may end in a letter.)
# ("PLAYSTATION 2(R) LICENSED PUBLISHER AGREEMENT": a mark written in ASCII, "(R)", "(TM)", "(SM)",
# is the word's as "®" is.)
_MARK = r"(?:\((?:R|TM|SM)\))?"
# ("PRODUCT SALES (PURCHASE) CONTRACT": a bracketed word of three or more letters inside the
# heading is the title's, as a translation's alternative word.)
_CAPS_WORD = rf"(?:[A-ZÀ-ÖØ-Þ][A-ZÀ-ÖØ-Þ0-9&'’\-/.®™]*{_MARK},?|(?<![\w])[a-z][A-Z][A-Z0-9&\-]+{_MARK},?|&|-|#?[0-9]+(?:\.[0-9]+)*[A-Z]?{_MARK}|\([\"“]?[A-Z][A-Z\-]{{2,}}[\"”]?\))"
# (A product's caps name may open with one lower-case letter: "iMAP AGREEMENT".)
# (An acronym in brackets may be quoted: 'MOBILE VIRTUAL NETWORK ENABLER ("MVNE") SERVICES AGREEMENT'.)
# "CONTRACT MANUFACTURING AGREEMENT": "CONTRACT" before a few more words and "AGREEMENT" is a
# word of the title, not the end of one.
_CONTRACT_AS_MODIFIER = r"[ \t]{1,3}[A-Z][A-Z\-]*(?:[ \t]{1,3}[A-Z][A-Z\-]*){0,4}[ \t]{1,3}AGREEMENT(?![\w])"
# At most three spaces between words: wider gaps separate page furniture from the title, except
# after a comma inside the title ("SOFTWARE DEVELOPMENT,            HOSTING AND ... AGREEMENT").
# (Never from inside an exhibit's number: "EXHIBIT 10.E DISTRIBUTOR SALES AGREEMENT".)
_CAPS_TITLE = re.compile(
    rf"(?<![\w])(?<![0-9]\.)((?:{_CAPS_WORD}(?:[ \t]{{1,3}}|(?<=,)[ \t]+)){{0,12}}?(?:AGREEMENT|CONTRACT(?!{_CONTRACT_AS_MODIFIER})))(?![\w])"
)
# A short line of its own that starts with a capital and ends in "agreement"/"contract" in any
# case, among the first few non-empty lines, is a heading even with lower-case words inside.
# ("MARKETING, DISTRIBUTION and LICENSE AGREEMENT": its first word may close with a comma too.)
_HEADING_LINES = 5
_HEADING_TITLE = re.compile(
    rf"[A-Z][\w&'’\-/®™]*{_MARK},?(?:[ \t]{{1,3}}[\w&'’\-/,®™]+{_MARK}){{0,8}}?[ \t]{{1,3}}(?:[Aa]greement|AGREEMENT|[Cc]ontract|CONTRACT)"
)
# "General Terms and Conditions" is a contract's title too, on a heading line of its own.
# The words before are optional, and a short "of Sale" / "for Services" may follow ("Terms and
# Conditions of Sale").
_TERMS_HEADING = re.compile(
    r"(?:[A-Z][\w&'’\-/.]*(?:[ \t]{1,3}[\w&'’\-/.,]+){0,12}?[ \t]{1,3})?"
    r"(?:Terms[ \t]+and[ \t]+Conditions|TERMS[ \t]+AND[ \t]+CONDITIONS|Terms[ \t]+of[ \t]+Service|TERMS[ \t]+OF[ \t]+SERVICE)"
    r"(?:[ \t]{1,3}(?:of|for|OF|FOR)[ \t]{1,3}[A-Z][\w&'’\-]*(?:[ \t]{1,3}[A-Z][\w&'’\-]*){0,3})?"
)
# A title that starts with the agreement word, on a heading line of its own: "AGREEMENT AND PLAN
# OF MERGER", "Agreement for the Provision of Cleaning Services", "AGREEMENT REGARDING JOINT FILING". The words after the joining
# word are capitalised or connectors, and the line ends in a capitalised word. Only where the
# agreement word opens the line: "Cooperation Agreement on Mobile Game Business" is titled
# "Cooperation Agreement" by the caps/heading runs, the way CUAD names such contracts.
_LEADING_AGREEMENT = re.compile(
    r"(?:AGREEMENT|Agreement|CONTRACT|Contract)[ \t]{1,3}"
    r"(?:AND|FOR|OF|ON|REGARDING|CONCERNING|RELATING[ \t]+TO|and|for|of|on|[Rr]egarding|[Cc]oncerning|[Rr]elating[ \t]+to"
    # "AGREEMENT IN RELATION TO THE SUPPLY OF GOODS", "Agreement with respect to ...".
    r"|IN[ \t]+(?:RELATION[ \t]+TO|RESPECT[ \t]+OF)|WITH[ \t]+RESPECT[ \t]+TO|in[ \t]+(?:relation[ \t]+to|respect[ \t]+of)|with[ \t]+respect[ \t]+to)"
    # ("Agreement on Establishing a Joint Lab for ...": an article inside, as translated titles write.)
    r"(?:[ \t]{1,3}(?:[A-Z][\w&'’\-/]*|and|of|for|the|on|to|in|a|an|&)){0,10}?[ \t]{1,3}[A-Z][\w&'’\-/]*"
    # ("... of Short Messaging Services (SMS)": an acronym in brackets may close it.)
    r"(?:[ \t]{1,3}\([A-Z][A-Z0-9&\-]{1,9}\))?"
)
# A heading line that names its subject after the agreement word: "Cooperation Agreement on
# Wireless Network Coverage in the Harbor Area", "SUPPLY CONTRACT FOR INDUSTRIAL GASES". As a
# whole line only; the words after the joining word are capitalised or connectors, and the line
# ends in a capitalised word.
# ("Exclusive Agency and Distribution Agreement for Game Products": "and"/"&" inside the head,
# never opening it.)
_SUBJECT_AFTER_AGREEMENT = re.compile(
    r"[A-Z][\w&'’\-/]*[ \t]{1,3}(?:(?:[A-Z][\w&'’\-/]*|and|&)[ \t]{1,3}){0,5}(?:AGREEMENT|Agreement|CONTRACT|Contract)[ \t]{1,3}"
    r"(?:ON|FOR|OF|REGARDING|CONCERNING|on|for|of|regarding|concerning)"
    r"(?:[ \t]{1,3}(?:[A-Z][\w&'’\-/]*|and|of|for|the|on|to|in|&)){0,10}?[ \t]{1,3}[A-Z][\w&'’\-/]*"
)
# A heading line's words before its party list: "<title> BETWEEN <name> AND <name>".
_BEFORE_PARTY_LIST = re.compile(
    r"(.+?)[ \t]+(?:BETWEEN|Between|between|AMONG|Among|among)[ \t]+\S.*?[ \t](?:AND|and|&)[ \t]+\S.*"
)
# The head of a title that names its subject after the agreement word, and that title whole
# (white space collapsed): the subject alias of ``title_aliases``. As _SUBJECT_AFTER_AGREEMENT,
# with "with" too, and "and" inside the head ("Local Programming and Marketing Agreement with
# Option to Purchase Station", a preamble's own name for the contract). A subject's word may close
# with a comma ("IMPROVEMENTS AGREEMENT FOR SUNDANCE MINOR SUBDIVISION, PHASE A AND C").
_HEAD_BEFORE_SUBJECT = re.compile(
    r"(.*?\b(?:AGREEMENT|Agreement|CONTRACT|Contract))\s+(?:ON|FOR|REGARDING|CONCERNING|WITH|on|for|regarding|concerning|with)\s",
    re.DOTALL,
)
_SUBJECT_AFTER_HEAD = re.compile(
    r"[A-Z][\w&'’\-/]*[ \t]{1,3}(?:(?:[A-Z][\w&'’\-/]*|and|&)[ \t]{1,3}){0,5}(?:AGREEMENT|Agreement|CONTRACT|Contract)[ \t]{1,3}"
    r"(?:ON|FOR|OF|REGARDING|CONCERNING|WITH|on|for|of|regarding|concerning|with)"
    r"(?:[ \t]{1,3}(?:[A-Z][\w&'’\-/]*,?|and|of|for|the|on|to|in|&)){0,10}?[ \t]{1,3}[A-Z][\w&'’\-/]*"
)
# A title that goes on after its agreement word with "AND" and at most four more words, none a
# name (no digits, commas or full stops): "SEPARATION AGREEMENT AND GENERAL RELEASE", "Settlement
# Agreement and Mutual Release". As a whole line only (after a letter's "RE:" label).
_AGREEMENT_AND_TAIL = re.compile(
    rf"(?:{_CAPS_WORD}[ \t]{{1,3}}){{0,8}}AGREEMENT[ \t]{{1,3}}AND(?:[ \t]{{1,3}}[A-Z][A-Z'’\-]*){{1,4}}"
    r"|(?:[A-Z][\w'’\-]*[ \t]{1,3}){0,8}Agreement[ \t]{1,3}and(?:[ \t]{1,3}[A-Z][a-z'’\-]*){1,4}"
)
# "THIRD AMENDMENT TO SOFTWARE LICENSE AGREEMENT AND SECOND AMENDMENT TO SUPPORT AND MAINTENANCE
# AGREEMENT": one instrument amending two agreements names both amendments. As a whole line only.
_AMENDMENT_UNIT = (
    r"(?:[A-Z][\w.]*[ \t]{1,3}){0,3}(?i:amendment)(?:[ \t]{1,3}(?i:no\.?)[ \t]*[0-9]+)?[ \t]{1,3}(?i:to)"
    r"(?:[ \t]{1,3}(?:[A-Z][\w&'’\-/]*|(?i:and|of|for|the))){1,8}?[ \t]{1,3}(?i:agreement|contract)"
)
_AMENDMENTS_AND = re.compile(rf"{_AMENDMENT_UNIT}[ \t]{{1,3}}(?i:and)[ \t]{{1,3}}{_AMENDMENT_UNIT}")
_SECOND_AMENDMENT = re.compile(rf"[ \t]+(?i:and)[ \t]+{_AMENDMENT_UNIT}$")
# The same run into one line, where a rule or ", DATED" ends the heading: "... SEPARATION
# AGREEMENT AND GENERAL RELEASE ------ 1. I, ...", "... AGREEMENT AND RELEASE, DATED APRIL 1".
_INLINE_AGREEMENT_AND_TAIL = re.compile(
    rf"(?<![\w])((?:{_CAPS_WORD}[ \t]{{1,3}}){{0,8}}AGREEMENT[ \t]{{1,3}}AND(?:[ \t]{{1,3}}[A-Z][A-Z'’\-]*){{1,4}})"
    r"(?=[ \t]*(?:-{3,}|={3,}|_{3,}|,[ \t]*DATED\b))"
)
# "EXHIBIT 2.1 AGREEMENT FOR SALE OF BUSINESS AS GOING CONCERN (1) Quill Limited ...": a filing
# run into one line, where a title that opens with the agreement word is a caps run in the
# line, ended by the first word that is not capitalised (or a parenthesis, a digit).
# The run also ends before a party list or the preamble ("... OF NATURAL GAS IN THE STATE OF
# WESTLAND BETWEEN ...", "... WESTLAND THIS AGREEMENT is made"): those words never join it.
_INLINE_LEADING_AGREEMENT = re.compile(
    # (An exhibit's letter label before it is page furniture: "Exhibit B AGREEMENT FOR ...".)
    r"(?:(?<![\w])(?<![A-Z&][ \t])|(?<=\b[Ee]xhibit[ \t][A-Z][ \t])|(?<=\bEXHIBIT[ \t][A-Z][ \t]))"
    r"((?:AGREEMENT|CONTRACT)[ \t]{1,3}(?:FOR|OF|REGARDING|CONCERNING|RELATING[ \t]+TO)"
    r"(?:[ \t]{1,3}(?!(?:BETWEEN|AMONG|THIS|DATED|BY)\b)[A-Z][A-Z&'’\-/]*){1,16})"
    r"(?=[ \t]+(?:[a-z(]|[0-9]|[A-Z][a-z]|(?:BETWEEN|AMONG|THIS|DATED|BY)\b)|[ \t]*[\n(]|$)"
)
# A heading line with a qualifier after a dash: (title) - (edition, version, ...).
_DASH_QUALIFIER = re.compile(r"(.+?)[ \t]+[-–—][ \t]+\S.{0,40}")
# A heading line whose agreement title goes on after a dash with a subtitle that narrows it:
# "Branded Reseller Agreement - Analytics Suite Specific" (see ``_subtitle``).
_DASH_SUBTITLE = re.compile(r"(.+?(?:AGREEMENT|Agreement|CONTRACT|Contract))[ \t]+[-–—][ \t]+(\S.{0,60})")
_SUBTITLE_WORDS = (1, 6)
_SUBJECT_LABEL = re.compile(r"(?:RE|Re|SUBJECT|Subject)[ \t]*:[ \t]*")
# Words that make a line prose, not a heading starting with "Agreement".
_LEADING_AGREEMENT_PROSE = frozenset("is are was be shall will made hereby between among this these that".split())
_NOT_HEADING_WORDS = frozenset(
    "this the these that is are was be to by between among with made hereby shall will under per".split()
)
_TRAILING_QUALIFIER = re.compile(r"[ \t]*\([A-Z0-9][A-Z0-9 \-/]{0,30}\)")
# "SCHEDULE TO Software License, Customization and Maintenance Agreement": a comma may end a word.
_TITLE_WORD = r"(?:[A-Z][\w&'’\-/.]*,?|[a-z]+-[\w\-]+|and|of|for|to|the|&|-|#?[0-9]+(?:\.[0-9]+)*|\([A-Z][a-z\-]{2,}\))"
_MIXED_TITLE = re.compile(
    rf"(?<![\w])((?:{_TITLE_WORD}[ \t]{{1,3}}){{0,10}}?(?:Agreement|agreement|Contract))(?![\w])"
)
_THIS_TITLE = re.compile(
    rf"\b(?:This|THIS)[ \t]+((?:{_TITLE_WORD}[ \t]+){{1,10}}?(?:Agreement|AGREEMENT|Contract|CONTRACT))(?![\w])"
)

# Dates are read by the shared leaf module, so ingest and the query side agree.
_DATED = re.compile(
    r"\b(?:dated|made|entered\s+into|executed|as\s+of|effective|day\s+of|date)\b", re.I
)
_EFFECTIVE_DEFINITION = re.compile(r"\(\s*(?:the\s+)?[\"“]Effective\s+Date[\"”]\s*\)", re.I)
_EFFECTIVE_AS_OF = re.compile(r"\beffective\s+(?:as\s+of|on|from)\b", re.I)


@dataclass(frozen=True, slots=True)
class Title:
    text: str
    start: int
    end: int


# Words that join a title to what stands before it and never open one.
_JOINING_OPENERS = frozenset("to of and by with between among or".split())
# A contents page's heading alone on its line.
_CONTENTS_HEADING = re.compile(r"(?m)^[ \t|]*(?:TABLE[ \t]+OF[ \t]+CONTENTS|Table[ \t]+of[ \t]+Contents|CONTENTS|Contents|INDEX)[ \t|]*$")
# A page number, then the next entry's section number ("... 3 1.5 ..."): a contents page.
_CONTENTS_ENTRIES = re.compile(r"(?<![\w.])[0-9]{1,3}[ \t]+[0-9]{1,2}\.[0-9]{1,2}(?![\w.])")


_EXHIBIT_LETTER_NUMBER = re.compile(r"[A-Z]-[0-9]{1,3}[ \t]+(?=[A-Z])")
# Before a heading's words in a filing run into one line: a record number ("CAG-17-172
# PROFESSIONAL SERVICES AGREEMENT", letters and two numbers; "A136-G0092418") or a cover's date line ("... LLC
# JANUARY 2013 FIRST REVISED AND RESTATED ... AGREEMENT", a month and a year, maybe its day).
_RECORD_OR_DATE = re.compile(
    # ("A136-G0092418 AMENDMENT NUMBER 01 LOCAL AGENCY AGREEMENT": a record number of letters and
    # digits on both sides of its hyphen.)
    r"(?:[A-Z]{1,5}-[0-9]{1,4}-[0-9]{1,6}|[A-Z]{1,4}[0-9]{1,6}-[A-Z]{0,4}[0-9]{3,10}"
    r"|(?:JANUARY|FEBRUARY|MARCH|APRIL|MAY|JUNE|JULY|AUGUST|SEPTEMBER|OCTOBER|NOVEMBER|DECEMBER"
    r"|January|February|March|April|May|June|July|August|September|October|November|December)"
    r"[ \t]+(?:[0-9]{1,2},?[ \t]+)?(?:19|20)[0-9]{2})[ \t]+(?=[A-Z])"
)


# A US deed's or lease's venue caption run into its heading ("STATE OF GEORGIA COUNTY OF GLYNN
# AMENDMENT NO. 1 TO SUBLEASE AGREEMENT", "STATE OF GEORGIA GWINNETT COUNTY LEASE AGREEMENT"): the
# state (a US state's name) and its county, "COUNTY OF" and one word or one or two words and
# "COUNTY". Shouted only.
_VENUE_CAPTIONS = tuple(
    re.compile(
        rf"(?:STATE|COMMONWEALTH)[ \t]+OF[ \t]+(?P<state>[A-Z]+{state_words})[ \t]*[,:]?[ \t]+"
        r"(?:(?:COUNTY|PARISH)[ \t]+OF[ \t]+[A-Z]+|(?:[A-Z]+[ \t]+){1,2}?(?:COUNTY|PARISH))[ \t]*[,:]?[ \t]+(?=[A-Z])"
    )
    # (A state's name of one word, "GEORGIA", or of two, "NEW YORK".)
    for state_words in ("", r"[ \t]+[A-Z]+")
)


def _venue_caption(title: str) -> re.Match[str] | None:
    """The venue caption opening ``title`` (``_VENUE_CAPTIONS``) when its state is a US state; else None."""
    for pattern in _VENUE_CAPTIONS:
        caption = pattern.match(title)
        if caption is not None and normalise_jurisdiction(caption.group("state")):
            return caption
    return None


def _strip_noise(title: str) -> tuple[str, int]:
    """Drop leading noise ("EXHIBIT 10.4", "Execution Version", "THIS"); returns the title and
    how many characters were dropped."""
    noise = lexicons().title_prefix_noise
    original = title
    changed = True
    while changed:
        changed = False
        # "APPENDIX C SAMPLE OF ... AGREEMENT": an appendix label is page furniture, like "EX-10.1",
        # and so is a filing's document file name ("EX-10.1 2 ex-10_1.txt EXHIBIT 10.1"); an
        # exhibit number may end in a letter ("EXHIBIT 10.E DISTRIBUTOR SALES AGREEMENT") or be a
        # letter and a number ("Exhibit B-1 UTILITY SERVICE AGREEMENT").
        stripped = re.sub(
            # ("APPENDIX 2 TO MASTER LICENSE AGREEMENT" names its parent: a schedule's own title.)
            r"^(?:[0-9]+(?:\.(?:[0-9]+|[A-Za-z](?![A-Za-z])))*[A-Za-z]?|EX-[\w.]+|[\w\-.]+\.(?:txt|htm|html|TXT|HTM)\b|(?:APPENDIX|Appendix|ANNEX|Annex)[ \t]+[A-Z0-9]{1,3}\b(?![ \t]+(?:TO|to)\b)[.:]?|[-–:.,])[ \t]*",
            "", title,
        )
        if stripped != title:
            title, changed = stripped, True
        # (A label standing alone before the heading's words, never a model's name joined to more:
        # "C-3/C-4 SATELLITE TRANSPONDER SERVICE AGREEMENT" opens with its own words.)
        label = _EXHIBIT_LETTER_NUMBER.match(title) or _RECORD_OR_DATE.match(title) or _venue_caption(title)
        if label is not None:
            title, changed = title[label.end() :], True
        # ("(CONFIDENTIAL) SUPPLY AGREEMENT", "[EXECUTION COPY] ...": a noise word in brackets too.)
        bracketed = re.match(r"[(\[][ \t]*([^()\[\]\n]{1,30}?)[ \t]*[)\]][ \t]*", title)
        if bracketed is not None and bracketed.group(1).casefold() in noise:
            title, changed = title[bracketed.end() :], True
            continue
        lowered = title.casefold()
        for word in noise:
            # ("Translation Services Agreement": a noise word before a title word it may qualify is
            # the title's own word.)
            following = lowered[len(word) :].split(maxsplit=1)
            if following and following[0] in lexicons().title_prefix_noise_kept_before.get(word, ()):
                continue
            # (A legend alone, "SUBJECT TO CONTRACT", is all noise: nothing of it is a title.)
            if lowered.startswith(word + " ") or lowered.startswith(word + "\t") or lowered == word:
                title, changed = title[len(word) :].lstrip(), True
                break
    return title, len(original) - len(title)


# A signing service's envelope id (a GUID), with its label when the label is in the run.
_ENVELOPE_ID = re.compile(
    r"(?:\b(?:DocuSign|Docusign|DOCUSIGN)[ \t]+Envelope[ \t]+ID:[ \t]*)?"
    r"\b[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}\b[ \t]*"
)


def _candidates(head: str, after: str = "") -> list[tuple[int, int, Title]]:
    """(rank, position, title): rank 0 is a whole caps line, 1 a caps run, 2 a title-case run,
    3 "This X Agreement". ``after`` is the text right past ``head`` (the preamble), read only
    to tell a letterhead from a heading's first line (``_centred_together``)."""
    found: list[tuple[int, int, Title]] = []

    def add(rank: int, start: int, raw: str, spread: bool = False) -> None:
        """``spread``: ``raw`` is lines joined with white space collapsed; the span is then
        found in ``head`` so it covers the lines as laid out."""
        # "AS AMENDED. MASTER DEVELOPMENT AGREEMENT": a sentence end is not inside a title.
        # ("AMENDMENT NO. 2 TO ..." is no sentence end.)
        sentence_end = raw.rfind(". ")
        # ("U.S. ENGLISH LANGUAGE NET SEARCH SERVICES AGREEMENT": nor is a country's initialism.)
        while sentence_end != -1 and (
            re.search(r"(?:^|\s)(?:NO|No|NOS|Nos)$", raw[:sentence_end]) or _country_initialism_before(raw, sentence_end)
        ):
            sentence_end = raw.rfind(". ", 0, sentence_end)
        if sentence_end != -1:
            start, raw = start + sentence_end + 2, raw[sentence_end + 2 :]
        # "DDCX S DG KC 201812130044 Exhibit 10.5 Collaboration Agreement": page furniture ends
        # at the exhibit number.
        # ("Exhibit B AGREEMENT": a letter is a label too, when a caps title follows.)
        exhibit = list(re.finditer(r"\b(?:EXHIBIT|Exhibit)[ \t]+(?:[0-9][\w.]*|[A-Z](?=[ \t]+[A-Z]{2}))[ \t]+", raw))
        if exhibit and exhibit[-1].start() > 0:
            start, raw = start + exhibit[-1].end(), raw[exhibit[-1].end() :]
        # ("DocuSign Envelope ID: A20E6B39-1EBA-4D60-A113-6BFC6CD55D94 FIRST AMENDMENT TO ...": a
        # signing service's envelope id run into the heading is page furniture; a title has no id.)
        envelope = list(_ENVELOPE_ID.finditer(raw))
        if envelope:
            start, raw = start + envelope[-1].end(), raw[envelope[-1].end() :]
        # "PLEASE READ THIS SOFTWARE LICENSE AGREEMENT"
        this = max(raw.rfind("THIS "), raw.rfind("This "))
        if this > 0:
            start, raw = start + this, raw[this:]
        # "... AND THE PROVINCES LISTED ON THE SIGNATURE PAGES ATTACHED HERETO COMPREHENSIVE
        # AGREEMENT": a cover page's party list run into the title on one caps line. Its words
        # ("HERETO", "BETWEEN") are never inside a title, so the title starts after the last one.
        if rank <= 1:
            # ("... QUORRA BANK, HARBOUR BRANCH ACTING AS AGENT TERM FACILITY AGREEMENT": a party's role on a
            # cover page, "AS AGENT", ends its entry of the list as well.)
            party_list = list(_PARTY_LIST_WORD.finditer(raw)) + list(_cover_role_in_run().finditer(raw))
            # ("... TREATMENT HAS BEEN REQUESTED WITH RESPECT TO THE OMITTED PORTION SUPPLY
            # AGREEMENT": a confidential-treatment legend run into the heading ends there too.)
            party_list += list(_title_legend_word().finditer(raw))
            # ("... HAS BEEN FILED WITH THE SECURITIES\nAND\nEXCHANGE COMMISSION\nDISTRIBUTORSHIP\n
            # AGREEMENT": the legend's last words, the body it is filed with.)
            party_list += list(_LEGEND_BODY.finditer(raw))
            # ("... AGREEMENT OF INNALOGIC EXECUTION COPY AMENDED AND RESTATED ... AGREEMENT": a
            # copy's label run into the line ends what the filer's caption wrote before it.)
            party_list += list(_COPY_LABEL.finditer(raw))
            party_list.sort(key=lambda m: m.end())
            if party_list:
                start, raw = start + party_list[-1].end(), raw[party_list[-1].end() :]
                # ("(REDACTED) SUPPLY AGREEMENT": the bracket that closed the legend's word is
                # the legend's too.)
                closing = re.match(r"[)\]][ \t]*", raw)
                if closing is not None:
                    start, raw = start + closing.end(), raw[closing.end() :]
            # ("... (NO.7) PLC AND CITICORP TRUSTEE COMPANY LIMITED AND HOMELOAN MANAGEMENT LIMITED
            # SUBSTITUTE ADMINISTRATOR AGREEMENT": a cover's names joined by AND, each closed by its
            # legal form, run into the title; the title starts after the last name's form.)
            listed = _joined_names_end(raw)
            if listed:
                start, raw = start + listed, raw[listed:]
        # ("..., entered into at Palo Alto, California, U.S.A SAGENT KK NON-EXCLUSIVE ... AGREEMENT":
        # a country closing a place written before the run is the place's, not a title word.)
        country = re.match(r"(\S+)[ \t]+", raw)
        if country is not None and head[:start].rstrip(" \t").endswith(",") and normalise_jurisdiction(country.group(1).rstrip(".,")):
            start, raw = start + country.end(), raw[country.end() :]
        # ('THIS SECOND AMENDMENT (this "Second Amendment") TO AGREEMENT between ...': a run opened
        # by a joining word is the tail of a sentence, no title.)
        if raw.split() and raw.split()[0].casefold() in _JOINING_OPENERS:
            return
        line_start = head.rfind("\n", 0, start) + 1
        line_end = head.find("\n", start)
        # "EX-10.2 3 exhibit102.htm SERVICE AGREEMENT": an EDGAR document header on a line of its
        # own is the filer's label for the exhibit, page furniture above the contract's heading.
        # (A line running past the end of ``head`` may be a long one: it is kept.)
        edgar = EDGAR_HEADER.match(head, line_start)
        if edgar and line_end != -1 and line_end - line_start <= EDGAR_HEADER_CHARS:
            return
        # In a filing run into one line, the words right after the header's file name are the
        # filer's description of the exhibit ("dex104.txt CONSULTANCY AGREEMENT EXHIBIT
        # 10.4 ..."), typed apart from the document: its own heading comes after.
        if edgar and not head[edgar.end() : start].strip() and not re.match(r"(?:EXHIBIT|Exhibit)\b", raw):
            return
        # "19.   ENTIRE AGREEMENT, GOVERNING LAW", "(a) FOX ASSIGNMENT OF AGREEMENT:": a clause
        # number or label before it on its line makes a run a section heading, not a title.
        if _CLAUSE_LABEL.fullmatch(head, head.rfind("\n", 0, start) + 1, start):
            return
        qualifier = _TRAILING_QUALIFIER.match(head, start + len(raw))
        # "(1) Quill Limited": a numbered party list's first marker, not a qualifier of the title.
        if qualifier and re.fullmatch(r"[ \t]*\([0-9]\)", qualifier.group()):
            qualifier = None
        if qualifier and rank <= 1:
            raw = head[start : qualifier.end()]
        # "Received by Records Unit 03/02/2020 4:15:07 PM CONSULTING AGREEMENT": a filing stamp's clock time
        # ends in AM/PM, no word of the title after it.
        for clock in _CLOCK_TIME.finditer(head, max(line_start, start - 12), start + len(raw)):
            if start < clock.end() < start + len(raw):
                start, raw = clock.end(), raw[clock.end() - start :]
        # ("... OF THE OVERSEAS PRIVATE INVESTMENT CORPORATION ("OPIC") ARE SET FORTH IN AN OPTION
        # AGREEMENT, DATED ...": a legend's caps sentence that cites another document names no
        # title of this one.)
        if rank <= 1 and _CAPS_CITING.search(raw):
            return
        if rank == 1 and _CITING_LEAD.search(head, max(line_start, start - 40), start) and amendment_of(raw) is None:
            # "Pursuant to the terms of the BLOCK SHARE TRANSFER AGREEMENT": a caps run that
            # prose before it on its line cites is another document, whatever its case.
            return
        if rank >= 2:
            # "of the Master Services Agreement": a run in prose starts at its first capital, and
            # one the words before it say is another document ("... made a part of the Master
            # Services Agreement") is no title of this one.
            lead = re.match(r"(?:[a-z]+[ \t]+)+", raw)
            if lead is not None:
                start, raw = start + lead.end(), raw[lead.end() :]
            if _names_another_document(head, start) and amendment_of(raw) is None:
                return
            # "(2) IVO PELL Service Agreement": a run of capitals before a title in title case is
            # a name set in capitals (a cover's party entry, a letterhead), not a title word.
            shouted = re.match(r"(?:[A-Z][A-Z'’\-]+[ \t]+){2,}(?=[A-Z][a-z])", raw)
            if shouted is not None:
                start, raw = start + shouted.end(), raw[shouted.end() :]
        if re.match(r"(?:19|20)[0-9]{2}[ \t]+[A-Z]", raw.strip()) and not head[head.rfind("\n", 0, start) + 1 : start].strip():
            # "2019 SALES AGENCY AGREEMENT" opening its line: the year is part of the title, not a
            # page number.
            title, dropped = raw.strip(), 0
        else:
            title, dropped = _strip_noise(raw.strip())
            article = re.match(r"(?:THE|The)[ \t]+", raw.strip())
            if (
                article is not None
                and dropped == article.end()
                and rank <= 1
                and _heading_words(title)
                and not head[line_start:start].strip()
            ):
                # "THE HARBOR POINT SUPPLY AGREEMENT" opening its heading line: the article is
                # written as part of the heading, and the heading as written is the title (the
                # title without it is a ``heading`` alias, ``title_aliases``).
                title, dropped = raw.strip(), 0
        # "Net Sales 3 1.5 Territory 4 1.6 Supply Agreement": a page number followed by the next
        # section number is a contents page run into one line; its entries are no title.
        if _CONTENTS_ENTRIES.search(raw):
            return
        # "Jiangsu Telecom Contract No.: JS120": a reference number's label, not a title.
        if _NUMBER_LABEL.match(head, start + len(raw)):
            return
        words = title.split()
        # A title that opens with the agreement word carries its subject after it ("AGREEMENT
        # FOR THE SALE AND PURCHASE OF THE ENTIRE ISSUED SHARE CAPITAL OF ACME LIMITED").
        most = _LEADING_TITLE_WORDS if re.match(r"(?:AGREEMENT|CONTRACT)[ \t]+(?:FOR|OF)\b", title) else 14
        # (Two amendments' titles joined are read as long as two titles.)
        most = 2 * most if _AMENDMENTS_AND.fullmatch(title) else most
        if len(words) < 2 or len(words) > most:
            return
        begin = start + (len(raw) - len(raw.lstrip())) + dropped
        end = begin + len(title)
        if spread:
            laid_out = re.compile(r"\s+".join(re.escape(w) for w in words)).search(head, start)
            if laid_out is not None:
                begin, end = laid_out.span()
        found.append((rank, begin, Title(title, begin, end)))

    for start, end in _split_caps_headings(head, after):
        add(0, start, " ".join(head[start:end].split()), spread=True)
    line_start = 0
    headings = 0
    for line in head.split("\n"):
        # ("|Hosting Agreement |": a table's cell bars around a heading are layout, not words.)
        stripped = line.strip().strip("|").strip()
        # ("RETAINER CONTRACT FOR IT PROFESSIONAL SERVICES [WEX HEALTH INC - CONTRACT # 37671]": a
        # bracketed remark closing a heading line is the filer's note, no word of the heading.)
        stripped = _TRAILING_REMARK.sub("", stripped) or stripped
        # "RE: SEPARATION AGREEMENT AND GENERAL RELEASE": a heading line (or a letter's subject
        # line) that goes on after the agreement word with "AND" and a few more title words is
        # one title.
        subject = _SUBJECT_LABEL.match(stripped)
        tail = _AGREEMENT_AND_TAIL.fullmatch(stripped, subject.end() if subject else 0)
        if tail is not None and not _NOT_HEADING_WORDS & set(tail.group().casefold().split()):
            add(0, line_start + line.index(stripped) + tail.start(), tail.group())
        amendments = _AMENDMENTS_AND.fullmatch(stripped, subject.end() if subject else 0)
        if amendments is not None:
            add(0, line_start + line.index(stripped) + amendments.start(), amendments.group())
        # "Maintenance and support contract            for SICAP(R) modules": a heading in the
        # first column of a laid-out line.
        column = re.split(r"[ \t]{4,}", stripped, maxsplit=1)[0]
        if column != stripped and headings < _HEADING_LINES and _HEADING_TITLE.fullmatch(column) and not (
            _NOT_HEADING_WORDS & set(column.casefold().split())
        ):
            add(1, line_start + line.index(column), column)
        if (
            stripped
            and _SUBJECT_AFTER_AGREEMENT.fullmatch(stripped)
            and _heading_words(stripped)
            and not _ends_in_legal_form(stripped)
        ):
            # "Cooperation Agreement on Wireless Network Coverage ...": the whole heading line is
            # the title (the part up to the agreement word becomes an alias, ``title_aliases``).
            add(0 if stripped.isupper() else 1, line_start + line.index(stripped), stripped)
        # ("FRAMEWORK AGREEMENT FOR FINANCIAL COOPERATION BETWEEN THE REPUBLIC OF ... AND ...": the
        # heading line names its parties after its subject; the title ends before them.)
        listed = _BEFORE_PARTY_LIST.match(stripped) if stripped else None
        if (
            listed is not None
            and _SUBJECT_AFTER_AGREEMENT.fullmatch(listed.group(1))
            and _heading_words(listed.group(1))
            and not _ends_in_legal_form(listed.group(1))
        ):
            add(0 if listed.group(1).isupper() else 1, line_start + line.index(stripped), listed.group(1))
        if stripped and _CAPS_TITLE.fullmatch(stripped):
            add(0, line_start + line.index(stripped), stripped)
        elif (
            stripped
            and _LEADING_AGREEMENT.fullmatch(stripped)
            and not _LEADING_AGREEMENT_PROSE & set(stripped.casefold().split())
            and (stripped.isupper() or headings < _HEADING_LINES)
        ):
            # "AGREEMENT AND PLAN OF MERGER": a caps line anywhere in the opening, a title-case
            # one among the first lines.
            add(0 if stripped.isupper() else 1, line_start + line.index(stripped), stripped)
        elif stripped and stripped.isupper() and (dashed := _DASH_QUALIFIER.fullmatch(stripped)) and (
            _LEADING_AGREEMENT.fullmatch(dashed.group(1))
            and not _LEADING_AGREEMENT_PROSE & set(dashed.group(1).casefold().split())
        ):
            # "CONTRACT FOR THE SALE OF LAND - 2000 EDITION": a form's edition or version after a
            # dash is no part of the title.
            add(0, line_start + line.index(stripped), dashed.group(1))
        elif (
            stripped
            and headings < _HEADING_LINES
            and not stripped.isupper()
            and (subtitled := _DASH_SUBTITLE.fullmatch(stripped))
            and _HEADING_TITLE.fullmatch(subtitled.group(1))
            and not _NOT_HEADING_WORDS & set(subtitled.group(1).casefold().split())
            and _subtitle(subtitled.group(2))
        ):
            # "Branded Reseller Agreement - Analytics Suite Specific" alone on one of the first
            # lines: the subtitle after the dash is part of the heading. In title case only: CUAD
            # names a caps heading with a dash qualifier without it.
            add(1, line_start + line.index(stripped), stripped)
        elif (
            stripped
            and headings < _HEADING_LINES
            and (_TERMS_HEADING.fullmatch(stripped) or _HEADING_TITLE.fullmatch(stripped))
            and not _NOT_HEADING_WORDS & set(stripped.casefold().split())
        ):
            # "Maintenance and support contract" or "... General Terms and Conditions" alone on
            # one of the first lines: a heading.
            add(1, line_start + line.index(stripped), stripped)
        # (Page furniture and a filing's label line take no place among the heading lines.)
        if stripped and _strip_noise(stripped)[0].strip(" ().:-") and not _filing_label_line(stripped):
            headings += 1
        line_start += len(line) + 1
    for match in _CAPS_TITLE.finditer(head):
        add(1, match.start(1), match.group(1))
    for match in _INLINE_LEADING_AGREEMENT.finditer(head):
        add(1, match.start(1), match.group(1))
    for match in _INLINE_AGREEMENT_AND_TAIL.finditer(head):
        add(1, match.start(1), match.group(1))
    for match in _MIXED_TITLE.finditer(head):
        add(2, match.start(1), match.group(1))
    for match in _THIS_TITLE.finditer(head):
        add(3, match.start(1), match.group(1))
    return found


def _subtitle(rest: str) -> bool:
    """Whether the words after a heading's dash narrow the title ("Analytics Suite Specific",
    "CLOUD HOSTING"): one to six capitalised words (connectors allowed), no digit (a form's
    edition or a page number: "- 2000 EDITION", "- Page 1"), no page furniture ("- CONFIDENTIAL"),
    no edition word (``title_edition_words``), no party list ("- and -") and no company name."""
    words = rest.split()
    if not _SUBTITLE_WORDS[0] <= len(words) <= _SUBTITLE_WORDS[1] or re.search(r"[0-9(),;:\[\]\"“”]", rest):
        return False
    if not words[0][:1].isupper() or not _all_capitalised(rest) or _strip_noise(rest)[1] or _ends_in_legal_form(rest):
        return False
    folded = {w.casefold() for w in words}
    return not (folded & _NOT_HEADING_WORDS or folded & _edition_words() or "and" == words[0].casefold())


@lru_cache(maxsize=1)
def _edition_words() -> frozenset[str]:
    return frozenset(load_json("agreement_kinds.json")["title_edition_words"])


# A caps heading split over lines: "MASTER SERVICES\nAGREEMENT", "EXCLUSIVE DISTRIBUTION AND\nSUPPLY
# AGREEMENT", "LICENSE, DEVELOPMENT\nAND COMMERCIALIZATION AGREEMENT". Joined only where one line
# cannot stand alone: the last line is the agreement word alone or starts with a joining word,
# or the line before it ends with one (or with a comma, "&" or "-").
_CAPS_LINE = re.compile(rf"(?:{_CAPS_WORD}[ \t]{{1,3}}){{0,10}}{_CAPS_WORD}")
# ("INFOMERCIAL PRODUCTION\nAND\nPRODUCT MANAGEMENT AGREEMENT": the joining word may fill its line.)
_JOINING_START = re.compile(r"(?:AND|OF|FOR|TO|ON|IN|&)(?:[ \t]|$)")
# "AMENDED AND RESTATED" / "FORM OF" above the rest of the heading cannot stand alone either.
_JOINING_END = re.compile(r"(?:(?:^|[ \t])(?:AND|OF|FOR|TO|ON|IN|THE)|(?:^|[ \t])RESTATED|,|&|-)$")
_SPLIT_HEADING_LINES = 3
# What opens a caps line that goes on from the agreement word alone on the line above.
_BARE_CONTINUATION = re.compile(r"(?:AND|FOR|OF|ON|IN[ \t]+RELATION[ \t]+TO|IN[ \t]+RESPECT[ \t]+OF|WITH[ \t]+RESPECT[ \t]+TO)(?:[ \t]|$)")
# An indefinite article ending a line ("... OF A"): only inside a title that opens with the
# agreement word, where no letter label ("EXHIBIT A") can stand at the end of the line.
_ARTICLE_END = re.compile(r"[ \t](?:A|AN)$")


# The same in title case, among the first lines only (title-case lines further down are prose
# more often than headings): "Master Software License and\nServices Agreement".
_TITLE_CASE_LINE = re.compile(r"[A-Z][\w&'’\-/]*(?:[ \t]{1,3}(?:[A-Z][\w&'’\-/.]*,?|and|of|for|the|to|on|in|&|-))*,?")
_TITLE_CASE_JOINING_START = re.compile(r"(?:and|of|for|to|on|in|&)[ \t]")
_TITLE_CASE_JOINING_END = re.compile(r"(?:[ \t](?:and|of|for|to|on|in|the)|,|&|-)$")
_TITLE_CASE_SPLIT_LINES = 8


def _split_caps_headings(head: str, after: str = "") -> list[tuple[int, int]]:
    """Spans of caps headings written over 2-3 consecutive lines (blank lines between allowed),
    ending in AGREEMENT or CONTRACT, where a line break splits the heading (see above); and of
    title-case headings so split, ending in Agreement or Contract, among the first
    ``_TITLE_CASE_SPLIT_LINES`` non-empty lines."""
    lines = [(m.start() + len(m.group()) - len(m.group().lstrip()), m.group().strip()) for m in re.finditer(r"[^\n]+", head)]
    lines = [(start, line) for start, line in lines if line]
    found: list[tuple[int, int]] = []
    for index, (start, line) in enumerate(lines):
        if re.search(r"(?:AGREEMENT|CONTRACT)$", line) and _CAPS_LINE.fullmatch(line):
            line_shape, joining_start, joining_end, words = _CAPS_LINE, _JOINING_START, _JOINING_END, ("AGREEMENT", "CONTRACT")
        elif (
            index < _TITLE_CASE_SPLIT_LINES
            and re.search(r"(?:Agreement|Contract)$", line)
            and _TITLE_CASE_LINE.fullmatch(line)
            and not line.isupper()
        ):
            line_shape, joining_start, joining_end, words = (
                _TITLE_CASE_LINE, _TITLE_CASE_JOINING_START, _TITLE_CASE_JOINING_END, ("Agreement", "Contract"),
            )
        else:
            continue
        first = index
        while first > 0 and index - first + 1 < _SPLIT_HEADING_LINES:
            previous_start, previous = lines[first - 1]
            joined_here = joining_start.match(lines[first][1]) or lines[first][1] in words
            # "INTELLECTUAL PROPERTY\nCROSS-LICENSE AND\nTECHNOLOGY TRANSFER AGREEMENT",
            # "MASTER\nFRANCHISE\nAGREEMENT": a line right above a heading already split over
            # lines (no blank line between) continues it, unless it is page furniture or a name.
            tight = (
                first < index
                and head.count("\n", previous_start + len(previous), lines[first][0]) == 1
                and _strip_noise(previous)[1] == 0
                and not _ends_in_legal_form(previous)
            )
            # (A line above that ends in the agreement word is a whole heading of its own: a cover's
            # "X AGREEMENT" over the same heading broken over lines. A letter's salutation above
            # its subject heading, "DEAR XXXXX,", is no part of it.)
            if re.search(r"(?:AGREEMENT|CONTRACT|Agreement|Contract)$", previous) or opens_with_salutation(previous):
                break
            if not line_shape.fullmatch(previous) or not (
                joined_here or joining_end.search(previous) or tight or _centred_together(head, after, previous_start, previous, lines[first])
                # ("SECOND\nAMENDMENT TO MINERAL RIGHT OPTION AGREEMENT": an ordinal alone above
                # an amendment word.)
                or _ordinal_over_amendment(previous, lines[first][1])
                # ("MASTER\nDISTRIBUTION AGREEMENT": a title's opening word alone right above;
                # "EXCLUSIVE WORLD WIDE\nDISTRIBUTION AGREEMENT": or a few, each such a word.)
                or (
                    first == index
                    and len(previous.split()) <= _OPENING_LINE_WORDS
                    and set(previous.casefold().split()) <= _title_opening_words()
                    and head.count("\n", previous_start + len(previous), lines[first][0]) == 1
                )
                or (first == index and _opening_block(head, after, lines, first - 1, lines[first]))
            ):
                break
            first -= 1
        if first < index:
            found.append((lines[first][0], start + len(line)))
    # "AGREEMENT\nFOR THE PROVISION OF CONSULTING SERVICES": the agreement word alone, continued
    # by a caps line that starts with a joining word (never "BETWEEN": that opens the party list).
    # "AGREEMENT\nIN RELATION TO\nTHE SUPPLY OF GOODS": the joining words may fill a line of
    # their own (or end it), and the next caps line goes on with the title; at most
    # ``_SPLIT_HEADING_LINES`` lines, never into a party list or a date.
    for index, (start, line) in enumerate(lines[:-1]):
        next_start, next_line = lines[index + 1]
        if not (line in ("AGREEMENT", "CONTRACT") and _CAPS_LINE.fullmatch(next_line) and _BARE_CONTINUATION.match(next_line)):
            continue
        last = index + 1
        while last + 1 < len(lines) and last - index + 1 < _SPLIT_HEADING_LINES and (
            _JOINING_END.search(lines[last][1]) or _BARE_CONTINUATION.fullmatch(lines[last][1])
        ):
            following = lines[last + 1][1]
            if not _CAPS_LINE.fullmatch(following) or _party_list_or_date(following):
                break
            last += 1
        end = lines[last][0] + len(lines[last][1])
        if _LEADING_AGREEMENT.fullmatch(" ".join(head[start:end].split())):
            found.append((start, end))
    # "AGREEMENT FOR THE SALE AND PURCHASE OF THE\nENTIRE ISSUED SHARE CAPITAL OF ACME\nLIMITED":
    # a caps title that opens with the agreement word goes on over the lines right under it (no
    # blank line between) while its line ends in a joining word, or the next line ends a
    # company's name it has begun (a legal form alone). Never into a party list or a date.
    for index, (start, line) in enumerate(lines):
        if not (line.isupper() and _LEADING_AGREEMENT.fullmatch(line) and re.match(r"(?:AGREEMENT|CONTRACT)[ \t]", line)):
            continue
        end, last = start + len(line), index
        while last + 1 < len(lines) and last - index + 1 < _SPLIT_HEADING_LINES:
            next_start, next_line = lines[last + 1]
            # (One blank line may stand between: the line must still end in a joining word, "...
            # OF THE", or the next end the company's name it began, below.)
            if head.count("\n", end, next_start) not in (1, 2) or not _CAPS_LINE.fullmatch(next_line):
                break
            if _party_list_or_date(next_line):
                break
            joined = " ".join(head[start : next_start + len(next_line)].split())
            # ("... SALE OF AN\nINDUSTRIAL BAKERY BUSINESS": an article ending the line
            # cannot end a title that opens with the agreement word, so the next line goes on.)
            # ("AGREEMENT REGARDING THE JOINT FILING\nOF SCHEDULE 13D": or the next line opens
            # with one.)
            ends_joining = (
                _JOINING_END.search(lines[last][1]) or _ARTICLE_END.search(lines[last][1]) or _JOINING_START.match(next_line)
            )
            if not (ends_joining or _ends_in_legal_form(joined) and len(next_line.split()) <= 2):
                break
            end, last = next_start + len(next_line), last + 1
        if last > index:
            found.append((start, end))
    return found


# A centred heading block: its lines are indented (at least this many columns) so that their
# middles meet, within this many columns.
_CENTRED_INDENT = 4
_CENTRED_SLACK = 1.5
_CENTRED_WORDS = (2, 3)
_LETTERHEAD_CHARS = 600


def _centred_together(head: str, after: str, previous_start: int, previous: str, line: tuple[int, str]) -> bool:
    """"INFORMATION TECHNOLOGY" centred over "OUTSOURCING SERVICES AGREEMENT", a blank line
    between: one heading laid out over lines, shown by its layout (both lines indented to one
    middle) when no joining word shows it. The line above has two or three words, no agreement
    word, no page furniture and no company name; at most one blank line between."""
    start, text = line
    if head.count("\n", previous_start + len(previous), start) > 2:
        return False
    words = previous.split()
    if not _CENTRED_WORDS[0] <= len(words) <= _CENTRED_WORDS[1] or _AGREEMENT_WORD.search(previous):
        return False
    if re.search(r"[0-9:;]", previous) or _strip_noise(previous)[1] or _ends_in_legal_form(previous):
        return False
    if _named_again(head, after, words, line):
        return False
    middles = []
    for offset, shown in ((previous_start, previous), (start, text)):
        indent = offset - (head.rfind("\n", 0, offset) + 1)
        if indent < _CENTRED_INDENT or head[offset - indent : offset].strip():
            return False
        middles.append(indent + len(shown) / 2)
    return abs(middles[0] - middles[1]) <= _CENTRED_SLACK


def _named_again(head: str, after: str, words: list[str], line: tuple[int, str]) -> bool:
    """A letterhead ("ZARVIX LABS" over "SUPPLY AGREEMENT") is named again right after, in the
    party clause, without the heading's next word: a name, not the first half of the title."""
    start, text = line
    again = re.compile(r"(?<![\w\-])" + r"\s+".join(re.escape(w) for w in words) + r"(?![\w\-])\s*(\S*)", re.IGNORECASE)
    first_word = text.split()[0].casefold()
    # (``after``: the text past ``head``, where the party clause often is.)
    for found in again.finditer((head + after)[start + len(text) : start + len(text) + _LETTERHEAD_CHARS]):
        if found.group(1).casefold() != first_word:
            return True
    return False


# An attachment's label on a line of its own: "SCHEDULE A", "Annex 3", "EXHIBIT 10.2".
_ATTACHMENT_LABEL = re.compile(
    r"(?:SCHEDULE|Schedule|EXHIBIT|Exhibit|ANNEX|Annex|APPENDIX|Appendix|ATTACHMENT|Attachment)[ \t]+[A-Z0-9][\w.\-]{0,8}"
)
# The words of a descriptor line opening a cover above its agreement heading (see ``_opening_block``).
_OPENING_BLOCK_WORDS = (2, 6)


def _opening_block(head: str, after: str, lines: list[tuple[int, str]], above: int, line: tuple[int, str]) -> bool:
    """"Zentora Smart Freight Platform" over "Cooperation Agreement" (a blank line between) as the
    first words of a cover: a product or programme the heading is named for, one title over two
    lines. Only where the line above is the first line of words (page furniture such as
    "Exhibit 4.5" or an EDGAR header before it) and the heading line is the agreement title
    itself; the line above has two to six words, no agreement word, no digits, no company name,
    and is not named again as a party (``_named_again``). A first line that names the parties'
    company is named again in the party clause."""
    previous_start, previous = lines[above]
    if head.count("\n", previous_start + len(previous), line[0]) > 2 or previous.isupper():
        # (In capitals the line above is as often a letterhead, "QUORVANT SYSTEMS", that the
        # party clause never repeats: caps lines join by layout only, ``_centred_together``.)
        return False
    words = previous.split()
    if not _OPENING_BLOCK_WORDS[0] <= len(words) <= _OPENING_BLOCK_WORDS[1] or _AGREEMENT_WORD.search(previous):
        return False
    if re.search(r"[0-9:;,()\[\]]", previous) or _strip_noise(previous)[1] or _ends_in_legal_form(previous):
        return False
    if _PARTY_LIST_WORD.search(previous.upper()) or _NOT_HEADING_WORDS & {w.casefold() for w in words}:
        return False
    folded = {w.casefold() for w in words}
    if _ATTACHMENT_LABEL.fullmatch(previous) or folded & _edition_words() or folded & set(lexicons().title_prefix_noise):
        # "SCHEDULE A", "Conformed Copy", "Halcyon Systems Confidential" over the heading: a
        # label or page furniture.
        return False
    for _, earlier in lines[:above]:
        if not (_filing_label_line(earlier) or _ATTACHMENT_LABEL.fullmatch(earlier) or not _strip_noise(earlier)[0].strip(" ().:-")):
            return False
    return not _named_again(head, after, words, line)


_JOINED_NAME_MOST_WORDS = 8


def _joined_names_end(run: str) -> int:
    """Where a caps run's list of names ends: names joined by "AND", the one before each "AND"
    and the last one closed by a legal form ("PLC AND ACME TRUSTEE COMPANY LIMITED AND ...").
    0 when the run opens with no such list, or when too little (under two words) would be left
    for the title after it."""
    end = 0
    for joined in re.finditer(r"[ \t]+AND[ \t]+", run):
        if joined.start() < end or not _ends_in_legal_form(run[: joined.start()]):
            continue
        rest = run[joined.end() :]
        words = list(re.finditer(r"\S+", rest))[:_JOINED_NAME_MOST_WORDS]
        closed = next((i for i, word in enumerate(words) if i > 0 and _ends_in_legal_form(rest[: word.end()])), None)
        if closed is None:
            continue
        # ("ACME TRUSTEE COMPANY LIMITED": the longest run of forms closes the name.)
        while closed + 1 < len(words) and _ends_in_legal_form(rest[: words[closed + 1].end()]):
            closed += 1
        end = joined.end() + words[closed].end()
    if end and len(run[end:].split()) < 2:
        return 0
    return end + len(run[end:]) - len(run[end:].lstrip(" \t")) if end else 0


def _ends_in_legal_form(line: str) -> bool:
    """Whether a line ends in a company's legal form ("NORTHWIND TECHNOLOGIES CORP."): a name, not
    part of a title."""
    words = tuple(name_words(line))
    return any(len(words) > len(suffix) and words[-len(suffix) :] == suffix for suffix in lexicons().strippable_suffixes)


def _ordinal_over_amendment(previous: str, line: str) -> bool:
    """Whether ``previous`` is an ordinal alone ("SECOND") and ``line`` opens with an amendment
    word ("AMENDMENT TO ..."): one heading over two lines."""
    ordinals, amendment_words = _ordinals_and_amendment_words()
    words = line.split()
    return previous.casefold() in ordinals and bool(words) and words[0].casefold() in amendment_words


# How many title-opening words a line right above a heading may hold.
_OPENING_LINE_WORDS = 3


@lru_cache(maxsize=1)
def _title_opening_words() -> frozenset[str]:
    return frozenset(load_json("agreement_kinds.json")["title_opening_words"])


def opens_titles(words: str) -> bool:
    """Whether every word of ``words`` is one that opens titles ("MASTER", "EXCLUSIVE"), so a
    party named by them alone cannot be told from the title's own words."""
    folded = words.casefold().split()
    return bool(folded) and set(folded) <= _title_opening_words()


@lru_cache(maxsize=1)
def _ordinals_and_amendment_words() -> tuple[frozenset[str], frozenset[str]]:
    """``ordinals`` and the one-word ``amendment_words`` of agreement_kinds.json."""
    data = load_json("agreement_kinds.json")
    return frozenset(data["ordinals"]), frozenset(w for w in data["amendment_words"] if " " not in w)


@lru_cache(maxsize=1)
def _title_legend_word() -> re.Pattern[str]:
    """A word of a confidential-treatment legend (``title_legend_words``), in capitals."""
    words = "|".join(re.escape(w.upper()) for w in sorted(load_json("agreement_kinds.json")["title_legend_words"]))
    return re.compile(rf"\b(?:{words})\b[ \t]*")


@lru_cache(maxsize=1)
def _cover_role_in_run() -> re.Pattern[str]:
    """A party's role on a cover page run into a caps line: "AS BORROWER", "AS AGENT" (a role of
    ``party_roles``, in capitals, plural or not)."""
    roles = "|".join(re.escape(r.upper()) for r in sorted(lexicons().party_roles, key=len, reverse=True))
    return re.compile(rf"\bAS[ \t]+(?:{roles})S?\b[ \t]*")


# A clock time in a filing stamp: "4:15:07 PM".
_CLOCK_TIME = re.compile(r"\b[0-9]{1,2}:[0-9]{2}(?::[0-9]{2})?[ \t]+(?:AM|PM)\b[ \t]*")
# Prose citing a document right before its name: "provisions of the", "pursuant to that".
_CAPS_CITING = re.compile(
    r"\b(?:ARE|IS)[ \t]+(?:SET[ \t]+FORTH|DESCRIBED|CONTAINED|PROVIDED|DEFINED|REFERRED[ \t]+TO)[ \t]+IN[ \t]+"
    r"(?:AN?|THE|THAT[ \t]+CERTAIN)[ \t]+"
    # ("..., WHICH SHOULD BE REVIEWED IN CONNECTION WITH THE AGREEMENT": a relative clause.)
    r"|\bWHICH[ \t]+(?:SHOULD|SHALL|MUST|MAY|IS|ARE|WAS|WERE)[ \t]+"
)
_TRAILING_REMARK = re.compile(r"[ \t]*\[[^\[\]\n]{1,80}\][ \t]*\Z")
_CITING_LEAD = re.compile(r"\b[a-z]+[ \t]+(?:to|of|under|with|that|certain|said|such)[ \t]+(?:the[ \t]+)?$")
# The body a confidential-treatment legend says the omitted text is filed with.
_LEGEND_BODY = re.compile(r"\b(?:EXCHANGE|THE)[ \t\n]+COMMISSION\b[ \t\n]*")
# A copy's label ("EXECUTION COPY", "CONFORMED VERSION").
_COPY_LABEL = re.compile(r"\b(?:EXECUTION|CONFORMED)[ \t]+(?:COPY|VERSION)\b[ \t\n]*")
# Words of a party list that are never inside a title (see ``_candidates``).
_PARTY_LIST_WORD = re.compile(r"\b(?:HERETO|HEREOF|THERETO|BETWEEN|AMONG|AMONGST)\b[ \t]*")
_BY_OR_DATED = re.compile(r"\b(?:BY|DATED)\b")


def _party_list_or_date(words: str) -> bool:
    """Whether caps words that might continue a heading open its party list or its date ("BETWEEN
    ...", "BY AND AMONG", "DATED ..."): then they are no part of the title."""
    return _PARTY_LIST_WORD.search(words) is not None or _BY_OR_DATED.search(words) is not None
# A compiled filing's source line: "Source: ACME CORP, 10-K, 3/1/2019".
_SOURCE_LINE = re.compile(r"Source:[ \t]+\S")


# A compiled filing's header above the document (full-text copies of EDGAR exhibits): the filer's
# name on the first line, then its form line ("10-K, EX-10.4, 2001-03-02", "S-1, EX-10.2,
# 1999-05-11": form, exhibit, filing date), then the filer's industry in capitals and the links to
# the neighbouring filings ("Previous: ACME CORP, 8-K, 2000-08-21", "Next: ..."). Only near the top.
_FILING_FORM_LINE = re.compile(
    r"(?m)^[ \t]*[0-9A-Z][\w/\- ]{0,15},[ \t]+EX-[0-9][\w.()\-]*,[ \t]+(?:19|20)[0-9]{2}-[0-9]{2}-[0-9]{2}[ \t]*$"
)
_FILING_LINK_LINE = re.compile(r"[ \t]*(?:Previous|Next)[ \t]*:[ \t]*\S")
_FILING_HEADER_CHARS = 300
_FILING_HEADER_LINES = 4


def filing_header_end(text: str) -> int:
    """Where a compiled filing's header ends (its last line's end), 0 when the text opens without
    one. The header is the filing's metadata, not the contract's words: its filer may be the
    parent of a party, and the neighbouring filings' filers are strangers. Bounded: the form line
    is looked for in the first ``_FILING_HEADER_CHARS`` characters, and at most
    ``_FILING_HEADER_LINES`` lines after it (the industry, the two links) join it."""
    form = _FILING_FORM_LINE.search(text, 0, min(len(text), _FILING_HEADER_CHARS))
    if form is None:
        return 0
    end = form.end()
    for index in range(_FILING_HEADER_LINES):
        if end >= len(text):
            break
        line_end = text.find("\n", end + 1)
        line_end = len(text) if line_end == -1 else line_end
        line = text[end + 1 : line_end]
        # The industry comes right after the form line, in capitals ("PAPER MILLS").
        industry = index == 0 and re.search(r"[A-Z]", line) is not None and line.upper() == line
        if not (industry or _FILING_LINK_LINE.match(line)):
            break
        end = line_end
    return end


def _filing_label_line(stripped: str) -> bool:
    """A filing's own label on a line of its own, above the document: an EDGAR header
    ("EX-10.1 2 d123ex101.htm EX-10.1") or a compiled filing's source line ("Source: ACME CORP,
    10-K, 3/1/2019"). Like page furniture it takes no place among the heading lines."""
    return len(stripped) <= EDGAR_HEADER_CHARS and bool(EDGAR_HEADER.match(stripped) or _SOURCE_LINE.match(stripped))


_CLAUSE_LABEL = re.compile(r"[ \t]*(?:\(?[0-9]{1,3}(?:\.[0-9]{1,3})*[.)]|\([A-Za-z]{1,4}\)|[a-z][.)])[ \t]*")
_NUMBER_LABEL = re.compile(r"[ \t]*(?:No|NO|Number|NUMBER)\.?[ \t]*:")
# The contract's name for itself: 'THIS SERVICE AGREEMENT FOR TRANSFER AGENT SERVICES (this
# "Agreement")'. No comma, digit or line break inside, so a date or party list never joins it.
_SELF_NAME = re.compile(
    r"\b(?:THIS|This)[ \t]+([A-Z][^(),\n\"“”0-9]{0,120}?)[ \t]*\((?:this|the)[ \t]+[\"“](?:[A-Z][\w\-]*[ \t]+){0,3}(?:Agreement|Amendment|Addendum|Contract)[\"”]\)"
)


def _with_self_name(text: str, title: Title) -> Title:
    """The heading title extended to the contract's own name for itself when that name starts
    with every word of the heading and goes on ("SERVICE AGREEMENT" -> "SERVICE AGREEMENT FOR
    TRANSFER AGENT SERVICES")."""
    # ('This First Amendment to License Agreement and Asset Transfer (the "First Amendment")': a
    # title read from the preamble's own sentence is extended by that sentence.)
    this = re.search(r"(?:This|THIS)[ \t]+\Z", text[max(0, title.start - 8) : title.start])
    start = title.start - len(this.group()) if this is not None else title.end
    match = _SELF_NAME.search(text, start, min(len(text), title.end + TITLE_SCAN_CHARS))
    if match is None:
        return title
    # Compared without case: "SETTLEMENT AGREEMENT" over 'This Settlement Agreement and Mutual
    # Release (the "Agreement")' is the same heading, cut short.
    heading, own = title.text.casefold().split(), match.group(1).casefold().split()
    if len(own) > len(heading) and len(own) <= 14 and own[: len(heading)] == heading:
        return Title(match.group(1), match.start(1), match.end(1))
    return title


# "... COMPANY AGREEMENT\nOF\nHARBOR POINT HOLDINGS, LLC": "OF" and a company's name (caps, ending
# in its legal form) after a caps heading, on its line or the next two lines.
# (A filing run into one line: the name ends where the preamble's "THIS" opens, "... OF CHELSEA
# MARKET SYSTEMS, L.L.C. THIS AMENDMENT NO. 1 (the ...".)
_ENTITY_TAIL = re.compile(
    r"[ \t]*\n?[ \t]*OF[ \t]*\n?[ \t]*(?P<name>[A-Z][A-Z0-9&.,'’\- ]{2,80}?)[ \t]*(?=\n|$|[ \t]THIS[ \t])"
)


def _with_entity(text: str, title: Title) -> Title:
    """A caps agreement heading extended to the company it is the agreement *of*: "LIMITED
    LIABILITY COMPANY AGREEMENT OF HARBOR POINT HOLDINGS, LLC", "AGREEMENT OF LIMITED PARTNERSHIP
    OF ACME FUND, L.P." (the entity's own agreement is named by it). Only a name that ends in a
    legal form, so "... AGREEMENT OF SALE" stays as it is."""
    if not title.text.isupper() or not re.search(r"(?:AGREEMENT|CONTRACT)$", title.text):
        return title
    tail = _ENTITY_TAIL.match(text, title.end)
    if tail is None or not _ends_in_legal_form(tail.group("name")) or len(tail.group("name").split()) > 10:
        return title
    return Title(" ".join(text[title.start : tail.end("name")].split()), title.start, tail.end("name"))


# A contract's opening sentence without a heading: "This Agreement is made ... between", "The
# undersigned hereby agree", "... have agreed as follows". A memo or letter that merely mentions
# an agreement ("the agreement between Acme and Beta expires") has none of these.
# Civil-law and Commonwealth drafting: "is concluded on ... between", "THIS AGREEMENT made at
# Pune this 10th day of ..." (the place of signing before the date). "This Agreement, made and
# effective as of ... is by and between": the sentence's own subject is "this" agreement. An
# instrument titled without an agreement word opens the same way ("SECOND AMENDMENT TO LEASE dated
# as of ...", "This GUARANTY made this ..."), unless an article or "that certain"/"said"/"such"
# before it cites another instrument ("the Lease dated as of ..."). A charter party's form: "IT IS
# THIS DAY [date] AGREED between ...", "It is this day, 4 February 2022, mutually agreed between".
_PREAMBLE_CLAUSE = re.compile(
    r"\b(?:(?:is|are|was)[ \t]+(?:hereby[ \t]+)?(?:made|entered[ \t]+into|executed|dated|concluded)|(?:agreement|contract)[ \t]+"
    r"(?:made|dated|concluded|executed)[ \t]+(?:at[ \t]+(?-i:[A-Z][\w\-]*(?:[ \t]+[A-Z][\w\-]*)?),?[ \t]+)?(?:as[ \t]+of|on|this|for[ \t]+reference)|made[ \t]+and[ \t]+entered"
    r"[ \t]+into|entered[ \t]+into[ \t]+(?:as[ \t]+of|on|this|by)|(?:undersigned|parties)[ \t]+(?:hereto[ \t]+)?"
    r"(?:hereby[ \t]+)?(?:agree|have[ \t]+agreed|covenant)"
    r"|(?:agreement|contract),?[ \t]+made[ \t]+and[ \t]+effective[ \t]+(?:as[ \t]+of|on)"
    r"|(?<!\bthe[ \t])(?<!\bthat[ \t])(?<!certain[ \t])(?<!\bsaid[ \t])(?<!\bsuch[ \t])(?<!\bthe\n)"
    r"(?:lease|sublease|amendment|addendum|guaranty|guarantee|indenture)[ \t]+(?:made|dated|executed)[ \t]+(?:as[ \t]+of|on|this)"
    r"|it[ \t]+is[ \t]+(?:this[ \t]+day,?[ \t]+(?:[^\n]{0,40}?[ \t]+)?)?(?:hereby[ \t]+)?(?:mutually[ \t]+)?agreed[ \t]+"
    r"(?:by[ \t]+and[ \t]+)?(?:between|among)"
    r"|this[ \t]+(?:[\w\-]+[ \t]+){0,6}?(?:agreement|contract)\b[^.;:\n]{0,200}?[ \t](?:is|are)[ \t]+(?:made[ \t]+)?"
    r"(?:by[ \t]+and[ \t]+)?(?:between|among))\b",
    re.IGNORECASE,
)
PREAMBLE_CLAUSE_CHARS = 3_000


def has_agreement_preamble(text: str) -> bool:
    """Whether the opening reads like a contract's own preamble (see ``_PREAMBLE_CLAUSE``)."""
    return _PREAMBLE_CLAUSE.search(text, 0, min(len(text), PREAMBLE_CLAUSE_CHARS)) is not None


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


_RECITALS_LINE = re.compile(
    r"\n[ \t]*(?:WHEREAS|Whereas|RECITALS|Recitals|BACKGROUND|W[ \t]*I[ \t]*T[ \t]*N[ \t]*E[ \t]*S[ \t]*S[ \t]*E[ \t]*T[ \t]*H)\b"
    # (A page flattened to one line: the recitals open after the preamble's full stop.)
    r"|(?<=[.:])[ \t]+(?:WHEREAS|RECITALS|WITNESSETH)\b"
)


_SECTION_LABEL = re.compile(r"(?:ARTICLE|Article|SECTION|Section|CLAUSE|Clause)[ \t]+(?:[0-9]{1,3}|[IVXL]{1,6})\b")


# A bare number of one to three digits standing as a word, not an instrument's own number ("NO. 2",
# "Number 3", "#4"): a contents line's article or page number.
_CONTENTS_NUMBERS = re.compile(r"(?<![\w.#])(?<!No\. )(?<!NO\. )(?<!No )(?<!NO )(?<!Number )(?<!NUMBER )[0-9]{1,3}(?![\w.,/\-])")
# Three such numbers make a contents line ("AMENDMENT 3 TO SCHEDULE 2 AGREEMENT" holds two).
_CONTENTS_NUMBERS_LIMIT = 3


def _first_heading(text: str) -> Title | None:
    """The first heading-like title in the opening text: the earliest caps run ending in
    "AGREEMENT", else the earliest title-case one, else "This <X> Agreement". Nothing after the
    paragraph of the contract's preamble clause counts: a heading there opens a section
    ("ENTIRE AGREEMENT"), it does not name the contract."""
    scan_end = TITLE_SCAN_CHARS
    preamble = _PREAMBLE_CLAUSE.search(text, 0, min(len(text), TITLE_SCAN_CHARS))
    if preamble is not None:
        paragraph_end = _BLANK_LINE.search(text, preamble.end())
        if paragraph_end is not None:
            scan_end = min(scan_end, paragraph_end.start())
        # (A layout without blank lines: the recitals' first line closes the paragraph too; an
        # agreement a recital cites, 'the "Financial Services Agreement"', names another document.)
        recitals = _RECITALS_LINE.search(text, preamble.end(), scan_end)
        if recitals is not None:
            scan_end = recitals.start()
    candidates = _candidates(text[:scan_end], text[scan_end : scan_end + _LETTERHEAD_CHARS])
    candidates += _bare_word_headings(text, scan_end)
    # ('... an earlier agreement dated as of April 1, 1998 (the "Prior Agreement")': a term the
    # prose defines in its parenthesis names another document, never a heading.)
    candidates = [c for c in candidates if _DEFINED_TERM_BEFORE.search(text, max(0, c[2].start - 8), c[2].start) is None]
    # ("TABLE OF CONTENTS\nArticle 1 Scope of the Agreement\n...": a numbered article's heading
    # names a part of the contract, never the contract.)
    candidates = [c for c in candidates if _SECTION_LABEL.match(c[2].text) is None]
    # ("PREAMBLE 1 DEFINITIONS AND INTERPRETATIONS 1 2 TERM OF AGREEMENT 15": a contents page run
    # into one line, its entries and page numbers, names no contract.)
    candidates = [c for c in candidates if len(_CONTENTS_NUMBERS.findall(c[2].text)) < _CONTENTS_NUMBERS_LIMIT]
    if not candidates:
        return None
    pool = [c for c in candidates if c[0] <= 1] or [c for c in candidates if c[0] == 2] or candidates
    rank, _, title = min(pool, key=lambda c: (c[1], c[0], -len(c[2].text)))
    if rank == 2 and _PROSE_ARTICLE_BEFORE.search(text, max(0, title.start - 12), title.start):
        # "Clause 4 is deleted from the Supply Agreement ... as changed by this Variation
        # Agreement": with no heading, a run the prose cites ("the ...") names another document; the one it calls
        # "this ..." is the document's own name.
        own = [c for r, _, c in pool if r == 2 and _PROSE_THIS_BEFORE.search(text, max(0, c.start - 12), c.start)]
        if own:
            return min(own, key=lambda c: (c.start, -c.end))
    if _EXHIBIT_CAPTION.match(text, text.rfind("\n", 0, title.start) + 1):
        # "EXHIBIT B TO THE POOLING AGREEMENT" over a cover page: the caption says which
        # document this one is attached to; the cover's own heading, the one its party list
        # ("among", "BETWEEN") follows, names this document.
        cover = [c for r, _, c in pool if r == 0 and c.start > title.end and _party_list_follows(text, c.end)]
        if cover:
            return min(cover, key=lambda c: (c.start, -c.end))
    return title


# A heading's title word wrapped alone onto the next line, the line going on in prose ("AMENDED
# AND RESTATED LOAN\nAGREEMENT in respect of HK$26,000,000\nLoan Facility"): no caps run holds the
# word, so the heading is read from the word and the line above it (``_with_lines_above``, which
# joins a line only when the text repeats its words).
_BARE_TITLE_WORD_LINE = re.compile(r"(?m)^[ \t]*(AGREEMENT|CONTRACT|DEED)(?=[ \t]+[a-z]|[ \t]*$)")


def _bare_word_headings(text: str, scan_end: int) -> list[tuple[int, int, Title]]:
    found: list[tuple[int, int, Title]] = []
    for line in _BARE_TITLE_WORD_LINE.finditer(text, 0, scan_end):
        word = Title(line.group(1), line.start(1), line.end(1))
        joined = _with_lines_above(text, word)
        if joined.start < word.start:
            found.append((1, joined.start, joined))
    return found


_DEFINED_TERM_BEFORE = re.compile(r"\([ \t]*(?:the[ \t]+)?[\"“]$")
# In prose right before a title-case run: "in the ", "to the " (a citation) and "this " (the
# document's own name).
# (A clause's comma may stand before the article: "... of this letter, the Prior Agreement".)
_PROSE_ARTICLE_BEFORE = re.compile(r"\b[a-z]+,?[ \t]+the[ \t]+$")
_PROSE_THIS_BEFORE = re.compile(r"(?<![\w])this[ \t]+$")


# An exhibit's caption naming the document it is attached to: "EXHIBIT B TO THE POOLING
# AGREEMENT" (a label, its id and "TO").
_EXHIBIT_CAPTION = re.compile(
    r"[ \t]*(?:EXHIBIT|Exhibit|SCHEDULE|Schedule|ANNEX|Annex|APPENDIX|Appendix)[ \t]+[A-Z0-9][\w.\-]{0,5}[ \t]+(?:TO|to)[ \t]"
)


def _party_list_follows(text: str, end: int) -> bool:
    """Whether the first non-blank line after ``end`` (the end of a heading line) is a cover
    page's party-list line (``_COVER_PARTY_LINE``: "among", "BETWEEN", "AND")."""
    gap = re.compile(r"[ \t]*\n(?:[ \t]*\n)*").match(text, end)
    return gap is not None and _COVER_PARTY_LINE.match(text, gap.end()) is not None


def _own_heading(text: str) -> Title | None:
    """The heading that opens the contract's preamble: the last heading-like run (a caps line or
    run, or a heading line) ending at most ``_HEADING_TO_PREAMBLE_CHARS`` before the first
    preamble clause ("... is made and entered into") in the first ``2 * TITLE_SCAN_CHARS``.
    Page furniture above it ("RATE FT-A AGREEMENT BETWEEN LG&E AND ...") and the tail of
    another filing before it are not the contract's title. A run that names another agreement
    ("... to the Supply Agreement") is none, unless an amendment heading opens it ("AMENDMENT
    TO THE DISTRIBUTOR AGREEMENT")."""
    preamble = _PREAMBLE_CLAUSE.search(text, 0, min(len(text), 2 * TITLE_SCAN_CHARS))
    if preamble is None:
        return None
    floor = max(0, preamble.start() - _HEADING_TO_PREAMBLE_CHARS)
    candidates = sorted(
        _candidates(text[: preamble.start()], text[preamble.start() : preamble.start() + _LETTERHEAD_CHARS]),
        key=lambda c: (-c[2].end, c[2].start),
    )
    # ("CONTENTS\n... SCHEDULE 4 SERVICE LEVEL AGREEMENT (SLA)\n\nTHIS AGREEMENT is made": a contents
    # page's entries name parts of the contract, never the contract; a heading above it may.)
    # (Only when a heading stands above the contents page: a contents page first, "TABLE OF
    # CONTENTS ... TECHNOLOGY LICENSE AGREEMENT This Technology License Agreement ...", has the
    # contract's own heading after it.)
    contents = [m.start() for m in _CONTENTS_HEADING.finditer(text, 0, preamble.start())]
    above_contents = bool(contents) and any(rank <= 1 and c.end <= contents[-1] for rank, _, c in candidates)
    for rank, _, candidate in candidates:
        if rank > 1 or candidate.end < floor:
            continue
        if above_contents and candidate.start > contents[-1]:
            continue
        if re.search(r"(?:THIS|This)\s+$", text[max(0, candidate.start - 8) : candidate.start]):
            continue  # 'THIS SERVICE AGREEMENT FOR ... (this "Agreement") is made': the preamble itself
        # ("AGREEMENT FOR CONTRACT SERVICES BETWEEN ...": a run cut open at its joining word is a
        # piece of a heading, no heading.)
        if _OPENS_WITH_JOINER.match(candidate.text):
            continue
        extended = _with_amendment_head(text, candidate)
        if extended == candidate and _names_another_document(text, candidate.start):
            continue
        return _fuller_on_cover(text, _agreement_heading_above(text, extended, candidates), candidates)
    return None


_OPENS_WITH_JOINER = re.compile(r"(?:FOR|AND|OF|TO|WITH|BETWEEN|AMONG)\b")


def _fuller_on_cover(text: str, heading: Title, candidates: list[tuple[int, int, Title]]) -> Title:
    """A cover page above the preamble's heading that writes the same title with title-opening
    words before it ("EXCLUSIVE LICENSE AGREEMENT" on the cover, "LICENSE AGREEMENT" over "THIS
    AGREEMENT is made"): the cover's fuller title is the contract's (``title_opening_words``, and
    ``ordinals``: "THIRD LOAN AGREEMENT")."""
    words = heading.text.casefold().split()
    # (The nearest such run above: a mirror's description line may open the page.)
    for rank, _, cover in sorted(candidates, key=lambda c: (-c[2].start, c[2].end)):
        if rank > 1 or cover.end > heading.start:
            continue
        cover_words = cover.text.casefold().split()
        extra = cover_words[: len(cover_words) - len(words)]
        # ("THIRD LOAN AGREEMENT" on the cover: an ordinal numbers the contract among its kind.)
        if extra and cover_words[len(extra) :] == words and set(extra) <= _title_opening_words() | _ordinals_and_amendment_words()[0]:
            return cover
        # ("MASTER SUPPLY AGREEMENT\nFOR PURCHASE AND SALE OF ENERGY STORAGE EQUIPMENT" on the
        # cover, "MASTER SUPPLY AGREEMENT" over the preamble: the cover also writes its subject.)
        # (The subject may stand on the cover's next line: read on as a heading's line below.)
        if cover_words == words:
            cover = _with_line_below(text, cover)
            cover_words = cover.text.casefold().split()
        if (
            len(cover_words) > len(words) + 1
            and cover_words[: len(words)] == words
            and cover_words[len(words)] in _COVER_SUBJECT_WORDS
            and _SUBJECT_AFTER_AGREEMENT.fullmatch(" ".join(cover.text.split()))
        ):
            return cover
    return heading


_COVER_SUBJECT_WORDS = frozenset({"for", "of", "on", "regarding", "concerning"})


_AGREEMENT_WORD = re.compile(r"\b(?:AGREEMENT|Agreement|agreement|CONTRACT|Contract|contract)\b")


def _agreement_heading_above(text: str, heading: Title, candidates: list[tuple[int, int, Title]]) -> Title:
    """A "TERMS AND CONDITIONS" heading (no agreement word) right under an agreement heading,
    only blank space between them, is a sub-heading: "MASTER SERVICES AGREEMENT\n\nTERMS AND
    CONDITIONS" is titled by the first."""
    if _AGREEMENT_WORD.search(heading.text):
        return heading
    above = [
        c for rank, _, c in candidates
        if rank <= 1 and c.end <= heading.start and not text[c.end : heading.start].strip() and _AGREEMENT_WORD.search(c.text)
    ]
    return min(above, key=lambda c: (c.start, -c.end)) if above else heading


# An English cover: a numbered list of the parties ("(1) ACME LIMITED" / "and" / "(2) JANE
# ROE"), then the document's heading on a line of its own ("EXCLUSIVE LICENCE OF TECHNOLOGY").
_COVER_ITEM = re.compile(r"^[ \t]*\([ \t]*(?P<number>[1-9])[ \t]*\)[ \t]*\S[^\n]*$", re.M)
_COVER_LIST_CHARS = 1_500
_COVER_HEADING_WORDS = 8


# A cover's party names, each alone on its line, with "and" alone on a line between them
# ("MULTISOFT FINANCIAL SYSTEMS LIMITED\nand\nIBIS SYSTEMS LIMITED").
_COVER_NAMES = re.compile(
    r"^[ \t]*(?P<first>\S[^\n]*?)[ \t]*\n(?:[ \t]*\n)*[ \t]*(?:and|AND|And)[ \t]*\n(?:[ \t]*\n)*[ \t]*(?P<second>\S[^\n]*?)[ \t]*$",
    re.M,
)
# A rule line between a cover's names and its heading ("----------").
_RULE_LINE = re.compile(r"[-\u2013\u2014_=*. \t]*")
_RULE_LINES_CHARS = 400


def _heading_under_cover_names(text: str) -> Title | None:
    """The caps heading below a cover's unnumbered party names ("MULTISOFT FINANCIAL SYSTEMS
    LIMITED\nand\nIBIS SYSTEMS LIMITED\n-----\nLICENCE TO OCCUPY" over "THIS AGREEMENT is made"),
    like ``_heading_under_cover_list``'s numbered ones: both names hold a legal form; blank and
    rule lines may stand between; the heading has at most ``_COVER_HEADING_WORDS`` words, no
    legal form, and an agreement word or an instrument title among them."""
    for names in _COVER_NAMES.finditer(text[:_COVER_LIST_CHARS]):
        if not (ends_in_legal_suffix(names.group("first")) and ends_in_legal_suffix(names.group("second"))):
            continue
        position = names.end()
        line_end, below = _line_after(text, position)
        while not below or _RULE_LINE.fullmatch(below):
            if line_end >= len(text) or line_end - names.end() > _RULE_LINES_CHARS:
                return None
            position = line_end
            line_end, below = _line_after(text, position)
        if (
            len(below.split()) > _COVER_HEADING_WORDS or not _CAPS_LINE.fullmatch(below) or has_legal_suffix(below)
            or not (_AGREEMENT_WORD.search(below) or _instrument_title().search(below))
        ):
            return None
        start = text.index(below, position)
        return Title(below, start, start + len(below))
    return None


def _heading_under_cover_list(text: str) -> Title | None:
    """The caps heading on the first line below a cover's numbered list of the parties ("(1)
    ISIS LIMITED\nand\n(2) PERSPECTUM LIMITED\nEXCLUSIVE LICENCE OF TECHNOLOGY"): items "(1)",
    "(2)", ... each on its own line, with only "and" lines between, in the first
    ``_COVER_LIST_CHARS`` characters. The heading has no legal form (no party of the list) and at
    most ``_COVER_HEADING_WORDS`` words."""
    head = text[:_COVER_LIST_CHARS]
    items = list(_COVER_ITEM.finditer(head))
    for index, item in enumerate(items):
        if item.group("number") != "1" or index + 1 >= len(items) or items[index + 1].group("number") != "2":
            continue
        last = index + 1
        while last + 1 < len(items) and int(items[last + 1].group("number")) == int(items[last].group("number")) + 1:
            last += 1
        between = [head[items[i].end() : items[i + 1].start()] for i in range(index, last)]
        if any(re.fullmatch(r"\s*(?:(?i:and)\s*)?", gap) is None for gap in between):
            continue
        line_end, below = _line_after(text, items[last].end())
        if not below:
            line_end, below = _line_after(text, line_end)
        below = below.strip(" \t-–—")
        if (
            not below or len(below.split()) > _COVER_HEADING_WORDS or not _CAPS_LINE.fullmatch(below)
            or has_legal_suffix(below) or re.fullmatch(r"(?i:and|between|dated)", below)
        ):
            return None
        start = text.index(below, items[last].end())
        return Title(below, start, start + len(below))
    return None


# A heading right above or before its party list: "DIGITAL ENTERTAINMENT PARTNERSHIP BETWEEN
# ACME CORPORATION AND BETA, INC." (words in capitals, no full stop, then "BETWEEN").
_HEADING_OVER_BETWEEN = re.compile(r"(?<![\w,.])((?:[A-Z][A-Z0-9&\-/]*[ \t\n]+){1,8}?)(?:BY[ \t\n]+AND[ \t\n]+)?BETWEEN\b")


def _heading_over_between(text: str) -> Title | None:
    """A caps heading of at most eight words that the party list's "BETWEEN" follows, in the
    first ``_COVER_LIST_CHARS`` characters, preceded by the start of a line or a sentence's end
    ("... WITH THE SECURITIES AND EXCHANGE COMMISSION. DIGITAL ENTERTAINMENT PARTNERSHIP BETWEEN
    ..."): the name of a document whose prose calls it only "this Agreement". Not a legend's or
    a party's words (a legal form), not a lone article or joining word."""
    for match in _HEADING_OVER_BETWEEN.finditer(text[:_COVER_LIST_CHARS]):
        before = text[max(0, match.start() - 3) : match.start()]
        if match.start() > 0 and not re.search(r"(?:^|\n|[.:][ \t]+|\n[ \t]*)$", before):
            continue
        words = match.group(1).split()
        # ("BY AND BETWEEN:": "BY AND" is the party keyword's own first words.)
        if words[0] in ("THE", "A", "AN", "THIS", "AND", "OF", "BY") or words[-1] in ("AND", "BY") or has_legal_suffix(" ".join(words)):
            continue
        if _title_legend_word().search(match.group(1)) or _LEGEND_BODY.search(match.group(1)):
            continue
        start = match.start(1)
        return Title(" ".join(words), start, start + len(match.group(1).rstrip()))
    return None


def find_title(text: str) -> Title | None:
    """The contract's title: the heading that opens its preamble (``_own_heading``), else the
    first heading-like title in the opening text (``_first_heading``); extended to the
    contract's own name for itself and to an amendment heading above it. An amendment heading
    among the opening lines (``amendment_heading``) wins over any title that is no amendment:
    the agreement an amendment names in its prose ("Reference is made to that certain Wireless
    Content License Agreement") is its parent, never its own name."""
    if not_a_contract(text):
        return None
    title = _wrapped_run_in_opening(text) or _own_heading(text) or self_label(text) or _heading_under_dated_line(text) or _first_heading(text)
    if title is not None and _cited_in_prose(text, title):
        # "LIMITED WAIVER\n\nReference is made to the Credit Agreement ...": an agreement the
        # prose cites is no title of the instrument headed above it.
        instrument = _instrument_heading(text)
        # ("Re: Limited Waiver and Consent\n\nLadies and Gentlemen:\n\nReference is made to that
        # certain Credit Agreement ...": so is a letter's own subject.)
        subject = letter_subject(text) if instrument is None else None
        if instrument is not None and instrument.end <= title.start:
            title = instrument
        elif subject is not None and subject.end <= title.start:
            title = subject
    title = (
        title
        or _self_named(text) or _bare_heading(text) or _instrument_heading(text) or _sentence_case_heading(text)
        or _self_defined(text) or _heading_defined_as_agreement(text)
        or letter_subject(text) or _heading_named_by_text(text) or _self_referenced_instrument(text)
        or _run_in_instrument(text) or _head_initial_title(text)
    )
    if title is not None:
        title = _with_title_case_line_below(text, _with_run_in_tail(text, _with_line_below(text, _with_lines_above(text, _with_box(text, title)))))
        title = _with_title_case_tail(text, title)
        title = _with_repeated_subject(text, title)
        title = _with_amendment_head(text, _with_entity(text, _with_self_name(text, title)))
        title = _with_leading_parent(text, title)
    title = _heading_repeated_by_preamble(text, title)
    if title is None or title.text.casefold() in ("agreement", "this agreement"):
        # ("(1) ISIS LIMITED\nand\n(2) PERSPECTUM LIMITED\nEXCLUSIVE LICENCE OF TECHNOLOGY" over
        # "THIS AGREEMENT is made ...", "DIGITAL ENTERTAINMENT PARTNERSHIP BETWEEN ...": the cover's
        # heading names what the prose calls "Agreement".)
        title = _heading_under_cover_list(text) or _heading_under_cover_names(text) or _heading_over_between(text) or title
    if title is not None:
        title = _without_copyright_mark(_without_dashed_letterhead(text, _without_repeat(_after_page_marker(text, title))))
    if title is not None:
        # A title is its words: a run laid out with wide gaps or over lines is stored with its
        # white space collapsed (the span still covers the original text).
        title = Title(" ".join(title.text.split()), title.start, title.end)
    heading = amendment_heading(text)
    if title is not None and amendment_of(title.text) is not None:
        # "FIRST AMENDMENT TO THE CO-PROMOTION AGREEMENT" above "This First\nAmendment to the
        # Co-Promotion Agreement by and between ...": the heading above writes the same title
        # whole; the preamble's reading lost words over a line break.
        if heading is not None and heading.start < title.start and _title_words(title.text) < _title_words(heading.text):
            return heading
        # ("Second Addendum" over "This Addendum Agreement is made ...": the heading numbers the
        # amendment; the preamble's unnumbered name is the less specific one.)
        numbered = amendment_of(heading.text) if heading is not None else None
        if (
            heading is not None and heading.start < title.start and numbered is not None
            and numbered.number is not None and amendment_of(title.text).number is None
            and numbered.word == amendment_of(title.text).word
        ):
            return heading
        return title
    return heading or title


# ("Commercial Lease ©" on a form publisher's lease: the publisher's copyright mark after the
# title is no word of it; a brand's "®" or "™" is its word's.)
_COPYRIGHT_MARK = re.compile(r"[ \t]*(?:©|\([Cc]\))[ \t]*\Z")


def _without_copyright_mark(title: Title) -> Title:
    mark = _COPYRIGHT_MARK.search(title.text)
    if mark is None or mark.start() == 0:
        return title
    return Title(title.text[: mark.start()], title.start, title.start + mark.start())


# "Exclusive License Agreement Page 1 LICENSE AGREEMENT": a page's running header and its page
# number run into the heading on a flattened page; the title is what follows the marker.
_PAGE_MARKER = re.compile(r"(?<![\w])(?:Page|PAGE)[ \t]+[0-9]{1,3}(?:[ \t]+(?:of|OF)[ \t]+[0-9]{1,3})?[ \t]+(?=[A-Z])")


def _without_repeat(title: Title) -> Title:
    """"AGREEMENT Agreement for advertising services effective ...": on a flattened page the
    heading runs into the preamble's first words, which write it again in another case; the title
    is the heading once."""
    # ("AGREEMENT FOR PROCESSING PARKING CITATIONSAGREEMENT FOR PROCESSING PARKING CITATIONS": a
    # page's text layer wrote the heading twice with no break between; the title is it once.)
    half_chars = len(title.text) // 2
    if (
        len(title.text) % 2 == 0 and title.end - title.start == len(title.text)
        and " " in title.text[:half_chars] and title.text[:half_chars] == title.text[half_chars:]
    ):
        return Title(title.text[:half_chars], title.start, title.start + half_chars)
    words = title.text.split()
    # ("LICENSE LICENSE AGREEMENT ("Agreement") made as of ...": a one-word heading run into the
    # preamble's title that opens with the same word; the title is the preamble's.)
    if len(words) >= 3 and words[0] == words[1] and words[0].isupper():
        second = list(re.finditer(r"\S+", title.text))[1].start()
        return Title(title.text[second:], title.start + second, title.end)
    half = len(words) // 2
    if len(words) % 2 or not half:
        return title
    first, second = words[:half], words[half:]
    if [w.casefold() for w in first] != [w.casefold() for w in second]:
        return title
    # ("AMENDED AND RESTATED LICENSE AGREEMENT\nAMENDED AND RESTATED LICENSE\nAGREEMENT": a heading
    # written twice in the same case, once whole and once over two lines, is the title once.)
    if first == second and (half < 2 or _AGREEMENT_WORD.search(first[-1]) is None):
        return title
    end = list(re.finditer(r"\S+", title.text))[half - 1].end()
    kept = title.text[:end]
    return Title(kept, title.start, title.start + len(kept))


def _after_page_marker(text: str, title: Title) -> Title:
    """``title`` past the last page marker inside its span, when an agreement title follows it.
    (Read on the span as written: ``title.text`` may have its white space collapsed.)"""
    marker = next(reversed(list(_PAGE_MARKER.finditer(text, title.start, title.end))), None)
    if marker is None or not _AGREEMENT_WORD.search(text, marker.end(), title.end):
        return title
    return Title(" ".join(text[marker.end() : title.end].split()), marker.end(), title.end)


def _title_words(title: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[\w\-]+", title)}


def _cited_in_prose(text: str, title: Title) -> bool:
    """Whether a title stands inside a sentence that cites it rather than naming the document:
    its line has a lower-case word before it, and no "This" right before it ("Your employment
    agreement dated ... (your "Employment Agreement")", "Reference is made to the Credit
    Agreement"). A heading line of its own and the preamble's 'This Supply Agreement' are no
    citations."""
    line_start = text.rfind("\n", 0, title.start) + 1
    before = text[line_start : title.start]
    if re.search(r"(?i)\bthis[ \t]+$", before) or not re.search(r"\b[a-z]+\b", before):
        return False
    return amendment_of(title.text) is None


# The preamble naming the document: "This <Name>" before a comma, a parenthesis or the verb of
# the sentence ('This RENTAL SCHEDULE AND ACCEPTANCE CERTIFICATE, dated', 'This MASTER LEASE
# AGREEMENT ("MLA") is'). The name ends in a capitalised word; it may be any document's name.
_SELF_REFERENCE = re.compile(
    rf"\b(?:THIS|This)[ \t]+(?P<name>(?:{_TITLE_WORD}[ \t]+){{1,15}}?[A-Z][\w&'’\-/]*)"
    r"(?=[ \t]*[(,]|[ \t]+(?:is|IS|are|ARE|was|WAS|dated|DATED|made|MADE|entered|ENTERED|effective|EFFECTIVE"
    r"|by|BY|between|BETWEEN|among|AMONG|has|HAS|shall|SHALL)\b)"
)
# Words that make a run a sentence (an auxiliary verb, a deictic, a party-list word), never a
# title's: "AND THIS INFORMATION HAS BEEN FILED UNDER SEPARATE COVER".
_PROSE_WORDS = frozenset("is are was were be been has have had shall will may hereby this these that between among made".split())
# How long a qualifier in parentheses between a heading and the preamble repeating it may be.
_HEADING_QUALIFIER_CHARS = 40
# How far before the preamble's "This" a heading that it repeats may start.
_REPEATED_HEADING_CHARS = 400
_ARTICLE = r"(?:(?:the|THE|The)\s+)?"


def _heading_repeated_by_preamble(text: str, title: Title | None) -> Title | None:
    """The heading right before a preamble that opens by repeating it ("SETTLEMENT AGREEMENT AND
    RELEASE This Settlement Agreement And Release (...) is entered into"): the repetition proves
    which words are the title, so that heading, as written (and with a contract identifier
    between the two: "... CERTIFICATE NO. B-22 This ... CERTIFICATE, dated"), is the title. The
    words compare without case, articles or hyphens, and only blank space or the identifier may
    stand between heading and preamble. It replaces the title read otherwise only when that is
    none, the preamble's own name, or a run overlapping the heading: a longer heading keeps its
    words unless they are a company's name before the title ("ACME CAPITAL, INCORPORATED MASTER
    LEASE AGREEMENT This MASTER LEASE AGREEMENT": a letterhead, ending in a legal form); a
    heading elsewhere (a cover page) is left alone."""
    for reference in _SELF_REFERENCE.finditer(text, 0, min(len(text), PREAMBLE_CLAUSE_CHARS)):
        words = reference.group("name").split()
        if len(words) < 2 or len(words) > 16:
            continue
        parts = [re.escape(w).replace(r"\-", r"[\s\-]?") for w in words if w.casefold() != "the"]
        if len(parts) < 2:
            continue
        floor = max(0, reference.start() - _REPEATED_HEADING_CHARS)
        pattern = re.compile(
            rf"(?<![\w\-])(?P<heading>{_ARTICLE.join(parts[:1])}" + "".join(rf"\s+{_ARTICLE}{p}" for p in parts[1:]) + ")"
            # (A rule under the heading, "INDUSTRIAL LEASE\n-----------", is layout, not words.)
            # (So is a short qualifier in parentheses after it: "THIRD AMENDMENT TO SUBLEASE (Building
            # 4) This Third Amendment to Sublease".)
            rf"(?P<identifier>{_IDENTIFIER_REST.pattern})?(?:\s*(?:-{{3,}}|={{3,}}|_{{3,}}))?"
            rf"(?:\s*\([^()\n]{{1,{_HEADING_QUALIFIER_CHARS}}}\))?\s*$",
            re.IGNORECASE,
        )
        found = pattern.search(text, floor, reference.start())
        if found is None or not _heading_words(found.group("heading")) or not _all_capitalised(found.group("heading")):
            continue
        heading = Title(" ".join(found.group("heading").split()), found.start(), found.end("heading"))
        if title is not None and title.text.split() == heading.text.split():
            return title  # the same words: the title read stands, with its span
        if found.group("identifier") and (title is None or title.start >= reference.start()):
            # (A heading read before keeps its identifier for ``_with_identifier``.)
            end = found.end("identifier")
            heading = Title(" ".join(text[heading.start : end].split()), heading.start, end)
        if title is None or title.start >= reference.start() or heading.start <= title.start < heading.end:
            return heading
        if title.start < heading.start < title.end:
            # A letterhead (a name ending in its legal form) or a sentence ("... HAS BEEN FILED
            # UNDER SEPARATE COVER WITH THE COMMISSION") before the repeated heading is no title.
            prefix = text[title.start : heading.start]
            prose = _PROSE_WORDS & {w.casefold() for w in prefix.split()}
            return heading if _ends_in_legal_form(prefix.strip().rstrip(",")) or prose else title
        title_words, heading_words = title.text.casefold().split(), heading.text.casefold().split()
        if len(title_words) < len(heading_words) and heading_words[: len(title_words)] == title_words:
            # "AGREEMENT FOR INFORMATION\n\n   TECHNOLOGY SERVICES" on a cover, "AGREEMENT FOR
            # INFORMATION TECHNOLOGY SERVICES" above "THIS AGREEMENT FOR INFORMATION TECHNOLOGY
            # SERVICES ("Agreement") is": the title read was the start of the heading the preamble
            # repeats whole, cut short by the cover's layout.
            return heading
        if _caption_line(text, title):
            # "Office Lease Agreement between Acme Corp. and Beta Inc." atop the filing: a
            # caption in a sentence names the document from outside; the heading the preamble
            # repeats is the document's own.
            return heading
        return title
    return title


# "SENSOIL LTD - REPRESENTATIVE AGREEMENT": a company's name and a dash before the title.
_DASH_AFTER_NAME = re.compile(r"[ \t]+[\-–—][ \t]+")


def _without_dashed_letterhead(text: str, title: Title) -> Title:
    """The title without a company's name and a dash opening its heading line, as a letterhead
    writes it ("SENSOIL LTD - REPRESENTATIVE AGREEMENT" is the "REPRESENTATIVE AGREEMENT"; CUAD
    names such contracts so): only a name closed by its legal form, and only when the rest is a
    heading title of two words or more. (A heading opened by a party's name without a dash is
    read against the parties found: ``annotate._without_party_prefix``.)"""
    for dash in _DASH_AFTER_NAME.finditer(title.text):
        name, rest = title.text[: dash.start()].strip().rstrip(","), title.text[dash.end() :]
        if (
            len(name.split()) >= 2
            and _ends_in_legal_form(name)
            and _HEADING_TITLE.fullmatch(rest)
            and not _HEADING_CONNECTORS & {rest.split()[0].casefold()}
        ):
            return Title(rest, title.start + dash.end(), title.end)
        break
    return title


def _caption_line(text: str, title: Title) -> bool:
    """Whether a title stands in a caption sentence rather than on a heading line of its own: its
    line goes on after it with a lower-case word ("... Agreement between Acme Corp. and ...",
    "... Agreement dated May 1, 2020")."""
    line_end = text.find("\n", title.end)
    rest = text[title.end : len(text) if line_end == -1 else line_end]
    return re.match(r"[ \t]+[a-z]+\b", rest) is not None


def _all_capitalised(run: str) -> bool:
    """Every word capitalised, a number or "the"/"and"/"of"-like: a heading, not prose."""
    return all(
        w[:1].isupper() or w[:1].isdigit() or w.casefold() in _HEADING_CONNECTORS or not any(c.isalpha() for c in w)
        for w in run.split()
    )


# How far into a document an announcement sentence ("... today announced ...") marks a press release.
_ANNOUNCEMENT_CHARS = 1_000


@lru_cache(maxsize=1)
def _not_contract() -> tuple[frozenset[str], re.Pattern[str]]:
    data = load_json("agreement_kinds.json")
    phrases = "|".join(re.escape(p).replace(r"\ ", r"\s+") for p in data["not_contract_phrases"])
    return frozenset(data["not_contract_headings"]), re.compile(rf"\b(?:{phrases})\b", re.IGNORECASE)


def not_a_contract(text: str) -> bool:
    """A memo or a press release, not a contract: before any contract preamble clause, one of the
    first ``_HEADING_LINES`` lines is a memo / press-release heading ("MEMORANDUM", "FOR
    IMMEDIATE RELEASE", ``not_contract_headings``), or the opening announces ("... today
    announced that it has entered into a Distribution Agreement"). Its headline or subject line
    names an agreement it reports on, never itself."""
    headings, announcement = _not_contract()
    preamble = _PREAMBLE_CLAUSE.search(text, 0, min(len(text), TITLE_SCAN_CHARS))
    limit = preamble.start() if preamble is not None else TITLE_SCAN_CHARS
    for _, stripped in _heading_lines(text, limit):
        if " ".join(stripped.rstrip(":").casefold().split()) in headings:
            return True
    return announcement.search(text, 0, min(limit, _ANNOUNCEMENT_CHARS)) is not None


def _self_named(text: str) -> Title | None:
    """With no heading, the contract's own name for itself in its preamble: 'This Agreement for
    the Supply of Goods (the "Agreement") is made ...' (``_SELF_NAME``), when it holds an
    agreement word and at least two words."""
    match = _SELF_NAME.search(text, 0, min(len(text), PREAMBLE_CLAUSE_CHARS))
    if match is None:
        return None
    words = match.group(1).split()
    if not 2 <= len(words) <= 14 or not re.search(r"\b(?:AGREEMENT|Agreement|CONTRACT|Contract)\b", match.group(1)):
        return None
    return Title(match.group(1), match.start(1), match.end(1))


# 'THIS ADDENDUM NO. 1 TO OFFICE LEASE (the "Addendum No. 1")', 'This Second Amendment to Lease
# ("Second Amendment")', 'THIS ASSIGNMENT OF INTELLECTUAL PROPERTY (this "Assignment")': a
# document names itself and defines a term by a word of that name. No comma or line break
# inside; digits only in a "No. 1" number.
_SELF_DEFINED = re.compile(
    r"\b(?:THIS|This)[ \t]+(?P<name>[A-Z][^(),\n\"“”]{0,120}?)[ \t]*\((?:(?:this|the)[ \t]+)?[\"“](?P<term>[^\"”\n]{1,40})[\"”]\)"
)
_NAME_NUMBER = re.compile(r"\b(?:No|NO|Number|NUMBER)\.?[ \t]*[0-9]+[A-Za-z]?\b")


def _self_defined(text: str) -> Title | None:
    """The preamble's name for the document when the term it defines for itself is made of
    words of that name (``_SELF_DEFINED``), the name has two to 14 words and no digit outside a
    "No. 1" number, and it is an agreement-word title or an amendment-like one: a contract
    without an agreement-word heading ("ADDENDUM NO. 1 TO OFFICE LEASE") still names itself. The
    last resort of ``find_title``: an instrument heading ("OFFICE LEASE") comes first."""
    match = _SELF_DEFINED.search(text, 0, min(len(text), PREAMBLE_CLAUSE_CHARS))
    if match is None:
        return None
    name, term = match.group("name").strip(), match.group("term")
    words = name.split()
    if not 2 <= len(words) <= 14 or re.search(r"[0-9]", _NAME_NUMBER.sub("", name)) or _ends_in_legal_form(name):
        return None
    term_words = set(name_words(term))
    if not term_words or not term_words <= set(name_words(name)) | {"agreement"}:
        return None
    if not re.search(r"\b(?:AGREEMENT|Agreement|CONTRACT|Contract)\b", name) and amendment_of(name) is None and not (
        term_words - {"agreement"} and _heading_words(name)
    ):
        return None
    return Title(name, match.start("name"), match.start("name") + len(name))


# 'SOFTWARE LICENSE ("AGREEMENT")': a caps heading line that defines itself as the agreement.
_HEADING_DEFINED_AS_AGREEMENT = re.compile(
    r"^[ \t]*(?P<name>[A-Z][A-Z&'’\-/]*(?:[ \t]{1,3}[A-Z][A-Z&'’\-/]*){1,7})[ \t]*"
    r"\((?:(?:the|this|THE|THIS)[ \t]+)?[\"“](?:AGREEMENT|Agreement|CONTRACT|Contract)[\"”]\)[ \t]*$",
    re.MULTILINE,
)


def _heading_defined_as_agreement(text: str) -> Title | None:
    """A heading line naming the document and defining it as "the Agreement" ('SOFTWARE LICENSE
    ("AGREEMENT")'), among the opening lines and not a company's name."""
    match = _HEADING_DEFINED_AS_AGREEMENT.search(text, 0, min(len(text), TITLE_SCAN_CHARS))
    if match is None or _ends_in_legal_form(match.group("name")):
        return None
    return Title(match.group("name"), match.start("name"), match.end("name"))


# "THIS AGREEMENT is dated 14 June 2019" alone on the first line, the heading under it: a British
# deed's opening, where the dated line comes before the title ("SERVICES AGREEMENT") and the
# party list ("BETWEEN:") follows.
_DATED_LINE = re.compile(r"(?:THIS|This)[ \t]+(?:AGREEMENT|Agreement|DEED|Deed)[ \t]+(?:is[ \t]+)?(?:dated|made)\b[^\n]{0,60}")
_UNDER_DATED_LINES = 3


def _heading_under_dated_line(text: str) -> Title | None:
    """The heading right under a first line that only dates the agreement (``_DATED_LINE``):
    among the next ``_UNDER_DATED_LINES`` non-blank lines, a caps title line of its own, before
    any party-list line."""
    lines = [(m.start(), m.group().strip()) for m in re.finditer(r"[^\n]+", text[:TITLE_SCAN_CHARS]) if m.group().strip()]
    if not lines or not _DATED_LINE.fullmatch(lines[0][1]) or re.search(r"(?i)\b(?:between|among|by)\b", lines[0][1]):
        return None
    for start, line in lines[1 : 1 + _UNDER_DATED_LINES]:
        if _PARTY_LIST_WORD.match(line) or re.match(r"(?i)(?:between|among|parties)\b", line):
            return None
        if line.isupper() and _CAPS_TITLE.fullmatch(line):
            offset = text.index(line, start)
            title, dropped = _strip_noise(line)
            return Title(title, offset + dropped, offset + dropped + len(title))
    return None


# A rule line of asterisks, equals signs, dashes or underscores: a box drawn around a heading.
_RULE_LINE = re.compile(r"[ \t]*(?:\*{3,}|={3,}|-{3,}|_{3,})[ \t]*")
_BOX_LINES = 3


def _with_box(text: str, title: Title) -> Title:
    """A caps heading drawn in a box, its words broken over lines ("*****\nSHORT\nTERM WAREHOUSE
    LEASE AGREEMENT\n*****"): every line between the rule above and the rule right under the
    title's line (at most ``_BOX_LINES`` lines, no blank line, each caps words that are no
    company's name or page furniture) is one heading. The box shows which lines are one title."""
    if not title.text.isupper():
        return title
    line_start = text.rfind("\n", 0, title.start) + 1
    line_end = text.find("\n", title.end)
    if line_end == -1 or text[title.end : line_end].strip() or text[line_start : title.start].strip():
        return title
    below_end = text.find("\n", line_end + 1)
    if not _RULE_LINE.fullmatch(text, line_end + 1, len(text) if below_end == -1 else below_end):
        return title
    begin = line_start
    for _ in range(_BOX_LINES):
        if begin == 0:
            return title
        above_start = text.rfind("\n", 0, begin - 1) + 1
        above = text[above_start : begin - 1]
        if _RULE_LINE.fullmatch(above):
            break
        stripped = above.strip()
        if not stripped or not _CAPS_LINE.fullmatch(stripped) or _ends_in_legal_form(stripped) or _strip_noise(stripped)[1]:
            return title
        begin = above_start
    else:
        return title
    if begin == line_start:
        return title
    first = begin + len(text[begin:line_start]) - len(text[begin:line_start].lstrip())
    return Title(" ".join(text[first : title.end].split()), first, title.end)


# A caps fragment of at most this many words on the line right above a heading continues it.
_LINE_ABOVE_WORDS = 3
# A line above that ends in a joining word ("AND", "OF", a possessive) may be longer.
_LINE_ABOVE_DANGLING_WORDS = 8
# ("AMENDED AND RESTATED" over "CONSULTANCY SERVICES DEED": a restatement names no instrument on
# its own; the title's noun follows.)
_DANGLING_END = re.compile(
    r"(?:\b(?:and|of|for|to|the|on|in|AND|OF|FOR|TO|THE|ON|IN)|&|[A-Za-z][’']s|\b(?:AMENDED|Amended)[ \t]+(?:AND|and)[ \t]+(?:RESTATED|Restated))$"
)
# How many blank lines a dangling first line of a heading may stand above its second (a filing
# converted from HTML puts a blank line, a line of one space and a blank line between paragraphs).
_DANGLING_BLANK_LINES = 3


def _written_with_legal_form(text: str, words: list[str]) -> bool:
    """Whether ``text`` writes ``words`` (any case) as the start of a name that ends in a legal
    form ("Global Marketing, Inc.")."""
    pattern = re.compile(r"\s+".join(re.escape(w.strip(",")) for w in words), re.IGNORECASE)
    for match in pattern.finditer(text):
        name = name_at(text, match.start(), min(len(text), match.start() + _NAME_CHARS))
        if name is not None and name.end > match.end() and has_legal_suffix(name.text):
            return True
    return False


_NAME_CHARS = 120


def _with_lines_above(text: str, title: Title) -> Title:
    """``_with_line_above``, and once more when the line it joined was a joining word alone
    ("DRILLING BID PROPOSAL\nAND\nDAYWORK DRILLING CONTRACT"): no title opens with "AND", so the line
    above that word is the heading's first line, on the same terms as a line ending in a joining
    word; when it is none, the joining word's line stays out too."""
    above = _with_line_above(text, title)
    line_end = text.find("\n", above.start)
    if above is title or line_end == -1 or _JOINER_LINE.fullmatch(text, above.start, line_end) is None:
        return above
    higher = _with_line_above(text, above, joined_below=True)
    return higher if higher is not above else title


# A line that is only a joining word ("AND", "&").
_JOINER_LINE = re.compile(r"(?:AND|And|and|&)[ \t]*")


def _with_line_above(text: str, title: Title, *, joined_below: bool = False) -> Title:
    """A heading whose first words were broken onto the line above ("MAKE\nGOOD ESCROW
    AGREEMENT", "EXCLUSIVE\nDISTRIBUTION AGREEMENT"): the line right above (no blank line
    between) is a fragment of at most ``_LINE_ABOVE_WORDS`` words in the heading's case, no page
    furniture or company name, and the text after the heading repeats the joined words ('This
    Make Good Escrow Agreement', 'the exclusive distribution agreement'), or the text before it
    does (a cover line showing the heading whole). The repetition is the proof: a name or a
    label above a heading is not repeated with it. One blank line may stand between (a filing
    converted with a blank line after every line: "EXCLUSIVE\n\nDISTRIBUTION AGREEMENT")."""
    line_start = text.rfind("\n", 0, title.start) + 1
    if line_start == 0 or text[line_start : title.start].strip():
        return title
    previous_start = text.rfind("\n", 0, line_start - 1) + 1
    previous = text[previous_start : line_start - 1].strip()
    adjacent = bool(previous)
    if not previous and previous_start > 0:
        previous_start = text.rfind("\n", 0, previous_start - 1) + 1
        previous = text[previous_start : line_start - 1].strip()
    words = previous.split()
    # A line that ends in a joining word ("TERM LOAN AND", "Managing Director's") cannot end a
    # title: it is the heading's first line, whatever follows, and needs no repetition as proof.
    # (``joined_below``: the heading's line opens with a joining word, so this line is its first.)
    dangling = bool(words) and (joined_below or _DANGLING_END.search(previous) is not None)
    if not words:
        # (Further up, over more blank lines, only a dangling line joins.)
        further = text[: line_start - 1].rstrip()
        skipped = text.count("\n", len(further), line_start - 1)
        further_start = further.rfind("\n") + 1
        candidate = further[further_start:].strip()
        if skipped <= _DANGLING_BLANK_LINES and candidate and _DANGLING_END.search(candidate) is not None:
            previous_start, previous, dangling = further_start, candidate, True
            words = previous.split()
    # ("CONSULTING\nSERVICES AGREEMENT", "EXCLUSIVE INTERNATIONAL SALES, MARKETING\nMANUFACTURING
    # AND ADMINISTRATIVE AGREEMENT": in capitals, a line naming a kind of agreement right above
    # (no blank line between) is the heading's first line too, unless it is an organisation's
    # name: a head noun, or its words written with a legal form in the text ("GLOBAL
    # MARKETING\nDISTRIBUTION AGREEMENT" over "... between Global Marketing, Inc. and ...").)
    kind_named = (
        adjacent and title.text.isupper() and agreement_kind(previous) != "other"
        and not organisation_head(previous) and not _written_with_legal_form(text, words)
    )
    # ("Third Amended and Restated\nPartnership Agreement": a line made only of words that open
    # titles, ordinals and "Amended and", none written with a legal form in the text, is no name
    # or label; it is the heading's first line.)
    # (An ordinal alone is not such a line: "SECOND\nMINERAL RIGHT OPTION AGREEMENT" stays apart.)
    ordinals = _ordinals_and_amendment_words()[0]
    openers = _title_opening_words() | ordinals | {"amended", "and", "&"}
    opening_line = (
        adjacent and all(w.casefold() in openers for w in words)
        and any(w.casefold() not in ("and", "&") and w.casefold() not in ordinals for w in words)
        and not _written_with_legal_form(text, words)
    )
    limit = _LINE_ABOVE_DANGLING_WORDS if dangling or kind_named or opening_line else _LINE_ABOVE_WORDS
    if not words or len(words) > limit or re.search(r"[0-9:;]", previous):
        return title
    caps = title.text.isupper()
    if (caps and not (previous.isupper() and _CAPS_LINE.fullmatch(previous))) or (
        not caps and not all(w[:1].isupper() or (opening_line and w in ("and", "&")) for w in words)
    ):
        return title
    if _strip_noise(previous)[1] or _ends_in_legal_form(previous) or _PARTY_LIST_WORD.search(previous):
        return title
    begin = previous_start + text[previous_start:line_start].index(words[0])
    if (
        len(words) <= 2
        and re.match(r"(?:AGREEMENT|Agreement|CONTRACT|Contract)[ \t]+(?:FOR|OF|for|of)\b", title.text)
        and agreement_kind(previous) != "other"
    ):
        # "Supply\nContract of Packaging Materials": a title that opens with the agreement word
        # names no kind; a kind word on the line right above ("Lease", "Supply") is its first word.
        return Title(" ".join(text[begin : title.end].split()), begin, title.end)
    if dangling or kind_named or opening_line:
        return Title(" ".join(text[begin : title.end].split()), begin, title.end)
    joined = words + title.text.split()
    repeated = re.compile(r"\s+".join(re.escape(w) for w in joined), re.IGNORECASE)
    # The repetition may come after ('This Make Good Escrow Agreement') or before: a cover line
    # or running header that shows the heading whole ("EXCLUSIVE DISTRIBUTION FRAMEWORK
    # AGREEMENT" over "EXCLUSIVE\nDISTRIBUTION FRAMEWORK AGREEMENT").
    if (
        repeated.search(text, title.end, min(len(text), title.end + TITLE_SCAN_CHARS)) is None
        and repeated.search(text, 0, previous_start) is None
    ):
        return title
    begin = previous_start + text[previous_start:line_start].index(words[0])
    return Title(" ".join(text[begin : title.end].split()), begin, title.end)


# A caps line right under an agreement heading that continues it: "AND MUTUAL RELEASE OF CLAIMS",
# "FOR RATE SCHEDULE CDS". At most this many words.
_LINE_BELOW_WORDS = 8
_CONTINUATION = re.compile(r"(?:AND|FOR|OF|WITH)[ \t]+\S")


def _with_names_a_party(text: str, end: int, below: str) -> bool:
    """Whether a "WITH ..." line under a heading names the other party ("CONSULTING
    AGREEMENT\nWITH JANE ROE") rather than the title's terms ("PATENT LICENSE AGREEMENT\nWITH
    DEVELOPMENT MILESTONES"): its words come again in the text after it (a party is named again in
    the preamble; a title's own qualifier is not)."""
    words = below.split()[1:]
    again = re.compile(r"\s+".join(re.escape(w) for w in words), re.IGNORECASE)
    return again.search(text, end, min(len(text), end + TITLE_SCAN_CHARS)) is not None


def _line_after(text: str, line_end: int) -> tuple[int, str]:
    """The line after the line break at ``line_end``: where it ends, and its text stripped."""
    next_end = text.find("\n", line_end + 1)
    next_end = len(text) if next_end == -1 else next_end
    return next_end, text[line_end + 1 : next_end].strip()


# A title-case line that continues a title-case heading: "For the Cultivation Technology", "of
# Cordyceps Militaris", "Distribution of 2004" (a year or number may close it).
_TITLE_CASE_BELOW = re.compile(
    r"[A-Za-z][\w&'’\-/]*(?:[ \t]{1,3}(?:[A-Z][\w&'’\-/.]*,?|and|of|for|the|to|on|in|&|-|[0-9]{1,4}))*"
)
_TITLE_CASE_CONTINUATION = re.compile(r"(?:And|For|Of|With|and|for|of|with)[ \t]+\S")
_TITLE_CASE_JOINING_TAIL = re.compile(r"[ \t]+(?:And|For|Of|With|and|for|of|with)[ \t]*$")
_TITLE_CASE_BELOW_LINES = 2
_NOT_TITLE_BELOW = re.compile(r"\b(?:between|among|amongst|by|dated|made|entered|is|this|This)\b", re.I)


def _with_title_case_line_below(text: str, title: Title) -> Title:
    """A title-case agreement heading that ends its line, continued by title-case lines under it
    (at most two, no blank line between): "Exclusive Licensing Agreement\nFor the Cultivation
    Technology\nof Cordyceps Militaris", "Agency Agreement For\nDistribution of 2004" (the
    joining word ends the heading's line). A continuation line opens with "For", "Of", "And" or
    "With" in either case, or follows such a joining word left at the end of the line above.
    Not a party list, a date or a sentence; nor, unless a joining word left the title dangling
    ("Joint Venture Contract for\nSanhe Foods Company Limited"), a company's name (a line ending
    in a legal form) or a party the title is with."""
    if title.text.isupper() or not re.search(r"(?:Agreement|Contract)$", title.text):
        return title
    line_end = text.find("\n", title.end)
    if line_end == -1:
        return title
    tail = text[title.end : line_end]
    joining = _TITLE_CASE_JOINING_TAIL.fullmatch(tail) is not None
    if tail.strip() and not joining:
        return title
    end = title.end
    for _ in range(_TITLE_CASE_BELOW_LINES):
        next_end, below = _line_after(text, line_end)
        if (
            not below
            or not (joining or _TITLE_CASE_CONTINUATION.match(below))
            or len(below.split()) > _LINE_BELOW_WORDS
            or not _TITLE_CASE_BELOW.fullmatch(below)
            or _NOT_TITLE_BELOW.search(below)
            # After a dangling joining word the line must go on with the title, even a company's
            # name ("Joint Venture Contract for\nSanhe Foods Company Limited").
            or (not joining and _ends_in_legal_form(below))
            or (not joining and below[:4].casefold() == "with" and _with_names_a_party(text, next_end, below))
        ):
            break
        end = line_end + 1 + text[line_end + 1 : next_end].index(below) + len(below)
        line_end = next_end
        joining = _TITLE_CASE_JOINING_TAIL.search(below) is not None
    if end == title.end:
        return title
    return Title(" ".join(text[title.start : end].split()), title.start, end)


def _with_line_below(text: str, title: Title) -> Title:
    """A caps agreement heading that ends its line, continued on the next line (at most one blank
    line between) by a caps line that starts with "AND", "FOR", "OF" or "WITH": "SETTLEMENT AGREEMENT\nAND
    MUTUAL RELEASE OF CLAIMS", "SERVICE AGREEMENT\nFOR RATE SCHEDULE CDS", "PATENT LICENSE
    AGREEMENT\nWITH DEVELOPMENT MILESTONES" (not a party it is with: ``_with_names_a_party``). Not a party list
    ("BETWEEN", "AMONG") and not a company's name ("OF HARBOR POINT HOLDINGS, LLC": the entity
    the agreement is of, read by ``_with_entity``)."""
    if not title.text.isupper():
        return title
    # ("AGREEMENT FOR\nINSTANT TICKET VENDING MACHINES (ITVMs)": a heading that ends its line in
    # its subject's joining word goes on below whatever the next line's first word.)
    open_ended = re.search(r"(?:AGREEMENT|CONTRACT)[ \t]+(?:FOR|OF|ON|REGARDING)$", title.text) is not None
    if not open_ended and not re.search(r"(?:AGREEMENT|CONTRACT)$", title.text):
        return title
    line_end = text.find("\n", title.end)
    if line_end == -1:
        return title
    # ("INTERLOCAL AGREEMENT FOR\nFEDERAL AGENCY PERMIT STAFFING SUPPORT": the joining word the
    # heading's run left out of the title ends its line.)
    dangling = _DANGLING_JOINER.fullmatch(text, title.end, line_end) if not open_ended else None
    if dangling is not None:
        open_ended = True
    elif text[title.end : line_end].strip():
        return title
    next_end, below = _line_after(text, line_end)
    if not below and next_end < len(text):
        # One blank line may stand between, as above a heading (a filing converted with a blank
        # line after every line: "LICENSE AGREEMENT\n\nWITH SUBLICENSING TERMS").
        line_end = next_end
        next_end, below = _line_after(text, line_end)
    if (
        not below
        or not (open_ended or _CONTINUATION.match(below))
        or len(below.split()) > _LINE_BELOW_WORDS
        or not (_CAPS_LINE.fullmatch(below) or (open_ended and _CAPS_LINE.fullmatch(_without_bracketed_acronym(below))))
        or _party_list_or_date(below)
        or _ends_in_legal_form(below)
    ):
        return title
    if below.startswith("WITH") and _with_names_a_party(text, next_end, below):
        return title
    end = line_end + 1 + text[line_end + 1 : next_end].index(below) + len(below)
    # ("SHIPBUILDING CONTRACT\nFOR THE CONSTRUCTION OF A\n154,800 Cubic Meter": a line ending in
    # an article or a joining word leaves its phrase open; the heading is the line above, unless
    # the next line closes the phrase in capitals: "INTERMUNICIPAL AGREEMENT\nFOR THE PROVISION
    # OF\nACCOUNTING SERVICES".)
    if _OPEN_PHRASE_END.search(below) is not None:
        closing_end, closing = _line_after(text, next_end) if next_end < len(text) else (next_end, "")
        if (
            not closing
            or len(closing.split()) > _LINE_BELOW_WORDS
            or not _CAPS_LINE.fullmatch(closing)
            or _OPEN_PHRASE_END.search(closing) is not None
            or _party_list_or_date(closing)
            or _ends_in_legal_form(closing)
        ):
            return title
        end = next_end + 1 + text[next_end + 1 : closing_end].index(closing) + len(closing)
    return Title(" ".join(text[title.start : end].split()), title.start, end)


_DANGLING_JOINER = re.compile(r"[ \t]+(?:FOR|OF|ON|REGARDING)[ \t]*")
_OPEN_PHRASE_END = re.compile(r"(?:^|[ \t])(?:A|AN|THE|OF|FOR|TO|AND)$")


def _without_bracketed_acronym(line: str) -> str:
    """``line`` without a closing bracketed acronym ("INSTANT TICKET VENDING MACHINES (ITVMs)").
    Unlike ``names.without_own_initials`` (a whole title line: only its own initials are no word
    of it), this line is read below a heading, and any acronym goes."""
    return re.sub(r"[ \t]+\([A-Z][A-Za-z]{1,9}\)[ \t]*$", "", line)


# What may follow an agreement heading as its subject: "for"/"of"/"on"/"regarding" and up to ten
# words, over line breaks but no blank line ("Agreement\nfor\nExploration, Production and
# Strategic Services\nbetween").
_SUBJECT_TAIL = re.compile(r"[ \t]*\n?[ \t]*(?:for|FOR|For|of|OF|on|ON|regarding|REGARDING)\b")
_SUBJECT_TAIL_WORD = re.compile(r"[ \t]*\n?[ \t]*([A-Za-z][\w&'’\-]*,?)")
_SUBJECT_TAIL_WORDS = 10
_SUBJECT_TAIL_STOP = frozenset({"between", "among", "amongst", "by", "dated", "made", "this", "effective", "entered"})


def _with_repeated_subject(text: str, title: Title) -> Title:
    """An agreement heading continued by its subject ("AMENDED AND RESTATED AGREEMENT FOR
    INDEPENDENT VERIFICATION OF TELEMARKETING SALES", "Amended and Restated\nAgreement\nfor\n
    Exploration, Production and Strategic Services"), when the text after the heading calls the
    document by the whole ("this Amended and Restated Agreement for Independent Verification of
    Telemarketing Sales"): the repetition is the proof, as for a line above (``_with_line_above``).
    The longest repeated run of the subject's words counts."""
    if not re.search(r"(?:AGREEMENT|Agreement|CONTRACT|Contract)$", title.text):
        return title
    lead = _SUBJECT_TAIL.match(text, title.end)
    if lead is None:
        return title
    ends, position = [lead.end()], lead.end()
    while len(ends) <= _SUBJECT_TAIL_WORDS:
        word = _SUBJECT_TAIL_WORD.match(text, position)
        if word is None or word.group(1).rstrip(",").casefold() in _SUBJECT_TAIL_STOP:
            break
        position = word.end()
        ends.append(position)
    scan = text[ends[-1] : min(len(text), ends[-1] + TITLE_SCAN_CHARS)]
    for end in reversed(ends[1:]):
        words = text[title.start : end].replace(",", " ").split()
        repeated = r"\b(?i:this)\s+" + r"[\s,]+".join(re.escape(w) for w in words) + r"\b"
        if re.search(repeated, scan, re.IGNORECASE):
            return Title(" ".join(text[title.start : end].rstrip(",").split()), title.start, end)
    return title


# In a filing run into one line, a caps run after an agreement heading that opens with a joining
# word, up to the preamble's "This": "FOUNDRY AGREEMENT FOR SHARE HOLDERS This Foundry Agreement".
_RUN_IN_TAIL = re.compile(rf"[ \t]{{1,3}}((?:AND|FOR|OF|WITH)(?:[ \t]{{1,3}}{_CAPS_WORD}){{1,{_LINE_BELOW_WORDS - 1}}})[ \t]{{1,3}}(?=(?:This|THIS)[ \t])")


def _with_run_in_tail(text: str, title: Title) -> Title:
    """A caps agreement heading continued on its own line by a caps run that opens with
    AND/FOR/OF/WITH and ends right before the preamble's "This" (a filing run into one line has
    no line end to close the heading). Not a party list, a date or a company's name."""
    if not title.text.isupper() or not re.search(r"(?:AGREEMENT|CONTRACT)$", title.text):
        return title
    tail = _RUN_IN_TAIL.match(text, title.end)
    if tail is None:
        return title
    words = tail.group(1)
    if _party_list_or_date(words) or _ends_in_legal_form(words):
        return title
    return Title(" ".join(text[title.start : tail.end(1)].split()), title.start, tail.end(1))


# The rest of a title-case heading line after its agreement word: "For", "Of" or "On", then one to
# ten words, each capitalised or a short joining word ("License Agreement For Real-Time In Vivo
# Imaging Technology").
_TITLE_CASE_TAIL = re.compile(
    r"[ \t]+((?:For|Of|On)(?:[ \t]+(?:[A-Z][\w'’\-]*|of|the|and|in|for|to|a|an|on)){1,10})[ \t]*(?=\n|\Z)"
)


def _with_title_case_tail(text: str, title: Title) -> Title:
    """A heading in title case whose line goes on after its agreement word with "For/Of/On" and
    capitalised words to the line's end (``_TITLE_CASE_TAIL``): the whole line's words are the
    title, as ``_with_run_in_tail`` reads a caps heading's. Only a title that opens its line, no
    party list, date or company name in the tail, and no prose after it (the next line does not
    open in lower case)."""
    if not re.search(r"(?:Agreement|Contract)$", title.text):
        return title
    line_start = text.rfind("\n", 0, title.start) + 1
    if text[line_start : title.start].strip(" \t"):
        return title
    tail = _TITLE_CASE_TAIL.match(text, title.end)
    if tail is None:
        return title
    words = tail.group(1)
    if _party_list_or_date(words) or _ends_in_legal_form(words) or words.split()[-1] in ("of", "the", "and", "in", "for", "to", "a", "an", "on"):
        return title
    after = text[tail.end(1) :].lstrip(" \t\n")
    if after[:1].islower():
        return title
    return Title(" ".join(text[title.start : tail.end(1)].split()), title.start, tail.end(1))


# The agreement word alone on one of the first lines: "AGREEMENT" above "THIS AGREEMENT is made".
# ("AGREEMENT NO. 01-08/98": the agreement word may carry its number.)
_BARE_HEADING = re.compile(
    r"(?:AGREEMENT|Agreement|CONTRACT|Contract)(?:[ \t]+(?:NO\.?|No\.?|NUMBER|Number|#)[ \t]*[A-Z0-9][\w\-/.]*)?"
)

# The first words of a preamble that opens the contract wrapped over a line break: a caps
# fragment alone on the first line ("ESCROW", "SECURITIES"), then the rest of its caps title run
# into the preamble's prose ("AGREEMENT (“Agreement”) dated ...", "ESCROW AGREEMENT, dated as of").
_WRAPPED_FRAGMENT_WORDS = 3
_WRAPPED_TITLE_REST = re.compile(
    rf"(?!THIS\b)((?:{_CAPS_WORD}[ \t]{{1,3}}){{0,4}}(?:AGREEMENT|CONTRACT))"
    r"(?=[ \t]*\(|,|[ \t]+(?:dated|made|is|by|between|among|entered|effective|DATED|MADE|IS|BY|BETWEEN|AMONG)\b)"
)


def _wrapped_run_in_opening(text: str) -> Title | None:
    """A contract that opens with its preamble, the caps title broken after its first words:
    "ESCROW\nAGREEMENT (“Agreement”) dated February 2, 2010 by and among ...". The fragment is
    the first line after page furniture, at most ``_WRAPPED_FRAGMENT_WORDS`` caps words, no
    digits, legend, legal form or party-list word; the next line (no blank line between) runs
    the rest of the title into prose. The fragment opens the sentence, so it opens the title: a
    heading line above a preamble is set apart by a blank line or by repetition
    (``_with_line_above``)."""
    for start, stripped in _heading_lines(text, TITLE_SCAN_CHARS):
        if _page_furniture(stripped):
            continue
        words = stripped.split()
        if (
            len(words) > _WRAPPED_FRAGMENT_WORDS or _CAPS_LINE.fullmatch(stripped) is None or not stripped.isupper()
            or re.search(r"[0-9:;,.]", stripped) or _strip_noise(stripped)[1]
            or _ends_in_legal_form(stripped) or _PARTY_LIST_WORD.search(stripped) or _AGREEMENT_WORD.search(stripped)
        ):
            return None
        following = re.compile(r"[ \t]*\n[ \t]*").match(text, start + len(stripped))
        rest = _WRAPPED_TITLE_REST.match(text, following.end()) if following is not None else None
        if rest is None:
            return None
        return Title(" ".join(text[start : rest.end(1)].split()), start, rest.end(1))
    return None


_TRAILING_EXHIBIT = re.compile(r"[ \t]{2,}(?:EXHIBIT|Exhibit)[ \t]+[0-9][\w.()\-]{0,12}\Z")


def _page_furniture(stripped: str) -> bool:
    """Whether a stripped line is page furniture ("1", "EXHIBIT 10.3(d)") or a filing's own label
    line ("EX-10.1 2 d123ex101.htm EX-10.1", "Source: ACME CORP, 10-K, 3/1/2019"): no heading."""
    return (
        not any(c.isalpha() for c in stripped)
        or not _strip_noise(stripped)[0].strip(" ().:-")
        or _filing_label_line(stripped)
        or _LETTERHEAD_LINE.search(stripped) is not None
    )


# A letterhead's contact line ("GRAND FORKS, ND 58203        FAX: 701-775-0158") or its logo's
# placeholder ("[R & R CONTRACTING, INC. LOGO]"): no heading, like the page's number.
_LETTERHEAD_LINE = re.compile(
    r"\b(?:PHONE|Phone|TEL|Tel|TELEPHONE|Telephone|FAX|Fax|FACSIMILE|Facsimile)[ \t]*[.:#][ \t]*[(+0-9]"
    r"|^\[[^\]]*\b(?:LOGO|Logo)\][ \t]*$"
)


# A company number alone on a cover's line under its name ("ACN 002 148 361", "(Company No.
# 4471)"): the layout reader's registration marker (``registration_marker`` of
# party_layout.json), the whole line.
@lru_cache(maxsize=1)
def _registration_line() -> re.Pattern[str]:
    return re.compile(load_json("party_layout.json")["registration_marker"] + r"[ \t]*")


def _heading_lines(text: str, limit: int, over_party_list: bool = False) -> Iterator[tuple[int, str]]:
    """The first ``_HEADING_LINES`` non-blank lines of ``text[:limit]`` (page furniture lines
    not counted), stripped, each with the offset where its stripped text starts. With
    ``over_party_list``, a cover's party-list lines are not counted either: its joiner lines
    ("and", "BETWEEN"), company numbers and, after a joiner, names with a legal form. A deed's
    cover may list three or four parties before its title ("EMPIRE ENERGY GROUP LIMITED\nACN 002
    148 361\nand\n...\nCONSULTANCY SERVICES DEED")."""
    seen = 0
    sentence = False
    listing = False
    for match in re.finditer(r"[^\n]+", text[:limit]):
        stripped = match.group().strip()
        if not stripped:
            continue
        # ("SUBLEASE                    Exhibit 10.22": the filing's exhibit number set off at the
        # line's end is page furniture beside the heading.)
        trailing = _TRAILING_EXHIBIT.search(stripped)
        if trailing is not None and trailing.start() > 0:
            stripped = stripped[: trailing.start()]
        yield match.start() + match.group().index(stripped), stripped
        # Page furniture ("1", "EXHIBIT 10.3(d)") takes no place among the heading lines, nor
        # does a filing's own label line ("EX-10.1 2 d123ex101.htm EX-10.1", "Source: ACME
        # CORP, 10-K, 3/1/2019"): the document's heading comes after them.
        if _page_furniture(stripped):
            continue
        # (Once a joiner line shows a party list, its names and company numbers take no place.)
        if over_party_list and _COVER_PARTY_LINE.fullmatch(stripped):
            listing = True
            continue
        if over_party_list and (_registration_line().fullmatch(stripped) or (listing and _ends_in_legal_form(stripped))):
            continue
        # A legend in capitals ("THIS NOTE HAS NOT BEEN REGISTERED ...\n... UNDER THE ACT.")
        # is one sentence over its lines: one place among the heading lines, however many lines.
        continued = sentence
        sentence = (sentence or bool(_PROSE_WORDS & {w.casefold() for w in stripped.split()})) and not stripped.endswith(".")
        if continued:
            continue
        seen += 1
        if seen == _HEADING_LINES:
            return


def _bare_heading(text: str) -> Title | None:
    """The agreement word alone on one of the first ``_HEADING_LINES`` lines, when nothing else
    titles the contract: the title is then that heading, with its span, not a fallback name."""
    for start, stripped in _heading_lines(text, TITLE_SCAN_CHARS):
        if _BARE_HEADING.fullmatch(stripped):
            return Title(stripped, start, start + len(stripped))
    # "Exhibit 10.10 AGREEMENT THIS AGREEMENT made at ...": in a filing run into one line, the
    # agreement word the preamble repeats right after it, only page furniture before it.
    repeated = _RUN_IN_BARE_HEADING.search(text, 0, min(len(text), TITLE_SCAN_CHARS))
    if repeated is not None:
        line_start = text.rfind("\n", 0, repeated.start()) + 1
        before = text[line_start : repeated.start()].strip()
        if not _strip_noise(before)[0].strip(" ().:-"):
            return Title(repeated.group(1), repeated.start(1), repeated.end(1))
    # "Agreement on Technology Development (Cooperation)" over "Party A: ...": the agreement word
    # opening the first heading line and naming its subject after "on"/"for"/"of".
    for start, stripped in _heading_lines(text, TITLE_SCAN_CHARS):
        if _AGREEMENT_ON_HEADING.fullmatch(stripped):
            return Title(stripped, start, start + len(stripped))
        if not _page_furniture(stripped):
            break
    # "AGREEMENT BETWEEN ACME INC. AND BETA CORP. ARTICLE 1 ...": a cover line run in with what
    # follows, the agreement word opening it (only page furniture before) and the party list
    # right after it.
    # ("CERTAIN MATERIALS HAVE BEEN OMITTED AND\nCONFIDENTIAL TREATMENT ...\nAGREEMENT BETWEEN":
    # a confidential-treatment legend's lines above it are page furniture too.)
    legends = _legend_sentences(text[:TITLE_SCAN_CHARS])
    for start, stripped in _heading_lines(text, TITLE_SCAN_CHARS):
        between = _BARE_HEADING_BETWEEN.match(stripped)
        if between is not None:
            return Title(between.group(1), start, start + len(between.group(1)))
        if legend_words().search(stripped) or any(a <= start and start + len(stripped) <= b for a, b in legends):
            continue
        if _strip_noise(stripped)[0].strip(" ().:-") and not _filing_label_line(stripped):
            break
    return None


_AGREEMENT_ON_HEADING = re.compile(
    r"(?:AGREEMENT|Agreement|CONTRACT|Contract)[ \t]+(?:on|ON|for|FOR|of|OF|regarding|REGARDING|concerning|CONCERNING)"
    r"[ \t]+(?:the[ \t]+)?[A-Z][\w'’\-]*(?:[ \t]+(?:\(?[A-Z][\w'’\-]*\)?|and|of|the|for|on|&)){0,10}"
)
# ("CONTRACT BETWEEN" alone on its line over the parties' names: the list starts on the next line.)
_BARE_HEADING_BETWEEN = re.compile(r"(AGREEMENT|CONTRACT)[ \t]+(?:BY[ \t]+AND[ \t]+)?(?:BETWEEN|AMONG)(?:[ \t]+[A-Z]|[ \t]*$)")


# ("EXHIBIT 10.10 AGREEMENT Made and signed on the 17th day of ...": or the preamble's verb.)
_RUN_IN_BARE_HEADING = re.compile(
    r"(?<![\w])(AGREEMENT|CONTRACT)[ \t]+(?:(?:THIS|This)[ \t]+(?i:\1)\b|(?:Made|MADE)[ \t]+(?:and|on|this|as|by|between)\b"
    # ("Exhibit 10.3 CONTRACT Party A: Guangzhou ... Company Address: ...": a label row of the
    # parties right after it.)
    r"|(?:Party|PARTY)[ \t]+(?:A|1|One|ONE)[ \t]*:)"
)


@lru_cache(maxsize=2)
def _instrument_title(key: str = "instrument_titles") -> re.Pattern[str]:
    """``key``: the list of instrument words the heading ends in (``heading_instrument_titles``
    for the common nouns read from a caps heading line only, ``_instrument_heading``)."""
    data = load_json("agreement_kinds.json")

    def alternatives(key: str) -> str:
        words = sorted(data[key], key=len, reverse=True)
        return "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in words)

    # Up to 8 capitalised words or numbers before: "NORTHWIND TECHNOLOGIES CORP. 2010 STOCK INCENTIVE PLAN";
    # a leading one names its subject after it, ending in a capitalised word: "ASSIGNMENT OF
    # TRADEMARKS". Either may end in its number: "IRREVOCABLE LETTER OF CREDIT NO. 4471".
    return re.compile(
        rf"(?:(?:[A-Z0-9][\w&'’\-/.]*[ \t]{{1,3}}){{0,8}}(?i:{alternatives(key)})"
        # (A subject's initials in brackets are its words too: "SOFT FACILITIES MANAGEMENT (FM)
        # SERVICES".)
        rf"|(?i:{alternatives('leading_instrument_titles')})(?:[ \t]{{1,3}}(?:[A-Z][\w&'’\-/.,]*|\([A-Z]{{2,6}}\)|and|of|the|to|&)){{0,8}}?"
        r"[ \t]{1,3}[A-Z][\w&'’\-/.]*)"
        r"(?:[ \t]+(?:NO\.?|No\.?|NUMBER|Number|#)[ \t]*[A-Z0-9][\w\-/.]*)?"
    )


# How far after an instrument heading the text must speak of itself by a word of it.
_INSTRUMENT_SELF_CHARS = 600


def _speaks_of_itself(text: str, heading: Title) -> bool:
    """'This Office Lease', 'This letter', '(the "Plan")', 'under this contract', 'the undersigned
    hereby': the text after an instrument heading names itself by a word of it (or as a
    contract) or speaks as an instrument, or a cover page's party list follows it
    (``_COVER_PARTY_LINE``), so the heading titles this document, not the subject of a memo
    ("Office Lease" over a note about a lease)."""
    words = "|".join(re.escape(w) for w in heading.text.split() if len(w) > 2 and w[:1].isalpha())
    if not words:
        return False
    own = re.compile(
        # ("This\nVoyage Charter": a line may break after "This".)
        rf"\bThis\s+(?:{words}|contract|agreement|instrument)\b|\((?:the[ \t]+|this[ \t]+)?[\"“](?:{words})[\"”]\)"
        # An instrument's own wording: "the undersigned hereby guarantees", "dated as of ... between".
        r"|\b(?:hereby|undersigned|witnesseth|by[ \t]+and[ \t]+between|dated[ \t]+as[ \t]+of)\b"
        # A note's promise ("FOR VALUE RECEIVED, ... promises to pay"); a letter's terms agreed
        # ("this will confirm that you and we agree").
        r"|\bfor[ \t]+value[ \t]+received\b|\bpromises?[ \t]+to[ \t]+pay\b|\b(?:we|you|parties)[ \t]+(?:each[ \t]+)?agree\b"
        # A "Parties" heading alone on its line opens a deed's party list (Commonwealth drafting:
        # "DEED OF ASSIGNMENT\nDate: ...\nParties\n1. Kestrel Ridge Minerals Pty Ltd ...").
        r"|(?m:^[ \t]*parties[ \t]*:?[ \t]*$)",
        re.IGNORECASE,
    )
    end = min(len(text), heading.end + _INSTRUMENT_SELF_CHARS)
    return (
        own.search(text, heading.end, end) is not None
        or _COVER_PARTY_LINE.search(text, heading.end, end) is not None
        or _cover_role_line().search(text, heading.end, end) is not None
        # ("SOMERSET PRIMARY CARE TRUST (1)\nAND\nTAUNTON ... TRUST (2)\nAS PROVIDER\nTERMS AND
        # CONDITIONS FOR ...": a UK cover lists its parties above the title.)
        or _COVER_PARTY_LINE.search(text, max(0, heading.start - _INSTRUMENT_SELF_CHARS), heading.start) is not None
    )


@lru_cache(maxsize=1)
def _cover_role_line() -> re.Pattern[str]:
    """A cover page's or key-provisions table's party label on a line of its own: a party role
    ("LANDLORD:", "|Sublandlord:", "Lessee", "AS TENANT"), ``party_roles`` of roles.json, "sub"
    before it allowed; the name follows on the same or the next line. Or a cover's entry that
    closes with its role in brackets ("Acme Pty Ltd (ACN 000 000 000) (Grantor)")."""
    roles = "|".join(re.escape(r) for r in sorted(lexicons().party_roles, key=len, reverse=True))
    return re.compile(
        rf"^[ \t|]*(?:as[ \t]+)?(?:sub-?)?(?:{roles})[ \t]*(?::.*)?$"
        # ("Cobar Management Pty. Limited (ACN 083 171 546) (Grantor)": a deed's cover entry closes
        # with its party's role in brackets.)
        rf"|^[ \t|]*[A-Z][^\n()]{{2,120}}(?:\([^()\n]{{1,40}}\)[ \t]*)?\([ \t]*(?:{roles})[ \t]*\)[ \t]*$",
        re.IGNORECASE | re.MULTILINE,
    )


# A cover page's party list under its title: a line that only joins the parties ("AND",
# "BETWEEN", "BY AND AMONG") or gives one its role ("AS LANDLORD", "as Tenant"). A cover page
# names the instrument it is the cover of.
_COVER_PARTY_LINE = re.compile(
    r"^[ \t]*(?:(?:by[ \t]+)?(?:and[ \t]+)?(?:between|among|amongst)|and|as[ \t]+[A-Z][\w\-]*)[ \t]*:?[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


def _instrument_heading(text: str) -> Title | None:
    """A contract titled without an agreement word ("MEMORANDUM OF UNDERSTANDING", "OFFICE
    LEASE", "GUARANTY", "... STOCK INCENTIVE PLAN": ``instrument_titles``), when nothing else
    titles it: a heading line of its own among the first ``_HEADING_LINES`` lines, before the
    first preamble clause, all capitalised words ("GRANT OF LICENSE" after the preamble opens a
    section), when the text has a preamble clause or speaks of itself by a word of the heading
    (``_speaks_of_itself``)."""
    preamble = _PREAMBLE_CLAUSE.search(text, 0, min(len(text), TITLE_SCAN_CHARS))
    limit = preamble.start() if preamble is not None else TITLE_SCAN_CHARS
    for start, stripped in _heading_lines(text, limit, over_party_list=True):
        # ("Memorandum of Understanding (MoU)": the heading's own initials after it are its short
        # name, no word of the title.)
        stripped = without_own_initials(stripped)
        last = stripped.split()[-1][:1]
        # ("Warrant No. W-12" under "WARRANT TO PURCHASE COMMON STOCK" is its number line: the
        # common nouns title a caps heading line only.)
        instrument = _instrument_title().fullmatch(stripped) or (
            stripped.isupper() and _instrument_title("heading_instrument_titles").fullmatch(stripped)
        )
        if instrument and _heading_words(stripped) and (last.isupper() or last.isdigit()):
            title = Title(stripped, start, start + len(stripped))
            if preamble is None and not _speaks_of_itself(text, title):
                return None
            # "NORTHGATE CAMPUS LEASE" (a running label) over "OFFICE BUILDING LEASE", which the
            # preamble repeats ("This Office Building Lease is made"): the repeated heading,
            # when it is an instrument heading line too, is the document's own.
            repeated = _heading_repeated_by_preamble(text, None)
            if repeated is not None and repeated.start > title.end and _instrument_title().fullmatch(repeated.text):
                return repeated
            return title
    return None


# A filing run into one line: its first line is longer than any heading line.
_RUN_IN_LINE_CHARS = 120
# How far a date before a run-in heading may reach ("11 April 2021", "April 11, 2021").
_RUN_IN_DATE_CHARS = 30
# How many words an instrument's subject may run to after its leading words, in a run-in line
# ("ASSIGNMENT OF" + "PATENT RIGHTS AND RELATED APPLICATIONS").
_RUN_IN_SUBJECT_WORDS = 8


@lru_cache(maxsize=1)
def _run_in_instrument_title() -> re.Pattern[str]:
    """An instrument's heading as the first words of a run-in line: up to six capitalised words
    ending in an instrument word (either list), then a word that cannot continue a heading (a
    lower-case word, a figure, "This"/"THIS", or the other case: "GUARANTY Guarantor")."""
    data = load_json("agreement_kinds.json")
    alternatives = phrase_alternation({*data["instrument_titles"], *data["heading_instrument_titles"]}, r"[ \t]+")
    leading = phrase_alternation(data["leading_instrument_titles"], r"[ \t]+")
    return re.compile(
        # An instrument that names its subject after its first words, up to the preamble's
        # "This": "ASSIGNMENT OF PATENT RIGHTS This Assignment is made ..." (the subject's end
        # is only known where the preamble starts).
        rf"(?P<leading>(?i:{leading})(?:[ \t]+(?:[A-Z][\w&'’\-/.,]*|and|of|the|to|&)){{1,{_RUN_IN_SUBJECT_WORDS}}}?)"
        r"(?=[ \t]+(?:THIS|This)\b)"
        # (Or the same words again: the preamble's run-in subject repeats the heading, "SECOND
        # AMENDMENT TO LEASE SECOND AMENDMENT TO LEASE dated as of ...".)
        rf"|(?P<caps>(?:[A-Z][A-Z0-9&'’\-/.]*[ \t]+){{0,5}}?(?i:{alternatives}))"
        r"(?=[ \t]+(?:THIS\b|This\b|[^A-Za-z\s]|[a-z]|[A-Z][a-z]|(?P=caps)\b))"
        # (In title case a connector after it goes on with the title: "Ragnarok License and
        # Distribution Agreement" is no licence heading. The instrument word itself is in title
        # case here: a caps "ASSIGNMENT OF ..." is the caps reading's or the leading one's.)
        rf"|(?P<title>(?:[A-Z][a-z][\w&'’\-]*[ \t]+(?:(?:of|and)[ \t]+)?){{0,5}}?(?=[A-Z][a-z])(?i:{alternatives}))"
        r"(?=[ \t]+(?:THIS\b|[^A-Za-z\s]|(?!(?:and|of|for|to|the|on|in)\b)[a-z]|[A-Z]{2}))"
    )


@lru_cache(maxsize=1)
def _caps_leading_instrument() -> re.Pattern[str]:
    """A caps instrument heading that names its subject ("ASSIGNMENT OF PATENT RIGHTS AND
    TECHNOLOGY"), up to ``_RUN_IN_SUBJECT_WORDS`` words after its leading ones, right before a
    preamble's "This"/"THIS" and the word after it."""
    alternatives = phrase_alternation((w.upper() for w in load_json("agreement_kinds.json")["leading_instrument_titles"]), r"[ \t]+")
    return re.compile(
        rf"(?<![\w&\-])(?P<heading>(?:{alternatives})(?:[ \t]+(?:[A-Z][A-Z0-9&'’\-/.,]*|&)){{1,{_RUN_IN_SUBJECT_WORDS}}}?)"
        r"(?=[ \t]+(?:THIS|This)[ \t]+(?P<called>[A-Za-z]+))"
    )


def _leading_instrument_further_in(line: str, position: int) -> re.Match[str] | None:
    """Further into a run-in line, past a legend or a cover's running label: the first caps
    instrument heading that names its subject, run into a preamble that calls the text by the
    heading's first word ("... SEPARATELY FILED] ASSIGNMENT OF PATENT RIGHTS AND TECHNOLOGY This
    Assignment is entered into ..."). Only in the opening (``TITLE_SCAN_CHARS``)."""
    for match in _caps_leading_instrument().finditer(line, position, min(len(line), TITLE_SCAN_CHARS)):
        if match.group("called").casefold() == match.group("heading").split()[0].casefold():
            return match
    return None


_HEAD_INITIAL_CHARS = 1_500
_HEAD_INITIAL_WORDS = 10


@dataclass(frozen=True, slots=True)
class _HeadInitial:
    head: re.Pattern[str]
    joiners: frozenset[str]
    openers: tuple[str, ...]
    stops: frozenset[str]
    romance_words: frozenset[str]
    english_words: frozenset[str]


@lru_cache(maxsize=1)
def _head_initial() -> _HeadInitial:
    data = load_json("agreement_kinds.json")
    heads = phrase_alternation(data["head_initial_titles"], r"[ \t]+")
    # The head opens the text, a line or a sentence ("... NO. 11C11512021. CONVENIO DE ...").
    return _HeadInitial(
        head=re.compile(rf"(?:\A|(?<=\n)|(?<=\.[ \t]))[ \t]*((?i:{heads}))(?![\w\-])"),
        joiners=frozenset(w.casefold() for w in data["head_initial_joiners"]),
        openers=tuple(w.casefold() for w in data["head_initial_openers"]),
        romance_words=frozenset(data["romance_function_words"]),
        english_words=frozenset(data["english_function_words"]),
        stops=frozenset(w.casefold() for w in data["head_initial_stops"]),
    )


# A line of words only, up to ``_HEAD_INITIAL_WORDS`` after the head.
_SENTENCE_CASE_LINE = re.compile(r"[^\W\d_]+(?:[ \t]+[^\W\d_]+(?:['’\-][^\W\d_]+)*){1,8}")


def _head_initial_title(text: str) -> Title | None:
    """A Spanish or French title in the opening, its head noun first: "CONVENIO DE COLABORACIÓN
    QUE CELEBRAN, ..." is "CONVENIO DE COLABORACIÓN", "CONVENTION DE PARTENARIAT 2011-2013". The
    head and its words share their case (capitals, or capitalised words with lower-case joiners);
    a stop word (``head_initial_stops``), punctuation other than a hyphen or a line end closes it.
    A linking word follows the head (``head_initial_openers``) unless the opening's function
    words are mostly Spanish or French; at least one word after the head: a bare "Contrato" names
    no title."""
    cues = _head_initial()
    words_of_opening = re.findall(r"[^\W\d_]+", text[:_HEAD_INITIAL_CHARS].casefold())
    romance = sum(w in cues.romance_words for w in words_of_opening) > sum(w in cues.english_words for w in words_of_opening)
    for match in cues.head.finditer(text, 0, min(len(text), _HEAD_INITIAL_CHARS)):
        head = match.group(1)
        shouted = head.isupper()
        if not (shouted or head[:1].isupper()):
            continue
        end = match.end(1)
        # ("Convention de partenariat" alone on its line: a French title is written in sentence
        # case; its lower-case words are the title's when the line holds only words.)
        line_end = text.find("\n", end)
        line = text[match.start(1) : len(text) if line_end == -1 else line_end].strip()
        sentence_line = not shouted and _SENTENCE_CASE_LINE.fullmatch(line) is not None
        words = 0
        last_word_end = end
        for word in re.finditer(r"[ \t]+([^\s,.;:()\"“”]+)", text[end : end + 200]):
            if word.start() != last_word_end - end or words >= _HEAD_INITIAL_WORDS:
                break
            token = word.group(1)
            folded = token.casefold()
            # (In an opening not written in Spanish or French, the head's first word is a linking
            # word: "CONVENIO DE ...", "CONVENTION D'OCCUPATION"; "CONVENTION CENTER AUTHORITY"
            # over English prose is no title. "CONVENTION MINIÈRE" over French prose is one.)
            if words == 0 and not (romance or folded in cues.openers or folded.startswith(("d'", "d’"))):
                break
            # (A second head opens another line's label: "CONTRATO DE PRESTACIÓN DE SERVICIOS
            # CONTRATO NO. P300289".)
            if folded in cues.stops or cues.head.fullmatch(token) is not None:
                break
            cased = token.isupper() if shouted else token[:1].isupper() or sentence_line
            if not (folded in cues.joiners or cased or token[:1].isdigit()):
                break
            words += 1
            last_word_end = end + word.end()
        # (Trailing joiners are no words of the title: "CONVENIO DE" before a line break.)
        title_text = text[match.start(1) : last_word_end]
        while title_text.split()[-1].casefold() in cues.joiners and len(title_text.split()) > 1:
            title_text = title_text[: title_text.rstrip().rfind(" ")].rstrip()
        if len(title_text.split()) >= 2:
            return Title(title_text, match.start(1), match.start(1) + len(title_text))
    return None


def _run_in_instrument(text: str) -> Title | None:
    """A filing run into one line that opens, after page furniture only ("Exhibit 10.9"), with an
    instrument's heading ("Exhibit 10.9 GUARANTY THIS GUARANTY (this "Guaranty") is made ...",
    "Exhibit 10.8 Secured Promissory Note $250,000 ... FOR VALUE RECEIVED"): titled like an
    instrument heading line (``_instrument_heading``: the text has a preamble clause or speaks of
    itself), in one case throughout, where a line of its own would hold it. A shorter line
    (after furniture lines: "Exhibit 10.4\nASSIGNMENT AND ASSUMPTION OF LEASE This ASSIGNMENT is
    made ...") is run in only where the preamble's "This" follows the heading on it."""
    first = next((m for m in re.finditer(r"[^\n]*\S[^\n]*", text[:TITLE_SCAN_CHARS]) if not _page_furniture(m.group().strip())), None)
    if first is None:
        return None
    line = first.group()
    short = len(line.strip()) <= _RUN_IN_LINE_CHARS
    position = 0
    while True:
        # Skip the page furniture before the heading a word at a time ("Exhibit", "10.9"), and
        # a letter's date ("Exhibit 10.3 April 11, 2021 ACKNOWLEDGEMENT As we discussed").
        rest = line[position:]
        stripped, dropped = _strip_noise(rest.lstrip())
        skipped = len(rest) - len(rest.lstrip()) + dropped
        if not skipped:
            date = next(iter(dates_in(line, position, min(len(line), position + _RUN_IN_DATE_CHARS))), None)
            if date is None or line[position : date.start].strip():
                break
            skipped = date.end - position
        position += skipped
    heading = _run_in_instrument_title().match(line, position) or _leading_instrument_further_in(line, position)
    if heading is None or (short and re.match(r"[ \t]+(?:THIS|This)\b", line[heading.end() :]) is None):
        return None
    title = Title(heading.group(), first.start() + heading.start(), first.start() + heading.end())
    if has_agreement_preamble(text) or _speaks_of_itself(text, title):
        return title
    return None


@lru_cache(maxsize=1)
def _this_instrument() -> re.Pattern[str]:
    words = load_json("agreement_kinds.json")["instrument_titles"]
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"[ \t]+") for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"\b(?:THIS|This)[ \t]+((?:[A-Z][\w&'’\-]*[ \t]+){{0,3}}?(?i:{alternatives}))(?![\w\-])")


def _self_referenced_instrument(text: str) -> Title | None:
    """A form with no heading line of its own ("... BANK MASTER LEASE C/O ... LESSOR HEREBY AGREES
    TO LEASE ... TO THIS MASTER LEASE"): the text calls itself "this <Name>", a capitalised
    instrument title of at least two words, and the title is that name where the opening first
    shows it in the same words (its heading, however run in), else the self-reference itself.
    The last resort of ``find_title``; only in the opening (``PREAMBLE_CLAUSE_CHARS``)."""
    # ("This Memorandum of Understanding (MoU) between ...": the instrument title alone counts when
    # it has two words or more; "this Lease" alone is no name.)
    match = next(
        (m for m in _this_instrument().finditer(text, 0, min(len(text), PREAMBLE_CLAUSE_CHARS)) if len(m.group(1).split()) >= 2),
        None,
    )
    if match is None:
        return None
    name = match.group(1)
    shown = re.compile(r"(?<![\w\-])" + r"[ \t]+".join(re.escape(w) for w in name.split()) + r"(?![\w\-])")
    first = shown.search(text, 0, match.start(1))
    start, end = (first.start(), first.end()) if first is not None else (match.start(1), match.end(1))
    return Title(" ".join(text[start:end].split()), start, end)


# "Contract for supply of packaging materials": a heading in sentence case that opens with the
# agreement word and a joining word, its subject in lower-case words after it.
# ("Agreement for the provision of services and the allocation of expenses": up to ten words.)
_SENTENCE_CASE_HEADING = re.compile(
    r"(?:Agreement|Contract)[ \t]+(?:for|of|on)(?:[ \t]+[a-z][a-z\-]*){1,10}"
    # ("Sales contract of Industrial and Mineral Products", "Purchase contract": a translation's
    # kind of contract, capitalised, before the agreement word in lower case.)
    r"|(?!(?:This|The|Such|Each|Any|Said|Every|No)\b)[A-Z][a-z\-]+(?:[ \t]+[a-z][a-z\-]*){0,2}[ \t]+(?:contract|agreement)"
    r"(?:[ \t]+(?:for|of|on)(?:[ \t]+(?:[A-Za-z][a-z\-]*)){1,10})?"
)
_SENTENCE_CASE_PROSE = (_LEADING_AGREEMENT_PROSE | _NOT_HEADING_WORDS) - {"the"}


def _sentence_case_heading(text: str) -> Title | None:
    """A line of its own among the first heading lines (``_heading_lines``), before any preamble
    clause, that is an agreement-word title in sentence case (``_SENTENCE_CASE_HEADING``, no
    verb or party-list word): translations title contracts so. Only the whole line: in prose
    ("contract for the sale of the goods is made") the words go on."""
    preamble = _PREAMBLE_CLAUSE.search(text, 0, min(len(text), TITLE_SCAN_CHARS))
    limit = preamble.start() if preamble is not None else TITLE_SCAN_CHARS
    for start, line in _heading_lines(text, limit):
        if _SENTENCE_CASE_HEADING.fullmatch(line) and not _SENTENCE_CASE_PROSE & {w.casefold() for w in line.split()[1:]}:
            return Title(line, start, start + len(line))
    return None


# A letter agreement's subject heading: the line right under its salutation ("Dear Sirs,\nTERM
# LOAN FACILITY"), in capitals, with at most this many words. The term it defines for itself after
# it ('("HGS SCHEME")') is no part of it.
_LETTER_SUBJECT_WORDS = 12
_DEFINED_AFTER = re.compile(r"[ \t]*\((?:the[ \t]+)?[\"“][^\"”()\n]{1,60}[\"”]\)[ \t]*$")


@dataclass(frozen=True, slots=True)
class Letter:
    """A letter agreement: where its salutation starts, and the subject line that names it, if
    any. Decided in one place (``read_letter``): the title reader takes ``subject`` as the title
    (``find_title``, through ``letter_subject``), and party reading (``ingest/annotate.py``)
    reads a letter's parties, not a preamble's, when that subject is the title."""

    salutation: int
    subject: Title | None

    def titled_by_subject(self, title: Title | None) -> bool:
        """Whether ``title`` is this letter's subject line: it names the letter, and opens no
        contract preamble."""
        return title is not None and title == self.subject


def read_letter(text: str) -> Letter | None:
    """The letter agreement ``text`` is (``letter_salutation``: a salutation and words of a
    contract after it), or None: the one place a text is decided to be a letter."""
    salutation = letter_salutation(text)
    if salutation is None:
        return None
    return Letter(salutation, _subject_under(text, salutation) or _letter_reference(text, salutation))


# "Re: Offer Letter", "RE: AUDIT ENGAGEMENT LETTER": a reference line that names a letter (never
# another agreement: "Re: Consulting Agreement" over a letter that amends it names the parent).
_LETTER_REFERENCE = re.compile(
    r"(?m)^[ \t]*(?:RE|Re|SUBJECT|Subject)[ \t]*:[ \t]*"
    # ("Re: Amended and Restated Employment Letter": a lower-case joiner inside the name.)
    r"(?P<title>(?:[A-Z][\w&'’\-]*[ \t]+(?:(?:[A-Z][\w&'’\-]*|and|of|&)[ \t]+){0,5})?(?:Letter(?:[ \t]+Agreement)?|LETTER(?:[ \t]+AGREEMENT)?))[ \t]*$"
)
_THIS_LETTER = re.compile(r"\b(?i:this[ \t\n]+letter)\b")
# How far above the salutation the reference line, and below it the letter's "this letter", may stand.
_LETTER_REFERENCE_CHARS = 400
_THIS_LETTER_CHARS = 1_500


# "Re: Limited Waiver and Consent": a reference line that names an instrument a letter itself is
# (a waiver, a consent, a release), never an agreement it cites.
_INSTRUMENT_REFERENCE = re.compile(
    r"(?m)^[ \t]*(?:RE|Re|SUBJECT|Subject)[ \t]*:[ \t]*"
    r"(?P<title>(?:[A-Z][\w&'’\-]*[ \t]+(?:(?:[A-Z][\w&'’\-]*|and|of|&)[ \t]+){0,5})?"
    r"(?i:waiver|consent|release|acknowledge?ment|undertaking|joinder))[ \t]*$"
)
# An addressee's acceptance under a letter ("ACKNOWLEDGED AND AGREED:"): the letter is signed as
# an instrument of its own.
_ACCEPTANCE_LINE = re.compile(
    r"(?im)^[ \t]*(?:accepted[ \t]+and[ \t]+agreed|agreed[ \t]+and[ \t]+accepted|acknowledged[ \t]+and[ \t]+agreed"
    r"|agreed[ \t]+to[ \t]+and[ \t]+accepted|accepted[ \t]+and[ \t]+acknowledged)\b"
)


def _letter_reference(text: str, salutation: int) -> Title | None:
    """A letter's reference line above its salutation that names the letter itself, when the
    letter then speaks of "this letter": "Re: Offer Letter" ... "the terms set forth in this letter
    agreement"; or one that names an instrument ("Re: Limited Waiver and Consent") over a letter
    that speaks of "this letter" or "this Waiver", or that its addressee accepts. Its title, as
    written."""
    floor = max(0, salutation - _LETTER_REFERENCE_CHARS)
    instrument = list(_INSTRUMENT_REFERENCE.finditer(text, floor, salutation))
    if instrument and amendment_of(instrument[-1].group("title")) is None:
        reference = instrument[-1]
        last_word = re.findall(r"[\w\-]+", reference.group("title"))[-1]
        itself = re.compile(r"\b(?i:this[ \t\n]+(?:letter|" + re.escape(last_word) + r"))\b")
        if (
            itself.search(text, salutation, min(len(text), salutation + _THIS_LETTER_CHARS)) is not None
            or _ACCEPTANCE_LINE.search(text, salutation) is not None
        ):
            return Title(reference.group("title"), reference.start("title"), reference.end("title"))
    found = list(_LETTER_REFERENCE.finditer(text, floor, salutation))
    # ("Re: Offer of Employment", "Re: Exclusive Placement Agent Engagement": a subject in
    # capitalised words that names no agreement, company or number is what the letter is, when
    # the letter calls itself "this letter".)
    subject = [m for m in _SUBJECT_REFERENCE.finditer(text, floor, salutation) if _names_the_letter(m.group("title"))]
    if not found and subject:
        found = subject[-1:]
    if not found or amendment_of(found[-1].group("title")) is not None:
        return None
    if _THIS_LETTER.search(text, salutation, min(len(text), salutation + _THIS_LETTER_CHARS)) is None:
        return None
    reference = found[-1]
    return Title(reference.group("title"), reference.start("title"), reference.end("title"))


# A reference line of two to eight capitalised words (lower-case "of", "and", "for", "to", "&"
# between them) and nothing else.
_SUBJECT_REFERENCE = re.compile(
    r"(?m)^[ \t]*(?:RE|Re|SUBJECT|Subject)[ \t]*:[ \t]*"
    r"(?P<title>[A-Z][\w'’\-]*(?:[ \t]+(?:[A-Z][\w'’\-]*|of|and|for|to|&)){1,7})[ \t]*$"
)


def _names_the_letter(subject: str) -> bool:
    """Whether a reference line's subject may be the letter's own name: no agreement or
    instrument word (that names the agreement the letter is about: "Re: Consulting Agreement",
    "Re: Promissory Note"), no legal form (a company: "Re: Acme Holdings, Inc."), no digit (a file
    or loan number)."""
    return (
        _AGREEMENT_WORD.search(subject) is None
        and _instrument_title().search(subject) is None
        and not _ends_in_legal_form(subject)
        and re.search(r"[0-9]", subject) is None
    )


def letter_subject(text: str) -> Title | None:
    """The subject heading of the letter agreement ``text`` is (``read_letter``), if any."""
    letter = read_letter(text)
    return letter.subject if letter is not None else None


def _subject_under(text: str, salutation: int) -> Title | None:
    """The subject heading of a letter: the first line under the salutation when it is a heading
    in capitals (``_heading_words``, no company's name), its defined term left out. A letter has
    no heading above its addressee block; this line is where it names what it is ("TERM LOAN
    FACILITY", "OFFER OF EMPLOYMENT"). A "Re:" line is a reference, not the letter's name."""
    line_end = text.find("\n", salutation)
    if line_end == -1:
        return None
    following = re.compile(r"[ \t]*\n?[ \t]*(?P<line>[^\n]*)").match(text, line_end + 1)
    if following is None:
        return None
    line = following.group("line").strip()
    subject = _DEFINED_AFTER.sub("", line).strip()
    if (
        not subject
        or not subject.isupper()
        or len(subject.split()) > _LETTER_SUBJECT_WORDS
        or _SUBJECT_LABEL.match(subject)
        or not _heading_words(subject)
        or _ends_in_legal_form(subject)
    ):
        return None
    start = following.start("line") + following.group("line").index(line)
    return Title(subject, start, start + len(subject))


# A heading line the text then calls itself by: "TERMS OF TRANSFER" ... "these Terms of Transfer
# form part of ...", "Deed of Share Pledge" ... "Purpose of this Deed". Words of the heading line, and
# how far after it the text must say so.
_NAMED_HEADING_WORDS = (2, 8)
_NAMED_HEADING_CHARS = 1_500


# The line right above (no blank line between) ends in a lower-case word or a comma.
_CONTINUED_SENTENCE = re.compile(r"[a-z,][ \t]*\n[ \t]*\Z")


def _heading_named_by_text(text: str) -> Title | None:
    """A heading line among the first heading lines (``_heading_lines``: capitalised words, two to
    eight, no company's name, no label ending in a colon) that the text after it names itself by:
    "this"/"these" and a word of the heading, capitalised as a name ("this Deed", "THIS LEASE",
    "these Terms"). A document with no agreement word in its heading still calls itself by it;
    a line the text never takes up (a letterhead, a caption) is not its name. Late in
    ``find_title``: every agreement-word title comes first."""
    for start, line in _heading_lines(text, TITLE_SCAN_CHARS):
        words = line.split()
        if not _NAMED_HEADING_WORDS[0] <= len(words) <= _NAMED_HEADING_WORDS[1] or not _heading_words(line):
            continue
        if line.endswith(":") or re.search(r"[0-9]", line) or _ends_in_legal_form(line) or _strip_noise(line)[1]:
            continue
        # ("... the procedure attached to this\n   Agreement as Appendix I.": a line that goes on
        # with the sentence of the line right above it is no heading.)
        if _CONTINUED_SENTENCE.search(text, max(0, start - 200), start):
            continue
        own = [w for w in words if len(w) > 3 and w[:1].isupper() and w.casefold() not in _HEADING_CONNECTORS]
        if not own:
            continue
        named = re.compile(r"\b(?:this|these|THIS|THESE|This|These)[ \t]+(?:" + "|".join(re.escape(w) for w in own) + r")\b", re.IGNORECASE)
        end = start + len(line)
        for found in named.finditer(text, end, min(len(text), end + _NAMED_HEADING_CHARS)):
            word = found.group().split()[-1]
            if word[:1].isupper():
                return Title(line, start, end)
    return None


# 'This Exhibit B is entered into as of ...': a document that names itself by its label.
_LABEL = r"(?:EXHIBIT|Exhibit|SCHEDULE|Schedule|ANNEX|Annex|APPENDIX|Appendix)"
_LABEL_ID = r"[\"'‘’“]?[A-Z0-9][\w.\-]{0,5}[\"'‘’”]?"
_SELF_LABEL = re.compile(
    rf"\b(?:THIS|This)[ \t]+({_LABEL}[ \t]+{_LABEL_ID})[ \t]+(?:is|IS)[ \t]+(?:hereby[ \t]+)?"
    r"(?:made|entered[ \t]+into|executed|dated)\b"
)
_LABEL_HEADING = re.compile(rf"{_LABEL}(?:[ \t]+{_LABEL_ID})?")


def self_label(text: str) -> Title | None:
    """An exhibit, schedule or addendum that is a contract of its own and says so in its
    preamble ('This Exhibit B is entered into ... by and between ...'): its title is the label
    heading right before that sentence when it has the same words ("EXHIBIT 'B'"), else the
    label the sentence gives. Only in the opening (``PREAMBLE_CLAUSE_CHARS``)."""
    match = _SELF_LABEL.search(text, 0, min(len(text), PREAMBLE_CLAUSE_CHARS))
    if match is None:
        return None
    label = " ".join(name_words(match.group(1)))
    before = text[max(0, match.start() - 200) : match.start()]
    offset = match.start() - len(before)
    for heading in _LABEL_HEADING.finditer(before):
        if " ".join(name_words(heading.group())) == label and not before[heading.end() :].strip():
            return Title(heading.group(), offset + heading.start(), offset + heading.end())
    return Title(match.group(1), match.start(1), match.end(1))


# The opening lines an amendment heading is looked for in, and how many words such a line has
# at most: a heading, not prose.
_AMENDMENT_HEADING_LINES = 6
_HEADING_LINE_WORDS = 12
# "TO", "TO THE", "of that": a line that only joins an amendment heading to its parent's title.
_JOINING_LINE = re.compile(r"(?:to|of)(?:[ \t]+(?:the|that))?", re.IGNORECASE)
# An amendment's number on a line of its own below its word: "NO. 1 TO", "Number 2".
_AMENDMENT_NUMBER_LINE = re.compile(r"(?:NO\.?|No\.?|NUMBER|Number)[ \t]*[0-9]{1,3}(?:[ \t]+(?:TO|OF|to|of)(?:[ \t]+(?:THE|the))?)?")
# The first line of a parent's title set over two lines: one to four capitalised words.
_PARENT_HEAD_LINE = re.compile(r"(?:(?:TO|OF|to|of)[ \t]+(?:(?:THE|the)[ \t]+)?)?[A-Z][\w&\-]*(?:[ \t]+[A-Z][\w&\-]*){0,3}")
# A parent's title on a heading line of its own: ends in an agreement word, optionally followed
# by its identifier ("Wireless Content License Agreement Number 12965").
# ("Administrative Services Agreement 2005 ("Agreement")": a year after it is part of its name,
# the term it is defined by is not.)
_PARENT_LINE = re.compile(
    r"(?:(?:to|of)[ \t]+(?:(?:the|that)[ \t]+)?)?(?P<title>.*?\b(?:AGREEMENT|Agreement|CONTRACT|Contract|LEASE|Lease)"
    r"(?:[ \t]+(?:Number|NUMBER|No\.?|NO\.?)[ \t]*[A-Z0-9][\w.\-/]*|[ \t]+(?:19|20)[0-9]{2})?)"
    r"(?:[ \t]*\((?:the[ \t]+)?[\"“][^\"”()\n]{1,40}[\"”]\))?"
    # ("to the Supply Agreement of March 3, 2006": the parent's date after its title.)
    r"(?:,?[ \t]+(?:of|dated|dated[ \t]+as[ \t]+of)[ \t]+(?:[A-Z][a-z]+\.?[ \t]+[0-9]{1,2},?[ \t]+(?:19|20)[0-9]{2}|[0-9]{1,2}[ \t]+[A-Z][a-z]+,?[ \t]+(?:19|20)[0-9]{2}))?"
)
_HEADING_CONNECTORS = frozenset("a an and as at by for from in into of on or the to under upon with".split())


def _heading_words(line: str) -> bool:
    """A heading line: at most ``_HEADING_LINE_WORDS`` words, each capitalised, a number or a
    connector word; no sentence ("This Amendment is made ...")."""
    words = line.split()
    if not words or len(words) > _HEADING_LINE_WORDS:
        return False
    for word in words:
        letters = [c for c in word if c.isalpha()]
        # ("2nd Amendment": an ordinal written in digits opens with its number.)
        if letters and not word[:1].isdigit() and not letters[0].isupper() and word.strip("(),.:;\"'").casefold() not in _HEADING_CONNECTORS:
            return False
    return not _NOT_HEADING_WORDS - {"to", "the", "under", "by", "with"} & {w.casefold() for w in words}


def _opening_lines(text: str) -> list[tuple[int, str]]:
    """(start, stripped line) of the first non-empty lines, up to the first line of prose."""
    lines: list[tuple[int, str]] = []
    head = text[:TITLE_SCAN_CHARS]
    legends = _legend_sentences(head)
    for match in re.finditer(r"[^\n]+", head):
        stripped = match.group().strip()
        # "FIRST ADDENDUM\n|\nto\n|\n...": a table's rule between cells is layout, no line.
        if not stripped or not any(c.isalnum() for c in stripped) or _filing_label_line(stripped):
            continue
        # "CONFIDENTIAL TREATMENT REQUESTED" / "The\nconfidential portions of this exhibit ...
        # REDACTED PORTIONS OF THIS EXHIBIT ARE MARKED BY AN ***." above the heading: a legend's
        # lines are page furniture before any heading line.
        if legend_words().search(stripped) or any(a <= match.start() and match.end() <= b for a, b in legends):
            continue
        if len(lines) == _AMENDMENT_HEADING_LINES:
            break
        if not _heading_words(stripped):
            # "FIRST AMENDMENT TO THE CO-PROMOTION\nAGREEMENT BETWEEN\nVERNALIS ...": the heading's
            # last word on the line that opens the party list is still the heading's.
            tail = _HEADING_TAIL_BEFORE_LIST.match(stripped)
            if lines and tail is not None:
                lines.append((match.start() + match.group().index(stripped), tail.group(1)))
            break
        lines.append((match.start() + match.group().index(stripped), stripped))
    return lines


# An agreement word closing a heading, then the party list's own word on the same line.
_HEADING_TAIL_BEFORE_LIST = re.compile(r"((?:AGREEMENT|CONTRACT|Agreement|Contract))[ \t]+(?:BETWEEN|AMONG|Between|Among|between|among)\b")


# Where a sentence of the opening ends: a period before white space, or a blank line.
_OPENING_SENTENCE_END = re.compile(r"\.(?=\s)|\n[ \t]*\n")


def _legend_sentences(head: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``head`` that hold a confidential-treatment legend's words."""
    ends = [0, *(m.end() for m in _OPENING_SENTENCE_END.finditer(head)), len(head)]
    spans: list[tuple[int, int]] = []
    for a, b in zip(ends, ends[1:]):
        found = legend_words().search(head, a, b)
        if found is None:
            continue
        a = _legend_start(head, a, found.start())
        # (Sentences of one legend run together: a line may hold the end of one and the next.)
        if spans and spans[-1][1] == a:
            a = spans.pop()[0]
        spans.append((a, b))
    return spans


def _legend_start(head: str, sentence_start: int, words_at: int) -> int:
    """Where a legend's sentence starts: on the line of its words (``words_at``), or on the lines
    of prose right above it ("The\nconfidential portions ..."). A page converted without blank
    lines runs a heading into the next legend's sentence ("...1934.\nFIRST AMENDMENT\nto the
    Supply Agreement ...\nUSA\n("Supplier")\nPortions of this Exhibit ..."): a line without a
    lower-case letter above the legend is the heading's, not the legend's."""
    start = max(sentence_start, head.rfind("\n", sentence_start, words_at) + 1)
    while start > sentence_start:
        above = max(sentence_start, head.rfind("\n", sentence_start, start - 1) + 1)
        if not any(c.islower() for c in head[above : start - 1]):
            break
        start = above
    return start


@lru_cache(maxsize=1)
def _own_heading_words() -> frozenset[str]:
    """Schedule-like words whose heading titles a contract of its own ("STATEMENT OF WORK NO. 4")."""
    return frozenset(load_json("agreement_kinds.json")["own_heading_words"])


def amendment_heading(text: str) -> Title | None:
    """An amendment's own heading among the opening heading lines (before any prose):
    "AMENDMENT NO. 1", "FIRST AMENDMENT", "ADDENDUM NO. 2 TO", with the lines that continue it
    into its parent's title ("TO THE" / "WIRELESS CONTENT LICENSE AGREEMENT", or the parent's
    title on the next heading line). A heading is one title even when it is not one line: the
    title spans its lines, with white space collapsed. Only the "amends" words count (a
    "SCHEDULE A" line atop an exhibit is page furniture), and the line must name the amendment
    itself: a number or ordinal, a joining "to"/"of", or an all-caps line ("ADDENDUM")."""
    lines = _opening_lines(text)
    for index, (start, line) in enumerate(lines):
        amendment = amendment_of(line)
        self_named = amendment is None and (amendment := _self_named_schedule(text, start, line)) is not None
        if amendment is None or (
            amendment.relation != "amends" and amendment.word not in _own_heading_words() and not self_named
        ):
            continue
        names_itself = amendment.number is not None or line.isupper() or amendment.parent is not None
        if not names_itself and not re.search(r"(?i)\b(?:to|of)$", line):
            continue
        end = start + len(line)
        following = lines[index + 1 :]
        # "AMENDMENT\nNO. 1 TO\nEXCLUSIVE\nLICENSE AGREEMENT": a heading set a word or two a line
        # writes the amendment's number on the line below its word.
        if amendment.number is None and following and _AMENDMENT_NUMBER_LINE.fullmatch(following[0][1]):
            end = following[0][0] + len(following[0][1])
            following = following[1:]
        if amendment.parent is None:
            for position, (next_start, next_line) in enumerate(following):
                if _JOINING_LINE.fullmatch(next_line):
                    continue
                parent = _PARENT_LINE.fullmatch(next_line)
                if parent is not None and amendment_of(parent.group("title")) is None:
                    end = next_start + parent.end("title")
                elif position + 1 < len(following) and _PARENT_HEAD_LINE.fullmatch(next_line):
                    # (The parent's title over two lines: "EXCLUSIVE" / "LICENSE AGREEMENT".)
                    below_start, below = following[position + 1]
                    parent = _PARENT_LINE.fullmatch(below)
                    if parent is not None and amendment_of(f"{next_line} {parent.group('title')}") is None:
                        end = below_start + parent.end("title")
                break
        if re.search(r"(?i)[ \t]+(?:to|of)(?:[ \t]+the)?$", text[start:end]):
            # "AMENDMENT NO. 1 TO" with no parent's title below it: the amendment alone.
            end = start + len(re.sub(r"(?i)[ \t]+(?:to|of)(?:[ \t]+the)?$", "", text[start:end]))
        # (A table's rules between its cells are no words of the title.)
        return Title(" ".join(w for w in text[start:end].split() if w.strip("|")), start, end)
    # "Exhibit 10.32 Amendment 3 Amendment 3 made and entered into ...": a run-in heading the
    # preamble's first words repeat.
    run_in = _RUN_IN_AMENDMENT.search(text, 0, min(len(text), _RUN_IN_AMENDMENT_CHARS))
    group = 1 if run_in is not None and run_in.group(1) is not None else 2
    if run_in is not None and amendment_of(run_in.group(group)) is not None:
        return Title(" ".join(run_in.group(group).split()), run_in.start(group), run_in.end(group))
    return None


_RUN_IN_AMENDMENT_CHARS = 400
_RUN_IN_AMENDMENT = re.compile(
    r"(?<![\w])((?:[A-Z][a-z]+[ \t]+|[A-Z]+[ \t]+)?(?:AMENDMENT|Amendment|ADDENDUM|Addendum)"
    r"(?:[ \t]+(?:NO\.?|No\.?|NUMBER|Number))?[ \t]*[0-9]{1,3})[ \t]+(?:(?:THIS|This)[ \t]+)?(?i:\1)"
    r"[ \t]+(?:\([^()]{1,40}\)[ \t]+)?(?:is[ \t]+)?(?:made|entered|dated)\b"
    # ("AMENDMENT NO. 1 This AMENDMENT NO. 1 to the Agreements (as hereinafter defined) (this
    # "Amendment"), dated as of ...": the repeat may name what it amends before its verb.)
    r"|(?<![\w])((?:[A-Z][a-z]+[ \t]+|[A-Z]+[ \t]+)?(?:AMENDMENT|Amendment|ADDENDUM|Addendum)"
    r"(?:[ \t]+(?:NO\.?|No\.?|NUMBER|Number))?[ \t]*[0-9]{1,3})[ \t]+(?:THIS|This)[ \t]+(?i:\2)[ \t]+(?:to|TO)[ \t]"
    r"[^;\n]{0,160}?\b(?:made|entered|dated)\b"
)


# Up to two capitalised words before a schedule's word: "EQUIPMENT SCHEDULE NO. 4", "Lease Supplement No. 2".
_SCHEDULE_MODIFIER = re.compile(r"[A-Z][A-Za-z&\-]*[ \t]+(?=[A-Z])")
_SCHEDULE_MODIFIER_CHARS = 60


def _self_named_schedule(text: str, start: int, line: str) -> Amendment | None:
    """A numbered schedule (or supplement) whose heading a modifier opens ("EQUIPMENT SCHEDULE NO.
    4\nto\nMASTER EQUIPMENT LEASE AGREEMENT NO. 7731"), when the prose right after calls the
    document by the whole heading ("This Equipment Schedule No. 4 (this "Schedule") is entered
    into ..."): a contract of its own under its parent, never titled as the parent. (A "SCHEDULE
    A" atop an exhibit has no number of this shape and is not named so by prose.)"""
    words = _SCHEDULE_MODIFIER.findall(line[: _SCHEDULE_MODIFIER_CHARS])
    amendment = None
    for count in (1, 2):
        if len(words) >= count and line.startswith("".join(words[:count])):
            amendment = amendment_of(line[len("".join(words[:count])) :])
            if amendment is not None:
                break
    if amendment is None or amendment.number is None or amendment.parent is not None:
        return None
    end = start + len(line)
    called = re.compile(r"\bThis\s+" + r"\s+".join(re.escape(w) for w in line.split()) + r"(?![\w.])", re.IGNORECASE)
    return amendment if called.search(text, end, min(len(text), end + _INSTRUMENT_SELF_CHARS)) else None


@lru_cache(maxsize=1)
def _amendment_head() -> re.Pattern[str]:
    """An amendment word and "to"/"of" right before a title, possibly on the lines above it
    ("ADDENDUM TO\n\nZEBRA PARTNERCONNECT DISTRIBUTOR AGREEMENT")."""
    data = load_json("agreement_kinds.json")
    words = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(data["amendment_words"], key=len, reverse=True))
    ordinals = "|".join(re.escape(w) for w in data["ordinals"])
    return re.compile(
        rf"[ \t]*(?:(?:{ordinals})\s+)?(?:{words})(?:\s*(?:(?:No\.?|Number|#)\s*)?[0-9]+[A-Za-z]?|\s+(?-i:[A-Z]))?\s+(?:to|of)(?:\s+the)?\s*$",
        re.IGNORECASE,
    )


def _with_amendment_head(text: str, title: Title) -> Title:
    """An amendment's own title, not its parent's: "AMENDMENT AND TERMINATION OF JOINT VENTURE
    AGREEMENT" rather than "JOINT VENTURE AGREEMENT". The amendment words must start a line
    within the 200 characters before the title."""
    if amendment_of(title.text) is not None:
        return title
    floor = max(0, title.start - 200)
    line_starts = [m.end() for m in re.finditer(r"\n", text[floor : title.start])]
    # ("AMENDMENT # 1 TO MAJOR ACCOUNT LICENSE AGREEMENT": a caps run that the number sign broke
    # opens with the head's own "TO"; the head is read up to the title's words after it.)
    joining = re.match(r"(?:TO|OF|to|of)[ \t]+", title.text)
    head_end = title.start + (joining.end() if joining is not None else 0)
    for offset in reversed([0, *line_starts] if floor == 0 else line_starts):
        start = floor + offset
        head = _amendment_head().match(text, start, head_end)
        if head is not None:
            begin = start + len(head.group()) - len(head.group().lstrip())
            # A heading over lines is one title: white space collapsed, the span covers the lines.
            return Title(" ".join(text[begin : title.end].split()), begin, title.end)
    return title


def _with_leading_parent(text: str, title: Title) -> Title:
    """An amendment heading whose parent is titled with the agreement word first, read whole:
    "THIRD AMENDMENT TO THE AGREEMENT FOR THE SUPPLY OF SUGARCANE JUICE AND OTHER UTILITIES", not
    "THIRD AMENDMENT TO THE AGREEMENT". The parent the title read is the bare agreement word, and
    it with the rest of the heading's line is such a title (``_LEADING_AGREEMENT``, as a heading
    of its own would be read), with no party list or preamble word in it (``_NOT_TITLE_BELOW``)."""
    amendment = amendment_of(title.text)
    if amendment is None or amendment.parent is None or re.fullmatch(r"(?i)agreement|contract", amendment.parent) is None:
        return title
    line_start = text.rfind("\n", 0, title.start) + 1
    line_end = text.find("\n", title.end)
    line_end = len(text) if line_end == -1 else line_end
    rest = text[title.end : line_end].rstrip()
    if text[line_start : title.start].strip() or not rest[:1].isspace() or _NOT_TITLE_BELOW.search(rest):
        return title
    if not text[title.start : title.end].endswith(amendment.parent):
        return title
    if _LEADING_AGREEMENT.fullmatch(" ".join(f"{amendment.parent}{rest}".split())) is None:
        return title
    end = title.end + len(rest)
    return Title(" ".join(text[title.start : end].split()), title.start, end)


@dataclass(frozen=True, slots=True)
class Amendment:
    """What an amendment-like title says about itself."""

    relation: str  # "amends" | "schedule_of"
    word: str  # "amendment", "schedule", ...
    number: str | None  # "2" in "AMENDMENT NO. 2", "second" in "SECOND AMENDMENT"
    parent: str | None  # the parent agreement's title when the title names it


@lru_cache(maxsize=1)
def _amendment_regex() -> re.Pattern[str]:
    data = load_json("agreement_kinds.json")
    words = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(data["amendment_words"], key=len, reverse=True))
    ordinals = "|".join(re.escape(w) for w in data["ordinals"])
    spelled = "|".join(re.escape(w) for w in data["number_words"])
    return re.compile(
        rf"^\s*(?:(?P<ordinal>{ordinals})\s+)?(?P<word>{words})\b"
        # "AMENDMENT NO. 2", "AMENDMENT #2" and "AMENDMENT 1 TO ..." (a bare number) alike.
        # "SCHEDULE A TO ...": a single capital letter is the id too (never "a"/"to" in prose).
        # "Amendment Number Two": a spelled number only after "No." / "Number".
        r"(?:\s*(?:(?:No\.?|Number|#)\s*)?(?P<number>[0-9]+[A-Za-z]?)\b"
        rf"|\s*(?:No\.?|Number)\s*(?P<spelled>{spelled})\b|\s+(?P<letter>(?-i:[A-Z]))(?![\w'’.]))?"
        # "STATEMENT OF WORK NO. 4 UNDER THE MASTER SERVICES AGREEMENT" names its parent too.
        r"(?:\s+(?:(?:to|of|under)\s+)?(?:the\s+|that\s+)?(?P<parent>\S.*?))?\s*$",
        re.IGNORECASE | re.DOTALL,
    )


@lru_cache(maxsize=1)
def _trailing_amendment_regex() -> re.Pattern[str]:
    """An amendment word right after the agreement it amends: "LICENSE AGREEMENT AMENDMENT NO. 2",
    "Supply Agreement Addendum"."""
    words = "|".join(
        re.escape(w).replace(r"\ ", r"\s+") for w in sorted(load_json("agreement_kinds.json")["amendment_words"], key=len, reverse=True)
    )
    return re.compile(
        rf"^\s*(?P<parent>\S.*?\b(?:agreement|contract))\s+(?P<word>{words})"
        r"(?:\s*(?:No\.?|Number|#)\s*(?P<number>[0-9]+[A-Za-z]?)|\s+(?P<bare>[0-9]{1,3}|(?-i:[IVX]{1,4})))?\s*$",
        re.IGNORECASE | re.DOTALL,
    )


def amendment_of(title: str) -> Amendment | None:
    """An amendment, addendum or schedule title, or None for an agreement of its own kind. The
    parent is only what the title itself names: "AMENDMENT NO. 1 TO THE MANUFACTURING AGREEMENT"
    -> parent "MANUFACTURING AGREEMENT"; "First Amendment" -> no parent; "LICENSE AGREEMENT
    AMENDMENT NO. 2" (the amendment word after the agreement) -> parent "LICENSE AGREEMENT"."""
    match = _amendment_regex().match(" ".join(title.split()))
    if match is None:
        trailing = _trailing_amendment_regex().match(" ".join(title.split()))
        # One case throughout, as a heading writes it: "LICENSE AGREEMENT AMENDMENT", "Supply
        # Agreement Addendum"; never "the License Agreement amendment" of prose.
        if trailing is None or not (
            trailing.group("word").isupper() if trailing.group("parent").isupper() else trailing.group("word")[0].isupper()
        ):
            return None
        word = " ".join(trailing.group("word").casefold().split())
        relation = load_json("agreement_kinds.json")["amendment_relations"][word]
        return Amendment(relation, word, trailing.group("number") or trailing.group("bare"), trailing.group("parent"))
    relations = load_json("agreement_kinds.json")["amendment_relations"]
    word = " ".join(match.group("word").casefold().split())
    parent = match.group("parent")
    # "THIRD AMENDMENT TO SOFTWARE LICENSE AGREEMENT AND SECOND AMENDMENT TO SUPPORT ... AGREEMENT":
    # the parent is the first agreement the title amends (one binding; the second amendment's
    # parent stays in the title's words).
    second = _SECOND_AMENDMENT.search(parent) if parent is not None else None
    if second is not None:
        parent = parent[: second.start()]
    if parent is not None and not re.search(r"(?i)\b(?:agreement|contract|lease|license|licence|plan|arrangement)s?\b", parent):
        parent = None
    number = (
        match.group("number") or (match.group("spelled") or "").casefold() or match.group("letter")
        or (match.group("ordinal") or "").casefold() or None
    )
    return Amendment(relations[word], word, number, parent)


def agreement_kind(title: str) -> str:
    lex = lexicons()
    expanded = title
    for abbreviation, full in lex.agreement_abbreviations.items():
        expanded = re.sub(rf"\b{abbreviation}\b", full, expanded)
    words = name_words(expanded.replace("-", " "))
    joined = " " + " ".join(words) + " "
    glued = " " + " ".join(name_words(expanded)) + " "
    for kind in lex.agreement_kinds:
        for keyword in kind.keywords:
            if f" {keyword} " in joined or f" {keyword} " in glued:
                return kind.kind
    return "other"


# 'under the Master Services Agreement dated June 1, 2018': a date right after another
# agreement's name (the words before the name refer to it: "to the", "under", "governed by the",
# "that certain") is that agreement's date, not this one's.
_NAME_THEN_DATED = re.compile(
    r"(?P<name>(?:[A-Z][\w&'’\-/.]*[ \t]+(?:(?:and|of|for|to)[ \t]+)?){0,8}(?:AGREEMENT|Agreement|CONTRACT|Contract|LEASE|Lease)"
    r"(?:[ \t]+(?:Number|NUMBER|No\.?|NO\.?)[ \t]*[\w\-/]+)?)[ \t]*(?:\([^()\n]{0,60}\)[ \t]*)?,?\s+"
    r"(?:dated|made|entered\s+into|executed|effective)(?:\s+(?:as\s+of|on))?\s*$"
)
_OTHER_DOCUMENT_LEAD = re.compile(r"\b(?:to|of|under|by|with|that|certain|said|such)\s+(?:the\s+)?$", re.IGNORECASE)
# 'This First Amendment to Lease dated as of June 1, 2020': the date of the amendment the
# sentence is about, though the name right before it is the parent's.
_THIS_AMENDMENT_TO = re.compile(
    r"\b(?:THIS|This)\s+(?:[\w.#]+\s+){0,4}?(?:amendment|addendum|supplement|statement\s+of\s+work|work\s+order)"
    r"(?:\s*(?:No\.?|Number|#)?\s*[0-9A-Z]+)?\s+(?:to|of|under)\s+(?:the\s+)?$",
    re.IGNORECASE,
)


_OWN_DATE_LATER = re.compile(
    r"\b(?:is|are)\s+(?:hereby\s+)?(?:made|entered\s+into|dated|executed)(?:\s+and\s+entered\s+into)?"
    r"(?:\s+(?:as\s+of|on|effective(?:\s+as\s+of)?))?\s+(?:the\s+)?[0-9A-Z]",
)
_OWN_DATE_LATER_CHARS = 250


def _another_agreements_date(text: str, start: int, date_start: int) -> bool:
    """Whether the date at ``date_start`` is dated by another agreement's name right before it
    (``_NAME_THEN_DATED``), so a statement of work without a date of its own never takes its
    parent's."""
    before = text[max(start, date_start - 240) : date_start]
    match = _NAME_THEN_DATED.search(before)
    if match is None:
        return False
    lead = before[: match.start("name")]
    if _OTHER_DOCUMENT_LEAD.search(lead) is None:
        return False
    if _THIS_AMENDMENT_TO.search(lead) is None:
        return True
    # "This Amendment No. 2 to the Supply Agreement dated May 1, 2010 ... is made as of June 2,
    # 2020": the sentence dates the amendment itself later on; without that, the date is its own.
    return _OWN_DATE_LATER.search(text, date_start, min(len(text), date_start + _OWN_DATE_LATER_CHARS)) is not None


def agreement_date(text: str, start: int, end: int) -> DateSpan | None:
    """The first date in the opening that follows "dated", "made", "as of", ... closely, and is
    not another agreement's date ('entered into under the Master Services Agreement dated June 1,
    2018'; ``_another_agreements_date``)."""
    for span in dates_in(text, start, end):
        before = text[max(start, span.start - 80) : span.start]
        if _DATED.search(before) and not _another_agreements_date(text, start, span.start):
            return span
    return None


def effective_date(text: str, start: int, end: int) -> DateSpan | None:
    for definition in _EFFECTIVE_DEFINITION.finditer(text, start, end):
        spans = dates_in(text, max(start, definition.start() - 120), definition.start())
        if spans:
            return spans[-1]
    for phrase in _EFFECTIVE_AS_OF.finditer(text, start, end):
        spans = dates_in(text, phrase.end(), min(end, phrase.end() + 60))
        if spans:
            return spans[0]
    return None


# -- title aliases ---------------------------------------------------------------------------

ALIAS_SOURCES = (
    "heading", "heading_line", "heading_block", "form_of", "self_name", "defined_term", "brand_prefix",
    "letter_self_name",
)
# How far before the preamble clause ("... is made and entered into") the contract's own heading
# may end: "GAS TRANSPORTATION AGREEMENT (For Use under FT-A Rate Schedule)   THIS AGREEMENT is
# made", after page furniture that reads "RATE FT-A AGREEMENT BETWEEN LG&E AND ...".
_HEADING_TO_PREAMBLE_CHARS = 300
_FORM_OF = re.compile(r"(?:FORM|Form)[ \t]+(?:OF|of)[ \t]+")
# A company's name opening a heading line before the title: at most 6 capitalised words.
_COMPANY_LEAD = re.compile(r"[ \t]*[A-Z][\w&.,'’\-]*(?:[ \t]+[A-Z][\w&.,'’\-]*){0,5}[ \t]+")
# Words that continue a heading line after its title: capitalised, numbers, "&", "-", "/".
# ("TRANSPORTATION SERVICE AGREEMENT Contract Identification FT18150", "DISTRIBUTOR AGREEMENT
# BETWEEN INGRAM MICRO AND NETGEAR".)
_HEADING_REST = re.compile(r"(?:[ \t]+(?:[A-Z0-9][\w.,&'’\-/®]*|&|-|/)){1,8}")
_AMENDMENT_END = r"Agreement|AGREEMENT|Contract|CONTRACT|Amendment|AMENDMENT|Addendum|ADDENDUM"
# The preamble naming the contract and defining a term for it: 'This Distribution Agreement (the
# "Agreement")', 'This is the First Amendment ("First Amendment")', 'This Transportation
# Service Agreement (Agreement)'. Only a sentence that starts with "This" names this contract.
_SELF_ALIAS = re.compile(
    rf"\b(?:THIS|This)[ \t]+(?:(?:is|IS)[ \t]+(?:the|THE|an?|AN?)[ \t]+)?"
    rf"((?:{_TITLE_WORD}[ \t]+){{0,10}}?(?:{_AMENDMENT_END}))[ \t]*"
    r"\((?:the[ \t]+|this[ \t]+)?[\"“]?([^\"”()\n]{2,80}?)[\"”]?\)"
)
_SELF_ALIAS_SCAN_CHARS = 1_500


@dataclass(frozen=True, slots=True)
class TitleAlias:
    """Another name the contract gives itself, with where it says so (``source``, one of
    ``ALIAS_SOURCES``): the heading, when the preamble's own name is the title
    (``agreement_names``); the whole heading line the title stands on; the title without "FORM
    OF"; the preamble's name for the contract ("This Supply Agreement") and the term it defines
    for it ('("First Amendment")')."""

    text: str
    start: int
    end: int
    source: str


def _names_another_document(text: str, start: int) -> bool:
    """'... to the Distribution Agreement', 'under that Supply Agreement': the words before a
    title-like run refer to another agreement."""
    before = text[max(0, start - 40) : start]
    return re.search(r"(?i)\b(?:to|of|under|with|and|that|certain|said|such)\s+(?:the\s+)?$", before) is not None


# A heading block: at most this many lines in capitals, each of at most this many words.
_BLOCK_LINES = 4
_BLOCK_LINE_WORDS = 8
_BLOCK_DANGLING = frozenset({"a", "an", "the", "of", "for", "to", "and", "or", "with", "by", "on", "in"})
_BLOCK_JOINING = frozenset({"to", "for", "of", "on", "regarding", "concerning", "relating"})
# A line that opens the preamble or a cover's party list ends the block.
_BLOCK_STOP = re.compile(r"(?:THIS|WHEREAS|BETWEEN|BY|DATED|AMONG|AND|NOW|RECITALS|TABLE)\b")


def _heading_line(line: str) -> bool:
    """A line of a heading block: words in capitals (digits and "&", "-", "/" allowed), short, no
    company's name (no legal form), no page furniture (``_strip_noise`` leaves it whole), and no
    line that opens the preamble ("THIS", "WHEREAS", "BETWEEN")."""
    words = line.split()
    return (
        0 < len(words) <= _BLOCK_LINE_WORDS
        and any(c.isalpha() for c in line) and line.upper() == line
        # (No legend sentence, place, identifier or remark: "... WITH THE COMMISSION.", "HOUSTON,
        # TEXAS", "NUMBER DIRECT-03-001", "(KEFLEX)"; no line left hanging: "FOR THE CONSTRUCTION OF A".)
        and not re.search(r"[0-9,.()]$|[0-9,()]", line)
        and words[-1].casefold() not in _BLOCK_DANGLING
        and _CAPS_LINE.fullmatch(line) is not None
        and not _ends_in_legal_form(line)
        and _strip_noise(line)[1] == 0
        and _BLOCK_STOP.match(line) is None
    )


def _heading_block(text: str, title: Title) -> tuple[int, int] | None:
    """The span of the capitals lines (no blank line between) that hold the title's own lines,
    when there are more of them than the title spans; None otherwise. An alias only: a block
    that holds amendment words the title has not (or the other way round) names another
    instrument, and is none."""
    if title.text.upper() != title.text:
        return None
    first = text.rfind("\n", 0, title.start) + 1
    last = text.find("\n", title.end)
    last = len(text) if last == -1 else last
    if not _heading_line(text[first:last].strip()) and text[first:last].strip() != title.text.strip():
        return None
    start, end, lines = first, last, 1
    while start > 0 and lines < _BLOCK_LINES:
        above = text.rfind("\n", 0, start - 1) + 1
        line = text[above : start - 1].strip()
        if not _heading_line(line):
            break
        start, lines = above, lines + 1
    # (A line below continues the heading only when it opens with a joining word or the line
    # above hangs on one: "AGREEMENT\nTO SUPPLY BEARINGS", never "SUBLEASE\nKEY PROVISIONS".)
    while end < len(text) and lines < _BLOCK_LINES:
        below = text.find("\n", end + 1)
        below = len(text) if below == -1 else below
        line = text[end + 1 : below].strip()
        hanging = text[:end].rstrip().rsplit(None, 1)[-1].casefold() in _BLOCK_DANGLING
        if not _heading_line(line) or not (hanging or line.split()[0].casefold() in _BLOCK_JOINING):
            break
        end, lines = below, lines + 1
    block = " ".join(text[start:end].split())
    own = " ".join(title.text.split())
    if lines == 1 or block == own or block == f"{own} {own}":
        return None
    amendment = _ordinals_and_amendment_words()[1]
    if bool(set(name_words(block)) & amendment) != bool(set(name_words(title.text)) & amendment):
        return None
    return start + (len(text[start:end]) - len(text[start:end].lstrip())), end


# "this letter agreement", "This Facility Letter", "THIS LETTER OF OFFER": a letter naming
# itself (up to three capitalised words before "Letter"; "letter agreement" in any case).
_LETTER_SELF_NAME = re.compile(
    r"\b(?:this|This|THIS)[ \t]+((?i:letter[ \t]+agreement)|(?:[A-Z][\w\-]*[ \t]+){0,3}(?:Letter|LETTER)"
    r"(?:[ \t]+(?:(?:of|OF)[ \t]+(?:Offer|OFFER|Intent|INTENT|Appointment|APPOINTMENT)|Agreement|AGREEMENT))?)\b"
)


def _letter_self_name(text: str, salutation: int | None) -> TitleAlias | None:
    """The name a letter agreement calls itself by (``salutation``: where its salutation starts,
    ``letter_salutation``; None for no letter), from its opening to ``_THIS_LETTER_CHARS`` past
    the salutation (``_LETTER_SELF_NAME``), as written."""
    if salutation is None:
        return None
    named = _LETTER_SELF_NAME.search(text, 0, min(len(text), salutation + _THIS_LETTER_CHARS))
    if named is None:
        return None
    return TitleAlias(" ".join(named.group(1).split()), named.start(1), named.end(1), "letter_self_name")


def _letter_named_before(title: Title, salutation: int | None, letter_name: TitleAlias | None) -> Title:
    """A letter's own name (``_letter_self_name``) instead of a title read in the letter's body
    after both its salutation and that name: "This letter agreement, together with ... at Schedule
    A and the Restrictive Covenant Agreement (...)" names other documents after the letter has
    named itself. A heading above the salutation, or a subject line under it that comes before
    the letter's name for itself, stays the title."""
    if salutation is None or letter_name is None or title.start <= salutation or title.start <= letter_name.start:
        return title
    return Title(letter_name.text, letter_name.start, letter_name.end)


def title_aliases(text: str, title: Title) -> list[TitleAlias]:
    """The contract's other names for itself, each with its source span, in text order. Only
    names the contract gives *itself* count: the line its title stands on, and the sentence
    "This <X> (the "<Y>")"; an agreement the text merely mentions ("to the Supply Agreement") is
    never an alias. The gate matches a question's title against them exactly, never fuzzily."""
    return _title_aliases(text, title, _letter_self_name(text, letter_salutation(text)))


def _fuller_after_contents(text: str, title: Title) -> Title | None:
    """The heading over the preamble after a contents page that writes ``title`` (read above the
    contents page) with more capitalised words before it: "LICENSE AGREEMENT" on the cover,
    "EXCLUSIVE PATENT LICENSE AGREEMENT" over "This Agreement, effective as of ...". Only the
    nearest heading-like run within ``_HEADING_TO_PREAMBLE_CHARS`` of the preamble counts."""
    preamble = _PREAMBLE_CLAUSE.search(text, title.end, min(len(text), 2 * TITLE_SCAN_CHARS))
    if preamble is None:
        return None
    contents = [m.end() for m in _CONTENTS_HEADING.finditer(text, title.end, preamble.start())]
    if not contents:
        return None
    floor = max(contents[-1], preamble.start() - _HEADING_TO_PREAMBLE_CHARS)
    words = title.text.split()
    for rank, _, candidate in sorted(_candidates(text[: preamble.start()]), key=lambda c: (-c[2].end, c[2].start)):
        if candidate.end < floor:
            return None
        if rank > 1 or candidate.start < floor:
            continue
        heading = candidate.text.split()
        extra = heading[: len(heading) - len(words)]
        if extra and heading[len(extra) :] == words and all(w[:1].isupper() for w in extra):
            return candidate
        return None
    return None


def _title_aliases(text: str, title: Title, letter_name: TitleAlias | None) -> list[TitleAlias]:
    """``title_aliases``, with the letter's own name (``_letter_self_name``) already read."""
    found: dict[str, TitleAlias] = {}
    own = " ".join(name_words(title.text))

    def add(start: int, end: int, source: str) -> None:
        raw = text[start:end]
        stripped, dropped = _strip_noise(raw.strip())
        begin = start + (len(raw) - len(raw.lstrip())) + dropped
        words = name_words(stripped)
        key = " ".join(words)
        if len(words) < 2 or len(stripped.split()) > 16 or key == own or key in found:
            return
        if set(words) <= {"this", "the", "agreement", "contract", "amendment", "addendum"}:
            return
        found[key] = TitleAlias(" ".join(stripped.split()), begin, begin + len(stripped), source)

    # The whole line the title stands on, when the rest of it reads like more heading words.
    line_end = text.find("\n", title.end)
    line_end = len(text) if line_end == -1 else line_end
    rest = _HEADING_REST.fullmatch(text, title.end, len(text[:line_end].rstrip()))
    line_start = text.rfind("\n", 0, title.start) + 1
    if rest is not None and not text[line_start : title.start].strip():
        add(title.start, rest.end(), "heading_line")
    # "UPTIME HOSTING LLC HOSTING AGREEMENT": a heading line that opens with a company's name
    # (a few capitalised words ending in its legal form) is also the title with that name.
    lead = text[line_start : title.start]
    if (
        not text[title.end : line_end].strip()
        and _COMPANY_LEAD.fullmatch(lead)
        and _ends_in_legal_form(lead.strip())
    ):
        add(line_start, title.end, "heading_line")
    # "VALUE-ADDED\nRESELLER AGREEMENT", "AMENDMENT TO\nMASTER AGREEMENT FOR PHARMACY SERVICES": the
    # heading's lines in capitals around the title's, read whole, when the title reader took fewer.
    block = _heading_block(text, title)
    if block is not None:
        add(block[0], block[1], "heading_block")
    # "LIMITED LIABILITY COMPANY AGREEMENT OF HARBOR POINT HOLDINGS, LLC" (``_with_entity``) is
    # also its heading without the entity's name.
    entity = re.match(r"(.*\b(?:AGREEMENT|CONTRACT))\s+OF\s+\S", text[title.start : title.end], re.DOTALL)
    if entity is not None and _ends_in_legal_form(title.text):
        add(title.start, title.start + len(entity.group(1)), "heading")
    # "Cooperation Agreement on Mobile Game Business" is also the "Cooperation Agreement" its
    # heading opens with: a subject after the agreement word is often left out when it is named.
    # So is a heading set over several lines ("MANAGEMENT\n\nAGREEMENT\n\nFOR CLASS III GAMING
    # ENTERPRISE") and a subject after "with" ("LOCAL PROGRAMMING AND MARKETING AGREEMENT WITH
    # OPTION TO PURCHASE STATION"); the words before the agreement word are a capitalised head
    # (1 to 6 words, "and"/"&" inside, none opening with a digit), so an amendment's "AMENDMENT 1
    # TO THE AGREEMENT FOR ..." has none.
    subject = _HEAD_BEFORE_SUBJECT.match(title.text)
    if subject is not None and len(subject.group(1).split()) >= 2 and _SUBJECT_AFTER_HEAD.fullmatch(" ".join(title.text.split())):
        # (The title's text has its white space collapsed; its span may hold line breaks.)
        written = re.compile(r"\s+".join(map(re.escape, subject.group(1).split()))).match(text, title.start, title.end)
        if written is not None:
            add(title.start, written.end(), "heading")
    # "THE HARBOR POINT SUPPLY AGREEMENT" is also the HARBOR POINT SUPPLY AGREEMENT (``add``
    # drops the article like other leading noise).
    if re.match(r"(?:THE|The)\s", title.text):
        add(title.start, title.end, "heading")
    # "LICENSE AGREEMENT" on a cover above a contents page is also the "EXCLUSIVE PATENT LICENSE
    # AGREEMENT" its heading over the preamble writes after the contents.
    fuller = _fuller_after_contents(text, title)
    if fuller is not None:
        add(fuller.start, fuller.end, "heading")
    # "FORM OF FRANCHISE AGREEMENT" is also the FRANCHISE AGREEMENT it is a form of.
    form = _FORM_OF.match(title.text)
    if form is not None:
        add(title.start + form.end(), title.end, "form_of")
    # A letter's own name for itself: "This letter agreement, together with ...", "this Facility
    # Letter", "THIS LETTER OF OFFER" (in its notice above the addressee), whatever its title.
    if letter_name is not None:
        add(letter_name.start, letter_name.end, "letter_self_name")
    # The preamble's own name for the contract and the term it defines for it.
    scan_from = max(0, title.start)
    match = _SELF_ALIAS.search(text, scan_from, min(len(text), title.end + _SELF_ALIAS_SCAN_CHARS))
    if match is not None:
        add(match.start(1), match.end(1), "self_name")
        term = match.group(2)
        # A defined term is quoted, or else every word is capitalised ('(Agreement)'): a
        # parenthesis of prose ("including its Exhibit A ...") defines nothing.
        quoted = text[match.start(2) - 1] in "\"“"
        if quoted or all(w[:1].isupper() for w in term.split()):
            add(match.start(2), match.end(2), "defined_term")
    return sorted(found.values(), key=lambda a: (a.start, a.end, a.text))


def agreement_names(text: str) -> tuple[Title | None, list[TitleAlias]]:
    """The contract's title and its aliases. The title is the heading (``find_title``), except
    when the preamble names the contract otherwise and defines a term for it ('This
    Distribution Agreement (the "Agreement")' under a "... RESELLER AGREEMENT" heading; 'This is
    the First Amendment ("First Amendment")' under "AMENDMENT 1 TO DEVELOPMENT AGREEMENT"): the
    contract's name for itself is its title, and the heading an alias. A preamble name made only
    of heading words ("Supply Agreement" under "MASTER SUPPLY AGREEMENT") is a short form: the
    heading stays the title."""
    heading = find_title(text)
    # (The letter is read once: ``letter_salutation`` may scan the whole text for a signature.)
    salutation = letter_salutation(text)
    letter_name = _letter_self_name(text, salutation)
    if heading is None:
        # ("Dear Sirs, ... this Facility Letter sets out the terms ...": a letter with no title
        # still has its own name, an alias of the untitled agreement.)
        return None, [letter_name] if letter_name is not None and len(letter_name.text.split()) >= 2 else []
    heading = _letter_named_before(heading, salutation, letter_name)
    aliases = _title_aliases(text, heading, letter_name)
    own = next((a for a in aliases if a.source == "self_name"), None)
    if own is None or _short_form(own.text, heading.text):
        numbered, aliases = _with_number_after(text, heading, aliases)
        if numbered is not heading:
            return numbered, aliases
        return _with_identifier(heading, aliases)
    rest = [a for a in aliases if a is not own]
    rest.append(TitleAlias(" ".join(heading.text.split()), heading.start, heading.end, "heading"))
    return Title(own.text, own.start, own.end), sorted(rest, key=lambda a: (a.start, a.end, a.text))


_ARTICLES = frozenset({"the", "a", "an"})


def _short_form(own: str, heading: str) -> bool:
    """Whether the preamble's name for the contract adds nothing to its heading: made only of
    heading words ("License Agreement" under "PATENT AND KNOW-HOW LICENSE AGREEMENT"), articles
    aside ("SECOND AMENDMENT TO THE THIRD ..." under "SECOND AMENDMENT TO THIRD ..."), or the same
    letters spelled with or without a hyphen or space ("Cobranding" under "CO-BRANDING"). A name
    that is only a variant never displaces the heading: the heading is what the document shows."""
    own_words = [w for w in name_words(own) if w not in _ARTICLES]
    heading_words = [w for w in name_words(heading) if w not in _ARTICLES]
    return set(own_words) <= set(heading_words) or "".join(own_words) == "".join(heading_words)


# A contract identifier after the title on its heading line: "Contract Identification FT18150",
# "Agreement No. 4471", "Contract Number 12-B", or a number right after the title ("MASTER
# PURCHASE AGREEMENT NO. 2020-117"; it holds a digit). Two contracts of one title differ by it.
_IDENTIFIER_REST = re.compile(
    r"\s+(?:(?:Contract|CONTRACT|Agreement|AGREEMENT)\s+(?:Identification|IDENTIFICATION|Number|NUMBER|No\.?|NO\.?|ID|#)"
    r"\s*:?\s*[A-Z0-9][A-Za-z0-9.\-/]*|(?:Number|NUMBER|No\.|NO\.|#)\s*(?=[A-Za-z0-9.\-/]*[0-9])[A-Z0-9][A-Za-z0-9.\-/]*)"
)


@lru_cache(maxsize=1)
def _instrument_tail() -> re.Pattern[str]:
    """An instrument word (``amendment_words``, ``title_tail_words``) closing a heading line
    after its agreement word, with an optional number: " AMENDMENT NO. 2", " Addendum",
    " TERM SHEET". One case throughout: the heading's capitals or its title case."""
    data = load_json("agreement_kinds.json")
    phrases = sorted({*data["amendment_words"], *data["title_tail_words"]}, key=len, reverse=True)
    caps = "|".join(r"[ \t]+".join(re.escape(w.upper()) for w in p.split()) for p in phrases)
    titled = "|".join(r"[ \t]+".join(re.escape(w.capitalize()) for w in p.split()) for p in phrases)
    number = r"(?:[ \t]*(?:No\.?|NO\.?|Number|NUMBER|#)[ \t]*[0-9]+[A-Za-z]?|[ \t]+[0-9]{1,3}|[ \t]+[IVX]{1,4})?"
    return re.compile(rf"[ \t]+(?:(?P<caps>{caps})|(?P<titled>{titled})){number}")


def _country_initialism_before(raw: str, stop: int) -> bool:
    """Whether the full stop at ``stop`` closes a country's dotted initialism ("U.S.", "U.K.")."""
    word = re.search(r"(?:^|\s)((?:[A-Z]\.)+[A-Z])$", raw[:stop])
    return word is not None and bool(normalise_jurisdiction(word.group(1) + "."))


def _instrument_tail_fits(bare: str, line: str) -> bool:
    """Whether ``line`` is ``bare`` closed by an instrument word in the heading's own case."""
    tail = _instrument_tail().fullmatch(line, len(bare))
    if tail is None:
        return False
    return bool(tail.group("caps")) if bare.isupper() else bool(tail.group("titled"))


# A number alone on the line under a heading ("EXCLUSIVE DISTRIBUTION AGREEMENT\n\nNo.2"), or a
# year closing the heading's own line ("... Development Agreement of 2016").
_NUMBER_LINE = re.compile(r"(?:NO\.?|No\.?|NUMBER|Number|#)[ \t]*[0-9]+[A-Za-z]?")
_YEAR_REST = re.compile(r"[ \t]+(?:of|OF)[ \t]+(?:19|20)[0-9]{2}[ \t]*(?=\n|$)")
_LINE_ENDS = re.compile(r"[ \t]*\n")


def _with_number_after(text: str, heading: Title, aliases: list[TitleAlias]) -> tuple[Title, list[TitleAlias]]:
    """The heading with the number that closes it: a year after "of" ending its line, or a
    contract number alone on the next line (at most one blank line between). Like an identifier
    on the heading's line (``_with_identifier``) it is part of the contract's name, and the bare
    heading stays an alias."""
    end = None
    year = _YEAR_REST.match(text, heading.end)
    if year is not None:
        end = heading.end + len(year.group().rstrip())
    elif _LINE_ENDS.match(text, heading.end):
        line_end = text.index("\n", heading.end)
        next_end, below = _line_after(text, line_end)
        if not below and next_end < len(text):
            line_end = next_end
            next_end, below = _line_after(text, line_end)
        if below and _NUMBER_LINE.fullmatch(below):
            end = line_end + 1 + text[line_end + 1 : next_end].index(below) + len(below)
    if end is None:
        return heading, aliases
    rest = [*aliases, TitleAlias(" ".join(heading.text.split()), heading.start, heading.end, "heading")]
    return Title(" ".join(text[heading.start : end].split()), heading.start, end), sorted(rest, key=lambda a: (a.start, a.end, a.text))


def _with_identifier(heading: Title, aliases: list[TitleAlias]) -> tuple[Title, list[TitleAlias]]:
    """The heading line is the title when all it adds to the heading is the contract's
    identifier ("TRANSPORTATION SERVICE AGREEMENT Contract Identification FT18150"): the
    identifier is part of the contract's name, and the bare heading stays an alias. So is it when
    an instrument word closes the line ("LICENSE AGREEMENT AMENDMENT NO. 2", "PUBLISHING
    AGREEMENT TERM SHEET"): then the bare heading is the agreement this document amends or
    stands beside, never a name of this one, so it is no alias. Any other continuation of the
    line (a party list, another document's name) stays an alias only."""
    line = next((a for a in aliases if a.source == "heading_line" and a.start == heading.start), None)
    if line is None:
        return heading, aliases
    bare = " ".join(heading.text.split())
    if not line.text.startswith(bare):
        return heading, aliases
    rest = [a for a in aliases if a is not line]
    if _instrument_tail_fits(bare, line.text):
        return Title(line.text, line.start, line.end), rest
    if _IDENTIFIER_REST.fullmatch(line.text, len(bare)) is None:
        return heading, aliases
    rest.append(TitleAlias(bare, heading.start, heading.end, "heading"))
    return Title(line.text, line.start, line.end), sorted(rest, key=lambda a: (a.start, a.end, a.text))


def parent_amendment(
    title: Title, aliases: list[TitleAlias], text: str | None = None
) -> tuple[Amendment, int, int] | None:
    """What an amendment says about itself and where: read from its title, else from the first
    alias that is an amendment title ("First Amendment" titled, "AMENDMENT 1 TO DEVELOPMENT
    AGREEMENT" its heading). One naming the parent is preferred, so the ``amends`` binding is
    not lost; the span is the name it was read from. When no name of it names the parent, the
    opening prose right after the title may (``prose_parent``, with ``text``): the span is then
    the parent's name in that prose."""
    read = [
        (amendment, start, end)
        for name, start, end in [(title.text, title.start, title.end), *((a.text, a.start, a.end) for a in aliases)]
        if (amendment := amendment_of(name)) is not None
    ]
    named = next((r for r in read if r[0].parent), None)
    if named is not None or not read or text is None:
        return named or (read[0] if read else None)
    parent = prose_parent(text, title)
    if parent is None:
        return read[0]
    amendment = read[0][0]
    return Amendment(amendment.relation, amendment.word, amendment.number, parent.text), parent.start, parent.end


# How far after an amendment's title its prose may name the agreement it amends.
_PROSE_PARENT_CHARS = 600
# 'Reference is hereby made to that certain fully executed Wireless Content License Agreement
# Number 12965', 'This Amendment ... amends the Supply Agreement', 'issued under and governed by
# the Master Services Agreement': a capitalised agreement name right after "to"/"of"/"amends"/
# "governed by" (and "that certain", "the", "executed"), with its number.
_PROSE_PARENT = re.compile(
    r"\b(?:to|of|amend|amends|amending|under|governed[ \t]+by)[ \t]+(?:(?:that|the|said)[ \t]+)?(?:certain[ \t]+)?"
    r"(?:(?:fully[ \t]+)?executed[ \t]+)?"
    r"(?P<title>(?:[A-Z][\w&'’\-/.]*[ \t]+(?:(?:and|of|for|to)[ \t]+)?){0,8}"
    r"(?:AGREEMENT|Agreement|CONTRACT|Contract|LEASE|Lease)"
    r"(?:[ \t]+(?:Number|NUMBER|No\.?|NO\.?)[ \t]*[A-Z0-9][\w\-/]*"
    # 'shall amend that certain Agreement for Services (the "Agreement")': a name that opens with
    # the agreement word goes on with "for"/"of" and capitalised words.
    r"|(?:(?<=Agreement)|(?<=AGREEMENT)|(?<=Contract)|(?<=CONTRACT))[ \t]+(?:for|FOR|of|OF)(?:[ \t]+(?:the[ \t]+|THE[ \t]+)?[A-Z][\w&'’\-/]*){1,6})?)(?![\w])"
)


def prose_parent(text: str, title: Title) -> Title | None:
    """The agreement an amendment's opening prose says it amends, in its first sentence after
    the title ("Reference is made to that certain X Agreement ...", "This Amendment amends the
    X Agreement"): None when that sentence names no capitalised agreement, or only "this
    Agreement"/"the Agreement" (a defined term names no parent)."""
    window = text[title.end : min(len(text), title.end + _PROSE_PARENT_CHARS)]
    for match in _PROSE_PARENT.finditer(window):
        words = match.group("title").split()
        if len(words) < 2:
            continue  # "to the Agreement": the defined term, not a name
        start = title.end + match.start("title")
        return Title(" ".join(words), start, start + len(match.group("title")))
    return None
