"""Issue 11, Low: the server issues every request id; a client's X-Request-ID is kept apart
as ``client_request_id``, so one user can never file audit entries under another's id."""

from __future__ import annotations

from tests.api.conftest import ADMIN, ALICE, BOB


def test_a_client_cannot_reuse_another_requests_id_in_the_audit(client):
    alice = client.post("/v1/search", headers={**ALICE, "X-Request-ID": "shared-id-0001"},
                        json={"query": "term"})
    bob = client.post("/v1/search", headers={**BOB, "X-Request-ID": "shared-id-0001"},
                      json={"query": "term"})
    ids = {alice.headers["x-request-id"], bob.headers["x-request-id"]}
    assert len(ids) == 2 and "shared-id-0001" not in ids
    for response, principal in ((alice, "alice"), (bob, "bob")):
        entries = client.get("/v1/audit", headers=ADMIN,
                             params={"request_id": response.headers["x-request-id"]}).json()["entries"]
        assert [(e["principal"], e["client_request_id"]) for e in entries] == [
            (principal, "shared-id-0001")
        ]
    spoofed = client.get("/v1/audit", headers=ADMIN, params={"request_id": "shared-id-0001"})
    assert spoofed.json()["entries"] == []
