"""A person at the table: plays a whole game in the browser by clicking what a person would
click (the piece or the space first, a listed decision only when there is nothing to click on
the table), counts the clicks, and checks after every step what the table promises (README.md,
"Play in the browser"): your own pieces on screen while you decide, the decision no taller
than a quarter of a phone, the last move told after every move of the other side, and the
end told from your side."""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass, field

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .conftest import ARTIFACTS, SHOWN_BOX

WINDOW_CLICK_MS = 4_000  # longer than the test servers' response window (1.5 s) and its drawing

SETTLED = """() => (document.querySelector('#actions button:not([disabled])')
    && !document.querySelector('.makuta[data-walking]') && !document.body.classList.contains('acting'))
    || document.querySelector('#end[open]')"""
# A board that pans (Makuta's follows the Toa to move, Masks' centres a phone's map) at rest:
# the same transform over three frames and no transition running. A person looks where the
# board came to rest; a target seen in the frame mid-pan may end under the legend.
STILL = """() => {
    const now = [...document.querySelectorAll('.zoom-content')];
    const pose = now.map((node) => node.style.transform).join('|');
    const moving = now.some((node) => node.getAnimations().length > 0);
    window.__stillFrames = !moving && window.__pose === pose ? (window.__stillFrames || 0) + 1 : 0;
    window.__pose = pose;
    return window.__stillFrames >= 3;
}"""
# The targets a person can see: on a board that pans, those inside its frame.
VISIBLE = """(nodes) => nodes.map((node, index) => {
    const frame = node.closest('.zoom-frame');
    if (!frame) return index;
    const [box, view] = [node.getBoundingClientRect(), frame.getBoundingClientRect()];
    const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
    return x > view.left && x < view.right && y > view.top && y < view.bottom ? index : -1;
}).filter((index) => index >= 0)"""

# The board's face, per game: what must lie in sight, with nothing over it, while you decide.
BOARD_FACE = {"reconstruct": "#board .centre", "masks": "#board .zoom-frame", "makuta": "#board .zoom-frame"}
# Of a 9x9 grid of points over the face's part inside the viewport, those a finger on them
# would not reach the face at (something else lies over it there).
COVERED = """(face) => {
    const { left, top, right, bottom } = (""" + SHOWN_BOX + """)(face);
    if (right - left < 20 || bottom - top < 20) return [['out of sight', top, bottom]];
    const covered = [];
    for (let i = 1; i <= 9; i++) for (let j = 1; j <= 9; j++) {
        const [x, y] = [left + (right - left) * i / 10, top + (bottom - top) * j / 10];
        const there = document.elementFromPoint(x, y);
        if (!there || !face.contains(there)) {
            covered.push([Math.round(x), Math.round(y), there && there.className]);
        }
    }
    return covered;
}"""
# How much of the viewport's height the play area has, and how far the hand spills sideways.
ROOM = """() => {
    const play = document.querySelector('.play-area').getBoundingClientRect();
    const hand = document.querySelector('#mine .hand');
    const told = document.querySelector('#last-move');
    return { play: Math.min(play.bottom, innerHeight) - Math.max(play.top, 0),
             spill: hand ? hand.scrollWidth - hand.clientWidth : 0,
             cut: told.scrollHeight - told.clientHeight };
}"""

# The pieces a person needs in sight to decide on a map: both Toa on the Masks map (one too far
# from yours to show both at full size on a phone marked at the frame's edge), your own pawn
# in Makuta. Those whose middle is not inside the map's frame (or is covered there).
PIECES = {"masks": "#board .zoom-content .toa-mask",
          # in your turn (a decision in another's, a token to take from them, is about their pawn),
          # but while a board is laid the view follows the board: that is the decision
          "makuta": "#board .makuta:has(.lay-bar[hidden]) .zoom-content"
                    " .pawn[data-tip^='Your pawn'][data-tip$='whose turn it is']"}
MOVED = """() => !document.getAnimations()
    .some((a) => !(a instanceof CSSAnimation) && !(a instanceof CSSTransition))"""
PIECES_OUT = """(selector) => {
    const frame = document.querySelector('#board .zoom-frame');
    const { left, top, right, bottom } = (""" + SHOWN_BOX + """)(frame);
    return [...document.querySelectorAll(selector)].map((piece) => {
        const box = piece.getBoundingClientRect();
        const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
        const seen = x > left && x < right && y > top && y < bottom
            && piece.contains(document.elementFromPoint(x, y));
        // Too far from yours to show both at full size (a phone): marked at the frame's edge.
        const marker = frame.querySelector(`.offmap[data-for="${piece.dataset.flip}"]`);
        const marked = marker && marker.contains(document.elementFromPoint(
            marker.getBoundingClientRect().left + 10, marker.getBoundingClientRect().top + 10));
        return seen || marked ? null : piece.dataset.tip || piece.className;
    }).filter(Boolean);
}"""

