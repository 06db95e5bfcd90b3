"""Sequential probability ratio test between two agents, as chess engines test a change
(Fishtest, cutechess): games are played until the evidence accepts H0 (the first agent is
no stronger than `elo0`) or H1 (it is at least `elo1` stronger), with error rates `alpha`
(accepting H1 when H0 holds) and `beta` (the reverse).

The log-likelihood ratio is the generalized SPRT's normal approximation (the one Fishtest
and cutechess use for the logistic Elo model):

    LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

with N samples of mean score m and variance v, and s0, s1 the scores that elo0 and elo1
predict. A sample is a game pair (`paired`: the same seed with the seats swapped, scored
0, 1/4, 1/2, 3/4 or 1, the pentanomial model) or a single game (0, 1/2, 1, the trinomial
model). Pairs cancel the luck of the deal that both games share, so their variance, and the
games needed, is smaller; treating the two games of a pair as independent would understate
the variance whenever they are correlated, which is why Fishtest moved to pairs.

The test runs over the samples in schedule order and stops at the first one whose LLR
crosses a bound, whatever order the games finished in: a test resumed from its journal,
or played on more workers, reaches the same verdict after the same number of samples.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from matanui.engine import MatanuiError

from .tournament import GameOutcome, Journal, MatchSpec, paired_specs, round_robin, run

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
GAME_SCORES = (0.0, 0.5, 1.0)
PRIOR_COUNT = 0.5  # pseudo-samples per score category (see mean_and_variance)
Z95 = 1.959964


def expected_score(elo: float) -> float:
    """The score an agent `elo` points stronger is expected to make (logistic Elo)."""
    return 1 / (1 + 10 ** (-elo / 400))


def elo_of(score: float) -> float:
    """The Elo difference a score means: infinite for a score of 0 or 1."""
    if score <= 0 or score >= 1:
        return math.copysign(math.inf, score - 0.5)
    return -400 * math.log10(1 / score - 1)


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds: H0 is accepted below the first, H1 above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def mean_and_variance(counts: Sequence[float], values: Sequence[float]) -> tuple[int, float, float]:
    """(samples, mean, variance) of a score distribution given as counts per score value.
    The variance is estimated with PRIOR_COUNT pseudo-samples in every category, so that
    the first few samples (all alike, say) do not claim a variance of nothing and end the
    test at once; with more samples the prior fades away."""
    n = sum(counts)
    mean = sum(c * v for c, v in zip(counts, values, strict=True)) / n if n else 0.5
    smoothed = [c + PRIOR_COUNT for c in counts]
    total = sum(smoothed)
    centre = sum(c * v for c, v in zip(smoothed, values, strict=True)) / total
    variance = sum(c * (v - centre) ** 2 for c, v in zip(smoothed, values, strict=True)) / total
    return n, mean, variance


def llr(counts: Sequence[float], values: Sequence[float], elo0: float, elo1: float) -> float:
    """The generalized SPRT's log-likelihood ratio of H1 against H0 (see the module)."""
    n, mean, variance = mean_and_variance(counts, values)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


@dataclass
class SprtResult:
    agent: str
    opponent: str
    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str  # "pentanomial" (game pairs) or "trinomial" (single games)
    counts: list[int]  # per score value, for `agent`: losses first
    games: int
    score: float
    interval95: tuple[float, float]
    elo: float
    elo_interval95: tuple[float, float]
    llr: float
    lower_bound: float
    upper_bound: float
    verdict: str  # "H1" (agent at least elo1 stronger), "H0", or "undecided" (the cap was reached)

    def to_dict(self) -> dict[str, object]:
        """For JSON, which has no infinity: an Elo of +-infinity (a score of 1 or 0) is null."""
        row = asdict(self)
        row["elo"] = _finite(self.elo)
        row["elo_interval95"] = [_finite(x) for x in self.elo_interval95]
        return row


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


