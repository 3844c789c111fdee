"""Progress for long commands (ingest, sweeps, tables), drawn with rich on STDERR.

Results go to stdout (a ``--json`` document, one line per document, a CSV); progress is for the
person watching, so it is drawn on stderr, and only when stderr is a terminal. The check and the
drawing look at the same stream, so ``attest ingest ... --json > out.json`` in a terminal shows a
bar and still writes clean JSON.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


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
        redirect_stderr=False,
    )
    with progress:
        yield ProgressTracker(progress, progress.add_task(description, total=total))


def write_summary(counts: dict[str, int]) -> None:
    """The last line of a long command, on stderr: ``3 indexed, 1 unchanged, 0 failed``."""
    sys.stderr.write(", ".join(f"{n} {what}" for what, n in counts.items()) + "\n")
