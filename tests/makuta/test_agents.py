"""Quest for Makuta: the heuristic player and the terminal drawing."""

from matanui.ai import RandomAgent, SeatView, make_agent
from matanui.arena import play_match
from matanui.games.makuta.render import render
from tests.makuta.scenario import GAME, arranged, play

GAMES = 200


def test_the_heuristic_beats_the_random_player_clearly():
    wins = losses = 0
    for i in range(GAMES):
        seat = i % 2
        agents = [RandomAgent(i), RandomAgent(i + 1)]
        agents[seat] = make_agent("heuristic", "makuta", seed=i)
        result = play_match("makuta", ["tahu", "lewa"], agents, seed=i)
        wins += result.winners == (seat,)
        losses += result.winners == (1 - seat,)
    assert wins / GAMES > 0.75 and losses <= 2


def test_the_heuristic_sees_only_its_seat_and_plays_legal_moves():
    state = GAME.new_game(9, ["tahu", "lewa", "gali", "onua"])
    agents = [make_agent("heuristic", "makuta", seed=s) for s in range(4)]
    for _ in range(400):
        if state.is_over:
            break
        seat = state.current_player
        action = agents[seat].act(SeatView(state, seat))
        assert action in state.legal_actions()
        state.apply(action)


def test_render_draws_the_island_the_cards_and_the_decision():
    state = arranged(boards=[["makuta", 2, -4, -10]], cards=[["kanohi:pakari", "key:fire"], []],
                     tokens={"2,0": "rahi:muaka:18", "0,-5": "lock:fire-water-air",
                             "-2,-3": "key:air"}, revealed=["0,-5"], dice=[2])
    play(state, "roll", "move:S")
    text = render(GAME, state.observation(0))
    assert "Quest for Makuta" in text and "Tahu[/] (you) to decide" in text
    assert "MM" in text and "SS" in text and "[bold red]T*[/]" in text
    assert "Kanohi Pakari; Turaga -; Keys fire key" in text
    assert "L5 at 0,-5: fire/water/air (brown)" in text
    assert "Rolled 2: 1 left; path start > 0,2" in text
    other = render(GAME, state.observation(1))
    assert "Kanohi ?; Turaga -; Keys ?" in other
    lines = text.splitlines()
    assert max(len(line) for line in lines if "[" not in line) <= 100
