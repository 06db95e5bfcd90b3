"""Each game's board in the browser, at a laptop's width and a phone's: every kind of thing on
the board explains itself in a tooltip and a legend, the decision stays on a phone's screen,
tap targets are big enough to hit, nothing breaks the Content-Security-Policy, and Quest for
Makuta is played, boards laid included, by clicking the highlighted places on the map.
Pictures of both widths are kept in artifacts/browser/."""

from __future__ import annotations

import json
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe

from .conftest import ARTIFACTS, LAPTOP, PHONE, screenshot
from .person import STILL
from .test_reconstruct import SETTLED

# What a reader may point at on each board, and must be told about.
ELEMENTS = {
    "reconstruct": [".card.face", ".card.back", ".part", ".torso"],
    "masks": [".mcell:not(.k-sea)", ".toa-mask", ".mcard", ".toa-card"],
    "makuta": [".kspace", ".chip", ".pawn", ":is(.die, .die-unrolled)"],
}
# Everything on the board or in the decision panel that takes a tap.
TAPPABLE = "#board button:enabled, #board summary, #mine button:enabled, #turn button:enabled, #turn a"


def create(server: str, game: str, bots: int, options: dict | None = None, seed: int = 9,
           character: str | None = None) -> dict:
    seats = [{"kind": "human", **({"character": character} if character else {})}]
    seats += [{"kind": "bot", "level": "easy"}] * bots
    body = {"game": game, "seats": seats, "seed": seed, "options": options or {}}
    request = urllib.request.Request(f"{server}/api/games", headers={"content-type": "application/json"},
                                     data=json.dumps(body).encode())
    return json.load(urllib.request.urlopen(request, timeout=10))


def console_problems(page) -> list[str]:
    """Console errors (a CSP violation is one) and CSP violation events, as they happen."""
    problems: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.add_init_script("document.addEventListener('securitypolicyviolation', (e) => "
                         "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))")
    return problems


def open_game(server, page, game, bots, options=None, seed=9, character=None):
    created = create(server, game, bots, options, seed, character)
    page.goto(server + created["seats"][0]["link"])
    page.wait_for_function(SETTLED, timeout=15_000)


def play_one(page) -> None:
    target = page.locator("#board .target:enabled").first
    (target if target.count() else page.locator("#actions button:enabled").first).click()
    page.wait_for_function(SETTLED, timeout=15_000)


# The page's own animations (a card growing in, a pawn walking) are over; CSS ones (a pulse)
# run for ever and change no size.
ANIMATIONS_DONE = """() => document.getAnimations()
    .filter((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition))
    .every((a) => a.playState !== 'running')"""


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
@pytest.mark.parametrize(("game", "bots", "options"),
                         [("reconstruct", 1, {}), ("masks", 1, {"map": "both"}), ("makuta", 2, {})])
def test_every_board_explains_itself_and_fits_the_screen(server, page, game, bots, options, size):
    problems = console_problems(page)
    page.set_viewport_size(size)
    open_game(server, page, game, bots, options)
    phone = size == PHONE
    # Play on (by the board's highlighted targets, else the list) until every kind is out.
    for _ in range(40):
        if all(page.locator(f"#board {selector}").count() for selector in ELEMENTS[game]):
            break
        play_one(page)

    # Not at a response window, which closes by itself and redraws the board under the pointer.
    page.wait_for_function("() => !document.querySelector('.window-clock')", timeout=15_000)
    page.wait_for_function(SETTLED, timeout=15_000)
    # A tooltip on every kind of thing on the board, and one shows when pointed at.
    for selector in ELEMENTS[game]:
        things = page.locator(f"#board {selector}:not(.legend *)")
        assert things.count(), f"{game}: no {selector} on the board"
        tips = things.evaluate_all("(nodes) => nodes.map((n) => n.dataset.tip || '')")
        assert all(tip.strip() for tip in tips), f"{game}: a {selector} has no tooltip"
    if not phone:
        first = page.locator(f"#board {ELEMENTS[game][0]}:not(.legend *)").first
        first.hover()
        page.wait_for_selector(".tippy-box", timeout=5_000)
        assert page.text_content(".tippy-box").strip()
        page.mouse.move(0, 0)
        page.wait_for_selector(".tippy-box", state="detached", timeout=5_000)

    # A legend for the symbols of the two map games, opened by a tap.
    if game != "reconstruct":
        page.click("#board .legend summary")
        assert page.locator("#board .legend dt").count() >= 6
        page.click("#board .legend summary")

    if phone:
        # The decision is on screen wherever the page is scrolled to.
        for scroll in (0, 600):
            page.evaluate(f"window.scrollTo(0, {scroll})")
            box = page.locator("#turn").bounding_box()
            assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] + 1, (scroll, box)
            assert page.locator("#actions button:enabled").first.is_visible()
        page.evaluate("window.scrollTo(0, 0)")
        # A card just drawn grows into place (common.js flip): measure it at its size.
        page.wait_for_function(ANIMATIONS_DONE, timeout=5_000)
        # WCAG 2.5.5: every tap target at least 44 by 44 CSS pixels.
        sizes = page.locator(TAPPABLE).evaluate_all(
            "(nodes) => nodes.filter((n) => n.offsetParent).map((n) => [n.className || n.tagName, "
            "n.getBoundingClientRect().width, n.getBoundingClientRect().height, n.textContent.slice(0, 30)])")
        small = [s for s in sizes if s[1] < 43.5 or s[2] < 43.5]
        assert sizes and not small, small

    # No card's text is cut off: nothing on the board hides what overflows.
    clipped = page.locator("#board .card, #board .mcard").evaluate_all(
        "(nodes) => nodes.filter((n) => n.scrollHeight > n.clientHeight + 1"
        " && getComputedStyle(n).overflow === 'hidden').map((n) => n.textContent)")
    assert not clipped, clipped

    # Text readable on its background: at least 4.5:1 (axe-core's colour-contrast check). axe
    # cannot measure through a gradient: the page's own is made its lightest colour first.
    page.evaluate("() => { document.body.style.background = '#232836'; }")
    contrast = Axe().run(page, context={"include": [["#board"], ["#turn"], ["#log"]]},
                         options={"runOnly": ["color-contrast"]})
    assert contrast.violations_count == 0, contrast.generate_report()

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{game}-board-{'phone' if phone else 'laptop'}.png"))
    assert not problems, problems


