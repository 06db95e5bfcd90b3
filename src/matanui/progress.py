"""The progress of long commands (`simulate`, `arena`, `tune`, `bench`), drawn one way.

One Rich bar on stderr moves as each unit of work finishes (a game, an iteration, a
measurement), with the time spent and the time left at this run's own pace; a resumed run
first says how much it took from its journal. The bar is drawn only when stderr is a
terminal, so piped output and logs hold the results alone, and it never touches what the
work computes: the numbers are the same with it drawn or not.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text


def stderr_console() -> Console:
    """Where bars are drawn (tests put a terminal of their own here)."""
    return Console(stderr=True, highlight=False)


class TimeLeft(ProgressColumn):
    """The time left at the average pace of the units finished in this run. Rich's own
    estimate looks at the last 30 seconds only, which hold no finished game when one game
    takes longer, and it would count a resumed run's journal as instant work."""

    def render(self, task: Task) -> Text:
        played = task.completed - task.fields.get("resumed", 0)
        if task.total is None or task.elapsed is None or played <= 0:
            return Text("-:--:-- left", style="progress.remaining")
        seconds = (task.total - task.completed) * task.elapsed / played
        return Text(f"{timedelta(seconds=round(seconds))} left", style="progress.remaining")


class Bar:
    """A running bar: what the command tells it as its work goes. It is drawn from the first
    thing it is told, so that a resumed run's line comes before it."""

    def __init__(self, progress: Progress, task: TaskID, unit: str, source: str | Path | None) -> None:
        self.progress, self.task, self.unit, self.source = progress, task, unit, source

    @property
    def drawn(self) -> bool:
        """Whether the bar is on a terminal (otherwise it only counts)."""
        return not self.progress.disable

    @property
    def completed(self) -> int:
        return int(self.progress.tasks[self.task].completed)

    def resume(self, done: int) -> None:
        """Start from `done` units found already finished, and say so when there are any."""
        total = int(self.progress.tasks[self.task].total or 0)
        self.progress.update(self.task, completed=done, resumed=done)
        if done:
            where = f" from {self.source}" if self.source is not None else ""
            self.progress.console.print(f"Resumed {done} of {total} {self.unit}{where}; "
                                        f"playing the other {total - done}.", markup=False,
                                        highlight=False, soft_wrap=True)
        self._show()

    def advance(self, count: int = 1) -> None:
        self.progress.advance(self.task, count)
        self._show()

    def reach(self, completed: int) -> None:
        self.progress.update(self.task, completed=completed)
        self._show()

    def describe(self, words: str) -> None:
        """Change the words before the bar (where the work stands: an SPRT's LLR)."""
        self.progress.update(self.task, description=words)
        self._show()

    def log(self, line: str, otherwise: Console | None = None) -> None:
        """A line (plain text, no markup) above the bar while it is drawn; else on `otherwise`
        (None: nowhere)."""
        if self.drawn:
            self.progress.console.print(line, markup=False, highlight=False, soft_wrap=True)
        elif otherwise is not None:
            otherwise.print(line, markup=False)

    def _show(self) -> None:
        if self.drawn and not self.progress.live.is_started:
            self.progress.start()


@contextmanager
def progress(description: str, total: int, unit: str = "games", source: str | Path | None = None,
             console: Console | None = None) -> Iterator[Bar]:
    """A bar of `total` units named `unit`; `source` is where a resumed run's finished units
    are kept (a journal, a results file), named when it resumes."""
    console = console or stderr_console()
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn(unit), TimeElapsedColumn(), TimeLeft())
    shown = Progress(*columns, console=console, disable=not console.is_terminal,
                     redirect_stdout=False, redirect_stderr=False)
    try:
        yield Bar(shown, shown.add_task(description, total=total, resumed=0), unit, source)
    finally:
        shown.stop()
