"""`matanui replay`: step through a saved game, forwards and back."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from matanui import games
from matanui.cli.numbers import integer
from matanui.cli.shared import PLAIN_HELP, console, fail, full_screen, say_after
from matanui.engine import MatanuiError, Record, replay
from matanui.games.text import literal

if TYPE_CHECKING:
    from matanui.terminal.boards import BoardPrinter


def replay_command(
    path: Path = typer.Argument(..., help="A saved game record (JSON)."),
    seat: int | None = typer.Option(None, "--seat", parser=integer,
                                    help="Watch as this player (1 for Player 1, "
                                       "...); default: the public view."),
    all_: bool = typer.Option(False, "--all", help="Print the whole game without stopping."),
    data: Path | None = typer.Option(None, "--data", help="The data pack the game was played "
                                     "with, when it was (the record names it)."),
    plain: bool = typer.Option(False, "--plain", help=PLAIN_HELP),
) -> None:
    """Step through a saved game, forwards and back, with what each action did."""
    from matanui.games.packs import game_for
    from matanui.terminal.boards import BoardPrinter

    try:
        record = Record.load(path)
        game = game_for(record.game, data)
        final = replay(record, game=game)
    except MatanuiError as error:
        fail(error)
    players = len(final.players)
    if seat is not None and not 1 <= seat <= players:
        fail(MatanuiError(f"--seat must be a player from 1 to {players}"))
    viewer = None if seat is None else seat - 1
    render = games.renderer(record.game).render
    total = len(record.actions)
    if full_screen(plain) and not all_:
        from matanui.tui.replay import ReplayApp

        say_after(ReplayApp(record, game, viewer).run())
        return
    boards = BoardPrinter(console)
    if all_:
        state = replay(record, 0, game=game)
        narrate(getattr(state, "setup_events", []), viewer, boards)
        for action in record.actions:
            narrate(state.apply(action), viewer, boards)
        boards.print(render(state.game, state.observation(viewer), state.names))
        return
    step: int | None = 0
    while step is not None:
        if step == 0:
            state = replay(record, 0, game=game)
            narrate(getattr(state, "setup_events", []), viewer, boards)
        else:  # the action that led here, and what it did
            state = replay(record, step - 1, game=game)
            words = literal(state.describe(record.actions[step - 1]))
            who = literal(state.names[state.current_player])
            boards.say(f"[bold]Action {step}, {who}:[/] {words}", hang=2)
            narrate(state.apply(record.actions[step - 1]), viewer, boards)
        boards.print(render(state.game, state.observation(viewer), state.names),
                     title=f"after action {step} of {total}")
        step = next_replay_step(step, total)


def narrate(events: list, viewer: int | None, boards: BoardPrinter) -> None:
    """What the events say as `viewer` may see them, wrapped to the width of the board's box."""
    for event in events:
        boards.say(f"  {literal(event.view(viewer)['text'])}", hang=4)


def replay_prompt(total: int) -> str:
    """The keys of the replay, as the person sees them (brackets escaped from Rich markup)."""
    return literal(f"[Enter] or [n] next, [b] back, [0-{total}] go to that action, [q] quit: ")


def next_replay_step(step: int, total: int) -> int | None:
    """Ask where to go from `step`; None to stop (q, Ctrl-C or end of input). An answer that
    cannot be read is answered and asked again, and so is Enter after the last action: it
    says the replay is at its end and how to leave or go back, rather than ending unsaid."""
    from matanui.terminal.answers import ask_line

    while True:
        line = ask_line(console, lambda: console.input(replay_prompt(total)))
        if line is None:
            return None
        answer, number = line
        if answer.lower() == "b":
            return max(0, step - 1)
        if number is not None:
            return min(total, number)
        if (not answer or answer.lower() == "n") and step < total:
            return step + 1
        if not answer or answer.lower() == "n":
            console.print(f"This is the end of the replay (action {total} of {total}): type q to "
                          f"leave, b to go back one action, or a number from 0 to {total} to go "
                          "to that action.")
            continue
        console.print(f"[red]{literal(answer)} is not an answer here: press Enter or n, or type b, a "
                      f"number from 0 to {total}, or q.[/]")
