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


# -- entity questions: one registry key, two legal persons ------------------------------------
# The registry subject org:kestrel sensorik stands for both companies. A question that names one
# of them in its legal form reads only the documents whose agreements may write that form
# (``gate.legal_person_docs``); a form no document writes is refused, never answered from the
# namesake's contract.

_FORM_REFUSAL = (
    "every document that names {!r} under this key writes it only in another legal form; a namesake is not this entity"
)


def test_a_legal_form_scopes_the_entity_to_its_own_documents(kb: KB) -> None:
    from service.evidence import gate

    result = gate.gate_party_name(kb.store, OPERATOR, "Kestrel Sensorik GmbH", ("org",))
    assert [(c.subject_id, c.doc_ids, c.excluded_docs) for c in result.candidates] == [
        ("org:kestrel sensorik", ("german",), ("american",)),
    ]
    result = gate.gate_party_name(kb.store, OPERATOR, "Kestrel Sensorik, Incorporated", ("org",))
    assert [(c.doc_ids, c.excluded_docs) for c in result.candidates] == [(("american",), ("german",))]
    # No form asked: both documents, nothing excluded (the name is what the question says).
    result = gate.gate_party_name(kb.store, OPERATOR, "Kestrel Sensorik", ("org",))
    assert [(c.doc_ids, c.excluded_docs) for c in result.candidates] == [(("american", "german"), ())]
    result = gate.gate_party_name(kb.store, OPERATOR, "Kestrel Sensorik AG", ("org",))
    assert result.candidates == [] and result.unresolved == []
    assert result.rejected == [{"subject_id": "org:kestrel sensorik", "reason": _FORM_REFUSAL.format("Kestrel Sensorik AG")}]


def test_incorporation_of_one_legal_person_never_cites_the_namesake(kb: KB) -> None:
    report = kb.ask("What is the jurisdiction of incorporation of Kestrel Sensorik, Inc.?")
    assert report.state == "CONCLUDED" and report.sufficient
    assert [c.statement for c in report.claims] == ["jurisdiction of incorporation of Kestrel Sensorik, Inc.: delaware"]
    assert {e.doc_id for e in report.evidence} == {"american"}
    german = [r for r in report.rejected_evidence if r.doc_id == "german"]
    assert german and all(r.reason == (
        "subject_mismatch: german writes Kestrel Sensorik, Inc. (org:kestrel sensorik) only in another legal form "
        "than the question asks; a namesake is not this entity") for r in german)
    # The registry keeps the American spelling; the German company is stated as asked.
    report = kb.ask("Where is Kestrel Sensorik GmbH incorporated?")
    assert [c.statement for c in report.claims] == ["jurisdiction of incorporation of Kestrel Sensorik GmbH: germany"]
    assert {e.doc_id for e in report.evidence} == {"german"}


def test_an_entity_in_a_form_no_document_writes_is_not_found(kb: KB) -> None:
    # Before: both companies' jurisdictions were answered for "Kestrel Sensorik AG".
    report = kb.ask("What is the jurisdiction of incorporation of Kestrel Sensorik AG?")
    assert report.state == "SUBJECT_NOT_FOUND" and not report.sufficient and report.claims == []
    assert ("The registry has org:kestrel sensorik but it was rejected: "
            + _FORM_REFUSAL.format("Kestrel Sensorik AG") + ".") in report.suggested_next_actions
    report = kb.ask("Which agreements is Kestrel Sensorik AG a party to?")
    assert report.state == "SUBJECT_NOT_FOUND" and report.claims == [] and report.evidence == []
    assert report.trace[-2].detail == "0 candidate(s): none; 1 rejected by the gate"


def test_the_agreements_of_one_legal_person_are_its_own(kb: KB) -> None:
    report = kb.ask("Which agreements is Kestrel Sensorik GmbH a party to?")
    assert report.state == "CONCLUDED" and report.sufficient
    assert [c.statement for c in report.claims] == ["Kestrel Sensorik GmbH is a party as Seller to SUPPLY AGREEMENT"]
    assert [c.value["value"] for c in report.claims] == ["agreement:supply agreement@german"]
    (item,) = report.evidence
    text = GERMAN
    assert (item.doc_id, item.excerpt) == ("german", text[item.char_start : item.char_end])
    assert item.excerpt.startswith("Kestrel Sensorik GmbH")
    # Asked without a form: both namesakes' agreements, each stated as its own document writes it.
    report = kb.ask("Which agreements is Kestrel Sensorik a party to?")
    assert sorted(c.statement for c in report.claims) == [
        "Kestrel Sensorik GmbH is a party as Seller to SUPPLY AGREEMENT",
        "Kestrel Sensorik, Inc. is a party as Seller to SUPPLY AGREEMENT",
    ]


def test_the_parties_of_an_agreement_are_stated_as_it_writes_them(kb: KB) -> None:
    report = kb.ask("Who are the parties to the Supply Agreement between Kestrel Sensorik GmbH and Tallisk Foods LLC?")
    assert report.state == "CONCLUDED"
    assert sorted(c.statement for c in report.claims) == [
        "Kestrel Sensorik GmbH is a party (Seller) to SUPPLY AGREEMENT",
        "Tallisk Foods LLC is a party (Buyer) to SUPPLY AGREEMENT",
    ]


