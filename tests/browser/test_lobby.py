"""The lobby and the connection as a person meets them: a card per game that says what it is
and plays it against a bot in one click, each game's options as typed controls with their
help in a player's words (research variants and the turn limit under "More options"), no bot
menu on a person's seat, characters and display names shown as plain text, joining an open
seat with a name, "Your games" with Resume (never for a finished game), games nobody plays
listed as abandoned, rated games marked, user names as typed, quick play and your games first
on a phone, and the game page saying it is reconnecting while the server is away."""

from __future__ import annotations

import http.cookiejar
import json
import secrets
import urllib.request
from collections.abc import Callable, Iterator

import pytest
from websockets.sync.client import connect

from tests.server.clocked import hand_over
from tests.server.process import free_port, start_server
from tests.server.wire import call, views

from .conftest import ARTIFACTS, PHONE, screenshot

SETTLED = "() => document.querySelector('#actions button:not([disabled])')"


def summary(server: str, game_id: str) -> dict:
    return call(server, f"/api/games/{game_id}")


def created_id(page) -> str:
    """The id of the game the form just created (from its Watch link)."""
    page.wait_for_selector("#created:not([hidden]) a[href$='?watch']")
    return page.get_attribute("#created a[href$='?watch']", "href").split("/")[2].split("?")[0]


def hold(page, game_id: str, token: str) -> None:
    """This browser keeps a seat's token, as opening its invite link does."""
    page.evaluate("([id, token]) => localStorage.setItem(`matanui:tokens:${id}`, JSON.stringify([token]))",
                  [game_id, token])


def test_each_games_options_are_typed_controls_with_their_help(server, page):
    page.goto(server + "/")
    page.select_option("#game-select", "masks")
    assert page.locator("#option-map option").all_inner_texts() == ["Side A", "Side B", "Both mats"]
    assert page.get_attribute("#option-short", "type") == "checkbox"
    turns = page.locator("#option-turn_limit")
    assert (turns.get_attribute("type"), turns.get_attribute("min"), turns.get_attribute("max")) == \
        ("number", "10", "10000")
    assert turns.input_value() == "400"
    assert "the shorter game, won with three Great Masks" in page.inner_text("#option-short-help")
    assert page.locator("#option-first_player option").all_inner_texts() == [
        "Rock-Paper-Scissors decides", "Player 1", "Player 2"]
    screenshot(page, "lobby-options-masks")

    page.select_option("#option-map", label="Side B")
    page.check("#option-short")
    page.select_option("[aria-label='Player 2 is']", "bot")
    page.click("#create-form button[type=submit]")
    options = summary(server, created_id(page))["options"]
    assert options["map"] == "b" and options["short"] is True and options["turn_limit"] == 400

    page.select_option("#game-select", "reconstruct")
    assert page.get_attribute("#option-advanced", "type") == "checkbox"
    page.select_option("#game-select", "makuta")
    page.click("#more-options > summary")  # the turn limit waits there
    assert page.input_value("#option-turn_limit") == "200"  # 100 per player, two players
    page.click("#add-seat")
    assert page.input_value("#option-turn_limit") == "300"  # and it follows the seats
    assert "per player" in page.inner_text("#option-turn_limit-help")
    screenshot(page, "lobby-options-makuta")


def test_a_persons_seat_has_no_bot_level_menu(server, page):
    page.goto(server + "/")
    page.select_option("#game-select", "reconstruct")
    level, name = "[aria-label='Player {} bot level']", "[aria-label='Player {} display name']"
    assert page.locator(level.format(1)).is_hidden() and page.locator(name.format(1)).is_visible()
    page.select_option("[aria-label='Player 2 is']", "bot")
    assert page.locator(level.format(2)).is_visible() and page.locator(name.format(2)).is_hidden()
    page.select_option("[aria-label='Player 2 is']", "open")
    assert page.locator(level.format(2)).is_hidden() and page.locator(name.format(2)).is_hidden()
    page.select_option("[aria-label='Player 2 is']", "human")
    assert page.locator(level.format(2)).is_hidden() and page.locator(name.format(2)).is_visible()


