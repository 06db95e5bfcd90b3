"""The shared encoding: a fixed action list covering every legal action, and observation
tensors in [0, 1] seen from the observing seat."""

import random

import numpy as np
import pytest

from matanui import games
from matanui.engine import MatanuiError
from matanui.envs.encoding import Layout, encoding_for
from matanui.envs.table import Table

CASES = [
    ("reconstruct", 2, {}),
    ("reconstruct", 2, {"advanced": True}),
    ("masks", 2, {"map": "both", "turn_limit": 40}),
    ("masks", 2, {"map": "b", "short": True, "turn_limit": 40}),
    ("makuta", 3, {"turn_limit": 24}),
    ("makuta", 6, {"turn_limit": 12}),
]


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_every_legal_action_has_an_index_and_every_value_is_in_0_1(name, players, options):
    encoding = encoding_for(name, players)
    layout = encoding.observation_layout
    rng = random.Random(5)
    for seed in range(4):
        table = Table.deal(encoding, seed, None, options)
        state = table.state
        while not state.is_over:
            legal = state.legal_actions()
            chosen = sorted(table.action_id(i) for i in np.flatnonzero(table.mask()))
            assert chosen == sorted(legal)
            for seat in [None, *range(players)]:
                raw = np.zeros(encoding.observation_size, np.float32)  # before any clipping
                encoding.encode(state.observation(seat), layout.views(raw))
                assert raw.min() >= 0 and raw.max() <= 1, {
                    piece: float(view.max()) for piece, view in layout.views(raw).items() if view.max() > 1}
            assert table.memory.min() >= 0 and table.memory.max() <= 1
            table.play_id(legal[rng.randrange(len(legal))])


def test_makuta_space_actions_keep_their_index_wherever_the_boards_lie():
    encoding = encoding_for("makuta", 2)
    table = Table.deal(encoding, 1, ["tahu", "gali"], {})
    rng = random.Random(1)
    while len(table.state.observation(None)["boards"]) < 4:
        legal = table.state.legal_actions()
        table.play_id(legal[rng.randrange(len(legal))])
    obs = table.state.observation(0)
    names = list(table.state.island.names)
    indices = {encoding.index_of(f"put:{name}", obs) for name in names}
    assert len(indices) == len(names)
    assert all(encoding.action_of(encoding.index_of(f"to:{n}", obs), obs) == f"to:{n}" for n in names)
    start = encoding.index_of("to:start", obs)
    assert encoding.actions[start] == "to:@start/" + encoding.actions[start].split("/")[1]
    unlaid = encoding.index["to:@onu-caves/3"]
    if "onu-caves" not in {b[0] for b in obs["boards"]}:
        assert encoding.action_of(unlaid, obs) == "to:@onu-caves/3"


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
        table.play_id(legal[rng.randrange(len(legal))])
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
    with pytest.raises(MatanuiError, match="reconstruct is for exactly 2 players, not 3"):
        encoding_for("reconstruct", 3)
    with pytest.raises(MatanuiError, match="name 2 characters, one per seat"):
        Table.deal(encoding_for("reconstruct", 2), 0, ["tahu"], {})
