"""The ``attest`` command tree, registered here and nowhere else.

Each command group lives in its own module of this package; this module imports them all and
adds them in the order ``attest --help`` lists them. Command modules import their heavy
dependencies (models, stores, the API) inside the command, so ``--help`` stays fast and a broken
import fails the command that needs it, loudly.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

import typer

from service.cli import ask, audit, documents, es, ingest, mcp, registry, search, serve, sweep, table, worker
from service.cli.errors import report_error
from service.cli.exit_codes import exit_codes_epilog

HELP = (
    "Attest: evidence-first search over your documents. Every answer cites the document, "
    "revision, lines and characters it comes from."
)

app = typer.Typer(
    name="attest",
    help=HELP,
    epilog=exit_codes_epilog(),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

app.command("ingest")(ingest.ingest)
app.command("search")(search.search_command)
app.command("status")(documents.document_status)
app.command("delete")(documents.delete)
app.command("entities")(registry.entities)
app.command("ask")(ask.ask)
app.command("table")(table.table)
app.add_typer(sweep.app, name="sweep")
app.add_typer(audit.app, name="audit")
app.add_typer(es.app, name="es")
app.command("mcp")(mcp.mcp)
app.command("serve")(serve.serve)
app.command("worker")(worker.worker)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one ``attest`` command; return its exit code (see ``exit_codes.py``)."""
    command = typer.main.get_command(app)
    try:
        _configure_logging()
        result = command.main(
            args=list(sys.argv[1:] if argv is None else argv), prog_name="attest", standalone_mode=False
        )
    except typer.TyperException as exc:  # usage errors: the usage line and one error line, exit 2
        show = getattr(exc, "show", None)
        if show is not None:
            show()
        else:
            sys.stderr.write(f"error: {exc.format_message()}\n")
        return exc.exit_code
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        sys.stderr.write("Aborted!\n")
        return 130
    except Exception as exc:  # noqa: BLE001 - a CLI user gets one line, not a traceback
        return report_error(exc)
    return int(result or 0)


def _configure_logging() -> None:
    from ingest.settings import get_settings
    from service.logs import configure_logging

    # Commands print their own results; log lines are for operators who ask for them.
    level = get_settings().log_level if "ATTEST_LOG_LEVEL" in os.environ else "WARNING"
    configure_logging(level, stream=sys.stderr)
