"""Turn alerts in the browser (web/js/turn.js): two people in two browser contexts play each
other; when the turn arrives in a hidden tab its title and favicon say so and, once the player
turned notifications on (the only moment the browser is asked for permission), a desktop
notification comes whose click focuses the tab. The sound's mute is remembered; spectators get
no alerts; the hot-seat cover names the player whose turn it is.

Headless chromium keeps every page "visible" (a second page brought to the front, or the
window minimized through CDP, changes nothing: tried), so a tab is hidden here the way the
page itself learns of it: `document.visibilityState` overridden and `visibilitychange` sent."""

from __future__ import annotations

import re
import time

import pytest
from axe_playwright_python.sync_playwright import Axe

from .conftest import ARTIFACTS, LAPTOP, PHONE
from .person import Person, create_game
from .test_seats import TWO_PEOPLE, create

# Counts what the page asks of the browser: permission prompts, notifications made, focus,
# tones started (the chime); and keeps every title the page had.
SPY = """(() => {
  const spy = window.__alerts = { asked: 0, shown: [], focused: 0, tones: 0, titles: [] };
  new MutationObserver(() => { if (document.title !== spy.titles.at(-1)) spy.titles.push(document.title); })
    .observe(document, { subtree: true, childList: true, characterData: true });
  const Real = window.Notification;
  class Counted extends Real {
    constructor(title, options) {
      super(title, options);
      spy.shown.push({ title, body: options?.body });
      spy.last = this;
    }
  }
  Object.defineProperty(Counted, "permission", { get: () => Real.permission });
  Counted.requestPermission = () => { spy.asked += 1; return Real.requestPermission(); };
  window.Notification = Counted;
  const focus = window.focus.bind(window);
  window.focus = () => { spy.focused += 1; focus(); };
  const tone = AudioScheduledSourceNode.prototype;
  const start = tone.start;
  tone.start = function (...args) { spy.tones += 1; return start.apply(this, args); };
})()"""
HIDE = """() => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""
YOUR_TURN = "() => document.title.includes('your turn')"
NOT_YOUR_TURN = "() => !document.title.includes('your turn')"
FAVICON = "document.querySelector(\"link[rel='icon']\").getAttribute('href')"
PRESSED = "(name) => document.querySelector(`#alerts [aria-label='${name}']`).ariaPressed === 'true'"
COVERED_OR_DECIDING = """() => !document.querySelector('#cover').hidden
    || document.querySelector('#actions button:not([disabled])')"""
VIEWPORTS = pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])


def open_page(browser, server: str, link: str, viewport: dict, grant: bool = False):
    context = browser.new_context(viewport=viewport)
    if grant:
        context.grant_permissions(["notifications"], origin=server)
    context.add_init_script(SPY)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + link if link.startswith("/") else link)
    page.wait_for_selector("#board > *", timeout=15_000)
    return context, page, errors


def spied(page) -> dict:
    return page.evaluate("(({ last, ...counted }) => counted)(__alerts)")


def keep(page, name: str) -> None:
    """A picture of the page as a test artefact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def toggle(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def play_until_the_turn_comes(person: Person, page, limit: int = 12) -> None:
    """`person` decides until `page` (maybe the same one) sees the turn arrive: a title without
    "your turn" followed by one with it, after the titles `page` had so far."""
    seen = max(0, page.evaluate("__alerts.titles.length") - 1)  # from the title it has now
    arrived = f"""() => __alerts.titles.slice({seen}).some((t, i, all) => i > 0 && t.includes('your turn')
        && !all[i - 1].includes('your turn'))"""
    can_act = "() => Boolean(document.querySelector('#actions button:not([disabled])'))"
    decisions = 0
    deadline = time.monotonic() + 60
    while not page.evaluate(arrived):
        assert time.monotonic() < deadline and decisions <= limit, ("the turn never came", decisions,
                                                                    page.evaluate("__alerts.titles"))
        if person.page.evaluate(can_act):
            person.take_a_decision()
            decisions += 1
        person.page.wait_for_timeout(200)


@VIEWPORTS
def test_the_turn_arriving_in_a_hidden_tab_changes_title_and_favicon_and_notifies(server, browser, viewport):
    created = create(server, seats=TWO_PEOPLE, seed=None)  # invites: two people, two browsers
    pages, contexts, errors = [], [], []
    try:
        for seat in created["seats"]:
            context, page, seen = open_page(browser, server, seat["link"], viewport, grant=True)
            contexts.append(context)
            pages.append(page)
            errors.append(seen)
        pages[0].wait_for_function("() => document.querySelector('#alerts button')")
        mover_at = next(i for i, page in enumerate(pages) if "your turn" in page.title())
        mover, waiter = pages[mover_at], pages[1 - mover_at]
        assert "your turn" not in waiter.title() and waiter.evaluate(FAVICON) == "data:,"
        assert re.search(r"^● your turn · .+ — matanui$", mover.title()), mover.title()
        assert mover.evaluate(FAVICON).startswith("data:image/svg+xml")

        # Turning notifications on is what asks for permission (granted here), and only that.
        bell = toggle(waiter, "Notifications")
        assert bell.get_attribute("aria-pressed") == "false" and spied(waiter)["asked"] == 0
        bell.click()  # also the gesture that lets the chime play
        waiter.wait_for_function(PRESSED, arg="Notifications")
        assert spied(waiter)["asked"] == 1
        for page in pages:
            for name in ("Sound", "Notifications"):
                box = toggle(page, name).bounding_box()
                assert box and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (name, box)
        keep(waiter, f"turn-alerts-{'phone' if viewport == PHONE else 'laptop'}")
        checked = Axe().run(waiter, context={"include": [["header"], ["#alerts"]]})  # axe-core's checks
        assert checked.violations_count == 0, checked.generate_report()
        waiter.evaluate(HIDE)

        play_until_the_turn_comes(Person(mover, "reconstruct"), waiter)
        assert "your turn" in waiter.title()
        assert waiter.evaluate(FAVICON).startswith("data:image/svg+xml")
        mover.wait_for_function(NOT_YOUR_TURN)
        assert mover.evaluate(FAVICON) == "data:,"
        waiter.wait_for_function("() => __alerts.shown.length > 0")
        alerts = spied(waiter)
        notification = alerts["shown"][0]
        assert notification["title"] == "Your turn — matanui" and "it is your turn" in notification["body"]
        assert alerts["tones"] >= 2, "the chime (sound on by default) played when the turn arrived"
        assert spied(mover)["shown"] == [] and spied(mover)["asked"] == 0

        waiter.evaluate("__alerts.last.onclick()")  # clicking the notification focuses the tab
        assert spied(waiter)["focused"] == 1
    finally:
        for context in contexts:
            context.close()
    assert not any(errors), errors


def test_mute_is_remembered_across_a_reload_and_silences_the_chime(server, browser):
    context, page, errors = open_page(browser, server, create_game(server, "reconstruct", 5), PHONE)
    try:
        sound = toggle(page, "Sound")
        assert sound.get_attribute("aria-pressed") == "true"  # on by default
        sound.click()
        assert sound.get_attribute("aria-pressed") == "false"
        page.reload()
        page.wait_for_selector("#board > *", timeout=15_000)
        sound = toggle(page, "Sound")
        assert sound.get_attribute("aria-pressed") == "false"
        keep(page, "turn-alerts-muted-phone")
        play_until_the_turn_comes(Person(page, "reconstruct"), page)  # a gesture; the bot answers
        assert spied(page)["tones"] == 0
    finally:
        context.close()
    assert not errors, errors


def test_notifications_the_browser_refuses_stay_off_and_say_why(server, browser):
    context, page, errors = open_page(browser, server, create_game(server, "masks", 6), LAPTOP)
    try:  # headless chromium denies notifications unless the context grants them
        bell = toggle(page, "Notifications")
        bell.click()
        page.wait_for_function("() => __alerts.asked === 1")
        page.wait_for_function("() => document.querySelector('#alerts [aria-label=Notifications]').title"
                               ".includes('allow')", timeout=5000)  # says why: blocked or not allowed
        assert bell.get_attribute("aria-pressed") == "false"
    finally:
        context.close()
    assert not errors, errors


def test_a_spectator_gets_no_alerts_and_no_toggles(server, browser):
    link = create_game(server, "masks", 4)
    context, page, errors = open_page(browser, server, link.split("#")[0] + "?watch", LAPTOP)
    try:
        assert page.locator("#alerts button").count() == 0
        assert "your turn" not in page.title()
    finally:
        context.close()
    assert not errors, errors


def test_the_hotseat_cover_names_whose_turn_it_is(server, browser):
    seats = [{**TWO_PEOPLE[0], "name": "Ana"}, {**TWO_PEOPLE[1], "name": "Gali Nuva"}]
    created = create(server, seats=seats, hotseat=True)
    context, page, errors = open_page(browser, server, created["hotseat_link"], PHONE)
    try:
        assert page.locator("#alerts button").count() == 0  # the cover is the hot-seat's alert
        person = Person(page, "reconstruct")
        for _ in range(12):
            if page.locator("#cover").is_visible():
                break
            person.settle()
            person.take_a_decision()
            page.wait_for_function(COVERED_OR_DECIDING, timeout=15_000)
        text = page.inner_text("#cover-text")
        said = r"Pass the screen to (Ana|Gali Nuva) — \1, it is your turn: tap to show your hand\."
        assert re.fullmatch(said, text), text
        button = page.get_by_role("button", name="Show my hand")
        box = button.bounding_box()
        assert box["y"] + box["height"] <= PHONE["height"] and box["x"] + box["width"] <= PHONE["width"], box
        keep(page, "hotseat-cover-named-phone")
    finally:
        context.close()
    assert not errors, errors
