"""Tuning a search's parameters, or a heuristic's weights, by SPSA (Spall's simultaneous
perturbation stochastic approximation), the way Fishtest tunes chess engines: the engine
behind `matanui tune`.

Iteration k moves every parameter at once, by +-c_k with a random sign each (the vector
`delta`), plays one game pair (one seed, the seats swapped, as `matanui arena --pairs`)
between the agent at theta + c_k delta and the agent at theta - c_k delta, and steps theta
along delta by a_k * result / c_k, where `result` is the first agent's wins minus losses
over the pair (-2 to 2). That is gradient ascent on the score, with the gradient estimated
from two agents per iteration however many parameters there are. Every point is clamped
to the parameters' bounds; whole-number parameters are rounded where they are played.

The gains follow Fishtest: c_k = c / k^0.101 and a_k = a / (A + k)^0.602, A a tenth of the
iterations, with c and a set from each parameter's `c_end` (its perturbation at the last
iteration) and `r_end` (a_end / c_end^2, the last step per unit of result as a share of
c_end): c = c_end N^0.101 and a = r_end c_end^2 (A + N)^0.602. Fishtest runs tens of
thousands of pairs with r_end = 0.002; the defaults here (c_end a tenth of the range,
r_end = 0.1) are sized for a few hundred, so that a short run can cross a good part of
the range.

With more than one worker, that many iterations are played at once around the same theta
and then applied in order (as Fishtest's workers do); the batches are part of the run's
settings, so a run is determined by its command line, and its journal resumes it exactly.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from matanui.ai import make_agent
from matanui.ai.settings import SEARCH, TUNABLE, Parameters, check_value, split_settings, with_settings
from matanui.engine import MatanuiError

from .field import credit, field_specs
from .sprt import game_score
from .tournament import GameOutcome, MatchSpec, paired_specs, run

GAMMA = 0.101  # c_k's decay
ALPHA = 0.602  # a_k's decay
A_SHARE = 0.1  # A, the stability constant, as a share of the iterations
C_END_SHARE = 0.1  # the default c_end, as a share of the range
R_END = 0.1  # the default r_end

Theta = dict[str, float]


@dataclass(frozen=True)
class Param:
    """One parameter to tune: where it starts, its bounds and its gains."""

    name: str
    start: float
    low: float
    high: float
    c_end: float
    r_end: float

    def clamp(self, value: float) -> float:
        return min(self.high, max(self.low, value))

    def played(self, value: float) -> float | int:
        """The value the agent plays with: clamped, and rounded for a whole-number parameter."""
        value = self.clamp(value)
        return round(value) if self.whole else value

    @property
    def whole(self) -> bool:
        """Only the search has whole-number parameters (a heuristic's weights are numbers)."""
        return TUNABLE.get(self.name) is int


def parse_param(text: str, parameters: Parameters = SEARCH) -> Param:
    """NAME=START:MIN:MAX[:C_END[:R_END]], as `--param exploration=0.7:0.1:2.0`; NAME is one
    of `parameters` (the tuned agent's: matanui.ai.registry.parameters)."""
    usage = "--param takes NAME=START:MIN:MAX[:C_END[:R_END]], e.g. exploration=0.7:0.1:2.0"
    name, equals, rest = text.partition("=")
    name = name.strip()
    try:
        numbers = [float(part) for part in rest.split(":")]
    except ValueError:
        raise MatanuiError(f"{usage}; {text!r} has something that is not a number") from None
    if not equals or not 3 <= len(numbers) <= 5:
        raise MatanuiError(f"{usage}, not {text!r}")
    start, low, high = (check_value(name, x, parameters) for x in numbers[:3])
    if not low <= start <= high or low == high:
        raise MatanuiError(f"--param {name}: needs MIN < MAX and START between them (got {text!r})")
    whole = parameters.kinds[name] is int
    # A whole-number parameter is perturbed by at least 1, or theta +- c_k could round alike.
    c_end = numbers[3] if len(numbers) > 3 else max((high - low) * C_END_SHARE, 1.0 if whole else 0.0)
    r_end = numbers[4] if len(numbers) > 4 else R_END
    if not (c_end > 0 and r_end > 0):
        raise MatanuiError(f"--param {name}: C_END and R_END must be positive (got {text!r})")
    return Param(name, float(start), float(low), float(high), c_end, r_end)


@dataclass(frozen=True)
class Spsa:
    """The schedule of a run of `iterations` iterations; `seed` draws the perturbations."""

    params: tuple[Param, ...]
    iterations: int
    seed: int = 0

    def __post_init__(self) -> None:
        names = [p.name for p in self.params]
        if not names:
            raise MatanuiError("name at least one parameter to tune, e.g. --param exploration=0.7:0.1:2.0")
        if len(set(names)) < len(names):
            raise MatanuiError(f"a parameter is named twice: {', '.join(names)}")
        if self.iterations < 1:
            raise MatanuiError(f"--iterations must be at least 1, not {self.iterations}")

    def start(self) -> Theta:
        return {p.name: p.start for p in self.params}

    def c(self, param: Param, k: int) -> float:
        return param.c_end * (self.iterations / k) ** GAMMA

    def a(self, param: Param, k: int) -> float:
        big_a = A_SHARE * self.iterations
        return param.r_end * param.c_end ** 2 * ((big_a + self.iterations) / (big_a + k)) ** ALPHA

    def delta(self, k: int) -> dict[str, int]:
        """Iteration k's signs, from the seed and k alone (a resumed run draws the same)."""
        rng = random.Random(f"spsa/{self.seed}/{k}")
        return {p.name: rng.choice((-1, 1)) for p in self.params}

    def points(self, theta: Theta, k: int) -> tuple[Theta, Theta]:
        """theta + c_k delta and theta - c_k delta, clamped to the bounds."""
        delta = self.delta(k)
        plus = {p.name: p.clamp(theta[p.name] + self.c(p, k) * delta[p.name]) for p in self.params}
        minus = {p.name: p.clamp(theta[p.name] - self.c(p, k) * delta[p.name]) for p in self.params}
        return plus, minus

    def update(self, theta: Theta, k: int, result: float) -> Theta:
        """theta after iteration k, whose plus agent scored `result` (wins minus losses)."""
        delta = self.delta(k)
        return {p.name: p.clamp(theta[p.name] + self.a(p, k) * result * delta[p.name] / self.c(p, k))
                for p in self.params}


@dataclass(frozen=True)
class Step:
    """One iteration, as the journal keeps it."""

    k: int
    theta: Theta  # before this iteration's update
    delta: dict[str, int]
    plus: Theta
    minus: Theta
    result: float  # the plus agent's wins minus losses over its pair
    theta_after: Theta


# Plays iterations given as (k, plus, minus); returns each one's result.
Objective = Callable[[Sequence[tuple[int, Theta, Theta]]], list[float]]


def optimise(spsa: Spsa, objective: Objective, done: Sequence[Step] = (), batch: int = 1,
             on_step: Callable[[Step], None] | None = None) -> Theta:
    """Run the iterations `done` lacks and return the final theta. Iterations are played
    `batch` at a time around the theta before their batch, then applied in order; `done`
    (a journal's steps) resumes a run where it stopped, even within a batch."""
    steps = list(done)
    theta = steps[-1].theta_after if steps else spsa.start()
    while len(steps) < spsa.iterations:
        k = len(steps) + 1
        first = k - (k - 1) % batch  # the first iteration of k's batch
        centre = steps[first - 1].theta if first < k else theta
        trials = [(j, *spsa.points(centre, j)) for j in range(k, min(first + batch, spsa.iterations + 1))]
        for (j, plus, minus), result in zip(trials, objective(trials), strict=True):
            after = spsa.update(theta, j, result)
            step = Step(j, theta, spsa.delta(j), plus, minus, result, after)
            steps.append(step)
            theta = after
            if on_step is not None:
                on_step(step)
    return theta


def averaged(steps: Sequence[Step]) -> Theta:
    """theta averaged over the second half of the run (Polyak-Ruppert averaging): SPSA's
    last theta wanders with the last few results, their mean much less. At least one step."""
    half = steps[len(steps) // 2:]
    return {name: sum(step.theta_after[name] for step in half) / len(half) for name in half[0].theta_after}


def agent_at(agent: str, spsa: Spsa, theta: Theta) -> str:
    """The agent's name with the values `theta` plays with written in."""
    return with_settings(agent, {p.name: p.played(theta[p.name]) for p in spsa.params})


def check_agent(agent: str, game: str, spsa: Spsa) -> None:
    """MatanuiError unless `agent` is a search that can play `spsa`'s parameters in `game`."""
    fixed = split_settings(agent)[1].keys() & {p.name for p in spsa.params}
    if fixed:
        raise MatanuiError(f"--agent {agent!r} fixes {', '.join(sorted(fixed))}, which --param tunes")
    make_agent(agent_at(agent, spsa, spsa.start()), game)


def _play(specs: Sequence[MatchSpec], workers: int) -> Iterator[GameOutcome]:
    """The batch's games, in order. A batch may hold more games than the machine has cores
    (a heuristic's games are fast), so it runs on no more processes than cores."""
    return iter(run(specs, workers=min(workers, os.cpu_count() or 1)))


def game_pairs(game: str, agent: str, spsa: Spsa, workers: int = 1, seed: int = 0,
               options: dict | None = None) -> Objective:
    """The objective of a real run: iteration k plays pair k of the arena's paired schedule
    (seed + k - 1, characters rotating) between `agent` at plus and at minus."""

    def play(trials: Sequence[tuple[int, Theta, Theta]]) -> list[float]:
        pairs: list[tuple[str, tuple[MatchSpec, ...]]] = []
        for k, plus, minus in trials:
            a, b = agent_at(agent, spsa, plus), agent_at(agent, spsa, minus)
            # Two points that play alike (both clamped, or rounded to one whole number) tell nothing.
            pairs.append((a, () if a == b else paired_specs(game, a, b, 1, seed, options, first=k - 1)[0]))
        outcomes = _play([spec for _, pair in pairs for spec in pair], workers)
        return [sum(2 * game_score(next(outcomes), a) - 1 for _ in pair) for a, pair in pairs]

    return play


def field_games(game: str, agent: str, spsa: Spsa, field: str, players: int, workers: int = 1,
                seed: int = 0, options: dict | None = None) -> Objective:
    """The objective against a field (`matanui tune --field`): iteration k plays game k of
    the arena's field schedule (`arena --players`: its seed, seat and characters) twice, the
    agent at plus and then at minus in the same seat against `players - 1` of `field`; the
    result is twice plus's share of the win less minus's (-2 to 2, as a pair's)."""

    def play(trials: Sequence[tuple[int, Theta, Theta]]) -> list[float]:
        games: list[tuple[str, str, list[MatchSpec]]] = []
        for k, plus, minus in trials:
            a, b = agent_at(agent, spsa, plus), agent_at(agent, spsa, minus)
            specs = [] if a == b else [field_specs(game, [name, field], players, 1, seed, options,
                                                   first=k - 1)[0] for name in (a, b)]
            games.append((a, b, specs))
        outcomes = _play([spec for *_, specs in games for spec in specs], workers)
        return [2 * (credit(next(outcomes), a) - credit(next(outcomes), b)) if specs else 0.0
                for a, b, specs in games]

    return play


class TuneJournal:
    """A run's settings (the first line) and its iterations (one JSON line each, written as
    they finish): rerunning the same command resumes; other settings are refused."""

    def __init__(self, path: Path, settings: dict) -> None:
        self.path = path
        self.settings = json.loads(json.dumps(settings))
        self.steps: list[Step] = []
        if not path.exists():
            return
        lines = path.read_text(encoding="utf-8").splitlines()
        try:
            stored = json.loads(lines[0])["spsa"] if lines else None
            steps = [Step(**json.loads(line)) for line in lines[1:]]
        except (ValueError, TypeError, KeyError) as error:
            raise MatanuiError(f"{path}: not a journal of `matanui tune` ({error}); "
                               "move the file away to start afresh") from error
        if stored is not None and stored != self.settings:
            raise MatanuiError(f"{path} is a run with other settings ({json.dumps(stored)}); rerun that "
                               "command to resume it, or choose another --out")
        self.steps = steps

    def append(self, step: Step) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            if handle.tell() == 0:
                handle.write(json.dumps({"spsa": self.settings}) + "\n")
            handle.write(json.dumps(asdict(step)) + "\n")
        self.steps.append(step)


def run_settings(game: str, agent: str, spsa: Spsa, batch: int, options: dict | None,
                 field: str | None = None, players: int = 2) -> dict:
    """What determines a run, as its journal's first line records it (the field and the
    players only where the run plays against a field)."""
    settings = {"game": game, "agent": agent, "params": [asdict(p) for p in spsa.params],
                "iterations": spsa.iterations, "seed": spsa.seed, "batch": batch,
                "options": sorted((options or {}).items())}
    if field is not None:
        settings.update(field=field, players=players)
    return settings
