"""The per-request deadline: defined in :mod:`ingest.deadline` (the store checks it too, and
``ingest/`` may not import ``service/``); re-exported here for the service side."""

from ingest.deadline import (
    DeadlineExceeded,
    check_deadline,
    clear_deadline,
    deadline_message,
    deadline_passed,
    set_deadline,
)

__all__ = [
    "DeadlineExceeded",
    "check_deadline",
    "clear_deadline",
    "deadline_message",
    "deadline_passed",
    "set_deadline",
]
