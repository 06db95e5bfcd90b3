"""The Quest for the Masks heuristic: legal, seeded, sees only its seat, and plays far better
than chance."""

from matanui.ai import RandomAgent, SeatView, make_agent
from matanui.ai.heuristics.masks import Heuristic
from tests.ledger import rule
from tests.masks.helpers import GAME, arranged


def play(agents, seed, players=("tahu", "kopaka"), options=None):
    state = GAME.new_game(seed, list(players), {"first_player": seed % 2, **(options or {})})
    while not state.is_over:
        seat = state.current_player
        state.apply(agents[seat].act(SeatView(state, seat)))
    return state


def test_the_heuristic_beats_the_random_agent_clearly():
    wins = 0
    games = 300
    characters = GAME.characters()
    for i in range(games):
        seat = i % 2
        agents = [RandomAgent(i), RandomAgent(i)]
        agents[seat] = make_agent("heuristic", "masks", seed=i)
        pair = (characters[i % 6], characters[(i + 1 + i // 6 % 5) % 6])
        wins += play(agents, i, pair).winners == [seat]
    assert wins / games > 0.9


def test_the_heuristic_is_seeded_and_finishes_every_map():
    for options in ({}, {"map": "b"}, {"map": "both"}, {"short": True}):
        first = play([Heuristic(1), Heuristic(2)], 7, options=options)
        again = play([Heuristic(1), Heuristic(2)], 7, options=options)
        assert first.history == again.history and first.winners
        assert first.turn < 300


@rule("MASKS-MISSION-AVOID")
def test_the_heuristic_walks_round_a_mission_space():
    # Pohatu on C4: the Challenge space C2 lies two steps West, through the Mission space C3.
    state = arranged(positions=["C4", "I10"])
    assert Heuristic(0).act(SeatView(state, 0)) != "move:W"


def test_the_heuristic_spends_a_bonus_only_to_change_the_outcome():
    # Strength: Tahu 800 against Kopaka 700 (Tahu lands). Kopaka holds a Bonus: +200 wins it.
    state = arranged(("tahu", "kopaka"), positions=["D2", "I10"], hands=[[33], [34]], challenge_pile=[4])
    state.apply("move:E")
    assert Heuristic(0).act(SeatView(state, 0)) == "pass"  # already winning
    state.apply("pass")
    assert Heuristic(0).act(SeatView(state, 1)) == "play:34"


@rule("MASKS-GA-ANY-TIME")
def test_the_heuristic_plays_a_drawn_penalty_only_when_the_opponent_is_near_a_challenge():
    # Pohatu draws Penalty #37 on E1. Gali on B6 is one step from the Challenge space B5; on I10
    # she is four steps from the nearest one.
    for gali, choice in (("B6", "play:37"), ("I10", "pass")):
        state = arranged(positions=["E2", gali], action_piles=[[37], []])
        state.apply("move:W")
        assert state.phase == "anytime"
        assert Heuristic(0).act(SeatView(state, 0)) == choice
