"""Agents: seeded, legal, and the heuristic plays better than chance."""

import pytest

from matanui import games
from matanui.ai import RandomAgent, SeatView, make_agent
from matanui.arena import play_match
from matanui.engine import MatanuiError


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("level", ["random", "heuristic"])
def test_agents_choose_legal_actions_and_are_seeded(name, level):
    game = games.get(name)
    chars = game.characters()[: game.min_players]
    results = [
        play_match(name, chars, [make_agent(level, name, seed=s) for s in range(len(chars))], seed=4)
        for _ in range(2)
    ]
    assert results[0] == results[1]


def test_reconstruct_heuristic_beats_random_clearly():
    wins = 0
    games_played = 300
    for i in range(games_played):
        heuristic_seat = i % 2
        agents = [RandomAgent(i), RandomAgent(i)]
        agents[heuristic_seat] = make_agent("heuristic", "reconstruct", seed=i)
        result = play_match("reconstruct", ["tahu", "kopaka"], agents, seed=i)
        wins += result.winners == (heuristic_seat,)
    assert wins / games_played > 0.7


def test_an_agent_sees_only_its_seat():
    state = games.get("reconstruct").new_game(1, ["tahu", "kopaka"])
    view = SeatView(state, 0)
    assert view.observation() == state.observation(0)
    assert not hasattr(view, "state")


def test_unknown_agents_are_refused():
    with pytest.raises(MatanuiError, match="no agent named"):
        make_agent("oracle", "reconstruct")
