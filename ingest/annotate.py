"""Entity and relation tagging of one revision: the entry point ``annotate_document``.

Everything the query side needs is computed here (mentions, relations, sentence spans with their
entity ids, subjects), so no spaCy runs at query time. Offsets are into the revision text.

Scope of identity: entity ids are global names (``org:acme holdings``) but defined terms resolve
within their own document only: "the Company" means Acme in one contract and Beta in another.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from spacy.tokens import Doc

from ingest.agreements import (
    Title,
    TitleAlias,
    agreement_date,
    agreement_kind,
    agreement_names,
    effective_date,
    has_agreement_preamble,
    not_a_contract,
    opens_titles,
    parent_amendment,
    read_letter,
)
from ingest.definitions import (
    INITIALS_SKIP,
    acting_for_lead,
    term_made_from,
    OPENING_CHARS,
    PREAMBLE_END_WORDS,
    PREAMBLE_SCAN_CHARS,
    SET_FORTH_IN_ANOTHER,
    Definition,
    after_address_lead,
    between_windows,
    clause_start,
    coordinated_words,
    cited_clause_spans,
    leading_connectors,
    find_definitions,
    made_by_windows,
    opening_end,
    preamble_windows,
    notice_slot_names,
    term_slot_names,
)
from ingest.entities import (
    SUBJECT_LABELS,
    AliasTable,
    Mention,
    alias_mentions,
    annotation_pipeline,
    build_alias_table,
    entity_id_for,
    merge_mentions,
    model_mentions,
)
from ingest.lexicons import is_instruction_like, legend_words, lexicons, load_json, phrase_alternation
from ingest.names import (
    LABEL_COLON,
    NameSpan,
    after_description_line,
    after_non_party_lead,
    ampersand_inside_name,
    before_street_address,
    company_unit,
    ends_in_legal_suffix,
    government_body_name,
    has_legal_suffix,
    legal_form,
    legal_name,
    local_government,
    lowercase_words,
    name_after_colon,
    name_at,
    name_before,
    name_without_own_initials,
    contents_entry,
    names_a_document,
    office_holders_organisation,
    office_of_prefix,
    organisation_head,
    organisation_head_word,
    party_name_forms,
    party_name_problem,
    representation_lead,
    seated_local_government,
    shouted_joint,
    slot_name_at,
    street_at,
    surname_first,
    with_local_seat,
    without_enumerator,
    without_identity_line,
    without_legal_form,
    without_registration,
    words_without_honorifics,
)
from ingest import party_scorer
from ingest.entity_id import AGREEMENT, EntityId
from ingest.normalize import agreement_id, legal_form_words, normalise_org, normalise_plain
from ingest.letter_parties import letter_names, letter_signature_start, signature_lead_start
from ingest.party_capacities import continues_role_list, names_a_class, overread, read_capacities
from ingest.party_clauses import NO_PARTY_CLAUSE, clause_records
from ingest.party_layout import after_contact_label, cover_joiner, held_for, label_slots, layout_end, layout_names, slot_name_for
from ingest.signature_blocks import SHORT_PAPER_CHARS, block_start, signed_block, signs_in_office
from ingest.text import ends_in_abbreviation, name_words, straighten_quotes
from ingest.relations import Relation, extract_relations
from ingest.schema import (
    Binding,
    EntityMention,
    RelationMention,
    SentenceSpan,
    SubjectRecord,
    relation_key,
)

PIPE_BATCH_SIZE = 32
DATE_SCAN_CHARS = 5_000
_FALLBACK_TITLE = "Agreement"
_AND = re.compile(r"(?:^|[\s,])(?:and|AND|And|&)[\s:]+")


@dataclass(slots=True)
class ChunkAnnotations:
    entities: list[EntityMention] = field(default_factory=list)
    entity_ids: list[str] = field(default_factory=list)
    relations: list[RelationMention] = field(default_factory=list)
    relation_keys: list[str] = field(default_factory=list)
    sentences: list[SentenceSpan] = field(default_factory=list)


@dataclass(slots=True)
class DocumentAnnotations:
    chunks: list[ChunkAnnotations]
    subjects: list[SubjectRecord]


@dataclass(frozen=True, slots=True)
class Party:
    entity_id: str
    label: str
    name: NameSpan
    role: str | None
    evidence_start: int
    evidence_end: int


def _person_spans(docs: Sequence[Doc], chunk_spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    spans = []
    for doc, (offset, _) in zip(docs, chunk_spans, strict=True):
        spans.extend((offset + e.start_char, offset + e.end_char) for e in doc.ents if e.label_ == "PERSON")
    return spans


def _model_name_spans(docs: Sequence[Doc], chunk_spans: Sequence[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """The model's ORG and PERSON entities in the opening pages, as (start, end, label)."""
    spans = []
    for doc, (offset, _) in zip(docs, chunk_spans, strict=True):
        if offset >= OPENING_CHARS:
            break
        spans.extend(
            (offset + e.start_char, offset + e.end_char, e.label_) for e in doc.ents if e.label_ in ("ORG", "PERSON")
        )
    return spans


# How much of a "between"/"among" window the model's fallback reads as the party clause.
_MODEL_CLAUSE_CHARS = 600
_MODEL_NAMES_LIMIT = 4
_MODEL_JOINERS = frozenset({"and", "of", "for", "the", "de"})
_INITIALISM_BEFORE = re.compile(r"(?<![\w.])[a-z](?:\.[a-z]){2,}\.[ \t]+$")
# (A period at a line's end closes the sentence too: "... (the "Work").\nTHE FIRM TAKES ON THIS
# WORK UNDER THE CONDITIONS ..." is the next sentence's shouted prose, no party clause.)
_MODEL_CLAUSE_END = re.compile(r"\.(?:[ \t]+|[ \t]*\n[ \t]*)(?=[A-Z])|\n[ \t]*\n")


def _model_clause_names(
    text: str, model_spans: Sequence[tuple[int, int, str]], defined_terms: frozenset[str]
) -> list[tuple[NameSpan, str]]:
    """The model's ORG/PERSON entities inside the first party clause ("between ..." in the
    opening pages, at most ``_MODEL_CLAUSE_CHARS``), each with its label; a name with a legal form
    that starts there is read whole ("Acme Holdings, Inc." for the model's "Acme Holdings").
    Not a quoted or defined term, nor a name after a non-party lead ("a subsidiary of")."""
    # ("the entire agreement between the parties": a "between" that names no one opens no clause.)
    clauses = [
        w for w in between_windows(text)
        if w[0] < OPENING_CHARS and not NO_PARTY_CLAUSE.match(text, w[0], w[1])
    ]
    if not clauses:
        return []
    start, end = clauses[0][0], min(clauses[0][1], clauses[0][0] + _MODEL_CLAUSE_CHARS)
    # The clause ends at its sentence's end ("Inc. and" is no sentence end) or a blank line.
    for stop in _MODEL_CLAUSE_END.finditer(text, start, end):
        if stop.group().startswith(".") and ends_in_abbreviation(text, start, stop.start()):
            continue
        end = stop.start()
        break
    found: list[tuple[NameSpan, str]] = []
    for ent_start, ent_end, label in sorted(model_spans):
        if len(found) >= _MODEL_NAMES_LIMIT:
            break
        if ent_start < start or ent_end > end:
            continue
        raw = text[ent_start:ent_end]
        lead = re.match(r"(?i)the\s+", raw)
        begin = ent_start + (lead.end() if lead else 0)
        if re.search(r"[\"“”„«']\s*$", text[max(0, begin - 2) : begin]):
            continue
        # "FACILITY AGREEMENT" (the model's ORG is a title's head), "Lingkaran Kenanga 59200",
        # "Freeway, Suite 210": a document word or a number right after the entity ends no name.
        after = re.match(r"[ \t]+([A-Za-z]+|\d{2,6}(?![\w/.,]\d))", text[ent_end : ent_end + 40])
        if after is not None and (after.group(1)[0].isdigit() or names_a_document(after.group(1))):
            continue
        # ("the Co. Erwin Mair KG, Nederlinger Str. 11, Munich": a street and its number.)
        if street_at(text, begin):
            continue
        # ("Charging Site Host: City of Arcadia Address: 240 ...", "City,State,Zip Code: Arcadia":
        # the model tagged a form's field label; a label is followed by its colon, a value never.)
        if _FIELD_LABEL_AFTER.match(text, ent_end):
            continue
        # ("Zip Code: Arcadia,CA 91066": a town before its state's code and a ZIP code is an address.)
        if _STATE_CODE_AND_ZIP_AFTER.match(text, ent_end) and not has_legal_suffix(text[begin:ent_end]):
            continue
        # ("registered with ... by CIN U72200KA2009PTC048999": an identifier's label, in capitals,
        # before its code.)
        if re.fullmatch(r"[A-Z]{2,6}", text[begin:ent_end]) and _IDENTIFIER_CODE_AFTER.match(text, ent_end):
            continue
        # "..., a subsidiary of Roche Holding AG": the parent, an agent or an addressee is named
        # inside the clause but is no party (only the model's entities lack the grammar's slots).
        if after_non_party_lead(text, begin):
            continue
        # "Regencell Bioscience Limited, a company which has its registered office at ..., 33-35
        # Leighton Road, Causeway Bay, Hong Kong": a name inside a party's address is a place.
        if _inside_address_before(text, start, begin):
            continue
        # "RQS United Group Limited, an International Business Company organized in ...": a name
        # after a description's article is the kind of entity the party is.
        if re.search(r",[ \t\n]*an?[ \t\n]+\Z", text[max(0, begin - 8) : begin]):
            continue
        # ("the Secretary of State for Work and Pensions" tagged from "State": capitalised words
        # joined by "of" or "for" right before the entity open the name, when one name runs over them.)
        head = _OF_HEAD_BEFORE.search(text, max(start, begin - _OF_HEAD_LOOKBACK), begin)
        if head is not None:
            wider = name_at(text, head.start(), end)
            if wider is not None and wider.end >= ent_end:
                begin = head.start()
        # "e.l.f. Beauty, Inc." tagged from "Beauty": the initialism before it opens the name.
        initialism = _INITIALISM_BEFORE.search(text, max(start, begin - 24), begin)
        if initialism is not None:
            begin = initialism.start()
        # "(2) Chau, Tien Hsiang, holder of HKID ...": the model tagged the given names of a person
        # written surname first; the surname opens the name.
        surname = _SURNAME_BEFORE.search(text, max(start, begin - 40), begin)
        if surname is not None:
            whole = surname_first(text, NameSpan(surname.group(1), surname.start(1), surname.end(1)), end)
            if whole.end >= ent_end:
                found.append((whole, "PERSON"))
                continue
        name = name_at(text, begin, end)
        # "|Odem Electronic (1992) Technologies Ltd.": the model tagged the tail of a name that
        # opens its line; the name is read from the line's start.
        line = _LINE_OPENING.search(text, max(start, begin - _LINE_LOOKBACK), begin)
        whole = name_at(text, line.end(), end) if line is not None and line.end() < begin else None
        if whole is not None and whole.start < begin and whole.end >= ent_end and ends_in_legal_suffix(whole.text):
            name = whole
        if name is None or name.end < ent_end or not ends_in_legal_suffix(name.text):
            stripped = text[begin:ent_end].rstrip(" ,.;:")
            name = NameSpan(stripped, begin, begin + len(stripped))
        if not name.text or name.text.casefold() in defined_terms or len(name_words(name.text)) == 0:
            continue
        found.append((name, "PERSON" if label == "PERSON" and not has_legal_suffix(name.text) else "ORG"))
    return found


# Capitalised words, each with its "of" or "for", right before an entity.
_OF_HEAD_BEFORE = re.compile(r"(?<![\w&'’\-])(?:[A-Z][\w'’\-]*[ \t]+(?:of|for)[ \t]+(?:the[ \t]+)?)+\Z")
_OF_HEAD_LOOKBACK = 60
# What follows a form's field label: its colon, maybe after more labels of one field ("State,Zip Code:").
# ("Contact Name: Jane Roe Telephone Number(s): ...": the model's span may stop inside the label's
# bracket.)
_FIELD_LABEL_AFTER = re.compile(r"(?:[ \t]*,[ \t]*[A-Za-z][A-Za-z ]{0,15}?)*\)?[ \t]*[:：]")
_STATE_CODE_AND_ZIP_AFTER = re.compile(r"[ \t]*,[ \t]*[A-Z]{2}[ \t]+[0-9]{5}(?:-[0-9]{4})?(?![\w])")
# An identifier's code after its label: letters and digits ("U72200KA2009PTC048999", "99-3809574")
# or groups of digits ("141 848 311").
_IDENTIFIER_CODE_AFTER = re.compile(
    r"[ \t]*(?:[:#]|No\.?)?[ \t]*(?:(?=[A-Z0-9\-/]*[0-9]{3})[A-Z0-9][A-Z0-9\-/]{5,}|[0-9]{2,4}(?:[ \t][0-9]{2,4}){2,})(?![\w])"
)
# A line's (or a table cell's) opening, up to the first word, at most this far before an entity.
_LINE_OPENING = re.compile(r"\n[ \t|]*(?=[^\n]*\Z)")
_LINE_LOOKBACK = 80
# A one-word surname and its comma opening a slot (a line, a table cell or a list number before it).
_SURNAME_BEFORE = re.compile(r"(?:^|\n|\||\([0-9]{1,2}\)|between|BETWEEN|and|AND)[ \t\n|]*([A-Z][A-Za-z'’\-]+),[ \t]+\Z")
# How far back an address lead may open the address a name stands in.
_ADDRESS_LOOKBACK = 240


def _inside_address_before(text: str, floor: int, begin: int) -> bool:
    """Whether ``begin`` stands inside a party's address: an address lead ("office at", "located
    at") comes before it in its clause, with no semicolon, parenthesis, blank line or "and" since."""
    rest = after_address_lead(text[max(floor, begin - _ADDRESS_LOOKBACK) : begin])
    return rest is not None and re.search(r"[;()]|\n[ \t]*\n|\s(?:and|AND)\s", rest) is None


def _label_for(name: NameSpan, person_spans: Sequence[tuple[int, int]]) -> str:
    is_person = any(s < name.end and name.start < e for s, e in person_spans)
    return "PERSON" if is_person and not has_legal_suffix(name.text) else "ORG"


def _label_value(text: str, definition: Definition) -> NameSpan | None:
    """The name after a label's colon that runs up to the definition repeating the label ("Target
    Company: Qinghe Data Co., Ltd. (hereinafter "Target Company")"), on the label's line."""
    assert definition.name is not None
    return name_after_colon(text, definition.name.end, definition.term_start)


# A party's list number after "between" or "and", maybe alone on its line ("And:\n\n1.\nJane Roe").
# ("by and between: I. PERUSAHAAN PERSEROAN ...; and II. PT INDUSTRI ...": a Roman first number too.)
_LIST_NUMBER = re.compile(r"(?:\(?[0-9]{1,2}[.)]|\([a-z]\)|\(?(?:I|i)[.)](?=[ \t\n]+[A-Z]))(?:[ \t]+|[ \t]*\n[ \t]*)(?=\S)")
_ROMAN = ("i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x", "xi", "xii")


# What stands right before a party clause's own "between"/"among": "by and", or a line's start.
_CLAUSE_KEYWORD_LEAD = re.compile(r"(?:(?i:by)[ \t\n]+(?i:and)[ \t\n]+|(?:^|\n)[ \t|]*)\Z")
# A list number right before a name: "(2) ", "2. ".
_NUMBERED_BEFORE = re.compile(r"(?:\([0-9]{1,2}\)|(?<![\w.])[0-9]{1,2}\.)[ \t\n]*\Z")


def _right_after_keyword(text: str, keyword_start: int, name: NameSpan) -> bool:
    """Whether ``name`` fills the first slot after the "between"/"among" at ``keyword_start``."""
    return _FIRST_SLOT_LEAD.fullmatch(text, keyword_start, name.start) is not None


def _first_slots(text: str, windows: Sequence[tuple[int, int]]) -> list[NameSpan]:
    """The name in the first slot after each preamble's "between"/"among", read on one line,
    before the recitals (a recital's "agreement between Orion Inc. and ..." is another's)."""
    slots = []
    recitals = opening_end(text)
    for window in windows:
        if window[0] >= recitals:
            break
        # (Only a party clause's own keyword: "by and among", or one opening its line; "Buyer is
        # a joint venture between The Chalone Wine Group Ltd. and Grower" is prose.)
        if _CLAUSE_KEYWORD_LEAD.search(text, max(0, window[0] - 12), window[0]) is None:
            continue
        first = _between_names(text, [window])[:1]
        # (At least two words: a name cut short at its first letter ("e" of "e.Digital") is none.)
        if first and _right_after_keyword(text, window[0], first[0]) and "\n" not in first[0].text and len(first[0].text.split()) >= 2:
            slots.append(first[0])
    return slots


# The keyword and what may stand before the first name: a colon, a list number, "the".
_FIRST_SLOT_LEAD = re.compile(r"(?i:between|among)[ \t\n:]*(?:\(?[0-9ivx]{1,3}[.)][ \t\n]*)?(?:the[ \t\n]+)?")


def _acronym_of_longer_phrase(text: str, name: NameSpan, term: str) -> bool:
    """Whether ``term`` is an acronym of three letters or more whose letters are the initials of
    the words of a phrase that ends with ``name`` and starts before it (at most 80 characters
    back), while the name's own words do not spell it."""
    if not re.fullmatch(r"[A-Z]{3,8}", term):
        return False
    own = [w[0].upper() for w in re.findall(r"[A-Za-z][\w'’\-]*", name.text) if w[0].isupper()]
    if "".join(own) == term:
        return False
    before = text[max(0, name.start - 80) : name.start]
    words = [
        w for w in re.findall(r"[A-Za-z][\w'’\-]*", before)
        if w[0].isupper() and w.casefold() not in ("and", "of", "the", "for", "in", "on")
    ]
    initials = "".join(w[0].upper() for w in words) + "".join(own)
    return initials.endswith(term) and len(term) > len(own)


_ROLE_THEN_AND = re.compile(r"([A-Z][a-z]+)[ \t\n]+(?:and|AND)[ \t\n]+(?=[A-Z])")
_ROLE_THEN_NAME = re.compile(r"([A-Z][a-z]+)[ \t\n]+(?=[A-Z][A-Z0-9&.\-]+[ \t])")
_DOT_LEADER = re.compile(r"[ \t]*(?:\.[ \t]?){4,}")
# A name read as a possessive ("Employee's", "the Company's"), the possessor in group 1.
_TERM_POSSESSIVE = re.compile(r"(?:the[ \t]+)?(.+?)['’]s")


def _without_role_word(name: NameSpan) -> NameSpan:
    """``name`` without a party role written before it ("by and between Purchaser RUPALI POLYSTER
    Ltd. 241-242, ..."): the role is no word of the name, when a name in capitals with a legal form
    follows (``party_roles`` of roles.json)."""
    role = _ROLE_THEN_NAME.match(name.text)
    # (A role that is also an organisation's head opens names: "Bank BPH S.A.", "Trust ABC LTD".)
    if (
        role is None or role.group(1) not in lexicons().party_roles or organisation_head_word(role.group(1))
        or not ends_in_legal_suffix(name.text) or len(name.text[role.end() :].split()) < 2
    ):
        return name
    return NameSpan(name.text[role.end() :], name.start + role.end(), name.end)


# The first side's closing words and the list's "and": "... of the one part AND ...", at most
# ``_ONE_PART_CHARS`` after the first party's name.
_ONE_PART_AND = re.compile(r"\b(?i:of[ \t\n]+the[ \t\n]+(?:one|first)[ \t\n]+part)[ \t\n]*[,;]?[ \t\n]*(?:and|AND|And)[ \t\n]*:?[ \t\n]*")
_ONE_PART_CHARS = 1500
_LOWER_WORD_NEXT = re.compile(r"[ \t\n]*(?!the\b)[a-z]")


