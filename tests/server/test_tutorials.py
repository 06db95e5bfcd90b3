"""Tutorials over HTTP: the server replays the tutorial through the engine for each request;
the client keeps only how many steps are done."""

from __future__ import annotations


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
    assert lesson["outcome"][0] == {"says": "The Rahi Muaka (18) is out of the game", "path": "out",
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
