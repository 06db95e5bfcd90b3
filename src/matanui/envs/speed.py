"""Speed of the research adapters: `python -m matanui.envs.speed [--seconds S]`.

Plays uniformly random legal actions through each adapter for every game and prints steps
per second, next to the bare engine's (`matanui bench` measures that alone). The gap is
the price of encoding observations, masks and, for OpenSpiel, cloning and history digests.
A game's other encodings (Makuta's compact one) get a row of their own for the adapters
(OpenSpiel uses the default encoding), with the share of nonzero observation floats.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from matanui import games
from matanui.ai.play import play_randomly

from .encoding import DEFAULT_VARIANT, encoding_for
from .table import Table

CASES = (("reconstruct", 2, DEFAULT_VARIANT), ("masks", 2, DEFAULT_VARIANT), ("makuta", 2, DEFAULT_VARIANT),
         ("makuta", 2, "compact"), ("makuta", 6, DEFAULT_VARIANT), ("makuta", 6, "compact"))
DENSITY_GAMES = 4  # seeded random games over which the nonzero share is counted


def _timed(step_game: Callable[[int], int], seconds: float) -> float:
    """Steps per second of `step_game(seed) -> steps`, over whole games until `seconds`."""
    start = time.perf_counter()
    steps = seed = 0
    while time.perf_counter() - start < seconds:
        steps += step_game(seed)
        seed += 1
    return steps / (time.perf_counter() - start)


def engine_game(name: str, players: int) -> Callable[[int], int]:
    game = games.get(name)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        return play_randomly(game.new_game(seed, rng.sample(game.characters(), players)), rng)

    return play


def table_game(name: str, players: int, variant: str = DEFAULT_VARIANT) -> Callable[[int], int]:
    """What PettingZoo and Gymnasium do per step: the acting seat's features and mask."""
    encoding = encoding_for(name, players, variant)

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        table = Table.deal(encoding, seed, None, {})
        steps = 0
        # Not ai/play.py's loop: what is timed is the adapters' own step (features, mask, action index).
        while not table.state.is_over:
            table.features(table.state.current_player)
            table.play(int(rng.choice(np.flatnonzero(table.mask()))))
            steps += 1
        return steps

    return play


def nonzero_share(name: str, players: int, variant: str) -> float:
    """The share of nonzero observation floats the acting seats see over seeded random games."""
    encoding = encoding_for(name, players, variant)
    nonzero = total = 0
    for seed in range(DENSITY_GAMES):
        rng = np.random.default_rng(seed)
        table = Table.deal(encoding, seed, None, {})
        while not table.state.is_over:  # the adapters' step, as table_game's (not ai/play.py's loop)
            seen = table.features(table.state.current_player)[:encoding.observation_size]
            nonzero += np.count_nonzero(seen)
            total += encoding.observation_size
            table.play(int(rng.choice(np.flatnonzero(table.mask()))))
    return nonzero / total


def openspiel_game(name: str, players: int) -> Callable[[int], int]:
    """A random playout as OpenSpiel's MCTS rollouts make it: clone, legal actions, apply."""
    from . import openspiel

    game = openspiel.load(name, players=players)

    def play(seed: int) -> int:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(256))
                continue
            state = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
        return steps

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0, help="time per game and adapter")
    args = parser.parse_args()
    print("| game | players | encoding | observation nonzero | engine steps/s | PettingZoo/Gymnasium steps/s "
          "| OpenSpiel steps/s |")
    print("|---|---|---|---|---|---|---|")
    for name, players, variant in CASES:
        share = f"{nonzero_share(name, players, variant):.1%}"
        adapters = f"{_timed(table_game(name, players, variant), args.seconds):,.0f}"
        if variant == DEFAULT_VARIANT:
            engine, spiel = (f"{_timed(make(name, players), args.seconds):,.0f}"
                             for make in (engine_game, openspiel_game))
        else:
            engine = spiel = "(as above)"
        print(f"| {name} | {players} | {variant} | {share} | {engine} | {adapters} | {spiel} |")


if __name__ == "__main__":
    main()
