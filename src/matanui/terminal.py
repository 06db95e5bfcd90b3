"""Playing in the terminal: one loop for every game, against bots or hot-seat.

The loop never applies a rule itself: it shows a seat's observation (drawn by the game's
own `render` module), the events as that seat may see them, and the numbered legal actions,
then applies the chosen action id. Bad input is answered and asked again; Ctrl-C or end of
input saves the game so that `matanui play --resume FILE` continues it.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.base import Agent
from matanui.engine import BadSetup, Event, Record, State, replay

HELP = (
    "Type the number of an action (or its id, e.g. pass). "
    "'?' shows this help, 'l' the whole log, 's' saves, 'q' saves and quits."
)


class QuitGame(Exception):
    """The person asked to stop; the game is saved."""


@dataclass
class Seat:
    human: bool
    agent: Agent | None = None


@dataclass
class TerminalGame:
    state: State
    seats: list[Seat]
    save_path: Path
    console: Console
    ask: Callable[[str], str]
    log: list[str] = field(default_factory=list)

    # -- the loop -----------------------------------------------------------------------

    def run(self) -> State:
        self._narrate(getattr(self.state, "setup_events", []))
        try:
            while not self.state.is_over:
                seat = self.state.current_player
                if self.seats[seat].human:
                    action = self._ask_human(seat)
                else:
                    action = self.seats[seat].agent.act(SeatView(self.state, seat))
                self._narrate(self.state.apply(action))
        except (QuitGame, KeyboardInterrupt, EOFError):
            self._save()
            self.console.print(
                f"\nGame saved to {self.save_path}. Resume with: "
                f"matanui play --resume {self.save_path}"
            )
            return self.state
        self._show(self._viewer())
        self._save()
        self.console.print(f"Game record saved to {self.save_path} (matanui replay {self.save_path}).")
        return self.state

    def _viewer(self) -> int | None:
        humans = [i for i, seat in enumerate(self.seats) if seat.human]
        return humans[0] if len(humans) == 1 else None

    def _ask_human(self, seat: int) -> str:
        actions = self.state.legal_actions()
        if len(actions) == 1:
            # No choice to make: say what happens instead of asking.
            self.console.print(f"[dim]Player {seat + 1}: {escape(self.state.describe(actions[0]))}[/]")
            return actions[0]
        if sum(s.human for s in self.seats) > 1:
            self.ask(f"Player {seat + 1}, your turn: press Enter (others look away)")
        self._show(seat)
        for number, action in enumerate(actions, start=1):
            words = escape(self.state.describe(action))
            self.console.print(f"  [bold]{number:>2}[/]. {words}  [dim]{action}[/]")
        while True:
            answer = self.ask(f"Player {seat + 1}, choose 1-{len(actions)} (? for help)").strip()
            chosen = self._parse(answer, actions)
            if chosen is not None:
                return chosen

    def _parse(self, answer: str, actions: list[str]) -> str | None:
        if answer in ("q", "quit", "exit"):
            raise QuitGame
        if answer in ("?", "h", "help"):
            self.console.print(HELP)
            return None
        if answer in ("l", "log"):
            for line in self.log:
                self.console.print(line)
            return None
        if answer in ("s", "save"):
            self._save()
            self.console.print(f"Saved to {self.save_path}.")
            return None
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(actions):
                return actions[number - 1]
            self.console.print(f"[red]There is no action {number}: choose 1 to {len(actions)}.[/]")
            return None
        if answer in actions:
            return answer
        self.console.print(f"[red]{escape(answer)!s} is not a legal action.[/] {HELP}")
        return None

    # -- output --------------------------------------------------------------------------

    def _show(self, seat: int | None) -> None:
        render = importlib.import_module(f"matanui.games.{self.state.game.name}.render").render
        obs = self.state.observation(seat)
        self.console.print(Panel(render(self.state.game, obs), expand=False))

    def _narrate(self, events: list[Event]) -> None:
        viewer = self._viewer()
        for event in events:
            text = escape(event.view(viewer)["text"])
            self.log.append(text)
            self.console.print(f"  {text}")

    def _save(self) -> None:
        self.state.record().save(self.save_path)


def choose_characters(game_name: str, me: str | None, opponents: list[str], count: int,
                      seed: int) -> list[str]:
    """Seat 0 plays `me`; the others play `opponents` in order, then characters drawn
    (seeded) from those left, standing in for the rulebook's choosing at the table."""
    game = games.get(game_name)
    allowed = game.characters()
    if not game.min_players <= count <= game.max_players:
        raise BadSetup(f"{game_name} is for {game.min_players} to {game.max_players} players, not {count}")
    chosen = [me] if me else []
    chosen += opponents
    for name in chosen:
        if name not in allowed:
            raise BadSetup(f"{name!r} is not a character of {game_name}; choose from: {', '.join(allowed)}")
    if len(chosen) > count:
        raise BadSetup(f"{len(chosen)} characters named for {count} players")
    rest = [c for c in allowed if c not in chosen]
    random.Random(seed).shuffle(rest)
    chosen += rest[: count - len(chosen)]
    if not me:
        chosen = chosen[:count]
    return chosen


def build_session(*, game_name: str, me: str | None, vs: str, opponents: list[str], seed: int | None,
                  players: int | None, hotseat: bool, options: dict, save: Path | None,
                  resume: Path | None, console: Console, ask: Callable[[str], str]) -> TerminalGame:
    if resume is not None:
        record = Record.load(resume)
        state = replay(record)
        game_name = record.game
        seed = record.seed
        count = len(record.players)
        save = save or resume
    else:
        game = games.get(game_name)
        count = players or game.min_players
        characters = choose_characters(game_name, me, opponents, count, seed)
        state = game.new_game(seed, characters, options)
        save = save or Path(f"{game_name}-seed{seed}.matanui.json")
    levels = [v for v in vs.split(",") if v]
    if not levels:
        raise BadSetup("--vs needs an agent name, e.g. heuristic")
    seats = [Seat(human=True)]
    for index in range(1, count):
        if hotseat:
            seats.append(Seat(human=True))
        else:
            level = levels[min(index - 1, len(levels) - 1)]
            seats.append(Seat(human=False, agent=make_agent(level, game_name, seed=seed * 7 + index)))
    return TerminalGame(state, seats, save, console, ask)

