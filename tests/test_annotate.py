"""Exact behaviour of ingest.annotate: canonical ids, defined terms, relations, sentences."""

from __future__ import annotations

import pytest

from ingest.annotate import DocumentAnnotations, annotate_document
from ingest.schema import relation_key

PREAMBLE = (
    "DISTRIBUTION AGREEMENT\n\n"
    "This Distribution Agreement is made as of May 22, 2000 by and between Acme Holdings, Inc., "
    'a Delaware corporation (the "Company"), and Beta Trading LLC, a Nevada limited liability '
    "company (\u201cDistributor\u201d).\n\n"
    "The Company shall deliver the Products. ACME HOLDINGS, INC. and Acme Holdings remain liable."
)


def annotate(text: str, doc_id: str = "doc-1", chunks: list[tuple[int, int]] | None = None) -> DocumentAnnotations:
    return annotate_document(text, chunks or [(0, len(text))], doc_id=doc_id, revision="rev-1")


def mentions(result: DocumentAnnotations) -> list[dict]:
    return [m for chunk in result.chunks for m in chunk.entities]


def relations(result: DocumentAnnotations) -> set[tuple[str, str, str, str | None]]:
    return {
        (r["subject_id"], r["relation"], r["object_id"], r["role"])
        for chunk in result.chunks
        for r in chunk.relations
    }


def subject(result: DocumentAnnotations, subject_id: str):
    return next(s for s in result.subjects if s.subject_id == subject_id)


def test_offsets_point_at_the_mention_text() -> None:
    result = annotate(PREAMBLE, chunks=[(0, 200), (200, len(PREAMBLE))])
    assert mentions(result)
    for mention in mentions(result):
        assert PREAMBLE[mention["char_start"] : mention["char_end"]] == mention["text"]


def test_name_variants_merge_into_one_entity() -> None:
    result = annotate(PREAMBLE)
    acme = [m for m in mentions(result) if m["text"].casefold().startswith("acme")]
    assert {m["text"] for m in acme} == {"Acme Holdings, Inc.", "ACME HOLDINGS, INC.", "Acme Holdings"}
    assert {m["entity_id"] for m in acme} == {"org:acme holdings"}
    record = subject(result, "org:acme holdings")
    assert record.name == "Acme Holdings, Inc."
    assert {"ACME HOLDINGS, INC.", "Acme Holdings", "Company"} <= set(record.aliases)


def test_defined_term_resolves_with_exact_offsets() -> None:
    result = annotate(PREAMBLE)
    start = PREAMBLE.index("The Company shall") + len("The ")
    company = [m for m in mentions(result) if m["char_start"] == start]
    assert company == [
        {"text": "Company", "label": "ORG", "entity_id": "org:acme holdings",
         "char_start": start, "char_end": start + len("Company")}
    ]


def test_curly_quoted_defined_term_resolves() -> None:
    text = PREAMBLE + " Distributor shall pay."
    result = annotate(text)
    start = text.rindex("Distributor shall")
    assert any(
        m["char_start"] == start and m["entity_id"] == "org:beta trading" for m in mentions(result)
    )


def test_defined_terms_do_not_cross_documents() -> None:
    first = annotate('Acme Holdings, Inc. (the "Company") is here. The Company shall pay.', "doc-a")
    second = annotate('Zenith Labs LLC (the "Company") is here. The Company shall pay.', "doc-b")
    resolved = {
        next(m["entity_id"] for m in mentions(r) if m["text"] == "Company" and m["char_start"] > 40)
        for r in (first, second)
    }
    assert resolved == {"org:acme holdings", "org:zenith labs"}


def test_role_without_named_parent_binds_nothing() -> None:
    result = annotate("The company's founder, Jane Doe, approved the budget.")
    assert not [r for r in relations(result) if r[1] == "founder_of"]
    assert any(m["entity_id"] == "person:jane doe" for m in mentions(result))


def test_defined_term_gives_the_role_a_parent() -> None:
    text = 'Acme Holdings, Inc. (the "Company") is a client. The Company\'s founder, Jane Doe, signed.'
    assert ("person:jane doe", "founder_of", "org:acme holdings", "founder") in relations(annotate(text))


def test_founder_of_named_parent() -> None:
    result = annotate("Jane Doe, the founder of Acme Holdings, Inc., spoke first.")
    assert relations(result) == {("person:jane doe", "founder_of", "org:acme holdings", "founder")}
    binding = subject(result, "person:jane doe").bindings[0]
    assert (binding.relation, binding.object_id, binding.object_name) == (
        "founder_of", "org:acme holdings", "Acme Holdings, Inc.",
    )


