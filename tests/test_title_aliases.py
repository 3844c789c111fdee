"""Agreement titles and title aliases (issue 9): the contract's own heading, the names it gives
itself with their source spans, and the gate matching a question's title against them exactly,
never fuzzily, and never opening a pass for an agreement the KB does not hold."""

from __future__ import annotations

from typing import Iterator

import pytest

from ingest.agreements import agreement_names, amendment_heading, amendment_of, find_title, parent_amendment, title_aliases
from tests.kb import KB, OPERATOR, ingested_kb

# -- ingest: which heading is the title, and the aliases ----------------------------------------

FURNITURE = (
    "EXHIBIT 10.65   EXHIBIT II   NOVEMBER 1, 2002, RATE FT-A AGREEMENT   BETWEEN LG&E AND TENNESSEE GAS\n\n"
    "Service Package No: 40715   GAS TRANSPORTATION AGREEMENT (For Use under FT-A Rate Schedule)   "
    "THIS AGREEMENT is made and entered into as of the 1st day of November, 2002, by and between "
    "TENNESSEE GAS PIPELINE COMPANY and LOUISVILLE GAS AND ELECTRIC COMPANY.\n"
)


def test_the_heading_that_opens_the_preamble_is_the_title_not_page_furniture_above_it() -> None:
    title = find_title(FURNITURE)
    assert title is not None and title.text == "GAS TRANSPORTATION AGREEMENT"
    assert FURNITURE[title.start : title.end] == "GAS TRANSPORTATION AGREEMENT"


def test_a_numbered_section_heading_is_no_title() -> None:
    text = "tail of another filing.\n\n19.      ENTIRE AGREEMENT, GOVERNING LAW\n\nThis Agreement is the whole.\n"
    title = find_title(text)
    assert title is None or "ENTIRE" not in title.text


def test_the_tail_of_another_filing_before_the_heading_is_not_the_title() -> None:
    tail = "INGRAM NETGEAR Distributor Agreement    11    083096\n\n" + "Neither party is liable for delays. " * 90
    text = (
        f"{tail}\n\n      AMENDMENT        TO THE        DISTRIBUTOR AGREEMENT      BETWEEN     INGRAM MICRO   AND   NETGEAR\n\n"
        'This Amendment is entered into effective October 1, 1996 by and between NETGEAR, Inc. ("NETGEAR") and Ingram Micro.\n'
    )
    assert len(tail) > 3_000  # the heading lies beyond the first-heading window
    title, aliases = agreement_names(text)
    assert title is not None and " ".join(title.text.split()) == "AMENDMENT TO THE DISTRIBUTOR AGREEMENT"
    line = next(a for a in aliases if a.source == "heading_line")
    assert line.text == "AMENDMENT TO THE DISTRIBUTOR AGREEMENT BETWEEN INGRAM MICRO AND NETGEAR"
    assert " ".join(text[line.start : line.end].split()) == line.text


def test_a_contract_identifier_on_the_heading_line_is_part_of_the_title() -> None:
    text = (
        "Exhibit 99.12\n\nTRANSPORTATION SERVICE AGREEMENT Contract Identification FT18150\n\n"
        "This Transportation Service Agreement (Agreement) is entered into by Great Lakes Gas LLC "
        "(Transporter) and Anr Pipeline Company (Shipper).\n"
    )
    title, aliases = agreement_names(text)
    assert title is not None and title.text == "TRANSPORTATION SERVICE AGREEMENT Contract Identification FT18150"
    assert text[title.start : title.end] == title.text
    assert [(a.text, a.source, a.start, a.end) for a in aliases] == [
        ("TRANSPORTATION SERVICE AGREEMENT", "heading", 15, 47)
    ]


@pytest.mark.parametrize(
    ("line", "heading"),
    [
        # A party list or a company name on the heading line is no identifier.
        ("DISTRIBUTOR AGREEMENT BETWEEN NIMBUS TRADING AND ORION LABS", "DISTRIBUTOR AGREEMENT"),
        ("JOINT FILING AGREEMENT Nimbus Trading, Inc.", "JOINT FILING AGREEMENT"),
    ],
)
def test_any_other_heading_line_stays_an_alias(line: str, heading: str) -> None:
    text = f"{line}\n\nThis Agreement is entered into by Nimbus Trading Inc. and Orion Labs LLC.\n"
    title, aliases = agreement_names(text)
    assert title is not None and title.text == heading
    assert [(a.text, a.source) for a in aliases] == [(line, "heading_line")]
    assert text[aliases[0].start : aliases[0].end] == aliases[0].text


