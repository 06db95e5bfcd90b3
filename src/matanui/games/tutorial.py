"""Tutorials: the rulebooks' own examples, played move by move through the real engine.

A tutorial is a data file in its game's package (`games/<game>/tutorials/*.toml`, numbered
by the order of the file names): the arrangement of a game, then its steps, each with the
action the tutorial expects, a short explanation and the rule-ledger id it teaches, then the
outcome the rulebook prints, as assertions on the learner's final observation. The format
is documented in docs/tutorials.md.

This module knows no game: it uses only the engine's contract (`Game.new_game` with an
arrangement, `legal_actions`, `apply`, `describe`, `observation`). A step whose seat is not
the learner's is the opponent's scripted move, played by the tutorial itself. The learner's
own steps wait for the learner: the expected action advances; another legal action gets a
hint and changes nothing; an illegal one gets the engine's own reason.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matanui import games
from matanui.engine import Event, MatanuiError, State
from matanui.engine.data import EntryChecker, load_toml

TEACHES = re.compile(r"^[A-Z]+(?:-[A-Z0-9]+)+$")
TOP_FIELDS = ("title", "summary", "intro", "finale", "learner", "seed", "players", "options",
              "arrangement", "step", "outcome")


class TutorialError(MatanuiError):
    """A tutorial that cannot be loaded, or that no longer matches the engine."""


@dataclass(frozen=True)
class Step:
    action: str
    explain: str
    teaches: str
    hint: str | None = None  # what a learner who chose another legal action reads


@dataclass(frozen=True)
class Expectation:
    """One printed outcome: the value at `path` of the learner's final observation."""

    says: str
    path: str
    equals: Any


@dataclass(frozen=True)
class Tutorial:
    game: str
    number: int  # 1-based, the order of the file names
    source: str  # the file it was read from
    title: str
    summary: str
    intro: str
    finale: str
    learner: int
    seed: int
    players: tuple[str, ...]
    options: dict[str, Any]
    arrangement: dict[str, Any]
    steps: tuple[Step, ...]
    outcome: tuple[Expectation, ...]

    def start(self) -> State:
        return games.get(self.game).new_game(self.seed, self.players, self.options, self.arrangement)

    def summary_json(self) -> dict[str, Any]:
        return {"game": self.game, "number": self.number, "title": self.title,
                "summary": self.summary, "steps": len(self.steps)}


# -- loading ---------------------------------------------------------------------------


def folder(game: str) -> Path:
    """Where a game's tutorial files lie: beside its rules, in tutorials/."""
    return Path(inspect.getfile(type(games.get(game)))).parent / "tutorials"


def tutorials(game: str) -> list[Tutorial]:
    """The game's tutorials in order (none when it has no tutorials/ folder)."""
    files = sorted(folder(game).glob("*.toml"))
    return [read(game, number, path) for number, path in enumerate(files, start=1)]


def tutorial(game: str, number: int) -> Tutorial:
    found = tutorials(game)
    if not 1 <= number <= len(found):
        allowed = f"1 to {len(found)}" if found else "none: it has no tutorials"
        raise TutorialError(f"{game} has no tutorial {number}; its tutorials are {allowed}")
    return found[number - 1]


def read(game: str, number: int, path: Path) -> Tutorial:
    """One tutorial file, checked field by field: a bad file raises an error naming the
    file, the step (or outcome) and the field."""
    name = f"tutorial {path.name}"
    top = EntryChecker(name, "tutorial", load_toml(path))
    top.only(TOP_FIELDS)
    steps = [_step(name, i, entry) for i, entry in enumerate(top.get("step", list), start=1)]
    if not steps:
        top.fail("step", "needs at least one step")
    outcome = [_expectation(name, i, entry) for i, entry in enumerate(top.get("outcome", list), start=1)]
    if not outcome:
        top.fail("outcome", "needs at least one assertion: the outcome the rulebook prints")
    players = top.get("players", list)
    if not all(isinstance(p, str) for p in players):
        top.fail("players", f"must be a list of character names, not {players!r}")
    return Tutorial(
        game=game, number=number, source=str(path), title=top.get("title", str),
        summary=top.get("summary", str), intro=top.get("intro", str), finale=top.get("finale", str),
        learner=top.integer("learner", 0, len(players) - 1), seed=top.integer("seed", 0, 2**53, 0),
        players=tuple(players), options=top.get("options", dict, {}),
        arrangement=top.get("arrangement", dict), steps=tuple(steps), outcome=tuple(outcome))


def _step(source: str, index: int, entry: Any) -> Step:
    check = EntryChecker(source, f"step {index}", entry)
    check.only(("action", "explain", "teaches", "hint"))
    teaches = check.get("teaches", str)
    if not TEACHES.match(teaches):
        check.fail("teaches", f"is {teaches!r}; it must be a rule-ledger id such as MASKS-CHALLENGE-TIE")
    return Step(action=check.get("action", str), explain=check.get("explain", str), teaches=teaches,
                hint=check.get("hint", str, None))


