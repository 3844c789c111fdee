"""The sweep report as one self-contained HTML file, rendered with Jinja2.

Autoescaping is on for every value (document text is data: it is shown, never interpreted), the
page loads nothing from anywhere (inline CSS, no script, no images) and says so in its CSP.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

from service.sweeps.report import FINDING_TYPES

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'none'; base-uri 'none'; form-action 'none'"
FINDING_TITLES = {
    "regressions": "Regressions",
    "new_conflicts": "New conflicts",
    "newly_insufficient": "Newly insufficient",
    "version_drift": "Version drift",
    "freshness": "Freshness",
    "citations": "Citation re-validation",
    "coverage": "Evidence coverage",
    "rules": "Rules",
}


@lru_cache(maxsize=1)
def _environment() -> Environment:
    env = Environment(
        loader=PackageLoader("service.sweeps", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["short"] = lambda s, n=12: (s or "")[:n]
    return env


def render_html(report: dict[str, Any]) -> str:
    template = _environment().get_template("report.html.j2")
    return template.render(
        report=report, finding_types=FINDING_TYPES, titles=FINDING_TITLES, csp=CSP,
    )
