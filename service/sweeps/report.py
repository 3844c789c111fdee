"""The sweep report: a run compared with its baseline, as JSON (schema ``attest.sweep-report/1``,
documented in docs/sweep-report.md).

Finding types (each a list under ``findings``; any non-empty list makes the run ``findings``):

=====================  =========================================================================
``regressions``        queries whose ``evidence_bundle_hash`` changed, with the citations added
                       and removed and the state before and after
``new_conflicts``      conflicts the baseline's answer to the same query did not have
``newly_insufficient`` queries sufficient in the baseline and not now
``version_drift``      documents whose current revision changed since the baseline (or that the
                       principal can no longer see), with the queries that cite them
``freshness``          documents whose current revision was ingested longer ago than the window
``citations``          citations of this run or the baseline that do not re-resolve (deleted
                       document, ACL changed, revision gone, excerpt differs): never dropped
``coverage``           claims without a single valid citation (coverage below 1.0)
``rules``              rules whose outcome is ``flagged`` or ``error``
=====================  =========================================================================
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from ingest.statuses import CitationStatus, RuleOutcome, SweepStatus
from ingest.store.port import Principal, Store
from service.citation import CITATION_FIELDS
from service.sweeps import EXIT_CLEAN, EXIT_FINDINGS
from service.sweeps.citations import CitationResolver, citation_key
from service.sweeps.definition import SweepDefinition

REPORT_SCHEMA = "attest.sweep-report/1"
FINDING_TYPES = (
    "regressions",
    "new_conflicts",
    "newly_insufficient",
    "version_drift",
    "freshness",
    "citations",
    "coverage",
    "rules",
)
_CITATION_FIELDS = (*CITATION_FIELDS, "title", "excerpt")
MAX_AGREEMENTS = 10000


def citation_view(item: dict[str, Any]) -> dict[str, Any]:
    return {k: item.get(k) for k in _CITATION_FIELDS}


def _cited_docs(results: list[dict[str, Any]]) -> set[str]:
    return {e["doc_id"] for r in results for e in r["evidence"]}


def document_states(
    store: Store, principal: Principal, results: list[dict[str, Any]],
    baseline: dict[str, Any] | None, definition: SweepDefinition,
) -> dict[str, dict[str, Any]]:
    """The documents the sweep covers (cited now or in the baseline, or named in a query's
    scope), as the principal sees them now: current revision, its ingest time, and the date the
    text states (the agreement or effective date found at ingest), if any."""
    doc_ids = _cited_docs(results)
    if baseline:
        doc_ids |= set(baseline.get("documents", {}))
    for q in definition.queries:
        if q.scope:
            doc_ids |= set(q.scope.doc_ids)
    dates: dict[str, str] = {}
    if doc_ids:
        for subject in store.find_subjects(principal, type="agreement", limit=MAX_AGREEMENTS):
            stated = subject.attributes.get("agreement_date") or subject.attributes.get("effective_date")
            for mention in subject.mentions:
                if stated and mention["doc_id"] in doc_ids:
                    dates.setdefault(mention["doc_id"], stated)
    out: dict[str, dict[str, Any]] = {}
    for doc_id in sorted(doc_ids):
        record = store.visible_document(doc_id, principal)
        if record is None:
            out[doc_id] = {"visible": False, "title": None, "current_revision": None, "ingested_at": None, "document_date": None}
            continue
        ingested = next((r.created_at for r in record.revisions if r.revision == record.current_revision), None)
        out[doc_id] = {
            "visible": True,
            "title": record.title,
            "current_revision": record.current_revision,
            "ingested_at": ingested,
            "document_date": dates.get(doc_id),
        }
    return out


def _parse_time(value: str) -> datetime:
    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _conflict_key(conflict: dict[str, Any]) -> str:
    values = sorted(str(v["value"].get("value")) for v in conflict["values"])
    return f"{conflict['subject_id']}|{conflict['attribute']}|{'|'.join(values)}"


def _regression(query_id: str, question: str, base: dict[str, Any], cur: dict[str, Any]) -> dict[str, Any]:
    base_items = {citation_key(e) + (e["excerpt"],): e for e in base["evidence"]}
    cur_items = {citation_key(e) + (e["excerpt"],): e for e in cur["evidence"]}
    removed = [citation_view(base_items[k]) for k in sorted(set(base_items) - set(cur_items))]
    added = [citation_view(cur_items[k]) for k in sorted(set(cur_items) - set(base_items))]
    removed_texts = {r["excerpt"] for r in removed}
    for a in added:  # the same words at a new revision or offset: a move, not new content
        a["same_text_as_removed"] = a["excerpt"] in removed_texts
    return {
        "query_id": query_id,
        "question": question,
        "baseline_hash": base["evidence_bundle_hash"],
        "current_hash": cur["evidence_bundle_hash"],
        "baseline_state": base["state"],
        "current_state": cur["state"],
        "state_changed": base["state"] != cur["state"],
        "baseline_sufficient": base["sufficient"],
        "current_sufficient": cur["sufficient"],
        "added": added,
        "removed": removed,
    }


def build_report(
    record: dict[str, Any], baseline: dict[str, Any] | None, *, store: Store,
    principal: Principal, now: datetime,
) -> dict[str, Any]:
    results: list[dict[str, Any]] = record["results"]
    base_results = {r["query_id"]: r for r in (baseline or {}).get("results", [])}
    findings: dict[str, list[dict[str, Any]]] = {t: [] for t in FINDING_TYPES}

    # -- against the baseline ------------------------------------------------------------
    for cur in results:
        qid, question = cur["query_id"], cur["input"]["question"]
        base = base_results.get(qid)
        if base is None:
            continue
        if base["evidence_bundle_hash"] != cur["evidence_bundle_hash"] or base["state"] != cur["state"]:
            findings["regressions"].append(_regression(qid, question, base, cur))
        old = {_conflict_key(c) for c in base["conflicts"]}
        by_id = {e["id"]: e for e in cur["evidence"]}
        for conflict in cur["conflicts"]:
            if _conflict_key(conflict) not in old:
                cited = sorted({eid for v in conflict["values"] for eid in v["evidence_ids"]})
                findings["new_conflicts"].append({
                    "query_id": qid, "question": question, "subject_id": conflict["subject_id"],
                    "attribute": conflict["attribute"],
                    "values": [{"value": v["value"].get("value"), "evidence_ids": v["evidence_ids"]} for v in conflict["values"]],
                    "evidence": [{"id": i, **citation_view(by_id[i])} for i in cited if i in by_id],
                })
        if base["sufficient"] and not cur["sufficient"]:
            findings["newly_insufficient"].append({
                "query_id": qid, "question": question, "baseline_state": base["state"],
                "current_state": cur["state"], "risk_signals": cur["risk_signals"],
            })

    documents: dict[str, dict[str, Any]] = record["documents"]
    if baseline:
        for doc_id, before in sorted(baseline.get("documents", {}).items()):
            now_state = documents.get(doc_id, {"current_revision": None, "visible": False})
            if before.get("current_revision") != now_state.get("current_revision"):
                affected = sorted(
                    {r["query_id"] for r in results if any(e["doc_id"] == doc_id for e in r["evidence"])}
                    | {r["query_id"] for r in baseline["results"] if any(e["doc_id"] == doc_id for e in r["evidence"])}
                )
                findings["version_drift"].append({
                    "doc_id": doc_id, "title": before.get("title"),
                    "baseline_revision": before.get("current_revision"),
                    "current_revision": now_state.get("current_revision"),
                    "visible": now_state.get("visible", False),
                    "affected_queries": affected,
                })

    # -- freshness -----------------------------------------------------------------------
    window = SweepDefinition.model_validate(record["definition"]).freshness_window()
    for doc_id, state in sorted(documents.items()):
        if not state.get("ingested_at"):
            continue
        age = now - _parse_time(state["ingested_at"])
        if age > window:
            findings["freshness"].append({
                "doc_id": doc_id, "title": state["title"], "current_revision": state["current_revision"],
                "ingested_at": state["ingested_at"], "age_days": round(age.total_seconds() / 86400, 2),
                "window": record["definition"]["freshness"], "document_date": state["document_date"],
            })

    # -- citation re-validation: this run and the baseline --------------------------------
    resolver = CitationResolver(store, principal)
    checks: dict[tuple[Any, ...], dict[str, Any]] = {}
    runs = [("current", results)] + ([("baseline", baseline["results"])] if baseline else [])
    for run_name, run_results in runs:
        for r in run_results:
            for e in r["evidence"]:
                key = citation_key(e) + (e["excerpt"],)
                entry = checks.get(key)
                if entry is None:
                    check = resolver.check(e)
                    entry = checks[key] = {**citation_view(e), "status": check.status, "current": check.current,
                                           "current_revision": check.current_revision,
                                           "stored_excerpt": check.stored_excerpt, "cited_by": []}
                ref = {"run": run_name, "query_id": r["query_id"], "evidence_id": e["id"]}
                if ref not in entry["cited_by"]:
                    entry["cited_by"].append(ref)
    all_checks = [checks[k] for k in sorted(checks)]
    findings["citations"] = [c for c in all_checks if c["status"] != CitationStatus.VALID]
    by_status: dict[str, int] = {}
    for c in all_checks:
        by_status[c["status"]] = by_status.get(c["status"], 0) + 1

    # -- coverage: claims of this run with at least one valid citation --------------------
    n_claims = n_covered = 0
    for r in results:
        status_of = {e["id"]: checks[citation_key(e) + (e["excerpt"],)]["status"] for e in r["evidence"]}
        for claim in r["claims"]:
            n_claims += 1
            if any(status_of.get(i) == CitationStatus.VALID for i in claim["evidence_ids"]):
                n_covered += 1
            else:
                findings["coverage"].append({
                    "query_id": r["query_id"], "claim_id": claim["id"], "statement": claim["statement"],
                    "evidence_ids": claim["evidence_ids"],
                    "statuses": {i: status_of.get(i, "unknown_evidence_id") for i in claim["evidence_ids"]},
                })
    coverage = None if n_claims == 0 else round(n_covered / n_claims, 6)

    # -- rules ---------------------------------------------------------------------------
    findings["rules"] = [o for o in record["rules"] if o["outcome"] in (RuleOutcome.FLAGGED, RuleOutcome.ERROR)]

    counts = {t: len(findings[t]) for t in FINDING_TYPES}
    total = sum(counts.values())
    identical = None
    if baseline:
        identical = all(
            base_results.get(r["query_id"], {}).get("evidence_bundle_hash") == r["evidence_bundle_hash"]
            for r in results
        ) and set(base_results) == {r["query_id"] for r in results}
    citations_by_query: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        citations_by_query[r["query_id"]] = [
            {"id": e["id"], **citation_view(e), "status": checks[citation_key(e) + (e["excerpt"],)]["status"],
             "current": checks[citation_key(e) + (e["excerpt"],)]["current"]}
            for e in r["evidence"]
        ]
    return {
        "schema": REPORT_SCHEMA,
        "sweep": record["sweep"],
        "run_id": record["run_id"],
        "request_id": record["request_id"],
        "started_at": record["started_at"],
        "finished_at": record["finished_at"],
        "as_of": now.astimezone(timezone.utc).isoformat(timespec="milliseconds"),
        "principal": record["principal"],
        "is_baseline": record["is_baseline"],
        "baseline": {"run_id": baseline["run_id"], "started_at": baseline["started_at"]} if baseline else None,
        "status": SweepStatus.FINDINGS if total else SweepStatus.CLEAN,
        "exit_code": EXIT_FINDINGS if total else EXIT_CLEAN,
        "summary": {
            "queries": len(results),
            "findings": total,
            "counts": counts,
            "coverage": coverage,
            "bundle_hashes_identical": identical,
        },
        "findings": findings,
        "citations": {"checked": len(all_checks), "by_status": dict(sorted(by_status.items())),
                      "not_current": sum(1 for c in all_checks if c["current"] is False)},
        "coverage": {"claims": n_claims, "with_valid_citation": n_covered, "share": coverage},
        "queries": [
            {
                "query_id": r["query_id"], "question": r["input"]["question"],
                "evidence_request_id": r["evidence_request_id"], "state": r["state"],
                "sufficient": r["sufficient"], "confidence": r["confidence"],
                "evidence_bundle_hash": r["evidence_bundle_hash"],
                "baseline_hash": base_results.get(r["query_id"], {}).get("evidence_bundle_hash"),
                "claims": [{"id": c["id"], "statement": c["statement"], "evidence_ids": c["evidence_ids"]} for c in r["claims"]],
                "citations": citations_by_query[r["query_id"]],
                # A class-level question's table: one row per agreement, with its cell and
                # whether it matches the question; its citations are in ``citations`` (ids R..).
                "table": r.get("table"),
                "answer_bundle_hash": r.get("answer_bundle_hash", r["evidence_bundle_hash"]),
            }
            for r in results
        ],
        "documents": documents,
        "rules": record["rules"],
        "live_values": record["live_values"],
    }
