"""A tutorial in the terminal: the board as the learner sees it, what this step asks and why,
the numbered legal moves; the tutorial's move goes ahead, any other gets a hint.

Like the terminal game loop it applies no rule itself: `matanui.games.tutorial.Walk` plays the
engine, the game's own `render` draws the board.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.panel import Panel

from matanui import games
from matanui.games.text import literal
from matanui.games.tutorial import Played, Tutorial, Walk, check
from matanui.terminal.answers import ask_line
from matanui.terminal.boards import BoardPrinter

LINES = "\n"  # the tutorials' own texts may run over several lines
HELP = "Type the number of a move (or its id). '?' shows this help, 'q' leaves the tutorial."


def run(lesson: Tutorial, console: Console, ask: Callable[[str], str]) -> bool:
    """Play `lesson` with a person; True when it was played to its end."""
    render = games.renderer(lesson.game).render
    walk = Walk(lesson)
    boards = BoardPrinter(console)

    def board() -> None:
        boards.print(render(walk.state.game, walk.state.observation(lesson.learner)))

    console.print(Panel(literal(lesson.intro, keep=LINES), title=f"[bold]{literal(lesson.title)}[/]",
                        expand=False))
    for event in walk.log:
        console.print(literal(event.view(lesson.learner)["text"]))
    _show_played(console, lesson, walk.play_scripted())
    drawn_at = None  # the step whose board is on screen: a hint does not draw it again
    while not walk.finished:
        step = walk.next_step
        assert step is not None
        if drawn_at != walk.done:
            board()
            drawn_at = walk.done
        console.print(f"[bold]Step {walk.done + 1} of {len(lesson.steps)}[/] "
                      f"[dim]({step.teaches})[/]\n{literal(step.explain, keep=LINES)}")
        legal = walk.state.legal_actions()
        for number, action in enumerate(legal, start=1):
            console.print(f"  {number:>2}. {literal(walk.state.describe(action))}")
        action = _ask_move(console, ask, legal)
        if action is None:
            console.print(f"Left the tutorial. Start it again with: matanui tutorial {lesson.game} "
                          f"{lesson.number}")
            return False
        played, hint = walk.attempt(action)
        if hint:
            console.print(f"[yellow]{literal(hint, keep=LINES)}[/]")
        _show_played(console, lesson, played)
    board()
    for expected, found in walk.outcome():
        mark = "[green]✓[/]" if found == expected.equals else "[red]✗[/]"
        console.print(f"{mark} {literal(expected.says, keep=LINES)}")
    console.print(f"[bold]{literal(lesson.finale, keep=LINES)}[/]")
    return True


def _ask_move(console: Console, ask: Callable[[str], str], legal: list[str]) -> str | None:
    """The move the person names: an action id (legal or not: the tutorial answers it), or
    None to leave. Unreadable answers are answered and asked again."""
    while True:
        line = ask_line(console, lambda: ask("Your move:"))
        if line is None:
            return None
        answer, number = line
        if answer == "?" or not answer:
            console.print(HELP)
        elif number is not None and not 1 <= number <= len(legal):
            numbers = "1, the only move" if len(legal) == 1 else f"1 to {len(legal)}"
            console.print(f"[red]{number} is not one of the moves: type {numbers}.[/]")
        else:
            return legal[number - 1] if number is not None else answer


def _show_played(console: Console, lesson: Tutorial, played: list[Played]) -> None:
    """What the steps just played did; the opponent's scripted ones with their explanation."""
    for step in played:
        for event in step.events:
            console.print(literal(event.view(lesson.learner)["text"]))
        if step.seat != lesson.learner:
            explain = literal(step.step.explain, keep=LINES)
            console.print(f"[italic cyan]  {explain}[/] [dim]({step.step.teaches})[/]")


def check_all(lessons: list[Tutorial], console: Console) -> bool:
    """Walk each tutorial through the engine without a person; True when all still match."""
    good = True
    for lesson in lessons:
        problems = check(lesson)
        if problems:
            good = False
            console.print(f"[red]✗[/] {lesson.game} {lesson.number} {literal(lesson.title)}")
            for problem in problems:
                console.print(f"    {literal(problem, keep=LINES)}")
        else:
            console.print(f"[green]✓[/] {lesson.game} {lesson.number} {literal(lesson.title)}: "
                          f"{len(lesson.steps)} steps, {len(lesson.outcome)} printed outcomes reached")
    return good
