"""Live values: facts that change outside the knowledge base (exchange rates, today's date).

ADR 2 (seed 004): live-value retrieval is separate from evidence retrieval. A provider is called
only after every query of a sweep has its evidence attached, and its response feeds the rule
engine only: it never enters an evidence report, an evidence bundle or its hash. The audit log
keeps the response under its own request id.

A provider is one method, ``fetch(names) -> LiveValues``, so a test can pass any object with it.
Names: ``today`` (an ISO date) and ``fx:<FROM>/<TO>`` (units of TO per unit of FROM, e.g.
``fx:EUR/USD``). Both built-in providers read one JSON object mapping names to values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Protocol, Sequence

from ingest.clock import utc_now
from ingest.errors import UnavailableError

MAX_RESPONSE_BYTES = 1_000_000


class LiveValueError(UnavailableError, RuntimeError):
    """A live-value source could not be read; rules that need it are reported as errors.
    A dependency that is down or misbehaving (HTTP 503, exit 5) should it ever escape a sweep;
    :func:`fetch_live_values` records it in the run instead of raising it."""


@dataclass(slots=True)
class LiveValues:
    source: str  # "file:<path>", "http:<url>" or "clock"
    fetched_at: str
    values: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "fetched_at": self.fetched_at, "values": self.values, "error": self.error}


class LiveValueProvider(Protocol):
    def fetch(self, names: Sequence[str]) -> LiveValues:
        """The values of ``names`` this source knows (others are absent, not an error). Raises
        :class:`LiveValueError` when the source cannot be read at all."""


def _select(data: Any, names: Sequence[str], source: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise LiveValueError(f"{source}: expected a JSON object of name -> value")
    return {n: data[n] for n in sorted(set(names)) if n in data}


class FileProvider:
    """Reads a JSON file at every fetch (tests change it between runs)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def fetch(self, names: Sequence[str]) -> LiveValues:
        source = f"file:{self.path}"
        try:
            if self.path.stat().st_size > MAX_RESPONSE_BYTES:
                raise LiveValueError(f"{source}: larger than {MAX_RESPONSE_BYTES} bytes")
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise LiveValueError(f"{source}: {exc}") from exc
        return LiveValues(source, utc_now(), _select(data, names, source))


class HttpJsonProvider:
    """GETs a URL that answers one JSON object. The names asked for are sent as repeated
    ``name`` query parameters, so an endpoint may answer only those."""

    def __init__(self, url: str, *, timeout: float = 10.0, transport: Any = None) -> None:
        self.url = url
        self.timeout = timeout
        self.transport = transport  # an httpx transport, for tests of this class only

    def fetch(self, names: Sequence[str]) -> LiveValues:
        import httpx

        source = f"http:{self.url}"
        try:
            with httpx.Client(timeout=self.timeout, transport=self.transport, follow_redirects=False) as client:
                with client.stream("GET", self.url, params=[("name", n) for n in sorted(set(names))]) as response:
                    response.raise_for_status()
                    body = b""
                    for part in response.iter_bytes():
                        body += part
                        if len(body) > MAX_RESPONSE_BYTES:
                            raise LiveValueError(f"{source}: response larger than {MAX_RESPONSE_BYTES} bytes")
            data = json.loads(body)
        except httpx.HTTPError as exc:
            raise LiveValueError(f"{source}: {type(exc).__name__}: {exc}") from exc
        except ValueError as exc:
            raise LiveValueError(f"{source}: not JSON: {exc}") from exc
        return LiveValues(source, utc_now(), _select(data, names, source))


def _describe(provider: LiveValueProvider) -> str:
    if isinstance(provider, HttpJsonProvider):
        return f"http:{provider.url}"
    if isinstance(provider, FileProvider):
        return f"file:{provider.path}"
    return type(provider).__name__


def fetch_live_values(provider: LiveValueProvider | None, names: Sequence[str], today: date) -> LiveValues:
    """Ask the provider; ``today`` falls back to the run's clock when the provider does not
    give it. A provider failure is recorded in ``error``, never raised into the sweep."""
    if not names:
        return LiveValues("none", utc_now(), {})
    if provider is None:
        values = LiveValues("clock", utc_now(), {})
    else:
        try:
            values = provider.fetch(names)
        except LiveValueError as exc:
            values = LiveValues(_describe(provider), utc_now(), {}, str(exc))
    if "today" in names and "today" not in values.values:
        values.values["today"] = today.isoformat()
        values.values = dict(sorted(values.values.items()))
    return values
