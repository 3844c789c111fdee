"""Declarative rules over the values the evidence machine extracted, evaluated with live values.

A rule reads the normalised ``value`` of each claim of one query (``{"type": "money", "value":
"EUR 900000"}``, ``{"type": "date", "value": "2026-12-31"}``) and decides per claim:

* ``flagged``: the check holds (the cap is below the threshold; the date is within the window);
* ``passed``: it does not;
* ``not_evaluable``: the claim has no value of the right type, or a live value is missing;
* ``error``: the live-value source failed.

The rule's outcome is ``flagged`` if any claim is flagged, else ``error``, else ``passed`` if any
claim passed, else ``not_evaluable``. Flagged and error outcomes are findings. Rules only read
evidence; nothing here writes to a report's evidence, bundle or hash.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Sequence

from ingest.statuses import RuleOutcome
from service.sweeps.definition import DateWithinRule, MoneyBelowRule, Rule
from service.sweeps.live_values import LiveValues


def _money(value: dict[str, Any] | None) -> tuple[str, Decimal] | None:
    if not value or value.get("type") != "money":
        return None
    try:
        currency, amount = str(value["value"]).split(" ", 1)
        return currency, Decimal(amount)
    except (KeyError, ValueError, InvalidOperation):
        return None


def _date(value: dict[str, Any] | None) -> date | None:
    if not value or value.get("type") != "date":
        return None
    try:
        return date.fromisoformat(str(value["value"]))
    except ValueError:
        return None


def live_names(rules: Sequence[Rule], claims_by_query: dict[str, list[dict[str, Any]]]) -> list[str]:
    """The live values the rules need, given the claims the evidence produced."""
    names: set[str] = set()
    for rule in rules:
        for claim in claims_by_query.get(rule.query, []):
            if isinstance(rule, DateWithinRule):
                names.add("today")
            elif isinstance(rule, MoneyBelowRule):
                money = _money(claim.get("value"))
                if money and money[0] != rule.currency:
                    names.add(f"fx:{money[0]}/{rule.currency}")
    return sorted(names)


def _rate(live: LiveValues, name: str) -> Decimal | None:
    raw = live.values.get(name)
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        return None
    try:
        rate = Decimal(str(raw))
    except InvalidOperation:
        return None
    return rate if rate > 0 else None


def _check_claim(rule: Rule, claim: dict[str, Any], live: LiveValues) -> dict[str, Any]:
    out: dict[str, Any] = {"claim_id": claim["id"], "evidence_ids": list(claim.get("evidence_ids", [])), "value": claim.get("value")}
    if isinstance(rule, MoneyBelowRule):
        money = _money(claim.get("value"))
        if money is None:
            return {**out, "outcome": RuleOutcome.NOT_EVALUABLE, "reason": "the claim has no money value"}
        currency, amount = money
        rate = Decimal(1)
        if currency != rule.currency:
            name = f"fx:{currency}/{rule.currency}"
            found = _rate(live, name)
            if found is None:
                outcome = RuleOutcome.ERROR if live.error else RuleOutcome.NOT_EVALUABLE
                return {**out, "outcome": outcome, "reason": live.error or f"no live value {name}"}
            rate, out["live_value"] = found, {name: live.values[name]}
        converted = amount * rate
        out["converted"] = f"{rule.currency} {converted.quantize(Decimal('0.01'))}"
        flagged = converted < Decimal(str(rule.threshold))
        out["reason"] = f"{out['converted']} {'<' if flagged else '>='} {rule.currency} {rule.threshold:,.2f}"
        return {**out, "outcome": RuleOutcome.FLAGGED if flagged else RuleOutcome.PASSED}
    when = _date(claim.get("value"))
    if when is None:
        return {**out, "outcome": RuleOutcome.NOT_EVALUABLE, "reason": "the claim has no date value"}
    try:
        today = date.fromisoformat(str(live.values["today"]))
    except (KeyError, ValueError):
        return {**out, "outcome": RuleOutcome.ERROR if live.error else RuleOutcome.NOT_EVALUABLE, "reason": live.error or "no live value today"}
    out["live_value"] = {"today": live.values["today"]}
    days = (when - today).days
    flagged = days <= rule.days and (days >= 0 or rule.include_past)
    if days < 0:
        out["reason"] = f"{when.isoformat()} is {-days} day(s) before {today.isoformat()} (already past)"
    else:
        out["reason"] = f"{when.isoformat()} is {days} day(s) after {today.isoformat()} ({'<=' if days <= rule.days else '>'} {rule.days})"
    return {**out, "outcome": RuleOutcome.FLAGGED if flagged else RuleOutcome.PASSED}


def evaluate_rule(rule: Rule, claims: list[dict[str, Any]], live: LiveValues) -> dict[str, Any]:
    checks = [_check_claim(rule, c, live) for c in sorted(claims, key=lambda c: c["id"])]
    outcomes = {c["outcome"] for c in checks}
    outcome = next((o for o in (RuleOutcome.FLAGGED, RuleOutcome.ERROR, RuleOutcome.PASSED) if o in outcomes), RuleOutcome.NOT_EVALUABLE)
    return {
        "rule_id": rule.id,
        "query_id": rule.query,
        "check": rule.check,
        "definition": rule.model_dump(mode="json"),
        "outcome": outcome,
        "claims": checks,
    }
