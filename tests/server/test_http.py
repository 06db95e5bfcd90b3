"""The lobby's HTTP API with the real app: catalog, creating games, bad requests, joining."""

from __future__ import annotations

from .helpers import HUMAN_VS_BOT, create, receive_view


def test_catalog_lists_every_game_with_characters_options_and_levels(client):
    games = {g["id"]: g for g in client.get("/api/catalog").json()}
    assert "reconstruct" in games
    assert "tahu" in games["reconstruct"]["characters"]
    assert games["reconstruct"]["levels"] == ["easy", "medium", "hard"]
    assert games["reconstruct"]["level_notes"]["medium"].startswith("the game's sensible player")
    book = client.get("/api/catalog/reconstruct").json()["components"]
    assert len(book["parts"]) == 7 and len(book["cards"]) == 36


def test_create_gives_a_secret_link_per_human_seat_and_lists_the_game(client):
    created = create(client)
    human, bot = created["seats"]
    assert human["token"] and human["link"].endswith(human["token"])
    assert bot == {"seat": 1, "character": "gali", "kind": "bot", "token": None, "link": None}
    listed = {g["id"]: g for g in client.get("/api/games").json()}[created["id"]]
    assert listed["status"] == "running" and listed["players"] == ["tahu", "gali"]
    assert "token" not in str(listed)  # hashes and tokens never leave the server
    assert client.get(f"/api/games/{created['id']}").json()["seats"][1]["level"] == "easy"


def test_unnamed_characters_are_drawn_from_those_left(client):
    created = create(client, seats=[{"kind": "human"}, {"kind": "bot", "character": "tahu"}])
    first = created["seats"][0]["character"]
    assert first != "tahu" and first in client.get("/api/catalog/reconstruct").json()["characters"]


def bad(client, body, status=422):
    response = client.post("/api/games", json=body)
    assert response.status_code == status, response.text
    return response.json()["message"]


def test_bad_games_are_refused_saying_what_is_allowed(client):
    before = len(client.get("/api/games?limit=200").json())
    assert "the games are: reconstruct" in bad(client, {"game": "chess", "seats": HUMAN_VS_BOT})
    assert "choose from" in bad(client, {"game": "reconstruct", "seats": [{"character": "vakama"}, {}]})
    assert "exactly 2 players" in bad(client, {"game": "reconstruct", "seats": [{}]})
    assert "advanced must be true or false" in bad(
        client, {"game": "reconstruct", "seats": HUMAN_VS_BOT, "options": {"advanced": "maybe"}})
    assert "both players chose tahu" in bad(
        client, {"game": "reconstruct", "seats": [{"character": "tahu"}, {"character": "tahu"}]})
    message = bad(client, {"game": "reconstruct", "seats": [{"kind": "robot"}, {}]}, status=422)
    assert "seats.0.kind" in message and "'human', 'open' or 'bot'" in message
    assert "level" in bad(client, {"game": "reconstruct", "seats": [{"kind": "bot", "level": "godlike"}, {}]},
                          status=422)
    assert "colour" in bad(client, {"game": "reconstruct", "seats": HUMAN_VS_BOT, "colour": 1}, status=422)
    assert "turn_limit must be a whole number from 10 to 10000" in bad(
        client, {"game": "makuta", "seats": [{}, {}], "options": {"turn_limit": 10**9}})
    assert len(client.get("/api/games?limit=200").json()) == before


def test_oversized_bodies_and_unknown_games_get_clear_errors(client):
    response = client.post("/api/games", content=b"{" + b" " * 20_000 + b"}",
                           headers={"content-type": "application/json"})
    assert response.status_code == 413 and "at most 16384 bytes" in response.json()["message"]
    response = client.get("/api/games/nope")
    assert response.status_code == 404 and "GET /api/games" in response.json()["message"]
    assert client.get("/api/catalog/chess").status_code == 404


def test_public_games_hand_open_seats_to_the_lobby_and_invite_games_do_not(client):
    seats = [{"kind": "human", "character": "tahu"}, {"kind": "open", "character": "onua"}]
    private = create(client, seats=[seats[0], {"kind": "human", "character": "onua"}])
    assert client.post(f"/api/games/{private['id']}/join").status_code == 403
    public = create(client, seats=seats)
    assert public["seats"][1]["token"] is None  # an open seat has no token until it is joined
    assert {g["id"]: g for g in client.get("/api/games").json()}[public["id"]]["status"] == "open"
    joined = client.post(f"/api/games/{public['id']}/join").json()
    assert joined["seat"] == 1 and joined["token"] != public["seats"][0]["token"]
    again = client.post(f"/api/games/{public['id']}/join")
    assert again.status_code == 409 and "watch it instead" in again.json()["message"]
    assert client.get(f"/api/games/{public['id']}").json()["status"] == "running"


def test_a_stranger_can_never_take_the_creators_seat_or_an_invited_one(client):
    """The creator's seat and every invite are taken when their token is issued, used or
    not: joining an open game hands out only the seats offered open."""
    seats = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "onua"},]
    public = create(client, seats=seats, public=True)  # shorthand: seats after the first are open
    creator, offered = public["seats"]
    assert creator["token"] and offered["token"] is None
    stranger = client.post(f"/api/games/{public['id']}/join").json()
    assert stranger["seat"] == 1
    assert client.post(f"/api/games/{public['id']}/join").status_code == 409
    with client.websocket_connect(f"/ws/games/{public['id']}") as ws:
        ws.send_json({"type": "hello", "token": creator["token"]})
        assert receive_view(ws)["seat"] == 0  # the creator still holds seat 0


def test_open_seats_need_a_creator_and_no_hotseat(client):
    assert "needs one person's seat" in bad(client, {"game": "reconstruct", "seats": [
        {"kind": "open"}, {"kind": "bot"}]})
    assert "has no open seats" in bad(client, {"game": "reconstruct", "hotseat": True, "seats": [
        {"kind": "human"}, {"kind": "open"}]})


def test_the_http_api_is_documented_with_openapi(client):
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/games/{game_id}/replay", "/api/games/{game_id}/rematch"} <= set(paths)
    assert client.get("/docs").status_code == 200


def test_the_pages_and_the_client_files_are_served(client):
    assert "<html" in client.get("/").text
    assert "<html" in client.get("/games/abc").text
    assert "<html" in client.get("/games/abc/replay").text
    assert client.get("/static/js/game.js").status_code == 200
