"""Glicko-2 ratings, as Glickman's "Example of the Glicko-2 system" (2013) gives them: a
rating, its deviation (RD: how unsure we are of it) and a volatility (how erratic the player
is), updated once per rating period from the games of that period. Plain Python, no imports
beyond `math`; the volatility is found by the Illinois algorithm (the paper's step 5).

tests/arena/test_glicko2.py reproduces the paper's worked example to its printed precision.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # the paper's 400 / ln 10: Glicko-2's internal scale
START_RATING = 1500.0
START_RD = 350.0  # an unrated player's deviation, and the most it ever grows to
START_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how much the volatility may change (the paper: 0.3 to 1.2)
EPSILON = 0.000001  # the convergence tolerance of the volatility's iteration (the paper's)


@dataclass(frozen=True)
class Rating:
    """A player's Glicko-2 rating on the usual (Glicko/Elo-like) scale."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of a rating period: the opponent's rating before the period and the score
    (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def idle(player: Rating, periods: float = 1.0, max_rd: float = START_RD) -> Rating:
    """The rating after `periods` rating periods without a game (fractions allowed): the
    deviation grows by the volatility each period, never beyond `max_rd`."""
    if periods < 0:
        raise ValueError(f"periods must be at least 0, not {periods}")
    phi = player.rd / SCALE
    grown = math.sqrt(phi * phi + periods * player.volatility ** 2) * SCALE
    return Rating(player.rating, min(grown, max_rd), player.volatility)


def rate(player: Rating, results: Sequence[Result], tau: float = TAU,
         epsilon: float = EPSILON) -> Rating:
    """The player's rating after one rating period whose games are `results` (the paper's
    steps 2 to 8). No games: only the deviation grows (`idle` for one period)."""
    if not results:
        return idle(player)
    mu, phi, sigma = (player.rating - START_RATING) / SCALE, player.rd / SCALE, player.volatility
    inverse_v = 0.0
    improvement = 0.0  # the sum of g(phi_j) (s_j - E_j)
    for result in results:
        mu_j, phi_j = (result.opponent.rating - START_RATING) / SCALE, result.opponent.rd / SCALE
        g, expected = _g(phi_j), _expected(mu, mu_j, phi_j)
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (result.score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    sigma = _volatility(phi, sigma, v, delta, tau, epsilon)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = mu + phi * phi * improvement
    return Rating(START_RATING + SCALE * mu, SCALE * phi, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float, epsilon: float) -> float:
    """The new volatility: the root of the paper's f(x) by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi * phi + v + ex
        return ex * (delta * delta - spread) / (2.0 * spread * spread) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > epsilon:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)
