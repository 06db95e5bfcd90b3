"""Tutorials over HTTP: the server replays the tutorial through the engine for each request;
the client keeps only how many steps are done. Every answer a tutorial route gives is declared
in the OpenAPI document."""

from __future__ import annotations

import pytest

from .helpers import receive_view
from .test_limits import app


def test_the_tutorials_of_every_game_are_listed(client):
    listed = client.get("/api/tutorials").json()
    assert [(t["game"], t["number"]) for t in listed] == [("reconstruct", 1), ("masks", 1), ("masks", 2),
                                                          ("masks", 3), ("makuta", 1)]
    assert listed[1]["title"] == "Theme Deck One: Pohatu and Gali" and listed[1]["steps"] == 20


def test_one_tutorial_shows_every_step_with_its_words_and_rule(client):
    lesson = client.get("/api/tutorials/makuta/1").json()
    assert lesson["intro"].startswith("You are Tahu") and len(lesson["steps"]) == 22
    last = lesson["steps"][-1]
    assert (last["seat"], last["action"], last["text"], last["teaches"]) == (
        0, "settle", "Add up: 4 + 25 = 29 against 18", "MAKUTA-WORKED-EXAMPLE")
    assert lesson["outcome"][0] == {"says": "The Rahi Muaka (18) is out of the game", "path": "beaten",
                                    "equals": ["rahi:muaka:18"]}


def test_a_learner_plays_a_demo_round_step_by_step(client):
    start = client.get("/api/tutorials/masks/1/steps/0").json()
    assert start["at"] == 0 and start["seat"] == 0 and start["step"]["action"] == "move:W"
    assert start["step"]["teaches"] == "MASKS-MOVE-ONE-SPACE"
    assert {"id": "move:W", "text": "Move west to the blank space at G1",
            "targets": {"kind": "move", "seat": 0, "space": "G1"}} in start["legal"]
    assert start["log"][0]["text"].startswith("Pohatu places the Pohatu Mask on the Start Space")
    assert start["observation"]["hand"] == []

    wrong = client.post("/api/tutorials/masks/1/moves", json={"at": 0, "action": "move:N"}).json()
    assert wrong["at"] == 0 and wrong["played"] == []
    assert wrong["hint"].endswith("This step is to move west to the blank space at G1.")

    moved = client.post("/api/tutorials/masks/1/moves", json={"at": 0, "action": "move:W"}).json()
    assert moved["hint"] is None and moved["at"] == 2  # Player 2's scripted move came after it
    assert [(p["seat"], p["action"]) for p in moved["played"]] == [(0, "move:W"), (1, "move:E")]
    assert moved["played"][1]["events"][0]["text"] == "Gali moves the Gali Mask one space to the East."
    assert moved["observation"]["positions"] == ["G1", "H10"]


def test_the_end_of_a_tutorial_shows_its_printed_outcome(client):
    lesson = client.get("/api/tutorials/reconstruct/1").json()
    last = lesson["steps"][-2]  # the learner's last move; Kopaka's answer is scripted
    at = len(lesson["steps"]) - 2
    done = client.post("/api/tutorials/reconstruct/1/moves", json={"at": at, "action": last["action"]}).json()
    assert done["finished"] and done["step"] is None and done["legal"] == []
    assert done["observation"]["winners"] == [0]
    assert done["outcome"][0] == {"says": "Tahu Nuva (you) wins", "reached": True}
    assert done["finale"].startswith("Tahu Nuva is rebuilt")


def test_bad_tutorial_requests_say_what_is_allowed(client):
    assert client.get("/api/tutorials/chess/1/steps/0").json()["error"] == "unknown_game"
    missing = client.get("/api/tutorials/makuta/2/steps/0")
    assert missing.status_code == 404
    assert missing.json()["message"] == "makuta has no tutorial 2; its tutorials are 1 to 1"
    far = client.get("/api/tutorials/makuta/1/steps/23")
    assert far.status_code == 404 and "at is 0 to 22" in far.json()["message"]
    # After step 1 of a demo round Player 2's scripted move is due: the learner's next view is at 2.
    early = client.post("/api/tutorials/masks/1/moves", json={"at": 1, "action": "move:N"})
    assert early.status_code == 409 and "at=2" in early.json()["message"]
    extra = client.post("/api/tutorials/masks/1/moves", json={"at": 0, "action": "move:W", "x": 1})
    assert extra.status_code == 422


def test_the_tutorial_page_is_served(client):
    page = client.get("/tutorials/masks/1")
    assert page.status_code == 200 and 'src="/static/js/tutorial.js"' in page.text