def test_form_of_alias() -> None:
    text = "FORM OF FRANCHISE AGREEMENT\n\nThis Franchise Agreement is made by and between Pizza Co, Inc. and you.\n"
    title, aliases = agreement_names(text)
    assert title is not None and title.text == "FORM OF FRANCHISE AGREEMENT"
    assert [(a.text, a.source, text[a.start : a.end]) for a in aliases] == [
        ("FRANCHISE AGREEMENT", "form_of", "FRANCHISE AGREEMENT")
    ]


def test_the_preamble_name_is_the_title_and_the_heading_an_alias() -> None:
    text = (
        "AMERICAN EXPRESS STORED VALUE PRODUCTS RESELLER AGREEMENT\n\n"
        'This Distribution Agreement (the "Agreement") is entered into by and between Acme Holdings, '
        'Inc. ("AEIS") and Omega Retail LLC ("Omega").\n'
    )
    title, aliases = agreement_names(text)
    assert title is not None and title.text == "Distribution Agreement"
    assert text[title.start : title.end] == "Distribution Agreement"
    assert [(a.text, a.source) for a in aliases] == [
        ("AMERICAN EXPRESS STORED VALUE PRODUCTS RESELLER AGREEMENT", "heading")
    ]


def test_a_preamble_name_made_of_heading_words_is_a_short_form() -> None:
    text = 'MASTER SUPPLY AGREEMENT\n\nThis Supply Agreement (the "Agreement") is made by and between Acme Inc. and Beta LLC.\n'
    title, aliases = agreement_names(text)
    assert title is not None and title.text == "MASTER SUPPLY AGREEMENT"
    assert [(a.text, a.source) for a in aliases] == [("Supply Agreement", "self_name")]


def test_defined_term_alias_and_an_amendment_read_from_its_heading() -> None:
    text = (
        "AMENDMENT 1 TO DEVELOPMENT AGREEMENT\n\n"
        'This is the First Amendment ("First Amendment") to the Development Agreement ("Development '
        'Agreement") entered into by and between Cargo Grain, Incorporated ("Cargo") and Amber Bio S.A.S. ("Amber").\n'
    )
    title, aliases = agreement_names(text)
    assert title is not None and title.text == "First Amendment"
    assert [(a.text, a.source) for a in aliases] == [("AMENDMENT 1 TO DEVELOPMENT AGREEMENT", "heading")]
    read = parent_amendment(title, aliases)
    assert read is not None
    amendment, start, end = read
    assert (amendment.relation, amendment.number, amendment.parent) == ("amends", "1", "DEVELOPMENT AGREEMENT")
    assert text[start:end] == "AMENDMENT 1 TO DEVELOPMENT AGREEMENT"


def test_a_defined_term_is_an_alias_but_a_parenthesis_of_prose_is_not() -> None:
    text = 'LICENSE AGREEMENT\n\nThis Software License Agreement ("Master License") is made by and between Acme Inc. and Beta LLC.\n'
    title, aliases = agreement_names(text)
    assert title is not None and title.text == "Software License Agreement"
    assert [(a.text, a.source, text[a.start : a.end]) for a in aliases] == [
        ("LICENSE AGREEMENT", "heading", "LICENSE AGREEMENT"),
        ("Master License", "defined_term", "Master License"),
    ]
    prose = (
        "HOSTING AGREEMENT\n\nThis Hosting Agreement (including its Exhibit A and all other documents "
        "referenced herein) is made by and between Acme Inc. and Beta LLC.\n"
    )
    title, aliases = agreement_names(prose)
    assert title is not None and title.text == "HOSTING AGREEMENT"
    assert aliases == []


def test_an_agreement_the_text_mentions_is_no_alias() -> None:
    text = (
        "JOINDER AGREEMENT\n\nThis Joinder Agreement is made by Acme Inc. and joins the Stockholders "
        'Agreement (the "Stockholders Agreement") between Beta LLC and Gamma Corp.\n'
    )
    title = find_title(text)
    assert title is not None and title.text == "JOINDER AGREEMENT"
    assert title_aliases(text, title) == []


