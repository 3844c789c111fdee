"""/v1/sweeps over the real app, a real SQLite store, the real ingest pipeline and models.

Sweep definitions come from ATTEST_SWEEPS_DIR (here a temp dir); alice's sweep runs as alice.
Only admins and the sweep's own principal may see, run or read it; everyone else gets the same
404 as for a sweep that does not exist."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.api.conftest import ADMIN, ALICE, BOB, ingest
from tests.sweep_fixtures import CSA, MSA, write_definition


@pytest.fixture
def sweep_app(app_factory, tmp_path: Path):
    sweeps_dir = tmp_path / "sweeps"
    write_definition(sweeps_dir, principal="alice", groups=("legal",))
    (sweeps_dir / "broken.yaml").write_text("name: broken\nprincipal: {name: alice}\nfreshness: 1d\nqueries: 3\n")
    client = app_factory(sweeps_dir=sweeps_dir)
    ingest(client, ALICE, MSA, filename="msa.txt", doc_id="msa", acl=json.dumps(["legal"]))
    ingest(client, ALICE, CSA, filename="csa.txt", doc_id="csa", acl=json.dumps(["legal"]))
    return client


def test_list_shows_sweeps_to_admin_and_their_principal_only(sweep_app):
    listed = sweep_app.get("/v1/sweeps", headers=ALICE).json()
    assert listed == {"sweeps": [{"name": "contracts", "description": "", "principal": "alice", "queries": 4, "rules": 2, "freshness": "30d"}]}
    admin = sweep_app.get("/v1/sweeps", headers=ADMIN).json()
    assert [s["name"] for s in admin["sweeps"]] == ["contracts"]
    assert admin["errors"] == [{"source": admin["errors"][0]["source"], "problems": [{"line": 4, "message": "queries: Input should be a valid list"}]}]
    assert admin["errors"][0]["source"].endswith("broken.yaml")
    assert sweep_app.get("/v1/sweeps", headers=BOB).json() == {"sweeps": []}
    assert sweep_app.get("/v1/sweeps").status_code == 401


def test_run_list_and_read_with_auth(sweep_app, tmp_path):
    denied = sweep_app.post("/v1/sweeps/contracts/runs", headers=BOB)
    unknown = sweep_app.post("/v1/sweeps/nope/runs", headers=BOB)
    assert denied.status_code == unknown.status_code == 404
    assert denied.json()["error"]["message"] == unknown.json()["error"]["message"] == "sweep not found"

    first = sweep_app.post("/v1/sweeps/contracts/runs", headers=ALICE)
    assert first.status_code == 201, first.text
    report = first.json()
    assert report["schema"] == "attest.sweep-report/1" and report["principal"]["name"] == "alice"
    assert report["request_id"] == first.headers["X-Request-ID"]
    assert {q["state"] for q in report["queries"]} == {"CONCLUDED"}

    second = sweep_app.post("/v1/sweeps/contracts/runs", headers=ADMIN, json={"set_baseline": True})
    assert second.status_code == 201
    body = second.json()
    assert body["principal"]["name"] == "alice"  # run as the sweep's principal, not the admin
    assert body["summary"]["bundle_hashes_identical"] is True and body["is_baseline"] is True

    runs = sweep_app.get("/v1/sweeps/contracts/runs", headers=ALICE).json()
    assert runs["total"] == 2 and [r["run_id"] for r in runs["runs"]] == [body["run_id"], report["run_id"]]
    assert runs["baseline_run_id"] == body["run_id"]
    assert sweep_app.get("/v1/sweeps/contracts/runs", headers=BOB).status_code == 404

    url = f"/v1/sweeps/contracts/runs/{report['run_id']}"
    assert sweep_app.get(url, headers=ALICE).json() == report
    assert sweep_app.get(url, headers=BOB).status_code == 404
    assert sweep_app.get("/v1/sweeps/contracts/runs/nope", headers=ALICE).status_code == 404
    html = sweep_app.get(url, headers={**ADMIN, "Accept": "text/html"})
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert html.headers["Content-Security-Policy"].startswith("default-src 'none'")
    assert f"<code>{report['run_id']}</code>" in html.text

    # Every query of the API run is audited under the request id of the POST.
    audit = sweep_app.get("/v1/audit", headers=ADMIN, params={"request_id": report["request_id"]}).json()["entries"]
    assert [e["action"] for e in audit].count("sweep_query") == 4
    assert audit[-1]["action"] == "sweep_run" and audit[-1]["triggered_by"] == "alice"

    # A removed definition: its stored runs still belong to its principal only.
    (tmp_path / "sweeps" / "contracts.yaml").unlink()
    assert sweep_app.get("/v1/sweeps/contracts/runs", headers=ALICE).json()["total"] == 2
    assert sweep_app.get("/v1/sweeps/contracts/runs", headers=BOB).status_code == 404
    assert sweep_app.post("/v1/sweeps/contracts/runs", headers=ALICE).status_code == 404
