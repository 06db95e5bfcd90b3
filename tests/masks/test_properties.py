"""Invariants over random games of Quest for the Masks' own variants (the generic contract
tests cover the default game)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matanui.engine import RecordError, replay
from tests.ledger import rule
from tests.masks.helpers import GAME
from tests.play import random_action


@rule("MASKS-SETUP-BOTH-MATS", "MASKS-SHORT-GAME", "MASKS-TURN-LIMIT", "MASKS-NEVER-DISCARDED",
      "MASKS-CONTENTS")
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31), board=st.sampled_from(["a", "b", "both"]), short=st.booleans(),
       limit=st.integers(10, 200))
def test_random_games_of_every_variant_keep_every_card_end_and_replay(seed, board, short, limit):
    state = GAME.new_game(seed, random.Random(seed).sample(GAME.characters(), 2),
                          {"map": board, "short": short, "turn_limit": limit})
    rng = random.Random(seed)
    won = [[], []]
    while not state.is_over:
        state.apply(random_action(state, rng))
        state.audit()
        assert all(set(won[s]) <= set(state.won[s]) for s in (0, 1))  # never discarded
        won = [list(w) for w in state.won]
    assert state.turn <= limit + 1
    if state.winners:
        masks = state.observation(None)["toa"][state.winners[0]]["masks"]
        assert masks == (3 if short else 6)
    assert replay(state.record()).observation(None) == state.observation(None)


@rule("MASKS-GA-ANY-TIME")
def test_a_record_of_rules_version_2_is_refused_saying_both_versions():
    # Version 3 added the any-time window: a version 2 game's actions would not replay the same.
    record = GAME.new_game(1, ["tahu", "gali"]).record()
    record.rules_version = "2"
    with pytest.raises(RecordError, match="masks rules version 2, this matanui has version 3"):
        replay(record)
