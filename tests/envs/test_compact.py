"""Makuta's compact encoding: a grid of squares around the observing seat's pawn, one plane
per feature, plus the pieces that are not per space; the same actions and memory as the full
encoding, which stays the default."""

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matanui.engine import MatanuiError
from matanui.envs.encoding import encoding_for, encoding_variants
from matanui.envs.encodings.makuta import GRID_PLANES, RADIUS
from matanui.envs.table import Table

pytest.importorskip("pettingzoo", reason="the adapters need the 'research' extra")

import gymnasium
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from matanui.envs.gymnasium import MatanuiEnv
from matanui.envs.pettingzoo import env


def played(players, seed, moves, options=None):
    """A compact-encoded Makuta table after `moves` random legal actions (or the end)."""
    table = Table.deal(encoding_for("makuta", players, "compact"), seed, None, options or {})
    rng = random.Random(seed)
    for _ in range(moves):
        if table.state.is_over:
            break
        legal = table.state.legal_actions()
        table.play_id(legal[rng.randrange(len(legal))])
    return table


def plane(views, name):
    return views["grid"][GRID_PLANES.index(name)]


def test_the_full_encoding_stays_the_default_and_compact_is_a_named_option():
    assert encoding_variants("makuta") == ("full", "compact")
    assert encoding_variants("reconstruct") == ("full",)
    assert encoding_for("makuta", 2).variant == "full"
    assert encoding_for("makuta", 2, "compact").variant == "compact"


@pytest.mark.parametrize("players", [2, 6])
def test_compact_keeps_the_actions_and_memory_and_is_a_sixth_of_the_size(players):
    full, compact = encoding_for("makuta", players), encoding_for("makuta", players, "compact")
    assert compact.actions == full.actions
    assert compact.memory_size == full.memory_size
    assert compact.observation_size * 6 < full.observation_size
    side = 2 * RADIUS + 1
    assert compact.observation_layout.views(np.zeros(compact.observation_size))["grid"].shape == (
        len(GRID_PLANES), side, side)


@pytest.mark.parametrize(("players", "options"), [(2, {"turn_limit": 30}), (3, {"turn_limit": 20}),
                                                  (6, {"turn_limit": 10})])
def test_every_compact_value_is_in_0_1_before_clipping(players, options):
    encoding = encoding_for("makuta", players, "compact")
    layout = encoding.observation_layout
    for seed in range(2):
        table = played(players, seed, 0, options)
        rng = random.Random(seed)
        while not table.state.is_over:
            for seat in [None, *range(players)]:
                raw = np.zeros(encoding.observation_size, np.float32)
                encoding.encode(table.state.observation(seat), layout.views(raw))
                assert raw.min() >= 0 and raw.max() <= 1, {
                    piece: float(view.max()) for piece, view in layout.views(raw).items() if view.max() > 1}
            legal = table.state.legal_actions()
            table.play_id(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("seed", "moves"), [(4, 120), (5, 400), (6, 700)])
