"""The API fixtures (real app, real SQLite store, real embedder) shared with tests/api."""

from tests.api.conftest import app_factory, client  # noqa: F401 - pytest fixtures
