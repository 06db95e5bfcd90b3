"""The lobby as a player meets it: each game's typed options in the catalog and the OpenAPI
document, display names on seats, the list filtered by game, expired games out of sight, games
nobody plays listed as abandoned after the running ones, and rated games marked."""

from __future__ import annotations

import json
import time

from fastapi.testclient import TestClient

from matanui import games
from matanui.server import create_app
from matanui.server.storage import GameRow, SeatRow, Storage

from .helpers import TEST_HOSTS, create, receive_view
from .test_limits import app, refused
from .test_ratings import account, finish, held_by, room_of, storage_of

NAMED = [{"kind": "human", "character": "tahu", "name": "  Ana  "},
         {"kind": "bot", "level": "easy", "character": "gali", "name": "<b>x</b>"}]


def test_the_catalog_gives_each_option_typed_with_its_values_default_and_help(client):
    catalog = {g["id"]: g for g in client.get("/api/catalog").json()}
    masks = catalog["masks"]["options"]
    assert list(masks) == ["map", "short", "first_player", "turn_limit", "variant"]
    assert masks["map"]["kind"] == "choice" and masks["map"]["choices"] == ["a", "b", "both"]
    assert masks["map"]["labels"] == ["Side A", "Side B", "Both mats"] and masks["map"]["default"] == "a"
    assert masks["short"] == {"kind": "bool", "default": False, "help": "the shorter game, won with "
                              "three Great Masks", "text": games.get("masks").option_help()["short"]}
    assert (masks["turn_limit"]["min"], masks["turn_limit"]["max"]) == (10, 10_000)
    assert catalog["makuta"]["options"]["turn_limit"]["default_per_player"] == 100
    assert catalog["reconstruct"]["options"]["advanced"]["kind"] == "bool"


def test_the_openapi_document_describes_each_games_options(client):
    document = client.get("/openapi.json").json()
    one_game = document["components"]["schemas"]["CreateGame"]["anyOf"]
    by_title = {branch["properties"]["options"]["title"]: branch["properties"]["options"]
                for branch in one_game}
    assert set(by_title) == {f"{name} options" for name in games.names()}
    masks = by_title["masks options"]
    assert masks["additionalProperties"] is False
    assert masks["properties"]["map"]["enum"] == ["a", "b", "both"]
    assert masks["properties"]["turn_limit"]["minimum"] == 10
    assert by_title["reconstruct options"]["properties"]["advanced"]["type"] == "boolean"
    seat = document["components"]["schemas"]["SeatSpec"]["properties"]["name"]
    assert "display name" in seat["description"]


def test_a_seats_display_name_is_kept_trimmed_and_shown_to_everyone(client):
    created = create(client, seats=NAMED)
    summary = client.get(f"/api/games/{created['id']}").json()
    assert [seat["name"] for seat in summary["seats"]] == ["Ana", "<b>x</b>"]  # text: the page escapes it
    listed = {g["id"]: g for g in client.get("/api/games").json()}[created["id"]]
    assert listed["seats"][0]["name"] == "Ana"
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        ws.send_json({"type": "hello"})
        assert [seat["name"] for seat in receive_view(ws)["seats"]] == ["Ana", "<b>x</b>"]
    unnamed = client.get(f"/api/games/{create(client)['id']}").json()
    assert [seat["name"] for seat in unnamed["seats"]] == [None, None]


def test_a_display_name_that_is_too_long_or_has_control_characters_is_refused(client):
    for name, words in (("x" * 25, "at most 24 characters"), ("a\nb", "hidden character \\x0a")):
        response = client.post("/api/games", json={"game": "reconstruct", "seats": [
            {"kind": "human", "name": name}, {"kind": "bot"}]})
        assert response.status_code == 422 and words in response.json()["message"], response.text


