"""`matanui bench`: random-playout speed of the engines (matanui.studies.bench)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from matanui import games
from matanui.cli.numbers import integer
from matanui.cli.shared import DATA_HELP, console, fail
from matanui.engine import MatanuiError


def bench(
    game: list[str] = typer.Argument(None, help="Games to measure (default: all)."),
    seconds: float = typer.Option(3.0, "--seconds", help="Time per game."),
    players: int | None = typer.Option(None, "--players", parser=integer,
                                       help="Number of players (default: each "
                                       "game at its fewest and its most)."),
    profile: bool = typer.Option(False, "--profile", help="Profile with pyinstrument."),
    data: Path | None = typer.Option(None, "--data", help=DATA_HELP + " Measures the pack's game."),
    batch: int | None = typer.Option(None, "--batch", parser=integer, min=1,
                                     help="Also the batched engine with this many games at once (on all "
                                     "cores), beside the reference (python) and OpenSpiel's C++ "
                                     "leduc_poker."),
) -> None:
    """Random-playout speed: steps/s and games/s on one core (--batch: batched, all cores)."""
    from matanui.games.packs import read
    from matanui.progress import progress
    from matanui.studies.bench import (
        configurations,
        machine_summary,
        run_batched,
        run_openspiel,
        run_playouts,
    )

    try:
        names = game or ([read(data).game] if data else games.names())
    except MatanuiError as error:
        fail(error)
    for name in names:
        if name not in games.names():
            fail(MatanuiError(games.unknown(name)))
    runs = [(name, count, None) for name, count in configurations(players) if name in names]
    if not runs:
        fail(MatanuiError(f"none of {', '.join(names)} is played by {players} players"))
    if batch is not None:
        from matanui.batch import batched_names

        if batch < 1:
            fail(MatanuiError(f"--batch is how many games are stepped at once: 1 or more, not {batch}"))
        if data is not None:
            fail(MatanuiError("--batch measures the built-in games; a data pack has no batched engine"))
        batched = batched_names()
        runs = [run for name, count, _ in runs for run in
                [(name, count, None)] + ([(name, count, batch)] if name in batched and count == 2 else [])]
        runs.append(("leduc_poker", 2, 0))  # OpenSpiel's C++ game: the yardstick
    console.print(machine_summary())
    table = Table("game", "players", "engine", "games", "steps", "seconds", "steps/s", "games/s")
    profiler = None
    if profile:
        try:
            from pyinstrument import Profiler
        except ImportError:
            fail(MatanuiError("--profile needs pyinstrument (pip install 'matanui[dev]')"))
        profiler = Profiler()
        profiler.start()
    try:
        with progress("bench", len(runs), unit="measurements") as bar:
            for name, count, games_at_once in runs:
                engine = ("python" if games_at_once is None else "C++"
                          if games_at_once == 0 else f"batched x{games_at_once}")
                label = f"{name}, {count} players" + ("" if batch is None else f", {engine}")
                bar.describe(f"bench: {label}")
                if games_at_once is None:
                    result = run_playouts(name, seconds=seconds, players=count, data=data)
                elif games_at_once == 0:
                    result = run_openspiel(name, seconds=seconds)
                else:
                    result = run_batched(name, games_at_once, seconds=seconds)
                row = (name, str(result.players), engine, str(result.games), str(result.steps),
                       f"{result.seconds:.2f}", f"{result.steps_per_second:,.0f}",
                       f"{result.games_per_second:,.1f}")
                table.add_row(*row)
                bar.log(f"{label}: {row[6]} steps/s, {row[7]} games/s "
                        f"({row[3]} games in {row[5]} s)")
                bar.advance()
    except MatanuiError as error:
        fail(error)
    if profiler is not None:
        profiler.stop()
        console.print(profiler.output_text(unicode=True, color=False))
    console.print(table)
