"""structlog configuration: JSON lines, request ids bound through contextvars."""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import structlog


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
        logger_factory=structlog.WriteLoggerFactory(file=stream or sys.stdout),
        cache_logger_on_first_use=False,
    )
    # Third-party libraries log through the stdlib; keep them quiet and off stdout.
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    for noisy in ("unstructured", "pdfminer", "pikepdf", "elastic_transport", "httpx"):
        logging.getLogger(noisy).setLevel(logging.ERROR)
