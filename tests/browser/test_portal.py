"""The portal in Chromium: sign-in, search, ask, expand source, documents, ACL and escaping."""

from __future__ import annotations

import re

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