# One request for each answer a tutorial route gives: (method, path template, path, body, status).
TUTORIAL_ANSWERS = [
    ("get", "/api/tutorials", "/api/tutorials", None, 200),
    ("get", "/api/tutorials/{game}/{number}", "/api/tutorials/masks/1", None, 200),
    ("get", "/api/tutorials/{game}/{number}", "/api/tutorials/chess/1", None, 404),
    ("get", "/api/tutorials/{game}/{number}", "/api/tutorials/masks/4", None, 404),
    ("get", "/api/tutorials/{game}/{number}", "/api/tutorials/masks/0", None, 422),
    ("get", "/api/tutorials/{game}/{number}/steps/{at}", "/api/tutorials/masks/1/steps/0", None, 200),
    ("get", "/api/tutorials/{game}/{number}/steps/{at}", "/api/tutorials/masks/1/steps/21", None, 404),
    ("get", "/api/tutorials/{game}/{number}/steps/{at}", "/api/tutorials/masks/1/steps/1001", None, 422),
    ("post", "/api/tutorials/{game}/{number}/moves", "/api/tutorials/masks/1/moves",
     {"at": 0, "action": "move:W"}, 200),
    ("post", "/api/tutorials/{game}/{number}/moves", "/api/tutorials/masks/1/moves",
     {"at": 1, "action": "move:N"}, 409),
    ("post", "/api/tutorials/{game}/{number}/moves", "/api/tutorials/masks/1/moves",
     {"at": 20, "action": "move:N"}, 409),  # the tutorial is over
    ("post", "/api/tutorials/{game}/{number}/moves", "/api/tutorials/masks/1/moves",
     {"at": 21, "action": "move:N"}, 404),
    ("post", "/api/tutorials/{game}/{number}/moves", "/api/tutorials/masks/1/moves", {"at": 0}, 422),
    ("post", "/api/tutorials/{game}/{number}/play", "/api/tutorials/masks/1/play", None, 201),
    ("post", "/api/tutorials/{game}/{number}/play", "/api/tutorials/masks/7/play", None, 404),
    ("post", "/api/tutorials/{game}/{number}/play", "/api/tutorials/masks/1/play", {"level": 1}, 422),
]


@pytest.mark.parametrize(("method", "template", "path", "body", "status"), TUTORIAL_ANSWERS)
def test_every_answer_of_a_tutorial_route_is_declared_in_the_document(client, method, template, path,
                                                                       body, status):
    answer = client.request(method, path, json=body)
    assert answer.status_code == status, answer.text
    declared = client.get("/openapi.json").json()["paths"][template][method]["responses"]
    assert str(status) in declared, f"{status} is not among {sorted(declared)}"
    if status >= 400:
        assert declared[str(status)]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
        assert answer.json()["error"] in declared[str(status)]["description"] or status == 422


def test_the_document_names_the_games_a_tutorial_route_takes(client):
    """So that schemathesis (test_openapi.py) generates requests that reach a tutorial, and so
    meets each of its answers, not only the refusal of a game that does not exist."""
    operation = client.get("/openapi.json").json()["paths"]["/api/tutorials/{game}/{number}/moves"]["post"]
    game = next(p for p in operation["parameters"] if p["name"] == "game")
    assert game["schema"]["enum"] == ["reconstruct", "masks", "makuta"]


@pytest.mark.parametrize("at", [False, True, "0", 0.5])
def test_a_move_at_a_step_that_is_not_a_whole_number_is_refused(client, at):
    answer = client.post("/api/tutorials/masks/1/moves", json={"at": at, "action": "move:W"})
    assert answer.status_code == 422 and answer.json()["error"] == "bad_request", answer.text
    whole = client.post("/api/tutorials/masks/1/moves", json={"at": 0.0, "action": "move:W"})
    assert whole.status_code == 200  # 0.0 is the whole number 0, as JSON Schema reads it


# -- playing on after the last step ---------------------------------------------------------


def test_a_learner_plays_on_from_where_the_tutorial_ended_against_a_bot_with_hints(tmp_path):
    """Theme Deck One ends with its game going on: the new game starts at that very position,
    the learner's seat the only person's, so it gives hints; it survives a restart."""
    with app(tmp_path) as client:
        end = client.get("/api/tutorials/masks/1/steps/20").json()
        created = client.post("/api/tutorials/masks/1/play", json={"level": "easy"})
        assert created.status_code == 201, created.text
        game = created.json()
        mine = [seat for seat in game["seats"] if seat["token"]]
        assert [seat["seat"] for seat in mine] == [end["seat"]]
        assert mine[0]["link"].startswith(f"/games/{game['id']}#seat=")
        summary = client.get(f"/api/games/{game['id']}").json()
        assert summary["at"] == 20 and summary["hints"] is True
        assert [seat["kind"] for seat in summary["seats"]] == ["human", "bot"]
        assert summary["seats"][1]["level"] == "easy"
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            ws.send_json({"type": "hello", "token": mine[0]["token"]})
            view = receive_view(ws)
        assert view["observation"] == end["observation"]
    with app(tmp_path) as client:  # the tutorial's moves were stored with the game
        assert client.get(f"/api/games/{game['id']}").json()["at"] == 20


def test_after_a_tutorial_that_ends_its_game_the_learner_gets_a_fresh_deal(client):
    game = client.post("/api/tutorials/reconstruct/1/play").json()
    summary = client.get(f"/api/games/{game['id']}").json()
    assert summary["at"] == 0 and summary["status"] != "finished" and summary["hints"] is True
    assert [seat["level"] for seat in summary["seats"] if seat["kind"] == "bot"] == ["medium"]


@pytest.mark.parametrize(("path", "body", "status", "error"), [
    ("/api/tutorials/masks/9/play", None, 404, "no_tutorial"),
    ("/api/tutorials/chess/1/play", None, 404, "unknown_game"),
    ("/api/tutorials/masks/1/play", {"level": "grandmaster"}, 422, "bad_request"),
    ("/api/tutorials/masks/1/play", {"level": "easy", "seed": 3}, 422, "bad_request"),
])
def test_bad_requests_to_play_on_say_what_is_allowed_and_make_no_game(client, path, body, status, error):
    before = len(client.get("/api/games").json())
    answer = client.post(path, json=body)
    assert answer.status_code == status and answer.json()["error"] == error, answer.text
    assert len(client.get("/api/games").json()) == before