def test_a_bare_amendment_number_is_read() -> None:
    amendment = amendment_of("AMENDMENT 1 TO DEVELOPMENT AGREEMENT")
    assert amendment is not None and (amendment.number, amendment.parent) == ("1", "DEVELOPMENT AGREEMENT")
    amendment = amendment_of("AMENDMENT NO. 2 TO MANUFACTURING AND SUPPLY AGREEMENT")
    assert amendment is not None and (amendment.number, amendment.parent) == ("2", "MANUFACTURING AND SUPPLY AGREEMENT")


# -- amendments: the heading is the amendment's own, over several lines or none -------------------

# Shaped like CUAD's GluMobile amendment: the heading names only the amendment, and the opening
# prose names the agreement it amends. That agreement is the parent, never the title.
PROSE_PARENT = (
    "AMENDMENT NO. 1\n\nDated as of November 11, 2005\n\n"
    "Reference is hereby made to that certain fully executed Wireless Content License Agreement Number "
    '12965 dated as of December 16, 2004 ("Agreement"), between Northwind Media Inc. ("Licensor") and '
    'Quasar Games, Inc. ("Licensee").\n\nThe parties agree to modify the Agreement as follows:\n\n'
    "1. GOVERNING LAW\n\nThis Amendment shall be governed by the laws of the State of California.\n"
)


def test_an_amendment_heading_alone_is_the_title_not_the_parent_its_prose_names() -> None:
    title, aliases = agreement_names(PROSE_PARENT)
    assert title is not None and (title.text, title.start, title.end) == ("AMENDMENT NO. 1", 0, 15)
    assert all("Wireless" not in a.text for a in aliases)
    amendment, start, end = parent_amendment(title, aliases, PROSE_PARENT)  # type: ignore[misc]
    assert (amendment.relation, amendment.number) == ("amends", "1")
    assert amendment.parent == "Wireless Content License Agreement Number 12965"
    assert PROSE_PARENT[start:end] == "Wireless Content License Agreement Number 12965"
    # Without the text, only the names are read: an amendment with no parent.
    assert parent_amendment(title, aliases) == (amendment_of("AMENDMENT NO. 1"), 0, 15)


def test_a_defined_term_in_the_prose_names_no_parent() -> None:
    text = "FIRST AMENDMENT\n\nThis First Amendment amends the Agreement between Acme Inc. and Beta LLC.\n"
    title, aliases = agreement_names(text)
    assert title is not None and title.text == "FIRST AMENDMENT"
    assert parent_amendment(title, aliases, text) == (amendment_of("FIRST AMENDMENT"), 0, 15)