def test_a_display_name_is_shown_as_text_never_as_markup(server, page):
    page.goto(server + "/")
    page.select_option("#game-select", "reconstruct")
    page.select_option("[aria-label='Player 1 character']", "tahu")
    page.fill("[aria-label='Player 1 display name']", "<b>x</b>")
    page.select_option("[aria-label='Player 2 is']", "bot")
    page.click("#create-form button[type=submit]")
    game_id = created_id(page)
    assert summary(server, game_id)["seats"][0]["name"] == "<b>x</b>"
    page.wait_for_selector(f"#game-list li[data-game='{game_id}']")
    assert "<b>x</b> · Tahu Nuva" in page.inner_text(f"#game-list li[data-game='{game_id}']")
    page.click("text=Play this seat")
    page.wait_for_function(SETTLED, timeout=15_000)
    assert "(you play Tahu Nuva)" in page.inner_text("#title")  # to yourself you are "you"
    assert page.inner_text("#status").startswith("you ·")
    page.goto(f"{server}/games/{game_id}?watch")  # everyone else reads the name, as text
    page.wait_for_selector(".reconstruct")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('<b>x</b>')")
    assert "<b>x</b>" in page.text_content("#log")  # the narration names them too
    assert page.locator("#title b, #status b, #log b, #board b").count() == 0  # no element made of it
    screenshot(page, "display-name")


def test_your_games_lists_each_game_held_here_with_resume(server, page):
    page.goto(server + "/")
    hold(page, "expired1", "old-token")
    page.select_option("#game-select", "reconstruct")
    page.select_option("[aria-label='Player 2 is']", "bot")
    page.click("#create-form button[type=submit]")
    game_id = created_id(page)
    mine = page.locator(f"#your-games li[data-game='{game_id}']")
    mine.wait_for()
    assert page.locator("#your-games li[data-game='expired1']").inner_text().startswith("gone")
    assert page.locator(f"#game-list li[data-game='{game_id}'] a", has_text="Resume").count() == 1
    screenshot(page, "your-games")
    page.click("#your-games li[data-game='expired1'] button:has-text('Forget')")
    page.wait_for_selector("#your-games li[data-game='expired1']", state="detached")

    mine.locator("a", has_text="Resume").click()
    page.wait_for_function(SETTLED, timeout=15_000)
    assert "(you play " in page.inner_text("#title")

    page.goto(f"{server}/games/{game_id}?watch")  # watching a game held here says how to resume
    page.wait_for_selector(".reconstruct")
    assert "(watching)" in page.inner_text("#title")
    page.click("#title a.resume")
    page.wait_for_function(SETTLED, timeout=15_000)
    assert "(you play " in page.inner_text("#title")


def test_a_game_the_server_does_not_have_says_it_is_gone(server, page):
    page.goto(server + "/games/no-such-game")
    page.wait_for_function("() => document.querySelector('#status').textContent.includes('gone')")
    assert page.locator("#status a[href='/']").inner_text() == "Back to the lobby"
    screenshot(page, "game-gone")


def test_the_game_page_says_it_is_reconnecting_and_resumes(tmp_path, page):
    port, database = free_port(), f"sqlite:///{tmp_path / 'g.db'}"
    process = start_server(database, port)
    base = f"http://127.0.0.1:{port}"
    try:
        body = {"game": "reconstruct", "seed": 3, "seats": [
            {"kind": "human", "character": "tahu"}, {"kind": "bot", "level": "easy", "character": "gali"}]}
        link = call(base, "/api/games", body)["seats"][0]["link"]
        page.goto(base + link)
        page.wait_for_function(SETTLED, timeout=15_000)

        process.terminate()
        process.wait(timeout=20)
        page.wait_for_function("() => document.querySelector('#status').textContent.includes('reconnecting')",
                               timeout=15_000)
        buttons = page.locator("#actions button")
        assert buttons.count() and all(buttons.nth(i).is_disabled() for i in range(buttons.count()))
        screenshot(page, "reconnecting")

        process = start_server(database, port)
        page.wait_for_function(SETTLED, timeout=30_000)
        assert "reconnecting" not in page.inner_text("#status")
        assert page.inner_text("#status").startswith("you ·")
    finally:
        process.terminate()
        process.wait(timeout=20)


