"""Fit a game's search evaluation against the outcomes of heuristic games.

A two-player game's heuristics may score a position for its search by
`evaluate(state) = [tanh(evaluation_scale * advantage(state)), ...]`, where `advantage` is
seat 0's lead in the game's own units. Read as a logistic model, P(seat 0 wins) =
1 / (1 + exp(-2 * scale * advantage)), so tanh gives 2 P - 1, the expected return. This
module plays heuristic self-play games, samples positions from each, and finds the scale of
greatest likelihood of the games' results (a draw counts half a win), by golden-section
search (the log-likelihood is concave in the scale). It prints the fitted scale beside the
heuristics' own, with the mean log-loss of each and of a coin (ln 2), so a better feature shows.

    python -m matanui.studies.evalfit masks --games 400 --seed 0
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from matanui import games
from matanui.ai import make_agent
from matanui.ai.heuristics import heuristics
from matanui.ai.play import deciding
from matanui.engine import State

POSITIONS_PER_GAME = 10  # positions of one game are correlated; a few from many games fit better
SCALE_RANGE = (1e-4, 5.0)


@dataclass(frozen=True)
class Fit:
    game: str
    positions: int
    scale: float  # the fitted evaluation_scale
    log_loss: float  # mean, at the fitted scale
    current_scale: float
    current_log_loss: float


def sample_positions(game_name: str, count: int, seed: int = 0) -> list[tuple[float, float]]:
    """(advantage, seat 0's result) at up to POSITIONS_PER_GAME positions of each of `count`
    heuristic self-play games, characters drawn at random."""
    game = games.get(game_name)
    advantage, _ = _fitted(game_name)
    characters = game.characters()
    samples: list[tuple[float, float]] = []
    for number in range(count):
        rng = random.Random(seed + number)
        state = game.new_game(seed + number, rng.sample(characters, 2))
        players = [make_agent("heuristic", game_name, (seed + number) * 2 + seat) for seat in range(2)]
        leads = [advantage(state) for _ in deciding(state, players)]
        winners = state.winners
        result = 0.5 if len(winners) != 1 else float(winners[0] == 0)
        samples += [(lead, result) for lead in rng.sample(leads, min(POSITIONS_PER_GAME, len(leads)))]
    return samples


def log_loss(samples: Sequence[tuple[float, float]], scale: float) -> float:
    """Mean negative log-likelihood of the results under P(win) = sigmoid(2 * scale * lead)."""
    total = 0.0
    for lead, result in samples:
        z = 2 * scale * lead
        # -log sigmoid(z) = log(1 + e^-z), written to stay finite for large |z|
        loss_win = max(-z, 0.0) + math.log1p(math.exp(-abs(z)))
        loss_loss = loss_win + z
        total += result * loss_win + (1 - result) * loss_loss
    return total / len(samples)


def fit_scale(samples: Sequence[tuple[float, float]], low: float = SCALE_RANGE[0],
              high: float = SCALE_RANGE[1], tolerance: float = 1e-4) -> float:
    """The scale of least log-loss in [low, high] (golden-section search)."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = log_loss(samples, c), log_loss(samples, d)
    while b - a > tolerance:
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = log_loss(samples, c)
        else:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = log_loss(samples, d)
    return (a + b) / 2


def fit(game_name: str, count: int, seed: int = 0) -> Fit:
    _, current = _fitted(game_name)
    samples = sample_positions(game_name, count, seed)
    scale = fit_scale(samples)
    return Fit(game_name, len(samples), scale, log_loss(samples, scale), current, log_loss(samples, current))


def _fitted(game_name: str) -> tuple[Callable[[State], float], float]:
    """The game's `advantage` and the `evaluation_scale` its heuristics declare (main offers
    only the games whose heuristics have both)."""
    kit = heuristics(game_name)
    if kit is None or kit.advantage is None or kit.evaluation_scale is None:
        raise ValueError(f"{game_name}'s heuristics have no advantage and evaluation scale to fit")
    return kit.advantage, kit.evaluation_scale


def main(argv: Sequence[str] | None = None) -> None:
    fitted = [name for name in games.names()
              if (kit := heuristics(name)) is not None and kit.advantage and kit.evaluation_scale]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=fitted)
    parser.add_argument("--games", type=int, default=400, help="heuristic games to sample")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    result = fit(args.game, args.games, args.seed)
    print(f"{result.game}: {result.positions} positions of {args.games} heuristic games: fitted "
          f"EVALUATION_SCALE {result.scale:.3f} (log-loss {result.log_loss:.4f}); the module's "
          f"{result.current_scale:.3f} ({result.current_log_loss:.4f}); a coin {math.log(2):.4f}")


if __name__ == "__main__":
    main()