def _between_names(text: str, windows: Sequence[tuple[int, int]]) -> list[NameSpan]:
    """Parties named without a defined term: "between\\n\\nACME INC.\\n\\nand\\n\\nBETA LLC"."""
    names: list[NameSpan] = []
    straight = straighten_quotes(text)
    for start, end in windows:
        keyword = re.match(r"\w+", straight[start:end])
        # ("are": "The parties to this Agreement are ...", ``definitions.made_by_windows``.)
        if keyword is None or keyword.group().casefold() not in ("between", "among", "by", "are"):
            continue
        position = start + keyword.end()
        position += len(straight[position:end]) - len(straight[position:end].lstrip(" \t\n:"))
        # An enumerated list of parties: "between 1. HealthGate Data Corp. ... and 2. ..."
        enumerator = _LIST_NUMBER.match(straight, position, end)
        if enumerator:
            position = enumerator.end()
        first = slot_name_at(straight, position, end)
        # ("between the CROW TRIBE OF INDIANS OF THE CROW RESERVATION, of Crow Agency, ...": a
        # lower-case "the" opens an institution's name, one with a head noun.)
        the = re.match(r"the[ \t\n]+(?=[A-Z])", straight[position:end]) if first is None else None
        if the is not None:
            first = slot_name_at(straight, position + the.end(), end)
            # ("between the Medical Specialties Department of Harbour Mining and Manufacturing
            # Company ("HMM")": which of a company and its department is the party the name
            # cannot tell; no reading.)
            if first is not None and company_unit(first.text):
                first = None
            # ("between the Harbour Company an Ohio Corporation (...)": a reading run on into the
            # party's description is none.)
            if first is not None and re.search(r"\s(?:a|an)\s", first.text):
                first = None
            # (Only an institution by its head noun, one name: "between the Secured Party and
            # Harbour Credit Services, Inc." in a recital is a term and another company.)
            # ("between the City of Paris, Paris, Texas, a municipal corporation, ...": a local
            # government is such an institution.)
            if first is not None and (
                not (organisation_head(first.text) or local_government(first.text)) or re.search(r"\s(?:and|AND|&)\s", first.text)
            ):
                first = None
        if first is None:
            # "between [ * * * ] ("Provider"), and TELCOSTAR PTE, LTD., ... and Ability ... Ltd":
            # a redacted first party; the names after it still count.
            names.extend(_and_chain(straight, position, end))
            continue
        # "between Galacticomm and Horst Entertainment Inc": without defined terms "and" more
        # often separates two parties than it joins one name.
        # ("Between THE UNIVERSITY OF WESTLAND And HARBOUR MANAGEMENT, LP": a title-case "And"
        # between two shouted names is the list's own.)
        joined = re.search(r"\s(?:and|AND)\s+(?=[A-Z0-9])|(?<=[A-Z])\sAnd\s+(?=[A-Z0-9][A-Z0-9])", first.text)
        if joined and _one_name_over_and(straight, first, joined, end):
            joined = None
        if joined:
            left = NameSpan(first.text[: joined.start()], first.start, first.start + joined.start())
            right_start = first.start + joined.end()
            right = NameSpan(straight[right_start : first.end], right_start, first.end)
            # ("... PHILIPPINES AND THE MINISTRY OF AGRICULTURE, LIVESTOCK AND IRRIGATION OF THE
            # REPUBLIC ...": the name after the joint may be a body named for its portfolios, whose
            # commas the slot's reading stopped at.)
            the = re.match(r"(?:the|THE|The)[ \t]+", straight[right_start:end])
            body = name_at(straight, right_start + (the.end() if the else 0), end)
            if body is not None and body.end > right.end and government_body_name(body.text):
                right = body
            names.extend([left, right])
            names.extend(_bare_and_chain(straight, first, end))
            continue
        names.append(first)
        # "BETWEEN (1) RAVI MEHRA son of ... (2) SUNIL MEHRA son of ..., and (3) ...": a clause
        # that numbers its first party numbers the others; each next number opens a slot.
        numbered = _numbered_slots(straight, enumerator.group(), first.end, end) if enumerator else []
        names.extend(numbered)
        first = numbered[-1] if numbered else first
        # "By and Among CSX TRANSPORTATION, INC. NORFOLK SOUTHERN RAILWAY COMPANY PENNSYLVANIA
        # LINES LLC ...": a flattened cover's names run on, each closed by its legal form.
        if not numbered:
            run_on = _caps_run_on(straight, first, end)
            names.extend(run_on)
            first = run_on[-1] if run_on else first
        # "among Alpha Inc., Beta LLC, Gamma Corp. and Delta Ltd.": a comma-separated list.
        listed = _comma_list(straight, first.end, end)
        names.extend(listed)
        last = listed[-1] if listed else first
        # (A list of lines closed by its own "and" line has no more names after it.)
        if listed and re.search(r"\n[ \t]*(?:and|AND)[ \t]*\n", straight[first.end : last.start]):
            continue
        # (After a numbered run an "&" is a firm's own: "Source: ACME SPORTS & MEDIA LTD".)
        connector = _clause_and(straight, last.end, min(end, last.end + 400), words_only=bool(numbered))
        # ("VIRTUSA INDIA PRIVATE LIMITED, a company ... (hereinafter referred to as the "OWNER" which
        # expression shall ...) of the one part\n\nAND\n\nSHAPOORJI ..."): a long description
        # closed by its side's words; the "and" after them opens the next party.)
        # (The first party's description holds "and" too, "... and its branch office at ...": an
        # "and" before a lower-case word opens no party when the side's closing words follow.)
        if connector is None or _LOWER_WORD_NEXT.match(straight, connector.end()):
            connector = _ONE_PART_AND.search(straight, last.end, min(end, last.end + _ONE_PART_CHARS)) or connector
        if connector is None:
            continue
        after = connector.end()
        enumerator = _LIST_NUMBER.match(straight, after, end)
        # "and its Licensee, Marathon Partners L.P.": the party's role, then its name.
        role = _ROLE_APPOSITIVE.match(straight, after, end)
        if role is not None and role.group(1) in lexicons().party_roles:
            enumerator = role
        second = slot_name_at(straight, after + (enumerator.end() - enumerator.start() if enumerator else 0), end)
        # ("between\nMicroChannel Corporation (Sponsor)\nand the\nIOWA STATE UNIVERSITY OF SCIENCE AND
        # TECHNOLOGY (ISU)": a lower-case "the" opens an institution's name after the joiner too, as
        # after "between" above.)
        if second is None and enumerator is None:
            second = _institution_after_the(straight, after, end)
        # "and Dr. Jane Roe Harbour Strasse 77 70469 Westport (the "Director")": the slot ran on
        # into the party's address; the name is the part before its street.
        if second is not None and party_name_problem(second.text) == "address":
            second = before_street_address(second)
        # "Acme Inc., c/o Pruitt & Lang LLP, ...": an "&" inside an addressee's name is no joiner.
        if second is not None and straight[connector.start() : connector.end()].strip() == "&" and after_non_party_lead(straight, second.start):
            continue
        if second is not None:
            names.append(second)
            # "And:\n\n1.\nJane Roe\n\n2.\nJohn Doe": a numbered group after the "and".
            if enumerator is not None and enumerator is not role:
                numbered = _numbered_slots(straight, enumerator.group(), second.end, end)
                names.extend(numbered)
                second = numbered[-1] if numbered else second
        # "By and Between ACME, INC. and BETA CO., LTD. and GAMMA CO., LTD.": on a cover
        # without descriptions, each further "and" opens one more name with a legal form.
        if second is not None:
            bare = _bare_and_chain(straight, second, end)
            names.extend(bare)
            second = bare[-1] if bare else second
        # "..., and Carol Ltd, a company of ..., and Dana GmbH, ...": more parties joined by "and",
        # each with a legal form (also after "A Inc. and its affiliates, ..., and (b) B LLC").
        names.extend(_and_chain(straight, second.end if second is not None else after, end))
    for start, end in windows:
        names.extend(n for n in _after_member_terms(straight, start, end) if n not in names)
    # ("and\n2. BETA LIMITED": an item's enumerator read into the name after the joiner.)
    # ("between The City of Salina, Kansas ("Licensee")": a local government's state is part of
    # its name.)
    # ("... AGREEMENT BETWEEN THE GOVERNMENT OF SIERRA LEONE (GOSL) AND SL MINING LIMITED": a name's
    # own initials in brackets are its short name, no word of it.)
    return [
        name_without_own_initials(with_local_seat(straight, without_enumerator(straight, name), len(straight)))
        for name in names
    ]


def _institution_after_the(text: str, position: int, end: int) -> NameSpan | None:
    """The institution (``organisation_head``) or local government named right after a lower-case
    "the" at ``position``, one name read up to its description; else None."""
    the = re.match(r"the[ \t\n]+(?=[A-Z])", text[position:end])
    name = slot_name_at(text, position + the.end(), end) if the is not None else None
    if name is None or re.search(r"\s(?:a|an)\s", name.text) or company_unit(name.text):
        return None
    return name if organisation_head(name.text) or local_government(name.text) else None


# A member's defined term closing its long description, then the next member after a comma:
# '... for itself and its AFFILIATES (collectively including such AFFILIATES "HGS"), Schering
# Corporation, a corporation organized under ...' (quotes straightened).
# (The term may stand unquoted: "BC International Corporation, a Delaware corporation (Licensor),
# Marubeni Corporation, a Japanese corporation (Marubeni), and ...".)
_MEMBER_TERM_THEN_COMMA = re.compile(
    r'(?:"[ \t\n]*\)|\((?:the[ \t\n]+)?[A-Z][\w&.\-]*(?:[ \t\n]+[A-Z][\w&.\-]*){0,3}\))[ \t\n]*,[ \t\n]+(?!(?:and|AND|or|OR)\b)'
)
_DESCRIBED_AFTER = re.compile(r"[ \t\n]*,[ \t\n]*(?:an?|AN?)[ \t\n]+[A-Za-z]")
_AFTER_MEMBER_TERMS_LIMIT = 8


def _after_member_terms(text: str, start: int, end: int) -> list[NameSpan]:
    """Parties of a clause listed by commas after a member's defined term, however long the
    member's description ran: the name right after '"X"), ' when it ends in a legal form and its
    own description follows (", a corporation ..."). At most ``_AFTER_MEMBER_TERMS_LIMIT``."""
    names: list[NameSpan] = []
    for close in _MEMBER_TERM_THEN_COMMA.finditer(text, start, end):
        name = name_at(text, close.end(), end)
        if name is None or name.start != close.end() or not ends_in_legal_suffix(name.text):
            continue
        if _DESCRIBED_AFTER.match(text, name.end, end) is None:
            continue
        names.append(name)
        if len(names) == _AFTER_MEMBER_TERMS_LIMIT:
            break
    return names


# How many numbered slots a clause may hold, and how far the next number may stand from the
# name before it (a person's description: parentage, age, address).
_NUMBERED_SLOTS_LIMIT = 12
_NUMBERED_SLOT_GAP = 300


def _numbered_slots(text: str, first: str, position: int, end: int) -> list[NameSpan]:
    """The parties after a numbered first party, each opened by the next number in the first
    one's style ("(1)" then "(2)", "1." then "2."), written in the clause after a space, a comma
    or "and"; the run stops at the first number without a name after it."""
    style = re.match(r"(\()?(?:[0-9]{1,2}|(I|i))([.)])", first.strip())
    if style is None or not first.strip().startswith(("(1", "1", "I", "(I", "i", "(i")):
        return []
    opening, roman, closing = style.group(1) or "", style.group(2), style.group(3)
    names: list[NameSpan] = []
    for number in range(2, 2 + _NUMBERED_SLOTS_LIMIT):
        if roman is not None and number > len(_ROMAN):
            break
        label = str(number) if roman is None else _ROMAN[number - 1] if roman == "i" else _ROMAN[number - 1].upper()
        marker = re.compile(rf"(?:^|(?<=[\s,;]))" + re.escape(f"{opening}{label}{closing}") + r"[ \t\n]+")
        found = marker.search(text, position, min(end, position + _NUMBERED_SLOT_GAP))
        if found is None:
            break
        name = slot_name_at(text, found.end(), end)
        if name is None:
            break
        names.append(name)
        position = name.end
    return names


def _clause_and(text: str, start: int, end: int, *, words_only: bool = False) -> re.Match[str] | None:
    """The "and" that joins the next party, the first outside a parenthesis: "(hereinafter the
    'Lessor', which expression shall include its executors and successors) of the FIRST PART
    AND M/S X PRIVATE LIMITED" joins at the capitals, the inner "and" belongs to the definition.
    With ``words_only`` an "&" joins no party."""
    for connector in _AND.finditer(text, start, end):
        if words_only and connector.group().strip(" \t\n:,") == "&":
            continue
        # "..., One Procter & Gamble Plaza, Cincinnati": an "&" a name reads across is the name's.
        if connector.group().strip(" \t\n:,") == "&" and ampersand_inside_name(text, connector.start(), connector.end(), end):
            continue
        # ("MOTOROLA, INC. BY AND THROUGH ITS PERSONAL COMMUNICATIONS SECTOR ... AND CELLSTAR,
        # LTD.": "by and through" opens the party's capacity; its "and" joins no party.)
        if _BY_AND_THROUGH.search(text, max(start, connector.start() - 3), min(len(text), connector.end() + 8)):
            continue
        # ("LIXTE ... INC. ("Lixte"), with its office and place of business at ... 91101 and STICHTING
        # ...": an "and" between two lower-case words joins the party's own description's words;
        # "between AstroNutrition.com and deep systems" joins a party written in lower case.)
        if _DESCRIPTION_AND.match(text, connector.end()) and _LOWER_WORD_BEFORE.search(text, max(start, connector.start() - 40), connector.start()):
            continue
        before = text[start : connector.start()]
        if before.count("(") <= before.count(")"):
            return connector
    return None


# Lower-case words on both sides of an "and" join a description: "office and place of business",
# "organized and existing"; "and the ...", "and its Licensee, ..." still open a slot.
_DESCRIPTION_AND = re.compile(r"(?!(?:the|its|their|each|any|all)\b)[a-z]")
_LOWER_WORD_BEFORE = re.compile(r"(?<![\w.\-])[a-z][a-z\-]*\Z")


_BY_AND_THROUGH = re.compile(r"(?i)\bby[ \t\n]+and[ \t\n]+through\b")


# Words of a party clause: a sentence holding one is a preamble a legend ran into, not a legend.
_PARTY_CLAUSE_WORDS = re.compile(r"(?i)\b(?:between|among|amongst|entered[ \t\n]+into|made[ \t\n]+(?:and|by|as|this|on)|dated|is[ \t\n]+made)\b")
# A sentence's end or a blank line: where a legend's sentence stops.
_SENTENCE_BREAK = re.compile(r"[.;][\"”']?[ \t]*\n|\.[ \t]|\n[ \t]*\n")
# How far a legend's sentence is read around a definition's name.
_LEGEND_WINDOW = 400


def _in_legend(text: str, start: int) -> bool:
    """Whether the sentence holding ``start`` is a confidential-treatment legend."""
    floor = max(0, start - _LEGEND_WINDOW)
    ends = [m.end() for m in _SENTENCE_BREAK.finditer(text, floor, start)]
    before = ends[-1] if ends else floor
    after = _SENTENCE_BREAK.search(text, start, start + _LEGEND_WINDOW)
    sentence = text[before : after.start() if after is not None else start + _LEGEND_WINDOW]
    # ("CERTAIN RIGHTS AND OBLIGATIONS OF THE OVERSEAS PRIVATE INVESTMENT CORPORATION ("OPIC") ARE
    # SET FORTH IN AN OPTION AGREEMENT ... BY AND AMONG ...": a legend that points to another
    # agreement, its party clause that agreement's.)
    if _POINTS_TO_AGREEMENT.search(sentence, start - before):
        return True
    # (A legend run into the preamble without a sentence end is no legend of its own: the party
    # clause's words are in it.)
    return legend_words().search(sentence) is not None and _PARTY_CLAUSE_WORDS.search(sentence) is None


_POINTS_TO_AGREEMENT = re.compile(SET_FORTH_IN_ANOTHER)


_LIST_AND_AFTER = re.compile(r"[ \t]*,?[ \t\n]+(?:and|AND)[ \t\n]+(?=[A-Z])")


def _one_name_over_and(text: str, name: NameSpan, joined: re.Match[str], end: int) -> bool:
    """Whether the "and" inside a name right after "between" joins the words of one name: the
    part before it has no legal form and either a list of names with legal forms, one per line,
    follows ("by and among\nBRISTOL PIPE AND TUBE, INC.,\nBRISTOL METALS, LLC, ...") or the name's defined
    term takes its initials from both sides ("ADAMANT DRI PROCESSING AND MINERALS GROUP
    ("ADMG")"; "Galacticomm and Horst Entertainment Inc ("Horst")" stays two names)."""
    left = name.text[: joined.start()]
    if has_legal_suffix(left):
        return False
    # ("between Bar-Ilan Research and Development Company Ltd., a company ... (BAR-ILAN), and ...":
    # a pair of common words the name joins with its own "and".)
    around = re.search(r"([A-Za-z][\w\-]*)\Z", left), re.match(r"[A-Za-z][\w\-]*", name.text[joined.end() :])
    if around[0] is not None and around[1] is not None and coordinated_words(around[0].group(1), around[1].group()):
        return True
    if re.match(r",[ \t]*\n", text[name.end : name.end + 4]) and _comma_list(text, name.end, end):
        return True
    # ("BETWEEN DALIAN CHUMING SLAUGHTER AND PACKAGING PORK CO., LTD. AND YOU": the list's own "and"
    # follows the whole name its legal form closes; the "AND" inside it is the name's.)
    # (One "AND" only: "RAIKES AND PIERS MINOPRIO AND WILMINGTON TRUST (UK) LIMITED AND ..." lists.)
    if (
        ends_in_legal_suffix(name.text) and len(re.findall(r"\s(?:and|AND)\s", name.text)) == 1
        and _LIST_AND_AFTER.match(text, name.end, end)
    ):
        return True
    term = re.match(r"[ \t]*\([ \t]*(?:the[ \t]+)?\"([A-Z]{2,8})\"", text[name.end : min(end, name.end + 40)])
    if term is None:
        return False
    initials = [w[0] for w in re.findall(r"[A-Za-z][\w'’\-]*", name.text) if w.casefold() not in {"and", "of", "the", "for"}]
    letters = list(term.group(1))
    if not initials or letters[0] != initials[0].upper():
        return False
    left_count = len([w for w in re.findall(r"[A-Za-z][\w'’\-]*", left) if w.casefold() not in {"and", "of", "the", "for"}])
    matched, position = [], 0
    for index, initial in enumerate(initials):
        if position < len(letters) and initial.upper() == letters[position]:
            matched.append(index)
            position += 1
    return position == len(letters) and any(i >= left_count for i in matched)


# ("and its Licensee, Marathon Partners L.P."; "and Licensor's Agent, SOUNDVIEW LICENSING, INC.")
_ROLE_APPOSITIVE = re.compile(r"(?:its|their|[A-Z][A-Za-z]+['’]s)[ \t]+([A-Z][a-z]+(?:[ \t][A-Z][a-z]+)?)[ \t]*,[ \t\n]*")
# (A list whose members carry their descriptions and definitions is separated by semicolons:
# "the Town of A, a municipal corporation (hereinafter "A"); the Town of B, ...".)
_COMMA_SEPARATOR = re.compile(r"[ \t]*[,;][ \t\n]*(?:(and)[ \t\n]+)?")
_COMMA_LIST_LIMIT = 12
# A member's own defined term between it and the next comma: 'A Co., Ltd. ("A"), B Inc., ...'
# (quotes straightened).
_LIST_MEMBER_TERM = re.compile(
    r"[ \t\n]*\((?:(?:the|hereinafter(?:[ \t\n]+(?:referred[ \t\n]+to[ \t\n]+as|called))?)[ \t\n]+(?:the[ \t\n]*)?)?\"[^\"()\n]{1,40}\"\)"
)


_DESCRIPTION_TO_TERM = re.compile(r",[ \t\n]*(?:an?|the)[ \t\n]+[^()\";]{1,160}?(?=[ \t\n]*\()")


def _comma_list(text: str, position: int, end: int) -> list[NameSpan]:
    """The names after a party's name that continue a comma-separated list, each with a legal
    form, each maybe defined ('("B")') or described (", a Delaware corporation"); the list ends
    at ", and X". (A
    cover's list of lines, each name over its description line, is the layout reader's.)"""
    names: list[NameSpan] = []
    while len(names) < _COMMA_LIST_LIMIT:
        # "among A Co., Ltd. ("A"), B Inc. ("B"), C Inc. and D LLC": a member's defined term
        # does not end the list.
        term = _LIST_MEMBER_TERM.match(text, position, end)
        position = term.end() if term else position
        described = _LIST_DESCRIPTION.match(text, position, end)
        member = _next_member(text, described.end() if described else position, end, defined=False)
        # (A description holding commas runs on to the member's own definition: ", a municipal
        # corporation in Orange County, North Carolina (hereinafter referred to as "A");
        # the Town of B, ...": read so only where the short reading finds no next member.)
        to_term = _DESCRIPTION_TO_TERM.match(text, position, end) if member is None else None
        term = _LIST_MEMBER_TERM.match(text, to_term.end(), end) if to_term is not None else None
        if term is not None:
            member = _next_member(text, term.end(), end, defined=True)
        if member is None:
            break
        name, last = member
        names.append(name)
        position = name.end
        if last:
            break
    return names


def _next_member(text: str, position: int, end: int, defined: bool) -> tuple[NameSpan, bool] | None:
    """The list's next member after its separator at ``position``, and whether the separator was
    the list's last (", and"); None where no member follows. A semicolon separates only members
    that carry their own definitions (``defined``)."""
    separator = _COMMA_SEPARATOR.match(text, position, end)
    if separator is None or (";" in separator.group() and not defined):
        return None
    # (", and Licensor's Agent, TALLOW BRAND LICENSING, INC.": a role held for another party
    # comes before the member's name.)
    role = _ROLE_APPOSITIVE.match(text, separator.end(), end)
    opening = role.end() if role is not None and role.group(1) in lexicons().party_roles else separator.end()
    name = name_at(text, opening, end)
    # ("between the Village of Arden, the Town of Perry, and the Town of York": a local
    # government is a member by its own words, after a lower-case "the" too.)
    the = re.match(r"the[ \t\n]+(?=[A-Z])", text[opening:end]) if name is None else None
    if the is not None:
        name = name_at(text, opening + the.end(), end)
        name = name if name is not None and local_government(name.text) else None
    # ("GEORGIA POWER COMPANY, JAMES RIVER COAL COMPANY. AND JAMES RIVER COAL SALES. INC.": a
    # member named by its head word alone, when the list's own "and" follows it.)
    if name is None or not (
        ends_in_legal_suffix(name.text)
        or local_government(name.text)
        or (organisation_head(name.text) and _LIST_AND_NEXT.match(text, name.end, end))
    ):
        return None
    return name, bool(separator.group(1))


# The list's last "and" right after a member: "COMPANY. AND JAMES ...", "Company, and Beta".
_LIST_AND_NEXT = re.compile(r"[ \t]*[.,]?[ \t\n]+(?:and|AND)[ \t\n]+[A-Z]")


