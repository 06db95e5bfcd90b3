"""Playing with people, as they meet it: two accounts made through the lobby's Sign in dialog,
one on a laptop and one on a phone; an invite sent and opened signed in; a few decisions, the
turn arriving in the waiting browser's title; a resignation, each end dialog from its side;
and the rated game on both profiles and the leaderboard. Pictures under
artifacts/browser/people-*.png."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import ARTIFACTS, LAPTOP, PHONE
from .person import Person
from .test_accounts import PASSWORD
from .test_lobby import created_id

CAN_ACT = """() => Boolean(document.querySelector('#actions button:not([disabled])'))
    && !document.body.classList.contains('acting')"""


@dataclass
class Player:
    """A person in their own browser context, counting every click and choice they make."""
    page: object
    name: str
    label: str
    errors: list[str] = field(default_factory=list)
    clicks: int = 0

    def click(self, locator) -> None:
        locator.click()
        self.clicks += 1

    def keep(self, what: str, full_page: bool = False) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"people-{what}-{self.label}.png"), full_page=full_page)


def arrive(browser, server: str, viewport: dict, label: str) -> Player:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    player = Player(page, f"Toa_{secrets.token_hex(3)}", label)
    page.on("pageerror", lambda error: player.errors.append(str(error)))
    page.goto(server + "/")
    return player


def create_account(player: Player) -> None:
    """Through the lobby's Sign in dialog: two clicks (the two fields are typed)."""
    page = player.page
    player.click(page.get_by_role("button", name="Sign in", exact=True))
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("User name").fill(player.name)
    dialog.get_by_label("Password").fill(PASSWORD)
    player.click(dialog.get_by_role("button", name="Create account", exact=True))
    page.get_by_text(f"Signed in as {player.name}").wait_for()


ABORTABLE = "() => document.querySelector('#resign button.resign')?.textContent === 'Abort'"


def play_until_it_counts(players: list[Player], game: str) -> list[str]:
    """Decisions until the game can no longer be aborted (every player has made two moves of
    their own): the button that ends it then reads Resign, no longer Abort. Who decided."""
    order: list[str] = []
    while any(player.page.evaluate(ABORTABLE) for player in players):
        assert len(order) < 60, ("the game could still be aborted", order)
        order += play_decisions(players, game, 4)
    return order


def play_decisions(players: list[Player], game: str, count: int) -> list[str]:
    """At least `count` decisions, by whoever may act, until the turn has passed from one
    browser to the other (its title then says "your turn"; a stop-card window is no turn);
    after each, a picture of the other browser. Returns who decided, in order."""
    people = {id(p): Person(p.page, game) for p in players}
    order: list[str] = []
    turns_arrived: list[str] = []
    deadline = time.monotonic() + 120  # room for one click that found its decision gone
    while len(order) < count or not turns_arrived:
        assert time.monotonic() < deadline and len(order) < 3 * count, ("the turn never passed", order)
        mover = next((p for p in players if p.page.evaluate(CAN_ACT)), None)
        if mover is None:
            players[0].page.wait_for_timeout(150)
            continue
        window = mover.page.locator("#actions .window-clock").count() > 0
        if order and order[-1] != mover.label and not window:  # the turn came from the other one
            assert "your turn" in mover.page.title(), mover.page.title()
            turns_arrived.append(mover.label)
        person = people[id(mover)]
        try:
            person.take_a_decision()
        except PlaywrightTimeout:
            # The decision went away between looking and clicking (a window that closed, the
            # turn moved on under a busy server): look again; a page that still shows it
            # and cannot take it is a failure.
            if mover.page.evaluate(CAN_ACT):
                raise
            continue
        mover.clicks += person.clicks
        person.clicks = 0
        order.append(mover.label)
        other = next(p for p in players if p is not mover)
        other.page.wait_for_timeout(900)  # the move plays out at the page's pace
        other.keep(f"after-{len(order)}")
    return order


