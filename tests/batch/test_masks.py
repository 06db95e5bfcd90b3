"""The batched Quest for the Masks engine equals the reference engine move for move: same
deals from the same seed, same legal masks, same observation+memory tensors for both seats,
same returns."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from matanui import games
from matanui.batch import masks_rules as r
from matanui.batch.check import check_games
from matanui.batch.masks import BatchedMasks
from matanui.engine.errors import MatanuiError
from matanui.envs.encoding import encoding_for
from matanui.envs.table import Table
from matanui.games.masks.cards import DATA
from matanui.games.masks.rules import load_game

GAME = games.get("masks")
ENCODING = encoding_for(GAME, 2)


def deal_both(seeds: list[int], options: dict | None = None, game=GAME) -> tuple[BatchedMasks, list[Table]]:
    batch = BatchedMasks(len(seeds), options, game=game)
    batch.reset(np.array(seeds, np.int64))
    return batch, [Table.deal(batch.encoding, seed, None, options) for seed in seeds]


def batch_piles(row: np.ndarray, seat: int) -> dict[str, list[int]]:
    """One seat's piles of a batched game, as the reference keeps them (top = last)."""
    actions = r.ACTION_PILE + r.ACTIONS * seat
    masks = r.MASK_PILE + r.MASK_CARDS_PER_TOA * seat
    return {"action_pile": list(row[actions:actions + row[r.ACTION_PILE_N + seat]]),
            "mask_pile": list(row[masks:masks + row[r.MASK_PILE_N + seat]])}


@pytest.mark.parametrize("options", [None, {"map": "b", "short": True}, {"map": "both", "first_player": 1}])
def test_a_deal_is_the_reference_deal_from_the_same_seed(options):
    seeds = [0, 1, 2, 7, 12345, 2**40 + 3, 2**63 - 1]
    batch, tables = deal_both(seeds, options)
    for i, table in enumerate(tables):
        state, row = table.state, batch.state[i]
        for seat in (0, 1):
            assert batch_piles(row, seat) == {"action_pile": state.action_pile[seat],
                                              "mask_pile": state.mask_pile[seat]}
            assert row[r.TOA_CELLS + seat] == state.toa_cells[seat]
        challenges = list(row[r.CHALLENGE_PILE:r.CHALLENGE_PILE + row[r.CHALLENGE_PILE_N]])
        missions = list(row[r.MISSION_PILE:r.MISSION_PILE + row[r.MISSION_PILE_N]])
        assert (challenges, missions) == (state.challenge_pile, state.mission_pile)
        assert row[r.TURN_PLAYER] == state.turn_player
    check_games(BatchedMasks(len(seeds), options), seeds, options)  # the tensors and masks too


def play_alongside(seeds: list[int], options: dict | None = None, game=GAME) -> int:
    """Random legal moves in both engines, compared before every decision (batch.check);
    the decisions made."""
    return check_games(BatchedMasks(len(seeds), options, game=game), seeds, options)


def test_two_hundred_random_games_equal_the_reference_move_for_move():
    play_alongside(list(range(200)))


@pytest.mark.parametrize("options", [{"map": "b", "short": True, "turn_limit": 60},
                                     {"map": "both", "first_player": 0, "turn_limit": 80}])
def test_other_maps_and_variants_equal_the_reference(options):
    play_alongside(list(range(1000, 1040)), options)


def test_a_data_pack_is_played_by_its_own_cards(tmp_path):
    """The kernels read the cards from the game object: a pack whose Rewards draw four and
    whose Tahu flies at 950 plays as the reference plays it."""
    edits = {"cards.toml": ('effect = "draw"\namount = 2', 'effect = "draw"\namount = 4'),
             "toa.toml": ("flight = 500, shielding = 900", "flight = 950, shielding = 900")}
    for name, (old, new) in edits.items():
        text = (DATA / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text.replace(old, new), encoding="utf-8")
    pack = load_game(tmp_path)
    assert pack.cards.actions[27].amount == 4 and pack.cards.toa["tahu"].skills[0] == 950
    play_alongside(list(range(60)), {"turn_limit": 120}, pack)


