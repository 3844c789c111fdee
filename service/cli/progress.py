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
class Tracker:
    """One task of a live progress display: ``step`` moves it; a disabled tracker does nothing."""

    progress: Progress
    task: int

    def step(self, done: int, total: int, label: str = "") -> None:
        self.progress.update(self.task, completed=done, total=total, **({"description": label} if label else {}))


def stderr_console() -> Console:
    return Console(stderr=True, highlight=False)


@contextmanager
def progress_on_stderr(description: str, total: int | None = None) -> Iterator[Tracker]:
    """A transient progress bar on stderr while the block runs (nothing when stderr is not a
    terminal). When stdout is a terminal too, both share one screen: rich then routes stdout
    lines through the display, above the bar, so they do not tear it; when stdout is a pipe or
    a file it is left alone."""
    console = stderr_console()
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
        redirect_stdout=sys.stdout.isatty(),
        redirect_stderr=False,
    )
    with progress:
        yield Tracker(progress, progress.add_task(description, total=total))


def write_summary(counts: dict[str, int]) -> None:
    """The last line of a long command, on stderr: ``3 indexed, 1 unchanged, 0 failed``."""
    sys.stderr.write(", ".join(f"{n} {what}" for what, n in counts.items()) + "\n")
