"""The party clauses recorded at ingest (issue 9: preamble, Parties section, signature block),
and the gate, which binds parties only by ``party_to``: a name only the party clause names is
refused, and every party of a candidate cites its party_to span.

The clause reader is tested on text; the gate on a real SQLite store filled by the real ingest
pipeline (spaCy, MiniLM). Nothing is mocked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.party_clauses import PREAMBLE, SIGNATURE_BLOCK, clause_records, party_clauses
from service.evidence import gate
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
    assert (record["char_start"], record["char_end"], record["text"]) == (clause.start, clause.end, text[clause.start : clause.end])


def test_a_text_without_a_party_clause_records_none() -> None:
    # "between the parties" names no one; no "IN WITNESS WHEREOF", no "Parties" heading.
    assert party_clauses("Meeting notes.\n\nThe budget was agreed between the parties.\n") == []


# -- the gate on a real store ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "party-clause-kb",
        {"reseller": RESELLER, "supply": SUPPLY, "license": LICENSE, "ip": IP},
    )


def test_a_name_only_the_party_clause_names_is_still_refused(kb: KB) -> None:
    # The preamble names "JingWei HengTong Technology", but the gate binds only by party_to: the
    # extracted name is the longer one, which the question does not say.
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
