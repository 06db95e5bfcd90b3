"""The analysis of a finished game over HTTP (`GET /api/games/{id}/analysis`): judged decision
by decision in the replay worker, returned as far as it has come, complete in the end; refused
while the game runs."""

from __future__ import annotations

import random
import time

from matanui.server.analyses import FULL_BUDGET_DECISIONS, LEAST_ITERATIONS, budget

from .helpers import create, play_out, receive_view
from .test_play import hello


def finished_game(client) -> str:
    created = create(client)
    with hello(client, created["id"], created["seats"][0]["token"]) as ws:
        play_out(ws, random.Random(1))
    return created["id"]


def test_a_finished_games_analysis_fills_in_and_ends_complete_with_its_turning_points(client):
    game_id = finished_game(client)
    first = client.get(f"/api/games/{game_id}/analysis")
    assert first.status_code == 200, first.text
    answers = [first.json()]
    deadline = time.time() + 120
    while not answers[-1]["complete"]:
        assert time.time() < deadline, answers[-1]
        time.sleep(0.5)
        answers.append(client.get(f"/api/games/{game_id}/analysis").json())
    done = answers[-1]
    assert done["total"] == len(done["decisions"]) > 0
    numbers = [decision["number"] for decision in done["decisions"]]
    assert numbers == sorted(numbers)
    assert set(done["turning_points"]) <= set(numbers) and len(done["turning_points"]) == 3
    assert done["marks"] == {"blunder": 0.3, "mistake": 0.2, "inaccuracy": 0.1}
    for decision in done["decisions"]:
        assert 0 <= decision["before"] <= 1 and 0 <= decision["after"] <= 1
        assert decision["mark"] in (None, "inaccuracy", "mistake", "blunder")
        assert decision["words"] and decision["best_words"]
    assert client.get(f"/api/games/{game_id}/analysis").json() == done  # kept: not worked out again


def test_a_running_game_is_not_analysed(client):
    created = create(client)
    with hello(client, created["id"], created["seats"][0]["token"]) as ws:
        receive_view(ws)
        refused = client.get(f"/api/games/{created['id']}/analysis")
    assert refused.status_code == 409
    assert "analysed once it is over" in refused.json()["message"]
    assert client.get("/api/games/nosuchgame/analysis").status_code == 404


def test_a_long_games_decisions_share_a_budget_with_a_floor():
    assert budget(10) == budget(FULL_BUDGET_DECISIONS) > budget(FULL_BUDGET_DECISIONS * 2)
    assert budget(1_000_000) == LEAST_ITERATIONS
