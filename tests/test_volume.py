"""10,000 random games of each game complete without error."""

import random

import pytest

from matanui import games
from tests.play import STEP_CAP, new_random_game

GAMES_PER_NAME = 10_000


@pytest.mark.slow
@pytest.mark.parametrize("name", games.names())
def test_ten_thousand_random_games_complete(name):
    rng = random.Random(2026)
    for seed in range(GAMES_PER_NAME):
        state = new_random_game(name, seed)
        for _ in range(STEP_CAP):
            if state.is_over:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
        assert state.is_over, f"seed {seed} did not end"
        state.audit()
