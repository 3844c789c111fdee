"""Scheduled compliance sweeps: named query sets run as one principal, compared with a
baseline, reported as JSON and HTML (see docs/ARCHITECTURE.md, "Compliance sweeps")."""

EXIT_CLEAN = 0
"""The run has no findings."""
EXIT_ERROR = 2
"""The sweep could not run: invalid definition, unreadable file, store unreachable, any error."""
EXIT_FINDINGS = 3
"""The run completed and has at least one finding."""

__all__ = ["EXIT_CLEAN", "EXIT_ERROR", "EXIT_FINDINGS"]