# A group definition closing a list of parties: "A LLC, B L.P. and Jane Roe (collectively, the
# "Sellers")". Only in the preamble windows: elsewhere such groups are goods or losses.
# Also the "Party"/"Parties" definition that closes a list: "A LLC and B Inc. (each a "Party" and
# together the "Parties")", "(individually a "Party")", "(together, the "Kleins")".
_COLLECTIVE = re.compile(
    r"\(\s*(?:(?:each|individually|severally)(?:\s+(?:and|or)\s+(?:collectively|together|jointly))?"
    r"|collectively|together|jointly),?\s+(?:(?:the|a|an)\s+)?\""
    # ('The University of Westland and the Harbour Secretariat (hereafter referred to as "the
    # Parties")': a list the term "Parties" itself names.)
    r"|\(\s*(?i:hereinafter|hereafter)\s+(?i:referred\s+to\s+as|called)\s+(?:the\s+)?\"(?:the\s+)?(?=(?i:parties)\")"
)
# "This Supply Agreement is entered into by A LLC and B Inc. (each ...": the list starts after "by".
_LIST_MADE_BY = re.compile(
    r"(?i)(?:this|the)\b[^()\"\n]{0,120}?\b(?:made|entered\s+into|executed|signed)\b[^()\"\n]{0,80}?"
    r"\bby[ \t\n]+(?:and[ \t\n]+(?:between|among)[ \t\n]+)?"
)
# (The clause after the title's own definition: "(this "Guaranty"), is made by A Inc., B LLC ...".)
_LIST_VERB_BY = re.compile(r"(?i)(?:is|are)[ \t\n]+(?:hereby[ \t\n]+)?(?:made|entered[ \t\n]+into|executed|signed)[ \t\n]+by[ \t\n]+(?!and\b)")
# (A lower-case article opens the next member: "... West Indies and the Harbour Secretariat (".)
_LIST_SEPARATOR = re.compile(r"[ \t]*(?:,[ \t\n]*(?:and[ \t\n]+)?|[ \t\n]+and[ \t\n]+)(?:the[ \t\n]+(?=[A-Z]))?")
_COLLECTIVE_LIMIT = 16
# (The last name's description runs up to the group definition: "..., a Delaware corporation (collectively".)
# (Or a relation to another party: "..., Jane Roe and John Doe, the members of Seller (each".)
# (Or a member's capacity: "Harold T. Brinkley, as trustee of the Brinkley Family Trust u/a/d June
# 4, 2011, Bluegill ...": a date's year inside it stays the capacity's.)
# (A description may wrap onto the next line, never over a blank one: "a Delaware limited
# liability\ncompany, PhillieCo, L.P., ...".)
_LIST_DESCRIPTION = re.compile(
    r",[ \t\n]*(?:(?:an?|the)[ \t\n]+(?:[^,()\"\n]|\n(?![ \t]*\n)){1,80}?"
    r"|as[ \t\n]+(?:the[ \t\n]+)?(?:sole[ \t\n]+)?(?:co-)?(?:trustees?|custodian|executor|executrix|administrator|nominee|guardian)"
    r"[ \t\n]+(?:of|for|under)[ \t\n]+[^,()\"\n]{1,100}?(?:,[ \t\n]*(?:19|20)\d\d)?)(?=,|[ \t\n]+and[ \t\n]|[ \t\n]*$)"
)
# ", on the one hand" between a list's last member and its group definition.
_ONE_SIDE_FILLER = re.compile(r"[ \t\n]*,?[ \t\n]*on[ \t\n]+the[ \t\n]+(?:one|other)[ \t\n]+hand[ \t\n]*,?[ \t\n]*")
# A member's description that makes it a company: an article, then words ending in a legal form
# (", a Nevada corporation", ", a Delaware limited liability company").
_COMPANY_DESCRIPTION = re.compile(r",[ \t\n]*(?:an?|An?|AN?)[ \t\n]+[^,()\"\n]{1,80}")
# "The undersigned, SUNTRON CORPORATION, a Delaware corporation, ... (collectively, the
# "Borrowers"), hereby acknowledge ...": the signers list themselves, anywhere in the document
# (an acknowledgment follows the signatures).
_UNDERSIGNED_LIST = re.compile(r"\b[Tt]he[ \t]+undersigned[ \t]*,[ \t\n]*")
_UNDERSIGNED_WINDOW_CHARS = 2_000


# A listed party's former name: "Vale Tours, Inc.\n(formerly Amber Trips, Inc.), Orrin Travel, Inc."
# (its lead words: ``former_name_leads`` of party_filters.json).
@dataclass(frozen=True, slots=True)
class FormerNames:
    after: re.Pattern[str]  # the aside right after a name
    before: re.Pattern[str]  # the aside ending where a search ends


def former_names(data: Mapping[str, Any]) -> FormerNames:
    """The former-name asides built from party_filters.json's ``data``."""
    aside = r"\((?:" + _phrases(data["former_name_leads"]) + r")\b[^()\n]{0,80}\)"
    return FormerNames(re.compile(r"[ \t\n]*" + aside, re.I), re.compile(aside + "$", re.I))


@lru_cache(maxsize=1)
def _former_names() -> FormerNames:
    return former_names(load_json("party_filters.json"))


def _collective_names(text: str, windows: Sequence[tuple[int, int]]) -> list[NameSpan]:
    """The names listed before a group definition in a preamble window, each a name with a legal
    form or a person's name (two to four capitalised words); the list must run name, separator,
    name, ... right up to the parenthesis, or nothing is taken."""
    return [name for _, names in _collective_lists(text, windows) for name in names]


def _collective_lists(text: str, windows: Sequence[tuple[int, int]]) -> list[tuple[str, list[NameSpan]]]:
    """Per group definition in ``windows``: its term ("Sellers") and the names it lists."""
    straight = straighten_quotes(text)
    found: list[tuple[str, list[NameSpan]]] = []
    for start, end in windows:
        for match in _COLLECTIVE.finditer(straight, start, end):
            # The list starts after the previous parenthesis ("X LLC ("X"), Y L.P. and Z (...)"), not
            # after a former name's aside ("Vale Tours, Inc. (formerly Amber Trips, Inc.), ...").
            close = straight.rfind(")", start, match.start())
            while close != -1 and (aside := _former_names().before.search(straight, start, close + 1)) is not None:
                close = straight.rfind(")", start, aside.start())
            begin = clause_start(straight, match.start(), max(start, close + 1))
            position = begin + len(straight[begin : match.start()]) - len(straight[begin : match.start()].lstrip(" \t\n,;:"))
            made_by = _LIST_MADE_BY.match(straight, position, match.start()) or _LIST_VERB_BY.match(straight, position, match.start())
            position = made_by.end() if made_by else position
            # ", on the other hand, and Robert Klein and Susan Klein (together, ...": filler first.
            filler = leading_connectors(straight, position, match.start())
            position = filler if filler is not None else position
            # "The holders of all of the shares of the Company, namely A Limited, ... and B (each a
            # "Shareholder" ...": the list starts after its "namely".
            namely = list(re.finditer(r"\bnamely\b[ \t\n]*:?[ \t\n]*", straight[position : match.start()]))
            position += namely[-1].end() if namely else 0
            # A recital states the group: "WHEREAS, Beta LLC, Gamma Corp. and Delta Ltd. (collectively".
            recital = re.match(r"(?:WHEREAS|Whereas)[ \t,]+", straight[position : match.start()])
            position += recital.end() if recital else 0
            listed: list[NameSpan] = []
            # ("STORESONLINE.COM, INC., a California corporation, and NETGATEWAY, a Nevada
            # corporation (collectively, ...": a member described as a company by its legal form,
            # spelled out in its description, is a company without one in its name.)
            described_as_company: set[NameSpan] = set()
            while position < match.start() and len(listed) < _COLLECTIVE_LIMIT:
                name = name_at(straight, position, match.start())
                if name is None:
                    break
                name = _person_before_and(name)
                listed.append(name)
                aside = _former_names().after.match(straight, name.end, match.start())
                name_end = aside.end() if aside else name.end
                # "SUNTRON CORPORATION, a Delaware corporation, K*TEC ...": a description per name.
                described = _LIST_DESCRIPTION.match(straight, name_end, match.start())
                if described is not None and _COMPANY_DESCRIPTION.fullmatch(described.group()) and ends_in_legal_suffix(described.group()):
                    described_as_company.add(name)
                separator = _LIST_SEPARATOR.match(straight, described.end() if described else name_end, match.start())
                position = separator.end() if separator else (described.end() if described else name_end)
                if separator is None:
                    break
            # (A pair of persons read as one name is two members: "and Mary Jones and Robert Lee
            # (together, the "Sellers")".)
            members = sum(2 if _personal_names_pair(n.text) else 1 for n in listed)
            # (", on the one hand (collectively, ...": the side's filler closes a list of
            # companies; a person's name there may be a place read from an address.)
            if _ONE_SIDE_FILLER.fullmatch(straight, position, match.start()) and all(
                ends_in_legal_suffix(n.text) or n in described_as_company for n in listed
            ):
                position = match.start()
            if straight[position : match.start()].strip() or members < 2:
                continue
            term = re.match(r'[^"]{1,60}', straight[match.end() : match.end() + 60])
            # (A member may be a trust or an institution by its head noun: "The Pulaski 2012
            # Irrevocable Trust".)
            # (A pair of persons before a collective definition is two members: the definition
            # says so; "Thaddeus M. Pruitt and Caroline S. Pruitt-Vance (each, a "Principal"".)
            found.append((
                term.group() if term else "",
                [
                    member for n in listed
                    if ends_in_legal_suffix(n.text) or organisation_head(n.text) or n in described_as_company
                    or _personal_name(n.text) or _personal_names_pair(n.text)
                    for member in (_pair_halves(n) if _personal_names_pair(n.text) else [n])
                ],
            ))
    return found


_LIST_AND = re.compile(r"[ \t\n]+and[ \t\n]+(?=[A-Z])")


def _person_before_and(name: NameSpan) -> NameSpan:
    """A list member read over the list's last "and": "Patricia A. Pulaski-Moore and The Pulaski
    2012 Irrevocable Trust" is a person, then another member (of at least two words before any
    legal form: "John Smith and Sons Ltd." stays one name). Two persons ("Mary Jones and Robert
    Lee") are left as a pair, which the caller counts as two."""
    joined = _LIST_AND.search(name.text)
    if joined is None or _personal_names_pair(name.text) or not _personal_name(name.text[: joined.start()]):
        return name
    rest = name.text[joined.end() :]
    if len(normalise_org(rest).split()) < 2:
        return name
    return NameSpan(name.text[: joined.start()], name.start, name.start + joined.start())


# "the cities of Lacey, Olympia, Tumwater, Yelm, and Tenino, municipal corporations in ...": local
# governments of one kind listed after their plural unit and "of"; each member one to three
# capitalised words, the list closed by its "and".
@lru_cache(maxsize=1)
def _unit_list() -> re.Pattern[str]:
    """The plural of a local government's unit (``local_government_units`` of party_filters.json:
    "cities", "counties", "towns", in lower case or capitals) and "of"."""
    units = load_json("party_filters.json")["local_government_units"]
    plurals = [u[:-1] + "ies" if u.endswith("y") and u[-2:-1] not in "aeiou" else u + ("es" if u.endswith("sh") else "s") for u in units]
    alternatives = phrase_alternation([*plurals, *(p.upper() for p in plurals)], r"[ \t\n]+")
    return re.compile(rf"\b(?:the[ \t\n]+)?(?:{alternatives})[ \t\n]+(?:of|OF)[ \t\n]+")


_UNIT_MEMBER = re.compile(r"[A-Z][A-Za-z'’\-]+(?:[ \t]+[A-Z][A-Za-z'’\-]+){0,2}")
_UNIT_SEPARATOR = re.compile(r"[ \t\n]*,[ \t\n]*(?:(and|AND)[ \t\n]+)?|[ \t\n]+(and|AND)[ \t\n]+")
_UNIT_LIST_LIMIT = 12


def _unit_list_names(text: str, windows: Sequence[tuple[int, int]]) -> list[NameSpan]:
    """The members of a list of local governments after their plural unit in a party clause
    (``_unit_list``: "the cities of Lacey, Olympia, and Tenino"), each a party by its own words;
    only a list of two or more read whole to its "and", at most ``_UNIT_LIST_LIMIT`` members."""
    names: list[NameSpan] = []
    for start, end in windows:
        for unit in _unit_list().finditer(text, start, end):
            members: list[NameSpan] = []
            position, last, closed = unit.end(), False, False
            while len(members) < _UNIT_LIST_LIMIT:
                member = _UNIT_MEMBER.match(text, position, end)
                if member is None:
                    break
                members.append(NameSpan(member.group(), member.start(), member.end()))
                if last:
                    closed = True
                    break
                separator = _UNIT_SEPARATOR.match(text, member.end(), end)
                if separator is None:
                    break
                last, position = bool(separator.group(1) or separator.group(2)), separator.end()
            # (A list read only in part, past the limit or not closed, names none.)
            if closed and len(members) >= 2:
                names.extend(m for m in members if m not in names)
    return names


def _named_group_names(text: str, windows: Sequence[tuple[int, int]]) -> list[NameSpan]:
    """ "This Agreement is made between Alpha Inc. and the Sellers. WHEREAS, Beta LLC, Gamma
    Corp. and Delta Ltd. (collectively, the "Sellers") ...": a group the party clause names by its
    defined term is made of parties, wherever in the opening pages the group is defined."""
    if not windows:
        return []
    clause = straighten_quotes(text[windows[0][0] : windows[0][1]])
    scan = [(0, min(len(text), PREAMBLE_SCAN_CHARS))]
    # The term must stand alone, not open a longer capitalised name: a party defined as "DCI Sdn
    # Bhd" does not name the group "DCI" of a recital about another agreement's sellers.
    return [
        name
        for term, names in _collective_lists(text, scan)
        if term and re.search(rf"\b{re.escape(term)}\b(?![\"\w])(?![ \t]+[A-Z])", clause)
        for name in names
    ]


def _undersigned_windows(text: str) -> list[tuple[int, int]]:
    """Spans that open with "The undersigned," (from the first name on), at most
    ``_UNDERSIGNED_WINDOW_CHARS`` long."""
    return [
        (match.end(), min(len(text), match.end() + _UNDERSIGNED_WINDOW_CHARS))
        for match in _UNDERSIGNED_LIST.finditer(text)
    ]


_PERSON_JOIN = re.compile(r"[ \t\n]+(?:and|AND|&)[ \t\n]+")
_PERSON_WORD = re.compile(r"[A-Z](?:[a-z'’\-]+|[A-Z'’\-]+|\.)")


def _one_join_halves(name: NameSpan) -> tuple[NameSpan, NameSpan, str] | None:
    """The two sides of the one "and"/"&" inside ``name``, and that joint; None for no joint or
    more than one."""
    joins = list(_PERSON_JOIN.finditer(name.text))
    if len(joins) != 1:
        return None
    join = joins[0]
    first = NameSpan(name.text[: join.start()], name.start, name.start + join.start())
    second = NameSpan(name.text[join.end() :], name.start + join.end(), name.end)
    return first, second, join.group()


def _person_words(half: NameSpan, most: int) -> list[str] | None:
    """A person's name words in ``half`` (two to ``most`` capitalised words after any honorific,
    no legal form, not ending in an abbreviation), or None. ("Ms. Zheng Roe and Ms. Kong Amy Wai
    Ng": an honorific opening a half is no word of it.)"""
    words = words_without_honorifics(half.text)
    if has_legal_suffix(half.text) or not 2 <= len(words) <= most or not all(_PERSON_WORD.fullmatch(w) for w in words):
        return None
    return None if words[-1].endswith(".") else words


def _tagged_person_inside(half: NameSpan, person_spans: Sequence[tuple[int, int]]) -> bool:
    return any(half.start <= s and e <= half.end and e > s for s, e in person_spans)


def _person_pair(name: NameSpan, person_spans: Sequence[tuple[int, int]]) -> tuple[NameSpan, NameSpan] | None:
    """The two persons a name read as one holds ("Jane Roe and John Doe"), or None. Both
    halves must be a person's shape (``_person_words``, up to five words) and each hold a span the
    model tags PERSON, within that half: the grammar and the model agree, so "Smith and Jones" (a
    firm's style) or "Research and Development" stay one name."""
    split = _one_join_halves(name)
    if split is None or has_legal_suffix(name.text):
        return None
    halves = split[:2]
    for half in halves:
        if _person_words(half, 5) is None or not _tagged_person_inside(half, person_spans):
            return None
    return halves


# ", a company duly established ...", ", a Delaware corporation": one company described after a name.
_ONE_COMPANY_DESCRIBED = re.compile(r"[ \t\n]*,[ \t\n]*(?:an?|AN?)[ \t\n]+(?:[A-Z][\w.\-]*[ \t\n]+){0,3}(?:company|corporation)\b")


def _one_defined_line(text: str, party: Party) -> bool:
    """Whether a singular term (no plural, no "Parties") defines ``party`` and its name fills
    its own line."""
    if party.role is None or party.role.endswith(("s", "S")) or " and " in party.role:
        return False
    line_start = text.rfind("\n", 0, party.name.start) + 1
    line_end = text.find("\n", party.name.end)
    line_end = len(text) if line_end == -1 else line_end
    return not text[line_start : party.name.start].strip(" \t|") and not text[party.name.end : line_end].strip(" \t|,")


def _one_cover_entry_line(text: str, party: Party) -> bool:
    """Whether ``party``'s name fills its own line next to a cover's joiner line (the nearest
    line above or below with words is "AND"/"BETWEEN"): a cover writes one party per entry, so
    "MITIE CLEANING AND ENVIRONMENTAL SERVICES LIMITED" under "AND" is one company's name."""
    line_start = text.rfind("\n", 0, party.name.start) + 1
    line_end = text.find("\n", party.name.end)
    line_end = len(text) if line_end == -1 else line_end
    if text[line_start : party.name.start].strip(" \t|") or text[party.name.end : line_end].strip(" \t|,"):
        return False
    above = [line for line in text[max(0, line_start - 200) : line_start].split("\n") if line.strip()]
    below = [line for line in text[line_end : line_end + 200].split("\n") if line.strip()]
    return any(cover_joiner(line) for line in (above[-1:] + below[:1]))


def _person_and_company(
    text: str,
    name: NameSpan,
    person_spans: Sequence[tuple[int, int]],
    common_words: frozenset[str],
    org_spans: Sequence[tuple[int, int]] = (),
) -> tuple[NameSpan, NameSpan] | None:
    """A person and a company a name read as one holds ("Martin Roe and Harbour Resolutions Group
    LLC", "PIERS ROE AND WILMINGTON TRUST (UK) LIMITED"), or None. The first half is a person's
    shape (``_person_words``, up to four words) and no organisation, with a span the model tags
    PERSON inside or no word the document also writes in lower case ("Harbour Research and
    Development Services Ltd" stays one name); the second ends in a legal form after at least two
    words of its own, so a firm's style ("Morgan Roe and Bockius LLP", "Smith and Jones LLP") stays
    one name. Nor is a name split that the model tags as one organisation over its "and" and the
    text describes as one company ("Hebei Jinlu Industry and Commerce Group Co., Ltd., a company
    duly established ...")."""
    split = _one_join_halves(name)
    # (Only "and": "Full Moon & High Tide Productions, Inc." is a firm's style.)
    if split is None or "&" in split[2]:
        return None
    person, company, _ = split
    if any(start <= person.start and company.start < end for start, end in org_spans) and _ONE_COMPANY_DESCRIBED.match(
        text, name.end
    ):
        return None
    words = _person_words(person, 4)
    if words is None or organisation_head(person.text):
        return None
    # ("International Spirits and Beverage Group, Inc.": an adjective's ending is no person's word.)
    if any(_NOT_A_NAME_ENDING.search(w) for w in words):
        return None
    if not _tagged_person_inside(person, person_spans) and any(w.casefold() in common_words for w in words):
        return None
    if coordinated_words(words[-1], company.text.split()[0]):
        return None
    if not ends_in_legal_suffix(company.text) or len(without_legal_form(company.text).split()) < 2:
        return None
    return person, company


# Adjective endings no given name or surname has ("International", "Medical", "Natural", "Various"),
# nor a field's ("INTREPID TECHNOLOGY AND RESOURCES BIOGAS, LLC").
_NOT_A_NAME_ENDING = re.compile(r"(?i)(?:ional|ical|ural|ious|eous|ology)$")


# The comma between a person's name and the office she holds (``names.office_of_prefix``).
_COMMA_BEFORE_OFFICE = re.compile(r",[ \t\n]+")


def _office_holders_body(text: str, definition: Definition) -> NameSpan | None:
    """The body a person holds office in, when the clause defines a term for an organisation by
    that person ("Nick Walkley, Chief Executive of London Borough of Barnet at Building 4, ...
    (\u201cthe Local Authority\u201d)": the term's head word is an organisation's, "Authority",
    "Council", "Company"): the officer acts for the body, which is the party. A person's own term
    ("Jane Roe, President of Acme Inc. ("Executive")") keeps the person. None otherwise."""
    name = definition.name
    if name is None or not _personal_name(name.text):
        return None
    words = definition.term.split()
    if not words or not organisation_head_word(words[-1]):
        return None
    comma = _COMMA_BEFORE_OFFICE.match(text, name.end, definition.term_start)
    office = office_of_prefix().match(text, comma.end(), definition.term_start) if comma is not None else None
    if office is None:
        return None
    body = name_at(text, office.end(), definition.term_start)
    if body is None or len(body.text.split()) < 2:
        return None
    # ("Harrow Holdings Limited" reads like a person's three words; its legal form says otherwise.)
    if _personal_name(body.text) and not (ends_in_legal_suffix(body.text) or organisation_head(body.text)):
        return None
    return body


def _personal_name(name: str) -> bool:
    # (A middle initial is a word of it: "Daniel K. Ortega"; so are a double-barrelled surname and
    # an apostrophe: "Patricia A. Pulaski-Moore", "Liam O'Brien".)
    words = name.split()
    return 2 <= len(words) <= 4 and all(
        w[:1].isupper()
        and (_NAME_WORD.fullmatch(w) is not None or (0 < i < len(words) - 1 and re.fullmatch(r"[A-Z]\.", w)))
        for i, w in enumerate(words)
    )


_NAME_WORD = re.compile(r"[^\W\d_]+(?:['’\-][^\W\d_]+)*")


def _personal_names_pair(name: str) -> bool:
    """Whether ``name`` is two persons' names joined by one "and": the last two of a list, "John
    Roe, Mary Jones and Robert Lee (each a "Seller")", which the name reader reads as one. It is
    kept as one name here; the parties stage splits it only where the model tags both halves
    PERSON (``_person_pair``)."""
    halves = _PERSON_JOIN.split(name)
    return len(halves) == 2 and all(_personal_name(half) for half in halves)


def _pair_halves(name: NameSpan) -> list[NameSpan]:
    """The two persons of a pair ``_personal_names_pair`` accepts, each at its own offsets."""
    joint = _PERSON_JOIN.search(name.text)
    assert joint is not None
    second = name.start + joint.end()
    return [NameSpan(name.text[: joint.start()], name.start, name.start + joint.start()), NameSpan(name.text[joint.end() :], second, name.end)]


_AND_WORD = re.compile(r"(?:^|[\s,])(?:and|AND)\s+")
_AND_CHAIN_LIMIT = 12
_AND_CHAIN_GAP = 300