def test_the_game_list_can_show_one_game_only(server, page):
    for game in ("masks", "reconstruct"):
        call(server, "/api/games", {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]})
    page.goto(server + "/")
    page.wait_for_selector("#game-list li[data-game]")
    page.select_option("#game-filter", label="Quest for the Masks")
    page.wait_for_function("() => [...document.querySelectorAll('#game-list li[data-game]')]"
                           ".every((li) => li.textContent.includes('Quest for the Masks'))")
    assert page.locator("#game-list li[data-game]").count() >= 1


def test_the_lobby_says_what_each_bot_level_is_and_how_it_scored(server, page):
    """Choosing a bot, a person reads what easy, medium and hard are in this game in plain
    words; how medium and hard scored against easy there, and hard against medium, waits
    behind "How we measured the bots"."""
    page.goto(server + "/")
    page.select_option("#game-select", "reconstruct")
    notes = page.locator("#bot-levels li").all_inner_texts()
    assert [note.split(" — ")[0] for note in notes] == ["easy", "medium", "hard"]
    assert "plays any legal move at random" in notes[0]
    assert not any("Elo" in note or "0.85" in note for note in notes)
    assert page.locator("#bot-figures").is_hidden()
    page.click("#bot-measured summary")
    figures = page.locator("#bot-figures li").all_inner_texts()
    assert "scores 0.85 against easy" in figures[1] and "scores 0.62 against medium" in figures[2]
    screenshot(page, "lobby-bot-levels")
    page.select_option("#game-select", "makuta")
    assert "its judgement tuned over 56,000 games" in page.locator("#bot-levels li").all_inner_texts()[2]
    assert "scores 0.71 against medium" in page.locator("#bot-figures li").all_inner_texts()[2]


@pytest.mark.parametrize("game", ["reconstruct", "masks", "makuta"])
def test_each_game_is_a_card_that_plays_it_against_a_bot_in_one_click(server, page, game):
    page.goto(server + "/")
    card = page.locator(f".game-card[data-game='{game}']")
    card.locator("svg.game-picture").wait_for()
    facts = card.locator(".facts li").all_inner_texts()
    assert facts[0].endswith("players") and facts[1].startswith("about ") and facts[1].endswith(" min")
    assert card.locator(f"a[href='/rules/{game}']").inner_text() == "How to play"
    assert card.locator(f"a[href^='/tutorials/{game}/']").count() >= 1
    card.locator("button", has_text="Play against a bot").click()
    page.wait_for_url("**/games/*", timeout=15_000)
    game_id = page.url.split("/games/")[1].split("#")[0]
    seats = summary(server, game_id)["seats"]
    assert [s["kind"] for s in seats] == ["human", "bot"] and seats[1]["level"] == "medium"
    page.wait_for_selector("#actions button, #title")


def test_a_newcomer_on_a_phone_sees_the_games_and_a_tutorial_first(server, page):
    page.set_viewport_size(PHONE)
    page.goto(server + "/")
    first = page.locator(".game-card a[href^='/tutorials/']").first
    first.wait_for()
    box = first.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]  # on the first screen, no scrolling
    play = page.locator(".game-card button", has_text="Play against a bot").first
    assert play.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("main a[href='/docs']").count() == 0  # the API is for developers: in the footer
    assert page.locator("footer a[href='/docs']").count() == 1


def test_joining_an_open_seat_asks_for_a_name_and_sends_it_only_when_typed(server, page):
    sent: list[str | None] = []
    page.route("**/api/games/*/join", lambda route: (sent.append(route.request.post_data), route.continue_()))
    body = {"game": "reconstruct", "public": True, "seats": [{"kind": "human"}, {"kind": "open"}]}
    ids = [call(server, "/api/games", body)["id"] for _ in range(2)]
    page.goto(server + "/")
    for game_id, name in zip(ids, ["Ana", ""], strict=True):
        page.goto(server + "/")
        row = page.locator(f"#game-list li[data-game='{game_id}']")
        row.locator("button", has_text="Join").click()
        field = row.locator("input[aria-label='Your display name (optional)']")
        assert field.get_attribute("maxlength") == "24"
        field.fill(name)
        if name:
            screenshot(page, "lobby-join-name")
        row.locator("button[type=submit]").click()
        page.wait_for_url(f"**/games/{game_id}", timeout=15_000)
    assert sent == [json.dumps({"name": "Ana"}, separators=(",", ":")), None]


