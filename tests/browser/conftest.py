"""Browser tests: the real app under uvicorn (one server per session, on the embedded store with
the sample contracts ingested once), driven by Playwright through Debian's Chromium.

Playwright's own browser download is not reachable from these machines, so the tests launch
``/usr/bin/chromium`` (``ATTEST_CHROMIUM`` overrides it). Without it they skip with a loud
message, except under ``CI=true``, where they fail (``.ci/run`` installs it).

Every page records console errors and uncaught exceptions; a test fails if any appear, apart
from the resource-load messages Chromium logs for HTTP errors the test provokes on purpose
(``expect_http_errors``). Screenshots go to ``test-artifacts/browser/`` (gitignored).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import httpx
import pytest

from tests.api.conftest import ADMIN_KEY, ALICE_KEY, BOB_KEY, KEYS, REPO, SAMPLES

from tests.helpers import CHROMIUM, CHROMIUM_ARGS  # noqa: E402 - shared with the sweep report test
ARTIFACTS = REPO / "test-artifacts" / "browser"
AXE_JS = Path(__file__).parent / "vendor" / "axe.min.js"
SAMPLE_ACL = ["legal"]  # alice is in "legal"; bob ("sales") must see none of it
SAMPLE_COLLECTION = "cuad"
README_QUESTION = (
    "What law governs the SPONSORSHIP AGREEMENT between Fruit of Life Productions LLC "
    "and Eco Science Solutions, Inc.?"
)

# A small sweep over the sample contracts, run as alice (her ACL applies; bob sees none of it).
SWEEP_NAME = "sample-law"
SWEEP_DEFINITION = f"""version: 1
name: {SWEEP_NAME}
description: Governing law of two sample contracts.
principal: {{name: alice, groups: [legal]}}
freshness: 365d
queries:
  - id: sponsorship-governing-law
    question: {README_QUESTION}
  - id: consulting-governing-law
    question: What law governs the CONSULTING AGREEMENT between GROUPE PARAMEUS CORP and Sphere 3D Corp.?
"""

XSS_TITLE = '<img src=x onerror="window.__xss=\'title\'">Payload memo'
XSS_TEXT = """PAYLOAD MEMO

This memo tests escaping. <script>window.__xss = 'script'</script> The portal must show
these characters as text: <img src=x onerror="window.__xss='img'"> and
<svg onload="window.__xss='svg'"></svg> and <a href="javascript:window.__xss='href'">link</a>.

Zanzibarite clause: the Zanzibarite supplier shall deliver on time.
"""


def require_chromium() -> str:
    if Path(CHROMIUM).exists():
        return CHROMIUM
    message = (
        f"\n*** Browser tests SKIPPED: Chromium not found at {CHROMIUM}. Install Debian's "
        "`chromium` package (`.ci/run` does it under CI=true) or set ATTEST_CHROMIUM. ***"
    )
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


@dataclass
class Portal:
    base_url: str
    store: Any
    data_dir: Path
    sample_doc_ids: list[str]
    xss_doc_id: str

    def client(self, key: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.base_url, headers={"Authorization": f"Bearer {key}"}, timeout=120
        )


@pytest.fixture(scope="session")
def portal(tmp_path_factory: pytest.TempPathFactory, embedder) -> Iterator[Portal]:
    """One server for the whole browser suite; the samples and the XSS memo are ingested once,
    readable by group ``legal`` only."""
    require_chromium()
    from ingest.pipeline import Ingestor
    from ingest.settings import Settings
    from ingest.store.sqlite import SqliteStore
    from service.api import create_app
    from service.api.server import serve_in_thread

    data_dir = tmp_path_factory.mktemp("portal")
    sweeps_dir = data_dir / "sweeps"
    sweeps_dir.mkdir()
    (sweeps_dir / f"{SWEEP_NAME}.yaml").write_text(SWEEP_DEFINITION, encoding="utf-8")
    settings = Settings(data_dir=data_dir, api_keys=json.dumps(KEYS), sweeps_dir=sweeps_dir)
    store = SqliteStore(data_dir / "attest.sqlite3")
    ingestor = Ingestor(store, embedder, settings)
    doc_ids = []
    for path in sorted(SAMPLES.iterdir()):
        result = ingestor.ingest_path(path, acl=SAMPLE_ACL, collection=SAMPLE_COLLECTION)
        assert result.status == "indexed", result
        doc_ids.append(result.doc_id)
    xss = ingestor.ingest_bytes(
        XSS_TEXT.encode(), filename="payload.txt", doc_id="payload-memo", title=XSS_TITLE,
        acl=SAMPLE_ACL, collection=SAMPLE_COLLECTION,
    )
    assert xss.status == "indexed", xss
    app = create_app(settings, store=store, embedder=embedder)
    with serve_in_thread(app) as base_url:
        yield Portal(base_url, store, data_dir, doc_ids, xss.doc_id)
    store.close()


@pytest.fixture(scope="session")
def browser(portal: Portal, chromium_browser):
    """The session's one Chromium (tests/conftest.py), once the portal server is up."""
    return chromium_browser


