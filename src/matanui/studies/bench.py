"""Random-playout speed of the engines: steps (applied actions) per second and games per
second, on one core. Speed targets live here, never in timed tests."""

from __future__ import annotations

import os
import platform
import random
import time
from pathlib import Path

from matanui import games
from matanui.ai.play import BenchResult, play_randomly
from matanui.engine import MatanuiError


def default_players(name: str, count: int | None = None) -> list[str]:
    game = games.get(name)
    count = count or game.min_players
    return game.characters()[:count]


def run_playouts(name: str, seconds: float = 3.0, max_games: int | None = None,
                 players: int | None = None, seed: int = 0, data: Path | None = None) -> BenchResult:
    """Play uniformly random games back to back until the time or game budget is spent.
    Each step is what an agent's playout does: list the legal actions, pick one, apply it.
    `data` is a data pack's folder (None: the built-in data)."""
    from matanui.games.packs import game_for

    game = game_for(name, data)
    chars = default_players(name, players)
    rng = random.Random(seed)
    steps = played = 0
    start = time.perf_counter()
    deadline = start + seconds
    while (max_games is None or played < max_games) and (
        max_games is not None or time.perf_counter() < deadline
    ):
        steps += play_randomly(game.new_game(seed + played, chars), rng)
        played += 1
    return BenchResult(name, len(chars), played, steps, time.perf_counter() - start)


def run_batched(name: str, num_games: int, seconds: float = 3.0) -> BenchResult:
    """Uniformly random games on the batched engine (matanui.batch), `num_games` at once.
    A step is the same as the reference's: one decision listed, chosen and applied."""
    from matanui.batch import batched_game

    return batched_game(name)(num_games).random_playouts(seconds)


def run_openspiel(name: str = "leduc_poker", seconds: float = 3.0, seed: int = 0) -> BenchResult:
    """Random playouts of one of OpenSpiel's C++ games driven from Python, as a yardstick;
    a step is a player's decision (chance outcomes are drawn but not counted)."""
    try:
        import pyspiel
    except ImportError:
        raise MatanuiError("the OpenSpiel yardstick needs open_spiel "
                           "(pip install 'matanui[research]')") from None
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    steps = played = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        played += 1
    return BenchResult(name, game.num_players(), played, steps, time.perf_counter() - start)


def configurations(players: int | None = None) -> list[tuple[str, int]]:
    """(game, players) to measure: every game at its fewest and most players, or every game
    that allows `players`."""
    chosen = []
    for name in games.names():
        game = games.get(name)
        counts = sorted({game.min_players, game.max_players}) if players is None else [players]
        chosen += [(name, n) for n in counts if game.min_players <= n <= game.max_players]
    return chosen


def _first_line(path: str, key: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.startswith(key):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def machine_details() -> dict[str, str]:
    """What the numbers were measured on, for docs/performance.md."""
    from matanui import __version__

    cpus = os.cpu_count() or 1
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else cpus
    memory = _first_line("/proc/meminfo", "MemTotal")
    return {
        "cpu": _first_line("/proc/cpuinfo", "model name") or platform.processor() or platform.machine(),
        "cores": f"{usable} usable of {cpus} logical",
        "memory": f"{int(memory.split()[0]) / 1024 / 1024:.1f} GiB" if memory else "unknown",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "system": platform.platform(),
        "matanui": __version__,
    }


def machine_summary() -> str:
    return "; ".join(f"{key}: {value}" for key, value in machine_details().items())