# -- what the list says of each game -------------------------------------------------------

PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]
BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]
PASSWORD = "three toa and a kanohi"


@pytest.fixture(scope="module")
def quiet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own, whose few games the list shows on one page: a seat is gone after
    2 s without a connection, and its bots wait a minute a move (no game of bots ends here)."""
    port = free_port()
    process = start_server(f"sqlite:///{tmp_path_factory.mktemp('quiet') / 'matanui.db'}", port,
                           bot_pace=60.0, extra=("--limit=gone_after=2", "--limit=bot_games_per_client=100"))
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


def signed_up(server: str, name: str) -> Callable[[str, dict], dict]:
    """POST as a new account `name`: its session cookie and CSRF token go with every call."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    headers = {"content-type": "application/json"}

    def post(path: str, body: dict) -> dict:
        request = urllib.request.Request(server + path, data=json.dumps(body).encode(), headers=headers)
        with opener.open(request, timeout=30) as answer:
            return json.load(answer)

    headers["x-csrf-token"] = post("/api/account", {"name": name, "password": PASSWORD})["csrf"]
    return post


def resign(server: str, game_id: str, token: str) -> None:
    """The seat of `token` resigns, and the game is over (two players)."""
    with connect(f"ws{server.removeprefix('http')}/ws/games/{game_id}") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        next(views(ws))
        ws.send(json.dumps({"type": "resign"}))
        assert next(view for view in views(ws) if view["over"])


def row(page, game_id: str, where: str = "#game-list", status: str | None = None):
    """A game's row in a list of the lobby (that says `status`, where given)."""
    said = f"[data-status={status}]" if status else ""
    return page.locator(f"{where} li[data-game='{game_id}']{said}")


def test_a_bot_game_nobody_watches_is_not_listed_as_running(quiet, page):
    """A game of bots only runs for its watchers: nobody watching, it is abandoned (after the
    moment its creator may take to open it), and running again while someone watches."""
    game_id = call(quiet, "/api/games", {"game": "reconstruct", "seats": BOTS, "seed": 1})["id"]
    page.goto(quiet + "/")
    abandoned = row(page, game_id, status="abandoned")
    abandoned.wait_for(timeout=15_000)
    assert abandoned.locator(".badge").first.inner_text() == "abandoned"
    screenshot(page, "lobby-abandoned")
    watcher = page.context.new_page()
    watcher.goto(f"{quiet}/games/{game_id}?watch")
    row(page, game_id, status="running").wait_for(timeout=15_000)
    watcher.close()
    abandoned.wait_for(timeout=15_000)


def test_a_rated_game_says_so_names_stay_as_typed_and_a_finished_game_offers_no_resume(quiet, page):
    ana, bo = signed_up(quiet, "ana_r1"), signed_up(quiet, f"bo_{secrets.token_hex(2)}")
    made = ana("/api/games", {"game": "reconstruct", "seats": PEOPLE, "rated": True})
    bo("/api/account/claim", {"game_id": made["id"], "token": made["seats"][1]["token"]})
    unrated = call(quiet, "/api/games", {"game": "reconstruct", "seats": PEOPLE})["id"]
    page.goto(quiet + "/")
    hold(page, made["id"], made["seats"][0]["token"])
    page.reload()
    rated = row(page, made["id"])
    rated.wait_for()
    assert rated.locator(".badge.rated").inner_text() == "rated"
    assert "ana_r1 (1500?) · Tahu Nuva vs bo_" in rated.inner_text()  # as typed, not "Ana_r1"
    assert row(page, unrated).locator(".badge.rated").count() == 0
    assert row(page, made["id"], "#your-games").get_by_role("link", name="Resume").count() == 1
    screenshot(page, "lobby-rated")

    # both make two moves (then it counts: an abort is unrated), and Tahu resigns
    hand_over(int(quiet.rsplit(":", 1)[1]), made["id"], [seat["token"] for seat in made["seats"]])
    resign(quiet, made["id"], made["seats"][0]["token"])
    mine = row(page, made["id"], "#your-games", "finished")
    mine.wait_for(timeout=15_000)
    for listed in (mine, row(page, made["id"], status="finished")):
        links = listed.get_by_role("link").all_inner_texts()
        assert "Replay" in links and "Resume" not in links and "Watch" not in links, links
        assert listed.locator(".badge.rated").count() == 1  # it changed the ratings
    screenshot(page, "lobby-finished")

    page.goto(quiet + "/players/ana_r1")  # provisional, so on no leaderboard yet: her profile
    name = page.get_by_role("heading", name="ana_r1", exact=True)
    name.wait_for()
    assert name.inner_text() == "ana_r1"  # the text as shown, after any CSS text-transform
    assert "?" in page.inner_text(".rating-game")  # provisional


