"""Party and title shapes of stop 66 (issue 9), each found on the halves B of sets new16 and new17
(government memoranda, planning agreements, city service contracts; collected by helpers who read
no Attest code), read this stop after their clean figures were taken at stop 65. The names here
are invented. Each test but the guards fails on the code before its rule.

- A local government's state after its comma is part of its name however the term is defined
  ("THE CITY OF ASHBY FALLS, COLORADO, a Municipal Corporation, hereinafter referred to as the
  "City""), not only before a definition's parenthesis.
- A state's own word before "of the" joins the name after it ("Republic of the Westmarch", "The
  Government of the Republic of the Westmarch").
- A cover's line on the document's subject ("CONCERNING THE DEVELOPMENT OF ...") is no part of
  the name above it.
- A heading's own initials in brackets after it ("Memorandum of Understanding (MoU)") are its
  short name: the heading is still the title.
- A heading line naming its parties after its subject ("FRAMEWORK AGREEMENT FOR FINANCIAL
  COOPERATION BETWEEN ... AND ...") is titled up to its party list.
- A blank line right after a comma is the text layer's, inside the party's clause: the name before
  it is still the antecedent of the term after "represented herein by ..., hereinafter referred
  to as" ("The DEPARTMENT OF EDUCATION HARBOR CITY DIVISION,\n\n\nrepresented herein by ...").
- A British minister named by office ("THE SECRETARY OF STATE FOR TRANSPORT") is a party in its
  own name (a corporation sole): a cover names it as an organisation, and it is no office held at
  an organisation called "State for Transport" (from new20 A, a fresh set collected and scored
  clean this stop, then read).
- An item of a "Parties" list may close with its role's term in brackets without quotes ("Ashby
  Shire Council (Council).", after a company number too): the item names a party without a
  legal form.

The gate tests run on a real SQLite store filled by the real ingest pipeline (spaCy, MiniLM)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.names import name_at
from tests.helpers import agreement_title, bound_party_names
from tests.kb import KB, ingested_kb

SEATED_CITY = (
    "PROFESSIONAL SERVICES AGREEMENT WORK ORDER TYPE THIS AGREEMENT made and entered into the day and year set forth "
    "below by and between THE CITY OF ASHBY FALLS, COLORADO, a Municipal Corporation, hereinafter referred to as the "
    "\"City\" and Brightwater Engineers, hereinafter referred to as \"Professional\". WITNESSETH: In consideration of "
    "the mutual covenants herein, the parties agree as follows.\n"
)
GOVERNMENTS_COVER = (
    "MEMORANDUM OF UNDERSTANDING\n\nBETWEEN\nTHE GOVERNMENT OF THE REPUBLIC OF NORTHMARCH\nAND\n"
    "THE GOVERNMENT OF THE FEDERATED STATES OF SOUTHMARCH\nCONCERNING THE DEVELOPMENT AND\n"
    "IMPLEMENTATION OF STRATEGIC PORT PROJECTS\n\nPreamble\nThe two Governments, desiring to cooperate, have "
    "agreed as follows.\n"
)
REPUBLIC_OF_THE = (
    "September 15, 1994\n\n\nWESTMARCH INVESTMENT BANK\n\n"
    "FRAMEWORK AGREEMENT FOR FINANCIAL COOPERATION BETWEEN THE REPUBLIC OF THE WESTMARCH AND WESTMARCH INVESTMENT "
    "BANK\n\nTHIS CONTRACT IS MADE BETWEEN\n\nThe Government of the Republic of the Westmarch, represented by The "
    "Honourable Jorge Salas, Secretary of Finance\n\nhereinafter called \"the Government\",\n\nAND\n\n"
    "Westmarch Investment Bank, having its seat at 100 Harbor Boulevard, represented by its Vice-President\n\n"
    "hereinafter called \"the Bank\".\n"
)
INITIALS_HEADING = (
    "Memorandum of Understanding (MoU)\n             Ashby Metro Rail Corporation (AMRC)\n"
    "           Northmarch Institute of Technology (NIT)\n\nThe Memorandum of Understanding (MoU) is made and entered "
    "into on 3 March 2008 by and between Ashby Metro Rail Corporation (or AMRC, for short), with its office at 12 "
    "Quay Place, and Northmarch Institute of Technology (or NIT, for short), with its office at Hauz Lane.\n"
)
REPRESENTED_AFTER_BLANK = (
    "MEMORANDUM OF AGREEMENT\n\nKNOW ALL MEN BY THESE PRESENTS\n\nThis Memorandum of Agreement (MOA) made and entered "
    "into by and\n\n\nbetween:\nThe DEPARTMENT OF PORTS AND HARBORS, an office existing by virtue of Republic Act "
    "10844, represented herein by its UNDERSECRETARY, DENIS F. QUILLON, hereinafter referred to as the \u201cDPH\u201d.\n\n"
    "- and \u2013\n\nThe DEPARTMENT OF EDUCATION HARBOR CITY DIVISION,\n\n\nrepresented herein by its SCHOOL DIVISION "
    "SUPERINTENDENT,\nALONA C. ORVELLE duly authorized for the purpose, hereinafter referred\nto as the \u201cDEPED\u201d;\n\n"
    "WITNESSETH : THAT\n\nWHEREAS, the DPH is mandated to promote the national ICT agenda.\n"
)
MINISTER_COVER = (
    "EXHIBIT 10.19\n\n    DATED MARCH 1996\n\n    A1 LINK ROAD (QUILLTON TO HARBORHAM)\n\n    DBFO CONTRACT\n\n"
    "    THE SECRETARY OF STATE FOR TRANSPORT\n\n    AND\n\n    QUILLTON LINK LIMITED\n\n\n    INDEX OF SCHEDULES\n\n"
    "SCHEDULE 1      FINANCIAL MATTERS\n"
)
MINISTER_PROSE = (
    "SUPPLY AGREEMENT\n\nThis Agreement is made between THE SECRETARY OF STATE FOR TRADE AND INDUSTRY (the \"Secretary "
    "of State\") and Quillton Instruments Limited, a company registered in England (the \"Supplier\").\n"
)
UNQUOTED_ROLES = (
    "Planning Agreement\n\nDated\n\nParties\n\nAshby Shire Council (Council).\n\n"
    "Kestrel House 12 Pty Ltd (ACN 100 200 300) (Developer).\n\nBackground\n\nThe Developer owns the Land.\n"
)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "shapes-s66", {"seated": SEATED_CITY, "framework": REPUBLIC_OF_THE, "planning": UNQUOTED_ROLES}
    )


def test_a_local_governments_state_is_read_before_a_hereinafter_term() -> None:
    # Before: "THE CITY OF ASHBY FALLS" was bound, the state left out.
    assert bound_party_names(SEATED_CITY) == {"THE CITY OF ASHBY FALLS, COLORADO", "Brightwater Engineers"}


def test_the_seated_city_passes_the_gate_and_the_bare_city_is_still_its_name(kb: KB) -> None:
    docs, _ = kb.docs(
        "What law governs the Professional Services Agreement between City of Ashby Falls, Colorado and Brightwater "
        "Engineers?"
    )
    assert docs == {"seated"}
    # (A local government is also asked for without its state, as before: ``party_name_forms``.)
    docs, _ = kb.docs("What law governs the Professional Services Agreement between City of Ashby Falls and Brightwater Engineers?")
    assert docs == {"seated"}


def test_a_states_own_word_joins_the_name_after_of_the() -> None:
    text = "The Government of the Republic of the Westmarch, represented by The Honourable Jorge Salas"
    assert name_at(text, 0, len(text)).text == "The Government of the Republic of the Westmarch"
    text = "Republic of the Westmarch, represented by its Minister"
    assert name_at(text, 0, len(text)).text == "Republic of the Westmarch"


def test_guard_a_company_still_stops_before_of_the() -> None:
    # A name with a legal form never continues over "of the" ("Acme Inc. of the one part").
    text = "Kestrel Holdings Inc. of the one part and Brightwater LLC of the other part"
    assert name_at(text, 0, len(text)).text == "Kestrel Holdings Inc."


def test_the_government_of_the_republic_is_bound_whole() -> None:
    # Before: "The Government" was bound beside the heading's "THE REPUBLIC OF THE WESTMARCH".
    assert "The Government of the Republic of the Westmarch" in bound_party_names(REPUBLIC_OF_THE)
    assert "The Government" not in bound_party_names(REPUBLIC_OF_THE)


def test_a_cover_line_on_the_subject_is_no_part_of_the_name_above() -> None:
    # Before: "... SOUTHMARCH\nCONCERNING THE" was read as one name and dropped as prose.
    assert bound_party_names(GOVERNMENTS_COVER) == {
        "THE GOVERNMENT OF THE REPUBLIC OF NORTHMARCH",
        "THE GOVERNMENT OF THE FEDERATED STATES OF SOUTHMARCH",
    }


def test_guard_a_name_whose_next_line_opens_with_another_word_still_runs_on() -> None:
    text = "ACME\nCONCERNS INC.\n"
    assert name_at(text, 0, len(text)).text == "ACME\nCONCERNS INC."


def test_a_headings_own_initials_leave_the_heading_the_title() -> None:
    # Before: no heading was read; the agreement was titled "Agreement".
    assert agreement_title(INITIALS_HEADING) == "Memorandum of Understanding"
    assert bound_party_names(INITIALS_HEADING) == {"Ashby Metro Rail Corporation", "Northmarch Institute of Technology"}


def test_guard_a_bracket_that_spells_other_initials_is_no_short_name() -> None:
    text = "MEMORANDUM OF UNDERSTANDING (XYZ)\n\nThis MOU is made between Kestrel Inc. and Brightwater Ltd.\n"
    assert agreement_title(text) != "MEMORANDUM OF UNDERSTANDING"


def test_a_heading_line_is_titled_up_to_its_party_list() -> None:
    # Before: "FRAMEWORK AGREEMENT".
    assert agreement_title(REPUBLIC_OF_THE) == "FRAMEWORK AGREEMENT FOR FINANCIAL COOPERATION"


def test_the_framework_agreement_passes_the_gate_by_its_title_and_its_head(kb: KB) -> None:
    for title in ("Framework Agreement for Financial Cooperation", "Framework Agreement"):
        docs, _ = kb.docs(
            f"What law governs the {title} between The Government of the Republic of the Westmarch and Westmarch "
            "Investment Bank?"
        )
        assert docs == {"framework"}, title
    # (A subject the heading does not name is another agreement.)
    docs, _ = kb.docs(
        "What law governs the Framework Agreement for Technical Cooperation between The Government of the Republic "
        "of the Westmarch and Westmarch Investment Bank?"
    )
    assert docs == set()


def test_a_blank_line_after_a_comma_stays_inside_the_partys_clause() -> None:
    # Before: only the first department was bound; the second's term had no antecedent.
    assert bound_party_names(REPRESENTED_AFTER_BLANK) == {
        "The DEPARTMENT OF PORTS AND HARBORS",
        "The DEPARTMENT OF EDUCATION HARBOR CITY DIVISION",
    }


def test_guard_a_blank_line_after_a_full_stop_still_ends_the_clause() -> None:
    from tests.helpers import defined_terms

    text = "BRAMBLE THERAPEUTICS, INC.\n\nTHIS CERTIFIES THAT for value received, Lakemont Fund II, L.P. (the \"Holder\") may buy.\n"
    assert defined_terms(text)["Holder"] == "Lakemont Fund II, L.P."


def test_a_secretary_of_state_is_a_party_in_its_own_name() -> None:
    # Before: the cover's minister was not read, and in prose "STATE FOR TRADE AND INDUSTRY" was bound.
    assert bound_party_names(MINISTER_COVER) == {"THE SECRETARY OF STATE FOR TRANSPORT", "QUILLTON LINK LIMITED"}
    assert bound_party_names(MINISTER_PROSE) == {"THE SECRETARY OF STATE FOR TRADE AND INDUSTRY", "Quillton Instruments Limited"}


def test_guard_another_office_still_stands_for_its_organisation() -> None:
    from ingest.names import NameSpan, office_holders_organisation

    for text, organisation in (
        ("the Secretary of State of the State of Texas", "State of the State of Texas"),
        ("Chief Executive Officer of Kestrel Inc.", "Kestrel Inc."),
    ):
        assert office_holders_organisation(text, NameSpan(text, 0, len(text))).text == organisation


def test_a_parties_list_item_may_close_with_an_unquoted_role() -> None:
    # Before: only the developer, whose name has a legal form, was bound.
    assert bound_party_names(UNQUOTED_ROLES) == {"Ashby Shire Council", "Kestrel House 12 Pty Ltd"}


def test_the_planning_agreement_passes_the_gate(kb: KB) -> None:
    docs, _ = kb.docs("What law governs the Planning Agreement between Ashby Shire Council and Kestrel House 12 Pty Ltd?")
    assert docs == {"planning"}
    docs, _ = kb.docs("What law governs the Planning Agreement between Ashby Shire Council and Kestrel House 14 Pty Ltd?")
    assert docs == set()


def test_guard_an_unquoted_role_needs_the_list_and_a_terms_shape() -> None:
    # Without the "Parties" lead the lines are no list; a bracket of lower-case words is no term.
    without_lead = UNQUOTED_ROLES.replace("Parties\n\n", "")
    assert bound_party_names(without_lead) == {"Kestrel House 12 Pty Ltd"}
    described = UNQUOTED_ROLES.replace("(Council)", "(consent authority)")
    assert bound_party_names(described) == {"Kestrel House 12 Pty Ltd"}