def test_officer_of_keeps_the_title_as_role() -> None:
    result = annotate("John Smith, Chief Executive Officer of Beta Trading LLC, executed it.")
    assert relations(result) == {
        ("person:john smith", "officer_of", "org:beta trading", "Chief Executive Officer")
    }


def test_abbreviated_title_maps_to_the_full_role() -> None:
    result = annotate("Helix Biotech Corp.'s CEO, David Kim, announced the results.")
    assert ("person:david kim", "officer_of", "org:helix biotech", "Chief Executive Officer") in relations(result)


def test_party_to_with_role_and_agreement_subject() -> None:
    result = annotate(PREAMBLE)
    agreement_id = "agreement:distribution agreement@doc-1"
    assert ("org:beta trading", "party_to", agreement_id, "Distributor") in relations(result)
    assert ("org:acme holdings", "party_to", agreement_id, "Company") in relations(result)
    agreement = subject(result, agreement_id)
    assert agreement.type == "agreement"
    assert agreement.name == "DISTRIBUTION AGREEMENT"
    assert agreement.attributes == {
        "kind": "distribution",
        "title": "DISTRIBUTION AGREEMENT",
        "agreement_date": "2000-05-22",
        "effective_date": None,
        "parties": ["org:acme holdings", "org:beta trading"],
        # The legal form each party's clause writes it with: the gate binds only that form.
        "party_forms": {"org:acme holdings": [["inc"]], "org:beta trading": [["llc"]]},
        "title_aliases": [],
        # The preamble, its one sentence, recorded for the gate's binding by the clause's text.
        "party_clauses": [{
            "source": "preamble", "char_start": 24, "char_end": 228, "text": PREAMBLE[24:228],
        }],
    }
    assert PREAMBLE[24:228].startswith("This Distribution") and PREAMBLE[24:228].endswith("(\u201cDistributor\u201d).")
    binding = next(b for b in subject(result, "org:beta trading").bindings if b.relation == "party_to")
    assert (binding.object_id, binding.object_name, binding.role, binding.doc_id, binding.revision) == (
        agreement_id, "DISTRIBUTION AGREEMENT", "Distributor", "doc-1", "rev-1",
    )
    assert PREAMBLE[binding.char_start : binding.char_end].startswith("Beta Trading LLC")


def test_same_title_in_two_documents_is_two_agreements() -> None:
    ids = {
        next(s.subject_id for s in annotate(PREAMBLE, doc_id).subjects if s.type == "agreement")
        for doc_id in ("doc-1", "doc-2")
    }
    assert ids == {"agreement:distribution agreement@doc-1", "agreement:distribution agreement@doc-2"}


def test_registered_agent() -> None:
    result = annotate("CT Corporation System, the registered agent of Beta Trading LLC, accepted service.")
    assert relations(result) == {
        ("org:ct corporation system", "registered_agent_for", "org:beta trading", "registered agent")
    }


def test_subsidiary_of() -> None:
    result = annotate("Gamma Corp., a wholly-owned subsidiary of Acme Holdings, Inc., will supply parts.")
    assert relations(result) == {("org:gamma", "subsidiary_of", "org:acme holdings", None)}


def test_subsidiary_of_a_different_parent_is_not_confused() -> None:
    text = (
        "Nova Chemicals Ltd., a subsidiary of Ineos Group Limited, and Borealis AG, a subsidiary "
        "of Mubadala Corp., signed the memorandum."
    )
    found = {(s, o) for s, r, o, _ in relations(annotate(text)) if r == "subsidiary_of"}
    assert found == {("org:nova chemicals", "org:ineos group"), ("org:borealis", "org:mubadala")}


def test_incorporated_in_jurisdiction() -> None:
    result = annotate("Acme Holdings, Inc., a Delaware corporation, is the licensor.")
    assert ("org:acme holdings", "incorporated_in", "jurisdiction:delaware", None) in relations(result)
    assert any(m["entity_id"] == "jurisdiction:delaware" for m in mentions(result))


def test_organized_under_state_of() -> None:
    text = "Redwood Partners, L.P., a limited partnership organized under the laws of the State of New York, lends."
    assert ("org:redwood partners", "organized_under", "jurisdiction:new york", None) in relations(annotate(text))