def test_an_amendment_heading_over_several_lines_is_one_title() -> None:
    text = (
        "AMENDMENT NO. 2\n\nTO THE\n\nWIRELESS CONTENT LICENSE AGREEMENT\n\n"
        "This Amendment is made as of May 1, 2006 between Northwind Media Inc. and Quasar Games, Inc.\n"
    )
    title = find_title(text)
    assert title is not None and " ".join(title.text.split()) == "AMENDMENT NO. 2 TO THE WIRELESS CONTENT LICENSE AGREEMENT"
    assert (title.start, title.end) == (0, 59)
    amendment = amendment_of(title.text)
    assert amendment is not None and (amendment.number, amendment.parent) == ("2", "WIRELESS CONTENT LICENSE AGREEMENT")
    # The parent's title on the next heading line, with no "to" between: still one title.
    text = (
        "Exhibit 10.9\nFirst Amendment\nWireless Content License Agreement Number 12965\n\n"
        "Reference is made to that certain Wireless Content License Agreement Number 12965.\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "First Amendment Wireless Content License Agreement Number 12965"
    assert text[title.start : title.end] == "First Amendment\nWireless Content License Agreement Number 12965"
    amendment = amendment_of(title.text)
    assert amendment is not None and amendment.parent == "Wireless Content License Agreement Number 12965"


def test_a_dangling_to_is_not_part_of_an_amendment_title() -> None:
    text = "ADDENDUM NO. 3 TO\n\nDated March 1, 2001\n\nThis Addendum is made between Acme Inc. and Beta LLC.\n"
    title = find_title(text)
    assert title is not None and (title.text, title.start, title.end) == ("ADDENDUM NO. 3", 0, 14)


def test_schedules_and_clause_headings_are_no_amendment_heading() -> None:
    # A "Schedule A" line atop a contract is page furniture, and "2. Amendment" in the body a clause.
    text = "Schedule A\n\nSUPPLY AGREEMENT\n\nThis Supply Agreement is made between Acme Inc. and Beta LLC.\n"
    title = find_title(text)
    assert title is not None and title.text == "SUPPLY AGREEMENT"
    text = "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Acme Inc. and Beta LLC.\n\n2. Amendment\n"
    title = find_title(text)
    assert title is not None and title.text == "SUPPLY AGREEMENT"
    # Prose before it: an amendment mentioned in a letter is not this document's heading.
    text = "Dear Sir, we write about the contract of May.\nAMENDMENT NO. 1\nTO THE SUPPLY AGREEMENT\n"
    assert amendment_heading(text) is None


def test_the_cuad_glu_mobile_amendment_is_titled_as_an_amendment() -> None:
    from tests.helpers import cuad_dev_dir

    name = "GluMobileInc_20070319_S-1A_EX-10.09_436630_EX-10.09_Content License Agreement2.txt"
    path = cuad_dev_dir() / "contracts_txt" / name
    if not path.exists():
        pytest.skip(f"{name} not in this CUAD copy")
    text = path.read_text(encoding="utf-8")
    title, aliases = agreement_names(text)
    assert title is not None and (title.text, title.start) == ("AMENDMENT NO. 1", 0)
    read = parent_amendment(title, aliases, text)
    assert read is not None and read[0].parent == "Wireless Content License Agreement Number 12965"


# -- the gate: aliases match exactly, with every party bound -------------------------------------

DOCS = {
    "reseller": (
        "AMERICAN EXPRESS STORED VALUE PRODUCTS RESELLER AGREEMENT\n\n"
        'This Distribution Agreement (the "Agreement") is entered into by and between Acme Holdings, '
        'Inc. ("AEIS") and Omega Retail LLC ("Omega").\n\nGoverning Law\n\n'
        "This Agreement shall be governed by the laws of the State of New York.\n"
    ),
    "transport": (
        "TRANSPORTATION SERVICE AGREEMENT Contract Identification FT18150\n\n"
        'This Transportation Service Agreement (the "Agreement") is entered into by and between Great Lakes '
        'Gas Transmission LLC ("Transporter") and Anr Pipeline Company ("Shipper").\n\nGoverning Law\n\n'
        "This Agreement shall be governed by the laws of the State of Texas.\n"
    ),
    "amendment": (
        "AMENDMENT   TO THE   DISTRIBUTOR AGREEMENT   BETWEEN   NIMBUS TRADING   AND   ORION LABS\n\n"
        'This Amendment is entered into effective October 1, 1996 by and between Nimbus Trading Inc. '
        '("Nimbus") and Orion Labs LLC ("Distributor").\n\nGoverning Law\n\n'
        "This Amendment shall be governed by the laws of the State of California.\n"
    ),
    "first-amendment": (
        "AMENDMENT 1 TO DEVELOPMENT AGREEMENT\n\n"
        'This is the First Amendment ("First Amendment") to the Development Agreement entered into by '
        'and between Cargo Grain, Incorporated ("Cargo") and Amber Bio S.A.S. ("Amber").\n\nGoverning Law\n\n'
        "This First Amendment shall be governed by the laws of the State of Minnesota.\n"
    ),
    "prose-parent": PROSE_PARENT,
}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "title-alias-kb", DOCS)


def test_registry_records_aliases_with_their_source_spans(kb: KB) -> None:
    (agreement,) = kb.store.find_subjects(OPERATOR, subject_ids=["agreement:distribution agreement@reseller"], limit=5)
    assert agreement.name == "Distribution Agreement"
    assert agreement.aliases == ["AMERICAN EXPRESS STORED VALUE PRODUCTS RESELLER AGREEMENT"]
    assert agreement.attributes["title_aliases"] == [{
        "text": "AMERICAN EXPRESS STORED VALUE PRODUCTS RESELLER AGREEMENT", "source": "heading",
        "char_start": 0, "char_end": 57,
    }]
    # Found by its alias, as by its title.
    found = kb.store.find_subjects(OPERATOR, name="american express stored value products reseller agreement", type="agreement", limit=5)
    assert [s.subject_id for s in found] == ["agreement:distribution agreement@reseller"]


