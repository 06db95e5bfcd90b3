"""The `matanui` command: every interface of the project behind one entry point. This module
makes the Typer app and registers each command, in the order `matanui --help` lists them; each
command lives in the module of its group (play.py, arena.py, ...), what they share in shared.py."""

from __future__ import annotations

import typer

from matanui import __version__
from matanui.cli import analyse, arena, bench, data, info, play, replay, serve, simulate, train, tune
from matanui.cli.shared import console

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="matanui: play and study three BIONICLE tabletop games of 2001-2002.",
)


def print_version(value: bool) -> None:
    """Eager: runs while the command line is read, so `matanui --version` needs no command."""
    if value:
        console.print(f"matanui {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: bool = typer.Option(False, "--version", callback=print_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """matanui: play and study three BIONICLE tabletop games of 2001-2002."""


app.command("games")(info.list_games)
app.command()(info.rules)
app.command()(play.play)
app.command()(play.tutorial)
app.command("replay")(replay.replay_command)
app.command("analyse")(analyse.analyse_command)
app.command()(bench.bench)
app.command()(arena.arena)
app.command()(tune.tune)
app.command()(simulate.simulate)
app.command()(simulate.report)
app.command()(train.train)
app.command()(serve.serve)
app.add_typer(data.data_app, name="data")


def main() -> None:
    app()