def _expectation(source: str, index: int, entry: Any) -> Expectation:
    check = EntryChecker(source, f"outcome {index}", entry)
    check.only(("says", "path", "equals"))
    if "equals" not in check.entry:
        check.fail("equals", "is missing")
    return Expectation(says=check.get("says", str), path=check.get("path", str), equals=entry["equals"])


# -- playing ---------------------------------------------------------------------------


@dataclass
class Played:
    """A step carried out: by the learner or scripted for another seat."""

    step: Step
    seat: int
    text: str  # the action's words (`describe`)
    events: list[Event]

    def to_json(self, learner: int) -> dict[str, Any]:
        return {"seat": self.seat, "action": self.step.action, "text": self.text,
                "explain": self.step.explain, "teaches": self.step.teaches,
                "events": [e.view(learner) for e in self.events]}


@dataclass
class Walk:
    """A tutorial under way: the state after `done` steps. Scripted steps of other seats
    are played as soon as they are due, so a walk always waits for the learner (or is at
    its end)."""

    tutorial: Tutorial
    state: State = field(init=False)
    done: int = 0
    log: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = self.tutorial.start()
        self.log = list(getattr(self.state, "setup_events", []))

    @classmethod
    def to(cls, tutorial: Tutorial, at: int) -> tuple[Walk, list[Played]]:
        """The walk after the first `at` steps (and the scripted ones after them), with the
        steps played since `at`."""
        if not 0 <= at <= len(tutorial.steps):
            raise TutorialError(f"a tutorial position is 0 to {len(tutorial.steps)} steps, not {at}")
        walk = cls(tutorial)
        while walk.done < at:
            walk._play()
        return walk, walk.play_scripted()

    @property
    def finished(self) -> bool:
        return self.done == len(self.tutorial.steps)

    @property
    def next_step(self) -> Step | None:
        return None if self.finished else self.tutorial.steps[self.done]

    def play_scripted(self) -> list[Played]:
        """Play the steps that are not the learner's, up to the learner's next decision."""
        played = []
        while not self.finished and self.state.current_player != self.tutorial.learner:
            played.append(self._play())
        return played

    def attempt(self, action: str) -> tuple[list[Played], str | None]:
        """The learner tries `action`: the expected one is played (with the scripted steps
        after it); any other gets a hint and changes nothing."""
        step = self.next_step
        if step is None:
            raise TutorialError("this tutorial is over: there is no step left to play")
        if action != step.action:
            return [], self.hint(action)
        return [self._play(), *self.play_scripted()], None

    def play_to_end(self) -> list[Played]:
        """Every step left, the learner's too (for checking and for listing a tutorial)."""
        return [self._play() for _ in range(len(self.tutorial.steps) - self.done)]

    def hint(self, action: str) -> str:
        step = self.next_step
        assert step is not None
        wanted = self.state.describe(step.action)
        if not self.state.is_legal(action):
            return f"That is not a legal move now. This step is to {_lower(wanted)}."
        return step.hint or (f"{self.state.describe(action)} is legal, but not this tutorial's "
                             f"move. This step is to {_lower(wanted)}.")

    def _play(self) -> Played:
        step = self.tutorial.steps[self.done]
        seat = self.state.current_player
        if seat is None or not self.state.is_legal(step.action):
            legal = ", ".join(self.state.legal_actions()) or "none (the game is over)"
            raise TutorialError(f"{self.tutorial.source}: step {self.done + 1}: {step.action!r} is not "
                                f"legal in the engine now; legal actions: {legal}")
        text = self.state.describe(step.action)
        events = self.state.apply(step.action)
        self.log.extend(events)
        self.done += 1
        return Played(step, seat, text, events)

    def outcome(self) -> list[tuple[Expectation, Any]]:
        """Each printed outcome with the value the learner's observation holds now."""
        obs = self.state.observation(self.tutorial.learner)
        return [(expected, lookup(obs, expected.path)) for expected in self.tutorial.outcome]


def play_on_from(tutorial: Tutorial, seed: int) -> State:
    """Where a learner plays on after `tutorial`'s last step: its end position if the game goes
    on there, else a fresh deal (seeded `seed`) of the same characters and options."""
    state = Walk.to(tutorial, len(tutorial.steps))[0].state
    if state.is_over:
        state = games.get(tutorial.game).new_game(seed, list(tutorial.players), tutorial.options)
    return state


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


MISSING = object()


def lookup(obs: Any, path: str) -> Any:
    """The value at a dotted path (`toa.0.mask`: a key, then a list index) or MISSING."""
    value = obs
    for part in path.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.lstrip("-").isdigit() and -len(value) <= int(part) < len(value):
            value = value[int(part)]
        else:
            return MISSING
    return value


def check(tutorial: Tutorial) -> list[str]:
    """Replay the whole tutorial through the engine: the problems found (empty: it still
    matches the engine and reaches its printed outcome)."""
    try:
        walk = Walk(tutorial)
        walk.play_to_end()
    except MatanuiError as error:
        return [str(error)]
    problems = []
    for expected, found in walk.outcome():
        if found != expected.equals:
            shown = "nothing (no such path)" if found is MISSING else repr(found)
            problems.append(f"{tutorial.source}: outcome {expected.path!r} ({expected.says}): expected "
                            f"{expected.equals!r}, the engine has {shown}")
    return problems
