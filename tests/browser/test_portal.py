"""The portal in Chromium: sign-in, search, ask, expand source, documents, ACL and escaping."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest

from tests.browser.conftest import (
    ALICE_KEY,
    BOB_KEY,
    README_QUESTION,
    XSS_TEXT,
    XSS_TITLE,
    audit_entries,
    axe_violations,
    screenshot,
    sign_in,
)


def test_sign_in_shows_identity_and_sign_out_forgets_the_key(page, portal, problems) -> None:
    problems.expected_statuses.add(401)  # the wrong key below, on purpose
    page.goto("/")
    assert page.locator("#nav").is_hidden()
    assert axe_violations(page) == []
    screenshot(page, "signin")
    page.get_by_label("API key").fill("not-a-valid-key-0000000000")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_text("That API key was not accepted").wait_for()
    assert page.evaluate("sessionStorage.length") == 0

    sign_in(page)
    assert page.locator("#who-groups").inner_text() == "groups: legal"
    assert page.locator("#who-admin").is_hidden()
    assert page.evaluate("sessionStorage.getItem('attest.apiKey')") == ALICE_KEY
    assert ALICE_KEY not in page.url
    assert page.context.cookies() == []
    # A reload keeps the session (sessionStorage), and the identity is on every view.
    for view in ("search", "ask", "documents"):
        page.goto(f"/#/{view}")
        page.locator("#who-principal").filter(has_text="alice").wait_for()

    page.get_by_role("button", name="Sign out").click()
    page.get_by_label("API key").wait_for()
    assert page.evaluate("sessionStorage.getItem('attest.apiKey')") is None
    assert page.locator("#whoami").is_hidden()
    page.goto("/#/documents")
    page.get_by_label("API key").wait_for()  # no key, no view


def test_search_highlights_pages_and_explains_an_empty_result(page, portal) -> None:
    sign_in(page)
    page.get_by_label("Search your documents").fill("termination notice")
    page.get_by_role("button", name="Search", exact=True).click()
    hits = page.locator("li.hit")
    hits.first.wait_for()
    assert hits.count() == 10
    first = hits.first
    assert first.locator(".hit-title").inner_text()
    assert re.search(r"lines? \d+", first.locator(".where").inner_text())
    marks = page.locator("li.hit mark.hit").all_inner_texts()
    assert marks and {m.lower() for m in marks} <= {"termination", "notice"}
    assert axe_violations(page) == []
    screenshot(page, "search")

    # The API's order is the page's order (deterministic), and page 2 continues it.
    with portal.client(ALICE_KEY) as api:
        api_hits = api.post("/v1/search", json={"query": "termination notice", "k": 100}).json()["hits"]
    page_one = hits.evaluate_all("els => els.map(e => e.dataset.chunkId)")
    assert page_one == [h["chunk_id"] for h in api_hits[:10]]
    page.get_by_role("link", name="Next, page 2").click()
    page.locator(".page-of").filter(has_text="Page 2 of").wait_for()
    page_two = page.locator("li.hit").evaluate_all("els => els.map(e => e.dataset.chunkId)")
    assert page_two == [h["chunk_id"] for h in api_hits[10:20]]

    # Filters: a collection nobody has gives the empty state with what to try.
    page.goto("/#/search?q=termination&collection=no-such-collection")
    page.locator("#results-title").filter(has_text="No passages for").wait_for()
    assert page.get_by_text("removing the collection, document or entity filters").is_visible()
    doc_id = portal.sample_doc_ids[0]  # contains a comma and spaces
    page.goto("/#/search?" + urlencode({"q": "termination", "doc": doc_id}))
    hits.first.wait_for()
    titles = set(page.locator("li.hit .meta").all_inner_texts())
    assert titles and all(t.startswith(doc_id + " ") for t in titles)


def test_ask_concluded_shows_findings_chips_signals_and_hash(page, portal) -> None:
    sign_in(page)
    page.goto("/#/ask")
    page.get_by_role("textbox", name="Question").fill(README_QUESTION)
    page.get_by_role("button", name="Ask").click()
    page.get_by_test_id("state").filter(has_text="CONCLUDED").wait_for()
    with portal.client(ALICE_KEY) as api:
        report = api.post("/v1/evidence/query", json={"question": README_QUESTION}).json()
    assert report["state"] == "CONCLUDED" and report["claims"]
    assert page.get_by_test_id("bundle-hash").inner_text() == report["evidence_bundle_hash"]
    findings = page.locator("ul.findings li")
    assert findings.count() == len(report["claims"])
    first_claim = report["claims"][0]
    assert first_claim["statement"] in findings.first.inner_text()
    chip_texts = findings.first.locator("a.chip").all_inner_texts()
    assert [t.split()[0] for t in chip_texts] == [f"[{i}]" for i in first_claim["evidence_ids"]]
    signals = page.locator(".signals").inner_text()
    assert ("sufficient" if report["sufficient"] else "not sufficient") in signals
    assert f"confidence: {report['confidence']}" in signals
    trace = page.locator(".trace li").all_inner_texts()
    assert [t.split()[0] for t in trace] == [s["state"] for s in report["trace"]]
    render_ms = float(page.locator("article.report").get_attribute("data-render-ms"))
    print(f"\nask view first render, {len(report['evidence'])} evidence units: {render_ms:.1f} ms")
    assert axe_violations(page) == []
    screenshot(page, "ask-concluded")


def test_ask_subject_not_found_is_an_answer(page, portal) -> None:
    sign_in(page)
    question = "What law governs the SUPPLY AGREEMENT between Nonexistent Widgets LLC and Phantom Corp?"
    page.goto("/#/ask")
    page.get_by_role("textbox", name="Question").fill(question)
    page.get_by_role("textbox", name="Question").press("Enter")
    page.get_by_test_id("state").filter(has_text="SUBJECT_NOT_FOUND").wait_for()
    assert page.locator(".notice-error").count() == 0
    assert page.get_by_text("No subject matching this question is visible to you").is_visible()
    assert "not sufficient" in page.locator(".signals").inner_text()
    assert "confidence: low" in page.locator(".signals").inner_text()
    assert "subject not found" in page.locator(".signals").inner_text()
    actions = page.locator("ul.actions li")
    assert actions.count() >= 1
    assert actions.first.locator("a").count() == 1
    assert page.locator("ol.evidence").count() == 0
    assert axe_violations(page) == []
    screenshot(page, "ask-subject-not-found")


def test_expand_source_highlights_the_exact_span_and_is_audited(page, portal) -> None:
    sign_in(page)
    page.goto("/#/ask?" + urlencode({"q": README_QUESTION}))
    page.get_by_test_id("state").filter(has_text="CONCLUDED").wait_for()
    with portal.client(ALICE_KEY) as api:
        report = api.post("/v1/evidence/query", json={"question": README_QUESTION}).json()
    e1 = report["evidence"][0]
    before = len(audit_entries(portal, "source_expanded", "alice"))
    page.locator("ul.findings a.chip").first.click()
    cited = page.get_by_test_id("cited")
    cited.wait_for()
    assert cited.inner_text() == e1["excerpt"]
    assert cited.evaluate("e => e.classList.contains('cited')")
    location = page.get_by_test_id("source-location").inner_text()
    expected_lines = (
        f"line {e1['line_start']}" if e1["line_start"] == e1["line_end"]
        else f"lines {e1['line_start']}–{e1['line_end']}"
    )
    assert expected_lines in location
    assert page.get_by_text("This revision is no longer current").count() == 0
    entries = audit_entries(portal, "source_expanded", "alice")
    assert len(entries) == before + 1
    assert {k: entries[-1][k] for k in ("doc_id", "revision", "char_start", "char_end")} == {
        k: e1[k] for k in ("doc_id", "revision", "char_start", "char_end")
    }
    assert axe_violations(page) == []
    screenshot(page, "source")

    # Read on: "Next passage" opens the following chunk, also through the audited endpoint.
    page.get_by_role("link", name="Next passage").click()
    page.get_by_role("link", name="Back to the cited passage").wait_for()
    reading = page.get_by_test_id("cited")
    assert reading.evaluate("e => e.classList.contains('reading')")
    assert len(audit_entries(portal, "source_expanded", "alice")) == before + 2
    page.get_by_role("link", name="Back to the cited passage").click()
    page.locator("mark.cited").wait_for()
    assert page.locator("mark.cited").inner_text() == e1["excerpt"]
