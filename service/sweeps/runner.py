"""Running a sweep: every query through the evidence state machine as the sweep's principal,
then (evidence attached) live values and rules, then the comparison with the baseline, the
audit entries and the durable run record.

Audit entries of one run all carry the run's ``request_id``:

* ``sweep_query``   per query: input, state trace, evidence bundle and its hash, and the
  query's own reproducible ``evidence_request_id`` (``<run request id>.q<n>``, also the
  report's ``request_id``);
* ``sweep_live_values``  the provider's response with its own ``live_request_id``
  (``<run request id>.live``);
* ``sweep_rule``    per rule: the evidence it read (bundle and hash, with the evidence request
  id) and the live values it used (with the live request id), kept side by side but apart;
* ``sweep_run``     the outcome and finding counts (``sweep_run_failed`` when it could not run).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

import structlog

from ingest.embedder import Embedder
from ingest.settings import Settings
from ingest.store.port import Principal, Store
from service.evidence.machine import run_evidence_query
from service.evidence.models import EvidenceRequest
from service.sweeps.citations import citation_key
from service.sweeps.definition import LoadedDefinition, SweepDefinition
from service.sweeps.live_values import (
    FileProvider,
    HttpJsonProvider,
    LiveValueProvider,
    fetch_live_values,
)
from service.sweeps.report import build_report, document_states
from service.sweeps.rules import evaluate_rule, live_names
from service.sweeps.runstore import SweepRunStore

log = structlog.get_logger(__name__)

RUN_SCHEMA = "attest.sweep-run/1"


@dataclass(slots=True)
class SweepOutcome:
    record: dict[str, Any]
    report: dict[str, Any]

    @property
    def exit_code(self) -> int:
        return int(self.report["exit_code"])


def sweep_principal(definition: SweepDefinition) -> Principal:
    """The sweep's own principal: never admin, never unrestricted."""
    return Principal(name=definition.principal.name, groups=tuple(sorted(set(definition.principal.groups))))


def provider_for(loaded: LoadedDefinition) -> LiveValueProvider | None:
    source = loaded.definition.live_values
    if source is None:
        return None
    if source.url:
        return HttpJsonProvider(source.url, timeout=source.timeout_seconds)
    path = Path(source.file or "")
    return FileProvider(path if path.is_absolute() else loaded.base_dir / path)


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")


def _audit(store: Store, action: str, request_id: str, principal: Principal, **fields: Any) -> None:
    store.append_audit(
        {"action": action, "request_id": request_id, "principal": principal.name,
         "groups": list(principal.groups), **fields}
    )


def run_sweep(
    loaded: LoadedDefinition,
    *,
    store: Store,
    runs: SweepRunStore,
    embedder: Embedder,
    settings: Settings,
    set_baseline: bool = False,
    request_id: str | None = None,
    triggered_by: str = "local",
    provider: LiveValueProvider | None = None,
    now: datetime | None = None,
    on_query: Callable[[int], None] | None = None,
) -> SweepOutcome:
    """Run, compare, audit and store one sweep. ``provider`` overrides the definition's live-value
    source; ``now`` fixes the clock the report judges by (freshness and the fallback ``today``);
    the run's own timestamps and id always come from the real clock, so runs order by time.
    ``on_query(done)`` is called after each query (the CLI's progress)."""
    definition = loaded.definition
    principal = sweep_principal(definition)
    request_id = request_id or uuid.uuid4().hex
    started = datetime.now(timezone.utc)
    as_of = now or started
    run_id = f"{started.strftime('%Y%m%dT%H%M%S%f')}-{uuid.uuid4().hex[:8]}"
    provider = provider if provider is not None else provider_for(loaded)
    bound = log.bind(sweep=definition.name, run_id=run_id, request_id=request_id)
    bound.info("sweep_started", queries=len(definition.queries))
    try:
        results = _run_queries(definition, principal, store, embedder, settings, request_id, on_query)

        # Evidence is attached to every query: only now may live values be fetched.
        claims_by_query = {r["query_id"]: r["claims"] for r in results}
        names = live_names(definition.rules, claims_by_query)
        live = fetch_live_values(provider, names, as_of.date())
        live_record = {"live_request_id": f"{request_id}.live", **live.to_dict()} if names else None
        if live_record is not None:
            _audit(store, "sweep_live_values", request_id, principal, sweep=definition.name,
                   run_id=run_id, live_request_id=live_record["live_request_id"], names=names,
                   response=live.to_dict())
        rule_outcomes = [evaluate_rule(rule, claims_by_query.get(rule.query, []), live) for rule in definition.rules]
        by_query = {r["query_id"]: r for r in results}
        for outcome in rule_outcomes:
            result = by_query[outcome["query_id"]]
            cited = {eid for c in outcome["claims"] for eid in c["evidence_ids"]}
            _audit(
                store, "sweep_rule", request_id, principal, sweep=definition.name, run_id=run_id,
                rule_id=outcome["rule_id"], outcome=outcome["outcome"], claims=outcome["claims"],
                evidence_request_id=result["evidence_request_id"],
                evidence=[e for e in result["evidence"] if e["id"] in cited],
                evidence_bundle_hash=result["evidence_bundle_hash"],
                live_request_id=live_record["live_request_id"] if live_record else None,
                live_values=live.to_dict() if live_record else None,
            )

        baseline_id = runs.baseline_run_id(definition.name)
        baseline = runs.get_run(definition.name, baseline_id) if baseline_id else None
        documents = document_states(store, principal, results, baseline, definition)
        record: dict[str, Any] = {
            "schema": RUN_SCHEMA,
            "sweep": definition.name,
            "run_id": run_id,
            "request_id": request_id,
            "triggered_by": triggered_by,
            "started_at": _iso(started),
            "finished_at": _iso(datetime.now(timezone.utc)),
            "principal": {"name": principal.name, "groups": list(principal.groups)},
            "definition": definition.model_dump(mode="json"),
            "definition_sha256": hashlib.sha256(loaded.text.encode("utf-8")).hexdigest(),
            "definition_path": loaded.path,
            "baseline_run_id": baseline["run_id"] if baseline else None,
            "is_baseline": baseline is None or set_baseline,
            "results": results,
            "documents": documents,
            "live_values": live_record,
            "rules": rule_outcomes,
        }
        report = build_report(record, baseline, store=store, principal=principal, now=as_of)
        record["report"] = report
        runs.save_run(record, report_summary(report))
        if record["is_baseline"]:
            runs.set_baseline(definition.name, run_id)
    except Exception as exc:
        bound.warning("sweep_failed", error=type(exc).__name__)
        try:  # the store itself may be what failed: the original error is the one to raise
            _audit(store, "sweep_run_failed", request_id, principal, sweep=definition.name,
                   run_id=run_id, triggered_by=triggered_by, error=f"{type(exc).__name__}: {exc}")
        except Exception as audit_exc:  # noqa: BLE001
            bound.warning("sweep_failure_not_audited", error=type(audit_exc).__name__)
        raise
    _audit(store, "sweep_run", request_id, principal, sweep=definition.name, run_id=run_id,
           triggered_by=triggered_by, status=report["status"], is_baseline=record["is_baseline"],
           baseline_run_id=record["baseline_run_id"], counts=report["summary"]["counts"])
    bound.info("sweep_finished", status=report["status"], findings=report["summary"]["findings"])
    return SweepOutcome(record, report)


