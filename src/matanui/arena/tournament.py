"""Round-robin tournaments between agents: every pair of agents plays the same number of
games, seats alternating and characters rotating, on a process pool."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import asdict, dataclass, field
from pathlib import Path

from matanui.ai import make_agent
from matanui.ai.base import Agent, SeatView
from matanui.engine import MatanuiError

from .match import game_on, play_match


@dataclass(frozen=True)
class MatchSpec:
    """One game to play: who sits where, as what, with which seed."""

    game: str
    agents: tuple[str, ...]  # agent spec per seat
    characters: tuple[str, ...]
    seed: int
    options: tuple[tuple[str, object], ...] = ()
    # A data pack: its folder (where workers load it) and its hash (what was played: a
    # journal line names it, so a resumed arena never counts a game of other data).
    data: str | None = None
    data_hash: str | None = None


def pack_of(game_name: str, data: str | None) -> tuple[list[str], str | None]:
    """The characters of the game on `data` (a pack's folder, or None) and the pack's hash."""
    game = game_on(game_name, data)
    return game.characters(), game.data["hash"] if data else None


@dataclass
class GameOutcome:
    game: str
    agents: list[str]
    characters: list[str]
    seed: int
    winners: list[int]
    steps: int
    turns: int | None
    # Per seat, over its decisions: the moves where it had more than one legal action (a
    # forced move costs no thought and would flatter the averages).
    decisions: list[int] = field(default_factory=list)
    seconds_per_move: list[float] = field(default_factory=list)
    iterations_per_move: list[float] = field(default_factory=list)

    def to_row(self) -> dict[str, object]:
        return asdict(self)


def round_robin(game_name: str, agent_specs: Sequence[str], games_per_pair: int, seed: int = 0,
                options: dict | None = None, data: str | None = None) -> list[MatchSpec]:
    """Each pair of agents meets `games_per_pair` times; the seat order alternates and the
    characters rotate through every ordered pair, so neither seat nor character favours
    either agent."""
    chars, data_hash = pack_of(game_name, data)
    pairings = list(itertools.permutations(chars, 2))
    frozen_options = tuple(sorted((options or {}).items()))
    specs = []
    number = 0
    for a, b in itertools.combinations(agent_specs, 2):
        for i in range(games_per_pair):
            seats = (a, b) if i % 2 == 0 else (b, a)
            characters = pairings[(i // 2) % len(pairings)]
            specs.append(MatchSpec(game_name, seats, characters, seed + number, frozen_options, data,
                                   data_hash))
            number += 1
    return specs


def paired_specs(game_name: str, a: str, b: str, pairs: int, seed: int = 0,
                 options: dict | None = None, data: str | None = None,
                 first: int = 0) -> list[tuple[MatchSpec, MatchSpec]]:
    """`pairs` game pairs: each pair is one seed and one seating of characters, played twice
    with the agents' seats swapped, so that the deal (and each seat's luck) is the same for
    both agents and cancels out of the pair's score. `first` skips that many pairs of the
    schedule (their seeds and seatings)."""
    chars, data_hash = pack_of(game_name, data)
    pairings = list(itertools.permutations(chars, 2))
    frozen_options = tuple(sorted((options or {}).items()))
    result = []
    for i in range(first, first + pairs):
        characters = pairings[i % len(pairings)]
        result.append((MatchSpec(game_name, (a, b), characters, seed + i, frozen_options, data, data_hash),
                       MatchSpec(game_name, (b, a), characters, seed + i, frozen_options, data, data_hash)))
    return result


def paired_round_robin(game_name: str, agent_specs: Sequence[str], games_per_pair: int, seed: int = 0,
                       options: dict | None = None, data: str | None = None) -> list[MatchSpec]:
    """A round robin in game pairs (`games_per_pair` rounded up to an even number): each
    pair of agents plays every seed twice, seats swapped."""
    pairs = (games_per_pair + 1) // 2
    specs = []
    for number, (a, b) in enumerate(itertools.combinations(agent_specs, 2)):
        for pair in paired_specs(game_name, a, b, pairs, seed + number * pairs, options, data):
            specs += pair
    return specs


def play_spec(spec: MatchSpec) -> GameOutcome:
    """Play one scheduled game (in a worker process). Agents are seeded from the game seed, so
    a tournament replays exactly with iteration budgets."""
    agents = [make_agent(name, spec.game, seed=spec.seed * 16 + seat)
              for seat, name in enumerate(spec.agents)]
    timed = [_TimedAgent(agent) for agent in agents]
    result = play_match(spec.game, spec.characters, timed, seed=spec.seed, options=dict(spec.options),
                        data=spec.data)
    return GameOutcome(
        game=spec.game, agents=list(spec.agents), characters=list(spec.characters), seed=spec.seed,
        winners=list(result.winners), steps=result.steps, turns=result.turns,
        decisions=[t.decisions for t in timed],
        seconds_per_move=[t.mean_seconds() for t in timed],
        iterations_per_move=[t.mean_iterations() for t in timed],
    )


class _TimedAgent(Agent):
    """Wraps an agent to measure its thinking time (and search iterations) per decision, a
    move with more than one legal action."""

    def __init__(self, agent: Agent) -> None:
        super().__init__()
        self.agent = agent
        self.decisions = 0
        self.seconds = 0.0
        self.iterations = 0

    def act(self, view: SeatView) -> str:
        if len(view.legal_actions()) == 1:
            return self.agent.act(view)
        start = time.perf_counter()
        action = self.agent.act(view)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        self.iterations += getattr(self.agent, "last_iterations", 0)
        return action

    def mean_seconds(self) -> float:
        return self.seconds / self.decisions if self.decisions else 0.0

    def mean_iterations(self) -> float:
        return self.iterations / self.decisions if self.decisions else 0.0


def run(specs: Sequence[MatchSpec], workers: int = 1,
        on_result: Callable[[GameOutcome], None] | None = None,
        journal: Journal | None = None) -> list[GameOutcome]:
    """Play every spec, in order of completion reported to `on_result`, results in spec order.
    With a journal, games it already holds are not played again and each new one is added
    to it as it finishes."""
    done = journal.done if journal is not None else {}
    outcomes: list[GameOutcome | None] = [done.get(spec) for spec in specs]
    pending = [(index, spec) for index, spec in enumerate(specs) if outcomes[index] is None]

    def finished(index: int, outcome: GameOutcome) -> None:
        outcomes[index] = outcome
        if journal is not None:
            journal.append(specs[index], outcome)
        if on_result is not None:
            on_result(outcome)

    if workers <= 1:
        for index, spec in pending:
            finished(index, play_spec(spec))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for index, outcome in _unordered(pool, pending):
                finished(index, outcome)
    return [o for o in outcomes if o is not None]


class Journal:
    """A tournament's finished games, one JSON line each, written as they finish, so an
    interrupted tournament resumes where it stopped. A line is keyed by its whole MatchSpec:
    a game with other agents, characters, seed or options is not taken for it."""

    def __init__(self, path: Path) -> None:
        """Read the games already played; a damaged file raises MatanuiError."""
        self.path = path
        self.done = self._load()

    def _load(self) -> dict[MatchSpec, GameOutcome]:
        if not self.path.exists():
            return {}
        done = {}
        for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), start=1):
            try:
                row = json.loads(line)
                options = tuple((key, value) for key, value in row.pop("options"))
                data, data_hash = row.pop("data", None), row.pop("data_hash", None)
                outcome = GameOutcome(**row)
            except (ValueError, TypeError, KeyError) as error:
                raise MatanuiError(f"{self.path}, line {number}: not a finished game of this tool ({error}); "
                                   "move the file away to start afresh") from error
            spec = MatchSpec(outcome.game, tuple(outcome.agents), tuple(outcome.characters), outcome.seed,
                             options, data, data_hash)
            done[spec] = outcome
        return done

    def append(self, spec: MatchSpec, outcome: GameOutcome) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            pack = {"data": spec.data, "data_hash": spec.data_hash} if spec.data else {}
            handle.write(json.dumps({**outcome.to_row(), "options": spec.options, **pack}) + "\n")
        self.done[spec] = outcome


def _unordered(pool: ProcessPoolExecutor,
               pending: Sequence[tuple[int, MatchSpec]]) -> Iterator[tuple[int, GameOutcome]]:
    futures = {pool.submit(play_spec, spec): index for index, spec in pending}
    for future in as_completed(futures):
        yield futures[future], future.result()
