"""`matanui analyse RECORD`: a finished game judged decision by decision (matanui.ai.analysis),
printed as each decision is judged, then summed up per player, with a chart of each player's
chance over the game saved as a PNG."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from matanui.ai.analysis import MARKS, Judged, percent, turning_points
from matanui.games.text import literal

MARK_STYLE = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}
MARK_SYMBOL = {"blunder": "??", "mistake": "?", "inaccuracy": "?!"}
PLURAL = {"blunder": "Blunders", "mistake": "Mistakes", "inaccuracy": "Inaccuracies"}
MARK_COLOUR = {"blunder": "#c0392b", "mistake": "#e67e22", "inaccuracy": "#f1c40f"}


def decision_line(decision: Judged, names: Sequence[str]) -> str:
    """One judged decision as a line of the terminal's report (Rich markup)."""
    who = literal(names[decision.seat])
    change = f"{percent(decision.before)} -> {percent(decision.after)}"
    line = f"{decision.number:>4}  {who}: {literal(decision.words)}  [dim]{change}[/]"
    if decision.mark is not None:
        style = MARK_STYLE[decision.mark]
        line += (f"  [{style}]{MARK_SYMBOL[decision.mark]} {decision.mark}[/]"
                 f" [dim](best: {literal(decision.best_words)})[/]")
    return line


def summary(judged: Sequence[Judged], names: Sequence[str]) -> Table:
    """Per player: decisions judged, marks, and the mean chance lost a decision."""
    table = Table(title="Decisions judged from each player's own view")
    table.add_column("Player")
    table.add_column("Decisions", justify="right")
    for name, _ in MARKS[::-1]:
        table.add_column(PLURAL[name], justify="right")
    table.add_column("Chance lost a move", justify="right")
    for seat, name in enumerate(names):
        own = [decision for decision in judged if decision.seat == seat and not decision.forced]
        marks = Counter(decision.mark for decision in own)
        mean = sum(decision.lost for decision in own) / len(own) if own else 0.0
        table.add_row(literal(name), str(len(own)), *(str(marks[mark]) for mark, _ in MARKS[::-1]),
                      f"{mean * 100:.1f} points")
    return table


def print_turning_points(console: Console, judged: list[Judged], names: Sequence[str]) -> None:
    points = turning_points(judged)
    if not points:
        return
    console.print("[bold]Turning points[/] (where a player's chance moved most since their move before):")
    for decision in points:
        console.print(f"  action {decision.number}: {literal(names[decision.seat])}, now "
                      f"{percent(decision.before)}", highlight=False)


def plot(judged: Sequence[Judged], names: Sequence[str], path: Path, title: str) -> Path:
    """Each player's chance before each of their decisions, with the marked moves."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(9, 4))
    for seat, name in enumerate(names):
        own = [decision for decision in judged if decision.seat == seat]
        if own:
            axes.step([d.number for d in own], [d.before * 100 for d in own], where="post", label=name)
    for mark, _ in MARKS:
        marked = [decision for decision in judged if decision.mark == mark]
        if marked:
            axes.scatter([d.number for d in marked], [d.before * 100 for d in marked], s=36,
                         color=MARK_COLOUR[mark], edgecolors="black", zorder=3, label=mark)
    axes.axhline(50, color="grey", linewidth=0.5)
    axes.set_ylim(0, 100)
    axes.set_xlabel("action")
    axes.set_ylabel("chance of winning (%), from the player's own view")
    axes.set_title(title)
    axes.legend(fontsize=8, loc="best")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
