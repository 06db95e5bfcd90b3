"""`matanui tutorial` on the full screen: `matanui.games.tutorial.Walk` plays the engine; the
screen shows the board as the learner sees it, the step's text and why (over the table), the
learner's moves as decisions, a hint for any other move, and the scripted opponent's steps
with their explanation (the last move line and the log)."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from matanui.engine import MatanuiError
from matanui.games.text import literal
from matanui.games.tutorial import Played, Tutorial, Walk

from .app import GameApp
from .decisions import Decisions
from .drawing import drawing
from .keys import TUTORIAL
from .overlays import Page

LINES = "\n"  # the tutorials' own texts may run over several lines
PLAY_ON = "play on"  # what the app answers when the learner asks to play on after the end


class LessonApp(GameApp):
    MODE = TUTORIAL
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(str(n), f"number({n})", show=False) for n in range(1, 10)] + [
        Binding("p", "play_on", "play on", show=False)]

    def __init__(self, lesson: Tutorial) -> None:
        super().__init__(lesson.game)
        self.lesson = lesson
        self.walk = Walk(lesson)
        self.me = lesson.learner

    def on_mount(self) -> None:
        super().on_mount()
        self.add_log([self.lesson.title, self.lesson.intro])
        self.add_log([e.view(self.lesson.learner)["text"] for e in self.walk.log])
        self.played(self.walk.play_scripted())
        self.redraw()
        # the intro first, whole, over the game (not in the log, which scrolls past it)
        self.push_screen(Page(self.lesson.title, lines=[literal(self.lesson.intro, LINES)]))

    def redraw(self) -> None:
        walk, learner = self.walk, self.lesson.learner
        state = walk.state
        legal = [] if walk.finished else state.legal_actions()
        picture = drawing(state, learner, legal)
        step = walk.next_step
        if step is None:
            marks = {True: "[green]✓[/]", False: "[red]✗[/]"}
            lines = [f"{marks[found == expected.equals]} {literal(expected.says, LINES)}"
                     for expected, found in walk.outcome()]
            finale = literal(self.lesson.finale, LINES)
            extra = ["[bold]The tutorial is over.[/]", *lines, f"[bold]{finale}[/]", ""]
            self.say("The tutorial is over: p plays on against a bot (h gives hints there), q leaves.",
                     "bold")
        else:
            extra = [f"[bold]Step {walk.done + 1} of {len(self.lesson.steps)}[/] [dim]({step.teaches})[/]",
                     literal(step.explain, LINES), ""]
        self.show(picture, extra=extra, seat=learner)
        self.offer(state, legal)
        self.query_one(Decisions).focus()

    def played(self, steps: list[Played]) -> None:
        """What the steps just played did; the opponent's scripted ones with their explanation."""
        learner = self.lesson.learner
        for step in steps:
            texts = [e.view(learner)["text"] for e in step.events]
            self.add_log(texts)
            self.last_seat = step.seat
            who = self.walk.state.names[step.seat] + (" (you)" if step.seat == learner else "")
            self.show_last(who, texts)
            if step.seat != learner:
                self.add_log([f"  ({step.step.teaches}) {step.step.explain}"])

    def deciding_now(self) -> bool:
        return not self.walk.finished

    def take(self, action: str) -> None:
        if not self.deciding_now():
            return
        try:
            steps, hint = self.walk.attempt(action)
        except MatanuiError as problem:
            self.say(str(problem), "red")
            return
        if hint:
            self.say(hint, "yellow")
            return
        self.say("")
        self.played(steps)
        self.redraw()

    def action_play_on(self) -> None:
        if self.walk.finished:
            self.exit(PLAY_ON)

    def action_leave(self) -> None:
        if self.walk.finished:
            self.exit("")
        else:
            self.exit(f"Left the tutorial. Start it again with: matanui tutorial {self.lesson.game} "
                      f"{self.lesson.number}")