def _and_chain(text: str, position: int, end: int) -> list[NameSpan]:
    """Names with a legal form, each after a later "and" within a clause's length ("organized
    and existing" is skipped), until none is found."""
    names: list[NameSpan] = []
    while len(names) < _AND_CHAIN_LIMIT:
        found = None
        for connector in _AND_WORD.finditer(text, position, min(end, position + _AND_CHAIN_GAP)):
            # The previous party's description (", a company ...", "(...)") comes first: "Swaps
            # and Derivatives Association, Inc." is one name, not two.
            # ("...\n\n   AND\n\n   AMERICAN HARBOUR MARINE\n   SERVICE COMPANY": on a cover, a line
            # holding only "and" separates the names; a name there may end in its head noun.)
            own_line = _and_alone_on_line(text, connector.start() + len(connector.group()) - len(connector.group().lstrip(" \t\n,")))
            if not own_line and not re.search(r"[,(]", text[position : connector.start()]):
                continue
            # ('... (hereinafter "JAGOTEC"). JAGOTEC is a 100% owned subsidiary of SkyePharma plc
            # and SkyePharma AG is ...': the clause's sentence ended; a later one names no party.)
            if _CHAIN_SENTENCE_END.search(text, position, connector.start()):
                break
            # "... and (b) Wilmington Savings Fund Society, FSB, as the indenture agent": enumerated.
            enumerator = re.match(r"\([a-z0-9]{1,3}\)[ \t]+", text[connector.end() : end])
            name = name_at(text, connector.end() + (enumerator.end() if enumerator else 0), end)
            # ("..., and TSMC North America, a California corporation ...": a name without a
            # legal form that its description calls a company, after a list's ", and"; an "and"
            # inside a name, "The Spic and Span Company, a Delaware corporation", joins no party.)
            listed = re.search(r",[ \t\n]*$", text[max(position, connector.start() - 2) : connector.end() - len(connector.group().lstrip(" \t\n,"))])
            if name is not None and (
                ends_in_legal_suffix(name.text)
                or (own_line and organisation_head(name.text))
                or (listed is not None and _DESCRIBED_AS_COMPANY.match(text, name.end, end) is not None)
            ):
                found = name
                break
        if found is None:
            break
        names.append(found)
        position = found.end
    return names


_BARE_AND = re.compile(r"[ \t\n]+(?:and|AND)[ \t\n]+")
# A sentence's end inside an and-chain: a full stop after a bracket, a quote or a lower-case word
# (never a legal form's "Inc."), then a capitalised word.
# (A numbered section's heading opening a line, "\n1.   Term of Agreement.", is past the clause too.)
_CHAIN_SENTENCE_END = re.compile(r"(?:[)\"”]|(?<![\w.])[a-z]{3,})\.[ \t\n]+(?=[A-Z])|\n[ \t]*[0-9]{1,2}\.[ \t]+(?=[A-Z][a-z])")
# What opens a slot of a party list right before a name: ", and ", ", ", "between ", "among ".
_LIST_SLOT_BEFORE = re.compile(r"(?:,[ \t\n]*(?:(?:and|AND)[ \t\n]+)?|\b(?:between|among|BETWEEN|AMONG)[ \t\n]+)\Z")
_RUN_ON_GAP = re.compile(r"[ \t]+(?=[A-Z])")
_RUN_ON_LIMIT = 8


def _caps_run_on(text: str, last: NameSpan, end: int) -> list[NameSpan]:
    """Names in capitals written one right after another on a line after ``last`` (a blank, no
    joiner), each closed by a legal form and ``last`` too: a flattened cover's party list. At
    most ``_RUN_ON_LIMIT``."""
    names: list[NameSpan] = []
    while len(names) < _RUN_ON_LIMIT and last.text.isupper() and _closed_by_form(last.text):
        gap = _RUN_ON_GAP.match(text, last.end, end)
        name = name_at(text, gap.end(), end) if gap is not None else None
        if name is None or name.start != gap.end() or not name.text.isupper() or not ends_in_legal_suffix(name.text):
            break
        name = _first_closed_part(name)
        names.append(name)
        last = name
    return names


def _closed_by_form(name: str) -> bool:
    """Whether a name in capitals ends in a legal form or in "COMPANY"/"CORPORATION"."""
    return ends_in_legal_suffix(name) or name.split()[-1] in ("COMPANY", "CORPORATION")


def _first_closed_part(name: NameSpan) -> NameSpan:
    """The first part of a run-on reading that a legal form (or "COMPANY", "CORPORATION") closes
    when the rest is a name with a legal form too ("NORFOLK SOUTHERN RAILWAY COMPANY" of "...
    COMPANY PENNSYLVANIA LINES LLC"); else the whole reading."""
    for word in re.finditer(r"[ \t]+", name.text):
        head, rest = name.text[: word.start()], name.text[word.end() :]
        if len(head.split()) >= 2 and _closed_by_form(head) and len(rest.split()) >= 2 and ends_in_legal_suffix(rest):
            return NameSpan(head, name.start, name.start + len(head))
    return name


# A party's description as a body formed under a law: ", a foundation incorporated under the laws
# of The Netherlands", ", an association organized under ...".
_DESCRIBED_AS_FORMED = re.compile(
    r"[ \t\n]*,[ \t\n]*(?:an?|AN?)[ \t\n]+(?:[A-Z][\w.\-]*[ \t\n]+){0,3}"
    r"(?:foundation|association|society|institution|university|college|trust|company|corporation|partnership|body[ \t\n]+corporate)"
    r"[ \t\n]+(?:duly[ \t\n]+)?(?:incorporated|organized|organised|established|existing|registered|formed|constituted)\b"
)
# A slot after a list's "and" (or a comma, or "between"), without a comma before the "and" too.
# (A local government's slot: after a list's comma, semicolon or "and", a lower-case "the" between.)
_GOVERNMENT_SLOT_BEFORE = re.compile(
    r"(?:[,;][ \t\n]*(?:(?:and|AND)[ \t\n]+)?|[ \t\n](?:and|AND)[ \t\n]+|\b(?:between|among|BETWEEN|AMONG)[ \t\n]+)(?:the[ \t\n]+)?\Z"
)
_SLOT_AFTER_AND = re.compile(r"(?:,[ \t\n]*|[ \t\n](?:and|AND)[ \t\n]+|\b(?:between|among|BETWEEN|AMONG)[ \t\n]+)\Z")


# A party's description naming its kind of company: ", a California corporation", ", a Delaware
# limited liability company", ", an Ontario limited partnership".
_DESCRIBED_AS_COMPANY = re.compile(
    r"[ \t\n]*,[ \t\n]*(?:an?|AN?)[ \t\n]+(?:[A-Z][\w.\-]*[ \t\n]+){1,3}"
    r"(?:(?:limited[ \t\n]+liability[ \t\n]+|general[ \t\n]+|limited[ \t\n]+)?(?:corporation|company|partnership)|banking[ \t\n]+association)\b"
)


def _bare_and_chain(text: str, last: NameSpan, end: int) -> list[NameSpan]:
    """Names right after a bare "and" following ``last`` ("... CO., LTD. and GAMMA CO., LTD."),
    while the name before and the name after each close with a legal form."""
    names: list[NameSpan] = []
    while len(names) < _AND_CHAIN_LIMIT and ends_in_legal_suffix(last.text):
        joiner = _BARE_AND.match(text, last.end, end)
        name = name_at(text, joiner.end(), end) if joiner is not None else None
        if name is None or not ends_in_legal_suffix(name.text):
            break
        names.append(name)
        last = name
    return names


def _and_alone_on_line(text: str, pos: int) -> bool:
    """Whether the "and" at ``pos`` is alone on its line (``_AND_LINE``: a line below follows)."""
    line_start = text.rfind("\n", 0, pos)
    return line_start >= 0 and _AND_LINE.match(text, line_start) is not None


# "By signing below, the parties agree ..." / "By signing in the places indicated below": an
# execution clause in its own words, leading the signatures like "IN WITNESS WHEREOF".
_SIGNATURE_START = re.compile(
    r"IN\s+WITNESS\s+WHEREOF|In\s+Witness\s+Whereof|[Ss]ignature\s+[Pp]age|\bundersigned\b"
    r"|\b[Bb]y[ \t]+signing\b[^.\n]{0,60}?\bbelow\b"
    # ("... by and between the parties listed below, each referred to herein as a "Joint Filer"":
    # a preamble that names its parties by the signatures below leads them too.)
    r"|\b(?:parties|persons)[ \t\n]+(?:listed|named|identified)[ \t\n]+below\b"
)
# "ACME LLC\nBy: ..." or, in joint filings, "ACME S.À R.L. /s/ Jan Novak".
_SIGNED_BY = re.compile(r"\bBy:|(?<!\S)/s/")
_SIGNATURE_NAME_WINDOW = 160
_BARE_BY_BEFORE = re.compile(r"(?<![\w])By[ \t]*\Z")
# Defined terms in parentheses right before a signature mark, after the head's name.
_HEAD_TERMS = re.compile(r"(?:[ \t]*\([ \t]*(?:the[ \t]+)?[\"“][^\"”\n]{1,40}[\"”][ \t]*\))+[ \t]*\Z")


@lru_cache(maxsize=1)
def _signature_lead() -> re.Pattern[str]:
    """What may stand before a signer's name on its line: an acceptance ("Agreed and accepted
    by:") or a signatory's office (``signature_offices`` of party_filters.json: "CEO Jane Roe")."""
    offices = "|".join(re.escape(o) for o in sorted(load_json("party_filters.json")["signature_offices"], key=len, reverse=True))
    return re.compile(
        r"(?i:(?:acknowledged|agreed|accepted|approved)(?:[ \t,]+(?:and|&)[ \t]+(?:acknowledged|agreed|accepted|approved))*"
        rf"(?:[ \t]+(?:to|by))?[ \t]*:?|(?:{offices}))\s+"
    )


def _signature_start(text: str) -> int | None:
    """Where the signatures begin: "IN WITNESS WHEREOF" and the like, or a letter agreement's
    close or acceptance ("Very truly yours,", "Accepted and agreed:"), whichever comes first;
    without any lead, the block above the first "By:"/"/s/" line (ingest/signature_blocks.py)."""
    start = _led_signature_start(text)
    return start if start is not None else block_start(text)


def _led_signature_start(text: str) -> int | None:
    """Where the signatures begin after words that lead them, or None (see ``_signature_start``)."""
    found = [m.start() for m in [_SIGNATURE_START.search(text)] if m is not None]
    letter = letter_signature_start(text)
    start = min([*found, *([letter] if letter is not None else [])], default=None)
    # An acknowledgement or a short amendment signs under a close or an acceptance without
    # being a letter ("Agreed to and accepted by:").
    return start if start is not None else signature_lead_start(text)


def _signature_names(text: str) -> list[NameSpan]:
    """Company names heading a signature block: "ACME HOLDINGS, INC.\n\nBy: /s/ ... Name: ...".
    Only names with a legal suffix count; "By: Acme GP, L.P., its general partner" names a
    signatory for another party, not a party."""
    start = _signature_start(text)
    if start is None:
        return []
    names: list[NameSpan] = []
    for by in _SIGNED_BY.finditer(text, start):
        # "NORTHERN LIMITED\n|By:": a table's bar before the mark is layout, not a word.
        mark = by.start()
        while mark > start and text[mark - 1] in " \t|":
            mark -= 1
        # ("By /s/ Jane Roe": a "By" without its colon before the signature is the mark's too.)
        bare_by = _BARE_BY_BEFORE.search(text, max(start, mark - 8), mark)
        if bare_by is not None and text[by.start() : by.end()].strip() == "/s/":
            mark = bare_by.start()
            while mark > start and text[mark - 1] in " \t|":
                mark -= 1
        # "Acme Widgets, Inc. ("Acme")\nBy:": the head's defined terms close it, they name nobody.
        terms = _HEAD_TERMS.search(text, max(start, mark - _SIGNATURE_NAME_WINDOW), mark)
        if terms is not None:
            mark = terms.start()
        found = name_before(text, mark, _SIGNATURE_NAME_WINDOW)
        if found is None:
            continue
        # "NORTHERN TELECOM LIMITED          ENTRUST TECHNOLOGIES INC.\n By: ...  By: ...": blocks
        # side by side, three or more spaces apart; each column names its own party.
        # ("PUBLISHER:    ADVERTISER:\n\nBRIGHTPATH MEDIA, INC.     SUNFIELD WARRANTY COMPANY\nBy: ..."):
        # the reading before the mark holds the last column only; the line's columns start at
        # the line's first word.
        line_start = text.rfind("\n", 0, found.start) + 1
        if line_start >= start and _WIDE_GAP.search(text, line_start, found.start) and text[line_start : found.start].strip():
            wider = name_at(text, line_start + len(text[line_start : found.start]) - len(text[line_start : found.start].lstrip()), found.end)
            if wider is not None and wider.start < found.start:
                found = NameSpan(text[wider.start : found.end], wider.start, found.end)
        columns = [found]
        region = text[found.start : max(mark, found.end)].rstrip()
        if _WIDE_GAP.search(region) and "\n" not in region:
            columns = [
                name
                for m in re.finditer(r"\S+(?:[ \t]{1,2}\S+)*", region)
                if (name := name_at(text, found.start + m.start(), found.start + m.end())) is not None
            ]
        elif "\n" not in region:
            # "Vayyar Imaging Ltd. IndeLiving Holdings, Inc.\n\nBy: ... By: ...": two blocks' names on
            # one line, one space apart; each ends in a legal form, so the form ends the first.
            columns = [found, *_names_with_forms_after(text, found.end, found.start + len(region))]
        for column in columns:
            name = _signature_name(text, column)
            if name is not None:
                names.append(name)
    # Heads and signatures paired in order: a company head a "/s/" or a later "By:" signs for
    # (side-by-side columns flattened into rows, a role label's column between).
    # (A short paper only: see ``SHORT_PAPER_CHARS``.)
    if len(text) <= SHORT_PAPER_CHARS:
        known = {(n.start, n.end) for n in names}
        names.extend(n for n in signed_block(text, start).companies if (n.start, n.end) not in known)
    return names


_WIDE_GAP = re.compile(r"[ \t]{3,}")
_SIDE_BY_SIDE_LIMIT = 4


def _names_with_forms_after(text: str, position: int, end: int) -> list[NameSpan]:
    """The names that fill ``text[position:end]`` one after another, each ending in a legal form;
    none unless they fill it (at most ``_SIDE_BY_SIDE_LIMIT``)."""
    names: list[NameSpan] = []
    while len(names) < _SIDE_BY_SIDE_LIMIT:
        position += len(text[position:end]) - len(text[position:end].lstrip(" \t,"))
        if position >= end:
            return names
        name = name_at(text, position, end)
        if name is None or not ends_in_legal_suffix(name.text):
            return []
        names.append(name)
        position = name.end
    return []


def _shouted_name_word(word: str) -> bool:
    """A capitalised word that can carry a name: two letters or more, no roman numeral, no
    legal form ("I", "II", "L.P." carry none)."""
    letters = re.sub(r"[^A-Za-z]", "", word)
    return len(letters) >= 2 and re.fullmatch(r"[IVXL]+", letters) is None and not has_legal_suffix(word.rstrip(","))


def _signature_name(text: str, name: NameSpan) -> NameSpan | None:
    """The party's name in a name found before a "By:"/"/s/", or None when it is none."""
    # "Title: Authorized Signatory HPS MEZZANINE PARTNERS II, LLC": the shouted run is the name.
    words = list(re.finditer(r"\S+", name.text))
    first = 0
    if not name.text.isupper():
        for index in range(len(words) - 1, -1, -1):
            if not words[index].group().isupper() and any(c.isalpha() for c in words[index].group()):
                first = index + 1
                break
        if first == len(words) or (first and len(words) - first < 2):
            first = 0
        # "Greenfield Impact Fund I, L.P.": a roman numeral and the legal form are no shouted run.
        if first and not any(_shouted_name_word(w.group()) for w in words[first:]):
            first = 0
    while first < len(words) and not words[first].group()[:1].isalpha():
        first += 1
    if first >= len(words):
        return None
    begin = name.start + words[first].start()
    # "ACKNOWLEDGED AND AGREED TO: ACME LLC", "CEO ACME LLC"
    lead = _signature_lead().match(text, begin, name.end)
    if lead:
        begin = lead.end()
    candidate = NameSpan(text[begin : name.end], begin, name.end)
    before = text[max(0, begin - 40) : begin]
    # "By: Clarus IV GP, L.P., its general partner By: ...": a signatory, not a signer.
    # ", a Delaware corporation": a description; "(OFFSHORE) MASTER, L.P.": a broken name.
    # (A "Title:" or "Name:" after the "By:" ends that signatory's block.)
    if re.search(r"(?:By:(?:(?!Title:|Name:)[^\n])*|\b(?:an?|the|of|and)\s*|[)\-]\s*)$", before, re.I):
        return None
    # ("SUNFIELD HOME WARRANTY COMPANY\nBy: ...": an organisation's head noun heads a block as a
    # legal form does.)
    if not (ends_in_legal_suffix(candidate.text) or organisation_head(candidate.text)) or len(name_words(candidate.text)) < 2:
        return None
    return candidate


# "For and on behalf of      BC TEL": the party a signatory signs for, on the same line or the
# next non-empty one. Columns of blocks sit on one line, three or more spaces apart.
# A column whose phrase ends its line may carry the name below a signature rule ("For and on
# behalf of\n\n   ------\n\n   IXNET Limited"): blank lines and rule lines are skipped.
_ON_BEHALF = re.compile(
    r"(?i:(?:signed[ \t]+)?for[ \t]+and[ \t]+on[ \t]+behalf[ \t]+of)[ \t]*:?[ \t]*"
    r"(?:\n(?:[ \t]*(?:[-_=]{3,}[ \t]*)?\n)*[ \t]*)?"
)
_COLUMN_GAP = re.compile(r"[ \t]{3,}|\n")


def _behalf_names(text: str, defined_terms: frozenset[str]) -> list[NameSpan]:
    """Parties named after "For and on behalf of" in the signature section. The name must fill
    its line (or column) up to trailing punctuation or a parenthesis, and must not be a defined
    term ("For and on behalf of Licensee") or start with "the"."""
    start = _SIGNATURE_START.search(text)
    if start is None:
        return []
    names: list[NameSpan] = []
    for behalf in _ON_BEHALF.finditer(text, start.start()):
        gap = _COLUMN_GAP.search(text, behalf.end())
        limit = gap.start() if gap else len(text)
        name = name_at(text, behalf.end(), limit)
        if name is None or name.text[:4].casefold() == "the ":
            continue
        rest = text[name.end : limit].strip()
        if rest and not re.fullmatch(r"[.,;:]|\([^()]{1,20}\)", rest):
            continue
        if name.text.casefold() in defined_terms or not name_words(name.text):
            continue
        names.append(name)
    return names


# The English preamble: "ACME LIMITED (company no 1234567) whose registered office is at ...".
_REGISTERED_PARTY = re.compile(
    r"[ \t]*\((?:company|registered|registration)[ \t]+(?:no\.?|number)[^()\n]{0,40}\)[ \t]*,?[ \t]*"
    r"(?:whose|with[ \t]+its|having[ \t]+its)[ \t]+registered[ \t]+office",
    re.I,
)
_REGISTERED_SCAN_CHARS = 15_000


def _registered_office_names(text: str) -> list[NameSpan]:
    """Parties introduced by their company number and registered office, with a legal suffix."""
    names: list[NameSpan] = []
    for match in _REGISTERED_PARTY.finditer(text, 0, min(len(text), _REGISTERED_SCAN_CHARS)):
        name = name_before(text, match.start())
        if name is not None and ends_in_legal_suffix(name.text):
            names.append(without_enumerator(text, name))
    return names


# A civil-law opening names each party through the person who appears for it: "On the one hand,
# Mr. Jan Roe, ..., acting in the name and on behalf of Acme Co. Ltd. (hereinafter "Acme")". The
# company after the lead (``acting_for_leads`` in party_filters.json) is the party; the person is
# its representative. Read before the recitals only, and only a name with a legal form that its
# description or definition closes.
_ACTING_FOR_CLOSE = re.compile(r"[ \t\n]*[(,;]")
_ACTING_FOR_NAME_CHARS = 200


def _acting_for_names(text: str) -> list[NameSpan]:
    """The companies an opening's representatives act for ("acting in representation and on
    behalf of Acme Co. Ltd. (hereinafter Acme)"), before the recitals."""
    end = layout_end(text)
    names: list[NameSpan] = []
    for lead in acting_for_lead().finditer(text, 0, end):
        name = name_at(text, lead.end(), min(end, lead.end() + _ACTING_FOR_NAME_CHARS))
        if name is None or name.start != lead.end() or not ends_in_legal_suffix(name.text):
            continue
        if _ACTING_FOR_CLOSE.match(text, name.end) is None:
            continue
        names.append(name)
    return names


# A Spanish party clause names each side after its lead ("QUE CELEBRAN, POR UNA PARTE,
# LA UNIVERSIDAD NACIONAL ..., A QUIEN EN LO SUCESIVO SE LE DENOMINARÁ "LA UNAM", ..., Y POR LA
# OTRA PARTE EL (LA) UNIVERSIDAD AUTÓNOMA ..."): ``side_leads`` of party_filters.json, then a comma
# or a colon, an article (maybe with its other gender in brackets, "EL (LA)") and the name, which
# a comma, a bracket or a semicolon closes. Read in the opening only, and only when the opening
# holds a first side's lead and another side's: one "por una parte" alone is prose.
_SIDE_OPENING_CHARS = 4_000
_SIDE_ARTICLE = re.compile(
    r"[ \t\n]*[,:]?[ \t\n]*(?:(?:EL|LA|LOS|LAS|El|La|Los|Las|el|la|los|las)(?:[ \t]*\((?:EL|LA|el|la)\))?[ \t\n]+)?"
)
_SIDE_NAME_CLOSE = re.compile(r"[ \t\n]*[,(;]")
_SIDE_NAME_CHARS = 200


@dataclass(frozen=True, slots=True)
class _SideCues:
    lead: re.Pattern[str]
    first: re.Pattern[str]


@lru_cache(maxsize=1)
def _side_cues() -> _SideCues:
    data = load_json("party_filters.json")
    return _SideCues(
        lead=re.compile(r"(?<![\w])(?i:" + _phrases(data["side_leads"]) + r")(?![\w])"),
        first=re.compile(r"(?<![\w])(?i:" + _phrases(data["first_side_leads"]) + r")(?![\w])"),
    )


def _side_names(text: str) -> list[NameSpan]:
    """The parties a Spanish clause names after each side's lead, in the opening."""
    end = min(len(text), _SIDE_OPENING_CHARS)
    cues = _side_cues()
    leads = list(cues.lead.finditer(text, 0, end))
    if len(leads) < 2 or not any(cues.first.fullmatch(lead.group()) for lead in leads):
        return []
    names: list[NameSpan] = []
    for lead in leads:
        article = _SIDE_ARTICLE.match(text, lead.end(), end)
        start = article.end() if article else lead.end()
        name = name_at(text, start, min(end, start + _SIDE_NAME_CHARS))
        if name is None or name.start != start or len(name.text.split()) < 2:
            continue
        if _SIDE_NAME_CLOSE.match(text, name.end) is None:
            continue
        names.append(name)
    return names


