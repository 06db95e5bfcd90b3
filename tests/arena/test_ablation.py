"""`python -m matanui.studies.ablation`: the heuristic with one phase played at random, in game
pairs against the heuristic, to see which decisions its judgement matters in."""

import pytest

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.studies.ablation import Ablated, ablate, main, phases


def test_the_ablated_player_is_the_heuristic_outside_its_phase_and_random_within():
    state = games.get("makuta").new_game(3, ["tahu", "lewa"])
    heuristic, ablated = make_agent("heuristic", "makuta", 5), Ablated("makuta", "move", 5)
    random_moves = 0
    for _ in range(150):
        if state.is_over:
            break
        view = SeatView(state, state.current_player)
        chosen = ablated.act(view)
        assert chosen in state.legal_actions()
        if state.observation(None)["phase"] != "move" or len(state.legal_actions()) == 1:
            assert chosen == heuristic.act(view)
        else:
            random_moves += chosen != heuristic.act(view)
        state.apply(heuristic.act(view))
    assert random_moves > 0


def test_the_phases_are_those_with_a_choice():
    found = phases("makuta", count=2)
    assert {"move", "bonus", "place"} <= set(found)
    assert "roll" in found  # a Miru holder may levitate instead of rolling


def test_an_ablation_reports_its_pairs_and_a_score_within_its_interval():
    result = ablate("makuta", "bonus", pairs=3, seed=11)
    assert result.pairs == sum(result.counts) == 3
    low, high = result.interval95
    assert 0.0 <= low <= result.score <= high <= 1.0


def test_an_unknown_phase_is_refused_with_the_phases_there_are(capsys):
    with pytest.raises(SystemExit):
        main(["makuta", "--phases", "dance", "--pairs", "1"])
    assert "no phase dance with a choice in makuta; the phases are: move" in capsys.readouterr().err
