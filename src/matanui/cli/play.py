"""`matanui play` and `matanui tutorial`: a game or a lesson, full screen or line by line."""

from __future__ import annotations

import random
from pathlib import Path

import typer

from matanui.ai import levels
from matanui.cli.numbers import integer
from matanui.cli.shared import (
    DATA_HELP,
    OPTIONS_HELP,
    PLAIN_HELP,
    console,
    fail,
    full_screen,
    read_bad_bytes_as_text,
    say_after,
)
from matanui.engine import MatanuiError
from matanui.games.text import literal


def play(
    game: str | None = typer.Argument(None, help="Which game (see `matanui games`; default "
                                      "reconstruct)."),
    as_: str | None = typer.Option(None, "--as", help="Your character, e.g. tahu."),
    vs: str | None = typer.Option(None, "--vs", help="Bot level(s) for the other seats, "
                                  "comma-separated for several seats (default medium): "
                                  + levels.help_text()),
    opponent: list[str] = typer.Option([], "--opponent", help="Character for the next seat (repeatable)."),
    players: int | None = typer.Option(None, "--players", parser=integer, help="Number of players."),
    seed: int | None = typer.Option(None, "--seed", parser=integer,
                                    help="Seed: the same seed and moves give the "
                                    "same game (default: a fresh one, printed)."),
    hotseat: bool = typer.Option(False, "--hotseat", help="All seats are people at this terminal."),
    option: list[str] = typer.Option([], "-o", "--option", help=OPTIONS_HELP),
    save: Path | None = typer.Option(None, "--save", help="Where to save the game record."),
    resume: Path | None = typer.Option(None, "--resume", help="Continue a saved game, seated as "
                                       "it was saved (--hotseat or --vs change the seating)."),
    data: Path | None = typer.Option(None, "--data", help=DATA_HELP),
    plain: bool = typer.Option(False, "--plain", help=PLAIN_HELP),
) -> None:
    """Play a game in the terminal against bots, or hot-seat. The game is saved after every move."""
    from matanui.terminal.session import build_session

    read_bad_bytes_as_text()

    drawn = seed is None and resume is None
    if drawn:
        seed = random.SystemRandom().randrange(1_000_000)
    try:
        session = build_session(
            game_name=game, me=as_, vs=vs, opponents=opponent, seed=seed, players=players,
            hotseat=hotseat, options=option, save=save, resume=resume,
            console=console, ask=lambda prompt: console.input(f"[bold]{prompt}[/] "), data=data,
        )
    except MatanuiError as error:
        fail(error)
    if drawn:  # only once the game can be played: a refusal is its one line
        console.print(f"Seed {seed} (replay this deal with --seed {seed}).")
    if session.state.game.data:
        console.print(f'Playing on data pack "{literal(session.state.game.data["name"])}".')
    if full_screen(plain):
        from matanui.tui.play import PlayApp

        say_after(PlayApp(session).run())
    else:
        session.run()


def tutorial(
    game: str = typer.Argument(..., help="Which game (see `matanui games`)."),
    number: int | None = typer.Argument(None, parser=integer,
                                        help="Which of its tutorials (default: the first; "
                                        "with --check, all)."),
    check: bool = typer.Option(False, "--check", help="Walk the tutorial(s) through the engine "
                               "without stopping; exit 1 if a step or outcome no longer matches."),
    plain: bool = typer.Option(False, "--plain", help=PLAIN_HELP),
) -> None:
    """Learn a game from the rulebook's own examples, move by move."""
    from matanui.games.tutorial import tutorial as one_tutorial
    from matanui.games.tutorial import tutorials
    from matanui.terminal import tutorial as terminal_tutorial

    read_bad_bytes_as_text()
    try:
        lessons = tutorials(game) if check and number is None else [one_tutorial(game, number or 1)]
    except MatanuiError as error:
        fail(error)
    if check:
        raise typer.Exit(0 if terminal_tutorial.check_all(lessons, console) else 1)
    others = [f"{t.number}. {t.title}" for t in tutorials(game) if t.number != lessons[0].number]
    if others:
        console.print(f"[dim]Also: {literal('; '.join(others))} (matanui tutorial {game} N)[/]")
    if full_screen(plain):
        from matanui.tui.lesson import PLAY_ON, LessonApp

        said = LessonApp(lessons[0]).run()
        if said != PLAY_ON:
            say_after(said)
            return
        from matanui.terminal.session import play_on_session
        from matanui.tui.play import PlayApp

        session = play_on_session(lessons[0], "medium", console,
                                  lambda prompt: console.input(f"[bold]{prompt}[/] "))
        say_after(PlayApp(session).run())
        return
    terminal_tutorial.run(lessons[0], console, lambda prompt: console.input(f"[bold]{prompt}[/] "))
