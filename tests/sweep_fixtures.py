"""Contracts and sweep definitions shared by the sweep tests (made-up parties, small texts, so a
real ingest takes a second or two)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MSA = """MASTER SUPPLY AGREEMENT

This Master Supply Agreement is entered into by Zephyrion Holdings, Inc. (the "Company") and
Quillfeather Logistics LLC (the "Distributor").

1. TERM

This Agreement shall expire on December 31, 2026, unless renewed in writing by both parties.

2. LIMITATION OF LIABILITY

In no event shall the aggregate liability of either party under this Agreement exceed EUR 900,000.

3. GOVERNING LAW

This Agreement is governed by the laws of the State of Delaware.
"""

# The same contract, amended: a second governing law (a conflict), no liability cap any more.
MSA_AMENDED = """MASTER SUPPLY AGREEMENT

This Master Supply Agreement is entered into by Zephyrion Holdings, Inc. (the "Company") and
Quillfeather Logistics LLC (the "Distributor").

1. TERM

This Agreement shall expire on December 31, 2026, unless renewed in writing by both parties.

2. GOVERNING LAW

This Agreement is governed by the laws of the State of New York.

3. GOVERNING LAW

This Agreement is governed by the laws of the State of Texas.
"""

CSA = """CONSULTING AGREEMENT

This Consulting Agreement is made between Marrowgate Capital Partners (the "Client") and
Ilsworth Advisory Ltd (the "Consultant").

1. GOVERNING LAW

This Agreement is governed by the laws of the State of New York.
"""

MSA_Q = "the MASTER SUPPLY AGREEMENT between Zephyrion Holdings, Inc. and Quillfeather Logistics LLC"
CSA_Q = "the CONSULTING AGREEMENT between Marrowgate Capital Partners and Ilsworth Advisory Ltd"
MSA_QUERIES = {"msa-law", "msa-cap", "msa-expiry"}


def definition_yaml(*, principal: str = "sweeper", groups: tuple[str, ...] = ("legal",), freshness: str = "30d",
                    rules: bool = True, live_file: str = "live.json", name: str = "contracts") -> str:
    rules_text = f"""
rules:
  - id: cap-below-1m-usd
    query: msa-cap
    check: money_below
    currency: USD
    threshold: 1000000
  - id: expires-within-90-days
    query: msa-expiry
    check: date_within_days
    days: 90
live_values:
  file: {live_file}
""" if rules else ""
    return f"""version: 1
name: {name}
principal:
  name: {principal}
  groups: [{", ".join(groups)}]
freshness: {freshness}
queries:
  - id: msa-law
    question: What law governs {MSA_Q}?
  - id: msa-cap
    question: What is the cap on liability of {MSA_Q}?
  - id: msa-expiry
    question: When does {MSA_Q} expire?
  - id: csa-law
    question: What law governs {CSA_Q}?
{rules_text}"""


def write_definition(directory: Path, live: dict[str, Any] | None = None, **kwargs: Any) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "live.json").write_text(json.dumps(live or {"fx:EUR/USD": 1.2, "today": "2026-01-01"}))
    path = directory / "contracts.yaml"
    path.write_text(definition_yaml(**kwargs))
    return path
