"""The backend contract: every store adapter must pass this suite unchanged.

The records are built by hand (no models) so that each assertion is exact. Vectors are unit
vectors along chosen axes, so kNN order is known in advance.
"""

from __future__ import annotations

import numpy as np
import pytest

from ingest.schema import Binding, Chunk, DocumentRecord, SubjectRecord, chunk_id_for
from ingest.store.port import (
    AuditQuery,
    EmbeddingModelMismatch,
    Principal,
    SearchFilters,
)

DIM = 384
ALICE = Principal("alice", groups=("legal",))
BOB = Principal("bob")
OPERATOR = Principal.local_operator()


def axis(i: int, j: int | None = None) -> list[float]:
    v = np.zeros(DIM, dtype=np.float32)
    v[i] = 1.0
    if j is not None:
        v[j] = 1.0
    return (v / np.linalg.norm(v)).tolist()


def make_chunks(doc_id: str, revision: str, texts: list[str], vectors, acl, entity_ids=None):
    chunks, offset, pieces = [], 0, []
    for ordinal, text in enumerate(texts):
        start = offset
        pieces.append(text)
        offset += len(text) + 2
        chunks.append(
            Chunk(
                chunk_id=chunk_id_for(doc_id, revision, ordinal),
                doc_id=doc_id,
                revision=revision,
                ordinal=ordinal,
                title=f"Title {doc_id}",
                filename=f"{doc_id}.txt",
                mime="text/plain",
                page=None,
                section=["1. TERMS"],
                element_index=ordinal,
                line_start=1 + 2 * ordinal,
                line_end=1 + 2 * ordinal,
                char_start=start,
                char_end=start + len(text),
                text=text,
                acl=list(acl),
                collection="contracts",
                ingested_at="2026-01-01T00:00:00.000+00:00",
                embedding=vectors[ordinal],
                entity_ids=sorted((entity_ids or {}).get(ordinal, [])),
            )
        )
    return chunks, "\n\n".join(pieces)


def put(store, doc_id, revision, texts, vectors, acl=("*",), entity_ids=None, subjects=()):
    store.save_document(
        DocumentRecord(
            doc_id=doc_id,
            status="indexing",
            stage="indexing",
            error=None,
            current_revision=None,
            title=f"Title {doc_id}",
            filename=f"{doc_id}.txt",
            acl=list(acl),
            collection="contracts",
            metadata={},
            updated_at="2026-01-01T00:00:00.000+00:00",
        )
    )
    chunks, text = make_chunks(doc_id, revision, texts, vectors, acl, entity_ids)
    store.write_revision(
        doc_id,
        revision,
        text=text,
        chunks=chunks,
        subjects=list(subjects),
        info={"filename": f"{doc_id}.txt", "mime": "text/plain", "size": len(text)},
    )
    return chunks, text


def ids(ranked):
    return [r.chunk_id for r in ranked]


def test_written_revision_is_invisible_until_activated(store):
    chunks, _ = put(store, "d1", "r1", ["governing law of Delaware"], [axis(0)])
    everyone = SearchFilters(principal=OPERATOR)
    assert store.bm25("delaware", everyone, 10) == []
    assert store.knn(np.array(axis(0)), everyone, 10) == []
    store.activate_revision("d1", "r1")
    assert ids(store.bm25("delaware", everyone, 10)) == [chunks[0].chunk_id]
    assert ids(store.knn(np.array(axis(0)), everyone, 10)) == [chunks[0].chunk_id]
    doc = store.get_document("d1")
    assert (doc.status, doc.current_revision) == ("indexed", "r1")


def test_revision_text_slices_back_to_chunk_text(store):
    chunks, text = put(store, "d1", "r1", ["alpha clause", "beta clause"], [axis(0), axis(1)])
    store.activate_revision("d1", "r1")
    stored = store.revision_text("d1", "r1")
    assert stored == text
    for chunk in store.revision_chunks("d1", "r1"):
        assert stored[chunk.char_start : chunk.char_end] == chunk.text
    assert [c.chunk_id for c in store.revision_chunks("d1", "r1")] == [c.chunk_id for c in chunks]


