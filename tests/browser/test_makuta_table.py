"""Quest for Makuta's table in the browser, as a player meets it: one click on a highlighted
space walks the whole move there, and the list offers the same walks (one way to move); on a
laptop the board never scrolls; a drawn board is shown whole one way at a time before it is
laid, the whole island fits the frame, and your collector card is a region of its own."""

from __future__ import annotations

from .conftest import screenshot
from .test_boards import create

# Settled: nothing walking, and a decision (or the end) on the screen.
SETTLED = """() => !document.querySelector('.makuta[data-walking]')
    && (document.querySelector('#actions button:not([disabled])')
        || !document.querySelector('#over').hidden)"""


def open_makuta(server, page, seed=5):
    created = create(server, "makuta", 1, seed=seed, character="tahu")
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_function(SETTLED, timeout=15_000)


def log_lines(page) -> list[str]:
    return page.locator("#log li").all_text_contents()


def roll(page) -> None:
    page.locator("#actions button:enabled", has_text="Roll").click()
    page.wait_for_function(SETTLED, timeout=15_000)


def test_one_click_walks_the_whole_move_and_a_board_is_previewed_before_it_is_laid(server, page):
    open_makuta(server, page)
    roll(page)
    portal = page.locator("#board .zoom-content .kspace.target.i-P").first
    space = portal.get_attribute("data-space")
    steps_before = sum("Tahu moves" in line for line in log_lines(page))
    portal.click()  # seed 5: Tahu rolls 3; the portal 0,-3 is two steps and a stop away
    page.wait_for_selector("#board .lay-bar:not([hidden])", timeout=15_000)
    page.wait_for_function(SETTLED, timeout=15_000)
    lines = log_lines(page)
    assert sum("Tahu moves" in line for line in lines) - steps_before == 2
    assert any("Tahu stops" in line for line in lines)
    assert page.locator(f"#board [data-space='{space}'] .pawn.t-tahu").count()
    screenshot(page, "makuta-table-preview")

    # The preview is the board itself: its spaces with the tokens to be laid, one way at a time.
    ways = page.locator("#board .lay-bar .place")
    assert ways.count() == page.locator("#actions button:enabled").count() >= 2
    first = page.text_content("#board .lay-bar .lay-text")
    assert page.locator("#board .kspace.preview").count() > 20
    assert page.locator("#board .kspace.preview .chip").count() >= 3
    page.keyboard.press("ArrowRight")
    second = page.text_content("#board .lay-bar .lay-text")
    assert second != first and "way 2 of" in second and "by its portal" in second
    boards = page.locator("#board .kboard").count()
    page.click("#board .lay-bar .lay-it")
    page.wait_for_function(f"() => document.querySelectorAll('#board .kboard').length === {boards + 1}",
                           timeout=15_000)
    assert page.locator("#board .kboard.fresh").count() == 1  # the board just laid is marked
    portal_words = [line for line in log_lines(page) if "portal to portal" in line][-1]
    assert second.split("by its portal ")[1] in portal_words  # one numbering: map and log


def test_the_list_offers_the_same_whole_walks_as_the_map(server, page):
    open_makuta(server, page)
    roll(page)  # seed 5: Tahu rolls 3
    listed = page.locator("#actions button:enabled")
    walks = [text for text in listed.all_text_contents() if text.startswith("Walk to")]
    targets = page.locator("#board .zoom-content .kspace.target")
    spaces = {targets.nth(i).get_attribute("data-space") for i in range(targets.count())}
    assert len(walks) == len(spaces) == listed.count() >= 2  # no single steps beside the walks
    assert all(any(text.startswith(f"Walk to {space} ") for text in walks) for space in spaces)
    portal = next(text for text in walks if "Portal" in text)
    space = portal.split()[2]
    steps_before = sum("Tahu moves" in line for line in log_lines(page))
    page.locator("#actions button:enabled", has_text=portal).click()
    page.wait_for_function("() => document.getElementById('turn-title').textContent.startsWith('Walking to')")
    page.wait_for_function(SETTLED, timeout=15_000)
    assert page.locator(f"#board [data-space='{space}'] .pawn.t-tahu").count()
    assert sum("Tahu moves" in line for line in log_lines(page)) - steps_before == 2


def test_on_a_laptop_the_board_never_scrolls_and_the_others_stand_beside_the_map(server, page):
    open_makuta(server, page)
    roll(page)
    board = page.locator("#board")
    assert board.evaluate("(node) => node.scrollHeight <= node.clientHeight + 1")
    frame = page.locator("#board .zoom-frame").bounding_box()
    others = page.locator("#board .collectors").bounding_box()
    assert others["x"] >= frame["x"] + frame["width"] - 1  # beside the map, not under it
    assert frame["height"] >= 0.5 * page.viewport_size["height"]


def test_the_whole_island_fits_the_frame_centred(server, page):
    open_makuta(server, page)
    page.click("#board .zoom-button[aria-label='Show the whole board']")
    frame = page.locator("#board .zoom-frame").bounding_box()
    island = page.locator("#board .zoom-content").bounding_box()
    assert island["width"] <= frame["width"] + 1 and island["height"] <= frame["height"] + 1
    # As large as fits: it fills the frame one way, and is centred the other.
    assert max(island["width"] / frame["width"], island["height"] / frame["height"]) > 0.98
    centre = lambda box, k, size: box[k] + box[size] / 2  # noqa: E731
    assert abs(centre(island, "x", "width") - centre(frame, "x", "width")) < 2
    assert abs(centre(island, "y", "height") - centre(frame, "y", "height")) < 2


def test_your_collector_card_is_a_region_and_others_are_named(server, page):
    open_makuta(server, page)
    mine = page.get_by_role("region", name="Your collector card")
    assert mine.count() == 1 and "You" in mine.text_content() and "Tahu" in mine.text_content()
    assert "Player" not in page.text_content("#board .collectors")
    roll(page)  # the bot's turn follows Tahu's: afterwards its path is marked on the map
    page.locator("#board .zoom-content .kspace.target").last.click()
    page.wait_for_function(SETTLED, timeout=20_000)
    page.wait_for_function("() => document.querySelector('#actions button:enabled')"
                           "?.textContent.startsWith('Roll')"
                           " || document.querySelector('#board .lay-bar:not([hidden])')", timeout=20_000)
    if page.locator("#actions button:enabled", has_text="Roll").count():
        assert page.locator("#board .kspace.walked, #board .kspace.walk-from").count() >= 2
    screenshot(page, "makuta-table-after-bot")
