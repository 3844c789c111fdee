"""Issue 11, Low: the admin model, the doc-id character set, principal/group token kinds and
NUL bytes. Real app, real SQLite store, real pipeline (tests/api/conftest.py)."""

from __future__ import annotations

import json

import pytest

from service.api.auth import KeyConfigError, load_keyring
from tests.api.conftest import ADMIN, ALICE, ALICE_TEXT, ingest, make_settings, upload, wait_for
from tests.api.test_documents import assert_error


def test_admin_model(client):
    """Admins manage every document (delete, ACL, audited by name) but read only what an ACL
    grants them, and cannot replace the content of a document they cannot read."""
    accepted = ingest(client, ALICE, ALICE_TEXT, doc_id="board-minutes", acl="alice")
    assert accepted["doc_id"] == "alice~board-minutes"
    assert client.get("/v1/documents/alice~board-minutes", headers=ADMIN).status_code == 404
    source = f"/v1/documents/alice~board-minutes/revisions/{accepted['revision']}/text"
    assert client.get(source, headers=ADMIN).status_code == 404
    replaced = upload(client, ADMIN, "replacement text", "x.txt", doc_id="alice~board-minutes")
    assert_error(replaced, 404, "not_found")  # as for any document the admin cannot read
    # Granting itself access works, and is on the record under the admin's name.
    granted = client.put("/v1/documents/alice~board-minutes/acl", headers=ADMIN,
                         json={"acl": ["alice", "root"]})
    assert granted.status_code == 200 and granted.json()["acl"] == ["alice", "root"]
    entries = client.get("/v1/audit", headers=ADMIN,
                         params={"request_id": granted.headers["x-request-id"]}).json()["entries"]
    assert [(e["action"], e["principal"], e["old_acl"], e["new_acl"]) for e in entries] == [
        ("acl_change", "root", ["alice"], ["alice", "root"])
    ]
    assert client.get(source, headers=ADMIN).status_code == 200
    assert client.delete("/v1/documents/alice~board-minutes", headers=ADMIN).status_code == 200


@pytest.mark.parametrize(
    "doc_id",
    ["..", ".", "a\u202eb", "a\u0085b", "a\u200fb", "a/b", "a\\b", "tab\there", "a\u2066b"],
)
def test_unsafe_doc_ids_are_422(client, doc_id):
    assert_error(upload(client, ALICE, "text", "a.txt", doc_id=doc_id), 422, "validation_error")


@pytest.mark.parametrize("doc_id", ["Lease 2021 (signed)", "acme:msa-v2", "Vertrag_Müller", "o'neil&co"])
def test_safe_doc_ids_are_accepted(client, doc_id):
    response = upload(client, ALICE, "The term is five years.", "a.txt", doc_id=doc_id)
    assert response.status_code == 202, response.text
    assert wait_for(client, ALICE, doc_id)["status"] == "indexed"


def test_a_principal_named_like_a_group_is_refused_at_start(tmp_path):
    keys = {
        "k1-0123456789abcdef": {"principal": "legal", "groups": []},
        "k2-0123456789abcdef": {"principal": "alice", "groups": ["legal"]},
    }
    with pytest.raises(KeyConfigError, match="legal is both a principal and a group name"):
        load_keyring(make_settings(tmp_path, api_keys=json.dumps(keys)))


def test_nul_bytes_after_the_first_8kb_fail_the_document(client):
    data = ("The Supplier shall deliver the goods. " * 300).encode() + b"\x00hidden"
    assert len(data) > 9000
    response = upload(client, ALICE, data, "nul.txt", doc_id="nul")
    assert response.status_code == 202
    body = wait_for(client, ALICE, "nul")
    assert body["status"] == "failed"
    assert body["error"] == f"the text contains a NUL byte at character {data.index(0)}; not a text document"
    assert body["revisions"] == []
