"""`matanui play` on the full screen: a TerminalGame (set up or resumed by
`matanui.terminal.session.build_session`, saved by its `write_save`) played with keys and mouse.

Bots act one action at a time (each thought out in a daemon thread that leaving never waits
for); each action is applied on the screen's own thread and shown at once (the board, the
last move, the log), with "… is thinking…" while a bot searches and a short pause (or
space) before the next bot's move. Hot-seat
follows the line mode's rule: whenever the decision passes to another person, the screen
shows nothing but the handover until that person takes it, even for a decision with one
possible answer."""

from __future__ import annotations

import asyncio
import contextlib
import shlex
import threading
from collections.abc import Callable
from functools import partial
from typing import ClassVar, TypeVar

from textual import work
from textual.binding import Binding, BindingType

from matanui.ai import SeatView
from matanui.ai.analysis import hint, percent
from matanui.engine import MatanuiError
from matanui.terminal.game import TerminalGame

from .app import GameApp
from .decisions import Decisions
from .drawing import drawing
from .keys import PLAY
from .overlays import Handover

T = TypeVar("T")
BOT_PAUSE = 1.0  # seconds a bot's move stays before the next bot acts (space: at once)


class PlayApp(GameApp):
    MODE = PLAY
    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(n), f"number({n})", show=False) for n in range(1, 10)],
        Binding("s", "save", "Save"),
        Binding("h", "hint", "Hint"),
        Binding("space", "go_on", "Go on", show=False),
    ]

    def __init__(self, session: TerminalGame, pause: float = BOT_PAUSE) -> None:
        super().__init__(session.state.game.name)
        self.session = session
        self.pause = pause
        self.screen_seat: int | None = None  # hot-seat: whose secrets the screen may show
        self.deciding: int | None = None  # the person whose decision is on screen
        self.taken_over = False  # hot-seat: the screen has just been handed over
        self.go_on = asyncio.Event()
        self.leaving = False
        humans = [i for i, seat in enumerate(session.seats) if seat.human]
        self.viewer = humans[0] if len(humans) == 1 else None  # whose view the log tells
        self.me = self.viewer

    @property
    def state(self):
        return self.session.state

    def on_mount(self) -> None:
        super().on_mount()
        self.save()
        done = len(self.state.record().actions)
        if done:
            resumed = f"Resumed after {done} action{'' if done == 1 else 's'}."
            self.add_log([resumed])
            self.say(resumed)
        else:
            self.add_log([e.view(self.viewer)["text"] for e in getattr(self.state, "setup_events", [])])
        self.advance()

    # -- the loop, one step per call --------------------------------------------------------

    def advance(self) -> None:
        """Show the game and ask for what comes next: a person's decision, the handover
        before it, the bots' moves, or the end."""
        self.deciding = None
        while not self.state.is_over:
            seat = self.state.current_player
            if not self.session.seats[seat].human:
                self.redraw()
                self.bots()
                return
            if self.session.hotseat and self.screen_seat != seat:
                self.hand_over(seat)
                return
            actions = self.state.legal_actions()
            if len(actions) == 1 and not self.taken_over:
                self.apply(actions[0])  # no choice to make: it happens, and the log says so
                continue
            self.deciding = seat
            self.redraw(actions)
            self.query_one(Decisions).focus()
            return
        self.set_class(True, "-no-decisions")  # none are left: the log takes the width
        self.redraw()
        self.say(f"The game is over. Its record is saved: matanui replay "
                 f"{shlex.quote(str(self.session.save_path))} (q leaves).")

    def redraw(self, actions: list[str] | None = None) -> None:
        view = self.screen_seat if self.session.hotseat else self.viewer
        picture = drawing(self.state, view, actions or [])
        # the person deciding sees their own piece; else the last mover's is in view
        self.show(picture, seat=self.deciding if self.deciding is not None else self.last_seat)
        self.offer(self.state, actions or [])

    def apply(self, action: str) -> bool:
        """Apply an action (an illegal one is told and changes nothing), save, show it."""
        seat = self.state.current_player
        try:
            events = self.state.apply(action)
        except MatanuiError as problem:
            self.say(str(problem), "red")
            return False
        self.save()
        texts = [e.view(self.viewer)["text"] for e in events]
        self.last_seat = seat
        self.show_last(self.who(seat), texts)
        self.add_log(texts)
        return True

    def who(self, seat: int) -> str:
        kind = self.session.seats[seat]
        if seat == self.viewer:
            return f"{self.state.names[seat]} (you)"
        return self.state.names[seat] if kind.human else f"{self.state.names[seat]} ({kind.kind})"

    def save(self) -> None:
        """Save; a problem stays on the message line until a save succeeds."""
        self.save_problem = self.session.write_save() or ""
        self.tell()

    # -- people ----------------------------------------------------------------------------

    def hand_over(self, seat: int) -> None:
        """Clear the screen of every hand, then give it to `seat` when they are there."""
        self.screen_seat = None
        self.redraw()

        def taken(go: bool | None) -> None:
            if not go:
                self.action_leave()
                return
            self.screen_seat = self.me = seat
            self.taken_over = True
            self.advance()

        self.push_screen(Handover(self.state.names[seat]), taken)

    def deciding_now(self) -> bool:
        return self.deciding is not None

    def take(self, action: str) -> None:
        if not self.deciding_now():
            return
        self.say("")
        if self.apply(action):
            self.taken_over = False
            self.advance()

    def action_save(self) -> None:
        self.save()
        if not self.save_problem:
            self.say(f"Saved to {self.session.save_path}.")

    @work(exclusive=True, group="hint")
    async def action_hint(self) -> None:
        """What a strong player would do in the deciding person's place, searched from their
        view alone (matanui.ai.analysis), told on the message line and highlighted in the list;
        an answer that comes after the position moved on is dropped."""
        if not self.deciding_now():
            self.say("A hint is for your own decision: wait for it.", "yellow")
            return
        seat, at = self.deciding, len(self.state.history)
        view = SeatView(self.state.clone(), seat)
        self.say("Looking for a hint…")
        found = await in_thread(partial(hint, view, seed=at))
        if self.deciding != seat or len(self.state.history) != at:
            return
        decisions = self.query_one(Decisions)
        if found.action not in decisions.shown:
            decisions.offer(decisions.choices)
        decisions.highlight_action([found.action])
        # The list holds the move's words; the two message rows hold its number and the reason.
        number = decisions.shown.index(found.action) + 1
        self.say(f"Hint: {number} (highlighted). {found.reason} About {percent(found.chance)} to win "
                 "with it.", "yellow")

    def action_go_on(self) -> None:
        self.go_on.set()

    def action_leave(self) -> None:
        self.leaving = True
        self.go_on.set()
        problem = self.session.write_save()
        if self.state.is_over:
            self.exit(problem or f"Game record saved to {self.session.save_path} (matanui replay "
                      f"{shlex.quote(str(self.session.save_path))}).")
        else:
            self.exit(problem or f"Game saved to {self.session.save_path}. Resume with: "
                      f"{self.session.resume_hint}")

    # -- bots ------------------------------------------------------------------------------

    @work(exclusive=True, group="bots")
    async def bots(self) -> None:
        """The bots' moves up to the next person's decision (or the end), one at a time,
        each applied here on the screen's thread. Leaving cancels this at once: a bot's
        answer that comes later is never applied."""
        while not self.leaving and not self.state.is_over:
            seat = self.state.current_player
            player = self.session.seats[seat]
            if player.human:
                break
            self.thinking = f"{self.state.names[seat]} ({player.kind}) is thinking…"
            self.say("")
            action = await in_thread(partial(player.agent.act, SeatView(self.state, seat)))
            self.thinking = ""
            if self.leaving:
                return
            self.say("")
            self.apply(action)
            self.redraw()
            upcoming = self.state.current_player
            if not self.state.is_over and not self.session.seats[upcoming].human and self.pause:
                self.go_on.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.go_on.wait(), self.pause)
        if not self.leaving:
            self.advance()


def in_thread(call: Callable[[], T]) -> asyncio.Future[T]:
    """What `call` answers (a bot's action, a hint), worked out in a thread of its own that
    never holds the program's exit (a daemon; leaving does not wait for it, and what it
    answers then goes nowhere)."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    def give(result: T | None, problem: BaseException | None) -> None:
        if not answer.done():
            answer.set_exception(problem) if problem is not None else answer.set_result(result)  # type: ignore[arg-type]

    def think() -> None:
        try:
            result, problem = call(), None
        except Exception as error:  # told on the screen's thread, as if raised there
            result, problem = None, error
        with contextlib.suppress(RuntimeError):  # the screen has closed: nobody to tell
            loop.call_soon_threadsafe(give, result, problem)

    threading.Thread(target=think, name="thinking", daemon=True).start()
    return answer