def test_an_illegal_action_names_the_game_and_changes_nothing():
    batch, _ = deal_both([3, 4])
    before = batch.state.copy()
    legal = batch.legal_mask()
    bad = int(np.flatnonzero(~legal[1])[0])
    with pytest.raises(MatanuiError, match=r"game 1: action \d+ .* not legal"):
        batch.step(np.array([int(np.flatnonzero(legal[0])[0]), bad]))
    assert np.array_equal(batch.state, before)


@pytest.mark.parametrize(("bad", "words"), [(np.zeros(3, np.int64), "one entry per game"),
                                            (np.zeros(2, np.float64), "whole numbers")])
def test_actions_of_the_wrong_shape_or_type_are_refused(bad, words):
    batch, _ = deal_both([3, 4])
    before = batch.state.copy()
    with pytest.raises(MatanuiError, match=f"actions must .*{words}"):
        batch.step(bad)
    assert np.array_equal(batch.state, before)


def test_a_game_that_is_over_ignores_its_action():
    batch, _ = deal_both([5])
    batch.state[0, r.PHASE] = r.OVER
    before = batch.state.copy()
    batch.step(np.array([-1]))
    assert np.array_equal(batch.state, before)


def test_random_playouts_report_steps_and_games_for_bench():
    batch = BatchedMasks(4)
    result = batch.random_playouts(seconds=0.2, seed=9)
    assert (result.game, result.players) == ("masks", 2)
    assert result.steps > 0 and result.games > 0 and result.seconds >= 0.2
    with pytest.raises(MatanuiError, match="not been dealt"):
        batch.to_state(0)  # the playouts dealt their own seeds


def test_playout_runs_go_on_with_the_games_they_hold():
    """bench's doubling runs of 64, 128, ... decisions must add up to whole Masks games
    (some 500 decisions), not restart each row at every run."""
    batch = BatchedMasks(8)
    counts = np.zeros((8, 2), np.int64)
    finished = 0
    for _ in range(12):
        batch._playouts(64, 100, counts)
        finished += counts[:, 1].sum()
    assert finished >= 8  # 768 decisions per row: most rows finish a game
    assert (counts[:, 0] == 64).all()


def test_play_random_until_stops_where_the_seat_decides_or_the_game_is_over():
    batch, _ = deal_both(list(range(40)))
    seats = np.array([i % 2 for i in range(40)])
    batch.play_random_until(seats, np.arange(40, dtype=np.uint64))
    assert ((batch.current_player == seats) | batch.over).all()
    for i in (0, 1, 17):  # the positions it reached are the reference's
        table = Table(ENCODING, batch.to_state(i))
        assert np.array_equal(batch.legal_mask()[i], table.mask().astype(bool))


def normalised(observation: dict) -> dict:
    """An observation with its discard piles sorted (the batch keeps them as sets)."""
    observation = dict(observation, challenge_discard=sorted(observation["challenge_discard"]),
                       mission_discard=sorted(observation["mission_discard"]))
    observation["toa"] = [dict(toa, action_discard=sorted(toa["action_discard"]))
                          for toa in observation["toa"]]
    return observation


def test_to_state_is_the_reference_position_and_plays_on_as_the_reference():
    seeds = list(range(500, 520))
    batch, tables = deal_both(seeds)
    chooser = random.Random(7)
    followers = {}
    for step in range(400):
        for i, table in enumerate(tables):
            if table.state.is_over:
                continue
            if step % 97 == 5:
                state = batch.to_state(i)
                assert state.legal_actions() == table.state.legal_actions()
                for seat in (None, 0, 1):
                    assert normalised(state.observation(seat)) == normalised(table.state.observation(seat))
                followers.setdefault(i, state)
        actions = np.zeros(len(seeds), np.int64)
        for i, table in enumerate(tables):
            if not table.state.is_over:
                action = chooser.choice(table.state.legal_actions())
                actions[i] = ENCODING.index[action]
                table.play_id(action)
                if i in followers:
                    followers[i].apply(action)
        batch.step(actions)
    for i, state in followers.items():  # the same generator and agenda: the same future
        assert normalised(state.observation(0)) == normalised(tables[i].state.observation(0))


