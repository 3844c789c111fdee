"""The HTML sweep report in headless Chromium (Debian's /usr/bin/chromium, driven by Playwright).

The report comes from real sweep runs over a real SQLite store that produce every finding type:
a contract amended after the baseline (regressions, a new conflict, a newly insufficient answer,
version drift), a clock past the freshness window, a document deleted while the sweep runs
(unresolvable citations and claims left without a valid citation: coverage below 1.0) and a rule
flagged by a live value. The live-value provider is a test double (it stands for an outside
system; this one also deletes a document, as a concurrent operator would).

The screenshot is kept in ``test-artifacts/sweep-report.png``.
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime, timezone
from pathlib import Path

import pytest

from ingest.settings import Settings
from service.sweeps.definition import load_definition
from service.sweeps.html import FINDING_TITLES, render_html
from service.sweeps.live_values import LiveValues
from service.sweeps.report import FINDING_TYPES
from service.sweeps.runner import run_sweep
from service.sweeps.runstore import SqliteRunStore
from tests.conftest import REPO
from tests.helpers import CHROMIUM as CHROMIUM_PATH
from tests.sweep_fixtures import CSA, MSA, MSA_AMENDED, write_definition

CHROMIUM = Path(CHROMIUM_PATH)
ARTIFACTS = REPO / "test-artifacts"


def _require_browser() -> None:
    missing = None
    if not CHROMIUM.exists():
        missing = f"{CHROMIUM} is not installed"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "the playwright package is not installed"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser test cannot run in CI: {missing}")
        pytest.skip(f"\n*** HTML report browser test SKIPPED: {missing}. ***")


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest):
    """The session's one Chromium (tests/conftest.py: Playwright's sync API allows one driver
    per thread), after checking that it can run here."""
    _require_browser()
    return request.getfixturevalue("chromium_browser")


class DeletingProvider:
    """A live-value source that answers ``today`` and, as a concurrent operator might, deletes a
    document after the evidence was gathered and before the citations are re-resolved."""

    def __init__(self, store, doc_id: str) -> None:
        self.store, self.doc_id = store, doc_id

    def fetch(self, names):
        self.store.delete_document(self.doc_id)
        return LiveValues("test-double", "2026-11-30T00:00:00.000+00:00", {"today": "2026-11-30"})


@pytest.fixture(scope="module")
def all_findings_report(tmp_path_factory, embedder) -> dict:
    from ingest.pipeline import Ingestor
    from ingest.store.sqlite import SqliteStore

    tmp = tmp_path_factory.mktemp("sweep-browser")
    settings = Settings(data_dir=tmp / "data")
    store = SqliteStore(settings.data_dir / "attest.sqlite3")
    runs = SqliteRunStore(store.path)
    ingestor = Ingestor(store, embedder, settings)
    for doc_id, text in (("msa", MSA), ("csa", CSA)):
        ingestor.ingest_bytes(text.encode(), filename=f"{doc_id}.txt", doc_id=doc_id, acl=["legal"])
    path = write_definition(tmp / "sweeps")
    loaded = load_definition(path)
    common = dict(store=store, runs=runs, embedder=embedder, settings=settings)
    run_sweep(loaded, now=datetime(2026, 11, 30, tzinfo=timezone.utc), **common)
    ingestor.ingest_bytes(MSA_AMENDED.encode(), filename="msa.txt", doc_id="msa", acl=["legal"])
    report = run_sweep(
        loaded, now=datetime(2099, 1, 1, tzinfo=timezone.utc),
        provider=DeletingProvider(store, "csa"), **common,
    ).report
    runs.close()
    store.close()
    return report


def test_every_finding_type_is_produced(all_findings_report):
    counts = all_findings_report["summary"]["counts"]
    assert all(counts[t] > 0 for t in FINDING_TYPES), counts
    assert all_findings_report["summary"]["coverage"] < 1.0


def test_html_escapes_document_text(all_findings_report):
    import copy

    report = copy.deepcopy(all_findings_report)
    report["queries"][0]["citations"][0]["excerpt"] = '<img src=x onerror="alert(1)"> & </blockquote>'
    html = render_html(report)
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt; &amp; &lt;/blockquote&gt;" in html
    assert "<img" not in html and "<script" not in html and "http" not in html.replace("http-equiv", "")


def test_report_opens_in_chromium_without_errors(browser, all_findings_report, tmp_path):
    html_path = tmp_path / "report.html"
    html_path.write_text(render_html(all_findings_report), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(html_path.as_uri())
    page.wait_for_load_state("load")
    assert errors == []
    assert requests == [html_path.as_uri()]  # self-contained: nothing else is fetched
    assert page.locator("#summary .status").inner_text() == "findings"
    for kind in FINDING_TYPES:
        section = page.locator(f"section#{kind}")
        assert section.is_visible()
        heading = section.locator("h2").inner_text()
        assert heading == f"{FINDING_TITLES[kind]} ({len(all_findings_report['findings'][kind])})"
        assert section.locator(".finding, table").first.is_visible(), kind
    regression = page.locator("section#regressions .finding").first
    assert regression.locator("blockquote.diff-removed").count() >= 1
    assert regression.locator("blockquote.diff-added").count() >= 1
    cite = page.locator("section#regressions .cite").first.inner_text()
    assert "revision" in cite and "lines" in cite and "chars" in cite
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "sweep-report.png"), full_page=True)
    shutil.copy(html_path, ARTIFACTS / "sweep-report.html")
    page.close()
    assert (ARTIFACTS / "sweep-report.png").stat().st_size > 10_000