# -- the new-game form in a player's words ------------------------------------------------


def test_the_form_speaks_a_players_words_and_keeps_research_under_more_options(server, page):
    page.goto(server + "/")
    page.select_option("#game-select", "reconstruct")
    assert page.locator("#options .option > label").all_inner_texts() == ["Advanced rules", "Who plays first"]
    assert page.locator("#option-variant").is_hidden() and page.locator("#option-turn_limit").is_hidden()
    assert page.locator("label[for=pace-select]").inner_text() == "Clock"
    assert page.locator("#pace-select option").first.inner_text() == "Real-time with others, none alone"
    page.click("#more-options > summary")
    more = page.locator("#more-option-list .option")
    assert more.locator("label").all_inner_texts() == ["End the game in a draw after", "Rules"]
    assert more.first.locator(".unit").inner_text() == "turns"
    assert page.locator("#option-variant option").all_inner_texts() == [
        "Full game", "Mini game for research (not the rulebook’s)"]
    text = page.inner_text("#create")
    for jargon in ("Mini (research)", "turn limit", "Default (", "untimed)", "first player"):
        assert jargon not in text, jargon
    screenshot(page, "lobby-more-options")
    page.select_option("#game-select", "makuta")  # its only option is the turn limit
    assert page.locator("#options").is_hidden() and page.locator("#option-turn_limit").is_visible()


# -- a phone ------------------------------------------------------------------------------


def test_on_a_phone_quick_play_and_your_games_come_first_and_the_rest_is_folded(server, page):
    """The old lobby was some 5,700 px tall on a phone, the games at its bottom."""
    for _ in range(12):  # other people's games, enough to fill a long list
        call(server, "/api/games", {"game": "masks", "seats": PEOPLE})
    mine = [call(server, "/api/games", {"game": game, "seats": [{"kind": "human"}, BOTS[0]], "seed": 2})
            for game in ("reconstruct", "masks", "makuta", "reconstruct")]
    page.goto(server + "/")
    for game in mine:
        hold(page, game["id"], game["seats"][0]["token"])
    page.set_viewport_size(PHONE)
    page.reload()
    page.locator("#your-games > li[data-game]").nth(2).wait_for()
    page.locator(".game-card .play-bot").first.wait_for()
    bottom = "(element) => element.getBoundingClientRect().bottom"
    assert page.locator("#your-games > li[data-game]").nth(2).evaluate(bottom) <= PHONE["height"]
    assert page.locator(".game-card .play-bot").first.evaluate(bottom) <= PHONE["height"]
    assert page.locator("#your-games .more-yours summary").inner_text() == "1 more of your games"
    assert page.get_attribute("#create", "open") is None  # the form is folded
    running = page.locator("#game-list > li[data-status=running]").first
    running.wait_for(state="attached")
    assert running.is_hidden()  # the list shows the games open to join; the rest waits a tap
    assert page.evaluate("document.documentElement.scrollHeight") < 3_200
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(ARTIFACTS / "lobby-first-screen-phone.png"))
    page.get_by_role("button", name="being played or over").click()
    assert running.is_visible()
    page.click("#create > summary")
    assert page.locator("#game-select").is_visible()