def test_new_revision_switches_atomically_and_old_stays_readable(store):
    old, _ = put(store, "d1", "r1", ["term of five years"], [axis(0)])
    store.activate_revision("d1", "r1")
    new, _ = put(store, "d1", "r2", ["term of ten years"], [axis(0)])
    everyone = SearchFilters(principal=OPERATOR)
    # r2 written but not current: searches still see r1 only.
    assert ids(store.bm25("term years", everyone, 10)) == [old[0].chunk_id]
    store.activate_revision("d1", "r2")
    assert ids(store.bm25("term years", everyone, 10)) == [new[0].chunk_id]
    assert ids(store.knn(np.array(axis(0)), everyone, 10)) == [new[0].chunk_id]
    assert store.bm25("five", everyone, 10) == []
    # The superseded revision stays readable by (doc_id, revision) for audit.
    assert store.revision_text("d1", "r1") == "term of five years"
    assert [c.text for c in store.revision_chunks("d1", "r1")] == ["term of five years"]
    doc = store.get_document("d1")
    assert doc.current_revision == "r2"
    assert sorted(r.revision for r in doc.revisions) == ["r1", "r2"]


def test_rewriting_a_revision_overwrites_instead_of_duplicating(store):
    put(store, "d1", "r1", ["one", "two"], [axis(0), axis(1)])
    put(store, "d1", "r1", ["one", "two"], [axis(0), axis(1)])
    store.activate_revision("d1", "r1")
    assert len(store.revision_chunks("d1", "r1")) == 2
    assert len(store.knn(np.array(axis(0)), SearchFilters(principal=OPERATOR), 10)) == 2


def test_acl_is_applied_inside_both_queries(store):
    a, _ = put(store, "a", "r", ["secret merger terms"], [axis(0)], acl=["alice"])
    b, _ = put(store, "b", "r", ["public merger terms"], [axis(0, 1)], acl=["legal"])
    c, _ = put(store, "c", "r", ["bob merger terms"], [axis(0, 2)], acl=["bob"])
    for doc in "abc":
        store.activate_revision(doc, "r")
    alice = SearchFilters(principal=ALICE)
    assert sorted(ids(store.bm25("merger", alice, 10))) == sorted([a[0].chunk_id, b[0].chunk_id])
    assert ids(store.knn(np.array(axis(0)), alice, 10)) == [a[0].chunk_id, b[0].chunk_id]
    bob = SearchFilters(principal=BOB)
    assert ids(store.bm25("merger", bob, 10)) == [c[0].chunk_id]
    assert ids(store.knn(np.array(axis(0)), bob, 1)) == [c[0].chunk_id]
    assert store.visible_document("a", BOB) is None
    assert store.visible_document("a", ALICE).doc_id == "a"
    docs, total = store.list_documents(BOB)
    assert ([d.doc_id for d in docs], total) == (["c"], 1)


def test_acl_change_takes_effect_on_search(store):
    a, _ = put(store, "a", "r", ["merger terms"], [axis(0)], acl=["alice"])
    store.activate_revision("a", "r")
    bob = SearchFilters(principal=BOB)
    assert store.bm25("merger", bob, 10) == []
    store.set_acl("a", ["bob"])
    assert ids(store.bm25("merger", bob, 10)) == [a[0].chunk_id]
    assert ids(store.knn(np.array(axis(0)), bob, 10)) == [a[0].chunk_id]
    assert store.bm25("merger", SearchFilters(principal=ALICE), 10) == []


def test_doc_collection_and_entity_filters(store):
    a, _ = put(
        store, "a", "r", ["acme supply terms", "other supply terms"], [axis(0), axis(1)],
        entity_ids={0: ["org:acme"]},
    )
    b, _ = put(store, "b", "r", ["beta supply terms"], [axis(2)], entity_ids={0: ["org:beta"]})
    store.activate_revision("a", "r")
    store.activate_revision("b", "r")
    only_b = SearchFilters(principal=OPERATOR, doc_ids=("b",))
    assert ids(store.bm25("supply", only_b, 10)) == [b[0].chunk_id]
    acme = SearchFilters(principal=OPERATOR, entity_ids=("org:acme",))
    assert ids(store.bm25("supply", acme, 10)) == [a[0].chunk_id]
    assert ids(store.knn(np.array(axis(1)), acme, 10)) == [a[0].chunk_id]
    none = SearchFilters(principal=OPERATOR, collections=("elsewhere",))
    assert store.bm25("supply", none, 10) == []
    assert store.knn(np.array(axis(0)), none, 10) == []