@dataclass
class PageProblems:
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    foreign_requests: list[str] = field(default_factory=list)
    expected_statuses: set[int] = field(default_factory=set)

    def unexpected(self) -> list[str]:
        allowed = [
            re.compile(rf"Failed to load resource: the server responded with a status of {s}\b")
            for s in self.expected_statuses
        ]
        return [m for m in self.console_errors if not any(p.search(m) for p in allowed)] + [
            f"uncaught: {m}" for m in self.page_errors
        ] + [f"foreign request: {u}" for u in self.foreign_requests]


@pytest.fixture
def problems() -> PageProblems:
    return PageProblems()


def _new_page(browser, portal: Portal, problems: PageProblems, width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height}, base_url=portal.base_url)
    page = context.new_page()
    page.on("console", lambda m: problems.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.page_errors.append(str(e)))
    page.on("dialog", lambda d: (problems.page_errors.append(f"dialog: {d.message}"), d.dismiss()))
    page.on(
        "request",
        lambda r: None if r.url.startswith(portal.base_url) or r.url.startswith(("blob:", "data:"))
        else problems.foreign_requests.append(r.url),
    )
    page.set_default_timeout(60_000)
    return context, page


@pytest.fixture
def page(browser, portal: Portal, problems: PageProblems):
    context, page = _new_page(browser, portal, problems, 1280, 900)
    yield page
    context.close()
    assert problems.unexpected() == []


@pytest.fixture
def narrow_page(browser, portal: Portal, problems: PageProblems):
    context, page = _new_page(browser, portal, problems, 390, 844)
    yield page
    context.close()
    assert problems.unexpected() == []


def sign_in(page, key: str = ALICE_KEY, principal: str = "alice") -> None:
    page.goto("/")
    page.get_by_label("API key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    page.locator("#who-principal").filter(has_text=principal).wait_for()


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def axe_violations(page) -> list[dict[str, Any]]:
    """Serious and critical axe-core violations on the current page. axe is evaluated through
    the DevTools protocol, so the portal's CSP (which would block an injected tag) stays on."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_JS.read_text(encoding="utf-8") + "\n;true")
    result = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))"
    )
    return [v for v in result if v["impact"] in ("serious", "critical")]


def audit_entries(portal: Portal, action: str, principal: str) -> list[dict[str, Any]]:
    from ingest.store.port import AuditQuery

    entries = portal.store.list_audit(AuditQuery(principal=principal, limit=1000))
    return [e for e in entries if e.get("action") == action]


__all__ = [
    "ADMIN_KEY", "ALICE_KEY", "BOB_KEY", "README_QUESTION", "SWEEP_NAME", "XSS_TEXT", "XSS_TITLE",
    "audit_entries", "axe_violations", "screenshot", "sign_in",
]
