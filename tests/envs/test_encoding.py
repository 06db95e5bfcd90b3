"""The shared encoding: a fixed action list covering every legal action, and observation
tensors in [0, 1] seen from the observing seat."""

import random

import numpy as np
import pytest

from matanui import games
from matanui.engine import MatanuiError
from matanui.envs.encoding import Layout, encoding_for
from matanui.envs.table import Table


@pytest.mark.parametrize("options", [{}, {"advanced": True}])
def test_every_legal_action_has_an_index_and_the_mask_is_exactly_the_legal_ones(options):
    encoding = encoding_for("reconstruct", 2)
    rng = random.Random(5)
    for seed in range(20):
        table = Table.deal(encoding, seed, None, options)
        state = table.state
        while not state.is_over:
            legal = state.legal_actions()
            mask = table.mask()
            assert sorted(encoding.actions[i] for i in np.flatnonzero(mask)) == sorted(legal)
            for seat in (0, 1):
                features = table.features(seat)
                assert features.dtype == np.float32 and features.min() >= 0 and features.max() <= 1
            table.play(encoding.index[legal[rng.randrange(len(legal))]])


def test_observations_are_seen_from_the_observing_seat():
    encoding = encoding_for("reconstruct", 2)
    state = games.get("reconstruct").arrange(["tahu", "kopaka"], {"first_player": 0}, hands=[[1], [8]],
                                             built=[["head", "tool"], []])
    views = [encoding.observation_layout.views(encoding.observe(state, seat)) for seat in (0, 1)]
    head, tool = encoding.part_index["head"], encoding.part_index["tool"]
    assert views[0]["built"][0, head] == 1 and views[0]["built"][0, tool] == 1
    assert views[1]["built"][1, head] == 1 and views[1]["built"][0].sum() == 0
    assert views[0]["hand"][encoding.card_index[1]] == 1  # and the card drawn to start the turn
    assert views[0]["hand"].sum() == len(state.observation(0)["hand"]) == 2
    assert views[1]["hand"][encoding.card_index[8]] == 1
    assert views[0]["to_decide"][0] == 1 and views[1]["to_decide"][0] == 0
    public = encoding.observation_layout.views(encoding.observe(state, None))
    assert public["hand"].sum() == 0 and public["to_decide"][0] == 0


def test_memory_keeps_what_a_seat_has_held():
    encoding = encoding_for("reconstruct", 2)
    table = Table.deal(encoding, 3, ["tahu", "kopaka"], {})
    first_hand = list(table.state.observation(0)["hand"])
    rng = random.Random(0)
    for _ in range(30):
        legal = table.state.legal_actions()
        table.play(encoding.index[legal[rng.randrange(len(legal))]])
    held = encoding.memory_layout.views(table.memory[0])["held"]
    assert all(held[encoding.card_index[card]] == 1 for card in first_hand)


def test_layout_pieces_are_views_of_one_tensor():
    layout = Layout()
    layout.add("a", 2)
    layout.add("b", 2, 3)
    tensor = np.zeros(layout.size, np.float32)
    layout.views(tensor)["b"][1, 2] = 1
    assert layout.size == 8 and tensor[7] == 1


def test_games_and_player_counts_without_an_encoding_are_refused():
    with pytest.raises(MatanuiError, match="reconstruct is for 2 to 2 players, not 3"):
        encoding_for("reconstruct", 3)
    with pytest.raises(MatanuiError, match="name 2 characters, one per seat"):
        Table.deal(encoding_for("reconstruct", 2), 0, ["tahu"], {})
