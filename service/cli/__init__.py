"""The ``attest`` command line: one module per command group, registered in ``app.py``
(``service.cli.app.app`` is the typer application)."""

from service.cli.app import main
from service.cli.errors import report_error

__all__ = ["main", "report_error"]