@dataclass(frozen=True, slots=True)
class _FrenchListCues:
    opener: re.Pattern[str]
    joiner_line: re.Pattern[str]
    joiner_closing: re.Pattern[str]


@lru_cache(maxsize=1)
def _french_list_cues() -> _FrenchListCues:
    data = load_json("party_filters.json")
    opener = _phrases(data["french_list_openers"])
    joiner = _phrases(data["french_list_joiners"])
    # ("Entre d'une part,", "et d'autre part,": the side the entry stands on.)
    side = r"(?:[ \t]+(?i:" + _phrases(data["french_list_sides"]) + r"))?"
    return _FrenchListCues(
        opener=re.compile(r"(?m)^[ \t]*(?i:" + opener + r")" + side + r"[ \t]*[,:]?[ \t]*\n"),
        joiner_line=re.compile(r"(?m)^[ \t]*(?i:" + joiner + r")" + side + r"[ \t]*[,:]?[ \t]*\n"),
        joiner_closing=re.compile(r"(?m),[ \t]*(?i:" + joiner + r")[ \t]*\n"),
    )


# An entry's article ("Le", "La", "Les", "L’") and its name up to a comma, a bracket or the line's end.
# (Blank lines, some holding a no-break space, may stand between the cue and the entry.)
_FRENCH_ENTRY = re.compile(
    r"\s*(?:(?:LE|LA|LES|Le|La|Les|le|la|les)[ \t]+|(?:L|l)['’][ \t]*)?(?P<name>[A-ZÀ-Ý][^,;:()\n]{2,120}?)[ \t]*(?=[,;(]|\n)"
)
_FRENCH_ENTRY_MOST_WORDS = 12
_FRENCH_ENTRIES_LIMIT = 6


def _french_list_names(text: str) -> list[NameSpan]:
    """The parties a French party list names ("ENTRE :\nLE DEPARTEMENT DE LA GIRONDE\n...,
    Et\nL’UNIVERSITE BORDEAUX MONTAIGNE\n..."): the name opening the line after the list's
    opener and after each joiner, when the opening holds the opener and at least one joiner."""
    end = min(len(text), _SIDE_OPENING_CHARS)
    cues = _french_list_cues()
    opener = cues.opener.search(text, 0, end)
    if opener is None:
        return []
    starts = [opener.end()]
    for joiner in sorted([*cues.joiner_line.finditer(text, opener.end(), end), *cues.joiner_closing.finditer(text, opener.end(), end)], key=lambda m: m.start()):
        starts.append(joiner.end())
        if len(starts) >= _FRENCH_ENTRIES_LIMIT:
            break
    if len(starts) < 2:
        return []
    names: list[NameSpan] = []
    for start in starts:
        entry = _FRENCH_ENTRY.match(text, start, end)
        if entry is None:
            continue
        name = entry.group("name").rstrip(" \t.")
        if len(name.split()) > _FRENCH_ENTRY_MOST_WORDS:
            continue
        names.append(NameSpan(name, entry.start("name"), entry.start("name") + len(name)))
    return names


# A note's maker and payee: "FOR VALUE RECEIVED, Acme Ltd., a Nevada corporation (the "Maker"),
# promises to pay to the order of Beta LLC (the "Holder")". The promise is the party clause of
# an instrument that names no "between". Its words are data (``promise_qualifiers``: "jointly and
# severally promises to pay"; ``maker_leads``, what opens the maker's clause before its name:
# "FOR VALUE RECEIVED, the undersigned, "; both in party_filters.json); the grammar is here.
@dataclass(frozen=True, slots=True)
class NoteCues:
    promise: re.Pattern[str]
    maker_lead: re.Pattern[str]


def _phrases(words: Iterable[str]) -> str:
    """An alternation of ``words``, longest first, a space matching any run of blanks."""
    return phrase_alternation(words, r"[ \t\n]+")


def note_cues(data: Mapping[str, Any]) -> NoteCues:
    """The note reader's patterns built from party_filters.json's ``data``."""
    return NoteCues(
        promise=re.compile(
            r"\b(?:hereby[ \t\n]+)?(?:(?:" + _phrases(data["promise_qualifiers"]) + r")[ \t\n,]+)*"
            r"promises?[ \t\n]+to[ \t\n]+pay[ \t\n]+(?:to[ \t\n]+)?(?:the[ \t\n]+order[ \t\n]+of[ \t\n]+)?(?:the[ \t\n]+(?=[A-Z]))?",
            re.I,
        ),
        maker_lead=re.compile(r"(?i:" + _phrases(data["maker_leads"]) + r")[ \t\n]*,?[ \t\n]*"),
    )


@lru_cache(maxsize=1)
def _note_cues() -> NoteCues:
    return note_cues(load_json("party_filters.json"))


# Bounds: where promises are looked for, how far before one its maker may start and after it
# its payee's name may run.
_PROMISE_SCAN_CHARS = 6_000
_MAKER_LOOKBACK = 600
_PAYEE_CHARS = 300


def _promise_names(text: str) -> list[NameSpan]:
    """The maker and the payee of a promise to pay in the opening (a note): the name after "to
    (the order of)" and the name opening the promise's sentence (after "FOR VALUE RECEIVED",
    "the undersigned"), each a name with a legal form or a person's name."""
    names: list[NameSpan] = []
    cues = _note_cues()
    for promise in cues.promise.finditer(text, 0, min(len(text), _PROMISE_SCAN_CHARS)):
        limit = min(len(text), promise.end() + _PAYEE_CHARS)
        paragraph_end = text.find("\n\n", promise.end(), limit)
        payee = name_at(text, promise.end(), paragraph_end if paragraph_end != -1 else limit)
        # The maker's clause opens after the last lead before the promise ("FOR VALUE RECEIVED,
        # the undersigned"), or where its sentence starts ("Acme Inc. (the "Borrower"), for
        # value received, hereby promises").
        floor = max(0, promise.start() - _MAKER_LOOKBACK)
        leads = list(cues.maker_lead.finditer(text, floor, promise.start()))
        makers: list[NameSpan | None] = []
        # A sentence that starts no later than the look-back's floor was cut there: its start is
        # unseen, and reading from the floor would take part of a word as a name ("OR VALUE
        # RECEIVED, Acme Inc.").
        sentence = clause_start(text, promise.start(), floor)
        for position in [*([leads[-1].end()] if leads else []), *([sentence] if sentence > floor or floor == 0 else [])]:
            position += len(text[position : promise.start()]) - len(text[position : promise.start()].lstrip(" \t\n,"))
            makers.append(name_at(text, position, promise.start()))
        maker = next((m for m in makers if m is not None and _promise_party(m, text)), None)
        names.extend(name for name in (maker, payee) if name is not None and _promise_party(name, text))
    return names


def _promise_party(name: NameSpan, text: str) -> bool:
    """A name a promise may bind: one with a legal form or a person's, or one the text describes
    as an entity ("Redwood Mortgage Investors VIII, a California limited partnership (\u201cMaker\u201d)");
    a bare role is none."""
    return (
        ends_in_legal_suffix(name.text)
        or _personal_name(name.text)
        or _DESCRIBED_AS_COMPANY.match(text, name.end) is not None
    )


_SELF_SIGNED = re.compile(r"(?m)^[ \t|│]*/s/[ \t]*")
# "Ricky C. Sandler, individually, and as Chief Executive Officer of Eminence Capital, LLC, and as
# Managing Member of Eminence GP, LLC": a signer who signs for himself and, in named offices, for
# companies; each company so named signs too (a joint filing's reporting persons).
_INDIVIDUALLY_AND_AS = re.compile(r",?[ \t\n]+individually,?[ \t\n]+and[ \t\n]+as[ \t\n]+")
# An office and "of" before the company: "Chief Executive Officer of", "the Managing Member of".
_OFFICE_OF = re.compile(r"(?:(?:the|an?)[ \t\n]+)?(?:[A-Z][\w\-]*[ \t\n]+){1,5}of[ \t\n]+(?:the[ \t\n]+)?")
_AND_AS = re.compile(r",?[ \t\n]+and[ \t\n]+as[ \t\n]+")
_CAPACITIES_LIMIT = 6


# "ABC News/Starwave Partners (which operates ...) and ESPN/Starwave Partners (also referred to
# as "EIV") ... are parties to this Agreement only with respect to ...": names the contract itself
# says are its parties.
_PARTIES_TO_THIS = re.compile(
    r"[ \t\n]+(?:is|are)[ \t\n]+(?:also[ \t\n]+)?(?:a[ \t\n]+)?part(?:y|ies)[ \t\n]+to[ \t\n]+this[ \t\n]+(?i:agreement)\b"
)
_STATED_SENTENCE_START = re.compile(r"(?:[.;:][ \t\n]+|\n[ \t]*\n)(?=[A-Z(])")
_STATED_SEPARATOR = re.compile(r"[ \t\n]*(?:,[ \t\n]*)*(?:(?:and|AND)[ \t\n]+)?")
_STATED_NAMES_LIMIT = 6
_STATED_WINDOW_CHARS = 600


def _stated_party_names(text: str) -> list[NameSpan]:
    """The names a sentence of the opening says are parties to this agreement, when the
    sentence's subject is nothing but those names (each maybe with a parenthesised remark)."""
    found: list[NameSpan] = []
    for stated in _PARTIES_TO_THIS.finditer(text, 0, min(len(text), OPENING_CHARS)):
        # Remarks in parentheses are blanked to a comma (same length, so offsets hold): a period
        # inside one ends no sentence, and a name ends before one.
        window_start = max(0, stated.start() - _STATED_WINDOW_CHARS)
        window = re.sub(r"\([^()]*\)", lambda m: "," + " " * (len(m.group()) - 1), text[window_start : stated.start()])
        starts = [m.end() for m in _STATED_SENTENCE_START.finditer(window)]
        if not starts:
            continue
        subject_start = window_start + starts[-1]
        subject = window[starts[-1] :]
        names: list[NameSpan] = []
        position = 0
        while position < len(subject) and len(names) < _STATED_NAMES_LIMIT:
            name = name_at(subject, position, len(subject))
            if name is None:
                break
            names.append(NameSpan(text[subject_start + name.start : subject_start + name.end], subject_start + name.start, subject_start + name.end))
            position = _STATED_SEPARATOR.match(subject, name.end).end()
        if names and not subject[position:].strip():
            found.extend(names)
    return found


def _capacity_companies(text: str) -> list[NameSpan]:
    """Companies a signer signs for after "individually, and as <office> of" in the signature
    section (and after each further ", and as <office> of"), each ending in a legal form."""
    start = _signature_start(text)
    if start is None:
        return []
    companies: list[NameSpan] = []
    for lead in _INDIVIDUALLY_AND_AS.finditer(text, start):
        position = lead.end()
        for index in range(_CAPACITIES_LIMIT):
            if index > 0:
                joined = _AND_AS.match(text, position)
                if joined is None:
                    break
                position = joined.end()
            office = _OFFICE_OF.match(text, position)
            company = name_at(text, office.end(), min(len(text), office.end() + 120)) if office else None
            if company is None or not ends_in_legal_suffix(company.text):
                break
            companies.append(company)
            position = company.end
    return companies


