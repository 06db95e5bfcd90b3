"""`matanui analyse`: judge every decision of a saved game (the figures: analysis_report.py)."""

from __future__ import annotations

from pathlib import Path

import typer

from matanui.ai.analysis import ANALYSIS_ITERATIONS
from matanui.cli.numbers import integer
from matanui.cli.shared import console, fail
from matanui.engine import MatanuiError, Record, replay
from matanui.games.text import literal


def analyse_command(
    path: Path = typer.Argument(..., help="A saved game record (JSON)."),
    png: Path | None = typer.Option(None, "--png", help="Where to save the chart of each player's "
                                    "chance (default: beside the record, .analysis.png)."),
    iterations: int = typer.Option(ANALYSIS_ITERATIONS, "--iterations", min=10, max=100_000,
                                   help="Search iterations behind each estimate."),
    seed: int = typer.Option(0, "--seed", parser=integer, help="The searches' seed: the same record "
                             "and seed give the same analysis."),
    data: Path | None = typer.Option(None, "--data", help="The data pack the game was played "
                                     "with, when it was (the record names it)."),
) -> None:
    """Judge every decision of a game from the deciding player's own view: each player's chance
    of winning before and after, the best move found, and inaccuracies, mistakes and blunders
    (chance lost: 10, 20 and 30 points); a table, then a chart as a PNG."""
    from matanui.ai.analysis import analyse
    from matanui.cli.analysis_report import decision_line, plot, print_turning_points, summary
    from matanui.games.packs import game_for

    try:
        record = Record.load(path)
        game = game_for(record.game, data)
        names = replay(record, 0, game=game).names
    except MatanuiError as error:
        fail(error)
    judged = []
    for decision in analyse(record, game, seed, iterations):
        judged.append(decision)
        console.print(decision_line(decision, names), highlight=False)
    if not judged:
        fail(MatanuiError(f"{path}: the record holds no decision to judge"))
    console.print(summary(judged, names))
    print_turning_points(console, judged, names)
    chart = png or path.with_suffix(".analysis.png")
    plot(judged, names, chart, f"{game.title}: each player's chance of winning")
    console.print(f"Chart: {literal(str(chart))}")
