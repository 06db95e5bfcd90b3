"""Invariants of Reconstruct's own variants over random games (the generic contract tests
cover the basic game)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from matanui import games
from matanui.engine import replay
from tests.ledger import rule
from tests.play import random_action

GAME = games.get("reconstruct")


@rule("RECON-ADVANCED-TRADE", "RECON-TURN-LIMIT")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), limit=st.integers(10, 300))
def test_advanced_games_keep_every_card_in_one_place_end_and_replay(seed, limit):
    state = GAME.new_game(seed, ["lewa", "pohatu"], {"advanced": True, "turn_limit": limit})
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(random_action(state, rng))
        state.audit()
        assert len(state.hands[0]) + len(state.hands[1]) + len(state.draw) + len(state.discard) \
            + (state.pending is not None) == 36
    assert state.turn <= limit + 1
    assert replay(state.record()).observation(None) == state.observation(None)


@rule("RECON-WIN")
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_a_won_game_has_exactly_one_complete_toa_nuva(seed):
    state = GAME.new_game(seed, ["tahu", "gali"])
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(random_action(state, rng))
    complete = [len(parts) == 7 for parts in state.observation(None)["built"]]
    if state.winners:
        assert complete[state.winners[0]] and not complete[1 - state.winners[0]]
    else:
        assert not any(complete)