def test_the_grid_is_centred_on_the_observing_seats_pawn_and_places_what_lies_around_it(seed, moves):
    table = played(3, seed, moves)
    state = table.state
    encoding = table.encoding
    for seat in range(3):
        obs = state.observation(seat)
        views = encoding.observation_layout.views(encoding.observe(state, seat))
        island = state.island
        cx, cy = island.xy[island.by_name[obs["pawns"][seat]]]
        assert plane(views, "me")[RADIUS, RADIUS] == 1
        assert plane(views, "board")[RADIUS, RADIUS] == 1
        for name in obs["tokens"]:
            x, y = island.xy[island.by_name[name]]
            if abs(x - cx) <= RADIUS and abs(y - cy) <= RADIUS:
                row, col = y - cy + RADIUS, x - cx + RADIUS
                kinds = {face.partition(":")[0] for face in obs["tokens"][name]}
                assert all(plane(views, kind)[row, col] > 0 for kind in kinds)
        for name in obs["rahi"]:
            x, y = island.xy[island.by_name[name]]
            if abs(x - cx) <= RADIUS and abs(y - cy) <= RADIUS:
                assert plane(views, "rahi")[y - cy + RADIUS, x - cx + RADIUS] == 1
        for name, how in obs["portals"].items():
            x, y = island.xy[island.by_name[name]]
            if abs(x - cx) <= RADIUS and abs(y - cy) <= RADIUS:
                assert plane(views, "open_portal")[y - cy + RADIUS, x - cx + RADIUS] == (how == "open")
        # Every other pawn's offset from mine, whether or not it lies inside the grid.
        for row, other in enumerate(encoding.relative(obs)):
            x, y = island.xy[island.by_name[obs["pawns"][other]]]
            assert views["offsets"][row, 0] == 1
            assert views["offsets"][row, 1] * 128 - 64 == pytest.approx(x - cx, abs=1e-4)
            assert views["offsets"][row, 2] * 128 - 64 == pytest.approx(y - cy, abs=1e-4)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**31 - 1), moves=st.integers(0, 300))
def test_any_position_puts_my_pawn_at_the_centre_in_0_1_and_hides_what_resampling_changes(
        players, seed, moves):
    table = played(players, seed, moves)
    encoding = table.encoding
    rng = random.Random(seed)
    for seat in range(players):
        raw = np.zeros(encoding.observation_size, np.float32)
        views = encoding.observation_layout.views(raw)
        encoding.encode(table.state.observation(seat), views)
        assert raw.min() >= 0 and raw.max() <= 1
        assert plane(views, "me")[RADIUS, RADIUS] == 1
        assert np.array_equal(encoding.observe(table.state.determinize(seat, rng), seat),
                              encoding.observe(table.state, seat))


def test_the_compact_observation_shows_nothing_a_resampled_state_changes():
    table = played(2, 7, 80)
    encoding = table.encoding
    rng = random.Random(0)
    for seat in range(2):
        seen = encoding.observe(table.state, seat)
        for _ in range(3):
            assert np.array_equal(encoding.observe(table.state.determinize(seat, rng), seat), seen)


def test_compact_is_much_denser_than_the_full_observation():
    table = played(2, 3, 100)
    full, compact = encoding_for("makuta", 2), table.encoding
    obs = table.state.observation(0)
    full_share = np.count_nonzero(full.tensor(obs)) / full.observation_size
    compact_share = np.count_nonzero(compact.tensor(obs)) / compact.observation_size
    assert compact_share > 4 * full_share


@pytest.mark.parametrize(("game", "encoding", "message"), [
    ("makuta", "tiny", "makuta's encodings are full, compact, not 'tiny'"),
    ("makuta", None, "makuta's encodings are full, compact, not None"),
    ("reconstruct", "compact", "reconstruct's encodings are full, not 'compact'"),
])
def test_an_unknown_encoding_is_refused_naming_the_ones_there_are(game, encoding, message):
    with pytest.raises(MatanuiError, match=message):
        encoding_for(game, 2, encoding)
    with pytest.raises(MatanuiError, match=message):
        env(game, encoding=encoding)
    with pytest.raises(MatanuiError, match=message):
        MatanuiEnv(game, encoding=encoding)


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
def test_the_pettingzoo_env_passes_its_checks_with_the_compact_encoding():
    settings = {"players": 3, "options": {"turn_limit": 20}, "encoding": "compact"}
    api_test(env("makuta", **settings), num_cycles=100)
    seed_test(lambda: env("makuta", **settings), num_cycles=50)
    assert env("makuta", **settings).observation_space("player_0")["observation"].shape == (
        encoding_for("makuta", 3, "compact").observation_size + encoding_for("makuta", 3).memory_size,)


def test_the_gymnasium_env_passes_check_env_with_the_compact_encoding():
    check_env(gymnasium.make("matanui/makuta-v0", opponents="random", encoding="compact", seat="random",
                             options={"turn_limit": 20}).unwrapped)
