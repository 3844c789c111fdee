"""Binding by the agreement's own text (issue 9): the party clauses recorded at ingest (preamble,
Parties section, signature block) and the party-slot reader that finds a name in them exactly,
after the registry's normalisation. Places, addresses, parents after "a subsidiary of", agents
after "c/o", principals after "on behalf of" and signatories are never party slots. The gate does
not bind by the reader (it is not safe enough yet, see bench/gate_eval.py --adversarial): a name
only the party clause names is refused, and every party of a candidate cites its party_to span.

The clause and slot readers are tested on text; the gate on a real SQLite store filled by the
real ingest pipeline (spaCy, MiniLM). Nothing is mocked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.party_clauses import PREAMBLE, SIGNATURE_BLOCK, clause_records, party_clauses
from service.evidence import gate
from service.evidence.party_slots import find_party
from tests.kb import KB, OPERATOR, ingested_kb

RESELLER = (
    "RESELLER AGREEMENT\n\nThis Reseller Agreement (\"Agreement\") is made and entered into as of July 31, 2019 by and "
    "between Vayyar Imaging Ltd., having its principal place of business at 3 Avraham Giron St., Yehud 5621717, Israel "
    "(\"Supplier\"), and Inde Living Holdings, Inc., a wholly owned subsidiary of Gamma Group plc, having its principal "
    "place of business at 1462 Rudder Lane, Knoxville, TN 37919, c/o Delta Management LLC (\"Reseller\").\n\n"
    "1. Governing Law. This Agreement shall be governed by the laws of the State of New York.\n\n"
    "IN WITNESS WHEREOF, the Parties have executed this Agreement as of the Effective Date.\n\n"
    "VAYYAR IMAGING LTD.\nBy: /s/ Raviv Melamed\nName: Raviv Melamed\nTitle: Chief Executive Officer\n\n"
    "INDE LIVING HOLDINGS, INC.\nBy: /s/ Robert Forrest\nName: Robert Forrest\nTitle: Chief Executive Officer\n"
)
SUPPLY = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and between Establishment Labs, S.A, a company of Costa Rica, "
    "and 695014 B.C. Ltd. dba Galaxy Telecom, a British Columbia company, and The University of Iowa, on behalf of "
    "Hawkeye Research Fund.\n\n1. Governing Law. This Agreement shall be governed by the laws of the State of Iowa.\n"
)
LICENSE = (
    "LICENSE AGREEMENT\n\nTHIS LICENSE AGREEMENT is made between e.l.f. Beauty, Inc., and its Licensee, Marathon "
    "Partners L.P., and F. Hoffmann-La Roche Ltd, a subsidiary of Roche Holding AG.\n\n"
    "1. Governing Law. This Agreement shall be governed by the laws of Switzerland.\n"
)
IP = (
    "INTELLECTUAL PROPERTY AGREEMENT\n\nThis Intellectual Property Agreement is entered into in ShenZhen on February "
    "08, 2007 between the following two parties:\n\nParty A: JingWei HengTong Technology (ShenZhen) Co., Ltd. "
    "Registration Address: Room 1605 B, Tianan Hi-tech Plaza Tower A, Futian District, Shenzhen, China\n\n"
    "Party B: ShenZhen JingWei Communication Co., Ltd. Registration Address: Tianxiang Building Block A 13th, Futian "
    "District, Shenzhen.\n\n1. Governing Law. This Agreement shall be governed by the laws of the People's Republic "
    "of China.\n"
)


def _clause(text: str, source: str) -> dict:
    return next(c for c in clause_records(text) if c["source"] == source)


# -- the clauses recorded at ingest ----------------------------------------------------------------


def test_preamble_and_signature_block_are_recorded_with_their_spans() -> None:
    clauses = party_clauses(RESELLER)
    assert [c.source for c in clauses] == [PREAMBLE, SIGNATURE_BLOCK]
    preamble, signature = clauses
    # The preamble is its one sentence (never cut at "St." or "Inc."); the signature
    # block runs from the last "IN WITNESS WHEREOF" to the end of this short text.
    # (Its "." before a numbered section: the section break ends it, one line break in.)
    assert (preamble.start, preamble.end) == (RESELLER.index("This Reseller"), RESELLER.index("\n1. Governing"))
    assert (signature.start, signature.end) == (RESELLER.index("IN WITNESS"), len(RESELLER))
    record = _clause(RESELLER, PREAMBLE)
    assert record["text"] == RESELLER[preamble.start : preamble.end]


def test_a_parties_section_is_recorded() -> None:
    text = "DEED\n\nPARTIES\n\n(1) ACME LIMITED of 1 High Street; and\n(2) BETA GMBH.\n\nRECITALS\n\n(A) ...\n"
    (clause,) = [c for c in party_clauses(text) if c.source == "parties_section"]
    assert text[clause.start : clause.end] == "\n\n(1) ACME LIMITED of 1 High Street; and\n(2) BETA GMBH.\n\n"
    record = next(c for c in clause_records(text) if c["source"] == "parties_section")
    slot = find_party(record, "Beta GmbH")
    assert slot is not None and (slot.start, slot.end) == (text.index("BETA GMBH."), text.index("BETA GMBH.") + 10)


def test_a_text_without_a_party_clause_records_none() -> None:
    # "between the parties" names no one; no "IN WITNESS WHEREOF", no "Parties" heading.
    assert party_clauses("Meeting notes.\n\nThe budget was agreed between the parties.\n") == []


# -- party slots -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "slot"),
    [
        (SUPPLY, "The University of Iowa", "The University of Iowa"),
        (SUPPLY, "Establishment Labs, S.A", "Establishment Labs, S.A"),
        (SUPPLY, "695014 B.C. Ltd. dba Galaxy Telecom", "695014 B.C. Ltd. dba Galaxy Telecom"),
        (LICENSE, "e.l.f. Beauty, Inc.", "e.l.f. Beauty, Inc."),
        (LICENSE, "F. Hoffmann-La Roche Ltd", "F. Hoffmann-La Roche Ltd"),
        # Exact after normalisation: the legal form may be left out, never a word of the name.
        (RESELLER, "Inde Living Holdings", "Inde Living Holdings, Inc."),
        (IP, "JingWei HengTong Technology", "JingWei HengTong Technology"),
    ],
)
def test_a_name_in_a_party_slot_is_found_with_its_exact_span(text: str, name: str, slot: str) -> None:
    found = find_party(_clause(text, PREAMBLE), name)
    assert found is not None
    start = text.index(slot)
    assert (found.source, found.start, found.end, found.text) == (PREAMBLE, start, start + len(slot), slot)


@pytest.mark.parametrize(
    ("text", "name", "slot"),
    [
        (
            "CONSULTING AGREEMENT\n\nThis Consulting Agreement is entered into by and between\n\nKiromic, Inc.\n\n"
            "and\n\nNIGEL CROCKETT\n\n1. Services.\n", "Nigel Crockett", "NIGEL CROCKETT",
        ),
        ("LICENSE\n\nBETWEEN:\n\nACME HOLDINGS LIMITED\n\nAND:\n\nJOHN SMITH, an individual\n\nWHEREAS ...", "John Smith", "JOHN SMITH"),
    ],
)
def test_a_laid_out_preamble_names_its_parties_line_by_line(text: str, name: str, slot: str) -> None:
    found = find_party(_clause(text, PREAMBLE), name)
    assert found is not None and (found.start, found.end) == (text.index(slot), text.index(slot) + len(slot))


def test_the_fund_a_general_partner_signs_for_is_a_slot() -> None:
    text = (
        "IN WITNESS WHEREOF, the parties have signed.\n\nBETA FUND L.P.\nBy: its General Partner\n"
        "ACME MANAGEMENT LLC\nBy: /s/ Jane Roe\nName: Jane Roe\n"
    )
    found = find_party(_clause(text, SIGNATURE_BLOCK), "Beta Fund L.P.")
    assert found is not None and (found.start, found.end) == (text.index("BETA FUND"), text.index("BETA FUND") + 14)


def test_the_signing_company_of_a_signature_block_is_a_slot() -> None:
    found = find_party(_clause(RESELLER, SIGNATURE_BLOCK), "Inde Living Holdings, Inc.")
    start = RESELLER.index("INDE LIVING HOLDINGS, INC.")
    assert found is not None and (found.source, found.start, found.end) == (SIGNATURE_BLOCK, start, start + 26)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        (RESELLER, "Knoxville"),  # a city inside an address
        (RESELLER, "Yehud"),
        (RESELLER, "Israel"),  # a country
        (RESELLER, "Rudder Lane"),  # a street
        (RESELLER, "Gamma Group plc"),  # the parent after "a subsidiary of"
        (RESELLER, "Delta Management LLC"),  # an agent after "c/o"
        (RESELLER, "Raviv Melamed"),  # a signatory
        (RESELLER, "Robert Forrest"),
        (RESELLER, "Chief Executive Officer"),  # a signatory's title
        (SUPPLY, "Hawkeye Research Fund"),  # the principal after "on behalf of"
        (SUPPLY, "Costa Rica"),  # after "a company of"
        (SUPPLY, "Galaxy Telecom"),  # a trade name alone, after "dba"
        (SUPPLY, "Labs"),  # a word of a name
        (LICENSE, "Roche Holding AG"),
        (LICENSE, "Beauty, Inc."),  # the name without its first word
        (LICENSE, "Switzerland"),
        (IP, "Futian District"),
        (IP, "Shenzhen"),
        (IP, "Tianan Hi-tech Plaza Tower A"),
        (IP, "Hoffmann-La Roche"),  # a name of another contract
    ],
)
def test_non_party_names_of_the_party_clause_are_never_slots(text: str, name: str) -> None:
    assert all(find_party(clause, name) is None for clause in clause_records(text))


def test_a_name_is_read_up_to_the_bound_and_refused_past_it() -> None:
    from service.evidence.party_slots import MAX_NAME_CHARS

    name = "Acme " + "X" * (MAX_NAME_CHARS - 10) + " Inc."
    assert len(name) == MAX_NAME_CHARS
    text = f"AGREEMENT\n\nThis Agreement is made between {name} and Beta LLC.\n"
    found = find_party(_clause(text, PREAMBLE), name)
    assert found is not None and (found.start, found.end) == (text.index("Acme"), text.index("Acme") + MAX_NAME_CHARS)
    longer = name.replace("Acme", "Acmes")
    text = text.replace("Acme", "Acmes")
    assert find_party(_clause(text, PREAMBLE), longer) is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # Shapes found by the adversarial bench on CUAD tune (written anew here): a clause word,
        # the agreement's own name, a legal form alone, a role, a group's defined term, a state
        # before its legal form, half of a name joined by "and", a "between" in a definition.
        ("AGREEMENT\n\nBY AND BETWEEN ACME INC. (\"Acme\") AND BETA LLC (\"Beta\").\n", "By"),
        ("THIS CO-BRANDING AGREEMENT (the \"Agreement\") is made between Acme Inc. and Beta LLC.\n", "This Co-Branding Agreement"),
        ("THIS AGREEMENT is made between Acme Private Ltd. (\"Acme\") and Beta LLC.\n", "Ltd"),
        ("IN WITNESS WHEREOF, the parties have signed.\n\nThe COMPANY\nBy: /s/ A. Person\n", "Company"),
        ("IN WITNESS WHEREOF, the parties have signed.\n\nFlorida limited\nBy: /s/ A. Person\n", "Florida"),
        (
            "This Amendment is made among (1) Veoneer AB, and (2) Nissin Kogyo Co., Ltd. and Nissin Holding Inc. "
            "(together, the Nissin Parties), as an amendment.\n", "Nissin Parties",
        ),
        ("This Agreement is made between LOUISVILLE GAS AND ELECTRIC COMPANY and Acme Inc.\n", "Louisville Gas"),
        ("This Agreement is made between LOUISVILLE GAS AND ELECTRIC COMPANY and Acme Inc.\n", "Electric Company"),
        ("\"Services\" means the services provided between SEV and DCL (\"Parties\") under the plan.\n", "SEV"),
        ("Between: Acme Inc., of Ft. Lauderdale;\n\nAnd:\n\nA Seminole Indian Company to be formed by J. Doe\n", "A Seminole Indian Company"),
        # A signatory and an entity signing for a party are no parties.
        ("This Agreement is made by Acme Inc. and executed by John Smith, its President.\n", "John Smith"),
        (
            "IN WITNESS WHEREOF, the parties have signed.\n\nBETA FUND L.P.\nBy: its General Partner\n"
            "ACME MANAGEMENT LLC\nBy: /s/ Jane Roe\nName: Jane Roe\n", "Acme Management LLC",
        ),
    ],
)
def test_words_that_are_no_party_name_are_never_slots(text: str, name: str) -> None:
    assert all(find_party(clause, name) is None for clause in clause_records(text))


def test_two_names_joined_in_one_slot_are_not_one_party() -> None:
    text = "AGREEMENT\n\nThis Agreement is made between Acme Inc. and Beta LLC (\"Parties\").\n"
    assert find_party(_clause(text, PREAMBLE), "Acme Inc. and Beta LLC") is None
    assert find_party(_clause(text, PREAMBLE), "Beta LLC") is not None


# -- the gate on a real store ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "party-clause-kb",
        {"reseller": RESELLER, "supply": SUPPLY, "license": LICENSE, "ip": IP},
    )


def test_a_name_only_the_party_clause_names_is_still_refused(kb: KB) -> None:
    # The slot reader finds "JingWei HengTong Technology" in the preamble (tested above), but the
    # gate does not bind by the party clause's text: on the held-out report split the adversarial
    # bench found 2 of 723 non-party names in a slot (bench/gate_eval.py --adversarial), so it is
    # not safe to answer on. The extracted name is the longer one, which the question does not say.
    question = (
        "What law governs the Intellectual Property Agreement between JingWei HengTong Technology and ShenZhen "
        "JingWei Communication Co., Ltd.?"
    )
    docs, result = kb.docs(question)
    assert docs == set()
    assert result.rejected == [{
        "subject_id": "agreement:intellectual property agreement@ip",
        "reason": "no party_to binding to this agreement for 'JingWei HengTong Technology'",
    }]


def test_every_party_of_a_candidate_cites_its_party_to_binding(kb: KB) -> None:
    docs, result = kb.docs(
        "What law governs the Reseller Agreement between Vayyar Imaging Ltd. and Inde Living Holdings, Inc.?"
    )
    assert docs == {"reseller"}
    (candidate,) = result.candidates
    party_bindings = {
        party.subject_id: binding
        for party in kb.store.find_subjects(OPERATOR, relation="party_to", parent_id=candidate.subject_id, limit=100)
        for binding in sorted(party.bindings, key=lambda b: b.char_start)[:1]
        if binding.relation == "party_to"
    }
    assert candidate.parties and {p["subject_id"] for p in candidate.parties} == set(party_bindings)
    for party in candidate.parties:
        binding = party_bindings[party["subject_id"]]
        assert party["source"] == {
            "binding": "party_to", "doc_id": "reseller", "revision": binding.revision,
            "char_start": binding.char_start, "char_end": binding.char_end,
        }
    view = gate.candidate_view(candidate)
    # The report keeps the party clauses' spans, not their text.
    assert view["class_attributes"]["attributes"]["party_clauses"] == [
        {"source": PREAMBLE, "char_start": RESELLER.index("This Reseller"), "char_end": RESELLER.index("\n1. Governing")},
        {"source": SIGNATURE_BLOCK, "char_start": RESELLER.index("IN WITNESS"), "char_end": len(RESELLER)},
    ]


@pytest.mark.parametrize(
    "question",
    [
        "What law governs the Reseller Agreement between Vayyar Imaging Ltd. and Knoxville?",
        "What law governs the Reseller Agreement between Vayyar Imaging Ltd. and Gamma Group plc?",
        "What law governs the Reseller Agreement between Vayyar Imaging Ltd. and Delta Management LLC?",
        "What law governs the Reseller Agreement between Vayyar Imaging Ltd. and Raviv Melamed?",
        "What law governs the Reseller Agreement between Vayyar Imaging Ltd. and Israel?",
        "What law governs the Supply Agreement between Establishment Labs, S.A and Hawkeye Research Fund?",
        "What law governs the Supply Agreement between Establishment Labs, S.A and Costa Rica?",
        "What law governs the Intellectual Property Agreement between JingWei HengTong Technology and Futian District?",
        # A party of another contract in the KB, with this contract's title.
        "What law governs the License Agreement between e.l.f. Beauty, Inc. and The University of Iowa?",
        "What law governs the Supply Agreement between The University of Iowa and Vayyar Imaging Ltd.?",
    ],
)
def test_non_party_names_are_refused_by_the_gate(kb: KB, question: str) -> None:
    docs, result = kb.docs(question)
    assert docs == set()
    assert result.rejected and all(
        r["reason"].startswith("no party_to binding") or "does not match" in r["reason"] for r in result.rejected
    )


def test_the_refusal_reason_names_the_unbound_party(kb: KB) -> None:
    _, result = kb.docs("What law governs the Reseller Agreement between Vayyar Imaging Ltd. and Knoxville?")
    assert result.rejected == [{
        "subject_id": "agreement:reseller agreement@reseller",
        "reason": "no party_to binding to this agreement for 'Knoxville'",
    }]
