"""An account made in one browser, used from another (a phone): signed in there, its games
listed under "Your games", one opened without any link and played from it; signing out
forgets the account's games in the browser."""

from __future__ import annotations

import json
import secrets
import urllib.request

from tests.server.wire import call

from .conftest import LAPTOP, PHONE, screenshot
from .person import Person
from .test_lobby import PEOPLE, created_id, hold

PASSWORD = "three toa and a kanohi"


def sign_in(page, name: str, button: str) -> None:
    page.get_by_role("button", name="Sign in", exact=True).click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("User name").fill(name)
    dialog.get_by_label("Password").fill(PASSWORD)
    dialog.get_by_role("button", name=button, exact=True).click()
    page.get_by_text(f"Signed in as {name}").wait_for()


def test_an_account_made_on_a_laptop_plays_its_game_from_a_phone(server, browser):
    name = f"Toa_{secrets.token_hex(3)}"
    laptop = browser.new_context(viewport=LAPTOP).new_page()
    laptop.goto(server + "/")
    laptop.get_by_role("button", name="Sign in", exact=True).click()
    dialog = laptop.get_by_role("dialog")
    dialog.get_by_label("User name").fill(name)
    dialog.get_by_label("Password").fill("short")
    dialog.get_by_role("button", name="Create account").click()
    laptop.locator("#account-password-error", has_text="8 to 256").wait_for()  # shown by its field
    screenshot(laptop, "account-dialog")
    dialog.get_by_role("button", name="Cancel").click()
    sign_in(laptop, name, "Create account")
    laptop.click("#create-form button[type=submit]")
    game_id = created_id(laptop)
    laptop.reload()
    laptop.locator(f"#your-games li[data-game='{game_id}']").wait_for()
    screenshot(laptop, "account-signed-in")

    phone_context = browser.new_context(viewport=PHONE)
    phone = phone_context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    phone.goto(server + "/")
    sign_in(phone, name, "Sign in")
    listed = phone.locator(f"#your-games li[data-game='{game_id}']")
    listed.wait_for()
    screenshot(phone, "account-phone-games")
    listed.get_by_role("link", name="Resume").click()
    phone.wait_for_url(f"**/games/{game_id}")
    person = Person(phone, "reconstruct")
    person.settle()
    person.take_a_decision()
    phone.wait_for_function(f"""async () => (await (await fetch('/api/games/{game_id}')).json()).at > 0""")
    with urllib.request.urlopen(f"{server}/api/games/{game_id}", timeout=10) as answer:
        assert json.load(answer)["seats"][0]["account"] == name
    assert not errors, errors
    phone_context.close()
    laptop.context.close()


def test_signing_out_forgets_the_accounts_games_in_this_browser(server, page):
    """Its games stay the account's (listed wherever it signs in), not this browser's; a game
    this browser kept without putting it in the account stays listed."""
    kept_here = call(server, "/api/games", {"game": "reconstruct", "seats": PEOPLE})
    page.goto(server + "/")
    hold(page, kept_here["id"], kept_here["seats"][0]["token"])
    sign_in(page, f"Toa_{secrets.token_hex(3)}", "Create account")
    page.click("#create-form button[type=submit]")
    game_id = created_id(page)
    yours = page.locator(f"#your-games li[data-game='{game_id}']")
    yours.wait_for()
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("button", name="Sign in", exact=True).wait_for()
    yours.wait_for(state="detached")
    assert page.evaluate(f"localStorage.getItem('matanui:tokens:{game_id}')") is None
    assert page.evaluate(f"localStorage.getItem('matanui:seats:{game_id}')") is None
    assert page.locator("#created").is_hidden()  # the seat's secret link is gone from the page too
    page.locator(f"#your-games li[data-game='{kept_here['id']}']").wait_for()
    listed = page.locator(f"#game-list li[data-game='{game_id}']")
    listed.wait_for()
    assert listed.get_by_role("link", name="Resume").count() == 0 and "your turn" not in listed.inner_text()
    screenshot(page, "signed-out")
