"""``attest serve``: the HTTP API under uvicorn.

The embedded SQLite store by default, Elasticsearch when ``ATTEST_ELASTICSEARCH_URL`` is set. With
no API key configured at all, the first start creates one admin key, prints it once and keeps it
in ``<data_dir>/api_keys.json`` (mode 0600); the API never runs without keys.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading

import structlog


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from ingest.settings import get_settings
    from service.api.app import create_app
    from service.api.auth import KeyConfigError, bootstrap_path, create_bootstrap_key, keys_configured
    from service.logs import configure_logging

    settings = get_settings()
    configure_logging(settings.log_level, stream=sys.stdout)
    if not keys_configured(settings):
        key = create_bootstrap_key(settings)
        sys.stderr.write(
            "No API keys were configured, so one admin key was created. It is shown only now:\n\n"
            f"    {key}\n\n"
            f"It is stored in {bootstrap_path(settings)} (mode 0600). Send it as "
            "'Authorization: Bearer <key>'; configure ATTEST_API_KEYS or ATTEST_API_KEYS_FILE "
            "for real principals.\n"
        )
        sys.stderr.flush()
    try:
        app = create_app(settings)
    except KeyConfigError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    # SIGTERM: uvicorn stops accepting, waits for open requests (each has a deadline) and runs
    # the lifespan shutdown (ingest workers stop, stores close).
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_config=None,
        access_log=False,
        timeout_graceful_shutdown=int(settings.request_timeout_seconds) + 5,
    )
    # A handler abandoned at its deadline may still be computing in a non-daemon worker
    # thread; the interpreter would wait for it at exit. Everything is closed by now: leave.
    stray = [t.name for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    if stray:
        structlog.get_logger(__name__).warning("serve_exit_abandoning_threads", threads=stray)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run the HTTP API (uvicorn)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=cmd_serve)
