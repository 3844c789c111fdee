"""The ONE place where errors become CLI exit codes (the table is ``exit_codes.py``): one line
on stderr, the exit code of the error's family, the traceback in the log at debug level."""

from __future__ import annotations

import sys

import structlog

from ingest.errors import AttestError, exit_code_for

log = structlog.get_logger(__name__)


def report_error(exc: BaseException) -> int:
    if isinstance(exc, AttestError):
        sys.stderr.write(f"error: {exc.message or type(exc).__name__}\n")
        log.debug("cli_error", error_type=type(exc).__name__, exc_info=exc)
    else:
        sys.stderr.write(
            f"error: internal error ({type(exc).__name__}: {exc}); "
            "set ATTEST_LOG_LEVEL=DEBUG for the traceback\n"
        )
        log.debug("cli_crash", error_type=type(exc).__name__, exc_info=exc)
    return exit_code_for(exc)
