"""Progress for long commands (ingest, sweeps, tables), drawn with rich on STDERR.

Results go to stdout (a ``--json`` document, one line per document, a CSV); progress is for the
person watching, so it is drawn on stderr, and only when stderr is a terminal. The check and the
drawing look at the same stream, so ``attest ingest ... --json > out.json`` in a terminal shows a
bar and still writes clean JSON.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text


@dataclass(slots=True)
class ProgressTracker:
    """One task of a live progress display: ``step`` moves it; a disabled tracker does nothing."""

    progress: Progress
    task: int

    def step(self, done: int, total: int, label: str = "") -> None:
        self.progress.update(self.task, completed=done, total=total, **({"description": label} if label else {}))

    def emit(self, line: str) -> None:
        """Write one result line to stdout. When stdout is the terminal the bar is drawn on, the
        line goes through the display (above the bar, unwrapped) so the bar is not torn."""
        if self.progress.live.is_started and sys.stdout.isatty():
            self.progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        else:
            sys.stdout.write(line + "\n")


class _LinesAboveTheBar(io.TextIOBase):
    """``sys.stderr`` while a bar is live: each complete line is printed through the display,
    above the bar and unwrapped (a log line stays one JSON document when copied)."""

    def __init__(self, console: Console, stream: TextIO) -> None:
        self._console = console
        self._stream = stream
        self._pending = ""

    @property
    def rich_proxied_file(self) -> TextIO:
        """Rich writes the bar itself to the real stream, never back into this proxy."""
        return self._stream

    def write(self, text: str) -> int:
        *lines, self._pending = (self._pending + text).split("\n")
        for line in lines:
            self._console.print(Text(line), soft_wrap=True)
        return len(text)

    def flush(self) -> None:
        if self._pending:
            self._console.print(Text(self._pending), soft_wrap=True)
            self._pending = ""

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()


def short(name: str, width: int = 40) -> str:
    """A file name for a progress label: long names keep their start and end."""
    return name if len(name) <= width else f"{name[: width // 2 - 1]}…{name[-(width // 2):]}"


def stderr_console() -> Console:
    return Console(stderr=True, highlight=False)


@contextmanager
def progress_on_stderr(description: str, total: int | None = None) -> Iterator[ProgressTracker]:
    """A transient progress bar on stderr while the block runs (nothing when stderr is not a
    terminal). Lines written during the block go through :meth:`ProgressTracker.emit`."""
    console = stderr_console()
    progress = Progress(
        TextColumn("{task.description}", markup=False),  # file names are not rich markup
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
        redirect_stdout=False,  # stdout carries results: never routed into the stderr display
        redirect_stderr=False,  # see _LinesAboveTheBar: rich's proxy would hard-wrap log lines
    )
    with progress:
        tracker = ProgressTracker(progress, progress.add_task(description, total=total))
        if not progress.live.is_started or not console.is_terminal:
            yield tracker
            return
        # Log lines (structlog writes to whatever sys.stderr is at the call) go above the bar
        # instead of tearing it.
        real_stderr = sys.stderr
        sys.stderr = _LinesAboveTheBar(console, real_stderr)
        try:
            yield tracker
        finally:
            sys.stderr.flush()
            sys.stderr = real_stderr


def write_summary(counts: dict[str, int]) -> None:
    """The last line of a long command, on stderr: ``3 indexed, 1 unchanged, 0 failed``."""
    sys.stderr.write(", ".join(f"{n} {what}" for what, n in counts.items()) + "\n")
