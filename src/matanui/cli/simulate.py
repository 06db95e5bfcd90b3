"""`matanui simulate` and `matanui report`: batch self-play and its balance report."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.table import Table

from matanui.ai.settings import split_agents
from matanui.cli.numbers import integer
from matanui.cli.shared import DATA_HELP, OPTIONS_HELP, console, fail
from matanui.engine import MatanuiError
from matanui.games.text import literal


def simulate(
    game: str = typer.Argument(..., help="Which game."),
    games_count: int = typer.Option(1000, "--games", parser=integer,
                                    help="Number of games in all (a resumed run "
                                    "plays only the ones the results file lacks)."),
    agents: str = typer.Option("heuristic", "--agents", help="One agent for every seat, or one per "
                               "seat, comma-separated: random, heuristic, hard@SECONDS, ismcts@N."),
    players: int | None = typer.Option(None, "--players", parser=integer, help="Number of players."),
    workers: int = typer.Option(1, "--workers", parser=integer,
                                help="Processes (or Ray CPUs) to play on."),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray."),
    address: str | None = typer.Option(None, "--address", help="Ray cluster to join: its head's "
                                       "HOST:PORT, with its token in RAY_AUTH_TOKEN (default: start a "
                                       "local one)."),
    seed: int = typer.Option(0, "--seed", parser=integer, help="Seed of game 0; game i uses seed + i."),
    option: list[str] = typer.Option([], "-o", "--option", help=OPTIONS_HELP),
    out: Path | None = typer.Option(None, "--out", help="Results file (SQLite; default "
                                    "GAME-results.sqlite)."),
    chunk: int = typer.Option(200, "--chunk", parser=integer,
                              help="Games per commit to the results file (and per "
                              "task with --backend ray); a process pool hands out smaller pieces, "
                              "so that progress moves."),
    data: Path | None = typer.Option(None, "--data", help=DATA_HELP + " The results file keeps "
                                     "the pack's name and hash; resuming on other data is refused."),
) -> None:
    """Batch self-play over every character pairing and seat order, resumable, for `report`."""
    from matanui.arena.backends import LocalBackend, RayBackend
    from matanui.arena.batch import simulate as run_simulation
    from matanui.arena.match import game_on
    from matanui.arena.simulate import Job
    from matanui.progress import progress

    path = out or Path(f"{game}-results.sqlite")
    try:
        if backend not in ("local", "ray"):
            raise MatanuiError(f"--backend must be local or ray, not {backend!r}")
        if address and backend != "ray":
            raise MatanuiError("--address is for --backend ray")
        pack = None if data is None else str(data.resolve())
        job = Job.build(game, split_agents(agents), games_count, seed, players,
                        game_on(game, pack).parse_options(option), pack)
        runner = RayBackend(address, workers) if backend == "ray" else LocalBackend(workers)
    except MatanuiError as error:
        fail(error)
    try:
        with progress(f"{game} self-play", job.games, source=path) as bar:
            played = run_simulation(job, str(path), runner, chunk, lambda done, _: bar.reach(done),
                                    bar.resume)
    except MatanuiError as error:
        fail(error)
    except KeyboardInterrupt:
        console.print(f"Interrupted. Finished games are kept in {path}; run the same command "
                      "again to resume.")
        raise typer.Exit(130) from None
    console.print(f"Played {played} games; {path} holds the results. Next: matanui report {path}")


def report(
    results: Path = typer.Argument(..., help="A results file from `matanui simulate`."),
    out: Path | None = typer.Option(None, "--out", help="Folder for report.html and report.json "
                                    "(default: next to the results, RESULTS-report)."),
) -> None:
    """Balance report of a simulation: HTML with plots, and the same figures as JSON."""
    from matanui.arena.htmlreport import headline, write_report

    folder = out or results.with_name(results.stem + "-report")
    try:
        paths = write_report(results, folder)
    except MatanuiError as error:
        fail(error)
    from matanui.arena.simulate import data_words

    data = json.loads(paths[0].read_text(encoding="utf-8"))
    console.print(f"Played on {literal(data_words(data['job']))}.")
    table = Table(show_header=False, title=f"{literal(data['title'])}: balance report "
                  "(95% Wilson intervals)")
    for what, value in headline(data):
        table.add_row(what, literal(value))
    console.print(table)
    console.print("Wrote " + ", ".join(str(p) for p in paths))
