"""Glicko-2 as Glickman's "Example of the Glicko-2 system" (2013) computes it."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matanui.arena.glicko2 import SCALE, START_RD, Rating, Result, idle, rate

ratings = st.builds(Rating, rating=st.floats(800, 2400), rd=st.floats(30, 350),
                    volatility=st.floats(0.03, 0.09))
BOUNDED = settings(max_examples=60, deadline=None)


def test_the_papers_worked_example_gives_its_printed_numbers():
    player = Rating(1500, 200, 0.06)
    period = [Result(Rating(1400, 30), 1), Result(Rating(1550, 100), 0), Result(Rating(1700, 300), 0)]

    after = rate(player, period, tau=0.5)

    # The paper rounds as it goes (mu' = -0.2069, phi' = 0.8722 on its internal scale), then
    # prints 1464.06, 151.52 and 0.05999: each within its last printed digit.
    assert round((after.rating - 1500) / SCALE, 4) == -0.2069
    assert round(after.rd / SCALE, 4) == 0.8722
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    player = Rating(1500, 200, 0.06)
    assert rate(player, []) == idle(player, 1)
    assert rate(player, []).rating == 1500 and rate(player, []).rd > 200


def test_idle_periods_cannot_be_negative():
    with pytest.raises(ValueError, match="at least 0"):
        idle(Rating(), -1)


@BOUNDED
@given(ratings, ratings)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(player, opponent):
    assert rate(player, [Result(opponent, 1)]).rating >= player.rating
    assert rate(player, [Result(opponent, 0)]).rating <= player.rating


@BOUNDED
@given(ratings, ratings, st.sampled_from([0.0, 0.5, 1.0]))
def test_a_game_leaves_the_deviation_below_that_of_sitting_the_period_out(player, opponent, score):
    after = rate(player, [Result(opponent, score)])
    sat_out = idle(Rating(player.rating, player.rd, after.volatility), 1, max_rd=float("inf"))
    assert after.rd < sat_out.rd


def test_a_settled_player_against_an_unknown_opponent_may_end_less_sure():
    """Glicko-2 itself, not a bug: the period's growth (the volatility) outweighs what one
    game against a 350-RD newcomer (or a far weaker or stronger player) tells, so "RD shrinks
    after a game" holds against the period's widened RD (the property above), not always
    against the RD before it."""
    assert rate(Rating(1500, 30), [Result(Rating(1500, 350), 1)]).rd > 30


@BOUNDED
@given(ratings, st.floats(0, 1000), st.floats(0, 1000))
def test_idle_periods_widen_the_deviation_up_to_350(player, first, more):
    once, longer = idle(player, first), idle(player, first + more)
    assert player.rd <= once.rd <= longer.rd <= START_RD or player.rd > START_RD
    assert idle(player, 1e9).rd == START_RD