def test_a_question_naming_the_heading_passes_on_the_alias(kb: KB) -> None:
    docs, result = kb.docs(
        "What law governs the AMERICAN EXPRESS STORED VALUE PRODUCTS RESELLER AGREEMENT between "
        "Acme Holdings, Inc. and Omega Retail LLC?"
    )
    assert docs == {"reseller"}
    assert result.candidates[0].match == "title alias + parties"
    docs, result = kb.docs("What law governs the Distribution Agreement between Acme Holdings, Inc. and Omega Retail LLC?")
    assert docs == {"reseller"} and result.candidates[0].match == "title exact + parties"


def test_an_alias_never_passes_with_a_party_that_is_not_bound(kb: KB) -> None:
    report = kb.ask(
        "What law governs the AMERICAN EXPRESS STORED VALUE PRODUCTS RESELLER AGREEMENT between "
        "Acme Holdings, Inc. and Zeta Corp?"
    )
    assert report.state == "SUBJECT_NOT_FOUND" and report.candidate_subjects == []


def test_heading_line_alias_is_exact_not_fuzzy(kb: KB) -> None:
    parties = "between Great Lakes Gas Transmission LLC and Anr Pipeline Company"
    docs, result = kb.docs(f"What law governs the TRANSPORTATION SERVICE AGREEMENT Contract Identification FT18150 {parties}?")
    assert docs == {"transport"} and result.candidates[0].match == "title exact + parties"
    # The bare heading is an alias: the same contract, exactly.
    docs, result = kb.docs(f"What law governs the TRANSPORTATION SERVICE AGREEMENT {parties}?")
    assert docs == {"transport"} and result.candidates[0].match == "title alias + parties"
    # Another contract number is another contract: refused, whatever the parties.
    report = kb.ask(f"What law governs the TRANSPORTATION SERVICE AGREEMENT Contract Identification FT18151 {parties}?")
    assert report.state == "SUBJECT_NOT_FOUND" and report.candidate_subjects == []


def test_a_title_holding_its_own_party_list(kb: KB) -> None:
    title = "AMENDMENT TO THE DISTRIBUTOR AGREEMENT BETWEEN NIMBUS TRADING AND ORION LABS"
    docs, result = kb.docs(f"What law governs the {title} between Nimbus Trading Inc. and Orion Labs LLC?")
    assert docs == {"amendment"}
    assert result.candidates[0].match == "title alias + parties"


def test_a_title_reading_is_refused_when_a_listed_party_is_not_bound(kb: KB) -> None:
    title = "AMENDMENT TO THE DISTRIBUTOR AGREEMENT BETWEEN NIMBUS TRADING AND ORION LABS"
    report = kb.ask(f"What law governs the {title} between Nimbus Trading Inc. and Zeta Corp?")
    assert report.state == "SUBJECT_NOT_FOUND" and report.candidate_subjects == []


def test_a_title_reading_passes_only_on_an_exact_title(kb: KB) -> None:
    # "Transportation Agreement between A and B" is no name of the contract: the title reading
    # would match only by kind, which it may not; the plain reading leaves "with Zeta Corp" unbound.
    report = kb.ask(
        "What law governs the Transportation Agreement between Great Lakes Gas Transmission LLC and "
        "Anr Pipeline Company with Zeta Corp?"
    )
    assert report.state == "SUBJECT_NOT_FOUND" and report.candidate_subjects == []


def test_an_amendment_alias_never_answers_for_the_agreement_it_amends(kb: KB) -> None:
    docs, _ = kb.docs("What law governs the Distributor Agreement between Nimbus Trading Inc. and Orion Labs LLC?")
    assert docs == set()
    docs, _ = kb.docs("What law governs the Development Agreement between Cargo Grain, Incorporated and Amber Bio S.A.S.?")
    assert docs == set()


def test_an_amendment_titled_by_its_preamble_keeps_its_number_and_heading(kb: KB) -> None:
    parties = "between Cargo Grain, Incorporated and Amber Bio S.A.S."
    for title in ("First Amendment", "AMENDMENT 1 TO DEVELOPMENT AGREEMENT", "Amendment No. 1 to the Development Agreement"):
        docs, _ = kb.docs(f"What law governs the {title} {parties}?")
        assert docs == {"first-amendment"}, title
    docs, _ = kb.docs(f"What law governs the Amendment No. 2 to the Development Agreement {parties}?")
    assert docs == set()
    (agreement,) = kb.store.find_subjects(OPERATOR, subject_ids=["agreement:first amendment@first-amendment"], limit=5)
    amends = [b for b in agreement.bindings if b.relation == "amends"]
    assert [(b.object_id, b.char_start, b.char_end) for b in amends] == [("agreement:development agreement", 0, 36)]


