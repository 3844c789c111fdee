"""The portal in Chromium: sign-in, search, ask, expand source, documents, ACL and escaping."""

from __future__ import annotations

import csv
import re
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from bench.portal_render import twenty_unit_report
from tests.browser.conftest import (
    ALICE_KEY,
    BOB_KEY,
    README_QUESTION,
    SWEEP_NAME,
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
    page.get_by_label("API key").fill(ALICE_KEY)
    page.get_by_role("button", name="Sign in").click()
    page.locator("#doc-list-title").wait_for()  # and after signing in, the view that was asked for


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

    # The entity filter offers the caller's registry entities and filters on the chosen one.
    page.goto("/#/search?q=termination")
    page.locator("details.filters > summary").click()
    page.locator("#entity-options option").first.wait_for(state="attached")
    entities = page.locator("#entity-options option").evaluate_all("os => os.map(o => o.value)")
    assert entities == sorted(entities) and all(not e.startswith("agreement:") for e in entities)
    entity = next(e for e in entities if e.startswith("org:eco science"))
    with portal.client(ALICE_KEY) as api:
        expected = api.post("/v1/search", json={"query": "termination", "k": 100,
                                                "filters": {"entity_ids": [entity]}}).json()["hits"]
    assert expected
    page.get_by_label("Entity id").fill(entity)
    page.get_by_role("button", name="Search", exact=True).click()
    # The unfiltered hits are still on the page until the filtered answer renders: wait for the
    # list to become the API's filtered first page (a timeout fails the test).
    want = [h["chunk_id"] for h in expected[:10]]
    page.wait_for_function(
        "want => JSON.stringify([...document.querySelectorAll('li.hit')].map(e => e.dataset.chunkId))"
        " === JSON.stringify(want)", arg=want, timeout=30_000,
    )
    shown = page.locator("li.hit").evaluate_all("els => els.map(e => e.dataset.chunkId)")
    assert shown == want
    # (a chunk mentions the entity by name or by its defined role, e.g. "the Company")
    assert {h["doc_id"] for h in expected} == {d for d in portal.sample_doc_ids if "EcoScience" in d}


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


def _wait_indexed(api, doc_id: str, revision: str, timeout: float = 180.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body = api.get(f"/v1/documents/{doc_id}").json()
        jobs = [j for j in body.get("jobs", []) if j["revision"] == revision]
        if jobs and all(j["state"] in ("done", "failed", "cancelled") for j in jobs):
            return body
        time.sleep(0.2)
    raise AssertionError(f"{doc_id} not finished")


# How long the upload test waits for its long lease to be indexed (a loaded CI machine).
_LONG_JOB_MS = 240_000
WATCH_STATUSES = """() => {
  window.__seen = [];
  const record = () => document.querySelectorAll('[data-testid=status]').forEach(
    (e) => window.__seen.push(e.closest('tr').dataset.docId + '=' + e.textContent));
  new MutationObserver(record).observe(document.getElementById('main'),
    {subtree: true, childList: true, characterData: true});
}"""


def test_upload_with_progress_live_status_history_and_delete(page, portal) -> None:
    sign_in(page)
    page.goto("/#/documents")
    page.locator("#doc-list-title").wait_for()
    page.evaluate(WATCH_STATUSES)
    # The lease is long enough (about 50 KB, some seconds of indexing) that its job is still
    # running when the list first shows it, however fast the machine: a short file could finish
    # between the upload's answer and the list's first fetch, and no earlier status would ever be
    # on screen. (It was 240 KB, 40 s alone; on a machine running two test suites at once the
    # job outlasted the test's four-minute wait.)
    lease = b"LEASE AGREEMENT\n\nThe Quokkaberry warehouse lease runs for three years.\n" + b"".join(
        b"%d. The tenant keeps the Quokkaberry warehouse in good repair and pays rent monthly.\n" % n
        for n in range(600)
    )
    page.set_input_files("#files", files=[
        {"name": "quokka-lease.txt", "mimeType": "text/plain", "buffer": lease},
        {"name": "wombat-nda.md", "mimeType": "text/markdown",
         "buffer": b"# NDA\n\nThe Wombatronic parties keep each other's secrets for five years.\n"},
    ])
    page.get_by_label("Who may read (ACL)").fill("legal")
    page.get_by_label("Collection", exact=True).fill("uploads")
    page.get_by_role("button", name="Upload").click()
    rows = page.locator(".upload-row")
    rows.nth(1).locator(".upload-state").filter(has_text="received as").wait_for()
    assert rows.count() == 2
    assert rows.evaluate_all("rs => rs.map(r => r.querySelector('progress').value)") == [1, 1]
    doc_ids = [t.split("received as ")[1] for t in rows.locator(".upload-state").all_inner_texts()]
    # (Indexing the lease takes seconds alone, far longer on a loaded machine: the wait allows for
    # that, so only a job that never ends fails here.)
    for doc_id in doc_ids:
        page.locator(f'tr[data-doc-id="{doc_id}"] [data-testid=status]').filter(has_text="indexed").wait_for(
            timeout=_LONG_JOB_MS
        )
    seen = page.evaluate("window.__seen")
    for doc_id in doc_ids:
        statuses = [s.split("=", 1)[1] for s in seen if s.startswith(doc_id + "=")]
        assert statuses[-1] == "indexed"
    # The list updated by itself while the lease's job ran: an earlier status was on screen.
    lease_statuses = [s.split("=", 1)[1] for s in seen if s.startswith(doc_ids[0] + "=")]
    assert set(lease_statuses) & {"received", "extracting", "indexing"}, lease_statuses
    row = page.locator(f'tr[data-doc-id="{doc_ids[0]}"]')
    assert "legal" in row.inner_text() and "uploads" in row.inner_text()
    assert axe_violations(page) == []
    row.get_by_text("Revisions").click()
    row.locator(".revisions li").filter(has_text="current").wait_for()
    assert "quokka-lease.txt" in row.locator(".revisions li").first.inner_text()
    screenshot(page, "documents")

    page.goto("/#/search?q=Quokkaberry")
    assert page.locator("li.hit .meta").first.inner_text().startswith(doc_ids[0] + " ")

    # Delete: two steps, then the document is gone from the list and from search (kNN still
    # returns the nearest other passages, so the check is that none of them is this document).
    page.goto("/#/documents")
    row.get_by_role("button", name=re.compile("^Delete")).click()
    row.get_by_role("button", name=re.compile("^Confirm delete")).click()
    page.locator(f'tr[data-doc-id="{doc_ids[0]}"]').wait_for(state="detached")
    page.goto("/#/search?q=Quokkaberry")
    page.locator("li.hit").first.wait_for()
    metas = page.locator("li.hit .meta").all_inner_texts()
    assert not [m for m in metas if m.startswith(doc_ids[0] + " ")]


def test_source_of_a_replaced_revision_says_it_is_not_current(page, portal) -> None:
    with portal.client(ALICE_KEY) as api:
        revisions = []
        for text in ("Version one: the Gryphonix fee is 10 dollars.\n",
                     "Version two: the Gryphonix fee is 20 dollars.\n"):
            accepted = api.post("/v1/documents", files={"file": ("fee.txt", text.encode())},
                                data={"doc_id": "fee-memo", "acl": "alice"}).json()
            assert _wait_indexed(api, "fee-memo", accepted["revision"])["status"] == "indexed"
            revisions.append(accepted["revision"])
    sign_in(page)
    page.goto(f"/#/source?doc=fee-memo&rev={revisions[0]}&s=13&e=45")
    page.get_by_test_id("cited").wait_for()
    assert page.get_by_test_id("cited").inner_text() == "the Gryphonix fee is 10 dollars."
    assert page.get_by_text("This revision is no longer current").is_visible()
    assert axe_violations(page) == []
    screenshot(page, "source-not-current")


def test_a_second_principal_sees_none_of_the_first_ones_documents(page, portal, problems) -> None:
    problems.expected_statuses.add(404)  # bob opening alice's passage below, on purpose
    with portal.client(ALICE_KEY) as api:
        e1 = api.post("/v1/evidence/query", json={"question": README_QUESTION}).json()["evidence"][0]
    sign_in(page, BOB_KEY, "bob")
    assert page.locator("#who-groups").inner_text() == "groups: sales"
    page.goto("/#/documents")
    page.get_by_text("No documents you can read yet").wait_for()
    assert page.locator("#doc-list-title").inner_text() == "Your documents (0)"
    for query in ("agreement", "Zanzibarite", "Florida"):
        page.goto("/#/search?" + urlencode({"q": query}))
        page.locator("#results-title").filter(has_text="No passages for").wait_for()
    with page.expect_response(lambda r: "/v1/subjects" in r.url) as subjects:
        page.locator("details.filters > summary").click()
    assert subjects.value.json() == {"subjects": []}
    page.wait_for_load_state("networkidle")
    assert page.locator("#collection-options option, #doc-options option, #entity-options option").count() == 0
    page.goto("/#/ask?" + urlencode({"q": README_QUESTION}))
    page.get_by_test_id("state").filter(has_text="SUBJECT_NOT_FOUND").wait_for()
    assert page.locator("ol.evidence").count() == 0
    assert "Sponsorship" not in page.locator("article.report").inner_text().replace("SPONSORSHIP", "")
    page.goto(f"/#/source?doc={e1['doc_id']}&rev={e1['revision']}&s={e1['char_start']}&e={e1['char_end']}")
    page.get_by_text("This passage is not available to you").wait_for()
    assert "Florida" not in page.locator("main").inner_text()
    screenshot(page, "acl-bob")


def test_document_text_with_script_payloads_is_shown_as_text_and_never_runs(page, portal) -> None:
    sign_in(page)
    page.goto("/#/search?q=Zanzibarite")
    hit = page.locator("li.hit").first
    hit.wait_for()
    assert hit.locator(".hit-title").inner_text() == XSS_TITLE
    text = hit.locator(".excerpt").inner_text()
    assert "<script>window.__xss = 'script'</script>" in text
    assert "<img src=x onerror=\"window.__xss='img'\">" in text
    hit.get_by_role("link", name=re.compile("^Expand source")).click()
    page.get_by_test_id("cited").wait_for()
    assert "<svg onload=" in page.locator(".source-text").inner_text()
    page.goto("/#/documents")
    page.locator(f'tr[data-doc-id="{portal.xss_doc_id}"]').wait_for()
    assert XSS_TITLE in page.locator(f'tr[data-doc-id="{portal.xss_doc_id}"] th').inner_text()
    # Nothing ran, and no element came from the document's markup.
    assert page.evaluate("window.__xss") is None
    assert page.locator("main img, main svg, main script, main a[href^='javascript']").count() == 0
    screenshot(page, "xss")


def test_narrow_screen_has_no_horizontal_scroll_and_passes_axe(narrow_page, portal) -> None:
    page = narrow_page
    sign_in(page)
    for name, url, ready in (
        ("search", "/#/search?q=governing%20law", "li.hit"),
        ("ask", "/#/ask?" + urlencode({"q": README_QUESTION}), "article.report"),
        ("documents", "/#/documents", "#doc-list-title"),
        ("source", "/#/search?q=Zanzibarite", "li.hit"),
    ):
        page.goto(url)
        page.locator(ready).first.wait_for()
        if name == "source":
            page.locator("li.hit").first.get_by_role("link", name=re.compile("^Expand source")).click()
            page.locator("mark.cited").wait_for()
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"{name} scrolls sideways by {overflow}px at 390px"
        assert axe_violations(page) == [], name
        screenshot(page, f"narrow-{name}")


def test_ask_view_draws_a_20_unit_report(page, portal) -> None:
    """The report is assembled from real units the server returned for the README question
    (``bench/portal_render.py``'s builder: its evidence and rejected passages, renumbered
    E1..E20); the portal's own render function draws all of it. How long that takes against the
    100 ms target is the bench's to print: a timing asserted here failed CI at 113 ms on a busy
    2-core box."""
    with portal.client(ALICE_KEY) as api:
        real = api.post("/v1/evidence/query", json={"question": README_QUESTION}).json()
    report = twenty_unit_report(real)
    sign_in(page)
    page.goto("/#/ask")
    page.locator(".report-area").wait_for(state="attached")
    elapsed = page.evaluate(
        """async (report) => {
            const view = await import('/portal/js/views/ask.js');
            return view.showReport(document.querySelector('.report-area'), report);
        }""",
        report,
    )
    assert page.locator("ol.evidence > li").count() == 20
    chip_ids = [t.split("]")[0] + "]" for t in page.locator("ul.findings a.chip").all_text_contents()]
    assert chip_ids == [f"[E{i}]" for i in range(1, 21)]
    assert page.locator(".side-by-side .side").count() == 2
    # The render reports its own duration (a number, recorded on the element) for the bench.
    assert abs(float(page.locator("article.report").get_attribute("data-render-ms")) - elapsed) <= 0.005
    print(f"\nask view first render, 20 evidence units: {elapsed:.1f} ms (not asserted; see bench/portal_render.py)")
    screenshot(page, "ask-20-units")


def _server_offers(portal, path: str) -> bool:
    import httpx

    return path in httpx.get(f"{portal.base_url}/openapi.json").json()["paths"]


GRID_ATTRIBUTES = ["governing_law", "expiration_date"]


def test_review_grid_cites_clauses_exports_csv_and_filters_per_caller(page, portal) -> None:
    """The grid view against the real ``GET /v1/table`` on the sample contracts: every cell is
    the endpoint's (value with citation chips, or "not stated"), a chip opens the cited span, the
    CSV export is the page, and bob (not in ``legal``) gets no row of alice's."""
    sign_in(page)
    hash_ = "/#/table?" + urlencode({"attributes": ",".join(GRID_ATTRIBUTES)})
    with page.expect_response(lambda r: "/v1/table?" in r.url, timeout=600_000) as answer:
        page.goto(hash_)
    assert answer.value.status == 200
    body = answer.value.json()
    page.locator("table.grid").wait_for()
    assert body["attributes"] == GRID_ATTRIBUTES and body["page"] == 1
    # Every agreement alice's registry look-up finds (the six contracts and whatever other tests of
    # this session uploaded), in the endpoint's order. The script-payload memo is no agreement (no
    # agreement title, no contract preamble), so it has no row.
    with portal.client(ALICE_KEY) as api:
        agreements = api.get("/v1/subjects", params={"type": "agreement", "limit": 500}).json()["subjects"]
    assert body["total"] == len(body["rows"]) == len(agreements)
    assert sorted(r["subject_id"] for r in body["rows"]) == sorted(a["subject_id"] for a in agreements)
    assert set(portal.sample_doc_ids) <= {r["doc_id"] for r in body["rows"]}
    assert portal.xss_doc_id not in {r["doc_id"] for r in body["rows"]}

    headers = page.locator("table.grid thead th").all_inner_texts()
    assert headers == ["Agreement", "Governing law", "Expiration date"]
    rows = page.locator("table.grid tbody tr")
    assert rows.count() == len(body["rows"])
    stated = not_stated = 0
    for n, row in enumerate(body["rows"]):
        tr = rows.nth(n)
        document = row["title"] if row["title"] == row["doc_id"] else f"{row['title']} · {row['doc_id']}"
        assert tr.locator("th").inner_text().splitlines() == [row["name"], document]
        for col, attribute in enumerate(GRID_ATTRIBUTES):
            cell = row["cells"][attribute]
            td = tr.locator("td").nth(col)
            if cell["sufficient"]:
                stated += 1
                shown = td.locator(".cell-value")
                assert shown.get_attribute("data-value") == cell["value"]
                durations = {"P2Y": "2 years", "P6M": "6 months", "P1Y": "1 year"}
                assert shown.inner_text() == durations.get(cell["value"], cell["value"])
                chips = td.locator("a.chip")
                assert chips.all_inner_texts() == [f"[{e['id']}]" for e in cell["evidence"]]
                assert cell["evidence"]
            else:
                not_stated += 1
                assert cell == {"value": "not stated", "sufficient": False, "evidence": []}
                assert td.get_attribute("class") == "not-stated"
                assert td.inner_text() == "not stated" and td.locator("a").count() == 0
    assert stated and not_stated, (stated, not_stated)  # both kinds of cell are exercised
    # The memo (script-laden title) is no agreement, so no row; its title is checked as text in the
    # search and documents views (test_document_text_with_script_payloads_...).
    assert page.locator("table.grid tbody th").filter(has_text=XSS_TITLE).count() == 0
    assert page.evaluate("window.__xss") is None
    assert page.locator("main").get_by_text(f"{body['total']} agreement subjects · page 1").is_visible()
    assert axe_violations(page) == []
    screenshot(page, "table")
    (entry,) = [e for e in audit_entries(portal, "table_query", "alice")
                if e["input"]["attributes"] == GRID_ATTRIBUTES][-1:]
    assert entry["total"] == body["total"]

    # CSV export: the page as shown, one line per row, evidence as doc@revision:span.
    with page.expect_download() as download:
        page.get_by_role("link", name="Export CSV").click()
    assert download.value.suggested_filename == "attest-agreement-grid-page1.csv"
    lines = Path(download.value.path()).read_bytes().decode("utf-8").split("\r\n")
    assert lines[0] == (
        '"subject_id","title","doc_id","governing_law","governing_law_evidence",'
        '"expiration_date","expiration_date_evidence"'
    )
    assert len(lines) == len(body["rows"]) + 2 and lines[-1] == ""
    for line, row in zip(lines[1:], body["rows"]):
        fields = next(csv.reader([line]))
        assert fields[:3] == [row["subject_id"], row["title"], row["doc_id"]]
        law = row["cells"]["governing_law"]
        assert fields[3] == law["value"]
        assert fields[4] == " ".join(
            f"{e['doc_id']}@{e['revision'][:12]}:{e['char_start']}-{e['char_end']}" for e in law["evidence"]
        )

    # A citation chip opens the source view on exactly the cited characters.
    row_n, attribute, cited = next(
        (n, a, r["cells"][a]["evidence"][0]) for n, r in enumerate(body["rows"])
        for a in GRID_ATTRIBUTES if r["cells"][a]["sufficient"]
    )
    rows.nth(row_n).locator("td").nth(GRID_ATTRIBUTES.index(attribute)).locator("a.chip").first.click()
    page.locator("mark.cited").first.wait_for()
    assert f"s={cited['char_start']}" in page.url and f"e={cited['char_end']}" in page.url
    with portal.client(ALICE_KEY) as api:
        text = api.get(
            f"/v1/documents/{cited['doc_id']}/revisions/{cited['revision']}/text",
            params={"char_start": cited["char_start"], "char_end": cited["char_end"], "context": 0},
        ).json()["passage"]
    assert "".join(page.locator("mark.cited").all_inner_texts()).split() == text.split()
    page.get_by_text(f"Evidence {cited['id']}: the highlighted characters").wait_for()

    # bob reads none of the samples: no row, no count, no title of alice's.
    page.get_by_role("button", name="Sign out").click()
    sign_in(page, BOB_KEY, "bob")
    with page.expect_response(lambda r: "/v1/table?" in r.url, timeout=600_000) as answer:
        page.goto(hash_)
    bob = answer.value.json()
    assert bob["total"] == 0 and bob["rows"] == []
    page.get_by_text("There are no agreement subjects among the documents you may read.").wait_for()
    assert page.locator("table.grid").count() == 0
    content = page.content()
    for row in body["rows"]:
        assert row["doc_id"] not in content and row["subject_id"] not in content
    assert axe_violations(page) == []


def test_sweeps_view_lists_a_real_run_and_opens_its_html_report(page, portal, problems) -> None:
    """A sweep of ATTEST_SWEEPS_DIR over the sample contracts, run through
    ``POST /v1/sweeps/{name}/runs``: the view lists the sweep and the run as the API gives them,
    its HTML report downloads and opens (the stored report, self-contained), axe finds nothing
    serious, and bob (not the sweep's principal, not admin) sees nothing of it."""
    with portal.client(ALICE_KEY) as api:
        answer = api.post(f"/v1/sweeps/{SWEEP_NAME}/runs", timeout=600)
        assert answer.status_code == 201, answer.text
        report = answer.json()
        listed = api.get(f"/v1/sweeps/{SWEEP_NAME}/runs").json()
        stored_html = api.get(f"/v1/sweeps/{SWEEP_NAME}/runs/{report['run_id']}", headers={"Accept": "text/html"}).text
    assert {q["state"] for q in report["queries"]} == {"CONCLUDED"}
    run = next(r for r in listed["runs"] if r["run_id"] == report["run_id"])

    sign_in(page)
    page.goto("/#/sweeps")
    link = page.get_by_role("link", name=SWEEP_NAME, exact=True)
    link.wait_for()
    assert page.locator("ul.sweep-list li").filter(has=link).inner_text() == (
        f"{SWEEP_NAME} — Governing law of two sample contracts."
    )
    link.click()
    page.locator("#runs-title").filter(has_text=f"Runs of {SWEEP_NAME}").wait_for()
    item = page.locator("ul.runs li").filter(has=page.locator("code", has_text=report["run_id"]))
    item.wait_for()
    assert item.locator(".badge").first.inner_text() == run["status"] == report["status"]
    findings = run["findings"]
    assert f"{findings} finding{'' if findings == 1 else 's'}" in item.inner_text()
    assert link.get_attribute("aria-current") == "true"
    assert axe_violations(page) == []
    screenshot(page, "sweeps")

    item.get_by_role("button", name=re.compile("HTML report")).click()
    download_link = item.get_by_role("link", name="Download the report")
    download_link.wait_for()
    with page.expect_download() as download:
        download_link.click()
    assert download.value.suggested_filename == f"sweep-{SWEEP_NAME}-{report['run_id']}.html"
    html = Path(download.value.path()).read_text(encoding="utf-8")
    assert html == stored_html and f"<code>{report['run_id']}</code>" in html
    # Opened, it is a page of its own: no request leaves it, and axe finds nothing serious.
    viewer = page.context.new_page()
    outside: list[str] = []
    viewer.on("request", lambda r: outside.append(r.url))
    viewer.set_content(html)
    assert viewer.locator("h1").first.inner_text().strip()
    assert outside == [] and axe_violations(viewer) == []
    screenshot(viewer, "sweep-report-from-portal")
    viewer.close()

    # bob: no sweep listed, no run, no name; the API answers him the 404 of a missing sweep.
    page.get_by_role("button", name="Sign out").click()
    sign_in(page, BOB_KEY, "bob")
    page.goto("/#/sweeps")
    page.get_by_text("No sweeps are defined on this server.").wait_for()
    page.goto("/#/sweeps?" + urlencode({"sweep": SWEEP_NAME}))
    page.get_by_text("No sweeps are defined on this server.").wait_for()
    content = page.content()
    assert SWEEP_NAME not in content and report["run_id"] not in content
    with portal.client(BOB_KEY) as api:
        for path in (f"/v1/sweeps/{SWEEP_NAME}/runs", f"/v1/sweeps/{SWEEP_NAME}/runs/{report['run_id']}"):
            denied = api.get(path)
            assert denied.status_code == 404 and report["run_id"] not in denied.text
        assert api.get("/v1/sweeps").json() == {"sweeps": []}
    assert axe_violations(page) == []


def test_grid_csv_export_quotes_fields_and_defuses_formulas(page, portal) -> None:
    """The CSV builder of the review grid, on a literal grid body (no server endpoint needed)."""
    sign_in(page)
    body = {
        "type": "agreement", "attributes": ["governing_law"], "page": 1, "page_size": 50, "total": 2,
        "rows": [
            {"subject_id": "agreement:a@d1", "name": "A", "doc_id": "d1", "title": 'Supply "A", v2',
             "cells": {"governing_law": {"value": "=HYPERLINK(\"x\")", "sufficient": True, "evidence": [
                 {"id": "E1", "doc_id": "d1", "revision": "ab" * 32, "page": None, "section": [],
                  "line_start": 3, "line_end": 3, "char_start": 10, "char_end": 42, "excerpt": "x",
                  "source_url": "/v1/documents/d1/revisions/x/text"}]}}},
            {"subject_id": "agreement:b@d2", "name": "B", "doc_id": "d2", "title": "B",
             "cells": {"governing_law": {"value": None, "sufficient": False, "evidence": []}}},
        ],
    }
    csv = page.evaluate(
        "async (body) => (await import('/portal/js/views/table.js')).toCsv(body)", body
    )
    assert csv.split("\r\n") == [
        '"subject_id","title","doc_id","governing_law","governing_law_evidence"',
        '"agreement:a@d1","Supply ""A"", v2","d1","\'=HYPERLINK(""x"")","d1@abababababab:10-42"',
        '"agreement:b@d2","B","d2","",""',
        "",
    ]


def test_keyboard_only_search_and_expand_with_visible_focus(page, portal) -> None:
    sign_in(page)
    page.goto("/#/search")
    page.locator("#q").wait_for()
    # A view opens with its heading focused; the skip link is first in the tab order.
    assert page.evaluate("document.activeElement.id") == "view-title"
    first = page.evaluate("[...document.querySelectorAll('a[href], button, input, textarea')][0].className")
    assert first == "skip-link"
    page.locator(".skip-link").focus()
    assert page.locator(".skip-link").bounding_box()["x"] >= 0  # shown when focused
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    page.locator("#q").focus()
    page.keyboard.type("governing law")
    page.keyboard.press("Enter")
    page.locator("li.hit").first.wait_for()
    link = page.locator("li.hit").first.get_by_role("link", name=re.compile("^Expand source"))
    # Tab from the results heading until the first "Expand source" link has focus.
    page.locator("#results-title").evaluate("e => { e.tabIndex = -1; e.focus(); }")
    for _ in range(10):
        page.keyboard.press("Tab")
        if link.evaluate("e => e === document.activeElement"):
            break
    assert link.evaluate("e => e === document.activeElement")
    outline = link.evaluate("e => getComputedStyle(e).outlineStyle + ' ' + getComputedStyle(e).outlineWidth")
    assert outline.startswith("solid") and not outline.endswith(" 0px")
    page.keyboard.press("Enter")
    page.locator("mark.cited").wait_for()


def test_a_failed_ingest_shows_failed_with_its_reason(page, portal) -> None:
    sign_in(page)
    page.goto("/#/documents")
    page.locator("#doc-list-title").wait_for()
    page.set_input_files("#files", files=[
        {"name": "blank.txt", "mimeType": "text/plain", "buffer": b"   \n\n   \n"},
    ])
    page.get_by_role("button", name="Upload").click()
    state = page.locator(".upload-row .upload-state").filter(has_text="received as")
    state.wait_for()
    doc_id = state.inner_text().split("received as ")[1]
    row = page.locator(f'tr[data-doc-id="{doc_id}"]')
    row.locator("[data-testid=status]").filter(has_text="failed").wait_for()
    with portal.client(ALICE_KEY) as api:
        body = api.get(f"/v1/documents/{doc_id}").json()
    assert body["status"] == "failed" and body["error"]
    assert row.locator(".error-text").inner_text() == f"{body['stage']}: {body['error']}"
    assert axe_violations(page) == []
    row.get_by_role("button", name=re.compile("^Delete")).click()
    row.get_by_role("button", name=re.compile("^Confirm delete")).click()
    row.wait_for(state="detached")
