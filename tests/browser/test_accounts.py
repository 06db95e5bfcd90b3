"""An account made in one browser, used from another (a phone): signed in there, its games
listed under "Your games", one opened without any link and played from it."""

from __future__ import annotations

import json
import secrets
import urllib.request

from .conftest import LAPTOP, PHONE, screenshot
from .person import Person
from .test_lobby import created_id

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
