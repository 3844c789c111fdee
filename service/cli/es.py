"""``attest es init|migrate|optimize|status``: Elasticsearch index management.

Every subcommand takes ``--url`` and ``--prefix`` (defaults from the settings) and ``--json``.
An unreachable cluster is one line and exit 5, never a traceback.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, Callable, Iterator

import typer

from ingest.settings import get_settings
from service.cli.output import print_json

if TYPE_CHECKING:  # the client library loads in the command, not for --help
    from ingest.store.elastic import ElasticStore

app = typer.Typer(help="Elasticsearch index management.", no_args_is_help=True)

Url = Annotated[str | None, typer.Option("--url", help="Elasticsearch URL (default: ATTEST_ELASTICSEARCH_URL).")]
Prefix = Annotated[
    str | None, typer.Option("--prefix", help="Index name prefix (default: ATTEST_ELASTICSEARCH_PREFIX).")
]
Json = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def _elastic_store(url: str | None, prefix: str | None) -> ElasticStore:
    from ingest.errors import InvalidInputError
    from ingest.store.elastic import ElasticStore

    settings = get_settings()
    url = url or settings.elasticsearch_url
    if not url:
        raise InvalidInputError("no Elasticsearch URL: set ATTEST_ELASTICSEARCH_URL or pass --url")
    return ElasticStore(url, prefix=prefix or settings.elasticsearch_prefix)


@contextmanager
def _opened(url: str | None, prefix: str | None) -> Iterator[ElasticStore]:
    """The store every subcommand works on, closed when the command is done with it."""
    store = _elastic_store(url, prefix)
    try:
        yield store
    finally:
        store.close()


def _index_command(
    url: str | None, prefix: str | None, as_json: bool, action: Callable[[ElasticStore], dict[str, Any]]
) -> int:
    """``init`` and ``migrate``: run ``action`` (kind -> what happened to its index), print it."""
    with _opened(url, prefix) as store:
        report = action(store)
    if as_json:
        print_json({"indexes": report})
    else:
        for kind, state in report.items():
            sys.stdout.write(f"{kind}: {state}\n")
    return 0


@app.command("init")
def init(url: Url = None, prefix: Prefix = None, as_json: Json = False) -> int:
    """Create missing indexes and aliases (idempotent)."""
    return _index_command(url, prefix, as_json, lambda store: store.init_indexes())


@app.command("migrate")
def migrate(
    url: Url = None,
    prefix: Prefix = None,
    as_json: Json = False,
    to_version: Annotated[
        int | None,
        typer.Option("--to-version", help="Mapping version to migrate to (default: the newest).", show_default=False),
    ] = None,
    delete_old: Annotated[
        bool, typer.Option("--delete-old", help="Delete the old indexes afterwards.")
    ] = False,
) -> int:
    """Copy indexes into a new version and swap the aliases atomically.

    Stop ingestion first: the old indexes are write-blocked during the copy.
    """
    return _index_command(url, prefix, as_json,
                          lambda store: store.migrate(to_version, delete_old=delete_old))


@app.command("optimize")
def optimize(
    url: Url = None,
    prefix: Prefix = None,
    as_json: Json = False,
    max_segments: Annotated[
        int, typer.Option("--max-segments", help="Merge the chunks index down to this many segments.")
    ] = 1,
) -> int:
    """Force-merge the chunks index after bulk loads.

    Filtered kNN then stays on the HNSW graph in large segments instead of exact search in many
    small ones.
    """
    with _opened(url, prefix) as store:
        store.init_indexes()
        report = store.admin.optimize("chunks", max_segments)
    if as_json:
        print_json({"chunks": report})
    else:
        sys.stdout.write(
            f"chunks: {report['segments_before']} -> {report['segments_after']} segments\n"
        )
    return 0


@app.command("status")
def index_status(url: Url = None, prefix: Prefix = None, as_json: Json = False) -> int:
    """Readiness, the index behind each alias, the embedding model (exit 5: unreachable)."""
    from ingest.errors import EXIT_CODES, UnavailableError

    with _opened(url, prefix) as store:
        payload: dict[str, Any] = {"ready": store.ping()}
        if not payload["ready"]:
            # Unreachable or red: say so in one line, with the exit code of an outage.
            payload["error"] = f"Elasticsearch at {store.url} is not reachable or not healthy"
            if as_json:
                print_json(payload)
            else:
                sys.stdout.write(f"ready: False\nerror: {payload['error']}\n")
            return EXIT_CODES[UnavailableError]
        payload["indexes"] = store.current_indices()
        if all(payload["indexes"].values()):
            payload["embedding"] = store.embedding_model()
    if as_json:
        print_json(payload)
    else:
        sys.stdout.write(f"ready: {payload['ready']}\n")
        for kind, name in payload["indexes"].items():
            sys.stdout.write(f"{kind}: {name or '(missing: run attest es init)'}\n")
        if payload.get("embedding"):
            sys.stdout.write(f"embedding: {payload['embedding']}\n")
    return 0