def test_a_database_from_before_display_names_still_loads(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    storage = Storage(url)
    record = games.get("reconstruct").new_game(1, ["tahu", "gali"]).record()
    storage.create_game(GameRow(id="old", record=record, seats=[SeatRow("human"), SeatRow("bot", "easy")],
                                public=False, hotseat=False))
    with storage.engine.begin() as db:  # the seats as an older matanui wrote them: no "name"
        db.exec_driver_sql("""UPDATE games SET seats = '[{"kind": "human", "level": null, "token_hash": null,
            "claimed": false}, {"kind": "bot", "level": "easy", "token_hash": null, "claimed": false}]'""")
    storage.close()
    with TestClient(create_app(url, allowed_hosts=TEST_HOSTS)) as client:
        assert [seat["name"] for seat in client.get("/api/games/old").json()["seats"]] == [None, None]


def test_the_list_can_be_filtered_by_game_page_after_page(tmp_path):
    with app(tmp_path, page_size=2) as client:
        masks = [create(client, game="masks", seats=[{"kind": "human"}, {"kind": "human"}])["id"]
                 for _ in range(3)]
        create(client)
        first = client.get("/api/games?game=masks&limit=2")
        assert [g["id"] for g in first.json()] == masks[:0:-1]
        assert "game=masks" in first.headers["link"]
        following = first.headers["link"].split(">")[0][1:]
        assert [g["id"] for g in client.get(following).json()] == masks[:1]
        message = refused(client.get("/api/games?game=chess"), 422, "unknown_game")
        assert "reconstruct, masks, makuta" in message


def test_a_game_past_its_expiry_is_not_listed_even_before_it_is_swept(tmp_path):
    ttl = 3.0  # seconds: room enough for a loaded CI machine to create and list before it passes
    with app(tmp_path, unstarted_ttl=ttl, sweep_every=3600) as client:
        created = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
        assert created["id"] in {g["id"] for g in client.get("/api/games").json()}
        room = client.app.state.lobby.rooms[created["id"]]
        time.sleep(max(0.0, room.expires() + 0.2 - time.time()))  # the room's own clock, not ours
        assert created["id"] in client.app.state.lobby.rooms  # not swept yet
        assert created["id"] not in {g["id"] for g in client.get("/api/games").json()}


# -- display names in the game -------------------------------------------------------------

PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]


def welcome_after(ws) -> dict:
    """The next welcome, skipping the seats messages before it."""
    while (message := ws.receive_json())["type"] != "welcome":
        assert message["type"] == "seats", message
    return message


def names_of(client, game_id: str) -> list[str | None]:
    return [seat["name"] for seat in client.get(f"/api/games/{game_id}").json()["seats"]]


def test_display_names_tell_the_story_and_still_do_after_a_restart(tmp_path):
    with app(tmp_path) as client:
        game_id = create(client, seats=NAMED)["id"]
    with app(tmp_path) as client, \
            client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello"})
        setup = receive_view(ws)["events"][0]["text"]
        assert setup.startswith("Ana (Tahu Nuva) and <b>x</b> (Gali Nuva) each build their Toa Nuva.")
        replay = client.get(f"/api/games/{game_id}/replay").json()
        assert "Ana (Tahu Nuva)" in json.dumps(replay)


def test_someone_joining_an_open_seat_may_give_a_display_name(client):
    game = create(client, seats=[PEOPLE[0], {"kind": "open", "character": "gali"}])
    joined = client.post(f"/api/games/{game['id']}/join", json={"name": "  Kai "})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    assert names_of(client, game["id"]) == [None, "Kai"]
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": joined.json()["token"]})
        assert "Tahu Nuva and Kai (Gali Nuva) each build" in receive_view(ws)["events"][0]["text"]
    bare = create(client, seats=[PEOPLE[0], {"kind": "open"}])
    assert client.post(f"/api/games/{bare['id']}/join").status_code == 200  # no body: no name
    assert names_of(client, bare["id"]) == [None, None]
    other = create(client, seats=[PEOPLE[0], {"kind": "open"}])
    refused(client.post(f"/api/games/{other['id']}/join", json={"name": "x" * 25}), 422, "bad_request")
    assert [s["kind"] for s in client.get(f"/api/games/{other['id']}").json()["seats"]] == ["human", "open"]


def test_a_seat_holder_names_themselves_and_everyone_connected_hears_it(client):
    game = create(client, seats=PEOPLE)
    first, second = (seat["token"] for seat in game["seats"])
    url = f"/api/games/{game['id']}/name"
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": first})
        before = receive_view(ws)
        assert before["events"][0]["text"].startswith("Tahu Nuva and Gali Nuva each build")
        answer = client.post(url, json={"token": second, "name": " Mele "})
        assert answer.status_code == 200 and answer.json() == {"seat": 1, "name": "Mele"}
        welcome = welcome_after(ws)
        assert welcome["seat"] == 0 and welcome["at"] == before["at"]
        assert welcome["events"][0]["text"].startswith("Tahu Nuva and Mele (Gali Nuva) each build")
        assert welcome["observation"] == before["observation"]  # names change no position
        assert [seat["name"] for seat in welcome["seats"]] == [None, "Mele"]
    assert names_of(client, game["id"]) == [None, "Mele"]