def _run_queries(
    definition: SweepDefinition, principal: Principal, store: Store, embedder: Embedder,
    settings: Settings, request_id: str, on_query: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    results: list[dict[str, Any]] = []
    for n, query in enumerate(definition.queries, start=1):
        request = EvidenceRequest(question=query.question, subject=query.subject, scope=query.scope)
        evidence_request_id = f"{request_id}.q{n}"
        report = run_evidence_query(
            request, principal, store=store, embedder=embedder, settings=settings,
            request_id=evidence_request_id,
        )
        dumped = report.model_dump(mode="json")
        table = dumped.get("table")
        evidence, bundle = dumped["evidence"], report.evidence_bundle_hash
        if table is not None:
            evidence, bundle = with_row_evidence(evidence, table)
        result = {
            "query_id": query.id,
            "evidence_request_id": evidence_request_id,
            "input": request.model_dump(mode="json"),
            "state": report.state,
            "trace": dumped["trace"],
            "sufficient": report.sufficient,
            "confidence": report.confidence,
            "risk_signals": report.risk_signals,
            "evidence": evidence,
            "claims": dumped["claims"],
            "conflicts": dumped["conflicts"],
            "evidence_bundle_hash": bundle,
            # The answer's own hash (the evidence report's); for a class-level question the
            # sweep's hash above also covers every row's citation.
            "answer_bundle_hash": report.evidence_bundle_hash,
            "table": table,
        }
        results.append(result)
        _audit(
            store, "sweep_query", request_id, principal, sweep=definition.name,
            query_id=query.id, evidence_request_id=evidence_request_id, input=result["input"],
            state=report.state, trace=result["trace"], evidence=result["evidence"], table=table,
            answer_bundle_hash=report.evidence_bundle_hash,
            rejected_evidence=dumped["rejected_evidence"], claims=result["claims"],
            conflicts=result["conflicts"], sufficient=report.sufficient,
            confidence=report.confidence, risk_signals=report.risk_signals,
            evidence_bundle_hash=bundle,
        )
        if on_query is not None:
            on_query(n)
    return results


def with_row_evidence(evidence: list[dict[str, Any]], table: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str]:
    """A class-level answer's evidence plus every table row's citations (rows that do not match
    the question's condition are cited too: a changed row is a changed answer to review), each
    once, in row order, with ids ``R<row>.<n>``; and the bundle hash over all of them. The hash
    is ``conclude.bundle_hash``'s canonical form over the same five fields."""
    from service.evidence.conclude import bundle_hash_of

    seen = {citation_key(e) + (e["excerpt"],) for e in evidence}
    combined = list(evidence)
    for n, row in enumerate(table, start=1):
        for k, item in enumerate(row.get("cell", {}).get("evidence", []), start=1):
            key = citation_key(item) + (item["excerpt"],)
            if key in seen:
                continue
            seen.add(key)
            combined.append({**item, "id": f"R{n}.{k}", "title": row.get("name"), "row_subject_id": row["subject_id"]})
    return combined, bundle_hash_of(combined)


def report_summary(report: dict[str, Any]) -> dict[str, Any]:
    """What run listings show."""
    keys = ("sweep", "run_id", "request_id", "started_at", "finished_at", "status", "exit_code", "is_baseline")
    return {
        **{k: report[k] for k in keys},
        "baseline_run_id": (report["baseline"] or {}).get("run_id"),
        "findings": report["summary"]["findings"],
        "counts": report["summary"]["counts"],
    }