def test_a_question_of_no_known_shape_is_scoped_by_the_form_too(kb: KB) -> None:
    from service.evidence import gate
    from service.evidence.subject_class import SubjectClass

    result = gate.gate_names(kb.store, OPERATOR, SubjectClass(understood=False, names=["Kestrel Sensorik GmbH"]))
    assert [(c.subject_id, c.doc_ids, c.excluded_docs) for c in result.candidates] == [
        ("org:kestrel sensorik", ("german",), ("american",)),
    ]
    result = gate.gate_names(kb.store, OPERATOR, SubjectClass(understood=False, names=["Kestrel Sensorik AG"]))
    assert result.candidates == []
    assert result.rejected == [{"subject_id": "org:kestrel sensorik", "reason": _FORM_REFUSAL.format("Kestrel Sensorik AG")}]


# Each company's officer is named in its own agreement: a role question about one legal person
# reads only the documents that may write its form.
GERMAN_ROLES = GERMAN + "\n2. Officers. Anna Vogt is the Chief Executive Officer of Kestrel Sensorik GmbH.\n"
AMERICAN_ROLES = AMERICAN + "\n2. Officers. Brian Hale is the Chief Executive Officer of Kestrel Sensorik, Inc.\n"


@pytest.fixture(scope="module")
def roles_kb(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[KB]:
    yield from ingested_kb(tmp_path_factory, embedder, "legal-forms-roles", {"german": GERMAN_ROLES, "american": AMERICAN_ROLES})


def test_an_officer_of_one_legal_person_is_never_the_namesakes(roles_kb: KB) -> None:
    report = roles_kb.ask("Who is the CEO of Kestrel Sensorik GmbH?")
    assert [c.subject_id for c in report.candidate_subjects] == ["person:anna vogt"]
    assert report.state == "CONCLUDED" and {e.doc_id for e in report.evidence} == {"german"}
    report = roles_kb.ask("Who is the CEO of Kestrel Sensorik, Inc.?")
    assert [c.subject_id for c in report.candidate_subjects] == ["person:brian hale"]
    # Asked without a form, both namesakes' officers are candidates: two subjects, said so.
    report = roles_kb.ask("Who is the CEO of Kestrel Sensorik?")
    assert [c.subject_id for c in report.candidate_subjects] == ["person:anna vogt", "person:brian hale"]
    report = roles_kb.ask("Who is the CEO of Kestrel Sensorik AG?")
    assert report.state == "SUBJECT_NOT_FOUND" and report.claims == []
    assert ("The registry has org:kestrel sensorik but it was rejected: "
            + _FORM_REFUSAL.format("Kestrel Sensorik AG") + ".") in report.suggested_next_actions


def test_both_stores_scope_an_entity_by_its_legal_form(store, embedder, tmp_path) -> None:
    # The same look-ups on each backend (SQLite and the Elasticsearch test node): the agreements'
    # party_forms records are read through find_subjects, whatever the store.
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from service.evidence import gate

    ingestor = Ingestor(store, embedder, Settings(data_dir=tmp_path, generator_url=None))
    for doc_id, text in (("german", GERMAN), ("american", AMERICAN)):
        result = ingestor.ingest_bytes(text.encode(), filename=f"{doc_id}.txt", doc_id=doc_id, acl=["*"])
        assert result.status == "indexed", result.error
    found = gate.gate_party_name(store, OPERATOR, "Kestrel Sensorik GmbH", ("org",))
    assert [(c.subject_id, c.doc_ids, c.excluded_docs) for c in found.candidates] == [
        ("org:kestrel sensorik", ("german",), ("american",)),
    ]
    found = gate.gate_party_name(store, OPERATOR, "Kestrel Sensorik AG", ("org",))
    assert found.candidates == []
    assert found.rejected == [{"subject_id": "org:kestrel sensorik", "reason": _FORM_REFUSAL.format("Kestrel Sensorik AG")}]


def test_one_key_named_in_two_forms_reads_the_documents_of_either(kb: KB) -> None:
    from service.evidence import gate
    from service.evidence.subject_class import SubjectClass

    sc = SubjectClass(understood=False, names=["Kestrel Sensorik GmbH", "Kestrel Sensorik, Inc."])
    result = gate.gate_names(kb.store, OPERATOR, sc)
    assert [(c.subject_id, c.doc_ids, c.excluded_docs) for c in result.candidates] == [
        ("org:kestrel sensorik", ("american", "german"), ()),
    ]
    sc = SubjectClass(understood=False, names=["Kestrel Sensorik GmbH", "Kestrel Sensorik AG"])
    result = gate.gate_names(kb.store, OPERATOR, sc)
    assert [(c.subject_id, c.doc_ids, c.excluded_docs) for c in result.candidates] == [
        ("org:kestrel sensorik", ("german",), ("american",)),
    ]
    assert result.rejected == [{"subject_id": "org:kestrel sensorik", "reason": _FORM_REFUSAL.format("Kestrel Sensorik AG")}]


def test_a_named_party_in_a_form_no_document_writes_fails_a_name_only_question(kb: KB) -> None:
    from service.evidence import gate
    from service.evidence.subject_class import SubjectClass

    # The registry knows the key, but no document writes "Kestrel Sensorik AG": the named party
    # is accounted for by no one.
    sc = SubjectClass(understood=False, names=["Kestrel Sensorik GmbH"], parties=["Kestrel Sensorik AG"])
    result = gate.gate_names(kb.store, OPERATOR, sc)
    assert result.candidates == [] and result.unresolved == ["Kestrel Sensorik AG"]
    sc = SubjectClass(understood=False, names=["Kestrel Sensorik GmbH"], parties=["Kestrel Sensorik GmbH"])
    result = gate.gate_names(kb.store, OPERATOR, sc)
    assert [(c.subject_id, c.doc_ids) for c in result.candidates] == [("org:kestrel sensorik", ("german",))]
