"""The searches' evaluations: what they read, and that they are fitted to real outcomes."""

from __future__ import annotations

import math
import random

import pytest

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.heuristics import masks as masks_heuristic
from matanui.studies import evalfit


def _masks_position(seed: int, steps: int):
    game = games.get("masks")
    state = game.new_game(seed, game.characters()[:2])
    players = [make_agent("heuristic", "masks", seed + seat) for seat in range(2)]
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(players[state.current_player].act(SeatView(state, state.current_player)))
    return state


def test_a_toa_with_more_great_masks_needs_fewer_landings():
    obs = _masks_position(3, 0).observation(None)
    before = masks_heuristic.landings_needed(obs, 0)
    obs["toa"][0]["masks"] += 2
    obs["toa"][0]["mask_pile"] -= 2
    assert masks_heuristic.landings_needed(obs, 0) < before


def test_a_toa_outmatched_in_every_skill_needs_more_landings():
    obs = _masks_position(3, 0).observation(None)
    before = masks_heuristic.landings_needed(obs, 0)
    obs["toa"][0]["skills"] = [skill - 1000 for skill in obs["toa"][0]["skills"]]
    assert masks_heuristic.landings_needed(obs, 0) > before


@pytest.mark.parametrize("steps", [0, 25, 60])
def test_the_masks_evaluation_is_zero_sum_and_reads_only_public_facts(steps):
    state = _masks_position(11, steps)
    values = masks_heuristic.evaluate(state)
    assert values[0] == -values[1] and -1 < values[0] < 1
    # Another deal of what no seat sees changes nothing the evaluation reads.
    twin = SeatView(state, state.current_player).determinize(random.Random(5))
    assert masks_heuristic.evaluate(twin) == values


def test_a_coin_has_the_log_loss_of_ln_2():
    assert evalfit.log_loss([(3.0, 1.0), (-1.0, 0.0), (0.5, 0.5)], 0.0) == pytest.approx(math.log(2))


def test_the_fit_recovers_the_scale_that_made_the_outcomes():
    rng = random.Random(1)
    samples = []
    for _ in range(4000):
        lead = rng.uniform(-8, 8)
        samples.append((lead, float(rng.random() < 1 / (1 + math.exp(-2 * 0.3 * lead)))))
    assert evalfit.fit_scale(samples) == pytest.approx(0.3, abs=0.03)


def test_the_masks_lead_predicts_who_wins_heuristic_games():
    fit = evalfit.fit("masks", 40, seed=500)
    assert fit.current_log_loss < 0.64 < math.log(2)
    assert fit.scale == pytest.approx(masks_heuristic.EVALUATION_SCALE, abs=0.08)
