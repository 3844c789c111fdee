"""Two legal persons that share a registry key ("Kestrel GmbH" and "Kestrel, Inc." are both
``org:kestrel``) are never taken for each other: the gate binds a question's party only in the
legal form the agreement's own document writes it with (``party_forms``), a name asked with
no form still binds, and spellings of one form ("Corp." and "Corporation", "L.L.C." and "Limited
Liability Company") stay one name.

The normalisation is tested on names; the gate on a real SQLite store filled by the real ingest
pipeline (spaCy, MiniLM). Nothing is mocked; every name is invented."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ingest.normalize import legal_form_words, normalise_org
from tests.kb import KB, OPERATOR, ingested_kb

# The German company signs one supply agreement, its US namesake another, with other buyers.
GERMAN = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made on 1 May 2020 by and between Kestrel Sensorik GmbH, a company "
    "organised under the laws of Germany (\"Seller\"), and Tallisk Foods LLC, an Ohio limited liability company "
    "(\"Buyer\").\n\n1. Governing Law. This Agreement shall be governed by the laws of Germany.\n"
)
AMERICAN = (
    "SUPPLY AGREEMENT\n\nThis Supply Agreement is made on 3 June 2021 by and between Kestrel Sensorik, Inc., a "
    "Delaware corporation (\"Seller\"), and Orvelle Markets Corporation, a Texas corporation (\"Buyer\").\n\n"
    "1. Governing Law. This Agreement shall be governed by the laws of the State of Texas.\n"
)

# A partnership and its general partner share a name and both sign: one registry key, two forms.
FILING = (
    "JOINT FILING AGREEMENT\n\nThis Joint Filing Agreement is made on 9 March 2020 by and among Harlow Peak GP L.P., a "
    "Delaware limited partnership, Harlow Peak GP L.L.C., a Delaware limited liability company, and Pennick "
    "Ventures AG, a Swiss company.\n\n1. Governing Law. This Agreement shall be governed by the laws of Delaware.\n"
)


@pytest.mark.parametrize(
    ("name", "forms"),
    [
        ("Acme Corp.", {"corp"}),
        ("ACME CORPORATION", {"corp"}),
        ("Acme, Inc.", {"inc"}),
        ("Acme Incorporated", {"inc"}),
        ("Acme GmbH", {"gmbh"}),
        ("Acme L. L. C.", {"llc"}),
        ("Acme Limited Liability Company", {"llc"}),
        ("Acme Co., Ltd.", {"co", "ltd"}),
        ("Acme Company Limited", {"co", "ltd"}),
        ("Acme, S. A. de C. V.", {"sa", "de", "cv"}),
        ("Bank of Avalon, National Association", {"na"}),
        ("Acme Holdings", set()),
        ("The Company", set()),
    ],
)
def test_legal_form_words_read_each_spelling_of_a_form_as_one(name: str, forms: set[str]) -> None:
    assert legal_form_words(name) == frozenset(forms)


def test_names_in_two_legal_forms_share_the_registry_key() -> None:
    # Why the gate needs the forms: the registry key alone cannot tell the two apart.
    assert normalise_org("Kestrel Sensorik GmbH") == normalise_org("Kestrel Sensorik, Inc.") == "kestrel sensorik"


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(
        tmp_path_factory, embedder, "legal-forms-kb", {"german": GERMAN, "american": AMERICAN, "filing": FILING},
    )


def test_each_agreement_records_the_forms_its_party_clause_writes(kb: KB) -> None:
    (german,) = kb.store.find_subjects(OPERATOR, subject_ids=["agreement:supply agreement@german"], limit=5)
    assert german.attributes["party_forms"] == {
        "org:kestrel sensorik": [["gmbh"]],
        "org:tallisk foods": [["llc"]],
    }
    # One registry subject stands for both companies, bound to both agreements under one name:
    # its names cannot say which form each agreement wrote, the agreement's record can.
    (kestrel,) = kb.store.find_subjects(OPERATOR, subject_ids=["org:kestrel sensorik"], limit=5)
    assert {b.object_id for b in kestrel.bindings if b.relation == "party_to"} == {
        "agreement:supply agreement@german", "agreement:supply agreement@american",
    }


@pytest.mark.parametrize(
    "question",
    [
        "What law governs the Supply Agreement between Kestrel Sensorik GmbH and Tallisk Foods LLC?",
        "What law governs the Supply Agreement between KESTREL SENSORIK GMBH and Tallisk Foods, L.L.C.?",
        # No form asked: the name alone is what the question says, and the clause names it.
        "What law governs the Supply Agreement between Kestrel Sensorik and Tallisk Foods?",
    ],
)
def test_the_form_the_clause_writes_binds(kb: KB, question: str) -> None:
    docs, result = kb.docs(question)
    assert docs == {"german"}, result.rejected


def test_the_namesake_in_another_form_is_refused_though_the_registry_knows_that_spelling(kb: KB) -> None:
    # "Kestrel Sensorik, Inc." is a party to the American agreement only; the German agreement with
    # Tallisk Foods was signed by the GmbH. Before, the shared key bound it: the wrong company.
    docs, result = kb.docs(
        "What law governs the Supply Agreement between Kestrel Sensorik, Inc. and Tallisk Foods LLC?"
    )
    assert docs == set()
    assert {"subject_id": "agreement:supply agreement@german",
            "reason": "no party_to binding to this agreement for 'Kestrel Sensorik, Inc.' ('Kestrel Sensorik, Inc.': the "
                      "agreement's own document writes that name only in another legal form; a namesake is not this party)"} in result.rejected
    assert all(r["subject_id"] != "agreement:supply agreement@american" or "Tallisk" in r["reason"]
               for r in result.rejected)


def test_one_form_spelled_two_ways_is_one_name(kb: KB) -> None:
    docs, _ = kb.docs(
        "What law governs the Supply Agreement between Kestrel Sensorik, Incorporated and Orvelle Markets Corp.?"
    )
    assert docs == {"american"}
    docs, result = kb.docs(
        "What law governs the Supply Agreement between Kestrel Sensorik GmbH and Orvelle Markets Corporation?"
    )
    assert docs == set()
    assert {"subject_id": "agreement:supply agreement@american",
            "reason": "no party_to binding to this agreement for 'Kestrel Sensorik GmbH' ('Kestrel Sensorik GmbH': the "
                      "agreement's own document writes that name only in another legal form; a namesake is not this party)"} in result.rejected


def test_two_forms_one_document_names_both_bind(kb: KB) -> None:
    # The document writes both spellings of org:harlow peak gp, so both are its forms here.
    (filing,) = kb.store.find_subjects(OPERATOR, subject_ids=["agreement:joint filing agreement@filing"], limit=5)
    assert filing.attributes["party_forms"]["org:harlow peak gp"] == [["llc"], ["lp"]]
    docs, result = kb.docs(
        "What law governs the Joint Filing Agreement among Harlow Peak GP L.P., Harlow Peak GP L.L.C. and "
        "Pennick Ventures AG?"
    )
    assert docs == {"filing"}, result.rejected
    docs, result = kb.docs("What law governs the Joint Filing Agreement between Harlow Peak GP, Inc. and Pennick Ventures AG?")
    assert docs == set()
    assert result.rejected == [{
        "subject_id": "agreement:joint filing agreement@filing",
        "reason": "no party_to binding to this agreement for 'Harlow Peak GP, Inc.' ('Harlow Peak GP, Inc.': the agreement's "
                  "own document writes that name only in another legal form; a namesake is not this party)",
    }]


@pytest.mark.parametrize("recorded", ["junk", {"org:kestrel sensorik": "gmbh"}, {"org:kestrel sensorik": [[], 5, "gmbh"]}, None])
def test_a_record_without_readable_forms_is_matched_by_key_alone(recorded: object) -> None:
    # An agreement ingested before party_forms existed, or a record a store hands back damaged:
    # the gate neither fails nor refuses on forms it cannot read; the key decides, as before.
    from ingest.schema import Subject
    from service.evidence.gate import _bound_names

    party = Subject("org:kestrel sensorik", "Kestrel Sensorik GmbH", "org", [], {}, [], [])
    attributes = {} if recorded is None else {"party_forms": recorded}
    agreement = Subject("agreement:supply agreement@x", "SUPPLY AGREEMENT", "agreement", [], attributes, [], [])
    bound = _bound_names([party], agreement)
    assert bound.accounts("Kestrel Sensorik, Inc.") and bound.accounts("Kestrel Sensorik GmbH")
    assert not bound.accounts("Orvelle Markets Corp.")
    # Readable forms decide: the same party under a record that says "gmbh".
    checked = _bound_names([party], Subject(
        "agreement:supply agreement@x", "SUPPLY AGREEMENT", "agreement", [],
        {"party_forms": {"org:kestrel sensorik": [["gmbh"]]}}, [], [],
    ))
    assert checked.accounts("Kestrel Sensorik GmbH") and not checked.accounts("Kestrel Sensorik, Inc.")