class Sprt:
    """An SPRT between `agent` and `opponent` in `game`, at most `max_samples` samples."""

    def __init__(self, game: str, agent: str, opponent: str, *, elo0: float, elo1: float,
                 alpha: float = 0.05, beta: float = 0.05, paired: bool = True, max_samples: int = 1000,
                 seed: int = 0, options: dict | None = None, data: str | None = None) -> None:
        if not elo1 > elo0:
            raise MatanuiError(f"--sprt needs elo0 < elo1, e.g. 0,100 (got {elo0:g},{elo1:g})")
        if not (0 < alpha < 0.5 and 0 < beta < 0.5):
            raise MatanuiError("alpha and beta must lie between 0 and 0.5, e.g. 0.05")
        if agent == opponent:
            raise MatanuiError("an SPRT needs two different agents")
        self.game, self.agent, self.opponent = game, agent, opponent
        self.elo0, self.elo1, self.alpha, self.beta = elo0, elo1, alpha, beta
        self.paired = paired
        self.samples = schedule(game, agent, opponent, max_samples, seed, options, paired, data)

    @property
    def values(self) -> tuple[float, ...]:
        return PAIR_SCORES if self.paired else GAME_SCORES

    def sample_score(self, outcomes: Sequence[GameOutcome]) -> float:
        return sum(game_score(o, self.agent) for o in outcomes) / len(outcomes)

    def play(self, workers: int = 1, journal: Journal | None = None,
             on_sample: Callable[[SprtResult], None] | None = None,
             on_game: Callable[[GameOutcome], None] | None = None) -> tuple[SprtResult, list[GameOutcome]]:
        """Play samples in batches (a few per worker) until a bound is crossed or the samples
        run out; games already in the journal are not played again. `on_game` is told of
        each game as it finishes, `on_sample` of the test after each sample in order."""
        counts = [0] * len(self.values)
        played: list[GameOutcome] = []
        batch = max(1, 2 * workers)
        low, high = bounds(self.alpha, self.beta)
        result = self._result(counts)
        for start in range(0, len(self.samples), batch):
            samples = self.samples[start:start + batch]
            outcomes = run([spec for sample in samples for spec in sample], workers=workers, journal=journal,
                           on_result=on_game)
            by_spec = dict(zip([s for sample in samples for s in sample], outcomes, strict=True))
            for sample in samples:
                games = [by_spec[spec] for spec in sample]
                played += games
                counts[self.values.index(self.sample_score(games))] += 1
                result = self._result(counts)
                if on_sample is not None:
                    on_sample(result)
                if not low < result.llr < high:
                    return result, played
        return result, played

    def _result(self, counts: list[int]) -> SprtResult:
        low, high = bounds(self.alpha, self.beta)
        value = llr(counts, self.values, self.elo0, self.elo1)
        verdict = "H1" if value >= high else "H0" if value <= low else "undecided"
        n, mean, variance = mean_and_variance(counts, self.values)
        half = Z95 * math.sqrt(variance / n) if n else 0.5
        interval = (max(0.0, mean - half), min(1.0, mean + half))
        return SprtResult(
            agent=self.agent, opponent=self.opponent, elo0=self.elo0, elo1=self.elo1, alpha=self.alpha,
            beta=self.beta, model="pentanomial" if self.paired else "trinomial", counts=list(counts),
            games=sum(counts) * (2 if self.paired else 1), score=mean, interval95=interval,
            elo=elo_of(mean), elo_interval95=(elo_of(interval[0]), elo_of(interval[1])),
            llr=value, lower_bound=low, upper_bound=high, verdict=verdict)


def game_score(outcome: GameOutcome, agent: str) -> float:
    """`agent`'s score in a two-player game: 1 a win, 1/2 a draw (no winner or both), 0 a loss."""
    seat = outcome.agents.index(agent)
    if not outcome.winners or len(outcome.winners) > 1:
        return 0.5
    return 1.0 if seat in outcome.winners else 0.0


def schedule(game: str, a: str, b: str, samples: int, seed: int, options: dict | None,
             paired: bool, data: str | None = None) -> list[tuple[MatchSpec, ...]]:
    if paired:
        return list(paired_specs(game, a, b, samples, seed, options, data))
    return [(spec,) for spec in round_robin(game, [a, b], samples, seed, options, data)]
