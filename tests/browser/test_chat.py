"""Chat and presence in two browsers, one a laptop and one a phone: lines both ways (markup
shown as plain text), an unread count on the phone's collapsed panel that covers neither the
board nor the hand, a hidden page shown away to the other, and the chat in the replay."""

from __future__ import annotations

from .conftest import ARTIFACTS, LAPTOP, PHONE, SHOWN_BOX, screenshot
from .test_seats import TWO_PEOPLE, create

HIDE = """() => {
    Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
    document.dispatchEvent(new Event('visibilitychange'));
}"""


def overlaps(page, one: str, other: str) -> bool:
    """Whether what shows of `one` lies over what shows of `other` (SHOWN_BOX)."""
    return page.evaluate("""([a, b]) => {
        const [x, y] = [a, b].map((selector) => (""" + SHOWN_BOX + """)(document.querySelector(selector)));
        return x.left < x.right && x.top < x.bottom && y.left < y.right && y.top < y.bottom
            && x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom;
    }""", [one, other])


def typed_where_seen(page) -> bool:
    """Whether the chat's box, brought into sight, is the element a finger on it reaches."""
    return page.evaluate("""() => {
        const input = document.querySelector('#chat-text');
        input.scrollIntoView({ block: 'nearest' });
        const box = input.getBoundingClientRect();
        return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) === input;
    }""")


def test_two_players_chat_both_ways_see_presence_and_find_it_in_the_replay(server, browser):
    seats = [{**TWO_PEOPLE[0], "name": "Ana"}, {**TWO_PEOPLE[1], "name": "Bo"}]
    created = create(server, seats=seats, seed=None)
    laptop, phone = browser.new_context(viewport=LAPTOP), browser.new_context(viewport=PHONE)
    try:
        ana, bo = laptop.new_page(), phone.new_page()
        errors: list[str] = []
        for page in (ana, bo):
            page.on("pageerror", lambda error: errors.append(str(error)))
        ana.goto(server + created["seats"][0]["link"])
        bo.goto(server + created["seats"][1]["link"])
        for page in (ana, bo):
            page.wait_for_selector(".reconstruct")
        ana.wait_for_selector("#presence .presence-here >> text=Bo")

        ana.get_by_role("textbox", name="Chat message").fill("<b>kia ora</b> & welcome")
        ana.get_by_role("button", name="Send").click()
        bo.wait_for_function("() => document.querySelector('#chat-unread').textContent.includes('1 unread')")
        assert not bo.locator("#chat-panel").get_attribute("open")  # collapsed on a phone
        bo.locator("#chat-panel > summary").click()
        line = bo.locator("#chat-lines li").first
        line.wait_for()
        assert line.inner_text() == "Ana: <b>kia ora</b> & welcome"  # as text, never markup
        assert bo.locator("#chat-lines b").count() == 0
        bo.get_by_role("textbox", name="Chat message").fill("hello Ana")
        bo.get_by_role("button", name="Send").click()
        ana.wait_for_selector("#chat-lines li >> text=hello Ana")
        assert not overlaps(bo, "#chat-panel", "#board") and not overlaps(bo, "#chat-panel", ".dock")
        assert typed_where_seen(bo) and typed_where_seen(ana)
        screenshot(ana, "chat-laptop")
        bo.screenshot(path=str(ARTIFACTS / "chat-phone-open.png"), full_page=True)

        bo.evaluate(HIDE)
        ana.wait_for_selector("#presence .presence-away >> text=Bo")
        assert "(away)" in ana.locator("#presence .presence-away").inner_text()

        replay = laptop.new_page()
        replay.goto(f"{server}/games/{created['id']}/replay")
        replay.wait_for_selector("#chat-lines li >> text=hello Ana")
        assert replay.locator("#chat-lines li").all_inner_texts() == [
            "Ana: <b>kia ora</b> & welcome", "Bo: hello Ana"]
        assert not errors, errors
    finally:
        laptop.close()
        phone.close()

