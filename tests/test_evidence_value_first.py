"""Value-first ranking of date-valued attributes' evidence (``conclude.value_first``,
``conclude.prefer_independent``): the unit that states the date ranks above units that merely use
the defined term."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ingest.statuses import Confidence
from service.evidence import conclude, units, verify
from service.evidence.subject_class import SubjectClass
from service.retrieval import Hit
from tests.test_evidence_stages import _agreement, _chunk

# -- value-first ranking of date-valued attributes ---------------------------------------------

PREAMBLE = "This Reseller Agreement is made and entered into as of March 1, 2019 by Acme Inc. and Beta LLC."
MENTION = "Within thirty days after the Effective Date, Reseller shall deliver its first forecast to Acme."


def _dated_units(sc: SubjectClass):
    text = PREAMBLE + " " + MENTION
    chunk = replace(
        _chunk(), text=text, char_end=8 + len(text), line_end=3, entities=[],
        sentences=[
            {"char_start": 8, "char_end": 8 + len(PREAMBLE), "entity_ids": []},
            {"char_start": 8 + len(PREAMBLE) + 1, "char_end": 8 + len(text), "entity_ids": []},
        ],
    )
    verified = verify.verify_units(units.extract_units([Hit(chunk, 1.0, 1, 1)]), sc, [_agreement()], None)
    return verified


def _assessed(v: verify.Verified, score: float, value) -> verify.Assessed:
    return verify.Assessed(
        unit=v.unit, candidate=v.candidate, reason=None, states_attribute=True, relevance=score, score=score,
        confidence=Confidence.MEDIUM, attribute_match={}, value=value, injection=False,
    )


def test_a_date_valued_attribute_cites_the_unit_stating_a_date_first() -> None:
    sc = SubjectClass(understood=True, kind="agreement_attribute", subject_type="agreement",
                      agreement_title="RESELLER AGREEMENT", attribute="effective_date", attribute_label="effective date")
    preamble, mention = _dated_units(sc)
    dated = _assessed(preamble, 0.7, {"type": "date", "value": "2019-03-01"})
    undated = _assessed(mention, 0.9, None)  # mentions the defined term, scores higher, states no date
    assert conclude.value_first(sc)
    supporting, evidence, _, _ = conclude.build_evidence([undated, dated], "", values_first=conclude.value_first(sc))
    assert [e.excerpt for e in evidence] == [PREAMBLE, MENTION]
    # Without value-first (the old order, and every non-date attribute) the score decides.
    assert [u.excerpt for u in conclude.prefer_independent([undated, dated])] == [MENTION, PREAMBLE]
    # A unit its typed rule turned away (by relevance alone) still ranks after the rule's units.
    late = replace(dated, by_relevance=True)
    assert [u.excerpt for u in conclude.prefer_independent([late, undated], values_first=True)] == [MENTION, PREAMBLE]


@pytest.mark.parametrize(
    ("attribute", "first"),
    [("effective_date", True), ("agreement_date", True), ("expiration_date", False), ("governing_law", False), ("question", False)],
)
def test_value_first_only_for_date_valued_attributes(attribute: str, first: bool) -> None:
    sc = SubjectClass(understood=True, kind="agreement_attribute", attribute=attribute)
    assert conclude.value_first(sc) is first