def test_an_amendment_named_only_in_its_heading_never_answers_for_its_parent(kb: KB) -> None:
    parties = "between Northwind Media Inc. and Quasar Games, Inc."
    # The parent its prose names is another agreement: never this amendment.
    for title in ("Wireless Content License Agreement", "Wireless Content License Agreement Number 12965"):
        docs, _ = kb.docs(f"What law governs the {title} {parties}?")
        assert docs == set(), title
    # The amendment itself, by its heading or with the parent its prose names.
    for title in ("Amendment No. 1", "First Amendment", "Amendment No. 1 to the Wireless Content License Agreement Number 12965"):
        docs, _ = kb.docs(f"What law governs the {title} {parties}?")
        assert docs == {"prose-parent"}, title
    # Another number, or another parent, is another amendment.
    for title in ("Amendment No. 2", "Amendment No. 1 to the Supply Agreement"):
        docs, _ = kb.docs(f"What law governs the {title} {parties}?")
        assert docs == set(), title
    (agreement,) = kb.store.find_subjects(OPERATOR, subject_ids=["agreement:amendment no 1@prose-parent"], limit=5)
    amends = [b for b in agreement.bindings if b.relation == "amends"]
    assert [(b.object_id, b.object_name) for b in amends] == [
        ("agreement:wireless content license agreement number 12965", "Wireless Content License Agreement Number 12965")
    ]
    assert PROSE_PARENT[amends[0].char_start : amends[0].char_end] == amends[0].object_name


# -- the title grammar: headings over lines, terms-and-conditions headings, self-labelled exhibits --


def test_a_caps_heading_split_over_two_lines_is_one_title() -> None:
    text = (
        "MASTER SERVICES\nAGREEMENT\n\n"
        'This Agreement is entered into as of March 1, 2020 by and between Acme Corp. ("Acme") and Beta LLC.\n'
    )
    title = find_title(text)
    assert title is not None and title.text == "MASTER SERVICES AGREEMENT"
    assert text[title.start : title.end] == "MASTER SERVICES\nAGREEMENT"


def test_a_heading_line_ending_in_and_joins_the_next_line() -> None:
    text = (
        "EXCLUSIVE DISTRIBUTION AND\nSUPPLY AGREEMENT\n\n"
        "This Agreement is made on June 2, 2019 between Acme Corp. and Beta LLC.\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "EXCLUSIVE DISTRIBUTION AND SUPPLY AGREEMENT"
    assert (title.start, title.end) == (0, len("EXCLUSIVE DISTRIBUTION AND\nSUPPLY AGREEMENT"))


def test_two_caps_lines_that_each_stand_alone_are_not_joined() -> None:
    text = "CONFIDENTIAL\nLICENSE AGREEMENT\n\nThis Agreement is made on June 2, 2019 between Acme Corp. and Beta LLC.\n"
    title = find_title(text)
    assert title is not None and title.text == "LICENSE AGREEMENT"
    assert text[title.start : title.end] == "LICENSE AGREEMENT"


def test_a_general_terms_and_conditions_heading_line_is_the_title() -> None:
    text = (
        "Cloud Platform General Terms and Conditions\n\n"
        "These terms govern the use of the platform by the customer named in the order form.\n"
    )
    title = find_title(text)
    assert title is not None and title.text == "Cloud Platform General Terms and Conditions"
    assert text[title.start : title.end] == title.text


def test_an_exhibit_that_is_entered_into_as_a_contract_is_titled_by_its_label_heading() -> None:
    text = (
        "EXHIBIT \"B\"\n\n"
        'This Exhibit "B" is entered into as of May 5, 2018 by and between Acme Corp. and Beta LLC, '
        "and sets out the marketing services.\n"
    )
    title = find_title(text)
    assert title is not None and text[title.start : title.end] == 'EXHIBIT "B"'


def test_an_agreement_named_in_prose_as_another_document_is_never_the_title() -> None:
    text = (
        "This statement of work is made a part of the Master Services Agreement dated January 1, 2019 "
        "between Acme Corp. and Beta LLC, and describes the services below.\n"
    )
    title = find_title(text)
    assert title is None or "Master Services Agreement" not in title.text
