"""Information-set MCTS: legal, seeded, and blind to what its seat cannot see."""

import random

import pytest

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.ismcts import ISMCTSAgent
from matanui.ai.policy import trained_games
from tests.play import new_random_game, random_action


def states_along_a_game(name: str, seed: int, every: int = 9, limit: int = 6):
    state = new_random_game(name, seed)
    rng = random.Random(seed)
    found = 0
    step = 0
    while not state.is_over and found < limit:
        if step % every == 0 and len(state.legal_actions()) > 1:
            found += 1
            yield state.clone()
        state.apply(random_action(state, rng))
        step += 1


@pytest.mark.parametrize("name", games.names())
def test_search_picks_a_legal_action_and_is_seeded(name):
    for state in states_along_a_game(name, 3, limit=3):
        view = SeatView(state, state.current_player)
        first = make_agent("ismcts@40", name, seed=8).act(view)
        assert first in state.legal_actions()
        assert make_agent("ismcts@40", name, seed=8).act(view) == first


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("level", ["random", "heuristic", "ismcts@30", "ismcts-infer@30", "ismcts-ppo@30"])
def test_no_bot_cheats(name, level):
    """Two states that differ only in what the deciding seat cannot see (the second is a
    resampling of the first from that seat's view, with the same past: what the seat saw at
    every earlier step) get the same decision under the same seed."""
    if level.startswith("ismcts-ppo") and name not in trained_games():
        pytest.skip(f"{name} has no trained policy")
    for number, state in enumerate(states_along_a_game(name, 17)):
        seat = state.current_player
        twin = state.determinize(seat, random.Random(number))
        assert twin.observation(seat) == state.observation(seat)
        view = SeatView(state, seat)
        choice = make_agent(level, name, seed=5).act(view)
        twin_choice = make_agent(level, name, seed=5).act(SeatView(twin, seat, view.observation_history()))
        assert choice == twin_choice


def test_a_time_budget_bounds_the_thinking_time():
    import time

    state = games.get("reconstruct").new_game(2, ["tahu", "kopaka"])
    agent = ISMCTSAgent(1, seconds=0.2)
    start = time.perf_counter()
    agent.act(SeatView(state, state.current_player))
    assert time.perf_counter() - start < 1.5  # generous: a loaded machine, but never unbounded
    assert agent.last_iterations > 0


def test_search_finds_the_winning_part():
    """With six parts built and a card for the seventh, the search adds it."""
    game = games.get("reconstruct")
    six = ["left-leg", "right-leg", "left-arm", "right-arm", "head", "kanohi-nuva"]
    state = game.arrange(["tahu", "kopaka"], {"first_player": 0}, hands=[[1, 6], [2]], draw_pile=[35],
                         built=[six, []])
    assert make_agent("ismcts@200", "reconstruct", seed=1).act(SeatView(state, 0)) == "add:1:tool"


def test_bad_budgets_are_refused():
    from matanui.engine import MatanuiError

    with pytest.raises(MatanuiError, match="a number of seconds above 0 and at most 60"):
        make_agent("hard@-1", "reconstruct")
    with pytest.raises(MatanuiError, match="whole number of iterations"):
        make_agent("ismcts@lots", "reconstruct")


@pytest.mark.parametrize("name", games.names())
def test_stopping_once_settled_never_changes_the_choice(monkeypatch, name):
    """A search that stops when the leader can no longer be caught chooses exactly what the
    whole iteration budget would have chosen."""
    import matanui.ai.ismcts as ismcts

    for state in states_along_a_game(name, 5, limit=4):
        view = SeatView(state, state.current_player)
        early = make_agent("ismcts@300", name, seed=2).act(view)
        monkeypatch.setattr(ismcts, "SETTLED_CHECK_EVERY", 10**9)
        full = make_agent("ismcts@300", name, seed=2).act(view)
        monkeypatch.undo()
        assert early == full


def test_an_obvious_move_stops_before_the_budget():
    game = games.get("reconstruct")
    six = ["left-leg", "right-leg", "left-arm", "right-arm", "head", "kanohi-nuva"]
    state = game.arrange(["tahu", "kopaka"], {"first_player": 0}, hands=[[1, 6], [2]], draw_pile=[35],
                         built=[six, []])
    agent = make_agent("ismcts@5000", "reconstruct", seed=1)
    assert agent.act(SeatView(state, 0)) == "add:1:tool"
    assert 0 < agent.last_iterations < 5000


def test_an_anchored_search_keeps_the_heuristic_move_unless_clearly_better():
    from matanui.ai.base import Agent

    class Stubborn(Agent):  # always plans the last legal action
        def act(self, view):
            return view.legal_actions()[-1]

    for state in states_along_a_game("reconstruct", 11, limit=3):
        view = SeatView(state, state.current_player)
        free = ISMCTSAgent(3, iterations=60).act(view)
        never = ISMCTSAgent(3, iterations=60, anchor=Stubborn(), anchor_margin=3.0).act(view)
        always = ISMCTSAgent(3, iterations=60, anchor=Stubborn(), anchor_margin=-3.0).act(view)
        assert never == view.legal_actions()[-1]  # no mean return beats another by 3 on a -1..1 scale
        assert always == free


def test_a_strong_prior_at_the_root_draws_the_search_to_its_action():
    """Progressive bias: the prior's action is tried first and, with a weight that dwarfs any
    return, chosen; without a prior the same search chooses as it always did."""
    state = next(states_along_a_game("reconstruct", 5, limit=1))
    view = SeatView(state, state.current_player)
    plain = make_agent("ismcts@60", "reconstruct", seed=2).act(view)
    favourite = next(a for a in state.legal_actions() if a != plain)
    biased = make_agent("ismcts@60", "reconstruct", seed=2)
    biased.prior, biased.prior_weight = (lambda _view: {favourite: 1.0}), 1000.0
    assert biased.act(view) == favourite
    assert make_agent("ismcts@60", "reconstruct", seed=2).act(view) == plain


def test_a_policys_priors_are_its_probabilities_over_the_legal_actions_only():
    state = next(states_along_a_game("reconstruct", 5, limit=1))
    view = SeatView(state, state.current_player)
    priors = make_agent("ppo", "reconstruct").priors(view)
    assert set(priors) == set(state.legal_actions())
    assert sum(priors.values()) == pytest.approx(1.0) and min(priors.values()) >= 0.0


def test_the_policy_biased_search_plays_legally_and_only_it_takes_a_prior_weight():
    from matanui.engine import MatanuiError

    state = next(states_along_a_game("masks", 4, limit=1))
    assert make_agent("ismcts-ppo@40{prior_weight=2}", "masks", seed=1).act(
        SeatView(state, state.current_player)) in state.legal_actions()
    with pytest.raises(MatanuiError, match="only ismcts-ppo has a prior"):
        make_agent("ismcts@40{prior_weight=2}", "masks")
    with pytest.raises(MatanuiError, match="no trained policy"):
        make_agent("ismcts-ppo@40", "makuta")
