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
import random
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.panel import Panel
from rich.text import Text

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.base import Agent
from matanui.engine import BadSetup, Event, IllegalAction, Record, RecordError, State, replay
from matanui.engine.files import write_atomically
from matanui.engine.record import read_json
from matanui.games.guide import page_markdown
from matanui.games.text import literal, wrap
from matanui.tutorial import Tutorial, play_on_from

HELP = (
    "Type the number of an action (or its id, e.g. pass). "
    "'?' shows how to play and the key to the board, 'l' the whole log, 's' saves, "
    "'q' saves and quits."
)
PERSON = "person"  # a seat played at this terminal; any other seat kind names a bot (agent)
ACTION_HANG = 6  # a long action's next lines start under its words, after "  12. "
MAX_ANSWER = 100  # characters: longer than any action id or number of one
CLEAR_SCROLLBACK = "\x1b[3J"  # so that the next person cannot scroll back to a hand
BOX_COLUMNS = 80  # the widest a board's box is drawn (the drawings are at most 76 wide)
BOX_EDGES = 4  # a box's two borders and its padding of one column either side


class QuitGame(Exception):
    """The person asked to stop; the game is saved."""


class BadAnswer(Exception):
    """An answer that cannot be read; the message says what to type instead."""


def read_answer(raw: str) -> str:
    """A typed line, stripped; BadAnswer if it is too long or holds control characters
    (arrow and function keys type escape sequences where the terminal has no line editing)."""
    answer = raw.strip()
    if len(answer) > MAX_ANSWER:
        raise BadAnswer(f"That answer is {len(answer):,} characters long; type a number or a "
                        f"command (? for help).")
    if not answer.isprintable():
        raise BadAnswer("That answer holds control characters (an arrow or function key?); "
                        "type just a number or a command (? for help).")
    return answer


def ask_readable(console: Console, ask: Callable[[], str]) -> str | None:
    """Ask until the person types a line that can be read (see read_answer), telling them
    what was wrong in between; None when they leave (end of input or Ctrl-C)."""
    while True:
        try:
            return read_answer(ask())
        except (EOFError, KeyboardInterrupt):
            console.print()
            return None
        except BadAnswer as problem:
            console.print(f"[red]{literal(str(problem))}[/]")


def number_in(answer: str) -> int | None:
    """The number a read answer is, if it is one: the ASCII digits 0-9 only. Digits of other
    scripts (Arabic-Indic U+0661, fullwidth U+FF11), which int() would read, are a BadAnswer
    saying what to type, so that none is taken for a number unseen; superscripts and
    fractions are not digits at all."""
    if not answer.isdecimal():
        return None
    if not answer.isascii():
        raise BadAnswer(f"{answer!r} is not a number here: type numbers with the digits 0 to 9.")
    return int(answer)


def choices_words(count: int) -> str:
    """Which numbers may be typed for `count` actions, as an answer says it."""
    return "1 for the only action" if count == 1 else f"a number from 1 to {count}"


@dataclass
class BoardPrinter:
    """Draws boards on a console: in their box where it fits; where it does not, without the
    box (a box wrapped by the terminal breaks every row twice); and where even the board is
    wider than the console, saying once how wide it needs to be. It keeps the width of the
    last board drawn, which narration and choices are wrapped to, so that they line up."""

    console: Console
    width: int = 0  # columns of the last board drawn, its box included; 0 before the first
    told: bool = False  # the width the board needs has been said

    def print(self, drawing: str, title: str | None = None) -> None:
        board = max(Text.from_markup(line).cell_len for line in drawing.split("\n"))
        boxed = max(board, Text.from_markup(title or "").cell_len + 2) + BOX_EDGES
        if boxed <= self.console.width:
            self.console.print(Panel(drawing, expand=False, title=title))
            self.width = boxed
            return
        if board > self.console.width and not self.told:
            self.console.print(f"[dim]The board needs {board} columns ({boxed} in its box) and this "
                               f"terminal has {self.console.width}: widen it to see the board "
                               "unbroken.[/]")
            self.told = True
        if title:
            self.console.print(title)
        self.console.print(drawing)
        self.width = min(board, self.console.width)

    def text_width(self) -> int:
        """The columns a line of narration or a choice may take: the box's, once one is drawn."""
        return min(self.width or BOX_COLUMNS, self.console.width - 1)

    def say(self, line: str, hang: int) -> None:
        """Print one markup line wrapped to text_width, its next lines indented `hang`."""
        for row in wrap(line, self.text_width(), hang=hang):
            self.console.print(row)


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