def test_makuta_is_played_by_clicking_the_map_boards_included(server, page):
    """Tahu walks by clicking the highlighted spaces; when he lands on an open portal, the new
    board is shown in every legal placement, and clicking one lays it."""
    problems = console_problems(page)
    open_game(server, page, "makuta", 1, seed=4, character="tahu")
    laid = False
    for _ in range(120):
        page.wait_for_function(SETTLED, timeout=15_000)
        if not page.locator("#over").is_hidden():
            break
        place = page.locator("#board .place.target")
        if place.count():
            boards = page.locator("#board .kboard").count()
            assert place.count() == page.locator("#actions button:enabled").count()
            place.last.hover()  # its board shows in place
            page.screenshot(path=str(ARTIFACTS / "makuta-laying-laptop.png"))
            place.first.click()
            laid_one = f"() => document.querySelectorAll('#board .kboard').length === {boards + 1}"
            page.wait_for_function(laid_one, timeout=15_000)
            laid = True
            break
        portal = page.locator("#board .zoom-content .kspace.target.i-P")
        north = page.locator("#board .zoom-content .kspace.target[data-actions='move:N']")
        anywhere = page.locator("#board .zoom-content .kspace.target")
        target = portal if portal.count() else north if north.count() else anywhere
        if target.count():
            page.screenshot(path=str(ARTIFACTS / "makuta-moving-laptop.png"))  # the last step kept
            space = target.first.get_attribute("data-space")
            target.first.click()
            page.wait_for_selector(f"#board [data-space='{space}'] .pawn.t-tahu", timeout=15_000)
            continue
        stop = page.locator("#actions button:enabled", has_text="Stop")
        (stop if stop.count() else page.locator("#actions button:enabled").first).first.click()
    assert laid, "Tahu never laid a board"
    assert not problems, problems


def test_hot_seat_hides_each_view_until_the_next_person_is_ready(server, page):
    seats = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]
    request = urllib.request.Request(f"{server}/api/games", headers={"content-type": "application/json"},
                                     data=json.dumps({"game": "reconstruct", "seats": seats, "seed": 2,
                                                      "hotseat": True}).encode())
    created = json.load(urllib.request.urlopen(request, timeout=10))
    page.goto(server + created["hotseat_link"])
    page.wait_for_function(SETTLED, timeout=15_000)
    first = page.text_content("#title")
    page.locator("#actions button:enabled").last.click()  # pass: the other player decides
    page.wait_for_selector("#cover:not([hidden])")
    assert "Pass the screen to" in page.text_content("#cover-text")
    screenshot(page, "hotseat-cover")
    page.click("#cover-button")
    page.wait_for_function(SETTLED, timeout=15_000)
    assert page.text_content("#title") != first  # now the other seat's view


def test_a_long_press_on_a_phone_says_what_a_space_is(server, browser):
    """On a touch screen there is no hovering: holding a finger on a space shows its tooltip."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        open_game(server, page, "makuta", 1)
        page.wait_for_function(ANIMATIONS_DONE)
        page.wait_for_function(STILL, timeout=10_000)  # the map's pan to the pawn is over
        # A portal whose middle shows in the map's frame (one at its edge is cut by the frame).
        point = page.evaluate("""() => [...document.querySelectorAll('#board .zoom-content .kspace.i-P')]
            .map((node) => { const b = node.getBoundingClientRect();
                             return { node, x: b.x + b.width / 2, y: b.y + b.height / 2 }; })
            .filter(({ node, x, y }) => node.contains(document.elementFromPoint(x, y)))
            .map(({ x, y }) => ({ x, y }))[0]""")
        touch = context.new_cdp_session(page)
        touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
        page.wait_for_selector(".tippy-box", timeout=5_000)
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        assert "Portal" in page.text_content(".tippy-box")
    finally:
        context.close()