def test_two_accounts_play_by_invite_resign_and_the_game_is_rated(server, browser):
    laptop = arrive(browser, server, LAPTOP, "laptop")
    phone = arrive(browser, server, PHONE, "phone")
    try:
        create_account(laptop)
        create_account(phone)
        laptop.keep("lobby-signed-in")
        page = laptop.page
        page.select_option("#game-select", "reconstruct")
        laptop.clicks += 1
        page.select_option("[aria-label='Player 2 is']", "human")
        laptop.clicks += 1
        laptop.click(page.locator("#create-form button[type=submit]"))
        game_id = created_id(page)
        invite = page.get_by_label("invite link for Player 2").input_value()
        laptop.keep("created")
        laptop.click(page.get_by_role("link", name="Play this seat"))
        phone.page.goto(invite)  # the invite came by message: opened, not clicked here
        for player in (laptop, phone):
            player.page.wait_for_selector(".reconstruct")
        order = play_until_it_counts([laptop, phone], "reconstruct")
        deciding, waiting = phone, laptop  # the phone resigns (whoever is to move)
        assert len(set(order)) == 2, ("both players decided", order)
        for player, other in ((laptop, phone), (phone, laptop)):  # by account name, rating after
            player.page.wait_for_function("(shown) => document.querySelector('#status').textContent"
                                          ".includes(shown)", arg=f"{other.name} (1500?)")
            assert other.name in player.page.text_content("#log")
            assert "What should the others call you?" not in player.page.inner_text("main")

        resign = deciding.page.get_by_role("button", name="Resign", exact=True)
        deciding.click(resign)
        deciding.click(deciding.page.get_by_role("dialog", name="Resign this game?")
                       .get_by_role("button", name="Resign", exact=True))
        for player, result, why in ((deciding, "You lost", "You resign"), (waiting, "You won", "resigns")):
            end = player.page.get_by_role("dialog", name=result)
            end.wait_for(timeout=10_000)
            assert why in end.inner_text()  # told from each side: "you" for the viewer
            player.keep("end")

        for player, won in ((waiting, True), (deciding, False)):
            profile = player.page  # from the lobby, by the name in its header
            profile.goto(server + "/")
            profile.get_by_role("link", name=player.name, exact=True).click()
            profile.wait_for_url(f"**/players/{player.name}")
            profile.locator("table.leaderboard tbody tr").first.wait_for()
            shown = profile.locator("section.rating-game").inner_text()
            assert "after 1 rated game" in shown and "Rating 1500" not in shown, shown
            assert profile.get_by_role("heading", name=player.name, exact=True).inner_text() == player.name
            game_row = profile.locator("table.leaderboard tbody tr").first
            assert ("Won" if won else "Lost") in game_row.inner_text()
            assert profile.locator(f"a[href='/games/{game_id}/replay']").count() == 1
            player.keep("profile")
        board = waiting.page  # one rated game: provisional, so on no leaderboard yet
        board.goto(server + "/")
        board.get_by_role("link", name="Leaderboards").click()
        board.locator("table.leaderboard tbody tr").first.wait_for()
        listed = board.locator("table.leaderboard").inner_text()
        assert laptop.name not in listed and phone.name not in listed, listed
        assert "10 rated games against 5 different opponents" in board.inner_text("main")
        waiting.keep("leaderboard")
        print(f"clicks from the lobby to the end dialog: creator {laptop.clicks}, "
              f"invitee {phone.clicks} (who decided: {order})")
    finally:
        for player in (laptop, phone):
            player.page.context.close()
    assert not laptop.errors and not phone.errors, (laptop.errors, phone.errors)


def join_from_the_lobby(player: Player, game_id: str, name: str) -> None:
    """The lobby's open games, filtered to Quest for Makuta at a real-time pace: Join, a name."""
    page = player.page
    page.select_option("#game-filter", "makuta")
    page.select_option("#pace-filter", "realtime")
    row = page.locator(f"#game-list li[data-game='{game_id}']")
    player.click(row.get_by_role("button", name="Join"))
    row.get_by_label("Your display name (optional)").fill(name)
    player.click(row.get_by_role("button", name="Join"))
    page.wait_for_url(f"**/games/{game_id}")
    page.wait_for_selector(".makuta")