def test_relation_keys_and_entity_ids_are_sorted_and_unique() -> None:
    result = annotate(PREAMBLE + " Acme Holdings, Inc. is a Delaware corporation.")
    for chunk in result.chunks:
        assert chunk.entity_ids == sorted({m["entity_id"] for m in chunk.entities})
        assert chunk.relation_keys == sorted(
            {relation_key(r["relation"], r["subject_id"], r["object_id"]) for r in chunk.relations}
        )


def test_sentences_cover_the_chunk_and_carry_entity_ids() -> None:
    text = "Jane Doe founded Acme Holdings, Inc. in 2001. Beta Trading LLC buys from it. Nothing here."
    result = annotate(text, chunks=[(0, 46), (46, len(text))])
    for (start, end), chunk in zip([(0, 46), (46, len(text))], result.chunks, strict=True):
        covered = {i for s in chunk.sentences for i in range(s["char_start"], s["char_end"])}
        assert all(i in covered for i in range(start, end) if not text[i].isspace())
        assert all(start <= s["char_start"] < s["char_end"] <= end for s in chunk.sentences)
    first = result.chunks[0].sentences[0]
    assert first["entity_ids"] == ["org:acme holdings", "person:jane doe"]
    assert result.chunks[1].sentences[0]["entity_ids"] == ["org:beta trading"]
    assert result.chunks[1].sentences[-1]["entity_ids"] == []


def test_chunks_keep_their_order_and_empty_input_works() -> None:
    result = annotate_document("", [], doc_id="empty", revision="r")
    assert result.chunks == []
    # An empty text shows no agreement: no subjects at all.
    assert result.subjects == []


@pytest.mark.parametrize(
    ("title", "kind"),
    [("MARKETING AFFILIATE AGREEMENT", "affiliate"), ("Master Services Agreement", "services"),
     ("NON-EXCLUSIVE LICENSE AGREEMENT", "license"), ("Supply Agreement", "supply")],
)
def test_agreement_kind_from_lexicon(title: str, kind: str) -> None:
    from ingest.agreements import agreement_kind

    assert agreement_kind(title) == kind


def test_legal_suffix_must_be_a_word_of_its_own() -> None:
    from ingest.names import has_legal_suffix

    assert [has_legal_suffix(n) for n in ("USA", "San Jose", "China", "South Carolina")] == [
        False, False, False, False,
    ]
    assert [has_legal_suffix(n) for n in ("Acme SA", "Acme, Inc.", "Beta N.A.", "Gamma GmbH")] == [
        True, True, True, True,
    ]


def test_a_memo_gets_no_agreement_subject() -> None:
    # A memo that mentions an agreement and two companies is no agreement: no registry row named
    # "Agreement", no party_to binding; the companies stay subjects of their own.
    memo = (
        "MEMORANDUM\n\nTo: All staff\nFrom: Legal\n\nThe distribution agreement between Acme Holdings, Inc. "
        "and Beta Trading LLC expires next year. Please send questions to Legal.\n"
    )
    result = annotate(memo)
    assert [s for s in result.subjects if s.type == "agreement"] == []
    assert not any(r[1] == "party_to" for r in relations(result))
    assert "org:acme holdings" in {s.subject_id for s in result.subjects}


@pytest.mark.parametrize(
    ("opening", "is_agreement"),
    [
        ("AGREEMENT made as of the 30th day of June 1999 between Acme Holdings, Inc. and Beta LLC.", True),
        ("This Agreement dated as of May 1, 2019 is between Acme Holdings, Inc. and Beta LLC.", True),
        ("The undersigned hereby agree to file a joint Schedule 13D.", True),
        ("The agreement between Acme Holdings, Inc. and Beta LLC expires next year.", False),
        ("Quarterly report. Sales rose; the board met twice.", False),
    ],
)
def test_agreement_evidence_in_the_opening(opening: str, is_agreement: bool) -> None:
    result = annotate(opening)
    assert any(s.type == "agreement" for s in result.subjects) is is_agreement


def test_a_preamble_without_a_heading_is_an_agreement() -> None:
    text = (
        "This instrument is made and entered into as of May 1, 2019 by and between Acme Holdings, Inc. "
        "(\"Seller\") and Beta Trading LLC (\"Buyer\").\n\nWHEREAS, Seller sells goods.\n"
    )
    result = annotate(text)
    [agreement] = [s for s in result.subjects if s.type == "agreement"]
    assert (agreement.subject_id, agreement.name, agreement.char_start) == ("agreement:agreement@doc-1", "Agreement", None)
    assert agreement.attributes["parties"] == ["org:acme holdings", "org:beta trading"]
