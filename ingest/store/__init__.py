"""The store port and its adapters: embedded SQLite (default) and Elasticsearch."""

from __future__ import annotations

from ingest.settings import Settings
from ingest.store.port import Store


def open_store(settings: Settings) -> Store:
    """Elasticsearch when ``ATTEST_ELASTICSEARCH_URL`` is set, otherwise the embedded SQLite file."""
    if settings.elasticsearch_url:
        from ingest.store.elastic import ElasticStore

        return ElasticStore(
            settings.elasticsearch_url,
            prefix=settings.elasticsearch_prefix,
            shards=settings.elasticsearch_shards,
        )
    from ingest.store.sqlite import SqliteStore

    return SqliteStore(settings.data_dir / "attest.sqlite3")
