"""One error tree: every family maps to one HTTP status (service/api/errors.py) and one CLI exit
code (ingest/errors.py), in one place each; library errors arrive translated."""

from __future__ import annotations

import sqlite3

import pytest

from ingest.deadline import DeadlineExceeded
from ingest.errors import (
    AttestError,
    ConflictError,
    InternalError,
    InvalidInputError,
    NotFoundError,
    UnavailableError,
    exit_code_for,
)
from ingest.guards import ExtractionError
from ingest.pipeline import IngestFailure
from ingest.store.port import DocumentDeleted, StoreError, StoreUnavailable
from service.api.errors import InvalidInput, status_for
from service.api.jobs import QueueFull
from service.cli import report_error
from service.evidence.conclude import UnknownEvidenceId
from service.evidence.states import InvalidTransition
from tests.api.conftest import ALICE

FAMILIES = [
    (InvalidInputError("bad"), 422, "validation_error", 2),
    (NotFoundError("gone"), 404, "not_found", 3),
    (ConflictError("clash"), 409, "conflict", 4),
    (UnavailableError("down"), 503, "unavailable", 5),
    (InternalError("bug"), 500, "internal_error", 1),
]


@pytest.mark.parametrize("exc, status, code, exit_code", FAMILIES)
def test_each_family_has_one_status_and_one_exit_code(exc, status, code, exit_code, capsys):
    assert status_for(exc) == (status, code)
    assert exit_code_for(exc) == exit_code
    assert report_error(exc) == exit_code
    assert capsys.readouterr().err == f"error: {exc.message}\n"


def test_the_old_roots_joined_the_tree():
    assert issubclass(StoreError, AttestError)
    assert issubclass(StoreUnavailable, UnavailableError)
    assert issubclass(DocumentDeleted, ConflictError)
    assert issubclass(ExtractionError, InvalidInputError)
    assert issubclass(IngestFailure, InvalidInputError)
    assert issubclass(QueueFull, UnavailableError)
    assert issubclass(DeadlineExceeded, UnavailableError)
    assert issubclass(InvalidTransition, InternalError)
    assert issubclass(UnknownEvidenceId, InternalError) and issubclass(UnknownEvidenceId, KeyError)
    assert status_for(InvalidInput("x")) == (422, "validation_error")


def test_sweep_and_mcp_errors_are_in_the_tree():
    from service.mcp.caller import current_caller
    from service.sweeps.definition import SweepDefinitionError, parse_definition
    from service.sweeps.live_values import LiveValueError

    with pytest.raises(SweepDefinitionError) as caught:
        parse_definition("name: x\n", "x.yaml")
    assert isinstance(caught.value, InvalidInputError) and isinstance(caught.value, ValueError)
    assert status_for(caught.value) == (422, "validation_error")
    assert caught.value.sweep_name == "x" and caught.value.principal_name is None
    assert issubclass(LiveValueError, UnavailableError)
    assert status_for(LiveValueError("down")) == (503, "unavailable")
    with pytest.raises(InternalError, match="no MCP caller is bound"):
        current_caller()


def test_sqlite_errors_are_translated_where_they_enter(tmp_path):
    from ingest.store.sqlite import SqliteStore

    store = SqliteStore(tmp_path / "attest.sqlite3", busy_timeout=0.05)
    blocker = sqlite3.connect(tmp_path / "attest.sqlite3", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable) as caught:
            store.append_audit({"action": "x"})
        assert isinstance(caught.value.__cause__, sqlite3.OperationalError)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()


@pytest.mark.parametrize("exc, status, code, _exit", FAMILIES)
def test_the_api_answers_each_family_with_its_status(app_factory, exc, status, code, _exit):
    client = app_factory()

    def boom() -> None:
        raise exc

    client.app.add_api_route("/v1/boom", boom)
    response = client.get("/v1/boom", headers=ALICE)
    assert response.status_code == status
    body = response.json()["error"]
    assert body["code"] == code
    expected = {404: "document not found", 500: "internal error; quote the request id"}
    assert body["message"] == expected.get(status, exc.message)
    assert ("retry-after" in response.headers) == (status == 503)


def test_an_unclassified_store_failure_is_503_and_a_bug_stays_500(app_factory):
    """A bare StoreError (the adapter could not classify the failure) is the store's fault, not
    the caller's and not proven a bug: 503 with Retry-After and a fixed message (its own names
    indexes), with the traceback logged. A broken invariant (StoreCorrupt) and a plain Python
    error are internal: 500."""
    from structlog.testing import capture_logs

    from ingest.store.port import StoreCorrupt

    client = app_factory()
    raised = {
        "store": StoreError("Elasticsearch refused bulk to attest-chunks-v1: mapper_parsing"),
        "corrupt": StoreCorrupt("record x cannot be read back"),
        "bug": RuntimeError("boom"),
    }

    def boom(kind: str) -> None:
        raise raised[kind]

    client.app.add_api_route("/v1/boom/{kind}", boom)
    with capture_logs() as logs:
        store = client.get("/v1/boom/store", headers=ALICE)
    assert store.status_code == 503 and store.headers["retry-after"] == "5"
    assert store.json()["error"]["code"] == "unavailable"
    assert store.json()["error"]["message"] == (
        "the document store could not complete the request; retry later")
    assert "attest-chunks" not in store.text
    failed = [e for e in logs if e["event"] == "request_failed"]
    assert failed and failed[0]["status"] == 503 and failed[0]["exc_info"] is raised["store"]
    for kind in ("corrupt", "bug"):
        answer = client.get(f"/v1/boom/{kind}", headers=ALICE)
        assert answer.status_code == 500, kind
        assert answer.json()["error"] == {"code": "internal_error",
                                          "message": "internal error; quote the request id",
                                          "request_id": answer.headers["x-request-id"]}
        assert "retry-after" not in answer.headers


def test_an_unclassified_store_failure_exits_5_in_the_cli(capsys):
    from ingest.store.port import StoreCorrupt

    assert exit_code_for(StoreError("bulk write failed")) == 5
    assert report_error(StoreError("bulk write failed")) == 5
    assert exit_code_for(StoreCorrupt("unreadable record")) == 1
    assert status_for(StoreError("x")) == (503, "unavailable")
    assert status_for(StoreCorrupt("x")) == (500, "internal_error")
