"""The portal's server side: GET /v1/me, the static portal with its CSP, the source view's
previous/next spans and the search entity filter (the real app over a real SQLite store)."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from tests.api.conftest import ADMIN, ALICE, ALICE_TEXT, BOB, REPO

PORTAL = REPO / "service" / "portal"


def assert_error(response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code


# -- /v1/me --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        (ALICE, {"principal": "alice", "groups": ["legal"], "admin": False}),
        (BOB, {"principal": "bob", "groups": ["sales"], "admin": False}),
        (ADMIN, {"principal": "root", "groups": [], "admin": True}),
    ],
)
def test_me_says_who_the_key_belongs_to(two_tenants, headers, expected) -> None:
    client, _ = two_tenants
    response = client.get("/v1/me", headers=headers)
    assert response.status_code == 200
    assert response.json() == expected


def test_me_without_a_valid_key_is_401(two_tenants) -> None:
    client, _ = two_tenants
    assert_error(client.get("/v1/me"), 401, "unauthorized")
    assert_error(client.get("/v1/me", headers={"Authorization": "Bearer nope-nope-nope-nope"}), 401, "unauthorized")


# -- the static portal ---------------------------------------------------------------------------
def test_portal_page_and_assets_carry_a_strict_csp(two_tenants) -> None:
    client, _ = two_tenants
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    csp = page.headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in csp
    assert page.headers["x-content-type-options"] == "nosniff"
    script = client.get("/portal/js/app.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["content-security-policy"] == csp
    assert client.get("/portal/app.css").headers["content-type"].startswith("text/css")


@pytest.mark.parametrize(
    "path", ["/portal/nope.js", "/portal/../api/app.py", "/portal/%2e%2e/%2e%2e/pyproject.toml",
             "/portal/js/../../api/auth.py", "/portal/"],
)
def test_unknown_portal_paths_are_404(two_tenants, path) -> None:
    client, _ = two_tenants
    response = client.get(path)
    assert response.status_code == 404
    assert "KeyRing" not in response.text and "[build-system]" not in response.text


def test_portal_markup_has_no_inline_script_or_style() -> None:
    html = (PORTAL / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert "<style" not in html and " style=" not in html
    assert re.search(r"\son\w+=", html) is None
    assert re.findall(r"(?:src|href)=\"(?!/portal/|#)", html) == []  # nothing from elsewhere


def test_portal_scripts_never_parse_strings_as_html_or_code() -> None:
    """Document text reaches the page through text nodes only (dom.js: h / append)."""
    forbidden = re.compile(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setTimeout\(['\"`]")
    offenders = {
        str(p.relative_to(PORTAL)): forbidden.findall(p.read_text(encoding="utf-8"))
        for p in PORTAL.rglob("*.js")
    }
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(offenders) >= 8


def test_every_portal_file_is_package_data() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["service"]
    shipped = [p.relative_to(REPO / "service").as_posix() for p in PORTAL.rglob("*") if p.is_file()]
    assert shipped
    assert [f for f in shipped if not any(fnmatch(f, pat) and f.count("/") == pat.count("/") for pat in patterns)] == []


# -- source view: previous / next ----------------------------------------------------------------
def test_source_view_names_the_neighbouring_chunks(two_tenants) -> None:
    client, _ = two_tenants
    store = client.app.state.ctx.store
    record = store.get_document("alice~alice-supply")
    chunks = store.revision_chunks("alice~alice-supply", record.current_revision)
    assert len(chunks) >= 2
    url = f"/v1/documents/alice-supply/revisions/{record.current_revision}/text"
    first, second = chunks[0], chunks[1]
    body = client.get(url, headers=ALICE, params={"char_start": first.char_start, "char_end": first.char_end}).json()
    assert body["previous"] is None
    assert body["next"] == {"char_start": second.char_start, "char_end": second.char_end}
    last = chunks[-1]
    body = client.get(url, headers=ALICE, params={"char_start": last.char_start, "char_end": last.char_end}).json()
    assert body["next"] is None
    assert body["previous"] == {"char_start": chunks[-2].char_start, "char_end": chunks[-2].char_end}
    assert body["passage"] == ALICE_TEXT[last.char_start:last.char_end]


# -- search: entity filter -----------------------------------------------------------------------
def test_search_filters_on_entity_ids_inside_the_acl(two_tenants) -> None:
    client, _ = two_tenants
    q = {"query": "agreement term distributor"}
    hits = client.post("/v1/search", headers=ALICE, json={**q, "filters": {"entity_ids": ["org:zephyrion holdings"]}}).json()["hits"]
    assert hits and {h["doc_id"] for h in hits} == {"alice~alice-supply"}
    assert all("Zephyrion" in h["text"] for h in hits)
    assert client.post("/v1/search", headers=ALICE, json={**q, "filters": {"entity_ids": ["org:nobody at all"]}}).json()["hits"] == []
    # bob's filter on alice's entity finds nothing: the ACL is inside the same query
    assert client.post("/v1/search", headers=BOB, json={**q, "filters": {"entity_ids": ["org:zephyrion holdings"]}}).json()["hits"] == []
    too_many = {**q, "filters": {"entity_ids": [f"org:e{i}" for i in range(101)]}}
    assert_error(client.post("/v1/search", headers=ALICE, json=too_many), 422, "validation_error")
    at_bound = {**q, "filters": {"entity_ids": [f"org:e{i}" for i in range(100)]}}
    assert client.post("/v1/search", headers=ALICE, json=at_bound).status_code == 200
