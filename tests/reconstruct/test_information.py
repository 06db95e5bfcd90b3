"""What each seat may see of a Reconstruct game, and what it may not."""

import json
import random

from matanui import games
from tests.ledger import rule

GAME = games.get("reconstruct")


@rule("RECON-DISCARD", "RECON-STOP-WINDOW-ALWAYS")
def test_an_observation_shows_own_hand_and_the_discard_pile_but_no_hidden_card():
    state = GAME.arrange(["tahu", "kopaka"], {"first_player": 0},
                         hands=[[1, 2], [8, 15]], draw_pile=[30, 31, 32], discard=[5])
    mine = state.observation(0)
    assert mine["hand"] == [1, 2, 30]
    assert mine["hand_sizes"] == [3, 2]
    assert mine["discard"] == [5]
    text = json.dumps(mine)
    for hidden in ("8", "15", "31", "32"):
        assert f" {hidden}," not in text and f"[{hidden}" not in text and f" {hidden}]" not in text
    public = state.observation(None)
    assert public["hand"] is None


def test_determinize_resamples_the_opponents_hand_and_the_pile_order():
    state = GAME.new_game(5, ["tahu", "kopaka"], {"first_player": 0})
    hands = {tuple(sorted(state.determinize(0, random.Random(i)).hands[1])) for i in range(30)}
    piles = {tuple(state.determinize(0, random.Random(i)).draw[-3:]) for i in range(30)}
    assert len(hands) > 20 and len(piles) > 20
    for i in range(30):
        sampled = state.determinize(0, random.Random(i))
        assert sorted(sampled.hands[0]) == sorted(state.hands[0])  # own hand is known
        assert sampled.discard == state.discard


def test_determinize_does_not_inherit_the_true_future():
    """The sampled state's own generator is reseeded, so a searching agent cannot learn
    from it how the true pile will be reshuffled."""
    state = GAME.new_game(5, ["tahu", "kopaka"])
    a = state.determinize(0, random.Random(1))
    b = state.determinize(0, random.Random(2))
    assert a.rng.getstate() != state.rng.getstate() != b.rng.getstate()
