"""A replay benchmark on loopback (not a test): how soon a long game's replay page draws its
board. It starts a fresh `matanui serve`, has two bots play a long game (Masks: a few hundred
actions), then measures, `--rounds` times each:

- the first replay request: seconds and bytes of the answer, and how many frames it carries
  (the first one after the server started also starts the replay worker);
- the page's first paint of the board: seconds from DOMContentLoaded to the first element
  in #board, in Debian's headless chromium (skipped without it or without Playwright).

`--busy N` keeps N processes spinning at normal priority meanwhile (a loaded machine: the
replay worker runs at the lowest priority). `--analyses N` measures the first replay request
again while the analyses of N other finished games are worked out, each asked for by a client
of its own (the server trusts 127.0.0.1 as a proxy, and each names its own X-Forwarded-For),
the analyses' state after it. Only 127.0.0.1 is contacted.

    python -m matanui.tools.replay_bench --rounds 5
    python -m matanui.tools.replay_bench --busy 2
    python -m matanui.tools.replay_bench --analyses 4
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import tempfile
import time
import urllib.error
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


def call(base: str, path: str, body: dict | None = None, client: str | None = None) -> dict:
    """`client`: the address the request is for (X-Forwarded-For; the server must trust us)."""
    headers = {"content-type": "application/json", **({"x-forwarded-for": client} if client else {})}
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body else None,
                                     headers=headers)
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


def finished_games(base: str, count: int) -> list[str]:
    """`count` finished Reconstruct games of two easy bots (to analyse)."""
    ids = [call(base, "/api/games", {"game": "reconstruct", "seed": 100 + n,
                                     "seats": [{"kind": "bot", "level": "easy"}] * 2})["id"]
           for n in range(count)]
    for game_id in ids:
        while call(base, f"/api/games/{game_id}")["status"] != "finished":
            time.sleep(0.3)
    return ids


def ask_analyses(base: str, ids: list[str]) -> list[str]:
    """Ask for each game's analysis as a client of its own; their statuses, in words."""
    states = []
    for n, game_id in enumerate(ids):
        try:
            answer = call(base, f"/api/games/{game_id}/analysis", client=f"10.0.0.{n + 1}")
            status = answer.get("status") or ("complete" if answer["complete"] else "running")
            states.append(f"{status} {len(answer['decisions'])}/{answer['total']}")
        except urllib.error.HTTPError as refused:
            states.append(f"refused {refused.code}")
    return states


def judging(base: str, ids: list[str]) -> str:
    """Once a decision of some analysis is judged (the worker is up and busy): their states."""
    deadline = time.time() + 120
    while True:
        states = ask_analyses(base, ids)
        if any(not state.split()[-1].startswith("0/") for state in states) or time.time() > deadline:
            return ", ".join(states)
        time.sleep(0.5)


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
    parser.add_argument("--analyses", type=int, default=0,
                        help="then again while this many other games are analysed")
    args = parser.parse_args()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        proxy = ("--trusted-proxy", "127.0.0.1", "--limit=bot_games_per_client=100") if args.analyses else ()
        server = start_server(port, f"sqlite:///{folder}/bench.db", 1, extra=proxy)
        try:
            game_id, actions = long_game(base, args.game)
            analysed = finished_games(base, args.analyses)
            print(f"a {args.game} game of {actions} actions")
            with busy(args.busy):
                measure(base, game_id, args.rounds)
                if analysed:
                    print(f"asked for {len(analysed)} analyses: {', '.join(ask_analyses(base, analysed))}")
                    print(f"once they judge: {judging(base, analysed)}")
                    print(summary("first replay request while they are worked out",
                                  [first_response(base, game_id)[0] for _ in range(args.rounds)]))
                    print(f"the analyses then: {', '.join(ask_analyses(base, analysed))}")
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
