"""The ``attest`` command line: one module per command group, registered in ``app.py``."""

from service.cli.app import app, main
from service.cli.errors import report_error

__all__ = ["app", "main", "report_error"]
