"""Extra ``attest`` commands, registered by ``service/cli.py`` through :func:`register`.

To add a command group, write a ``register_<name>(sub)`` function below and append it to
``REGISTRARS``; each receives the top-level subparsers object and adds its own parsers.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from ingest.settings import get_settings
from service.cli_output import print_json
from service.cli_mcp import register as register_mcp
from service.cli_worker import register as register_worker


def _print_index_report(report: dict[str, Any], *, as_json: bool) -> None:
    if as_json:
        print_json({"indexes": report})
        return
    for kind, state in report.items():
        sys.stdout.write(f"{kind}: {state}\n")


# -- attest es ... ---------------------------------------------------------------------------
def _elastic_store(args: argparse.Namespace):
    from ingest.errors import InvalidInputError
    from ingest.store.elastic import ElasticStore

    settings = get_settings()
    url = getattr(args, "url", None) or settings.elasticsearch_url
    if not url:
        raise InvalidInputError("no Elasticsearch URL: set ATTEST_ELASTICSEARCH_URL or pass --url")
    prefix = getattr(args, "prefix", None) or settings.elasticsearch_prefix
    return ElasticStore(url, prefix=prefix)


def cmd_es_init(args: argparse.Namespace) -> int:
    store = _elastic_store(args)
    try:
        report = store.init_indexes()
    finally:
        store.close()
    _print_index_report(report, as_json=args.json)
    return 0


def cmd_es_migrate(args: argparse.Namespace) -> int:
    store = _elastic_store(args)
    try:
        report = store.migrate(args.to_version, delete_old=args.delete_old)
    finally:
        store.close()
    _print_index_report(report, as_json=args.json)
    return 0


def cmd_es_optimize(args: argparse.Namespace) -> int:
    store = _elastic_store(args)
    try:
        store.init_indexes()
        report = store.admin.optimize("chunks", args.max_segments)
    finally:
        store.close()
    if args.json:
        print_json({"chunks": report})
    else:
        sys.stdout.write(
            f"chunks: {report['segments_before']} -> {report['segments_after']} segments\n"
        )
    return 0


def cmd_es_status(args: argparse.Namespace) -> int:
    from ingest.errors import EXIT_CODES, UnavailableError

    store = _elastic_store(args)
    try:
        payload: dict[str, Any] = {"ready": store.ping()}
        if not payload["ready"]:
            # Unreachable or red: say so in one line, with the exit code of an outage.
            payload["error"] = f"Elasticsearch at {store.url} is not reachable or not healthy"
            if args.json:
                print_json(payload)
            else:
                sys.stdout.write(f"ready: False\nerror: {payload['error']}\n")
            return EXIT_CODES[UnavailableError]
        payload["indexes"] = store.current_indices()
        if all(payload["indexes"].values()):
            payload["embedding"] = store.embedding_model()
    finally:
        store.close()
    if args.json:
        print_json(payload)
    else:
        sys.stdout.write(f"ready: {payload['ready']}\n")
        for kind, name in payload["indexes"].items():
            sys.stdout.write(f"{kind}: {name or '(missing: run attest es init)'}\n")
        if payload.get("embedding"):
            sys.stdout.write(f"embedding: {payload['embedding']}\n")
    return 0 if payload["ready"] else 1


def register_es(sub: argparse._SubParsersAction) -> None:
    es = sub.add_parser("es", help="Elasticsearch index management")
    es_sub = es.add_subparsers(dest="es_command", required=True)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--url", help="default: ATTEST_ELASTICSEARCH_URL")
        p.add_argument("--prefix", help="index name prefix (default: ATTEST_ELASTICSEARCH_PREFIX)")
        p.add_argument("--json", action="store_true")

    p = es_sub.add_parser("init", help="create missing indexes and aliases (idempotent)")
    common(p)
    p.set_defaults(func=cmd_es_init)

    p = es_sub.add_parser(
        "migrate",
        help="copy indexes into a new version and swap the aliases atomically "
        "(stop ingestion first: the old indexes are write-blocked during the copy)",
    )
    common(p)
    p.add_argument("--to-version", type=int, default=None, help="default: newest mapping version")
    p.add_argument("--delete-old", action="store_true", help="delete the old indexes afterwards")
    p.set_defaults(func=cmd_es_migrate)

    p = es_sub.add_parser(
        "optimize",
        help="force-merge the chunks index (after bulk loads: filtered kNN stays on the HNSW "
        "graph in large segments instead of exact search in many small ones)",
    )
    common(p)
    p.add_argument("--max-segments", type=int, default=1)
    p.set_defaults(func=cmd_es_optimize)

    p = es_sub.add_parser("status", help="readiness, the index behind each alias, the model")
    common(p)
    p.set_defaults(func=cmd_es_status)


def register_ask(sub: argparse._SubParsersAction) -> None:
    """``attest ask``: the evidence state machine (service/cli_ask.py)."""
    from service.cli_ask import register as register_ask_command

    register_ask_command(sub)


def register_serve(sub: argparse._SubParsersAction) -> None:
    """``attest serve``: the HTTP API (service/cli_serve.py)."""
    from service.cli_serve import register as register_serve_command

    register_serve_command(sub)


def register_audit(sub: argparse._SubParsersAction) -> None:
    """``attest audit verify``: the audit hash chain (service/cli_audit.py)."""
    from service.cli_audit import register as register_audit_commands

    register_audit_commands(sub)


def register_table(sub: argparse._SubParsersAction) -> None:
    """``attest table``: the class-level review grid (service/cli_table.py)."""
    from service.cli_table import register as register_table_command

    register_table_command(sub)


def register_sweep(sub: argparse._SubParsersAction) -> None:
    """``attest sweep run`` and ``attest audit revalidate`` (service/cli_sweep.py)."""
    from service.cli_sweep import register as register_sweep_commands

    register_sweep_commands(sub)


REGISTRARS: list[Callable[[argparse._SubParsersAction], None]] = [
    register_es,
    register_ask,
    register_serve,
    register_mcp,
    register_audit,
    register_table,
    register_sweep,
    register_worker,
]


def register(sub: argparse._SubParsersAction) -> None:
    for registrar in REGISTRARS:
        registrar(sub)
