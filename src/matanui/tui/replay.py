"""`matanui replay` on the full screen: a saved game step by step, the board and the last
move at each step. n, Enter or space: next; b: back; digits then Enter: go to that action;
at the last action it says so (and stays) instead of closing."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from matanui.engine import Game, Record, replay

from .app import GameApp
from .drawing import drawing
from .keys import REPLAY


class ReplayApp(GameApp):
    MODE = REPLAY
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,space", "next", "Next"),
        Binding("enter", "enter", "Next / go to", show=False),
        Binding("b", "back", "Back"),
        *[Binding(str(n), f"digit({n})", show=False) for n in range(10)],
        Binding("backspace", "forget", show=False),
    ]

    def __init__(self, record: Record, game: Game, viewer: int | None = None) -> None:
        super().__init__(record.game)
        self.record = record
        self.game = game
        self.viewer = self.me = viewer
        self.total = len(record.actions)
        self.step = 0
        self.typed = ""
        # what each step's action did as the viewer sees it (step 0: the set-up), and who did it
        state = replay(record, 0, game=game)
        self.texts: list[list[str]] = [[e.view(viewer)["text"] for e in getattr(state, "setup_events", [])]]
        self.movers: list[int | None] = [None]
        for action in record.actions:
            self.movers.append(state.current_player)
            self.texts.append([e.view(viewer)["text"] for e in state.apply(action)])

    def on_mount(self) -> None:
        super().on_mount()
        self.set_class(True, "-no-decisions")
        self.go(0)

    def go(self, step: int) -> None:
        self.step = step
        state = replay(self.record, step, game=self.game)
        picture = drawing(state, self.viewer)
        mover = self.movers[step]
        self.last_seat = mover
        self.show(picture, title=f"Replay: after action {step} of {self.total}  {picture.regions.title}",
                  seat=mover)
        self.clear_log()
        for texts in self.texts[: step + 1]:
            self.add_log(texts)
        if mover is None:
            self.show_last("the set-up", self.texts[0])
        else:
            self.show_last(f"action {step}, {state.names[mover]}", self.texts[step])
        self.say("n next, b back, a number then Enter goes to that action, q quits.")

    def action_next(self) -> None:
        if self.step < self.total:
            self.go(self.step + 1)
        else:
            self.say(f"That was the last action ({self.total} of {self.total}): the game ends here. "
                     f"b goes back, a number then Enter goes to that action, q quits.", "bold")

    def action_back(self) -> None:
        self.go(max(0, self.step - 1))

    def action_digit(self, digit: int) -> None:
        self.typed = (self.typed + str(digit))[-6:]
        self.say(f"Go to action {self.typed} (Enter; backspace forgets it).")

    def action_forget(self) -> None:
        self.typed = ""
        self.say("")

    def action_enter(self) -> None:
        if not self.typed:
            self.action_next()
            return
        number, self.typed = int(self.typed), ""
        self.go(min(self.total, number))

