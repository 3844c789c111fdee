"""GET /v1/table: the review grid over HTTP, ACL-filtered per caller, with bounded inputs."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import ALICE, BOB

EVIDENCE_KEYS = {"id", "doc_id", "revision", "page", "section", "line_start", "line_end",
                 "char_start", "char_end", "excerpt", "source_url"}


def test_table_shape_and_acl(two_tenants: tuple[TestClient, dict[str, Any]]) -> None:
    client, _ = two_tenants
    response = client.get("/v1/table?type=agreement&attribute=governing_law&page=1&page_size=50", headers=ALICE)
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"type", "attributes", "page", "page_size", "total", "rows"}
    assert (body["type"], body["attributes"], body["page"], body["page_size"]) == ("agreement", ["governing_law"], 1, 50)
    # Alice reads only her supply agreement: Bob's consulting agreement is not a row, not a count.
    assert body["total"] == len(body["rows"]) >= 1
    assert {r["doc_id"] for r in body["rows"]} == {"alice~alice-supply"}
    row = body["rows"][0]
    assert set(row) == {"subject_id", "name", "doc_id", "title", "cells"}
    cell = row["cells"]["governing_law"]
    assert cell["value"] == "delaware" and cell["sufficient"] is True
    assert set(cell["evidence"][0]) == EVIDENCE_KEYS
    assert cell["evidence"][0]["excerpt"] == "This Agreement is governed by the laws of the State of Delaware."
    bob = client.get("/v1/table?attribute=governing_law", headers=BOB).json()
    assert {r["doc_id"] for r in bob["rows"]} == {"bob~bob-consulting"}
    assert bob["rows"][0]["cells"]["governing_law"] == {"value": "not stated", "sufficient": False, "evidence": []}


def test_table_bad_input_is_422(two_tenants: tuple[TestClient, dict[str, Any]]) -> None:
    client, _ = two_tenants
    for query in ("attribute=favourite_colour", "attribute=governing_law&type=person",
                  "attribute=governing_law&page_size=101", "attribute=governing_law&page=0", ""):
        response = client.get(f"/v1/table?{query}", headers=ALICE)
        assert response.status_code == 422, (query, response.text)
        assert response.json()["error"]["code"] in ("validation_error", "invalid_input")


def test_table_needs_auth(two_tenants: tuple[TestClient, dict[str, Any]]) -> None:
    client, _ = two_tenants
    assert client.get("/v1/table?attribute=governing_law").status_code == 401


def test_class_question_over_the_api_is_acl_filtered(two_tenants: tuple[TestClient, dict[str, Any]]) -> None:
    client, _ = two_tenants
    question = {"question": "Which agreements are governed by Delaware law?"}
    alice = client.post("/v1/evidence/query", headers=ALICE, json=question).json()
    bob = client.post("/v1/evidence/query", headers=BOB, json=question).json()
    assert alice["state"] == "CONCLUDED" and alice["sufficient"] is True
    assert [e["doc_id"] for e in alice["evidence"]] == ["alice~alice-supply"]
    # Bob's only agreement states no governing law; Alice's is neither a row, a count nor a claim.
    assert bob["sufficient"] is False
    assert all(r["subject_id"].endswith("@bob~bob-consulting") for r in bob["table"])
    text = json.dumps(bob)
    assert "alice-supply" not in text and "Zephyrion" not in text


def test_registry_question_over_the_api_is_acl_filtered(two_tenants: tuple[TestClient, dict[str, Any]]) -> None:
    client, _ = two_tenants
    question = {"question": "Who are the parties to the MASTER SUPPLY AGREEMENT?"}
    alice = client.post("/v1/evidence/query", headers=ALICE, json=question).json()
    bob = client.post("/v1/evidence/query", headers=BOB, json=question).json()
    assert alice["state"] == "CONCLUDED" and alice["claims"]
    assert all(e["doc_id"] == "alice~alice-supply" for e in alice["evidence"])
    assert bob["state"] == "SUBJECT_NOT_FOUND" and bob["evidence"] == [] and bob["claims"] == []
