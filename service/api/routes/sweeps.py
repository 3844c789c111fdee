"""/v1/sweeps: list sweep definitions, run a sweep, list its runs and read a run's report.

The server reads definitions from ``ATTEST_SWEEPS_DIR`` (every ``*.yaml``/``*.yml`` file there,
read at each request, so a new file needs no restart). A sweep is visible to, and may be run and
read by, admins and the sweep's own principal only; anyone else gets the same 404 as for a sweep
that does not exist. A run executes as the sweep's principal (never as the caller), synchronously,
under the request's id, which is the run's ``request_id`` in the report and in the audit log.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from ingest.store.port import Principal
from service.api.deps import CurrentPrincipal, EmbedderDep, RequestId, SettingsDep, StoreDep
from service.api.errors import Conflict, NotFound
from service.api.schemas import ERROR_RESPONSES, NOT_FOUND_RESPONSE
from service.sweeps.definition import LoadedDefinition, SweepDefinitionError, find_sweep_definitions

router = APIRouter(prefix="/v1/sweeps", tags=["sweeps"], responses={**ERROR_RESPONSES, **NOT_FOUND_RESPONSE})

_running: set[str] = set()
_running_lock = threading.Lock()

class RunRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    set_baseline: bool = Field(False, description="this run becomes the sweep's baseline")

def _sweep_not_found() -> NotFound:
    return NotFound("sweep not found")

def _may_use(principal: Principal, owner: str) -> bool:
    return principal.admin or principal.name == owner

def _definitions(settings: Any) -> tuple[dict[str, LoadedDefinition], list[Any]]:
    if settings.sweeps_dir is None:
        return {}, []
    return find_sweep_definitions(settings.sweeps_dir)

def _public_error(error: SweepDefinitionError, settings: Any) -> SweepDefinitionError:
    """The same problems with the server's paths cut to file names: a client learns which file
    of the sweeps directory is broken and where, never where that directory is."""
    def scrub(text: str) -> str:
        if settings.sweeps_dir is not None:
            text = text.replace(str(Path(settings.sweeps_dir).resolve()) + "/", "")
            text = text.replace(str(settings.sweeps_dir).rstrip("/") + "/", "")
        return text

    public = SweepDefinitionError(
        Path(error.source).name, [(line, scrub(message)) for line, message in error.problems]
    )
    public.sweep_name, public.principal_name = error.sweep_name, error.principal_name
    return public

def _definition_for(name: str, settings: Any, principal: Principal) -> LoadedDefinition:
    found, errors = _definitions(settings)
    loaded = found.get(name)
    if loaded is None:
        # A file that names this sweep but does not validate: its problems (422, through the one
        # error mapping) for those who could run it, the usual 404 for anyone else.
        for error in errors:
            if error.sweep_name == name and (principal.admin or principal.name == error.principal_name):
                raise _public_error(error, settings) from error
        raise _sweep_not_found()
    if not _may_use(principal, loaded.definition.principal.name):
        raise _sweep_not_found()
    return loaded

@router.get("")
def list_sweeps(settings: SettingsDep, principal: CurrentPrincipal) -> dict[str, Any]:
    """The sweeps the caller may run: admins see all (and the files that failed to load)."""
    found, errors = _definitions(settings)
    sweeps = [
        {
            "name": d.definition.name,
            "description": d.definition.description,
            "principal": d.definition.principal.name,
            "queries": len(d.definition.queries),
            "rules": len(d.definition.rules),
            "freshness": d.definition.freshness,
        }
        for name, d in sorted(found.items())
        if _may_use(principal, d.definition.principal.name)
    ]
    body: dict[str, Any] = {"sweeps": sweeps}
    if principal.admin:
        public = [_public_error(e, settings) for e in errors]
        body["errors"] = [{"source": e.source, "problems": [{"line": l, "message": m} for l, m in e.problems]} for e in public]
    return body

@router.post("/{name}/runs", status_code=201, responses={409: {"description": "A run of this sweep is in progress"}})
def run_sweep_now(
    name: str,
    store: StoreDep,
    embedder: EmbedderDep,
    settings: SettingsDep,
    principal: CurrentPrincipal,
    request_id: RequestId,
    body: RunRequest | None = None,
) -> dict[str, Any]:
    """Run the sweep now (admin or the sweep's principal); answers the run's JSON report."""
    from service.sweeps.runner import run_sweep
    from service.sweeps.runstore import open_run_store

    loaded = _definition_for(name, settings, principal)
    with _running_lock:
        if name in _running:
            raise Conflict(f"a run of sweep {name!r} is in progress")
        _running.add(name)
    try:
        runs = open_run_store(store)
        outcome = run_sweep(
            loaded, store=store, runs=runs, embedder=embedder, settings=settings,
            set_baseline=bool(body and body.set_baseline), request_id=request_id,
            triggered_by=principal.name,
        )
    finally:
        with _running_lock:
            _running.discard(name)
    return outcome.report

def _authorise_runs(name: str, settings: Any, principal: Principal, runs: Any) -> None:
    loaded = _definitions(settings)[0].get(name)
    if loaded is not None:
        owner = loaded.definition.principal.name
    else:  # the definition was removed: its stored runs still belong to their principal
        latest, _ = runs.list_runs(name, limit=1)
        if not latest:
            raise _sweep_not_found()
        record = runs.get_run(name, latest[0]["run_id"]) or {}
        owner = record.get("principal", {}).get("name", "")
    if not _may_use(principal, owner):
        raise _sweep_not_found()

@router.get("/{name}/runs")
def list_runs(
    name: str,
    store: StoreDep,
    settings: SettingsDep,
    principal: CurrentPrincipal,
    offset: Annotated[int, Query(ge=0, le=9800)] = 0,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Run summaries, newest first."""
    from service.sweeps.runstore import open_run_store

    runs = open_run_store(store)
    _authorise_runs(name, settings, principal, runs)
    items, total = runs.list_runs(name, offset=offset, limit=limit)
    return {"sweep": name, "baseline_run_id": runs.baseline_run_id(name), "runs": items,
            "total": total, "offset": offset, "limit": limit}

@router.get(
    "/{name}/runs/{run_id}",
    responses={200: {"content": {"application/json": {}, "text/html": {}},
                     "description": "The report: JSON, or HTML with `Accept: text/html`"}},
)
def get_run(
    name: str,
    run_id: str,
    request: Request,
    store: StoreDep,
    principal: CurrentPrincipal,
) -> Any:
    """The run's report (schema ``attest.sweep-report/1``), as HTML when the client asks for it."""
    from service.sweeps.html import CSP, render_html
    from service.sweeps.runstore import open_run_store

    if len(run_id) > 100:
        raise NotFound("sweep run not found")
    runs = open_run_store(store)
    record = runs.get_run(name, run_id)
    if record is None or not _may_use(principal, record.get("principal", {}).get("name", "")):
        raise NotFound("sweep run not found")
    report = record["report"]
    if "text/html" in request.headers.get("accept", ""):
        return HTMLResponse(render_html(report), headers={"Content-Security-Policy": CSP})
    return JSONResponse(report)
