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
    # File names only: the server's sweeps directory is never shown to a client.
    assert admin["errors"] == [{"source": "broken.yaml", "problems": [{"line": 4, "message": "queries: Input should be a valid list"}]}]
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


def test_running_an_invalid_definition_is_422_with_its_lines_for_those_who_may_run_it(sweep_app, tmp_path):
    """broken.yaml names sweep ``broken`` run by alice but does not validate: alice and admins
    get its problems (SweepDefinitionError is an input error: 422 through the one mapping);
    bob gets the 404 of a sweep that does not exist."""
    for headers in (ALICE, ADMIN):
        answer = sweep_app.post("/v1/sweeps/broken/runs", headers=headers)
        assert answer.status_code == 422, answer.text
        error = answer.json()["error"]
        assert error["code"] == "validation_error"
        assert error["message"] == "invalid sweep definition\nbroken.yaml:4: queries: Input should be a valid list"
        assert str(tmp_path) not in answer.text
    denied = sweep_app.post("/v1/sweeps/broken/runs", headers=BOB)
    assert denied.status_code == 404 and denied.json()["error"]["message"] == "sweep not found"


def test_a_duplicate_sweep_name_is_reported_without_server_paths(sweep_app, tmp_path):
    sweeps_dir = tmp_path / "sweeps"
    (sweeps_dir / "zz-copy.yaml").write_text((sweeps_dir / "contracts.yaml").read_text())
    listed = sweep_app.get("/v1/sweeps", headers=ADMIN)
    assert {"source": "zz-copy.yaml", "problems": [
        {"line": None, "message": "sweep name 'contracts' is also defined in contracts.yaml"}]} in listed.json()["errors"]
    assert str(tmp_path) not in listed.text


def _closed_port() -> int:
    import socket

    with socket.socket() as s:  # bound and closed again: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_live_value_provider_that_is_down_is_a_rule_error_not_a_500(app_factory, tmp_path):
    """The live-value endpoint (outside Attest; here a port nothing listens on) is down: the run
    still answers 201, its rules report ``error`` with the reason, the evidence is untouched."""
    sweeps_dir = tmp_path / "sweeps"
    path = write_definition(sweeps_dir, principal="alice", groups=("legal",))
    url = f"http://127.0.0.1:{_closed_port()}/rates"
    path.write_text(path.read_text().replace("  file: live.json", f"  url: {url}\n  timeout_seconds: 2"))
    client = app_factory(sweeps_dir=sweeps_dir)
    ingest(client, ALICE, MSA, filename="msa.txt", doc_id="msa", acl=json.dumps(["legal"]))
    answer = client.post("/v1/sweeps/contracts/runs", headers=ALICE)
    assert answer.status_code == 201, answer.text
    report = answer.json()
    # The expiry rule still runs: ``today`` falls back to the run's clock (not asserted here,
    # its outcome depends on the real date); the rate is missing, so the cap rule is an error.
    cap = next(r for r in report["rules"] if r["rule_id"] == "cap-below-1m-usd")
    (claim,) = cap["claims"]
    assert cap["outcome"] == claim["outcome"] == "error"
    assert claim["reason"].startswith(f"http:{url}: ConnectError")
    assert report["live_values"]["error"].startswith(f"http:{url}: ConnectError")
    assert report["status"] == "findings" and cap in report["findings"]["rules"]


def test_an_unreachable_store_in_the_sweeps_api_is_503_not_500(app_factory, tmp_path, embedder):
    """The document store (Elasticsearch on a port nothing listens on) is down: listing runs,
    reading one and running the sweep answer 503 with Retry-After, never 500."""
    from ingest.store.elastic import ElasticStore
    from service.api import create_app
    from fastapi.testclient import TestClient
    from tests.api.conftest import make_settings

    sweeps_dir = tmp_path / "sweeps"
    write_definition(sweeps_dir, principal="alice", groups=("legal",))
    store = ElasticStore(f"http://127.0.0.1:{_closed_port()}", prefix="down", max_retries=0, request_timeout=2)
    app = create_app(make_settings(tmp_path, sweeps_dir=sweeps_dir), store=store, embedder=embedder)
    with TestClient(app, raise_server_exceptions=False) as client:
        for answer in (
            client.get("/v1/sweeps/contracts/runs", headers=ALICE),
            client.get("/v1/sweeps/contracts/runs/20260101T000000000000-abcdef12", headers=ALICE),
            client.post("/v1/sweeps/contracts/runs", headers=ALICE),
        ):
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"]["code"] == "unavailable"
            assert answer.headers["Retry-After"]