def test_knn_orders_by_cosine_and_breaks_ties_by_chunk_id(store):
    chunks, _ = put(store, "a", "r", ["x", "y", "z"], [axis(5), axis(5), axis(6)])
    store.activate_revision("a", "r")
    ranked = store.knn(np.array(axis(5)), SearchFilters(principal=OPERATOR), 3)
    tied = sorted([chunks[0].chunk_id, chunks[1].chunk_id])
    assert ids(ranked) == [*tied, chunks[2].chunk_id]
    assert ranked[0].score == pytest.approx(1.0, abs=1e-5)
    assert ranked[2].score == pytest.approx(0.0, abs=1e-5)


def test_bm25_prefers_rarer_terms_and_ignores_query_syntax(store):
    chunks, _ = put(
        store, "a", "r",
        ["indemnification indemnification clause", "clause about payment", "unrelated text"],
        [axis(0), axis(1), axis(2)],
    )
    store.activate_revision("a", "r")
    everyone = SearchFilters(principal=OPERATOR)
    ranked = store.bm25("indemnification clause", everyone, 10)
    assert ids(ranked)[:2] == [chunks[0].chunk_id, chunks[1].chunk_id]
    assert ranked[0].score > ranked[1].score
    # FTS/Lucene operators in user input are plain words, never syntax errors.
    assert store.bm25('clause" OR NOT (payment* AND', everyone, 10) != []
    assert store.bm25("???", everyone, 10) == []


def test_delete_removes_document_from_every_path(store):
    subject = SubjectRecord(
        subject_id="org:acme", name="Acme", type="org", doc_id="a", revision="r",
        aliases=["Company"], bindings=[],
    )
    put(store, "a", "r", ["acme terms"], [axis(0)], entity_ids={0: ["org:acme"]}, subjects=[subject])
    store.activate_revision("a", "r")
    assert store.find_subjects(OPERATOR, name="Acme")
    assert store.delete_document("a") is True
    everyone = SearchFilters(principal=OPERATOR)
    assert store.bm25("acme", everyone, 10) == []
    assert store.knn(np.array(axis(0)), everyone, 10) == []
    assert store.find_subjects(OPERATOR, name="Acme") == []
    assert store.get_document("a") is None
    assert store.delete_document("a") is False


def _registry_fixture(store):
    acme = SubjectRecord(
        subject_id="org:acme holdings", name="Acme Holdings, Inc.", type="org", doc_id="a",
        revision="r", aliases=["Company", "Acme Holdings"], char_start=0, char_end=19,
    )
    jane = SubjectRecord(
        subject_id="person:jane doe", name="Jane Doe", type="person", doc_id="a", revision="r",
        bindings=[
            Binding("founder_of", "org:acme holdings", "Acme Holdings, Inc.", "founder", "a", "r", 20, 60),
        ],
    )
    john = SubjectRecord(
        subject_id="person:john roe", name="John Roe", type="person", doc_id="b", revision="r",
        bindings=[Binding("founder_of", "org:beta", "Beta LLC", "founder", "b", "r", 5, 40)],
    )
    put(store, "a", "r", ["Acme Holdings, Inc. was founded by Jane Doe."], [axis(0)],
        acl=["alice"], subjects=[acme, jane])
    put(store, "b", "r", ["Beta LLC was founded by John Roe."], [axis(1)], acl=["bob"],
        subjects=[john])
    store.activate_revision("a", "r")
    store.activate_revision("b", "r")


def test_registry_lookups_are_exact_and_acl_filtered(store):
    _registry_fixture(store)
    found = store.find_subjects(ALICE, name="ACME HOLDINGS INC")
    assert [s.subject_id for s in found] == ["org:acme holdings"]
    assert found[0].aliases == ["Acme Holdings", "Company"]
    assert [s.subject_id for s in store.find_subjects(ALICE, name="company")] == ["org:acme holdings"]
    assert store.find_subjects(ALICE, name="Acme Holding") == []  # no fuzzy fallback
    founders = store.find_subjects(ALICE, role="founder", parent_id="org:acme holdings")
    assert [s.subject_id for s in founders] == ["person:jane doe"]
    binding = founders[0].bindings[0]
    assert (binding.relation, binding.doc_id, binding.char_start, binding.char_end) == (
        "founder_of", "a", 20, 60,
    )
    # Bob cannot read document a: Acme and Jane do not exist for him.
    assert store.find_subjects(BOB, name="Acme Holdings") == []
    assert store.find_subjects(BOB, role="founder", parent_id="org:acme holdings") == []
    assert [s.subject_id for s in store.find_subjects(BOB, type="person")] == ["person:john roe"]
    assert [s.subject_id for s in store.find_subjects(OPERATOR, relation="founder_of")] == [
        "person:jane doe", "person:john roe",
    ]


