"""The HTTP API: ``create_app(settings, store=None, embedder=None)``."""

from service.api.app import create_app

__all__ = ["create_app"]
