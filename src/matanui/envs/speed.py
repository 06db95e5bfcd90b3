"""Speed of the research adapters: `python -m matanui.envs.speed [--seconds S]`.

Plays uniformly random legal actions through each adapter for every game and prints steps
per second, next to the bare engine's (`matanui bench` measures that alone). The gap is
the price of encoding observations, masks and, for OpenSpiel, cloning and history digests.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np

from matanui import games

from .encoding import encoding_for
from .table import Table

CASES = (("reconstruct", 2), ("masks", 2), ("makuta", 2), ("makuta", 6))


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
        state = game.new_game(seed, rng.sample(game.characters(), players))
        steps = 0
        while not state.is_over:
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            steps += 1
        return steps

    return play


def table_game(name: str, players: int) -> Callable[[int], int]:
    """What PettingZoo and Gymnasium do per step: the acting seat's features and mask."""
    encoding = encoding_for(name, players)

    def play(seed: int) -> int:
        rng = np.random.default_rng(seed)
        table = Table.deal(encoding, seed, None, {})
        steps = 0
        while not table.state.is_over:
            table.features(table.state.current_player)
            table.play(int(rng.choice(np.flatnonzero(table.mask()))))
            steps += 1
        return steps

    return play


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
    print("| game | players | engine steps/s | PettingZoo/Gymnasium steps/s | OpenSpiel steps/s |")
    print("|---|---|---|---|---|")
    for name, players in CASES:
        rates = [_timed(make(name, players), args.seconds)
                 for make in (engine_game, table_game, openspiel_game)]
        print(f"| {name} | {players} | " + " | ".join(f"{r:,.0f}" for r in rates) + " |")


if __name__ == "__main__":
    main()