def test_registry_follows_the_current_revision(store):
    _registry_fixture(store)
    renamed = SubjectRecord(
        subject_id="org:acme group", name="Acme Group", type="org", doc_id="a", revision="r2",
    )
    put(store, "a", "r2", ["Acme Group terms"], [axis(0)], acl=["alice"], subjects=[renamed])
    assert store.find_subjects(ALICE, name="Acme Group") == []
    store.activate_revision("a", "r2")
    assert [s.subject_id for s in store.find_subjects(ALICE, name="Acme Group")] == ["org:acme group"]
    assert store.find_subjects(ALICE, name="Acme Holdings") == []


def test_audit_log_is_append_only_and_filterable(store):
    store.append_audit({"request_id": "q1", "principal": "alice", "action": "search", "input": {"q": "x"}})
    store.append_audit({"request_id": "q2", "principal": "bob", "action": "search", "input": {"q": "y"}})
    entries = store.list_audit(AuditQuery(principal="alice"))
    assert [(e["request_id"], e["action"], e["input"]) for e in entries] == [("q1", "search", {"q": "x"})]
    assert [e["request_id"] for e in store.list_audit(AuditQuery())] == ["q1", "q2"]
    assert store.list_audit(AuditQuery(request_id="nope")) == []
    assert not hasattr(store, "delete_audit") and not hasattr(store, "update_audit")


def test_embedding_model_is_recorded_and_mismatch_fails(store):
    store.ensure_embedding_model("model-a", 384)
    store.ensure_embedding_model("model-a", 384)
    with pytest.raises(EmbeddingModelMismatch, match="reindex"):
        store.ensure_embedding_model("model-b", 384)
    with pytest.raises(EmbeddingModelMismatch, match="reindex"):
        store.ensure_embedding_model("model-a", 768)


def test_snapshot_reads_are_consistent(store):
    put(store, "d", "r1", ["first version"], [axis(0)])
    store.activate_revision("d", "r1")
    with store.snapshot():
        before = store.bm25("version", SearchFilters(principal=OPERATOR), 10)
    put(store, "d", "r2", ["second version"], [axis(0)])
    store.activate_revision("d", "r2")
    after = store.bm25("version", SearchFilters(principal=OPERATOR), 10)
    assert before != after and len(after) == 1


# -- BM25 statistics come from the chunks the principal may read only: nothing outside that set
# (other principals' documents, old revisions, deleted documents) changes a principal's scores
# or order. ``==`` on floats below is on purpose: bitwise the same scores, same order.

BOB_TEXTS = ["monthly retainer fee payable in advance", "payment schedule and late fee",
             "notice period of thirty days", "retainer retainer fee schedule"]
LONG_QUERY = ("does the monthly retainer fee schedule payment notice period advance "
              "payable late thirty days clause apply")


def scored(store, query: str, filters: SearchFilters, n: int = 10) -> list[tuple[str, float]]:
    return [(r.chunk_id, r.score) for r in store.bm25(query, filters, n)]


def add(store, doc_id: str, revision: str, texts: list[str], acl=("*",)) -> list[str]:
    chunks, _ = put(store, doc_id, revision, texts, [axis(i % 300) for i in range(len(texts))], acl=acl)
    store.activate_revision(doc_id, revision)
    return [c.chunk_id for c in chunks]


def another_store_of_the_same_kind(store, tmp_path):
    """A second, empty store of ``store``'s kind (the fixture drops only its own)."""
    from tests.conftest import _make_store

    (tmp_path / "other").mkdir()
    return _make_store("es" if hasattr(store, "drop_all") else "sqlite", tmp_path / "other")


