"""Prometheus metrics in the text exposition format (0.0.4), written by hand: request counts and
latency histograms per route template, plus gauges the app samples at scrape time."""

from __future__ import annotations

import threading
from bisect import bisect_left
from typing import Callable, Iterable

BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

Sample = tuple[dict[str, str], float]
GaugeSource = Callable[[], Iterable[Sample]]


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _labels(labels: dict[str, str]) -> str:
    if not labels:
        return ""
    return "{" + ",".join(f'{k}="{_escape(v)}"' for k, v in sorted(labels.items())) + "}"


def _number(value: float) -> str:
    if value == float("inf"):
        return "+Inf"
    return repr(float(value)) if not float(value).is_integer() else str(int(value))


class Metrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._requests: dict[tuple[str, str, str], int] = {}
        # (method, route) -> (bucket counts, sum, count)
        self._latency: dict[tuple[str, str], tuple[list[int], float, int]] = {}
        self._gauges: list[tuple[str, str, GaugeSource]] = []

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        with self._lock:
            key = (method, route, str(status))
            self._requests[key] = self._requests.get(key, 0) + 1
            buckets, total, count = self._latency.get((method, route), ([0] * len(BUCKETS), 0.0, 0))
            index = bisect_left(BUCKETS, seconds)
            if index < len(BUCKETS):
                buckets[index] += 1
            self._latency[(method, route)] = (buckets, total + seconds, count + 1)

    def gauge(self, name: str, help_text: str, source: GaugeSource) -> None:
        self._gauges.append((name, help_text, source))

    def render(self) -> str:
        lines: list[str] = []
        with self._lock:
            requests = dict(self._requests)
            latency = {k: (list(v[0]), v[1], v[2]) for k, v in self._latency.items()}
        lines.append("# HELP attest_http_requests_total HTTP requests by route template and status.")
        lines.append("# TYPE attest_http_requests_total counter")
        for (method, route, status), n in sorted(requests.items()):
            labels = _labels({"method": method, "route": route, "status": status})
            lines.append(f"attest_http_requests_total{labels} {n}")
        name = "attest_http_request_duration_seconds"
        lines.append(f"# HELP {name} HTTP request latency by route template.")
        lines.append(f"# TYPE {name} histogram")
        for (method, route), (buckets, total, count) in sorted(latency.items()):
            cumulative = 0
            for bound, n in zip(BUCKETS, buckets):
                cumulative += n
                labels = _labels({"method": method, "route": route, "le": _number(bound)})
                lines.append(f"{name}_bucket{labels} {cumulative}")
            labels = _labels({"method": method, "route": route, "le": "+Inf"})
            lines.append(f"{name}_bucket{labels} {count}")
            base = _labels({"method": method, "route": route})
            lines.append(f"{name}_sum{base} {total!r}")
            lines.append(f"{name}_count{base} {count}")
        for gauge_name, help_text, source in self._gauges:
            lines.append(f"# HELP {gauge_name} {help_text}")
            lines.append(f"# TYPE {gauge_name} gauge")
            for labels, value in source():
                lines.append(f"{gauge_name}{_labels(labels)} {_number(value)}")
        return "\n".join(lines) + "\n"
