"""The browser suite's own rule: no Chromium means a loud skip, except under CI=true (a failure)."""

from __future__ import annotations

import pytest

import tests.browser.conftest as harness


def test_missing_chromium_skips_loudly_outside_ci(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(harness, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"\*\*\* Browser tests SKIPPED: Chromium not found"):
        harness.require_chromium()


def test_missing_chromium_fails_under_ci(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(harness, "CHROMIUM", str(tmp_path / "no-chromium"))
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="Chromium not found"):
        harness.require_chromium()


def test_present_chromium_is_used(monkeypatch, tmp_path) -> None:
    binary = tmp_path / "chromium"
    binary.write_text("")
    monkeypatch.setattr(harness, "CHROMIUM", str(binary))
    assert harness.require_chromium() == str(binary)