def test_bm25_a_word_only_in_alices_documents_leaves_bobs_scores_unchanged(store):
    bob, alice = SearchFilters(principal=BOB), SearchFilters(principal=ALICE)
    add(store, "b", "r1", BOB_TEXTS, acl=["bob"])
    queries = ("retainer fee", "payment schedule", LONG_QUERY)
    before = [scored(store, q, bob) for q in queries]
    assert all(before) and before[0][0][0] == ids(store.bm25("retainer", bob, 1))[0]
    # Alice's documents hold bob's query words, many times and in many chunks, and are long:
    # index-wide statistics would lower bob's IDFs and raise the average length.
    mine = add(store, "a", "r1", [f"retainer fee retainer schedule clause {i} " + "padding " * 40
                                  for i in range(30)], acl=["alice"])
    assert [scored(store, q, bob) for q in queries] == before
    assert set(ids(store.bm25("retainer", alice, 50))) == set(mine)  # hers, by her statistics
    with store.snapshot():  # inside a snapshot (the evidence path) as well
        assert [scored(store, q, bob) for q in queries] == before


def test_bm25_a_replaced_revision_or_a_deleted_document_counts_no_more(store, tmp_path):
    """Old revisions and deleted documents may linger in an engine's own statistics (FTS5 rows,
    Lucene segments); here they leave at once: the scores are those of a store that never held
    them."""
    bob = SearchFilters(principal=BOB)
    add(store, "b", "r1", BOB_TEXTS)
    alone = scored(store, "retainer fee schedule", bob)
    add(store, "x", "r1", ["retainer fee retainer fee"] * 5)
    assert scored(store, "retainer fee schedule", bob) != alone  # readable to bob: it counts
    add(store, "x", "r2", ["governing law of the state"])  # r1 replaced, its copies still held
    clean = another_store_of_the_same_kind(store, tmp_path)
    try:
        add(clean, "b", "r1", BOB_TEXTS)
        add(clean, "x", "r2", ["governing law of the state"])
        expected = scored(clean, "retainer fee schedule", bob)
    finally:
        getattr(clean, "drop_all", lambda: None)()
        clean.close()
    assert scored(store, "retainer fee schedule", bob) == expected
    assert expected != alone  # x's r2 adds a chunk and its length
    assert store.delete_document("x")
    assert scored(store, "retainer fee schedule", bob) == alone


def test_bm25_an_acl_change_moves_the_statistics(store):
    bob = SearchFilters(principal=BOB)
    add(store, "b", "r1", BOB_TEXTS, acl=["bob"])
    add(store, "a", "r1", ["retainer retainer retainer fee"] * 3, acl=["alice"])
    hidden = scored(store, "retainer fee", bob)
    store.set_acl("a", ["alice", "bob"])
    shared = scored(store, "retainer fee", bob)
    assert len(shared) == len(hidden) + 3 and dict(shared).keys() > dict(hidden).keys()
    assert [s for c, s in shared if c in dict(hidden)] != [s for _, s in hidden]
    store.set_acl("a", ["alice"])
    assert scored(store, "retainer fee", bob) == hidden


def test_bm25_ties_break_on_chunk_id_and_filters_do_not_change_a_score(store):
    everyone = SearchFilters(principal=OPERATOR)
    made = [add(store, f"d{n}", "r1", ["governing law of Delaware", "other words here"])[0]
            for n in range(6)]
    ranked = store.bm25("delaware law", everyone, 4)
    assert ids(ranked) == sorted(made)[:4] and len({r.score for r in ranked}) == 1
    assert store.bm25("delaware law", everyone, 4) == ranked  # same input, same output
    # A doc filter narrows the candidates, never the statistics: the same chunk, the same score.
    filtered = store.bm25("delaware law", SearchFilters(principal=OPERATOR, doc_ids=("d5", "d4")), 10)
    assert [r.score for r in filtered] == [ranked[0].score] * 2
    assert ids(filtered) == sorted(c for c in made if c in {made[4], made[5]})
    assert store.bm25("delaware", SearchFilters(principal=OPERATOR, doc_ids=("missing",)), 10) == []
    secret = add(store, "z", "r1", ["delaware delaware"], acl=["zed"])
    assert ids(store.bm25("delaware", SearchFilters(principal=Principal("zed")), 1)) == secret
    nobody = SearchFilters(principal=Principal("nobody"))
    assert ids(store.bm25("delaware", nobody, 10)) == sorted(made)  # the "*" documents only


# -- one test per documented guarantee of the port (ingest/store/port.py) that the tests above
# do not pin down; each fails when its guarantee is broken.