def say(player: Player, text: str) -> None:
    """A line in the chat (on a phone the panel is folded first: unfolded, one tap)."""
    page = player.page
    if page.locator("#chat-panel").get_attribute("open") is None:
        player.click(page.locator("#chat-panel > summary"))
    page.get_by_role("textbox", name="Chat message").fill(text)
    player.click(page.get_by_role("button", name="Send"))


def test_three_play_makuta_one_resigns_and_the_other_two_play_on(server, browser):
    host = arrive(browser, server, LAPTOP, "host")
    phone = arrive(browser, server, PHONE, "phone")
    third = arrive(browser, server, LAPTOP, "third")
    everyone = [host, phone, third]
    try:
        create_account(host)
        page = host.page
        page.select_option("#game-select", "makuta")
        page.click("#add-seat")
        for seat in (2, 3):
            page.select_option(f"[aria-label='Player {seat} is']", "human")
        page.check("#public")
        page.click("#create-form button[type=submit]")
        game_id = created_id(page)

        # The open game in the lobby: the waiting player's rating, found by game and pace.
        listed = phone.page.locator(f"#game-list li[data-game='{game_id}']")
        listed.filter(has_text=f"{host.name} (1500?)").wait_for(timeout=15_000)
        phone.keep("lobby-open-game", full_page=True)
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways
        phone.page.select_option("#pace-filter", "turn_based")
        listed.wait_for(state="detached")
        join_from_the_lobby(phone, game_id, "Ana")
        join_from_the_lobby(third, game_id, "Ben")
        host.click(page.get_by_role("link", name="Play this seat"))
        page.wait_for_selector(".makuta")
        watcher = browser.new_context(viewport=PHONE).new_page()
        watcher.goto(f"{server}/games/{game_id}?watch")
        watcher.wait_for_selector(".makuta")
        watcher.locator("#chat-panel > summary").click()  # a phone: the chat starts folded

        say(host, "kia ora, Toa")
        say(phone, "hello from the phone")
        for reader in (host.page, phone.page, third.page, watcher):  # every line reaches everyone
            for line in (f"{host.name}: kia ora, Toa", "Ana: hello from the phone"):
                reader.locator("#chat-lines li", has_text=line).wait_for(timeout=10_000)
        play_until_it_counts(everyone, "makuta")
        for player in everyone:
            player.keep("makuta-playing", full_page=True)
        resign = phone.page.get_by_role("button", name="Resign", exact=True)
        phone.click(resign)
        phone.click(phone.page.get_by_role("dialog", name="Resign this game?")
                    .get_by_role("button", name="Resign", exact=True))
        phone.page.get_by_text("You are out of this game").wait_for(timeout=10_000)
        phone.keep("out")
        assert phone.page.locator("#end[open]").count() == 0
        play_decisions([host, third], "makuta", 2)  # the game goes on for the two left
        for player in (host, third):
            assert player.page.locator("#end[open]").count() == 0
            assert "Ana resigns" in player.page.text_content("#log")
            assert "Ana (out)" in player.page.inner_text("#status")  # not waited for, not away
            assert player.page.inner_text(".clock[data-seat='1'] .clock-time") == "out"
            assert player.page.locator("#presence .presence-out").inner_text().startswith("Ana (out)")
            player.keep("after-resign")
        say(third, "on we go")  # the Toa who is out still reads it
        phone.page.locator("#chat-lines li", has_text="Ben: on we go").wait_for(timeout=10_000)
        watcher.goto(f"{server}/games/{game_id}/replay")
        watcher.get_by_role("button", name="Last step").click()  # the chat as said up to there
        watcher.locator("#chat-lines li", has_text="Ben: on we go").wait_for(timeout=10_000)
        assert watcher.locator("#chat-lines li").all_inner_texts() == [
            f"{host.name}: kia ora, Toa", "Ana: hello from the phone", "Ben: on we go"]
        watcher.screenshot(path=str(ARTIFACTS / "people-replay-chat-phone.png"), full_page=True)
        watcher.context.close()
    finally:
        for player in everyone:
            player.page.context.close()
    assert not any(p.errors for p in everyone), [p.errors for p in everyone]
