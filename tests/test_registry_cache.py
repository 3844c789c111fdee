"""The registry read layer's caches on a real SQLite file: decoded subject records
(``SqliteStore._subject_records``) and the near-miss name index (``service/evidence/near_misses``)
are kept per registry generation, and must answer every principal exactly as a cold store would,
through writes of every kind, including another connection's."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.schema import Binding, SubjectRecord
from ingest.store.port import Principal
from ingest.store.sqlite import SqliteStore
from service.evidence.gate import _near_misses as near_misses
from tests.test_store_contract import axis, put

ALICE = Principal("alice", groups=("legal",))
BOB = Principal("bob")
CAROL = Principal("carol", groups=("legal",))  # shares a group with Alice, not her own token
OPERATOR = Principal.local_operator()
PRINCIPALS = (ALICE, BOB, CAROL, OPERATOR)


def _acme(revision: str = "r", aliases: tuple[str, ...] = ("Company", "Acme Holdings")) -> SubjectRecord:
    return SubjectRecord(
        subject_id="org:acme holdings", name="Acme Holdings, Inc.", type="org", doc_id="a",
        revision=revision, aliases=list(aliases), char_start=0, char_end=19,
    )


def _fill(store: SqliteStore) -> None:
    agreement = SubjectRecord(
        subject_id="agreement:supply agreement@a", name="SUPPLY AGREEMENT", type="agreement",
        doc_id="a", revision="r", attributes={"title": "SUPPLY AGREEMENT"},
    )
    jane = SubjectRecord(
        subject_id="person:jane doe", name="Jane Doe", type="person", doc_id="a", revision="r",
        bindings=[
            Binding("founder_of", "org:acme holdings", "Acme Holdings, Inc.", "founder", "a", "r", 20, 60),
            Binding("party_to", "agreement:supply agreement@a", "SUPPLY AGREEMENT", None, "a", "r", 20, 60),
        ],
    )
    john = SubjectRecord(
        subject_id="person:john roe", name="John Roe", type="person", doc_id="b", revision="r",
        bindings=[Binding("founder_of", "org:beta", "Beta LLC", "founder", "b", "r", 5, 40)],
    )
    beta = SubjectRecord(subject_id="org:beta", name="Beta LLC", type="org", doc_id="b", revision="r")
    put(store, "a", "r", ["Acme Holdings, Inc. was founded by Jane Doe."], [axis(0)], acl=["alice"],
        subjects=[_acme(), jane, agreement])
    put(store, "b", "r", ["Beta LLC was founded by John Roe."], [axis(1)], acl=["bob"], subjects=[john, beta])
    store.activate_revision("a", "r")
    store.activate_revision("b", "r")


QUERIES = (
    {"name": "ACME HOLDINGS INC"},
    {"name": "company"},
    {"name": "Beta LLC", "type": "org"},
    {"type": "org"},
    {"type": "person"},
    {"role": "founder", "parent_id": "org:acme holdings"},
    {"relation": "party_to", "parent_id": "agreement:supply agreement@a"},
    {"relation": "founder_of"},
    {"subject_ids": ["org:acme holdings", "org:beta", "person:john roe"]},
    {"subject_ids": ["agreement:supply agreement@a"], "type": "agreement"},
    {"name": "Jane Doe", "relation": "founder_of"},
    {"type": "org", "limit": 1},
)


def _answers(store: SqliteStore) -> dict[tuple[str, int], list]:
    return {
        (p.name, i): [s.to_dict() for s in store.find_subjects(p, **q)]
        for p in PRINCIPALS
        for i, q in enumerate(QUERIES)
    }


def _cold_answers(path: Path) -> dict[tuple[str, int], list]:
    cold = SqliteStore(path)
    try:
        return _answers(cold)
    finally:
        cold.close()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "attest.sqlite3"


def test_generation_moves_with_every_write_a_registry_answer_depends_on(path: Path) -> None:
    store = SqliteStore(path)
    seen = [store.registry_generation()]

    def moved() -> bool:
        seen.append(store.registry_generation())
        return seen[-1] > seen[-2]

    put(store, "a", "r", ["Acme Holdings, Inc. was founded by Jane Doe."], [axis(0)], acl=["alice"],
        subjects=[_acme()])
    assert moved()  # a document row, its ACL tokens and its subjects
    store.activate_revision("a", "r")
    assert moved()
    store.find_subjects(ALICE, name="Acme Holdings")
    store.append_audit({"request_id": "q1", "principal": "alice", "action": "search"})
    assert not moved()  # reads and audit entries change no registry answer
    record = store.get_document("a")
    record.status = record.stage = "indexed"
    store.save_document(record)  # a status update: same ACL, same current revision
    assert not moved()
    store.set_acl("a", ["alice"])  # the same tokens again
    assert not moved()
    store.set_acl("a", ["bob"])
    assert moved()
    store.write_revision("a", "r", text="x", chunks=[], subjects=[_acme(aliases=("Acme",))], info={})
    assert moved()  # the current revision rewritten in place
    store.delete_document("a")
    assert moved()
    store.close()


def test_a_warm_cache_answers_every_principal_as_a_cold_store(path: Path) -> None:
    store = SqliteStore(path)
    _fill(store)
    warm_by_operator = [store.find_subjects(OPERATOR, **q) for q in QUERIES]  # decode every record
    assert any(warm_by_operator)
    answers = _answers(store)
    assert answers == _cold_answers(path)
    # Bob cannot read document a: nothing the operator's reads decoded reaches him.
    assert answers[("bob", 0)] == [] and answers[("bob", 5)] == []
    assert [s["subject_id"] for s in answers[("bob", 3)]] == ["org:beta"]
    assert [s["subject_id"] for s in answers[("carol", 3)]] == []  # "legal" is not on a's ACL

    store.set_acl("a", ["bob", "legal"])  # Bob gains a, Carol too through "legal", Alice keeps it
    answers = _answers(store)
    assert answers == _cold_answers(path)
    assert [s["subject_id"] for s in answers[("bob", 0)]] == ["org:acme holdings"]
    assert [s["subject_id"] for s in answers[("carol", 3)]] == ["org:acme holdings"]

    store.set_acl("a", ["carol"])
    answers = _answers(store)
    assert answers == _cold_answers(path)
    assert answers[("alice", 0)] == [] and answers[("bob", 0)] == []
    store.close()


def test_returned_subjects_are_copies(path: Path) -> None:
    store = SqliteStore(path)
    _fill(store)
    [jane] = store.find_subjects(ALICE, name="Jane Doe")
    jane.bindings.clear()
    jane.aliases.append("Janet")
    jane.attributes["changed"] = True
    jane.mentions.clear()
    [again] = store.find_subjects(ALICE, name="Jane Doe")
    assert (len(again.bindings), again.aliases, again.attributes, len(again.mentions)) == (2, [], {}, 1)
    store.close()


def test_a_current_revision_rewritten_in_place_is_decoded_again(path: Path) -> None:
    store = SqliteStore(path)
    _fill(store)
    assert store.find_subjects(ALICE, name="Acme Holdings")[0].aliases == ["Acme Holdings", "Company"]
    # A retry of the same revision (same doc, revision and subject ids) with other content.
    store.write_revision("a", "r", text="x", chunks=[], subjects=[_acme(aliases=("ACME",))], info={})
    assert [s.aliases for s in store.find_subjects(ALICE, name="ACME")] == [["ACME"]]
    assert store.find_subjects(ALICE, name="Company") == []
    store.close()


def test_another_connection_s_writes_are_seen(path: Path) -> None:
    store = SqliteStore(path)
    _fill(store)
    assert _answers(store)  # warm
    other = SqliteStore(path)  # another process's connection to the same file
    other.set_acl("b", ["alice"])
    renamed = SubjectRecord(subject_id="org:acme group", name="Acme Group", type="org", doc_id="a", revision="r2")
    put(other, "a", "r2", ["Acme Group terms"], [axis(0)], acl=["alice"], subjects=[renamed])
    other.activate_revision("a", "r2")
    other.close()
    answers = _answers(store)
    assert answers == _cold_answers(path)
    assert [s["subject_id"] for s in answers[("alice", 3)]] == ["org:acme group", "org:beta"]
    assert answers[("bob", 3)] == []
    store.close()


def test_near_miss_index_never_crosses_principal_views(path: Path) -> None:
    store = SqliteStore(path)
    _fill(store)
    assert near_misses(store, OPERATOR, ["Acme Holding"], ("org",)) == ["Acme Holdings"]
    assert near_misses(store, ALICE, ["Acme Holding"], ("org",)) == ["Acme Holdings"]
    assert near_misses(store, BOB, ["Acme Holding"], ("org",)) == []  # after two warm views
    assert near_misses(store, CAROL, ["Acme Holding"], ("org",)) == []
    assert near_misses(store, BOB, ["Beta LC"], ("org", "person")) == ["Beta LLC"]
    store.set_acl("a", ["bob"])
    assert near_misses(store, BOB, ["Acme Holding"], ("org",)) == ["Acme Holdings"]
    assert near_misses(store, ALICE, ["Acme Holding"], ("org",)) == []
    store.delete_document("a")
    assert near_misses(store, BOB, ["Acme Holding"], ("org",)) == []
    assert near_misses(store, OPERATOR, ["Acme Holding"], ("org",)) == []
    store.close()


@pytest.mark.parametrize(
    ("query", "seek"),
    [
        ({"name": "Acme Holdings"}, "SEARCH n USING PRIMARY KEY (name_norm=?)"),
        ({"name": "Jane Doe", "relation": "founder_of"}, "SEARCH n USING PRIMARY KEY (name_norm=?)"),
        ({"relation": "party_to", "parent_id": "agreement:supply agreement@a"},
         "SEARCH b USING INDEX bindings_object (object_id=? AND relation=?)"),
    ],
)
def test_look_ups_seek_their_index_instead_of_scanning_every_subject(path: Path, query, seek) -> None:
    """The gate makes a few dozen look-ups per question: each must cost an index seek, not a
    pass over the whole registry (at 50k chunks that scan was ~140 ms per question)."""
    store = SqliteStore(path)
    _fill(store)
    db = store._db()
    statements: list[str] = []
    db.set_trace_callback(statements.append)
    assert store.find_subjects(ALICE, **query)
    db.set_trace_callback(None)
    [select] = [s for s in statements if s.startswith("SELECT s.subject_id")]
    plan = [row[3] for row in db.execute("EXPLAIN QUERY PLAN " + select)]
    assert seek in plan
    assert not [step for step in plan if step.startswith("SCAN s")], plan
    store.close()