def test_snapshot_hides_a_switch_committed_inside_the_block(store):
    """A no-op ``snapshot()`` fails this: the switch lands between the two halves."""
    import threading

    old, _ = put(store, "d", "r1", ["first version"], [axis(0)])
    store.activate_revision("d", "r1")
    new, _ = put(store, "d", "r2", ["second version"], [axis(0)])
    everyone = SearchFilters(principal=OPERATOR)
    with store.snapshot():
        assert ids(store.bm25("version", everyone, 10)) == [old[0].chunk_id]
        # Another thread (its own connection) commits the switch while the block is open.
        writer = threading.Thread(target=store.activate_revision, args=("d", "r2"))
        writer.start()
        writer.join(30)
        assert not writer.is_alive()
        assert ids(store.bm25("version", everyone, 10)) == [old[0].chunk_id]
        assert ids(store.knn(np.array(axis(0)), everyone, 10)) == [old[0].chunk_id]
    assert ids(store.bm25("version", everyone, 10)) == [new[0].chunk_id]
    assert ids(store.knn(np.array(axis(0)), everyone, 10)) == [new[0].chunk_id]


def test_bm25_ties_break_on_chunk_id_and_bounds(store):
    chunks, _ = put(store, "a", "r", ["royalty rate", "royalty rate", "royalty royalty rate"],
                    [axis(0), axis(1), axis(2)])
    store.activate_revision("a", "r")
    everyone = SearchFilters(principal=OPERATOR)
    ranked = store.bm25("royalty", everyone, 10)
    assert ids(ranked)[0] == chunks[2].chunk_id  # more occurrences score higher
    assert ids(ranked)[1:] == sorted([chunks[0].chunk_id, chunks[1].chunk_id])
    assert ranked[1].score == pytest.approx(ranked[2].score)
    assert ids(store.bm25("royalty", everyone, 2)) == ids(ranked)[:2]
    assert store.bm25("royalty", everyone, 0) == []


def test_bm25_long_query_still_finds_the_rarest_word(store):
    """A long question whose common words match every chunk still ranks the chunk holding its
    one rare word first (the embedded store prunes common words; nothing may be lost)."""
    common = "agreement party shall term notice section clause provision"
    texts = [f"{common} number {i}" for i in range(12)] + [f"{common} escrow"]
    chunks, _ = put(store, "a", "r", texts, [axis(i) for i in range(13)])
    store.activate_revision("a", "r")
    query = f"Does the {common} mention an escrow account?"
    ranked = store.bm25(query, SearchFilters(principal=OPERATOR), 5)
    assert ids(ranked)[0] == chunks[12].chunk_id
    assert store.bm25(query, SearchFilters(principal=OPERATOR), 5) == ranked  # deterministic


def test_knn_bounds(store):
    put(store, "a", "r", ["x"], [axis(0)])
    store.activate_revision("a", "r")
    everyone = SearchFilters(principal=OPERATOR)
    assert store.knn(np.array(axis(0)), everyone, 0) == []
    assert store.knn(np.zeros(DIM, dtype=np.float32), everyone, 5) == []


def test_doc_filter_is_exact_under_acl(store):
    a, _ = put(store, "a", "r", ["supply terms a"], [axis(0)], acl=["alice"])
    b, _ = put(store, "b", "r", ["supply terms b"], [axis(1)], acl=["bob"])
    store.activate_revision("a", "r")
    store.activate_revision("b", "r")
    # Naming a document the principal cannot read never reveals it.
    both = SearchFilters(principal=BOB, doc_ids=("a", "b"))
    assert ids(store.bm25("supply", both, 10)) == [b[0].chunk_id]
    assert ids(store.knn(np.array(axis(0)), both, 10)) == [b[0].chunk_id]
    only_a = SearchFilters(principal=BOB, doc_ids=("a",))
    assert store.bm25("supply", only_a, 10) == []
    assert store.knn(np.array(axis(0)), only_a, 10) == []


def test_activate_and_set_acl_errors(store):
    from ingest.store.port import StoreError

    put(store, "a", "r", ["x"], [axis(0)])
    with pytest.raises(StoreError, match="never written"):
        store.activate_revision("a", "nope")
    with pytest.raises(StoreError, match="document not found"):
        store.set_acl("missing", ["bob"])


def test_list_documents_orders_pages_and_counts_only_readable(store):
    for doc_id, acl in (("c", ["bob"]), ("a", ["bob"]), ("b", ["alice"]), ("d", ["bob"])):
        put(store, doc_id, "r", [f"text {doc_id}"], [axis(0)], acl=[acl[0]])
    docs, total = store.list_documents(BOB, offset=1, limit=2)
    assert ([d.doc_id for d in docs], total) == (["c", "d"], 3)
    assert store.list_documents(BOB, offset=5) == ([], 3)
    assert store.visible_document("b", BOB) is None


