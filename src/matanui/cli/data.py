"""`matanui data export|check|diff`: the commands of data packs (matanui/games/packs.py)."""

from __future__ import annotations

from pathlib import Path

import typer

from matanui.cli.numbers import integer
from matanui.cli.shared import console, fail
from matanui.engine import MatanuiError
from matanui.games import packs
from matanui.games.text import literal

data_app = typer.Typer(no_args_is_help=True, help="Data packs: play with your own cards, mats "
                       "and boards (docs/data.md).")


@data_app.command("export")
def export_command(
    game: str = typer.Argument(..., help="Which game (see `matanui games`)."),
    folder: Path = typer.Argument(..., help="A new or empty folder for the pack."),
    name: str | None = typer.Option(None, "--name", help="The pack's name (default my-GAME)."),
) -> None:
    """Write the game's complete current data as an editable pack."""
    try:
        written = packs.export(game, folder, name)
    except MatanuiError as error:
        fail(error)
    for path in written:
        console.print(f"wrote {literal(str(path))}")
    console.print(f"Edit what your own cards show, mark those entries provenance = \"owner\" "
                  f"with a why, delete the entries you keep as they are, then run "
                  f"`matanui data check {literal(str(folder))}`.")


@data_app.command("check")
def check_command(folder: Path = typer.Argument(..., help="The pack's folder.")) -> None:
    """Validate a pack: every problem, with file, entry and field; exit 1 if there is any."""
    found = packs.problems(folder)
    for problem in found:
        console.print(f"[red]problem:[/] {literal(problem)}")
    if found:
        console.print(f"{len(found)} problem(s); the pack cannot be used until they are fixed.")
        raise typer.Exit(1)
    pack = packs.read(folder)
    console.print(f"{literal(str(folder))}: data pack \"{literal(pack.name)}\" for {pack.game} is "
                  f"good (hash {pack.hash}); use it with --data {literal(str(folder))}")


@data_app.command("diff")
def diff_command(folder: Path = typer.Argument(..., help="The pack's folder.")) -> None:
    """What the pack changes against the built-in data, entry by entry and field by field."""
    try:
        lines = packs.diff(folder)
    except MatanuiError as error:
        fail(error)
    for line in lines:
        console.print(literal(line))
    if not lines:
        console.print("The pack changes nothing: it is the built-in data.")


@data_app.command("balance")
def balance_command(
    folder: Path = typer.Argument(..., help="The pack's folder."),
    games_count: int = typer.Option(400, "--games", parser=integer, help="Games on each data."),
    agents: str = typer.Option("heuristic", "--agents", help="Agents, as for `matanui simulate`."),
    workers: int = typer.Option(1, "--workers", parser=integer, help="Processes to play on."),
    seed: int = typer.Option(0, "--seed", parser=integer,
                             help="Seed of game 0 (the same on both data)."),
    out: Path | None = typer.Option(None, "--out", help="Folder for the two results files "
                                    "(default: DIR-balance next to the pack); a rerun resumes."),
) -> None:
    """The pack's balance beside the built-in data's: the same self-play on both."""
    from rich.table import Table

    from matanui.arena.compare import run_both, side_by_side

    try:
        analyses = run_both(folder, games_count, agents, workers, seed,
                            out or folder.with_name(folder.name + "-balance"),
                            lambda label, done, total: done == total and console.print(
                                f"{label} data: {total} games played"))
    except MatanuiError as error:
        fail(error)
    pack = packs.read(folder)
    table = Table("", "built-in data", f"pack \"{literal(pack.name)}\"",
                  title=f"{pack.game}, {agents} self-play (95% intervals)")
    for row in side_by_side(analyses):
        table.add_row(*map(literal, row))
    console.print(table)
