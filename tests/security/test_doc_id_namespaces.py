"""Issue 11, Low: an upload must not tell whether another principal uses a doc id (it answered
409 for a taken id and 202 for a free one). Doc ids chosen at upload are names in the uploader's
namespace (``service/api/doc_ids.py``). Real app, real SQLite store, real pipeline.
"""

from __future__ import annotations

from typing import Any

from tests.api.conftest import ALICE, ALICE_TEXT, BOB, ingest, upload, wait_for

BOB_BYTES = "Bob's memo. The Supplier shall deliver the goods within ten (10) days."


def _shape(view: dict[str, Any]) -> dict[str, Any]:
    """A document view without what differs by construction (ids, times, the file name)."""
    return {
        "status": view["status"],
        "error": view["error"],
        "acl": view["acl"],
        "revisions": len(view["revisions"]),
        "jobs": [(j["state"], j["error"]) for j in view["jobs"]],
        "current": view["current_revision"],
    }


def _without_request_id(response) -> dict[str, Any]:
    body = response.json()
    body["error"].pop("request_id")
    return body


def test_a_taken_name_and_a_free_name_answer_the_same_way(client):
    alice = ingest(client, ALICE, ALICE_TEXT, filename="a.txt", doc_id="taken")
    taken = upload(client, BOB, BOB_BYTES, "memo.txt", doc_id="taken")
    free = upload(client, BOB, BOB_BYTES, "memo.txt", doc_id="never-used")
    assert (taken.status_code, free.status_code) == (202, 202), (taken.text, free.text)
    assert alice["doc_id"] == "alice~taken"
    taken_body, free_body = taken.json(), free.json()
    assert taken_body["doc_id"] == "bob~taken" and free_body["doc_id"] == "bob~never-used"
    assert {k: v for k, v in taken_body.items() if k not in ("doc_id", "job_id")} == {
        k: v for k, v in free_body.items() if k not in ("doc_id", "job_id")}
    assert taken_body["job_id"] != free_body["job_id"]

    # Later states too: both of bob's documents go the same way, and he reads them by name.
    views = [wait_for(client, BOB, name) for name in ("taken", "never-used")]
    assert _shape(views[0]) == _shape(views[1])
    assert _shape(views[0])["status"] == "indexed" and views[0]["acl"] == ["bob"]
    assert [v["doc_id"] for v in views] == ["bob~taken", "bob~never-used"]
    listed = client.get("/v1/documents", headers=BOB).json()
    assert listed["total"] == 2
    assert sorted(d["doc_id"] for d in listed["documents"]) == ["bob~never-used", "bob~taken"]

    # Alice's document is untouched and still hers under the same name.
    mine = client.get("/v1/documents/taken", headers=ALICE).json()
    assert mine["doc_id"] == "alice~taken" and len(mine["revisions"]) == 1
    assert mine["acl"] == ["alice"] and client.get("/v1/documents", headers=ALICE).json()["total"] == 1
    text = client.get(f"/v1/documents/taken/revisions/{alice['revision']}/text", headers=ALICE)
    assert "Zephyrion" in text.json()["passage"]
    # Search by bare name finds each caller's own document, never the other's.
    for headers, owner, word in ((ALICE, "alice~taken", "Zephyrion"), (BOB, "bob~taken", "memo")):
        hits = client.post("/v1/search", headers=headers,
                           json={"query": word, "filters": {"doc_ids": ["taken"]}}).json()["hits"]
        assert hits and {h["doc_id"] for h in hits} == {owner}


def test_another_namespace_is_the_same_404_whether_the_document_exists_or_not(client):
    ingest(client, ALICE, ALICE_TEXT, filename="a.txt", doc_id="board-minutes")
    answers = [
        upload(client, BOB, BOB_BYTES, "memo.txt", doc_id=doc_id)
        for doc_id in ("alice~board-minutes", "alice~no-such-document", "carol~board-minutes")
    ]
    assert [a.status_code for a in answers] == [404, 404, 404]
    bodies = [_without_request_id(a) for a in answers]
    assert bodies[0] == bodies[1] == bodies[2] == {
        "error": {"code": "not_found", "message": "document not found"}}
    assert [a.headers.get("content-length") for a in answers][0] == answers[1].headers.get("content-length")
    reads = [client.get(f"/v1/documents/{d}", headers=BOB) for d in ("alice~board-minutes", "alice~nope")]
    assert _without_request_id(reads[0]) == _without_request_id(reads[1])
    assert client.get("/v1/documents/alice~board-minutes", headers=ALICE).json()["revisions"][0]


def test_a_shared_document_is_reached_and_revised_by_its_full_id(client):
    shared = ingest(client, ALICE, ALICE_TEXT, filename="a.txt", doc_id="msa", acl="alice,bob")
    assert shared["doc_id"] == "alice~msa"
    assert client.get("/v1/documents/alice~msa", headers=BOB).status_code == 200
    assert client.get("/v1/documents/msa", headers=BOB).status_code == 404  # bob's own "msa": none
    revised = upload(client, BOB, ALICE_TEXT + "\n3. NOTICES\n\nBy email.\n", "a2.txt",
                     doc_id="alice~msa")
    assert revised.status_code == 202 and revised.json()["doc_id"] == "alice~msa"
    body = wait_for(client, ALICE, "msa", revised.json()["revision"])
    assert body["status"] == "indexed" and len(body["revisions"]) == 2
    # An owner may name its own namespace in full; the name may not hold the separator itself.
    assert upload(client, ALICE, "x", "x.txt", doc_id="alice~msa").json()["doc_id"] == "alice~msa"
    assert upload(client, ALICE, "x", "x.txt", doc_id="a~b~c").status_code == 422
