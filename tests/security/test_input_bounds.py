"""Issue 11, High 2 (bounds and the request deadline) and High 3 (deep JSON): every input that
drives work has a bound that answers 422 at the bound + 1, one stored record can never break a
listing, and a request past its deadline answers 503 instead of holding the caller.

Real app, real SQLite store, real embedder (tests/api/conftest.py).
"""

from __future__ import annotations

import pytest

from ingest.schema import DocumentRecord
from service.evidence.models import MAX_NAME_CHARS, MAX_PARTIES
from tests.api.conftest import ADMIN, ALICE, BOB, upload
from tests.api.test_documents import assert_error


def _question(subject: dict | None = None, **extra) -> dict:
    body = {"question": "What is the governing law of the Supply Agreement?", **extra}
    if subject is not None:
        body["subject"] = subject
    return body


@pytest.mark.parametrize(
    "body, where",
    [
        (_question({"kind": "agreement_attribute", "parties": ["Acme"] * (MAX_PARTIES + 1)}),
         "subject.parties"),
        (_question({"kind": "agreement_attribute", "parties": ["A" * (MAX_NAME_CHARS + 1)]}),
         "subject.parties.0"),
        (_question({"kind": "entity_role", "name": "N" * (MAX_NAME_CHARS + 1)}), "subject.name"),
        (_question({"kind": "entity_role", "parent_entity": "P" * (MAX_NAME_CHARS + 1)}),
         "subject.parent_entity"),
        (_question(scope={"doc_ids": ["d"] * 1001}), "scope.doc_ids"),
        (_question(scope={"collections": ["c" * 201]}), "scope.collections.0"),
        ({"question": "q" * 2001}, "question"),
    ],
)
def test_evidence_inputs_over_their_bound_are_422(client, body, where):
    body = assert_error(client.post("/v1/evidence/query", headers=ALICE, json=body), 422,
                        "validation_error")
    assert body["error"]["message"].startswith(f"{where}: ")


def test_evidence_inputs_at_their_bound_are_accepted(client):
    at_bound = _question(
        {"kind": "agreement_attribute", "agreement_title": "Supply Agreement",
         "parties": [f"Party {i}" for i in range(MAX_PARTIES)]},
        scope={"doc_ids": [f"d{i}" for i in range(1000)]},
    )
    response = client.post("/v1/evidence/query", headers=ALICE, json=at_bound)
    assert response.status_code == 200, response.text
    assert response.json()["state"] == "SUBJECT_NOT_FOUND"  # an empty store: no candidate


@pytest.mark.parametrize(
    "body",
    [
        {"query": "x", "k": 101},
        {"query": "x", "filters": {"doc_ids": ["d"] * 1001}},
        {"query": "x", "filters": {"collections": ["c" * 201]}},
        {"query": "q" * 2001},
    ],
)
def test_search_inputs_over_their_bound_are_422(client, body):
    assert_error(client.post("/v1/search", headers=ALICE, json=body), 422, "validation_error")


@pytest.mark.parametrize("depth", [9, 600, 100_000])
def test_deep_metadata_is_refused_at_the_door(client, depth):
    """600 levels used to be accepted (202) and then break every listing; 100,000 levels used to
    crash the upload with a 500."""
    deep = "[" * depth + "]" * depth
    raw = '{"a": ' + deep + "}" if depth < 30_000 else deep
    response = upload(client, ALICE, "some text", "m.txt", metadata=raw)
    body = assert_error(response, 422, "validation_error")
    assert body["error"]["message"] in (
        "metadata: nested deeper than 8 levels",
        "metadata: at most 65536 characters",
    )


def test_metadata_at_the_depth_bound_is_accepted(client):
    nested = '{"a": {"b": {"c": {"d": {"e": {"f": {"g": [1]}}}}}}}'  # 8 levels
    response = upload(client, ALICE, "some text", "m.txt", metadata=nested)
    assert response.status_code == 202, response.text


@pytest.mark.parametrize("raw", ['[["alice"]]', "[" * 5000 + "]" * 5000, '[{"a": "b"}]'])
def test_nested_acl_is_422(client, raw):
    body = assert_error(upload(client, ALICE, "text", "a.txt", acl=raw), 422, "validation_error")
    assert body["error"]["message"] == "acl: must be a flat array of strings"


def test_one_unreadable_stored_record_never_breaks_the_listing(client):
    """A record stored before the API checked depth (here written straight to the store) is
    listed with its metadata withheld; every other document still lists, for every caller."""
    store = client.app.state.ctx.require_store()
    value: object = "leaf"
    for _ in range(600):
        value = {"k": value}
    for doc_id, metadata in (("deep", value), ("fine", {"team": "legal"})):
        store.save_document(DocumentRecord(
            doc_id=doc_id, status="indexed", stage="indexed", error=None, current_revision=None,
            title=doc_id, filename=f"{doc_id}.txt", acl=["*"], collection="", metadata=metadata,
            updated_at="2026-01-01T00:00:00.000+00:00",
        ))
    for headers in (ALICE, BOB, ADMIN):
        response = client.get("/v1/documents", headers=headers)
        assert response.status_code == 200, response.text
        listed = {d["doc_id"]: d["metadata"] for d in response.json()["documents"]}
        assert listed == {"deep": {"_withheld": "unreadable"}, "fine": {"team": "legal"}}
    assert client.get("/v1/documents/deep", headers=ALICE).json()["metadata"] == {
        "_withheld": "unreadable"
    }


def test_a_request_past_its_deadline_is_503_with_retry_after(app_factory, tmp_path):
    client = app_factory(tmp_path / "slow", request_timeout_seconds=0.005)
    response = client.post("/v1/evidence/query", headers=ALICE, json=_question())
    body = assert_error(response, 503, "deadline_exceeded")
    assert body["error"]["message"] == (
        "the request took longer than 0.005 s; narrow it or retry later"
    )
    assert response.headers["retry-after"] == "5"
    # Uploads are exempt (their size limit bounds them): still accepted.
    assert upload(client, ALICE, "text", "a.txt").status_code == 202