def choose_characters(game_name: str, me: str | None, opponents: list[str], count: int,
                      seed: int) -> list[str]:
    """Seat 0 plays `me`; the others play `opponents` in order, then characters drawn
    (seeded) from those left, standing in for the rulebook's choosing at the table."""
    game = games.get(game_name)
    allowed = game.characters()
    if not game.min_players <= count <= game.max_players:
        raise BadSetup(f"{game_name} is for {game.players_words()} players, not {count}")
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


def seating(count: int, hotseat: bool, vs: str | None, saved: list[str] | None) -> list[str]:
    """Seat kinds: all people (hot-seat); a person against the `vs` bots (one level per bot
    seat, the last repeated for the seats left; more levels than seats are refused); else as
    saved; else a person against heuristic bots."""
    if hotseat:
        if vs is not None:
            raise BadSetup("--hotseat seats people only; leave out --vs")
        return [PERSON] * count
    if vs is None and saved is not None:
        return saved
    levels = [v for v in (vs or "heuristic").split(",") if v]
    if not levels:
        raise BadSetup("--vs needs an agent name, e.g. heuristic")
    bots = count - 1
    if len(levels) > bots:
        raise BadSetup(f"--vs names {len(levels)} bot levels ({', '.join(levels)}) for {bots} bot "
                       f"seat{'' if bots == 1 else 's'}; name at most {bots}, or seat more with "
                       "--players")
    return [PERSON] + [levels[min(index, len(levels) - 1)] for index in range(count - 1)]


def saved_seating(path: Path, count: int) -> list[str] | None:
    """The seating a save holds next to its record (None in a record saved without one)."""
    data = read_json(path)  # Record.load has read and checked it
    terminal = data.get("terminal")
    if terminal is None:
        return None
    seats = terminal.get("seats") if isinstance(terminal, dict) else None
    if not (isinstance(seats, list) and len(seats) == count and all(isinstance(s, str) for s in seats)):
        raise RecordError(f"the save's 'terminal' field must be {{\"seats\": [...]}} with one entry "
                          f"per player ({count}): {PERSON!r} or a bot's name")
    return seats


def new_save_path(game_name: str, seed: int) -> Path:
    """GAME-seedN.matanui.json, or -2, -3... after it when that file holds an earlier game."""
    path = Path(f"{game_name}-seed{seed}.matanui.json")
    number = 1
    while path.exists():
        number += 1
        path = Path(f"{game_name}-seed{seed}-{number}.matanui.json")
    return path


def play_on_session(lesson: Tutorial, level: str, console: Console,
                    ask: Callable[[str], str]) -> TerminalGame:
    """A game against `level` bots after `lesson`'s last step: from where it ended if the game
    goes on there, else a fresh deal of its characters and options; saved as a new game."""
    state = play_on_from(lesson, random.SystemRandom().randrange(2**31))
    seed = state.record().seed
    seats = [Seat(PERSON) if index == lesson.learner
             else Seat(level, make_agent(level, lesson.game, seed=seed * 7 + index))
             for index in range(len(state.players))]
    return TerminalGame(state, seats, new_save_path(lesson.game, seed), console, ask)


def build_session(*, game_name: str | None, me: str | None, vs: str | None, opponents: list[str],
                  seed: int | None, players: int | None, hotseat: bool, options: Sequence[str],
                  save: Path | None, resume: Path | None, console: Console,
                  ask: Callable[[str], str], data: Path | None = None) -> TerminalGame:
    """A terminal game, new or resumed; `data` is a data pack's folder (None: built-in data);
    `options` are the command line's key=value pairs."""
    from matanui.games.packs import game_for

    if resume is not None:
        given = [flag for flag, value in (("GAME", game_name), ("--as", me), ("--opponent", opponents),
                                          ("--seed", seed), ("--players", players), ("-o", options))
                 if value]
        if given:
            raise BadSetup(f"--resume continues the saved game with its own game, characters, seed "
                           f"and options; leave out {', '.join(given)}")
        record = Record.load(resume)
        state = replay(record, game=game_for(record.game, data))
        game_name, seed, count = record.game, record.seed, len(record.players)
        saved = saved_seating(resume, count)
        save = save or resume
    else:
        game_name = game_name or "reconstruct"
        game = game_for(game_name, data)
        count = players or game.min_players
        characters = choose_characters(game_name, me, opponents, count, seed)
        state = game.new_game(seed, characters, game.parse_options(options))
        saved = None
        save = save or new_save_path(game_name, seed)
    if save.exists() and (resume is None or save.resolve() != resume.resolve()):
        raise BadSetup(f"{save} already exists and is not overwritten; continue that game with "
                       f"`matanui play --resume {shlex.quote(str(save))}`, or choose another --save")
    seats = [Seat(kind) if kind == PERSON else Seat(kind, make_agent(kind, game_name, seed=seed * 7 + index))
             for index, kind in enumerate(seating(count, hotseat, vs, saved))]
    return TerminalGame(state, seats, save, console, ask)
