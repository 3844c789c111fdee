"""``attest serve``: the HTTP API under uvicorn.

The embedded SQLite store by default, Elasticsearch when ``ATTEST_ELASTICSEARCH_URL`` is set. With
no API key configured at all, the first start creates one admin key, prints it once and keeps it
in ``<data_dir>/api_keys.json`` (mode 0600); the API never runs without keys.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Annotated

import structlog
import typer


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            help="API worker processes (default: ATTEST_API_WORKERS, 1); one of them ingests.",
            show_default=False,
        ),
    ] = None,
) -> int:
    """Run the HTTP API (uvicorn) and the search portal."""
    import uvicorn
    from uvicorn.config import STARTUP_FAILURE

    from ingest.errors import EXIT_CODES, UnavailableError
    from ingest.settings import get_settings
    from service.api.app import create_app
    from service.api.auth import KeyConfigError, bootstrap_path, create_bootstrap_key, keys_configured
    from service.api.server import HTTP_PROTOCOL, serve_workers
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
    workers = workers or settings.api_workers
    if not 1 <= workers <= 32:
        sys.stderr.write(f"error: --workers must be between 1 and 32, not {workers}\n")
        return 2
    if workers > 1:
        # N processes: Python work (the evidence state machine, spaCy) holds the GIL, so threads
        # alone cannot use a second core. The children read their settings from the
        # environment: pass the worker count (it turns on the single-ingest-worker lock) and
        # split the cores between their onnxruntime sessions unless told otherwise.
        os.environ["ATTEST_API_WORKERS"] = str(workers)
        if settings.embed_threads is None:
            os.environ["ATTEST_EMBED_THREADS"] = str(max(1, (os.cpu_count() or 1) // workers))
        get_settings.cache_clear()
        try:
            create_app(get_settings())  # fail here, once, on a bad key configuration
        except KeyConfigError as exc:
            sys.stderr.write(f"error: {exc}\n")
            return 2
        # One SO_REUSEPORT socket per process: with uvicorn's one shared socket, every
        # connection of a burst went to whichever process woke first (service/api/server.py).
        try:
            serve_workers(
                host, port, workers, log_config=None, access_log=False,
                timeout_graceful_shutdown=int(settings.request_timeout_seconds) + 5,
            )
        except OSError as exc:
            sys.stderr.write(f"error: cannot listen on {host}:{port}: {exc.strerror}\n")
            return 2
        except UnavailableError as exc:
            sys.stderr.write(f"error: {exc.message}\n")
            return EXIT_CODES[UnavailableError]
        return 0
    try:
        app = create_app(settings)
    except KeyConfigError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    # SIGTERM: uvicorn stops accepting, waits for open requests (each has a deadline) and runs
    # the lifespan shutdown (ingest workers stop, stores close).
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_config=None,
            access_log=False,
            http=HTTP_PROTOCOL,
            timeout_graceful_shutdown=int(settings.request_timeout_seconds) + 5,
        )
    except SystemExit as exc:  # uvicorn's own exit code 3 would read as "not found" here
        if exc.code != STARTUP_FAILURE:
            raise
        sys.stderr.write("error: the server failed to start (its error is logged above)\n")
        return EXIT_CODES[UnavailableError]
    # A handler abandoned at its deadline may still be computing in a non-daemon worker
    # thread; the interpreter would wait for it at exit. Everything is closed by now: leave.
    stray = [t.name for t in threading.enumerate() if t is not threading.main_thread() and not t.daemon]
    if stray:
        structlog.get_logger(__name__).warning("serve_exit_abandoning_threads", threads=stray)
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0