def test_a_bad_name_or_token_is_refused_and_changes_nothing(client):
    game = create(client, seats=PEOPLE)
    token = game["seats"][0]["token"]
    url = f"/api/games/{game['id']}/name"
    assert "at most 24 characters" in refused(client.post(url, json={"token": token, "name": "x" * 25}),
                                              422, "bad_request")
    assert "hidden character \\x07" in refused(client.post(url, json={"token": token, "name": "a\x07b"}),
                                             422, "bad_request")
    refused(client.post(url, json={"token": "not-a-seat", "name": "Ana"}), 403, "bad_token")
    refused(client.post(url, json={"name": "Ana"}), 403, "bad_token")  # no token, nor a session
    assert names_of(client, game["id"]) == [None, None]
    assert client.post(url, json={"token": token, "name": "Ana"}).json() == {"seat": 0, "name": "Ana"}
    assert client.post(url, json={"token": token, "name": "  "}).json() == {"seat": 0, "name": None}
    assert names_of(client, game["id"]) == [None, None]  # a blank name gives the character's back


def test_the_name_request_is_documented_with_its_refusals(client):
    document = client.get("/openapi.json").json()
    post = document["paths"]["/api/games/{game_id}/name"]["post"]
    assert post["responses"]["403"]["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorBody")
    schemas = document["components"]["schemas"]
    assert schemas["SetName"]["required"] == ["name"]  # the token, or the account's session
    assert "display name" in schemas["JoinSeat"]["properties"]["name"]["description"]


# -- what the list says of each game: abandoned, rated -----------------------------------

BOTS = [{"kind": "bot", "level": "easy", "character": "tahu"},
        {"kind": "bot", "level": "easy", "character": "gali"}]
GONE_AFTER = 0.3  # seconds: how soon a game nobody is at leaves "running" in these tests


def listed_games(client) -> dict[str, dict]:
    """Every listed game by id, in the list's order."""
    return {g["id"]: g for g in client.get("/api/games?limit=200").json()}


def status_of(client, game_id: str) -> str:
    return listed_games(client)[game_id]["status"]


def test_a_game_nobody_plays_or_watches_is_listed_as_abandoned_after_the_running_ones(tmp_path):
    """A person's game whose every person is gone, and a game of bots nobody watches: each
    is running while new (its players may be arriving), abandoned after, and running again
    while its person comes back or someone watches the bots."""
    # The bots wait a minute a move: no game ends under the test.
    with app(tmp_path, bot_pace=60, gone_after=GONE_AFTER) as client:
        bots = create(client, seats=BOTS)["id"]
        alone = create(client)
        assert status_of(client, bots) == status_of(client, alone["id"]) == "running"
        time.sleep(GONE_AFTER + 0.1)
        assert status_of(client, bots) == status_of(client, alone["id"]) == "abandoned"
        assert client.get(f"/api/games/{bots}").json()["status"] == "abandoned"
        with client.websocket_connect(f"/ws/games/{bots}") as watcher, \
                client.websocket_connect(f"/ws/games/{alone['id']}") as player:
            watcher.send_json({"type": "hello"})
            player.send_json({"type": "hello", "token": alone["seats"][0]["token"]})
            receive_view(watcher), receive_view(player)
            assert status_of(client, bots) == status_of(client, alone["id"]) == "running"
            newer = create(client)["id"]  # new, nobody there yet: running too
            time.sleep(GONE_AFTER + 0.1)
            order = list(listed_games(client))
            assert order.index(alone["id"]) < order.index(newer)  # running before abandoned
        time.sleep(GONE_AFTER + 0.1)
        assert status_of(client, bots) == status_of(client, alone["id"]) == "abandoned"


def test_a_turn_based_game_waiting_for_its_person_runs_without_anyone_connected(tmp_path):
    day = {"kind": "turn_based", "move_seconds": 86400}
    with app(tmp_path, gone_after=GONE_AFTER) as client:
        correspondence = create(client, seats=PEOPLE, pace=day)["id"]
        live = create(client, seats=PEOPLE, pace={"kind": "realtime", "move_seconds": 120})["id"]
        time.sleep(GONE_AFTER + 0.1)
        assert status_of(client, correspondence) == "running"
        assert status_of(client, live) == "abandoned"  # real-time: its people are gone


def test_the_list_says_which_games_are_rated(client):
    """A game created rated between two accounts is rated while it runs and once it is over;
    one created casual, one against a bot, or with an anonymous seat, is not."""
    storage = storage_of(client)
    (a, _), (b, _) = account(storage), account(storage)
    between = create(client, seats=PEOPLE, rated=True)["id"]
    held_by(client, between, [a, b])
    casual = create(client, seats=PEOPLE)["id"]
    held_by(client, casual, [a, b])
    anonymous = create(client, seats=PEOPLE, rated=True)["id"]
    held_by(client, anonymous, [a, None])
    against_bot = create(client)["id"]
    held_by(client, against_bot, [a, None])
    found = listed_games(client)
    listed = [found[g]["rated"] for g in (between, casual, anonymous, against_bot)]
    assert listed == [True, False, False, False]
    finish(client, room_of(client, between))
    finished = client.get(f"/api/games/{between}").json()
    assert (finished["status"], finished["rated"]) == ("finished", True)
