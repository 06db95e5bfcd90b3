"""A replay benchmark on loopback (not a test): how soon a long game's replay page draws its
board. It starts a fresh `matanui serve`, has two bots play a long game (Masks: a few hundred
actions), then measures, `--rounds` times each:

- the first replay request: seconds and bytes of the answer, and how many frames it carries
  (the first one after the server started also starts the replay worker);
- the page's first paint of the board: seconds from DOMContentLoaded to the first element
  in #board, in Debian's headless chromium (skipped without it or without Playwright).

`--busy N` keeps N processes spinning at normal priority meanwhile (a loaded machine: the
replay worker runs at the lowest priority). Only 127.0.0.1 is contacted.

    python -m matanui.tools.replay_bench --rounds 5
    python -m matanui.tools.replay_bench --busy 2
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from matanui.tools.load import free_port, start_server

CHROMIUM = Path("/usr/bin/chromium")
LEAST_ACTIONS = 300
# A page script: resolves with the milliseconds from DOMContentLoaded to the board's first child.
FIRST_PAINT = """() => new Promise((resolve) => {
    const board = document.querySelector('#board');
    const ready = performance.getEntriesByType('navigation')[0].domContentLoadedEventStart;
    const done = () => resolve(performance.now() - ready);
    if (board.firstElementChild) return done();
    new MutationObserver((_, watch) => { if (board.firstElementChild) { watch.disconnect(); done(); } })
        .observe(board, { childList: true });
})"""


def call(base: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body else None,
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        return json.load(answer)


def long_game(base: str, game: str) -> tuple[str, int]:
    """A finished game of two easy bots with at least LEAST_ACTIONS actions, and its length."""
    for seed in range(1, 50):
        game_id = call(base, "/api/games", {"game": game, "seed": seed,
                                            "seats": [{"kind": "bot", "level": "easy"}] * 2})["id"]
        while (summary := call(base, f"/api/games/{game_id}"))["status"] != "finished":
            time.sleep(0.3)
        if summary["at"] >= LEAST_ACTIONS:
            return game_id, summary["at"]
    raise RuntimeError(f"no {game} game of {LEAST_ACTIONS} actions in 49 seeds")


def first_response(base: str, game_id: str) -> tuple[float, int, int]:
    """Seconds, bytes and positions (observations) of the page's first replay request."""
    started = time.perf_counter()
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/replay", timeout=120) as answer:
        body = answer.read()
    return time.perf_counter() - started, len(body), len(json.loads(body)["observations"])


def first_paints(base: str, game_id: str, rounds: int) -> list[float]:
    """Seconds from DOMContentLoaded to the board's first paint, one per fresh page."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                             args=["--headless", "--no-sandbox"])
        paints = []
        for _ in range(rounds):
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(f"{base}/games/{game_id}/replay", wait_until="domcontentloaded")
            paints.append(page.evaluate(FIRST_PAINT) / 1000)
            page.close()
        browser.close()
    return paints


def spin() -> None:
    while True:
        pass


@contextmanager
def busy(processes: int) -> Iterator[None]:
    """`processes` busy loops at normal priority while the block runs."""
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(processes)]
    for spinner in spinners:
        spinner.start()
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.terminate()


def summary(name: str, seconds: list[float]) -> str:
    return (f"{name}: median {statistics.median(seconds):.3f} s, max {max(seconds):.3f} s "
            f"({len(seconds)} runs)")


def measure(base: str, game_id: str, rounds: int) -> None:
    cold, size, positions = first_response(base, game_id)
    print(f"first replay request after the server started: {cold:.3f} s, {size} bytes, "
          f"{positions} positions")
    print(summary("first replay request", [first_response(base, game_id)[0] for _ in range(rounds)]))
    if CHROMIUM.exists():
        print(summary("first paint of the board after DOMContentLoaded", first_paints(base, game_id, rounds)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", default="masks")
    parser.add_argument("--busy", type=int, default=0, help="busy processes meanwhile")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = start_server(port, f"sqlite:///{folder}/bench.db", 1)
        try:
            game_id, actions = long_game(base, args.game)
            print(f"a {args.game} game of {actions} actions")
            with busy(args.busy):
                measure(base, game_id, args.rounds)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
