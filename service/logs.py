"""structlog configuration: JSON lines, request ids bound through contextvars."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import structlog


class _CurrentStream:
    """Writes to whatever ``sys.<name>`` is at the time of the call, so replacing or closing a
    stream (pytest's capture does both) never leaves loggers bound to a dead file."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __call__(self, *args: object) -> structlog.WriteLogger:
        return structlog.WriteLogger(getattr(sys, self.name))


def configure_logging(level: str = "INFO", stream: TextIO | None = None) -> None:
    numeric = logging.getLevelName(level.upper())
    if not isinstance(numeric, int):
        numeric = logging.INFO
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(sort_keys=True),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=_CurrentStream("stderr" if stream is sys.stderr else "stdout")
        if stream is None or stream in (sys.stdout, sys.stderr)
        else structlog.WriteLoggerFactory(file=stream),
        cache_logger_on_first_use=False,
    )
    # Third-party libraries log through the stdlib; keep them quiet and off stdout.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    for noisy in ("unstructured", "pdfminer", "pikepdf", "elastic_transport", "httpx"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
