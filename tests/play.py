"""Helpers for tests that play whole games through the contract."""

from __future__ import annotations

import random

from matanui import games
from matanui.engine import State

STEP_CAP = 200_000  # far beyond any real game; reaching it means a game that never ends


def new_random_game(name: str, seed: int, players: int | None = None) -> State:
    """A game of `name` with a seeded choice of player count and characters."""
    game = games.get(name)
    rng = random.Random(seed)
    count = players or rng.randint(game.min_players, game.max_players)
    return game.new_game(seed, rng.sample(game.characters(), count))


def random_action(state: State, rng: random.Random) -> str:
    actions = state.legal_actions()
    assert actions, f"no legal action before the end (history {state.history[-5:]})"
    return actions[rng.randrange(len(actions))]


def observations(state: State) -> list[dict]:
    return [state.observation(seat) for seat in [None, *range(state.num_players)]]


def advance(state: State, rng: random.Random, steps: int) -> State:
    """Play up to `steps` random actions (fewer if the game ends); the same state back."""
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(random_action(state, rng))
    return state


def under_way(state: State, rng: random.Random, steps: int) -> State:
    """Play up to `steps` random actions, stopping short of one that would end the game: a
    game still to be decided however short its games are (a new game's may be); the same
    state back."""
    for _ in range(steps):
        action = random_action(state, rng)
        trial = state.clone()
        trial.apply(action)
        if trial.is_over:
            break
        state.apply(action)
    return state