def test_to_state_refuses_a_game_not_dealt_or_out_of_range():
    batch = BatchedMasks(2)
    with pytest.raises(MatanuiError, match="not been dealt"):
        batch.to_state(0)
    with pytest.raises(MatanuiError, match="from 0 to 1"):
        batch.to_state(2)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1))
@example(seed=2**63 - 1)
@example(seed=2**32)
def test_any_seed_deals_the_reference_deal(seed):
    batch, (table,) = deal_both([seed])
    state, row = table.state, batch.state[0]
    assert [batch_piles(row, seat) for seat in (0, 1)] == [
        {"action_pile": state.action_pile[seat], "mask_pile": state.mask_pile[seat]} for seat in (0, 1)]
    assert row[r.TURN_PLAYER] == state.turn_player
    assert np.array_equal(batch.observe(np.array([1]))[0], table.features(1))


def test_bad_options_and_sizes_are_refused_clearly():
    with pytest.raises(MatanuiError, match="map"):
        BatchedMasks(2, {"map": "z"})
    with pytest.raises(MatanuiError, match="num_games"):
        BatchedMasks(0)
    batch, _ = deal_both([1, 2])
    before = batch.state.copy()
    with pytest.raises(MatanuiError, match="seeds must have one entry per game"):
        batch.reset(np.zeros(3, np.int64))
    with pytest.raises(MatanuiError, match="seeds are whole numbers from 0"):
        batch.reset(np.array([1, -5]))
    with pytest.raises(MatanuiError, match="seats are 0 to 1"):
        batch.observe(np.array([0, 2]))
    with pytest.raises(MatanuiError, match="out must be a bool array"):
        batch.legal_mask(out=np.zeros((2, 3), np.bool_))
    with pytest.raises(MatanuiError, match="out must be a float32 array"):
        batch.observe(np.array([0, 1]), out=np.zeros((2, batch.observation_size), np.float64))
    assert np.array_equal(batch.state, before)


def test_a_game_of_other_rules_is_refused_not_played_by_old_kernels():
    newer = copy.copy(GAME)
    newer.rules_version = "99"
    with pytest.raises(MatanuiError, match=r"rules version 3.*rules version 99"):
        BatchedMasks(2, game=newer)


def test_out_arrays_are_filled_in_place():
    batch, tables = deal_both([1, 2])
    mask = np.ones((2, batch.num_actions), np.bool_)
    features = np.full((2, batch.observation_size), 7.0, np.float32)
    assert batch.legal_mask(out=mask) is mask and batch.observe(np.array([0, 1]), out=features) is features
    assert np.array_equal(mask[1], tables[1].mask().astype(bool))
    assert np.array_equal(features[1], tables[1].features(1))


def test_reset_where_deals_anew_only_the_games_marked_done():
    batch, _ = deal_both([1, 2, 3])
    batch.step(np.array([int(np.flatnonzero(row)[0]) for row in batch.legal_mask()]))
    before = batch.state.copy()
    batch.reset_where(np.array([False, True, False]), np.array([0, 77, 0]))
    assert np.array_equal(batch.state[[0, 2]], before[[0, 2]])
    fresh = Table.deal(ENCODING, 77, None, None)
    assert np.array_equal(batch.observe(np.array([0, 1, 0]))[1], fresh.features(1))
    assert batch.to_state(1).observation(0) == fresh.state.observation(0)
