"""The batched Reconstruct plays the reference's games move for move (matanui.batch.check):
the same deals from the same seeds, the same legal actions, the same tensors for both seats,
the same outcomes. 100,000 games are checked by the benchmark command in docs/performance.md."""

import numpy as np
import pytest

from matanui.batch import batched_game, batched_names
from matanui.batch.check import Mismatch, check, check_games
from matanui.batch.reconstruct import BatchedReconstruct
from matanui.engine import IllegalAction, MatanuiError


def test_three_hundred_games_equal_the_reference_move_for_move():
    result = check(lambda n: BatchedReconstruct(n), range(300), batch=100)
    assert result.games == 300 and result.decisions > 300 * 20


def test_advanced_gameplay_trades_equal_the_reference():
    options = {"advanced": True}
    result = check(lambda n: BatchedReconstruct(n, options), range(1000, 1150), batch=75, options=options)
    assert result.games == 150


@pytest.mark.parametrize("options", [{"first_player": 1}, {"turn_limit": 14}])
def test_options_change_the_batched_game_as_they_change_the_reference(options):
    check(lambda n: BatchedReconstruct(n, options), range(40), batch=40, options=options)


def test_a_short_turn_limit_draws_games_in_both():
    batched = BatchedReconstruct(30, {"turn_limit": 10})
    check_games(batched, list(range(30)), {"turn_limit": 10})
    assert batched.over.all() and (batched.returns == 0).all()


def test_the_checker_catches_a_batched_game_that_deals_differently():
    batched = BatchedReconstruct(4)

    class Shifted(BatchedReconstruct):
        def _deal(self, where, seeds):
            super()._deal(where, seeds + 1)

    with pytest.raises(Mismatch, match="seed 0"):
        check_games(Shifted(4), [0, 1, 2, 3])
    check_games(batched, [0, 1, 2, 3])


def test_an_illegal_action_names_the_game_and_changes_nothing():
    batched = BatchedReconstruct(3)
    batched.reset(np.array([5, 6, 7]))
    before = batched.state.copy(), batched.piles.draw.copy(), batched.piles.rng.copy()
    actions = batched.legal_mask().argmax(axis=1)
    actions[1] = 1  # allow: legal only when a card waits for an answer
    with pytest.raises(IllegalAction, match=r"game 1: action 1 \(allow\) is not legal now; legal: \["):
        batched.step(actions)
    assert (batched.state == before[0]).all() and (batched.piles.draw == before[1]).all()
    assert (batched.piles.rng == before[2]).all()
    with pytest.raises(IllegalAction, match="actions are 0 to 313"):
        batched.step(np.array([0, 0, 999]))


@pytest.mark.parametrize("call, message", [
    (lambda b: b.reset([1, 2]), r"one entry per game: shape \(3,\)"),
    (lambda b: b.reset([1, 2, -3]), "seeds are whole numbers from 0"),
    (lambda b: b.reset([1.5, 2, 3]), "seeds must be whole numbers"),
    (lambda b: b.observe([0, 1, 2]), "seats are 0 to 1"),
    (lambda b: b.reset_where([1, 0, 1], [1, 2, 3]), "where must be booleans"),
])
def test_bad_calls_say_what_is_allowed(call, message):
    with pytest.raises(MatanuiError, match=message):
        call(BatchedReconstruct(3))


def test_bad_construction_is_refused_clearly():
    with pytest.raises(MatanuiError, match="num_games must be a whole number of at least 1"):
        BatchedReconstruct(0)
    with pytest.raises(MatanuiError, match="reconstruct has no option 'speed'"):
        BatchedReconstruct(2, {"speed": 3})
    with pytest.raises(MatanuiError, match="has no batched engine; the games with one are: "):
        batched_game("makuta")
    assert "reconstruct" in batched_names()


def test_reset_where_deals_only_the_games_asked():
    batched = BatchedReconstruct(2)
    batched.reset(np.array([1, 2]))
    batched.step(batched.legal_mask().argmax(axis=1))
    kept = batched.state[1].copy()
    batched.reset_where(np.array([True, False]), np.array([1, 0]))
    fresh = BatchedReconstruct(1)
    fresh.reset(np.array([1]))
    assert (batched.state[0] == fresh.state[0]).all() and (batched.state[1] == kept).all()


def test_random_playouts_count_steps_and_finished_games():
    result = BatchedReconstruct(16).random_playouts(seconds=0.2)
    assert result.steps > 0 and result.games > 0 and result.steps_per_second > 0