# What a person clicks first, per game: a piece or space on the table.
TABLE_TARGETS = {
    "reconstruct": ["main .part.target:not([aria-label^='pick up'])", "main .part.target",
                    "#mine .use-bar button.primary", "#board .spread .card.target"],
    "masks": ["#board .zoom-content .mcell.target", "#mine .use-bar button.primary"],
    "makuta": ["#board .zoom-content .kspace.target", "#board .place.target"],
}
# A piece a person picks up before choosing where it goes.
PICK_UP = {"reconstruct": "#mine .hand.mine .card:enabled", "masks": "#mine .mcard.playable"}


def create_game(server: str, game: str, seed: int, options: dict | None = None) -> str:
    """A game of one person against a `medium` bot; the person's link."""
    body = {"game": game, "seed": seed, "options": options or {},
            "seats": [{"kind": "human", "name": "Ana"}, {"kind": "bot", "level": "medium"}]}
    request = urllib.request.Request(server + "/api/games", json.dumps(body).encode(),
                                     {"content-type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return server + json.load(answer)["seats"][0]["link"]


@dataclass
class Person:
    page: object
    game: str
    clicks: int = 0
    decisions: int = 0
    last_moves: list[str] = field(default_factory=list)
    move_lines: list[list[str]] = field(default_factory=list)  # the line's movers, one each

    def click(self, locator) -> None:
        locator.click()
        self.clicks += 1

    def settle(self) -> None:
        self.page.wait_for_function(SETTLED, timeout=20_000)
        self.page.wait_for_function(STILL, timeout=20_000)

    def over(self) -> bool:
        return self.page.locator("#end[open]").count() > 0

    def check_the_table(self) -> None:
        """While a decision is offered: your pieces and the decision on screen, the decision at
        most a quarter of the viewport's height on a phone; the board's face in sight with
        nothing over it, both Toa on the Masks map and your pawn in Makuta in sight, the play
        area at least 40% of the screen's height, your hand wrapped rather than spilling
        sideways."""
        page = self.page
        viewport = page.viewport_size
        region = "Your collector card" if self.game == "makuta" else "Your hand"
        mine = page.get_by_role("region", name=region)
        box = mine.bounding_box()
        assert box and box["y"] < viewport["height"] and box["y"] + min(box["height"], 60) > 0, box
        decision = page.get_by_role("region", name="Your decision").bounding_box()
        assert decision["y"] >= 0 and decision["y"] + decision["height"] <= viewport["height"] + 1, decision
        if viewport["width"] < 600:
            assert decision["height"] <= viewport["height"] * 0.25 + 1, decision
        face = page.locator(BOARD_FACE[self.game]).first
        covered = face.evaluate(COVERED)
        if covered:
            self.keep_the_failure("covered")
        assert not covered, f"the board lies under something at {covered[:5]}"
        if self.game in PIECES:
            page.wait_for_function(STILL, timeout=20_000)  # the map has followed the move
            page.wait_for_function(MOVED, timeout=20_000)  # and the pieces have arrived
            out = page.evaluate(PIECES_OUT, PIECES[self.game])
            if out:
                self.keep_the_failure("out-of-sight")
            assert not out, f"out of sight while you decide: {out}"
        room = page.evaluate(ROOM)
        assert room["play"] >= viewport["height"] * 0.4 - 1, room
        assert room["spill"] <= 1, room
        assert room["cut"] <= 1, room  # the last move is told whole

    def keep_the_failure(self, what: str) -> None:
        """The picture of what the person saw, for whoever reads the failure."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        width = self.page.viewport_size["width"]
        self.page.screenshot(path=str(ARTIFACTS / f"{what}-{self.game}-{width}.png"))

    def take_a_decision(self) -> None:
        """Click on the table where the choice is (picking up a card first where a card is
        played), else the first listed decision."""
        page = self.page
        self.decisions += 1
        self.check_the_table()
        answer = page.locator("#actions .window-clock ~ li button:enabled")
        if answer.count():  # a response window: its answer is the button by the clock
            try:  # the window lasts 1.5 s here: one that closes under the pointer is missed,
                answer.first.click(timeout=WINDOW_CLICK_MS)  # as a person misses it
                self.clicks += 1
            except PlaywrightTimeout:
                pass  # and the caller looks at the table again
            return
        pick = PICK_UP.get(self.game)
        picked = False
        for selector in TABLE_TARGETS[self.game]:
            can_pick = pick and not picked and page.locator(pick).count()
            if can_pick and not page.locator(selector).evaluate_all(VISIBLE):
                self.click(page.locator(pick).first)
                picked = True
            seen = page.locator(selector).evaluate_all(VISIBLE)
            if seen:
                self.click(page.locator(selector).nth(seen[0]))
                return
        self.click(page.locator("#actions button:enabled").first)

    def play_to_the_end(self, limit: int = 600) -> None:
        page = self.page
        self.settle()
        while not self.over():
            told = page.get_by_role("status", name="Last move")
            self.last_moves.append(told.inner_text())
            self.move_lines.append(told.locator(".move-line").all_inner_texts())
            self.take_a_decision()
            self.settle()
            assert self.decisions < limit, "the game did not end"
