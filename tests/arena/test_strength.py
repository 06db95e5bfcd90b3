"""The instruments behind docs/ai.md: a search's cost, and the oracle that measures luck."""

import random

import pytest

from matanui import games
from matanui.ai import make_agent
from matanui.engine import MatanuiError
from matanui.studies.strength import _TrueView, oracle_games, search_cost


def test_search_cost_counts_iterations_and_depth():
    cost = search_cost("reconstruct", "ismcts@20", searches=3)
    assert cost.searches == 3
    assert 0 < cost.iterations_median <= 20
    assert 1 <= cost.depth_median <= cost.depth_max
    assert cost.iterations_per_second > 0


def test_search_cost_wants_a_search():
    with pytest.raises(ValueError, match="not a search agent"):
        search_cost("reconstruct", "heuristic", searches=1)


def test_the_oracle_samples_the_truth_itself():
    state = games.get("reconstruct").new_game(4, ["tahu", "kopaka"])
    sample = _TrueView(state, 0).determinize(random.Random(1))
    assert sample.observation(1) == state.observation(1)  # the opponent's hand, not a guess
    assert sample is not state


def test_oracle_games_alternate_seats_and_score_every_game():
    result = oracle_games("reconstruct", "ismcts@10", "random", count=2)
    assert result.games == 2 and 0 <= result.score <= 2
    low, high = result.interval()
    assert low <= result.rate <= high


def test_no_interface_can_seat_the_oracle():
    with pytest.raises(MatanuiError, match="no agent named"):
        make_agent("oracle", "reconstruct")


def test_the_command_says_that_makutas_hard_is_no_search(capsys):
    from matanui.studies.strength import main
    with pytest.raises(SystemExit) as stopped:
        main(["search", "makuta", "--searches", "1"])
    assert stopped.value.code == 2
    assert "'hard' is not a search agent in makuta; name one" in capsys.readouterr().err
