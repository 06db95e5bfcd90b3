"""Playing in the terminal: one loop for every game, against bots or hot-seat.

The loop never applies a rule itself: it shows a seat's observation (drawn by the game's
own `render` module), the events as that seat may see them, and the numbered legal actions,
then applies the chosen action id; an id that is not legal gets the engine's own reason.
Any answer is safe: what cannot be read is answered and asked again.

The game is saved after every action (atomically, see `matanui.engine.files`), with its seating
(which seats are people, which bots), so a crash or a killed terminal loses at most the
answer being typed and `matanui play --resume FILE` continues it as it was played.

Hot-seat keeps each seat's secrets to one screen: whenever the decision passes to another
person the screen (and its scrollback) is cleared and that person is asked to take over,
even for a decision with one possible answer (a response window where the responder holds
no stop card), so the table never learns from the terminal who could have answered.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown

from matanui import games
from matanui.ai import SeatView
from matanui.ai.base import Agent
from matanui.engine import Event, IllegalAction, State
from matanui.engine.files import write_atomically
from matanui.games.guide import page_markdown
from matanui.games.text import literal
from matanui.terminal.answers import BadAnswer, QuitGame, choices_words, number_in, read_answer
from matanui.terminal.boards import BoardPrinter

HELP = (
    "Type the number of an action (or its id, e.g. pass). "
    "'?' shows how to play and the key to the board, 'l' the whole log, 's' saves, "
    "'q' saves and quits."
)
PERSON = "person"  # a seat played at this terminal; any other seat kind names a bot (agent)
ACTION_HANG = 6  # a long action's next lines start under its words, after "  12. "
CLEAR_SCROLLBACK = "\x1b[3J"  # so that the next person cannot scroll back to a hand


@dataclass
class Seat:
    kind: str  # PERSON, or the name of the agent that plays it
    agent: Agent | None = None

    @property
    def human(self) -> bool:
        return self.kind == PERSON


@dataclass
class TerminalGame:
    state: State
    seats: list[Seat]
    save_path: Path
    console: Console
    ask: Callable[[str], str]
    log: list[str] = field(default_factory=list)
    screen: int | None = None  # hot-seat: the seat whose secrets the screen may show now
    seen: dict[int, int] = field(default_factory=dict)  # hot-seat: log lines each seat has read
    boards: BoardPrinter = field(init=False)

    def __post_init__(self) -> None:
        self.boards = BoardPrinter(self.console)

    @property
    def hotseat(self) -> bool:
        return sum(seat.human for seat in self.seats) > 1

    @property
    def resume_hint(self) -> str:
        """The whole command that continues this game: the seating is in the save."""
        return f"matanui play --resume {shlex.quote(str(self.save_path))}"

    # -- the loop -----------------------------------------------------------------------

    def run(self) -> State:
        if self._save():
            self.console.print(f"The game is saved to {literal(str(self.save_path))} after every move.")
        done = len(self.state.record().actions)
        if done:
            self.console.print(f"Resumed after {done} action{'' if done == 1 else 's'}.")
        else:
            self._narrate(getattr(self.state, "setup_events", []))
        try:
            while not self.state.is_over:
                seat = self.state.current_player
                if self.seats[seat].human:
                    self._person_decides(seat)
                else:
                    self._apply(self._bot_decides(seat))
        except (QuitGame, KeyboardInterrupt, EOFError):
            if self._save():
                self.console.print(f"\nGame saved to {literal(str(self.save_path))}. "
                                   f"Resume with: {literal(self.resume_hint)}")
            return self.state
        self._show(self._viewer())
        if self._save():
            self.console.print(f"Game record saved to {literal(str(self.save_path))} "
                               f"(matanui replay {literal(shlex.quote(str(self.save_path)))}).")
        return self.state

    def _viewer(self) -> int | None:
        humans = [i for i, seat in enumerate(self.seats) if seat.human]
        return humans[0] if len(humans) == 1 else None

    def _apply(self, action: str) -> None:
        """Apply an action (IllegalAction changes nothing), save, then tell what happened."""
        events = self.state.apply(action)
        self._save()
        self._narrate(events)

    def _bot_decides(self, seat: int) -> str:
        """The bot's action, with the table told that it is thinking: a spinner on a terminal
        (it goes when the bot has moved); one plain line on a terminal that cannot move its
        cursor back (a dumb terminal); nothing where the output is not a terminal (a pipe, a
        script, a transcript), where nobody waits watching and the move itself follows."""
        agent = self.seats[seat].agent
        assert agent is not None
        view = SeatView(self.state, seat)
        if not self.console.is_terminal:
            return agent.act(view)
        thinking = f"{self._name(seat)} ({literal(self.seats[seat].kind)}) is thinking…"
        if self.console.is_dumb_terminal:
            self.console.print(thinking)
            return agent.act(view)
        with self.console.status(thinking):
            return agent.act(view)

    def _person_decides(self, seat: int) -> None:
        handed_over = self._hand_over(seat)
        actions = self.state.legal_actions()
        if len(actions) == 1 and not handed_over:
            # No choice to make: say what happens instead of asking.
            self.console.print(f"[dim]{self._name(seat)}: {literal(self.state.describe(actions[0]))}[/]")
            self._apply(actions[0])
            return
        self._show_choices(seat, actions)
        choose = "type 1 for the only action" if len(actions) == 1 else f"choose 1-{len(actions)}"
        while True:
            try:
                action = self._choose(self.ask(f"{self._name(seat)}, {choose} (? for help)"), actions)
                if action is not None:
                    self._apply(action)
                    return
            except (BadAnswer, IllegalAction) as problem:
                self.console.print(f"[red]{literal(str(problem))}[/]")

    def _show_choices(self, seat: int, actions: list[str]) -> None:
        """The board as `seat` sees it and the numbered actions under it."""
        self._show(seat)
        for number, action in enumerate(actions, start=1):
            words = literal(self.state.describe(action))
            self.boards.say(f"  [bold]{number:>2}[/]. {words}  [dim]{literal(action)}[/]", ACTION_HANG)

    def _hand_over(self, seat: int) -> bool:
        """Hot-seat: give the screen to `seat`; True if it changed hands. When it leaves
        another seat it is cleared first, and the public log since this seat last had it
        is shown again (it may have been cleared away unread). Before the first handover the
        screen shows only public things (the seed, the set-up), and it stays."""
        if not self.hotseat or self.screen == seat:
            return False
        cleared = self.screen is not None
        if cleared:
            self.seen[self.screen] = len(self.log)
            self._clear_screen()
        answer = self.ask(f"{self._name(seat)}, your turn: press Enter (others look away)")
        if answer.strip().lower() in ("q", "quit", "exit"):
            raise QuitGame
        self.screen = seat
        news = self.log[self.seen.get(seat, 0):] if cleared else []
        if news:
            self.console.print(f"Since {self._name(seat)} last looked:")
            for line in news:
                self.console.print(f"  {line}")
        return True

    def _choose(self, raw: str, actions: list[str]) -> str | None:
        """The action an answer names (the engine judges an id), or None after a command."""
        answer = read_answer(raw)
        command = answer.lower()
        if not answer:
            raise BadAnswer(f"Type {choices_words(len(actions))} (? for help).")
        if command in ("q", "quit", "exit"):
            raise QuitGame
        if command in ("?", "h", "help", "l", "log"):
            # Printed whole, then the board and the choices again: they were pushed off the
            # screen, and a screen reader or a pipe reads a pager's screens no better.
            if command in ("l", "log"):
                for line in self.log:
                    self.console.print(line)
            else:
                self.console.print(Markdown(page_markdown(self.state.game.name)))
                self.console.print(HELP)
            self._show_choices(self.state.current_player, actions)
            return None
        if command in ("s", "save"):
            if self._save():
                self.console.print(f"Saved to {literal(str(self.save_path))}.")
            return None
        number = number_in(answer)
        if number is None:
            return answer
        if 1 <= number <= len(actions):
            return actions[number - 1]
        raise BadAnswer(f"There is no action {number}: type {choices_words(len(actions))}.")

    # -- output --------------------------------------------------------------------------

    def _show(self, seat: int | None) -> None:
        render = games.renderer(self.state.game.name).render
        obs = self.state.observation(seat)
        self.boards.print(render(self.state.game, obs, self.state.names))

    def _name(self, seat: int) -> str:
        """A seat as prompts call it: the name narration gives it (markup escaped)."""
        return literal(self.state.names[seat])

    def _narrate(self, events: list[Event]) -> None:
        viewer = self._viewer()
        for event in events:
            text = literal(event.view(viewer)["text"])
            self.log.append(text)
            self.boards.say(f"  {text}", hang=4)

    def _clear_screen(self) -> None:
        console = self.console
        if console.is_dumb_terminal:  # no escape codes: push the last screen out of sight
            console.print("\n" * console.height)
            return
        console.clear()
        if console.is_terminal:
            console.file.write(CLEAR_SCROLLBACK)
            console.file.flush()

    def write_save(self) -> str | None:
        """Write the record and the seating; what went wrong (plain text, to be told: the
        game goes on), or None when it is saved. Both the line mode and the full screen save so."""
        data = self.state.record().to_dict()
        data["terminal"] = {"seats": [seat.kind for seat in self.seats]}
        try:
            write_atomically(self.save_path, json.dumps(data, indent=1) + "\n")
        except OSError as exc:
            return f"Could not save the game to {self.save_path}: {exc.strerror or exc}. The game goes on."
        return None

    def _save(self) -> bool:
        """Save (write_save); a failure is told, and the game goes on."""
        problem = self.write_save()
        if problem is not None:
            self.console.print(f"[red]{literal(problem)}[/]")
        return problem is None