def _individual_signers(text: str) -> list[NameSpan]:
    """People who sign for themselves: a "/s/ Jane Q. Doe" line with no "By:" before it (an
    officer signing for a company writes "By: /s/ ..."). Only after the signature section
    starts, and only a plain personal name (two to four capitalised words, no legal form)."""
    start = _signature_start(text)
    if start is None:
        return []
    names: list[NameSpan] = []
    # A "/s/" under a "By:" or paired with a company's head signs for that company; so does a
    # signer who states an office under the signature ("Senior Vice President"). A block no
    # words lead (no "IN WITNESS WHEREOF", no acceptance) may be any signed paper: there only a
    # signer under a party's role label ("EMPLOYEE:") signs as a party.
    block = signed_block(text, start)
    led = _led_signature_start(text) is not None
    for signed in _SELF_SIGNED.finditer(text, start):
        line_end = text.find("\n", signed.end())
        name = name_at(text, signed.end(), line_end if line_end != -1 else len(text))
        if name is None or has_legal_suffix(name.text):
            continue
        mark = text.find("/s/", signed.start())
        if mark in block.agent_marks or (not led and mark not in block.role_marks) or signs_in_office(text, name):
            continue
        words = name.text.split()
        if 2 <= len(words) <= 4 and all(w[:1].isupper() for w in words):
            # "/s/ Shelby J. Butterfield Shelby J. Butterfield": the typed name repeats the signature.
            half = len(words) // 2
            if len(words) % 2 == 0 and words[:half] == words[half:]:
                continue
            names.append(name)
        elif len(words) % 2 == 0 and 4 <= len(words) <= 8 and words[: len(words) // 2] == words[len(words) // 2 :]:
            half = " ".join(words[: len(words) // 2])
            names.append(NameSpan(half, name.start, name.start + len(half)))
    # "DANIEL KŘETÍNSKÝ /s/ Daniel Kretinsky": a typed name heading the block, signed by the same
    # person (case and accents aside).
    for signed in _INLINE_SIGNED.finditer(text, start):
        heading = name_before(text, signed.start(), 60)
        line_end = text.find("\n", signed.end())
        signer = name_at(text, signed.end(), line_end if line_end != -1 else len(text))
        if heading is None or signer is None or has_legal_suffix(heading.text):
            continue
        signer_words = re.sub(r"\s+By$", "", signer.text).split()
        heading_words = list(re.finditer(r"\S+", heading.text))[-len(signer_words) :]
        if not 2 <= len(signer_words) <= 4 or len(heading_words) < len(signer_words):
            continue
        typed = heading.text[heading_words[0].start() :]
        if _folded(typed) == _folded(" ".join(signer_words)):
            begin = heading.start + heading_words[0].start()
            names.append(NameSpan(typed, begin, heading.end))
    return names


_INLINE_SIGNED = re.compile(r"(?<=[^\s/])[ \t]+/s/[ \t]*")


def _folded(name: str) -> str:
    """Casefolded, accents dropped: how a typed name and its signature are compared."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def _listed_again(text: str, definition: Definition) -> bool:
    """Whether the party list names the defined one again right after its definition, as a
    member of its own: "..., a subsidiary of Pelham Crossing Energy Corp., a Delaware corporation
    (the "Issuer"), the Issuer, and Wexmoor Trust Company, N.A." (a supplemental indenture's
    parent is a party)."""
    again = re.compile(rf"[ \t\n]*,[ \t\n]*(?:and[ \t\n]+)?the[ \t\n]+{re.escape(definition.term)}[ \t\n]*(?:,|and\b)")
    return again.match(text, definition.paren_end) is not None


# A list item's letter or number and "the" before a term ("B. The Loan", "2. the Premises").
_LETTERED_THE = re.compile(r"^(?:\(?[A-Za-z0-9]{1,3}[.)][ \t]*)?(?:the[ \t]+)?", re.IGNORECASE)


def _parties(
    text: str,
    definitions: Sequence[Definition],
    person_spans: Sequence[tuple[int, int]],
    model_spans: Sequence[tuple[int, int, str]] = (),
) -> list[Party]:
    parties: dict[str, Party] = {}
    common_words = lowercase_words(text)
    party_terms: set[str] = set()
    # Terms the document defines for things, not parties ("This Master Services Agreement ("MSA")").
    thing_terms = {d.term.casefold() for d in definitions if not d.is_party_alias}
    alias_terms = {d.term.casefold() for d in definitions if d.in_preamble and d.is_party_alias}
    # ('"Employee" means Jane Roe' names a party by term too: its possessive is no name either.)
    term_slots = term_slot_names(text)
    # ("between the Company and the Consultant identified in Section 12" with "If to the
    # Consultant:\nHarold T. Beaumont, Jr." among the notices: only a term nothing else binds.)
    named_terms = {d.term.casefold() for d in definitions if d.in_preamble and d.is_party_alias and d.name}
    named_terms |= {term.casefold() for term, _ in term_slots}
    term_slots += [(term, name) for term, name in notice_slot_names(text) if term.casefold() not in named_terms]
    all_terms = {d.term.casefold() for d in definitions} | {term.casefold() for term, _ in term_slots}
    # Parties laid out rather than written in prose: list items, label rows, stacked covers.
    laid_out = layout_names(text, common_words)
    for definition in definitions:
        if not (definition.in_preamble and definition.is_party_alias and definition.name):
            continue
        # A definition inside a laid-out slot defines the slot's name: "(2) Jane Roe, holder of
        # Passport No. K1 (the "Executive")" defines Jane Roe, not the number by the parenthesis.
        definition = replace(definition, name=slot_name_for(laid_out, definition.term_start) or definition.name)
        # "Target Company: Qinghe Data Co., Ltd. (hereinafter "Target Company")": a role label
        # whose own term the parenthesis repeats; the party is the label's value. ("Qinghe
        # ("Qinghe")", a short name defined as itself, has no colon after it.)
        if " ".join(definition.name.text.split()).casefold() == definition.term.casefold() and LABEL_COLON.match(
            text, definition.name.end, definition.term_start
        ):
            value = _label_value(text, definition)
            if value is None:
                continue
            definition = replace(definition, name=value)
        # "Jane Roe\nc/o Adv. John Doe\n(the "Seller")": the name nearest the definition is
        # the party's addressee or agent, not the party.
        if after_non_party_lead(text, definition.name.start) and not _listed_again(text, definition):
            continue
        # "... AN ORDER FROM THE SECURITIES AND EXCHANGE COMMISSION (THE "COMMISSION") ... THE
        # CONFIDENTIAL PORTIONS HAVE BEEN OMITTED": a confidential-treatment legend names the
        # regulator, never a party.
        if _in_legend(text, definition.name.start):
            continue
        # "by and between ACME DESIGN GROUP and BETA WORKS, INC. ("Beta")": the term defines the
        # name after the lower-case joint; the one before it is read from the clause's slot.
        definition = replace(definition, name=shouted_joint(definition.name) or definition.name)
        definition = replace(definition, name=_without_role_word(definition.name))
        definition = replace(definition, name=_office_holders_body(text, definition) or definition.name)
        # ("THE CITY OF FORT COLLINS, COLORADO, a Municipal Corporation, hereinafter referred to as
        # the "City"": a local government's state is part of its name, however the term is defined.)
        definition = replace(definition, name=with_local_seat(text, definition.name, definition.term_start))
        definition = replace(definition, name=without_identity_line(without_registration(definition.name)))
        # "... under this MSA (each, a "SOW")": the antecedent is the document's own defined term.
        # ("B.  The Loan will be guaranteed by ... (collectively, "Guarantor")": a recital's item
        # letter and "The" before a thing's term make no name either.)
        if _LETTERED_THE.sub("", " ".join(definition.name.text.split())).casefold() in thing_terms:
            continue
        if party_name_problem(definition.name.text, common_words) or (
            _names_known_party(definition.name.text, parties.values(), party_terms)
            and not _defined_apart(definition, parties.values())
        ):
            continue
        # ("(4) THE FINANCIAL INSTITUTIONS listed in Part II of Schedule 1 ... (the "Original
        # Lenders")": a class whose members a schedule lists defines no party of its own.)
        if names_a_class(text, definition.name):
            continue
        # ("HEALTH, SAFETY, SECURITY AND ENVIRONMENT ("HSSE")": an acronym spelled by the words of a
        # longer phrase ending in the name defines that phrase, no party named by its last word.)
        if _acronym_of_longer_phrase(text, definition.name, definition.term):
            continue
        # ("Employee, for Employee and Employee's heirs and assigns, releases ... (the "Released
        # Parties")": a defined term's possessive is no name.)
        possessive = _TERM_POSSESSIVE.fullmatch(definition.name.text.strip())
        if possessive is not None and possessive.group(1).casefold() in all_terms:
            continue
        # "between the Secured Party and Quill Credit, Inc. ("QC")" in a recital: a party's term
        # joined to a name is prose about another agreement's parties, not one name.
        # ("between Customer and CyrusOne LLC ("CyrusOne")": a term another definition made, even
        # one whose own name was no party, "Customer Name (herein "Customer")".)
        joined = re.match(r"(?:the\s+)?(.+?)\s+(?:and|AND|&)\s", definition.name.text)
        if joined and joined.group(1).casefold() in party_terms | alias_terms:
            continue
        party_terms.add(definition.term.casefold())
        label = _label_for(definition.name, person_spans)
        entity_id = entity_id_for(label, party_name_forms(definition.name.text)[-1])
        if entity_id not in parties:
            parties[entity_id] = Party(
                entity_id, label, definition.name, definition.term,
                definition.name.start, definition.paren_end,
            )
        # "Charles Webb & Company, a Division of Keefe, Bruyette & Woods, Inc. (the "Agent")": the
        # division the contract names is a party, next to the company it belongs to.
        division = _division_before(text, definition.name)
        if division is not None and not party_name_problem(division.text, common_words):
            division_id = entity_id_for("ORG", party_name_forms(division.text)[-1])
            parties.setdefault(
                division_id,
                Party(division_id, "ORG", division, None, division.start, definition.paren_end),
            )
        # "Teikoku Seiyaku Co., Ltd./Teikoku Pharma USA, Inc. (collectively, "TEIKOKU")": two
        # companies written as one party, each with its legal form, are both parties.
        partner = _slash_partner(text, definition.name)
        if partner is not None and not party_name_problem(partner.text, common_words):
            partner_id = entity_id_for("ORG", party_name_forms(partner.text)[-1])
            parties.setdefault(partner_id, Party(partner_id, "ORG", partner, None, partner.start, definition.paren_end))
    # "BETWEEN: (1) the Company; and (2) the Executive, each as defined in clause 1.1." over
    # '"Company" means Thornbury Estates Limited ...': the definitions section names the parties
    # the clause names by term.
    for term, name in term_slots:
        if party_name_problem(name.text, common_words):
            continue
        if _names_known_party(name.text, parties.values(), party_terms):
            continue
        party_terms.add(term.casefold())
        label = _label_for(name, person_spans)
        entity_id = entity_id_for(label, party_name_forms(name.text)[-1])
        parties.setdefault(entity_id, Party(entity_id, label, name, term, name.start, name.end))
    # Names right after "between"/"among" (and the one after its "and") are parties even when
    # their defined terms were missed; with two defined parties already, only names with a legal
    # suffix ("Beijing CC-Pharming Ltd.") are trusted.
    few = len(parties) < 2
    windows = preamble_windows(text)
    names = _between_names(text, windows) if few else _between_names(text, windows[:1])
    # "This Guaranty is made by Harbor Holdings, Inc. for the benefit of ...": an instrument's
    # makers, named after "made by" without "between", are its parties too (read like the names
    # after "between", under the same checks below).
    names.extend(n for n in _between_names(text, made_by_windows(text)) if n not in names)
    # "by and among ALBANY MEDICAL COLLEGE, having its principal place of business at ... and the
    # UNIVERSITY OF ... ("UMDNJ") and BIODELIVERY SCIENCES, INC. (hereinafter "BDS")": the name
    # right after the preamble's own "between"/"among" is a party without a legal form too.
    # (A name read over a line break is a cover's list of lines, not one slot.)
    first_slots = [] if few else _first_slots(text, windows)
    names.extend(n for n in first_slots if n not in names)
    collective = [
        *_collective_names(text, [*windows[:1], *_undersigned_windows(text)]),
        *_named_group_names(text, windows),
        *_unit_list_names(text, [*windows[:1], *made_by_windows(text)]),
    ]
    # "between CEO of Kestrel Biotech Inc. and ...": the office holder stands for the organisation.
    names = [office_holders_organisation(text, name) for name in [*names, *collective]]
    defined = frozenset(d.term.casefold() for d in definitions)
    for name in names:
        # ("synergies between Group's business and Company's business": a defined term's
        # possessive names the party's thing, never another party.)
        possessive = _TERM_POSSESSIVE.fullmatch(name.text.strip())
        if possessive is not None and possessive.group(1).casefold() in defined:
            continue
        # ("between Airbus S.A.S., Seller and AYR FREIGHTER LLC Buyer": a cover's role word after
        # the first party's name is no word of the next one's.)
        role_and = _ROLE_THEN_AND.match(name.text)
        if role_and is not None and role_and.group(1) in lexicons().party_roles:
            name = NameSpan(name.text[role_and.end() :], name.start + role_and.end(), name.end)
        name = _without_role_word(name)
        # (A chain read on past a cover into its contents page: "4 PURPOSE, SCOPE AND SCALE OF
        # PRODUCTION OF THE JV CO.......3" is an entry, no party: its dot leader follows it.)
        if _DOT_LEADER.match(text, name.end):
            continue
        # ("LEDGER SERVICES, INC. D/B/A QUILL FUND SERVICES": the legal name before a trade name
        # has the form.)
        if not (
            few
            or name in collective
            or ((name in first_slots or ends_in_legal_suffix(legal_name(name.text))) and name.start < OPENING_CHARS)
            # ("..., and TSMC North America, a California corporation": described as a company,
            # opening a list's slot; "Span Company" of "The Spic and Span Company" opens none.)
            or (
                _DESCRIBED_AS_COMPANY.match(text, name.end) is not None and name.start < OPENING_CHARS
                and _LIST_SLOT_BEFORE.search(text, max(0, name.start - 24), name.start) is not None
                # (A name holding "and" may be two: no description decides that.)
                and re.search(r"\s(?:and|AND)\s", name.text) is None
            )
            # ("... CA 91101 and STICHTING HET NEDERLANDS KANKER INSTITUUT – ANTONI VAN LEEUWENHOEK
            # ZIEKENHUIS, a foundation incorporated under the laws of The Netherlands": a slot
            # after the list's "and" described as a body formed under a law is a party.)
            or (
                _DESCRIBED_AS_FORMED.match(text, name.end) is not None and name.start < OPENING_CHARS
                and _SLOT_AFTER_AND.search(text, max(0, name.start - 24), name.start) is not None
                and re.search(r"\s(?:and|AND)\s", name.text) is None
            )
            # ("..., the Town of Perry, and the Town of York": a local government in a list's slot
            # is a party like a company with its legal form.)
            or (
                local_government(re.sub(r"^(?:the|The|THE)[ \t\n]+", "", name.text)) and name.start < OPENING_CHARS
                and _GOVERNMENT_SLOT_BEFORE.search(text, max(0, name.start - 24), name.start) is not None
                and re.search(r"\s(?:and|AND)\s", name.text) is None
            )
            # "BETWEEN (1) MR. RAVI MEHRA ... (2) MR. SUNIL MEHRA ... (hereinafter collectively ...
            # the 'Lessor')": a numbered item of the clause is a party, whatever the definitions.
            or (_NUMBERED_BEFORE.search(text, max(0, name.start - 8), name.start) is not None and name.start < OPENING_CHARS)
        ):
            continue
        # "Between THE UNIVERSITY OF WESTLAND And QUILL MANAGEMENT, LP" on a cover: the reading ran
        # over the joint into a known party's name; the name before the joint is the other party.
        joint = re.search(r"\s+(?:and|AND|And)\s+", name.text)
        if joint is not None and any(
            name_words(name.text[joint.end() :]) == name_words(p.name.text) for p in parties.values()
        ):
            name = NameSpan(name.text[: joint.start()], name.start, name.start + joint.start())
        # "Hadasit Medical Research Services and Development Ltd.": the part after an inner "and"
        # is a piece of a party's name already read at that place, not one more party.
        if _inside_party(name, parties.values()):
            continue
        # ("..., as Administrative Agent, Swing Line Lender and L/C Issuer": the "and" joins roles.)
        if continues_role_list(text, name):
            continue
        if party_name_problem(name.text, common_words) or _names_known_party(name.text, parties.values(), party_terms):
            continue
        if names_a_class(text, name):
            continue
        # "between Vendor and AT&T Corp.", "between NTL and Entrust Technologies Limited": a defined
        # term joined to a name is prose about two parties, not one name.
        # ("between Northern Telecom Inc. and ETI": a defined term alone is no new party either.)
        joined = re.match(r"(.+?)\s+(?:and|AND|&)\s", name.text)
        if name.text.casefold() in defined or (joined and joined.group(1).casefold() in defined):
            continue
        # "Orrin, Pell 21, LLC and Pell 21, Inc. are referred to ... collectively": a party's
        # defined term opens a list; the comma reading joined it to the next name.
        head = name.text.split(",", 1)[0].strip()
        if "," in name.text and head.casefold() in defined and head != name.text:
            continue
        label = _label_for(name, person_spans)
        entity_id = entity_id_for(label, party_name_forms(name.text)[-1])
        words = set(name_words(name.text))
        # "THE JOHNS HOPKINS UNIVERSITY & VIRTUOSO SURGICAL, INC." joins two known parties.
        if not few and re.search(r"\s(?:and|AND|&)\s", name.text) and any(
            set(name_words(p.name.text)) < words for p in parties.values()
        ):
            continue
        if entity_id not in parties and words:
            parties[entity_id] = Party(entity_id, label, name, None, name.start, name.end)
    # (A reading across a line that holds only "and" is dropped below: it hides no other name.)
    known = [
        set(name_words(p.name.text)) for p in parties.values() if _AND_LINE.search(text, p.name.start, p.name.end) is None
    ]
    # A person's "/s/" line alone does not make a party: officers sign for companies without a
    # "By:" too. When the party clause names parties, it must name the person as well (the second
    # source agrees); "The undersigned agree ..." names none, and the signatures are the parties.
    signature = _signature_start(text)
    opening = _folded(text[: min(max(OPENING_CHARS, windows[0][1]), signature if signature is not None else len(text))])
    individuals = [
        name for name in _individual_signers(text) if not parties or _folded(name.text) in opening
    ]
    defined_terms = frozenset(d.term.casefold() for d in definitions)
    # Names the party grammar states outright (a registered office, "For and on behalf of"): a
    # longer name than a known party's is another party ("Swisscom North America Inc." after
    # "Swisscom Ltd"), only a shorter form is the same one.
    explicit = [
        *_registered_office_names(text), *letter_names(text), *_behalf_names(text, defined_terms), *_promise_names(text), *_side_names(text), *_french_list_names(text),
        *_acting_for_names(text), *_capacity_companies(text), *_stated_party_names(text),
    ]
    # An item's names run on one after another, each closed by its legal form ("(4) ACME LIMITED
    # ACME TRADING LIMITED and ..."), are distinct parties, a longer one too.
    # A cover's stack of names one per line is read the same way ("Acme Limited" under "Acme
    # Australia Limited" is its parent, another party).
    run_on = [found.name for found in laid_out if found.shape in ("run", "stack")]
    # A caption line above the cover ("Employment Agreement - Acme Corp. and Jane Roe") is a
    # filer's summary, not the contract's own words: it only completes a document whose other
    # readers found fewer than two parties (it may name a party by a trade name or a parent).
    caption = [found.name for found in laid_out if found.shape == "caption"]
    stated = [found.name for found in laid_out if found.shape != "caption"]
    completing: bool | None = None
    for name in [*explicit, *stated, *_signature_names(text), *individuals, *caption]:
        if name in caption:
            # Decided once, before the caption's first name joins.
            completing = len(parties) < 2 if completing is None else completing
            if not completing:
                break
        if party_name_problem(name.text, common_words) or name.text.casefold() in party_terms:
            continue
        if contents_entry(text, name):
            continue
        # A reading across a line that holds only "and" runs a cover's two names together and is
        # dropped below; it never hides a name it holds ("VISITORS AUTHORITY\nAND\nCLARK COUNTY
        # LAS VEGAS STADIUM LLC" would hide the cover's second name).
        if _AND_LINE.search(text, name.start, name.end) is not None:
            continue
        words = set(name_words(name.text))
        # ("CAPITAL ALERT\nINVESTMENT LTD" on the cover of "CAPITAL ALERT INVESTMENTS LTD ("PARTY
        # B")": a word's plural is the same word.)
        singular, known_singular = _singular(words), [_singular(k) for k in known]
        if name in run_on:
            if any(singular == k for k in known_singular):
                continue
        elif (
            any(singular <= k or (k <= singular and name not in explicit) for k in known_singular)
            and not _unqualified_twin(name.text, parties.values())
            # ("LAS VEGAS CONVENTION AND VISITORS AUTHORITY" stacked on a cover, where the prose
            # reader stopped at its "AND": the whole stands, and the half is dropped below.)
            and not (name in stated and any(_half_over_and(p.name.text, name.text) for p in parties.values()))
        ):
            continue
        label = "PERSON" if name in individuals else _label_for(name, person_spans)
        entity_id = entity_id_for(label, name.text)
        if entity_id not in parties:
            parties[entity_id] = Party(entity_id, label, name, None, name.start, name.end)
            known.append(words)
    # "HARBOR NATIONAL BANK,\nas Administrative Agent": a name stated with its capacity in a party
    # list is a party; it replaces a shorter reading inside it ("KESSEL AG" of "KESSEL AG, STAMFORD BRANCH")
    # and a reading of the role phrase itself ("Collateral Agent" of "as Agent and Collateral Agent").
    capacities = read_capacities(text, windows, common_words)
    for key in [key for key, p in parties.items() if capacities.in_role(p.name)]:
        del parties[key]
    for name in capacities.names:
        if name.text.casefold() in party_terms:
            continue
        inside = [
            key for key, p in parties.items()
            if _inside_span(p.name, name) or (_inside_span(name, p.name) and overread(p.name.text))
        ]
        for key in inside:
            del parties[key]
        words = set(name_words(name.text))
        if any(words <= set(name_words(p.name.text)) for p in parties.values()):
            continue
        entity_id = entity_id_for("ORG", party_name_forms(name.text)[-1])
        parties.setdefault(entity_id, Party(entity_id, "ORG", name, None, name.start, name.end))
    known = [set(name_words(p.name.text)) for p in parties.values()]
    # The grammar read fewer than two parties from a text with a party clause: the model's
    # ORG/PERSON entities inside that clause are the candidates, under the same filters.
    if len(parties) < 2 and model_spans:
        for name, label in _model_clause_names(text, model_spans, defined_terms):
            if party_name_problem(name.text, common_words) or name.text.casefold() in party_terms:
                continue
            if contents_entry(text, name):
                continue
            # The model also tags capitalised prose ("Support Services", "unfair competition"): a
            # name holds a capitalised word the document never writes in lower case.
            raw_words = [w for w in re.findall(r"[\w'’]+", name.text) if w.casefold() not in _MODEL_JOINERS]
            if not any(w[:1].isupper() and w.casefold() not in common_words for w in raw_words):
                continue
            words = set(name_words(name.text))
            if any(words <= k or k <= words for k in known):
                continue
            entity_id = entity_id_for(label, party_name_forms(name.text)[-1])
            if entity_id not in parties:
                parties[entity_id] = Party(entity_id, label, name, None, name.start, name.end)
                known.append(words)
    # "Jane Roe and John Doe in their capacity as joint administrators": two persons one reader
    # took as one name.
    # "Martin Roe and Harbour Resolutions Group LLC": a person and a company so read.
    org_spans = [(start, end) for start, end, label in model_spans if label == "ORG"]
    for key, party in sorted(parties.items()):
        # ("Beralt Tin and Wolfram (Portugal) S.A.\nBarroca Grande ...\n("Seller")": a name alone
        # on its line that one singular term defines is one party's.)
        if _one_defined_line(text, party) or _one_cover_entry_line(text, party):
            continue
        pair = _person_pair(party.name, person_spans)
        labels = ("PERSON", "PERSON")
        if pair is None:
            pair, labels = _person_and_company(text, party.name, person_spans, common_words, org_spans), ("PERSON", "ORG")
        if pair is None:
            continue
        del parties[key]
        for person, label in zip(pair, labels):
            entity_id = entity_id_for(label, party_name_forms(person.text)[-1])
            parties.setdefault(entity_id, Party(entity_id, label, person, None, person.start, person.end))
    found = _reviewed(text, list(parties.values()), model_spans, common_words, defined_terms | party_terms, known)
    # "Acme S.A., represented by its CEO Jane Roe and John Doe, ...": whoever a representation
    # clause names acts for the party named before it, whichever reader found them.
    found = [p for p in found if representation_lead(text, p.name.start) is None]
    # Order-independent: "made between SEV and DCL" before "DAIRY CREST LIMITED ... SEV GROUP
    # LIMITED" are those parties' short names, not two more parties.
    found = [p for p in found if not _short_name_of_another(p, found)]
    # "by and between O.I.\nCorporation and General Analysis Corporation": a reading that starts
    # inside another party's name and runs past its end began mid-name; the name read from its
    # first word stands.
    found = [p for p in found if not any(o.name.start < p.name.start < o.name.end < p.name.end for o in found)]
    # "Natalia V. Crenshaw, M.D. ("Principal Investigator") has read this Agreement ... but is not a
    # party to this Agreement": the text's own word outranks every reader.
    declined = _declared_non_parties(text, definitions)
    found = [p for p in found if not any(_same_or_inside(set(name_words(p.name.text)), words) for words in declined)]
    # "PLAYSTATION(R) PORTABLE ("PSP")" on a licence's cover: a name its mark's sign follows is a
    # brand, never a party.
    found = [p for p in found if _MARK_SIGN.match(text, p.name.end) is None]
    # "THE OFFICE OF ... PROGRAM\n    AND\n    COORDINATED CARE CORPORATION INDIANA, INC": a line
    # holding only "and" separates a cover's names; a reading across it is two names run together.
    found = [p for p in found if _AND_LINE.search(text, p.name.start, p.name.end) is None]
    # "between Index Oil and Gas Inc. and ConRon ...": a half of a party's name split at its own
    # "and" is no party when the whole name is one.
    found = [p for p in found if not any(_half_over_and(p.name.text, o.name.text) for o in found if o is not p)]
    # "IS 14, Inc. (Maxxis Group, Inc.), a corporation ...": a name alone in parentheses right
    # after a party's name is that party's other name (a trade name, a parent, a former name).
    found = [p for p in found if not any(_bracketed_after(text, o.name, p.name) for o in found if o is not p)]
    # "THE SCRIPPS RESEARCH INSTITUTE\nA CALIFORNIA NONPROFIT\nPUBLIC BENEFIT CORPORATION": the line
    # after a cover's description line goes on with the description.
    found = [p for p in found if not after_description_line(text, p.name.start)]
    # ("Address:  3000 Hanover St.", "Contact Name:  Richard Gentilini" under a party's "Name:"
    # row: a contact row's value is no party.)
    found = [p for p in found if not after_contact_label(text, p.name.start)]
    # "JOINT VENTURE CONTRACT\n\nOF\n\nZHEJIANG TIANYUAN BIOTECH CO., LTD.": the company a heading
    # names after "OF" is what the contract is of (a joint venture, a partnership), not a party
    # (where the preamble names it as one, that reading stands elsewhere in the text).
    found = [p for p in found if _TITLE_OF_BEFORE.search(text, max(0, p.name.start - _TITLE_OF_CHARS), p.name.start) is None]
    found.extend(_named_subsidiaries(text, found, person_spans))
    return sorted(found, key=lambda p: (p.evidence_start, p.entity_id))


# A heading's agreement word, then "OF" (on its own line or the heading's), right before a name.
_TITLE_OF_BEFORE = re.compile(r"(?:AGREEMENT|CONTRACT)[ \t]*(?:\n[ \t]*)*(?:OF|of|Of)[ \t]*(?:\n[ \t]*)*\Z")
_TITLE_OF_CHARS = 40


# '<party> and its wholly-owned subsidiary ', '<party>, a Delaware corporation and its subsidiary ',
# '<party> and its subsidiaries (the "Subsidiaries"), ', '<party> and its affiliated mining
# companies, ': the clause names a subsidiary or affiliate that joins its parent as a party.
_AND_ITS_SUBSIDIARY = re.compile(
    r"(?:,[ \t\n]+an?[ \t\n]+[a-zA-Z \t\n\-]{1,60}?)?"
    # (Its definition may stand before the lead: '..., a Delaware corporation, (the "Supplier")
    # and its affiliated mining companies, ...'.)
    r"(?:[ \t\n]*,?[ \t\n]*\([^()]{1,80}\))?[ \t\n]*,?[ \t\n]+and[ \t\n]+its[ \t\n]+(?:(?:wholly[ \t\n-]+owned|direct|indirect)[ \t\n]+)?(?:subsidiar(?:y|(?P<plural>ies))|affiliate(?P<affiliates>s)?"
    r"|affiliated[ \t\n]+(?:[a-z]+[ \t\n]+){0,2}compan(?:y|(?P<companies>ies)))"
    r"(?:[ \t\n]*\([^()\n]{1,40}\))?[ \t\n]*,?[ \t\n]+(?=[A-Z])"
)
_SUBSIDIARY_NAME_CHARS = 160
# The joiner to the next subsidiary a plural lead lists, and how many it may list.
_NEXT_SUBSIDIARY = re.compile(r"[ \t\n]*(?:,[ \t\n]*(?:and[ \t\n]+)?|and[ \t\n]+)(?=[A-Z])")
_SUBSIDIARIES_LISTED = 6


def _named_subsidiaries(text: str, parties: Sequence[Party], person_spans: Sequence[tuple[int, int]]) -> list[Party]:
    """Companies a party clause names as a party's subsidiary right after the party's name
    ("Osiris Therapeutics, Inc. and its wholly-owned subsidiary Osiris Research, Inc., Corporations
    having offices at ... (... collectively referred to as "OSIRIS")"): parties beside their parent.
    Only a name with a legal form that no party holds already. ("Acme Inc. and its subsidiaries
    and affiliates" names none; "a subsidiary of Beta Corp." is a parent, not this shape.)"""
    known = {p.entity_id for p in parties}
    added: list[Party] = []
    for party in parties:
        lead = _AND_ITS_SUBSIDIARY.match(text, party.name.end)
        if lead is None:
            continue
        position = lead.end()
        # "and its subsidiaries Acme Services Corporation and Acme Financial Corporation, each
        # California corporations": a plural lead names a list, each member with its legal form.
        most = _SUBSIDIARIES_LISTED if any(lead.group("plural", "affiliates", "companies")) else 1
        for _ in range(most):
            name = name_at(text, position, min(len(text), position + _SUBSIDIARY_NAME_CHARS))
            if name is None or not ends_in_legal_suffix(name.text) or party_name_problem(name.text) is not None:
                break
            entity_id = entity_id_for("ORG", party_name_forms(name.text)[-1])
            if entity_id not in known:
                known.add(entity_id)
                added.append(Party(entity_id, _label_for(name, person_spans), name, None, name.start, name.end))
            joiner = _NEXT_SUBSIDIARY.match(text, name.end)
            if joiner is None:
                break
            position = joiner.end()
    return added


def _half_over_and(half: str, whole: str) -> bool:
    """Whether ``half`` is the part of ``whole`` before or after one of its "and"s."""
    half, whole = " ".join(half.split()), " ".join(whole.split())
    return any(
        whole.endswith(f"{joiner} {half}") or whole.startswith(f"{half} {joiner}")
        for joiner in ("and", "AND", "And")
    )


def _bracketed_after(text: str, name: NameSpan, other: NameSpan) -> bool:
    """Whether ``other`` stands alone in parentheses right after ``name``: "X Inc. (Y Corp.)"."""
    between = text[name.end : other.start]
    return (
        other.start > name.end
        and between.strip(" \t\n.") == "("
        and text[other.end : other.end + 3].lstrip(" \t\n.")[:1] == ")"
    )


_AND_LINE = re.compile(r"\n[ \t]*(?:and|AND|And)[ \t]*\n")


# A trademark's sign right after a name: "(R)", "®", "(TM)", "™", "(SM)", "℠".
_MARK_SIGN = re.compile(r"[ \t]?(?:\((?:R|r|TM|tm|SM|sm)\)|[®™℠])")


# "... is not a party to this Agreement", "shall not be deemed a party hereto", "are not parties.".
_NOT_A_PARTY = re.compile(
    r"\b(?:is|are|shall|will)[ \t\n]+not[ \t\n]+(?:be[ \t\n]+)?(?:deemed[ \t\n]+(?:to[ \t\n]+be[ \t\n]+)?)?(?:a[ \t\n]+)?part(?:y|ies)"
    # (This document's party: "to this Agreement", "hereto", or the sentence's end; "not a party
    # to the Credit Agreement" says nothing of this one.)
    r"(?:[ \t\n]+(?:to[ \t\n]+this|hereto|hereunder)\b|[ \t]*[.;,])",
    re.IGNORECASE,
)
# How far after a definition the sentence that declines the party may run.
_NOT_A_PARTY_CHARS = 300


_RECITALS_START = re.compile(PREAMBLE_END_WORDS)


def _first_written_after_recitals(text: str, name: NameSpan, parties: Sequence[Party]) -> bool:
    """Whether ``name`` is first written after the recitals open (``PREAMBLE_END_WORDS``, read
    after the first of ``parties``)."""
    first_party = min(p.name.start for p in parties)
    recitals = _RECITALS_START.search(text, first_party)
    if recitals is None:
        return False
    written = re.search(r"[ \t\n]+".join(re.escape(w) for w in name.text.split()), text)
    return written is not None and written.start() >= recitals.start()


def _singular(words: set[str]) -> set[str]:
    """``words`` with a plural's "s" dropped ("investments" -> "investment"), for comparing two
    writings of one name; "ss" ("express") and short words stay as they are."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}


def _same_or_inside(words: set[str], declined: frozenset[str]) -> bool:
    """Whether a party's name words are a declined name's, or hold or are held by them ("Natalia
    V. Crenshaw" of "Natalia V. Crenshaw, M.D.")."""
    return bool(words) and (words <= declined or declined <= words)


def _declared_non_parties(text: str, definitions: Sequence[Definition]) -> list[frozenset[str]]:
    """The name words of definitions whose own sentence says the one defined is not a party (the
    sentence runs on from the definition to its first period that ends a sentence)."""
    declined: list[frozenset[str]] = []
    for definition in definitions:
        if definition.name is None:
            continue
        end = min(len(text), definition.paren_end + _NOT_A_PARTY_CHARS)
        stop = re.search(r"\.(?:[ \t]+(?=[A-Z])|[ \t]*\n)", text[definition.paren_end : end])
        sentence_end = definition.paren_end + stop.start() if stop is not None else end
        words = frozenset(name_words(definition.name.text))
        if words and _NOT_A_PARTY.search(text, definition.paren_end, sentence_end):
            declined.append(words)
    return declined


def _reviewed(
    text: str,
    found: list[Party],
    model_spans: Sequence[tuple[int, int, str]],
    common_words: frozenset[str],
    terms: frozenset[str] | set[str],
    known: list[set[str]],
) -> list[Party]:
    """The grammar's parties after the learned review (``ingest/party_scorer.py``): a name it
    passed over joins when the model is sure enough and it is no form of a known party; a party
    the model finds very unlikely leaves."""
    verdict = party_scorer.review(text, [p.name for p in found], model_spans, common_words, frozenset(terms))
    dropped = {(n.start, n.end) for n in verdict.drops}
    kept = [p for p in found if (p.name.start, p.name.end) not in dropped]
    # ("Reference is made to the Guarantee and Collateral Agreement, dated ..., among Acme
    # Holdings, Inc., ...": the cited agreement's parties, however far its title stands back.)
    cited = cited_clause_spans(text)
    for name, label, _ in verdict.additions:
        if any(start <= name.start < end for start, end in cited):
            continue
        # ("Sunmark Nutritionals, LLC (as successor in interest to Sunmark Labs, Inc.) ... WHEREAS,
        # Sunmark Labs, Inc. and Distributor entered into ...": the text placed the name after a
        # non-party lead; its recital mentions make it no party.)
        if any(after_non_party_lead(text, m.start()) for m in re.finditer(re.escape(name.text), text)):
            continue
        # ("UNIBELLE PTY LTD\n(ACN ...)\nAs Security Trustee For\nITA MANAGEMENT SERVICES PTY LTD": the
        # one a trustee holds for is no party of its own.)
        if held_for(text, name.start):
            continue
        # ("Copyright © 2011, MBM COMMERCIAL LLP. All rights reserved." on a cover: the firm
        # that drafted the document owns its copyright; it is no party.)
        if re.search(r"(?i)(?:\bcopyright\b|©|\(c\))[^\n]{0,40}?" + re.escape(name.text), text[:OPENING_CHARS]):
            continue
        # ("Shook Lane & Bok LLP\n1 Robinson Road\nSingapore 048542\nT +65 6535 1944" at the foot of
        # a cover that names both parties above it: the firm that drafted the document, with its
        # own contact lines, written nowhere else.)
        if len(kept) >= 2 and _drafting_firm_block(text, name):
            continue
        # ("... by and between KTPA ... and KENNETH J. TRIMMER, M.D. ... PRELIMINARY STATEMENTS One day
        # after ..., KTPA, MCPA ... and Sheridan Healthcorp, Inc. ... ("Sheridan") ...": once the
        # grammar has two parties, a name first written after the recitals open is one the recitals
        # talk about.)
        if len(kept) >= 2 and _first_written_after_recitals(text, name, kept):
            continue
        # ("AMENDED AND RESTATED LIMITED LIABILITY COMPANY AGREEMENT OF INNALOGIC, LLC, dated as of
        # ..., among ...": the company an agreement is *of* is its subject; the clause names the
        # parties.)
        if re.search(r"(?i)\bagreement[ \t\n]+of[ \t\n]+(?:the[ \t\n]+)?" + re.escape(name.text), text[:OPENING_CHARS]):
            continue
        words = set(name_words(name.text))
        singular = _singular(words)
        if not words or any(singular <= k or k <= singular for k in map(_singular, known)) or _names_known_party(name.text, kept, set(terms)):
            continue
        # ("by and among the Company, Aspen Hollow Partners IV, L.P. and ...": a defined term
        # opens a list the candidate was read over; it is no one name.)
        head = _LETTERED_THE.sub("", name.text.split(",", 1)[0].strip())
        if "," in name.text and head.casefold() in terms:
            continue
        entity_id = entity_id_for(label, party_name_forms(name.text)[-1])
        if all(p.entity_id != entity_id for p in kept):
            kept.append(Party(entity_id, label, name, None, name.start, name.end))
            known.append(words)
    return kept


# A contact line of an address block: a telephone or fax number after its label, or an e-mail
# address ("T +65 6535 1944", "Fax: (212) 555-0100", "E slb@example.com").
_CONTACT_LINE = re.compile(
    r"(?m)^[ \t|]*(?:(?:T|F|Tel|Tel\.|Telephone|Phone|Fax|Facsimile)[ \t]*[.:]?[ \t]*[+(]?[0-9]|(?:E|Email|E-mail)[ \t]*:?[ \t]*\S+@\S+)"
)
# How many lines with text after a name its contact block may run, within how many characters.
_CONTACT_BLOCK_LINES = 8
_CONTACT_BLOCK_CHARS = 1_000


def _drafting_firm_block(text: str, name: NameSpan) -> bool:
    """Whether ``name`` fills its line, is written nowhere else in ``text`` and its next lines
    (at most ``_CONTACT_BLOCK_LINES`` with text) are its address and contact lines: a block that
    says who prepared the document or whom to call, not who contracts."""
    line_start = text.rfind("\n", 0, name.start) + 1
    line_end = text.find("\n", name.end)
    line_end = len(text) if line_end == -1 else line_end
    if text[line_start : name.start].strip(" \t|") or text[name.end : line_end].strip(" \t|,."):
        return False
    if text.count(name.text) != 1:
        return False
    below = text[line_end + 1 : line_end + 1 + _CONTACT_BLOCK_CHARS].split("\n")
    lines = [line for line in below if line.strip(" \t|")][:_CONTACT_BLOCK_LINES]
    return any(_CONTACT_LINE.match(line) for line in lines)


_DIVISION_OF = re.compile(r",?[ \t\n]+an?[ \t\n]+(?:division|unit)[ \t\n]+of[ \t\n]+(?:\S+[ \t\n]+){0,3}$", re.I)


def _inside_party(name: NameSpan, parties: Iterable[Party]) -> bool:
    """Whether ``name`` lies within the text of a party's name at the same place (and is shorter)."""
    return any(
        p.name.start <= name.start and name.end <= p.name.end and (name.start, name.end) != (p.name.start, p.name.end)
        for p in parties
    )


def _inside_span(inner: NameSpan, outer: NameSpan) -> bool:
    """Whether ``inner`` lies within ``outer`` and is shorter."""
    return outer.start <= inner.start and inner.end <= outer.end and (inner.start, inner.end) != (outer.start, outer.end)


def _division_before(text: str, name: NameSpan) -> NameSpan | None:
    """The division named right before ``name`` ("X, a Division of <name>"), if any."""
    division_of = _DIVISION_OF.search(text, max(0, name.start - 80), name.start)
    if division_of is None:
        return None
    return name_before(text, division_of.start(), 120)


def _slash_partner(text: str, name: NameSpan) -> NameSpan | None:
    """The company written right after ``name`` and a "/" ("X Co., Ltd./Y, Inc."), when both
    end in a legal form."""
    if text[name.end : name.end + 1] != "/" or not ends_in_legal_suffix(name.text):
        return None
    partner = name_at(text, name.end + 1, min(len(text), name.end + 200))
    return partner if partner is not None and ends_in_legal_suffix(partner.text) else None


def _short_name_of_another(party: Party, parties: Sequence[Party]) -> bool:
    """A party without a legal form whose words are a part of another party's name, or whose
    letters are that name's initials ("DCL" for DAIRY CREST LIMITED)."""
    words = set(name_words(party.name.text))
    # (A one-word "person" is the model's guess at a short name: "Quillstone (as identified on the
    # cover page)" of QUILLSTONE PAYMENTS CORP.)
    if has_legal_suffix(party.name.text) or (party.label == "PERSON" and len(words) > 1):
        return False
    letters = "".join(name_words(party.name.text))
    for other in parties:
        if other is party:
            continue
        other_words = name_words(other.name.text)
        initials = "".join(w[0] for w in other_words if w not in {"and", "of", "the", "for"})
        # ("OCP" for OFFICE CHERIFIEN DES PHOSPHATES: the joining words of other languages an
        # acronym leaves out, as the definition reader's do.)
        bare_initials = "".join(w[0] for w in other_words if w not in INITIALS_SKIP)
        # ("Great-West Life & Annuity Insurance Company ("GWL&A")" beside "First Great-West ...
        # ("FGWL")": each defined by a term of its own that the other name cannot make.)
        if words < set(other_words) and _terms_apart(party, other):
            continue
        if words < set(other_words) or (len(letters) >= 2 and letters in (initials, bare_initials)):
            return True
    return False


def _terms_apart(party: Party, other: Party) -> bool:
    """Whether two parties carry different terms, ``party``'s made from its own name and
    ``other``'s not made from ``party``'s name."""
    return (
        party.role is not None and other.role is not None
        and party.role.casefold() != other.role.casefold()
        and term_made_from(party.role, party.name.text)
        and not term_made_from(other.role, party.name.text)
    )


_QUALIFIER = re.compile(r"[ \t\n]*\([^()\n]{1,40}\)")


def _unqualified_twin(name: str, known: Iterable[Party]) -> bool:
    """Whether ``name``, with a legal form of its own, is a known party's name without that name's
    parenthesised qualifier ("Virax Biolabs Limited" beside "Virax Biolabs (Cayman) Limited"):
    another company, as the registry keeps them apart (``names.party_name_forms``)."""
    if not has_legal_suffix(name):
        return False
    words = name_words(name)
    return any(
        _QUALIFIER.search(party.name.text) is not None and name_words(_QUALIFIER.sub("", party.name.text)) == words
        for party in known
    )


def _names_known_party(name: str, known: Iterable[Party], terms: set[str]) -> bool:
    """A later mention of a party already found, not another party: its defined term ("DNP" for
    Dai Nippon Printing Co., Ltd.), or fewer of its words without a legal form of its own
    ("Nissin" of "Nissin Kogyo Co., Ltd.")."""
    if name.casefold() in terms:
        return True
    # "A. The Medical Group is engaged in ...", "D. StoresOnline desires to ...": a recital's list
    # label (and an article) before a party's term still names that party.
    bare = _LABEL_AND_ARTICLE.sub("", name, count=1)
    if bare != name and " ".join(bare.split()).casefold() in terms:
        return True
    if has_legal_suffix(name):
        # "First Harbour Bank, F.S.B." of "FIRST HARBOUR BANK, A F.S.B.": the same words in the
        # same order but for an article are the same name.
        ordered = [w for w in name_words(name) if w not in _ARTICLES]
        return any(ordered == [w for w in name_words(party.name.text) if w not in _ARTICLES] for party in known)
    words = set(name_words(name))
    return any(words < set(name_words(party.name.text)) for party in known)


def _defined_apart(definition: Definition, known: Iterable[Party]) -> bool:
    """Whether a name that is a part of known parties' names is another party all the same: its
    own term is made from it, and every known party it is a part of carries a term of its own
    that this name cannot make ('Great-West Life & Annuity Insurance Company ("GWL&A")' beside
    'First Great-West Life & Annuity Insurance Company ("FGWL")')."""
    name = definition.name
    if name is None:
        return False
    words = set(name_words(name.text))
    containing = [p for p in known if words < set(name_words(p.name.text))]
    party = Party("", "ORG", name, definition.term, name.start, name.end)
    return bool(containing) and all(_terms_apart(party, p) for p in containing)


_ARTICLES = frozenset({"a", "an", "the"})
_LABEL_AND_ARTICLE = re.compile(
    r"^(?:\(?[A-Za-z0-9]{1,3}[.)][ \t\n]+(?:(?:the|The|THE)[ \t\n]+)?|(?:the|The|THE)[ \t\n]+)"
)


def _in_between_window(definition: Definition, text: str) -> bool:
    return any(start <= definition.term_start < end for start, end in between_windows(text))


# The statistical splitter may join lines into one "sentence"; instruction-like text is judged
# per line and per sentence-final punctuation inside it, so one such line spoils no other.
_CLAUSE_BREAK = re.compile(r"\n\s*\n|(?<=[.!?])\s+(?=[A-Z\"“])")


def _instruction_like_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if not is_instruction_like(text[start:end]):
        return []
    spans: list[tuple[int, int]] = []
    position = start
    for brk in [*_CLAUSE_BREAK.finditer(text, start, end), None]:
        piece_end = brk.start() if brk else end
        if is_instruction_like(text[position:piece_end]):
            spans.append((position, piece_end))
        if brk:
            position = brk.end()
    return spans or [(start, end)]


def _overlaps_any(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)


def _chunk_of(position: int, chunk_spans: Sequence[tuple[int, int]]) -> int | None:
    for index, (start, end) in enumerate(chunk_spans):
        if start <= position < end:
            return index
    return None


def _subject_name(variants: dict[str, int]) -> str:
    """The most complete form: brackets balanced, with a legal suffix, most words, not shouted,
    then longest. (A model's mention can run into a bracket glued to the name, "Shandong Longfeng
    Group Company(as": that is no spelling of the name, whatever its length.)"""
    return max(
        sorted(variants),
        key=lambda v: (
            v.count("(") == v.count(")"), has_legal_suffix(v), len(name_words(v)), not v.isupper(), len(v),
        ),
    )


# How many parties' label rows show an untitled text is a contract.
_LABELLED_PARTIES = 2


def _labelled_parties(text: str) -> bool:
    """Whether the opening's label rows name parties in two parts of a contract ("LESSOR:" over
    "AYALA LAND, INC.", "LESSEE:" over ...): a contract's table of essential terms, though the
    text has no title or preamble."""
    return not not_a_contract(text) and len({slot.term.casefold() for slot in label_slots(text)}) >= _LABELLED_PARTIES


def annotate_document(
    text: str,
    chunk_spans: Sequence[tuple[int, int]],
    *,
    doc_id: str,
    revision: str,
) -> DocumentAnnotations:
    nlp = annotation_pipeline()
    docs = list(nlp.pipe((text[s:e] for s, e in chunk_spans), batch_size=PIPE_BATCH_SIZE))

    title, title_aliases = agreement_names(text)
    # Only a text that shows it is an agreement (a title, or a contract's preamble) gets an
    # agreement subject: a memo is not a registry row named "Agreement".
    # (A letter agreement's structure names its parties: addressee, sender, acceptor.)
    letter = read_letter(text)
    is_agreement = title is not None or has_agreement_preamble(text) or letter is not None or _labelled_parties(text)
    definitions = find_definitions(text)
    person_spans = _person_spans(docs, chunk_spans)
    # Without an agreement title the text is no contract preamble: only "between ..." windows
    # (not merely the opening pages) can name parties then.
    # (A letter titled by its subject line has no contract preamble either: its parties are read
    # as a letter's, ``letter_names``.)
    preamble_title = title is not None and not (letter is not None and letter.titled_by_subject(title))
    parties = _parties(
        text,
        definitions if preamble_title else [d for d in definitions if _in_between_window(d, text)],
        person_spans,
        _model_name_spans(docs, chunk_spans),
    ) if is_agreement else []
    if title is not None:
        parties = [p for p in parties if not _drafting_firm(text, p, title, parties)]
    parties, merged = _one_party_per_spelling(parties)
    parties, tails = _tails_of_longer_readings(parties)
    parties, joined = _halves_joined_over_and(text, parties, person_spans, definitions)
    # "AVENTAIL CORPORATION RESELLER AGREEMENT" over "... and Aventail Corporation ("AVENTAIL")":
    # a heading opened by a party's name is that party's form of the contract; the title is the
    # rest, the whole heading one of its names.
    if title is not None and preamble_title:
        title, title_aliases = _without_party_prefix(text, title, title_aliases, parties)
    title_text = title.text if title else _FALLBACK_TITLE
    the_agreement_id = agreement_id(title_text, doc_id)
    party_labels = {p.entity_id: p.label for p in parties}
    # The antecedents' labels decide ORG vs PERSON ids for their terms.
    name_labels: dict[str, str] = dict(party_labels)
    for definition in definitions:
        if definition.name is not None and definition.is_party_alias:
            org_id = entity_id_for("ORG", definition.name.text)
            name_labels.setdefault(org_id, _label_for(definition.name, person_spans))
    # Party names found without a definition ("between X and Y") are literal aliases too.
    extra_names = {party.name.text: (party.entity_id, party.label) for party in parties}
    extra_names |= {spelling: (kept.entity_id, kept.label) for spelling, kept in merged.values()}
    aliases = build_alias_table(definitions, name_labels, extra_names)
    if merged:
        aliases = aliases.retargeted({eid: (kept.entity_id, kept.label) for eid, (_, kept) in merged.items()})
    if tails:
        aliases = aliases.retargeted({eid: (kept.entity_id, kept.label) for eid, kept in tails.items()})
    if joined:
        aliases = aliases.retargeted({eid: (whole.entity_id, whole.label) for eid, whole in joined.items()})
    # ("Orange County, North Carolina (the "County")": the term is the party's, whose id is made
    # from the name without its state (``party_name_forms``), not a second organisation's.)
    by_id = {p.entity_id: p for p in parties}
    seated = {
        entity_id_for(party.label, definition.name.text): party
        for definition in definitions
        if definition.name is not None and definition.is_party_alias and seated_local_government(definition.name.text)
        for party in [by_id.get(entity_id_for("ORG", party_name_forms(definition.name.text)[-1]))]
        if party is not None and entity_id_for(party.label, definition.name.text) != party.entity_id
    }
    if seated:
        aliases = aliases.retargeted({eid: (party.entity_id, party.label) for eid, party in sorted(seated.items())})

    chunks: list[ChunkAnnotations] = []
    all_mentions: list[Mention] = []
    chunk_relations: list[list[Relation]] = []
    instruction_spans: list[tuple[int, int]] = []
    # Without an agreement of its own, agreements the text mentions still get document ids.
    agreement_key = (normalise_plain(title_text), the_agreement_id) if is_agreement else ("", agreement_id("", doc_id))
    for doc, (start, end) in zip(docs, chunk_spans, strict=True):
        mentions = merge_mentions(
            model_mentions(doc, start, text, aliases, agreement_key),
            alias_mentions(text, start, end, aliases),
        )
        all_mentions.extend(mentions)
        relations = extract_relations(text, start, end, mentions)
        sentences = []
        for sent in doc.sents:
            s_start = start + sent.start_char
            s_end = start + sent.start_char + len(sent.text.rstrip())
            if s_end <= s_start:
                continue
            # Document text is data: an instruction-like sentence binds nothing.
            instruction_spans.extend(_instruction_like_spans(text, s_start, s_end))
            ids = sorted({m.entity_id for m in mentions if m.start < s_end and s_start < m.end})
            sentences.append(SentenceSpan(char_start=s_start, char_end=s_end, entity_ids=ids))
        chunk_relations.append(
            [r for r in relations if not _overlaps_any(r.start, r.end, instruction_spans)]
        )
        chunks.append(
            ChunkAnnotations(
                entities=[
                    EntityMention(
                        text=m.text, label=m.label, entity_id=m.entity_id,
                        char_start=m.start, char_end=m.end,
                    )
                    for m in mentions
                ],
                entity_ids=sorted({m.entity_id for m in mentions}),
                sentences=sentences,
            )
        )

    parties = [
        p for p in parties if not _overlaps_any(p.evidence_start, p.evidence_end, instruction_spans)
    ]
    # party_to goes to the chunk where its evidence starts.
    for party in parties:
        index = _chunk_of(party.evidence_start, chunk_spans)
        if index is not None:
            chunk_relations[index].append(
                Relation(
                    party.entity_id, "party_to", the_agreement_id, party.role,
                    party.evidence_start, party.evidence_end, "party.preamble",
                )
            )
    for chunk, relations in zip(chunks, chunk_relations, strict=True):
        relations.sort(key=lambda r: (r.start, r.end, r.relation, r.subject_id, r.object_id))
        chunk.relations = [
            RelationMention(
                subject_id=r.subject_id, relation=r.relation, object_id=r.object_id,
                role=r.role, char_start=r.start, char_end=r.end,
            )
            for r in relations
        ]
        chunk.relation_keys = sorted(
            {relation_key(r.relation, r.subject_id, r.object_id) for r in relations}
        )

    subjects = _subjects(
        text, doc_id, revision, all_mentions, [r for rs in chunk_relations for r in rs],
        parties, aliases, title, title_text, the_agreement_id if is_agreement else None,
        title_aliases, merged,
    )
    return DocumentAnnotations(chunks=chunks, subjects=subjects)


def _spelling_key(name: str) -> str:
    """A name's letters and digits alone, casefolded: "DOMAIN PEOPLE, INC." and "DomainPeople,
    Inc." are one spelling of one company written with and without a space."""
    return "".join(c for c in _folded(name) if c.isalnum())


def _one_party_per_spelling(parties: Sequence[Party]) -> tuple[list[Party], dict[str, tuple[str, Party]]]:
    """The parties with one kept per spelling (``_spelling_key``): the first written stands, and
    each later reading is recorded as (its entity id -> (its spelling, the kept party)) so its
    terms and mentions go to the kept one. (A heading's "DOMAIN PEOPLE, INC." over a preamble's
    "DomainPeople, Inc.": the registry's normalisation keeps the space, so two rows for one
    party.)"""
    kept: dict[str, Party] = {}
    merged: dict[str, tuple[str, Party]] = {}
    for party in sorted(parties, key=lambda p: (p.evidence_start, p.entity_id)):
        first = kept.setdefault(_spelling_key(party.name.text), party)
        if first.entity_id != party.entity_id and first.label == party.label:
            merged[party.entity_id] = (party.name.text, first)
    survivors = [p for p in parties if p.entity_id not in merged]
    return survivors, merged


_LIST_JOINER_IN_HEAD = re.compile(r"\b(?:and|AND|And)\b|&|,|;")


def _tails_of_longer_readings(parties: Sequence[Party]) -> tuple[list[Party], dict[str, Party]]:
    """The parties without a reading that is the tail of another party's reading at the same
    place ("Global Technology Development Limited" of "Beijing Guoqiang\nGlobal Technology
    Development Limited", a definition's antecedent read from the line below): the longer one
    stands and takes the shorter one's role. Returns (each tail's entity id -> the party kept),
    for its terms to go to the longer one; the tail is no name of it (it is a misreading)."""
    longer: dict[str, Party] = {}
    for short in parties:
        for long in parties:
            if (
                long is not short and long.label == short.label
                and long.name.end == short.name.end and long.name.start < short.name.start
                # (Not a list read as one name: "Alpha Inc. and Beta LLC" holds Beta LLC as a
                # party of its own, ``_halves_joined_over_and`` decides those.)
                and _LIST_JOINER_IN_HEAD.search(long.name.text[: short.name.start - long.name.start]) is None
            ):
                longer[short.entity_id] = long
                break
    # The role a tail carried goes to the reading it is the tail of.
    roles = {longer[p.entity_id].entity_id: p.role for p in parties if p.entity_id in longer}
    survivors = [replace(p, role=p.role or roles.get(p.entity_id)) for p in parties if p.entity_id not in longer]
    kept_now = {p.entity_id: p for p in survivors}
    return survivors, {eid: kept_now.get(kept.entity_id, kept) for eid, kept in longer.items()}


# The "and" between two halves read as two parties: spaces around it, no comma, no line of its own.
_HALVES_AND = re.compile(r"[ \t]+(?:and|AND|And)[ \t]*\n?[ \t]*|[ \t]*\n[ \t]*(?:and|AND|And)[ \t]+")


# Only layout between a cover's title and the name below it: blank lines, table bars, rules.
_COVER_LAYOUT = re.compile(r"[\s|\-_=*]*")


def _drafting_firm(text: str, party: Party, title: Title, parties: Sequence[Party]) -> bool:
    """Whether ``party`` is the firm that drafted the contract, named on its cover below the title
    with its own address ("CONTRACT MANUFACTURE AGREEMENT\n|\nALLEN & GLEDWICK LLP\nONE MARINA
    BOULEVARD #28-00"): only layout between the title and the name, no term of its own, an address
    line (a digit in it) right below, and two parties named above the title."""
    if party.role is not None or party.name.start < title.end:
        return False
    if not _COVER_LAYOUT.fullmatch(text, title.end, party.name.start):
        return False
    line_end = text.find("\n", party.name.end)
    if line_end == -1 or text[party.name.end : line_end].strip(" \t,"):
        return False
    below = text[line_end + 1 : (text.find("\n", line_end + 1) + 1 or len(text))]
    if not any(c.isdigit() for c in below):
        return False
    return sum(1 for p in parties if p.name.end <= title.start) >= 2


# How far after the heading the preamble's own naming of the contract is read.
_SELF_NAME_CHARS = 600


def _without_party_prefix(
    text: str, title: Title, title_aliases: list[TitleAlias], parties: Sequence[Party]
) -> tuple[Title, list[TitleAlias]]:
    """``title`` without a party's name opening it ("AVENTAIL CORPORATION RESELLER AGREEMENT" ->
    "RESELLER AGREEMENT"), the whole heading kept as an alias. Only a party whose name has a legal
    form or an organisation's head noun, and only when two words or more remain. (The span is the
    text's: a title's text has its white space collapsed.)"""
    words = list(re.finditer(r"\S+", text[title.start : title.end]))
    common_words = lowercase_words(text[: OPENING_CHARS])
    for party, name in sorted(
        ((p, n) for p in parties for n in _heading_forms(p, common_words)),
        key=lambda pn: (-len(pn[1]), pn[0].entity_id, pn[1]),
    ):
        count = len(name.split())
        if count + 2 > len(words):
            continue
        prefix = " ".join(w.group() for w in words[:count])
        if prefix.casefold() != name.casefold():
            continue
        # ("SAGENT KK NON-EXCLUSIVE ... AGREEMENT This Sagent KK Non-Exclusive ... Agreement"): a
        # preamble that names the contract with the party's name keeps it in the title.
        if re.search(
            r"(?i)\bthis\s+" + r"\s+".join(re.escape(w.group()) for w in words) + r"(?![\w])",
            text[title.end : title.end + _SELF_NAME_CHARS],
        ):
            return title, title_aliases
        rest = title.start + words[count].start()
        alias = TitleAlias(title.text, title.start, title.end, "heading")
        shorter = Title(" ".join(text[rest : title.end].split()), rest, title.end)
        return shorter, sorted([*title_aliases, alias], key=lambda a: (a.start, a.end, a.text))
    brand = _brand_prefix_alias(text, title, words, parties, common_words, title_aliases)
    return title, sorted([*title_aliases, *brand], key=lambda a: (a.start, a.end, a.text))


def _brand_prefix_alias(
    text: str, title: Title, words: list[re.Match[str]], parties: Sequence[Party], common_words: frozenset[str],
    title_aliases: list[TitleAlias],
) -> list[TitleAlias]:
    """"TOYOTA DEALER AGREEMENT" between "Toyota Motor Sales, U.S.A., Inc." and a dealer: a heading
    opened by the first word of a party's name (its brand) is also named without it, as an alias
    (source ``brand_prefix``); the title keeps the heading. Only a word of two letters or more the
    text never writes in lower case and no title word, with two words or more left."""
    if len(words) < 3:
        return []
    first = words[0].group().strip(",.")
    folded = first.casefold()
    if len(first) < 2 or not first[:1].isalpha() or folded in common_words or opens_titles(first):
        return []
    if not any(
        (has_legal_suffix(p.name.text) or organisation_head(p.name.text)) and p.name.text.split()[0].strip(",.").casefold() == folded
        and len(p.name.text.split()) >= 2
        for p in parties
    ):
        return []
    rest = title.start + words[1].start()
    alias = TitleAlias(" ".join(text[rest : title.end].split()), rest, title.end, "brand_prefix")
    if any(a.text == alias.text for a in title_aliases):
        return []
    return [alias]


def _heading_forms(party: Party, common_words: frozenset[str]) -> list[str]:
    """The forms of a party's name that may open a heading: its whole name, when it has a legal form
    or a head noun, and that name without its legal form ("STORESONLINE.COM DISTRIBUTOR MALL AND
    STOREFRONT AGREEMENT" for "STORESONLINE.COM, INC."), unless the bare name is made of title words
    or of words the text writes in lower case ("MORTGAGE LOAN ... AGREEMENT" keeps its first word)."""
    name = " ".join(party.name.text.split())
    if not (has_legal_suffix(name) or organisation_head(name)):
        return []
    bare = without_legal_form(name).strip(" ,")
    # ("MASTER SERVICES AGREEMENT" of "Master Inc.": a bare name made of title words is the title's.)
    common = bool(bare) and all(w.casefold() in common_words for w in bare.split())
    keep_bare = bare and bare != name and has_legal_suffix(name) and not opens_titles(bare) and not common
    return [name, bare] if keep_bare else [name]


def _halves_joined_over_and(
    text: str, parties: Sequence[Party], person_spans: Sequence[tuple[int, int]], definitions: Sequence[Definition]
) -> tuple[list[Party], dict[str, Party]]:
    """The parties with two halves of one company's name joined again, and each half's entity id
    -> the whole's party (so their terms follow it). "Dongguan Foreign Processing and Assembly
    Services Corporation (hereinafter "Business Agent")", "..., and PROVIDENT AMERICAN LIFE AND
    HEALTH INSURANCE COMPANY, a Pennsylvania corporation": readers that split a clause at "and"
    took the name's own "and" for the list's. Joined only when the half before it cannot stand
    alone (``_halves_of_one_name``). "between Galacticomm and Horst Entertainment Inc" stays two:
    one word before the "and"."""
    ordered = sorted(parties, key=lambda p: (p.name.start, p.entity_id))
    joined: dict[str, Party] = {}
    result: list[Party] = []
    index = 0
    while index < len(ordered):
        left = ordered[index]
        right = ordered[index + 1] if index + 1 < len(ordered) else None
        if right is not None and _halves_of_one_name(text, left, right, person_spans, definitions):
            party = _whole_of(text, left, right)
            joined[left.entity_id] = joined[right.entity_id] = party
            result.append(party)
            index += 2
            continue
        # ("In order to develop ..., Dongguan Foreign Processing and Assembly Services Corporation
        # (hereinafter ... "Business Agent") cooperates with ...": the definition's reader kept the
        # half after the "and" alone; the half before it was no party of its own.)
        before = _half_before_and(text, left, ordered)
        if before is not None and _halves_of_one_name(text, before, left, person_spans, definitions):
            party = _whole_of(text, before, left)
            joined[left.entity_id] = party
            result.append(party)
            index += 1
            continue
        result.append(left)
        index += 1
    return sorted(result, key=lambda p: (p.evidence_start, p.entity_id)), joined


def _whole_of(text: str, left: Party, right: Party) -> Party:
    """One company's party read from its two halves' names, the "and" between them included."""
    whole = NameSpan(text[left.name.start : right.name.end], left.name.start, right.name.end)
    return Party(
        entity_id_for("ORG", party_name_forms(whole.text)[-1]), "ORG", whole, right.role or left.role,
        min(left.evidence_start, right.evidence_start), max(left.evidence_end, right.evidence_end),
    )


# Two to four capitalised words and the "and" right before a name; the word before them (if any)
# is in lower case or ends a clause, so the words are a name's start, not the tail of prose.
_HALF_BEFORE_AND = re.compile(r"(?<![\w&'’\-])((?:[A-Z][\w&'’\-]*[ \t]+){1,3}[A-Z][\w&'’\-]*)[ \t]+(?:and|AND)[ \t]+\Z")
_HALF_LOOKBACK = 80


def _half_before_and(text: str, party: Party, parties: Sequence[Party]) -> Party | None:
    """The name the text writes right before ``party`` and an "and", read as a would-be party of
    its own (no party's name overlaps it), when the name reader reads it and ``party`` as one
    name."""
    floor = max(0, party.name.start - _HALF_LOOKBACK)
    match = _HALF_BEFORE_AND.search(text, floor, party.name.start)
    if match is None:
        return None
    start, end = match.start(1), match.end(1)
    # (Not the tail of capitalised prose, nor words after "the"/"of" ("of the FIRST PART AND
    # M/S ..."), nor a name that is a party of its own elsewhere ("Office Lease - Harrowgate
    # Associates and Pellmore Data Co. Inc." over "LANDLORD: HARROWGATE ASSOCIATES").)
    previous = re.search(r"(\S+)\s*\Z", text[max(0, start - 40) : start])
    if previous is not None and (
        (previous.group(1)[:1].isupper() and not previous.group(1).endswith((",", ";", ":", ".")))
        or previous.group(1).casefold() in ("the", "of")
    ):
        return None
    if any(p.name.start < party.name.start and p.name.end > start for p in parties if p is not party):
        return None
    if party_name_problem(text[start:end]) is not None or normalise_org(text[start:end]) in {normalise_org(p.name.text) for p in parties}:
        return None
    whole = name_at(text, start, party.name.end)
    if whole is None or whole.end != party.name.end:
        return None
    half = NameSpan(text[start:end], start, end)
    return Party(entity_id_for("ORG", half.text), "ORG", half, None, start, end)


def _halves_of_one_name(
    text: str, left: Party, right: Party, person_spans: Sequence[tuple[int, int]], definitions: Sequence[Definition]
) -> bool:
    """Whether ``left`` and ``right``, joined by a bare "and", are one company's name: ``left``
    cannot stand alone (two or more words, no legal form, no organisation's head noun ("Mayo
    Foundation and ..."), no person the model tags, no role word, one case style) and ``right``
    ends in a legal form or a head noun ("COMPANY"), in ``left``'s case."""
    gap = text[left.name.end : right.name.start]
    if not (left.name.end < right.name.start and _HALVES_AND.fullmatch(gap) and _AND_LINE.search(gap) is None):
        return False
    if left.label != "ORG" or right.label != "ORG":
        return False
    words = left.name.text.split()
    if len(words) < 2 or has_legal_suffix(left.name.text) or organisation_head(left.name.text):
        return False
    if not (ends_in_legal_suffix(right.name.text) or organisation_head(right.name.text)) or right.name.text.split()[0].casefold() == "the":
        return False
    if any(left.name.start < e and s < left.name.end for s, e in person_spans):
        return False
    # ("INTRODUCTION Buyer and Wilson Greatbatch Ltd.": a heading's word in capitals before a
    # title-case word, or a party's role among the words, is no name's start.)
    if len({_shouted(w) for w in words if any(c.isalpha() for c in w) and len(w) > 1}) > 1:
        return False
    roles = {r.casefold() for r in lexicons().party_roles}
    if any(w.strip(",.").casefold() in roles for w in words):
        return False
    # (A lower-case "and" between names in capitals is the list's: "THE HALVERSON DESIGN GROUP and
    # PERRIN LABS, INC."; so is one before a half that opens with "the".)
    shouted = _shouted(left.name.text)
    if shouted != _shouted(right.name.text) or (shouted and "AND" not in gap) or words[0].casefold() == "the":
        return False
    # ('... and Horst Entertainment Inc ("Horst")': a term the half after defines from its own
    # words, none of the half before's, marks it a name of its own.)
    left_words = set(name_words(left.name.text))
    for definition in definitions:
        if definition.name is not None and definition.name.start == right.name.start and definition.name.end == right.name.end:
            term_words = set(name_words(definition.term))
            if term_words & set(name_words(right.name.text)) and not term_words & left_words:
                return False
    return True


def _shouted(name: str) -> bool:
    letters = [c for c in name if c.isalpha()]
    return bool(letters) and all(c.isupper() for c in letters)


def _party_forms(parties: Sequence[Party], variants: Mapping[str, Mapping[str, int]]) -> dict[str, list[list[str]]]:
    """Per party entity: the legal forms of each spelling of it this document writes (its
    ``variants``: the party names' forms and every other mention), sorted. Every spelling, not only
    the party clause's one name: an LP and an LLC that share a name can both sign ("X GP L.P." in
    the preamble, "X GP L.L.C." in the signature block), and the grammar keeps one span per entity."""
    forms: dict[str, set[tuple[str, ...]]] = defaultdict(set)
    for entity_id in {p.entity_id for p in parties}:
        for spelling in variants.get(entity_id, {}):
            if written := legal_form_words(spelling):
                forms[entity_id].add(tuple(sorted(written)))
    return {eid: [list(f) for f in sorted(found)] for eid, found in sorted(forms.items())}


def _with_defined_spellings(
    variants: Mapping[str, Mapping[str, int]], parties: Sequence[Party], aliases: AliasTable
) -> dict[str, dict[str, int]]:
    """``variants`` with the spellings the alias table alone keeps for a party: "BARRIER
    THERAPEUTICS, INC. (...); BARRIER THERAPEUTICS, N.V. (... "BARRIER NV")" are two parties under one
    registry key, and the second's definition is its only record; its legal form is one the
    document writes for that key. (Only spellings with a legal form: a bare term adds none.)"""
    out = {eid: dict(v) for eid, v in variants.items()}
    party_ids = {p.entity_id for p in parties}
    for surface, (entity_id, _) in sorted(aliases.by_term.items()):
        if entity_id in party_ids and legal_form_words(surface):
            out.setdefault(entity_id, {}).setdefault(" ".join(surface.split()), 0)
    return out


def _subjects(
    text: str,
    doc_id: str,
    revision: str,
    mentions: Sequence[Mention],
    relations: Sequence[Relation],
    parties: Sequence[Party],
    aliases: AliasTable,
    title: Title | None,
    title_text: str,
    the_agreement_id: str | None,
    title_aliases: Sequence[TitleAlias] = (),
    merged: Mapping[str, tuple[str, Party]] | None = None,
) -> list[SubjectRecord]:
    """The document's subjects: every named entity, and its agreement unless
    ``the_agreement_id`` is None (a text that is no agreement). ``merged``: the later spellings of
    parties (``_one_party_per_spelling``), kept as their party's names."""
    variants: dict[str, dict[str, int]] = defaultdict(dict)
    terms: dict[str, set[str]] = defaultdict(set)
    first: dict[str, tuple[int, int]] = {}
    labels: dict[str, str] = {}
    defined_terms = {term for term, _ in aliases.by_term.items()}
    party_names = {p.name.text for p in parties}
    for mention in mentions:
        if mention.label not in SUBJECT_LABELS:
            continue
        entity_id = mention.entity_id
        labels.setdefault(entity_id, mention.label)
        first.setdefault(entity_id, (mention.start, mention.end))
        surface = " ".join(mention.text.split())
        if mention.from_alias and surface in defined_terms and surface not in party_names:
            terms[entity_id].add(surface)
        else:
            variants[entity_id][surface] = variants[entity_id].get(surface, 0) + 1
    for party in parties:
        labels.setdefault(party.entity_id, party.label)
        for form in party_name_forms(party.name.text):
            variants[party.entity_id].setdefault(form, 0)
        first.setdefault(party.entity_id, (party.name.start, party.name.end))
        if party.role:
            terms[party.entity_id].add(party.role)
    # ("IndeLiving\nHoldings, Inc." in a signature block: a spelling over a line break is no
    # literal mention, so it is added as written.)
    for spelling, kept in (merged or {}).values():
        for form in party_name_forms(" ".join(spelling.split())):
            variants[kept.entity_id].setdefault(form, 0)
    names = {eid: _subject_name(v) if v else sorted(terms[eid])[0] for eid, v in variants.items()}
    names.update({eid: sorted(t)[0] for eid, t in terms.items() if eid not in names})
    # "Kestrel GmbH, represented by its shareholder Kestrel, Inc.": the parent shares the party's
    # words and so its registry key; the party keeps the name with its own legal form.
    for party in parties:
        own = legal_form(party.name.text)
        chosen = names.get(party.entity_id)
        if own is not None and chosen is not None and legal_form(chosen) not in (None, own):
            names[party.entity_id] = " ".join(party.name.text.split())
    if the_agreement_id is not None:
        names[the_agreement_id] = title_text

    bindings: dict[str, list[Binding]] = defaultdict(list)
    for relation in sorted(relations, key=lambda r: (r.start, r.end, r.relation, r.subject_id, r.object_id)):
        bindings[relation.subject_id].append(
            Binding(
                relation=relation.relation,
                object_id=relation.object_id,
                object_name=names.get(relation.object_id, EntityId.parse(relation.object_id).key),
                role=relation.role,
                doc_id=doc_id,
                revision=revision,
                char_start=relation.start,
                char_end=relation.end,
            )
        )

    subjects: list[SubjectRecord] = []
    for entity_id in sorted(set(variants) | set(terms)):
        name = names[entity_id]
        alias_set = (set(variants.get(entity_id, {})) | terms.get(entity_id, set())) - {name}
        start, end = first[entity_id]
        subjects.append(
            SubjectRecord(
                subject_id=entity_id,
                name=name,
                type=EntityId.parse(entity_id).type,
                doc_id=doc_id,
                revision=revision,
                aliases=sorted(alias_set),
                attributes={"label": labels[entity_id]},
                bindings=bindings.get(entity_id, []),
                char_start=start,
                char_end=end,
            )
        )

    if the_agreement_id is None:
        return subjects
    scan_end = min(len(text), DATE_SCAN_CHARS)
    signed = agreement_date(text, 0, scan_end)
    effective = effective_date(text, 0, scan_end)
    read = parent_amendment(title, list(title_aliases), text) if title else None
    amendment = read[0] if read else None
    agreement_bindings: list[Binding] = []
    if read is not None and read[0].parent:
        # The parent is named by title only (it may be another document, or none ingested), so
        # the binding's object is the title-level id ``agreement:<normalised title>``.
        agreement_bindings.append(
            Binding(
                relation=read[0].relation,
                object_id=str(EntityId(AGREEMENT, normalise_plain(read[0].parent))),
                object_name=" ".join(read[0].parent.split()),
                role=None,
                doc_id=doc_id,
                revision=revision,
                char_start=read[1],  # the title, alias or opening prose that names the parent
                char_end=read[2],
            )
        )
    subjects.append(
        SubjectRecord(
            subject_id=the_agreement_id,
            name=title_text,
            type="agreement",
            doc_id=doc_id,
            revision=revision,
            # The contract's other names for itself (agreements.title_aliases), each with its span.
            aliases=sorted({a.text for a in title_aliases} - {title_text}),
            attributes={
                "kind": agreement_kind(title_text),
                "title": title_text,
                "title_aliases": [
                    {"text": a.text, "source": a.source, "char_start": a.start, "char_end": a.end}
                    for a in title_aliases
                ],
                "agreement_date": signed.iso if signed else None,
                "effective_date": effective.iso if effective else None,
                "parties": [p.entity_id for p in parties],
                # The legal forms each party is written with in this document ("Acme GmbH":
                # ["gmbh"]): parties share a registry key across legal forms ("Acme GmbH" and
                # "Acme, Inc." are both org:acme), and the gate binds only a form written here.
                "party_forms": _party_forms(parties, _with_defined_spellings(variants, parties, aliases)),
                # Where the contract names its parties in its own words (preamble, Parties
                # section, signature block), each span with its text: the gate reads a party
                # name the extraction did not bind there, exactly (ingest/party_clauses.py).
                "party_clauses": clause_records(text),
                **(
                    {"amendment": {
                        "relation": amendment.relation, "word": amendment.word, "number": amendment.number,
                        "parent": " ".join(amendment.parent.split()) if amendment.parent else None,
                    }}
                    if amendment else {}
                ),
            },
            bindings=agreement_bindings,
            char_start=title.start if title else None,
            char_end=title.end if title else None,
        )
    )
    return subjects