def test_chunks_by_id_and_revision_chunks(store):
    chunks, _ = put(store, "a", "r", ["one", "two"], [axis(0), axis(1)])
    got = store.chunks_by_id([chunks[1].chunk_id, "missing", chunks[1].chunk_id])
    assert list(got) == [chunks[1].chunk_id]
    assert got[chunks[1].chunk_id].text == "two" and got[chunks[1].chunk_id].embedding is None
    assert store.revision_chunks("a", "nope") == []
    assert [c.ordinal for c in store.revision_chunks("a", "r")] == [0, 1]
    assert store.revision_chunks("a", "r")[0].embedding is not None


def test_sentence_units_and_their_vectors_round_trip(store):
    """Ingest stores each chunk's sentence units and their packed vectors; both reads give them
    back byte for byte, and a chunk written without them reads back as None (an older index)."""
    from ingest.units import pack_vectors, unpack_vectors

    chunks, _ = make_chunks("u", "r", ["First clause here. Second clause here.", "no units"], [axis(0), axis(1)], ["*"])
    rows = np.array([axis(2), axis(3, 4)], dtype=np.float32)
    chunks[0].units = [[0, 18], [19, 38]]
    chunks[0].unit_vectors = pack_vectors(rows)
    store.save_document(DocumentRecord(
        doc_id="u", status="indexing", stage="indexing", error=None, current_revision=None, title="U",
        filename="u.txt", acl=["*"], collection="contracts", metadata={}, updated_at="2026-01-01T00:00:00.000+00:00",
    ))
    store.write_revision("u", "r", text="x" * 60, chunks=chunks, subjects=[], info={"filename": "u.txt"})
    store.activate_revision("u", "r")
    by_id = store.chunks_by_id([c.chunk_id for c in chunks])
    listed = store.revision_chunks("u", "r")
    for got in (by_id[chunks[0].chunk_id], listed[0]):
        assert got.units == [[0, 18], [19, 38]]
        assert got.unit_vectors == chunks[0].unit_vectors
        np.testing.assert_allclose(unpack_vectors(got.unit_vectors, DIM), rows, atol=1e-3)
    for got in (by_id[chunks[1].chunk_id], listed[1]):
        assert (got.units, got.unit_vectors) == (None, None)
    assert "unit_vectors" not in listed[0].to_dict()


def test_registry_binding_conditions_hold_on_one_binding(store):
    _registry_fixture(store)
    # Jane founded Acme; John founded Beta: founder + Beta is not Jane, whatever else she has.
    assert [s.subject_id for s in store.find_subjects(OPERATOR, role="founder", parent_id="org:beta")] == [
        "person:john roe"
    ]
    assert store.find_subjects(OPERATOR, relation="owner_of", parent_id="org:beta") == []
    assert len(store.find_subjects(OPERATOR, type="person", limit=1)) == 1
    assert store.find_subjects(OPERATOR, type="person", limit=0) == []


def test_audit_seq_grows_and_time_bounds_are_inclusive(store):
    for i in range(3):
        store.append_audit({"request_id": f"q{i}", "principal": "p", "action": "search",
                            "at": f"2026-01-0{i + 1}T00:00:00.000+00:00"})
    entries = store.list_audit(AuditQuery())
    seqs = [e["seq"] for e in entries]
    assert seqs == sorted(seqs) and len(set(seqs)) == 3
    window = store.list_audit(AuditQuery(since="2026-01-02T00:00:00.000+00:00",
                                         until="2026-01-03T00:00:00.000+00:00"))
    assert [e["request_id"] for e in window] == ["q1", "q2"]
    assert [e["request_id"] for e in store.list_audit(AuditQuery(offset=1, limit=1))] == ["q1"]


def _import_item(doc_id, revision, texts, vectors, acl=("*",)):
    """One (record, revision, text, chunks) item of ``import_documents``."""
    chunks, text = make_chunks(doc_id, revision, texts, vectors, acl)
    record = DocumentRecord(
        doc_id=doc_id, status="indexing", stage="indexing", error=None, current_revision=None,
        title=f"Title {doc_id}", filename=f"{doc_id}.txt", acl=list(acl),
        collection="contracts", metadata={}, updated_at="2026-01-01T00:00:00.000+00:00",
    )
    return record, revision, text, chunks


