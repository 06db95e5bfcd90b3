"""A `hard` bot's second counts from when its game asked for the move: a move that waited
for a worker searches only for what is left, and one that waited the whole second is played
by the game's heuristic at once. Budgets are checked as numbers, never by the clock. A bot that
cannot move makes its game unavailable with one log line, never a traceback and a wait."""

import logging
import random
import time

import pytest
from starlette.websockets import WebSocketDisconnect

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.ismcts import ISMCTSAgent
from matanui.server.bots import LEAST_SEARCH, bot_seed, choose_action, levels_offered
from tests.example_game import RUNNERS
from tests.play import new_random_game, random_action, under_way

from .helpers import create, receive_view


def a_position(name: str, seed: int):
    """A game some random moves in, with a choice to make."""
    rng = random.Random(seed)
    state = under_way(new_random_game(name, seed), rng, 7)
    while len(state.legal_actions()) < 2:
        state.apply(random_action(state, rng))
    return state


@pytest.fixture
def budgets(monkeypatch):
    """The seconds each search was given; the search itself answers at once (its first
    legal action), so these tests take no time."""
    given: list[float] = []

    def search(agent, view):
        given.append(agent.seconds)
        return view.legal_actions()[0]

    monkeypatch.setattr(ISMCTSAgent, "act", search)
    return given


SEARCHING = [name for name in games.names() if hasattr(make_agent("hard", name), "seconds")]


def test_hard_searches_in_reconstruct_and_masks_and_is_makutas_tuned_planner():
    assert {"reconstruct", "masks"} <= set(SEARCHING) and "makuta" not in SEARCHING


@pytest.mark.parametrize("name", [name for name in SEARCHING if "medium" in levels_offered(name)])
def test_a_move_asked_for_more_than_a_second_ago_is_the_heuristics(name, budgets):
    state = a_position(name, 3)
    seat, record = state.current_player, state.record()
    choice = choose_action(f"late-{name}", record.to_dict(), seat, "hard", time.time() - 1.5)
    heuristic = make_agent("medium", name, seed=bot_seed(record.seed, seat, len(record.actions)))
    assert choice.hurried and choice.timed and budgets == []
    assert choice.action == heuristic.act(SeatView(state, seat))
    assert choice.action in state.legal_actions()


def test_a_late_move_in_a_game_without_a_heuristic_is_the_shortest_search(race, budgets):
    state = race.new_game(5, RUNNERS)
    state.apply("add:1")
    seat, record = state.current_player, state.record()
    choice = choose_action("late-race", record.to_dict(), seat, "hard", time.time() - 1.5)
    assert choice.hurried and choice.timed and budgets == [LEAST_SEARCH]
    assert choice.action in state.legal_actions()


def test_a_fresh_request_searches_for_what_is_left_of_its_second(budgets):
    state = a_position("reconstruct", 4)
    record = state.record().to_dict()
    choice = choose_action("fresh", record, state.current_player, "hard", time.time() - 0.4)
    assert not choice.hurried and choice.timed
    assert LEAST_SEARCH <= budgets[0] <= 0.6


def test_without_a_request_time_the_search_has_its_whole_second(budgets):
    """The background lane (games of bots only): nobody is waiting."""
    state = a_position("reconstruct", 5)
    choice = choose_action("calm", state.record().to_dict(), state.current_player, "hard")
    assert budgets == [1.0] and not choice.hurried


def test_makutas_hard_answers_at_once_with_its_tuned_planner_however_long_it_waited(budgets):
    """It does not think for a time, so it is never hurried: it plays its own move."""
    state = a_position("makuta", 3)
    seat, record = state.current_player, state.record()
    choice = choose_action("late-makuta", record.to_dict(), seat, "hard", time.time() - 1.5)
    hard = make_agent("hard", "makuta", seed=bot_seed(record.seed, seat, len(record.actions)))
    assert not choice.timed and not choice.hurried and budgets == []
    assert choice.action == hard.act(SeatView(state, seat))


@pytest.mark.parametrize("name", games.names())
def test_a_hurried_or_searched_move_is_legal_for_the_seat_to_move(name):
    state = a_position(name, 6)
    seat, record = state.current_player, state.record().to_dict()
    for asked in (time.time() - 5.0, time.time() - 1.0 + LEAST_SEARCH * 2):
        choice = choose_action(f"legal-{name}", record, seat, "hard", asked)
        assert choice.action in state.legal_actions()
    with pytest.raises(RuntimeError, match="is not to decide"):
        choose_action(f"legal-{name}", record, (seat + 1) % len(state.players), "hard", time.time() - 5.0)


def play_until_the_bot_moves(ws, token: str) -> None:
    """Say hello as seat 0 and take its first legal actions until the bot (seat 1) is to move."""
    ws.send_json({"type": "hello", "token": token})
    view = receive_view(ws)
    while view["current_player"] == 0:
        ws.send_json({"type": "act", "action": view["legal"][0]["id"]})
        view = receive_view(ws)


def test_the_health_check_counts_hard_moves_and_those_played_in_a_hurry(client):
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "hard"}])
    before = client.get("/api/health").json()["bots"]
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        play_until_the_bot_moves(ws, created["seats"][0]["token"])
        receive_view(ws)  # the bot's move
    after = client.get("/api/health").json()["bots"]
    assert after["timed_moves"] > before["timed_moves"]
    assert set(after) == {"timed_moves", "hurried_moves"}


@pytest.fixture
def server_log():
    """What the server logs meanwhile, as records."""
    lines: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = lines.append  # type: ignore[method-assign]
    logger = logging.getLogger("matanui.server")
    logger.addHandler(handler)
    yield lines
    logger.removeHandler(handler)


def test_a_bot_that_cannot_be_built_makes_its_game_unavailable_with_one_line(client, server_log):
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    game_id = created["id"]
    room = client.app.state.lobby.rooms[game_id]
    room.row.seats[1].level = "ismcts@999999999"  # past every source's bounds (ai/registry.py)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        play_until_the_bot_moves(ws, created["seats"][0]["token"])
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "unavailable_game" and "ismcts@999999999" in message["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4404
    answer = client.get(f"/api/games/{game_id}")
    assert answer.status_code == 410 and "100,000" in answer.json()["message"]
    assert game_id not in {game["id"] for game in client.get("/api/games").json()}
    told = [line for line in server_log if game_id in line.getMessage()]
    assert len(told) == 1 and "\n" not in told[0].getMessage(), [line.getMessage() for line in told]
    assert all(line.exc_info is None for line in server_log)


@pytest.mark.parametrize("stored", ["os:getcwd", "/tmp/weights.npz"])
def test_a_stored_bot_that_names_code_or_a_file_is_refused_not_run(client, server_log, stored):
    """A bot's name read from a row may not make the service import a module or load a file."""
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}])
    game_id = created["id"]
    client.app.state.lobby.rooms[game_id].row.seats[1].level = stored
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        play_until_the_bot_moves(ws, created["seats"][0]["token"])
        while (message := ws.receive_json())["type"] != "error":
            pass
        assert message["code"] == "unavailable_game"
        assert "only matanui's own agents" in message["message"]
