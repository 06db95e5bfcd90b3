"""Win-rate matrices and Bradley-Terry ratings (on the Elo scale) with bootstrap intervals."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .stats import wilson_interval
from .tournament import GameOutcome

ELO_SCALE = 400 / math.log(10)


@dataclass
class PairRecord:
    games: int = 0
    score: float = 0.0  # wins + half the draws, for the row agent

    def rate(self) -> float:
        return self.score / self.games if self.games else float("nan")


def scores(outcome: GameOutcome) -> list[tuple[str, str, float]]:
    """(agent, opponent, score) for each ordered pair of seats in a game: 1 a win, 0.5 a
    draw, 0 a loss. In a many-player game each seat meets every other seat."""
    result = []
    seats = range(len(outcome.agents))
    for i in seats:
        for j in seats:
            if i == j or outcome.agents[i] == outcome.agents[j]:
                continue
            if not outcome.winners or (i in outcome.winners and j in outcome.winners):
                score = 0.5
            else:
                score = 1.0 if i in outcome.winners else 0.0 if j in outcome.winners else 0.5
            result.append((outcome.agents[i], outcome.agents[j], score))
    return result


def win_matrix(outcomes: Sequence[GameOutcome]) -> dict[str, dict[str, PairRecord]]:
    matrix: dict[str, dict[str, PairRecord]] = {}
    for outcome in outcomes:
        for agent, opponent, score in scores(outcome):
            record = matrix.setdefault(agent, {}).setdefault(opponent, PairRecord())
            record.games += 1
            record.score += score
    return matrix


def matrix_interval(record: PairRecord) -> tuple[float, float]:
    return wilson_interval(record.score, record.games)


def bradley_terry(pairs: Sequence[tuple[str, str, float]], agents: Sequence[str],
                  iterations: int = 200) -> dict[str, float]:
    """Strengths by the minorise-maximise algorithm (Hunter 2004), as Elo-scale ratings
    centred on 0. A small prior (one draw against a virtual average player) keeps an agent
    that never lost or never won finite."""
    wins = {a: 0.5 for a in agents}
    meetings: dict[tuple[str, str], float] = {}
    for a, b, score in pairs:
        wins[a] += score
        key = (a, b) if a < b else (b, a)
        meetings[key] = meetings.get(key, 0.0) + 0.5  # each game is listed from both sides
    strength = {a: 1.0 for a in agents}
    for _ in range(iterations):
        updated = {}
        for a in agents:
            denominator = 1.0 / (strength[a] + 1.0)  # the prior's virtual opponent
            for (x, y), count in meetings.items():
                if a in (x, y):
                    other = y if a == x else x
                    denominator += count / (strength[a] + strength[other])
            updated[a] = wins[a] / denominator
        mean_log = sum(math.log(v) for v in updated.values()) / len(updated)
        strength = {a: v / math.exp(mean_log) for a, v in updated.items()}
    return {a: ELO_SCALE * math.log(v) for a, v in strength.items()}


@dataclass
class Rating:
    agent: str
    rating: float
    low: float
    high: float


def ratings_with_intervals(outcomes: Sequence[GameOutcome], resamples: int = 200,
                           seed: int = 0) -> list[Rating]:
    """Bradley-Terry ratings with 95% intervals from resampling whole games."""
    agents = sorted({a for o in outcomes for a in o.agents})
    per_game = [scores(o) for o in outcomes]
    point = bradley_terry([p for game in per_game for p in game], agents)
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {a: [] for a in agents}
    for _ in range(resamples):
        chosen = [per_game[rng.randrange(len(per_game))] for _ in per_game]
        fitted = bradley_terry([p for game in chosen for p in game], agents, iterations=60)
        for agent in agents:
            samples[agent].append(fitted[agent])
    result = []
    for agent in agents:
        values = sorted(samples[agent])
        low = values[int(0.025 * (len(values) - 1))]
        high = values[int(0.975 * (len(values) - 1))]
        result.append(Rating(agent, point[agent], low, high))
    return sorted(result, key=lambda r: -r.rating)