def test_import_documents_makes_new_documents_current_under_their_acl(store):
    a = _import_item("a", "ra", ["escrow release one", "escrow release two"], [axis(0), axis(1)], ["alice"])
    b = _import_item("b", "rb", ["escrow release three", "escrow release four"], [axis(0, 2), axis(3)], ["legal"])
    c = _import_item("c", "rc", ["escrow release five"], [axis(0, 4)], ["bob"])
    # Batches of at least 3 chunks: a + b, then c.
    assert store.import_documents([a, b, c], batch_chunks=3) == 5
    everyone = SearchFilters(principal=OPERATOR)
    assert sorted(ids(store.bm25("escrow release", everyone, 10))) == sorted(
        ch.chunk_id for item in (a, b, c) for ch in item[3])
    # The ACL is a condition of both queries, exactly as for documents written through the port.
    alice, bob = SearchFilters(principal=ALICE), SearchFilters(principal=BOB)
    assert sorted(ids(store.bm25("escrow", alice, 10))) == sorted(
        ch.chunk_id for item in (a, b) for ch in item[3])
    assert ids(store.knn(np.array(axis(0)), alice, 2)) == [a[3][0].chunk_id, b[3][0].chunk_id]
    assert ids(store.bm25("escrow", bob, 10)) == [c[3][0].chunk_id]
    assert ids(store.knn(np.array(axis(0)), bob, 10)) == [c[3][0].chunk_id]
    assert store.visible_document("a", BOB) is None
    docs, total = store.list_documents(BOB)
    assert ([d.doc_id for d in docs], total) == (["c"], 1)
    for record, revision, text, chunks in (a, b, c):
        doc = store.get_document(record.doc_id)
        assert (doc.status, doc.current_revision, doc.acl, doc.collection) == (
            "indexed", revision, record.acl, "contracts")
        assert [(r.revision, r.status, r.n_chunks) for r in doc.revisions] == [
            (revision, "current", len(chunks))]
        stored = store.revision_text(record.doc_id, revision)
        assert stored == text
        back = store.revision_chunks(record.doc_id, revision)
        assert [ch.chunk_id for ch in back] == [ch.chunk_id for ch in chunks]
        assert all(stored[ch.char_start:ch.char_end] == ch.text for ch in back)


def test_import_documents_never_overwrites_an_existing_document(store):
    from ingest.store.port import StoreError

    kept = _import_item("kept", "r1", ["lease renewal terms"], [axis(0)])
    store.import_documents([kept])
    newcomer = _import_item("new", "r1", ["novation terms here"], [axis(1)])
    again = _import_item("kept", "r2", ["other words entirely"], [axis(2)])
    with pytest.raises(StoreError, match="bulk write failed"):
        store.import_documents([newcomer, again])
    everyone = SearchFilters(principal=OPERATOR)
    # The existing document is untouched: its revision, text and search results.
    assert store.get_document("kept").current_revision == "r1"
    assert ids(store.bm25("lease renewal", everyone, 10)) == [kept[3][0].chunk_id]
    assert store.bm25("other words entirely", everyone, 10) == []
    assert store.revision_text("kept", "r2") is None
    # The failing batch keeps none of its documents: the other one is neither visible nor stored.
    assert store.get_document("new") is None
    assert store.bm25("novation", everyone, 10) == []
    assert ids(store.knn(np.array(axis(1)), everyone, 10)) == [kept[3][0].chunk_id]
    assert store.revision_text("new", "r1") is None
    assert store.revision_chunks("new", "r1") == []


def test_import_documents_batch_bound_is_refused_below_one_and_taken_at_one(store):
    """``batch_chunks`` is a bound on both stores (``port.import_batches``): 0 is refused before
    anything is written; 1 makes every document its own batch."""
    from ingest.store.port import StoreError

    first = _import_item("one", "r1", ["lease renewal terms"], [axis(0)])
    second = _import_item("two", "r1", ["novation terms here"], [axis(1)])
    with pytest.raises(StoreError, match="batch_chunks must be at least 1, got 0"):
        store.import_documents([first], batch_chunks=0)
    assert store.get_document("one") is None
    assert store.import_documents([first, second], batch_chunks=1) == 2
    everyone = SearchFilters(principal=OPERATOR)
    assert ids(store.bm25("novation", everyone, 10)) == [second[3][0].chunk_id]
    assert store.get_document("one").current_revision == "r1"
