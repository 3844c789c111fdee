"""Timestamps, in one format for every record: UTC ISO 8601 with milliseconds.

A leaf module, so the store adapters, the pipeline, the API and the sweeps share it without
the API importing a store adapter."""

from __future__ import annotations

from datetime import datetime, timezone


def utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")
