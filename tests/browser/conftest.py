"""Browser tests: the real server in its own process, driven by Playwright through Debian's
headless chromium (never a browser downloaded by Playwright). Screenshots go to artifacts/."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.process import free_port, start_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "browser"
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# A page script: the part of `element` that shows, as {left, top, right, bottom}: its box cut
# to the viewport and to every scrolling area it lies in (a panel scrolled below a phone's play
# area is out of sight, not over what lies below it).
SHOWN_BOX = """(element) => {
    const box = element.getBoundingClientRect();
    let [left, top, right, bottom] = [Math.max(box.left, 0), Math.max(box.top, 0),
                                      Math.min(box.right, innerWidth), Math.min(box.bottom, innerHeight)];
    for (let up = element.parentElement; up; up = up.parentElement) {
        if (!/(auto|scroll|hidden)/.test(getComputedStyle(up).overflowY)) continue;
        const clip = up.getBoundingClientRect();
        [left, top] = [Math.max(left, clip.left), Math.max(top, clip.top)];
        [right, bottom] = [Math.min(right, clip.right), Math.min(bottom, clip.bottom)];
    }
    return { left, top, right, bottom };
}"""


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    process = start_server(f"sqlite:///{tmp_path_factory.mktemp('browser') / 'matanui.db'}", port)
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)


@pytest.fixture(scope="package")
def browser() -> Iterator[object]:
    """One chromium for the browser tests, closed when they end: Playwright's sync API keeps
    an event loop running in the main thread while it is open, and the full-screen game's
    tests (tests/tui), which run their own, would fail after it."""
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must have Debian's chromium (.ci/run installs it)")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    context = browser.new_context(viewport=LAPTOP)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    context.close()
    assert not errors, f"the page raised: {errors}"


def screenshot(page: object, name: str) -> None:
    """Keep a picture of the page at laptop and at phone width as a test artefact."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-laptop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(ARTIFACTS / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(LAPTOP)
