"""Party-clause shapes the held-out probe (``bench/data/party_shapes_fresh.json``, written for
issue 9 from SEC-exhibit contract forms before any CUAD text was read) found unbound on main, with
the real spaCy pipeline: each bound party's exact name and the exact source text of its
``party_to`` binding, and the names that must never be bound.
"""

from __future__ import annotations

import pytest

from bench.party_shapes import load_fresh, probe_case
from ingest.annotate import _model_clause_names
from ingest.names import name_at, party_name_forms
from ingest.party_clauses import NO_PARTY_CLAUSE, party_clauses
from tests.test_party_shapes_general import _bound_spans, _span

# Per shape: the party clause, per bound party the exact source text of its binding.
SHAPES: dict[str, tuple[str, dict[str, str]]] = {
    # A legal form whose later part is lower case is read whole, not "S.à" as a word.
    "s_a_r_l": (
        "FACILITY AGREEMENT\n\nThis Agreement is made between Orion Lux Holdings S.à r.l. (the \"Borrower\") and "
        "Kestrel Credit Opportunities Fund, L.P. (the \"Lender\").\n\n1. Facility.\n",
        {
            "Orion Lux Holdings S.à r.l.": "Orion Lux Holdings S.à r.l. (the \"Borrower\")",
            "Kestrel Credit Opportunities Fund, L.P.": "Kestrel Credit Opportunities Fund, L.P. (the \"Lender\")",
        },
    ),
    # "GmbH & Co. KG" is one legal form: the limited partnership, not "GmbH" and "Co. KG".
    "gmbh_co_kg": (
        "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Müller Verpackung GmbH & Co. KG, "
        "Industriestraße 12, 70565 Stuttgart, Germany (\"Müller\"), and Pacific Packaging Solutions, Inc. "
        "(\"PPS\").\n\n1. Supply.\n",
        {
            "Müller Verpackung GmbH & Co. KG": "Müller Verpackung GmbH & Co. KG, Industriestraße 12, 70565 "
            "Stuttgart, Germany (\"Müller\")",
            "Pacific Packaging Solutions, Inc.": "Pacific Packaging Solutions, Inc. (\"PPS\")",
        },
    ),
    # A lower-case "the" before a defined party is no part of its name.
    "the_city_of": (
        "COOPERATIVE RESEARCH AND DEVELOPMENT AGREEMENT\n\nThis Agreement is entered into by and between the "
        "City of Riverton, a municipal corporation (\"City\"), and GreenGrid Utilities, Inc. (\"Contractor\")."
        "\n\n1. Work.\n",
        {
            "City of Riverton": "City of Riverton, a municipal corporation (\"City\")",
            "GreenGrid Utilities, Inc.": "GreenGrid Utilities, Inc. (\"Contractor\")",
        },
    ),
    # "and the <Name> dated <date> (the "Trust")": the last party of a list, after "and the".
    "and_the_trust_dated": (
        "VOTING AGREEMENT\n\nThis Voting Agreement is entered into as of February 12, 2015 by and among "
        "Larkspur Therapeutics, Inc., a Delaware corporation (the \"Company\"), Robert A. Finley, an individual "
        "(\"Finley\"), and the Finley Family Irrevocable Trust dated May 1, 2009 (the \"Trust\").\n\n1. Voting.\n",
        {
            "Larkspur Therapeutics, Inc.": "Larkspur Therapeutics, Inc., a Delaware corporation (the \"Company\")",
            "Robert A. Finley": "Robert A. Finley, an individual (\"Finley\")",
            "Finley Family Irrevocable Trust": "Finley Family Irrevocable Trust dated May 1, 2009 (the \"Trust\")",
        },
    ),
    # A British individual "of <street number> ...": the address is no part of the name.
    "person_of_address": (
        "CONSULTANCY AGREEMENT\n\nTHIS AGREEMENT is dated 5 May 2019\n\nPARTIES\n\n(1) Kingsbridge Advisory LLP, "
        "a limited liability partnership registered in England with number OC301234 (\"Kingsbridge\");\n\n"
        "(2) Sarah Jane Whitmore of 14 Elm Road, Oxford OX2 6HA (the \"Consultant\").\n\nAGREED TERMS\n",
        {
            "Kingsbridge Advisory LLP": "Kingsbridge Advisory LLP, a limited liability partnership registered in "
            "England with number OC301234 (\"Kingsbridge\")",
            "Sarah Jane Whitmore": "Sarah Jane Whitmore of 14 Elm Road, Oxford OX2 6HA (the \"Consultant\")",
        },
    ),
    # A generational suffix closes a person's name.
    "person_jr": (
        "SEPARATION AGREEMENT\n\nThis Separation Agreement is made between Thomas J. Whitaker, Jr. (\"Employee\") "
        "and Cardinal Freight Lines, Inc. (\"Company\").\n\n1. Separation.\n",
        {
            "Thomas J. Whitaker, Jr.": "Thomas J. Whitaker, Jr. (\"Employee\")",
            "Cardinal Freight Lines, Inc.": "Cardinal Freight Lines, Inc. (\"Company\")",
        },
    ),
    # A cover page's role field alone on its line names a party without a legal form.
    "cover_page_field": (
        "SOFTWARE LICENSE AGREEMENT\n\nLicensor: Quantum Ledger Technologies, Inc.\nLicensee: Westshore Credit "
        "Union\nEffective Date: July 1, 2019\n\nThe Licensor and the Licensee agree to the terms below.\n\n"
        "1. License.\n",
        {
            "Quantum Ledger Technologies, Inc.": "Quantum Ledger Technologies, Inc.",
            "Westshore Credit Union": "Westshore Credit Union",
        },
    ),
    # An end-of-line hyphen inside a name: one word, the span exactly as written.
    "line_end_hyphen": (
        "SERVICES AGREEMENT\n\nThis Agreement is made as of May 5, 2011 between Thunder-\nbird Logistics, Inc. "
        "(\"Thunderbird\") and Calloway Freight Services LLC (\"Carrier\").\n\n1. Services.\n",
        {
            "Thunderbird Logistics, Inc.": "Thunder-\nbird Logistics, Inc. (\"Thunderbird\")",
            "Calloway Freight Services LLC": "Calloway Freight Services LLC (\"Carrier\")",
        },
    ),
    # A fund's roman numeral before its legal form is no shouted name of its own.
    "signature_fund_roman_numeral": (
        "AGREEMENT\n\nThe parties identified in the signature blocks below agree as follows.\n\n1. Terms.\n\n"
        "IN WITNESS WHEREOF, the parties have executed this Agreement.\n\nCOMPANY:\nRedfern Solar Holdings, Inc."
        "\n\nBy: _____________________\nName: Peter Alvarez\nTitle: CFO\n\nINVESTOR:\nGreenfield Impact Fund I, "
        "L.P.\n\nBy: Greenfield Impact GP, LLC, its general partner\n\nBy: _____________________\nName: Sara Kim\n",
        {
            "Redfern Solar Holdings, Inc.": "Redfern Solar Holdings, Inc.",
            "Greenfield Impact Fund I, L.P.": "Greenfield Impact Fund I, L.P.",
        },
    ),
    # A recital about another agreement its subject entered into names no party of this one.
    "recital_subject_of_another_agreement": (
        "SUBORDINATION AGREEMENT\n\nThis Subordination Agreement is made as of October 10, 2019 by and between "
        "Keel Capital Partners, L.P. (\"Senior Lender\") and Driftwood Mezzanine Fund LLC (\"Junior Lender\")."
        "\n\nRECITALS\n\nWHEREAS, Tessera Homes Inc. (\"Borrower\") has entered into a Loan Agreement with Senior "
        "Lender, the obligations under which are guaranteed by Tessera Group Holdings Corp. (\"Guarantor\") "
        "pursuant to a Guaranty dated as of May 1, 2018;\n\n1. Subordination.\n",
        {
            "Keel Capital Partners, L.P.": "Keel Capital Partners, L.P. (\"Senior Lender\")",
            "Driftwood Mezzanine Fund LLC": "Driftwood Mezzanine Fund LLC (\"Junior Lender\")",
        },
    ),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_fresh_shape_binds_exactly_its_parties_with_their_source_spans(shape: str) -> None:
    text, expected = SHAPES[shape]
    assert _bound_spans(text) == {name: _span(text, source) for name, source in expected.items()}


def test_a_recital_subject_that_is_a_party_of_this_agreement_still_binds() -> None:
    # The recital tells what the party is, not of another agreement it entered into.
    text = (
        "PURCHASE AGREEMENT\n\nThis Agreement is made by and between Alpha Widgets Inc. (\"Buyer\") and the "
        "Seller.\n\nRECITALS\n\nWHEREAS, Jane Quill Roe (\"Roe\") is the Seller and owns the Shares;\n\n1. Sale.\n"
    )
    assert set(_bound_spans(text)) == {"Alpha Widgets Inc.", "Jane Quill Roe"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Orion Lux Holdings S.à r.l. (the", "Orion Lux Holdings S.à r.l."),
        ("Acme Servicios S. de R.L. de C.V., a", "Acme Servicios S. de R.L. de C.V."),
        ("CORVUS FINANCE S.A R.L., a", "CORVUS FINANCE S.A R.L."),
        ("Müller Verpackung GmbH & Co. KG, Industriestraße 12", "Müller Verpackung GmbH & Co. KG"),
        ("Thomas J. Whitaker, Jr. (\"Employee\")", "Thomas J. Whitaker, Jr."),
        ("John Roe, Sr. Vice President", "John Roe"),
        ("Thunder-\nbird Logistics, Inc. (", "Thunder-\nbird Logistics, Inc."),
        # A capitalised rest after a line-end hyphen is a word of its own.
        ("F. Hoffmann-\nLa Roche Ltd, with", "F. Hoffmann-\nLa Roche Ltd"),
    ],
)
def test_name_at_reads_the_new_shapes_exactly(text: str, expected: str) -> None:
    found = name_at(text, 0, len(text))
    assert found is not None and (found.text, found.start, found.end) == (expected, 0, len(expected))


def test_a_line_end_hyphen_is_rejoined_in_the_party_name() -> None:
    assert party_name_forms("Thunder-\nbird Logistics, Inc.") == ["Thunderbird Logistics, Inc."]
    # A hyphen inside a line stays: "Walsh-Nevada".
    assert party_name_forms("Walsh-Nevada, Inc.") == ["Walsh-Nevada, Inc."]


@pytest.mark.parametrize("case", sorted(load_fresh()))
def test_fresh_probe_case_binds_exactly(case: str) -> None:
    """Every clause of the held-out probe, negatives included (a parent after "a subsidiary of",
    an agent, a guarantor cited in the recitals, an address)."""
    assert probe_case(case, load_fresh()) == ([], [])


def test_a_lower_case_initialism_opens_a_name_in_the_party_clause() -> None:
    text = (
        "COOPERATION AGREEMENT\n\nThis Cooperation Agreement is made between e.l.f. Beauty, Inc., a Delaware "
        "corporation (\"e.l.f.\"), and Marathon Partners L.P. (\"Marathon\").\n\n1. Terms.\n"
    )
    assert _bound_spans(text) == {
        "e.l.f. Beauty, Inc.": _span(text, "e.l.f. Beauty, Inc., a Delaware corporation (\"e.l.f.\")"),
        "Marathon Partners L.P.": _span(text, "Marathon Partners L.P. (\"Marathon\")"),
    }


def test_the_models_name_after_a_lower_case_initialism_is_read_whole() -> None:
    # The model's entity (given here as spans, the way spaCy reports it) starts at "Beauty".
    text = (
        "This Cooperation Agreement is made between the following parties: e.l.f. Beauty, Inc. and the "
        "investors named herein.\n\n1. Terms."
    )
    begin = text.index("Beauty")
    names = _model_clause_names(text, [(begin, begin + len("Beauty, Inc"), "ORG")], frozenset())
    start = text.index("e.l.f.")
    assert [(n.text, n.start, n.end, label) for n, label in names] == [
        ("e.l.f. Beauty, Inc.", start, start + len("e.l.f. Beauty, Inc."), "ORG")
    ]


@pytest.mark.parametrize("text", ["i.e. Acme Inc.", "a.m. Eastern Time", "a.k.a. Beta Corp."])
def test_two_letter_or_joiner_initialisms_open_no_name(text: str) -> None:
    assert name_at(text, 0, len(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        "This is the entire agreement between the parties.",
        "Any dispute between each party and its affiliates.",
        "Nothing between us shall be construed.",
    ],
)
def test_a_between_that_names_no_one_opens_no_party_clause(text: str) -> None:
    start = text.index("between")
    assert NO_PARTY_CLAUSE.match(text, start) is not None
    assert party_clauses(text) == []
