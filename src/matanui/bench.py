"""Random-playout speed of the engines: steps (applied actions) per second and games per
second, on one core. Speed targets live here, never in timed tests."""

from __future__ import annotations

import platform
import random
import time
from dataclasses import dataclass

from matanui import games


@dataclass
class BenchResult:
    game: str
    players: int
    games: int
    steps: int
    seconds: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def default_players(name: str, count: int | None = None) -> list[str]:
    game = games.get(name)
    count = count or game.min_players
    return game.characters()[:count]


def run_playouts(name: str, seconds: float = 3.0, max_games: int | None = None,
                 players: int | None = None, seed: int = 0) -> BenchResult:
    """Play uniformly random games back to back until the time or game budget is spent.
    Each step is what an agent's playout does: list the legal actions, pick one, apply it."""
    game = games.get(name)
    chars = default_players(name, players)
    rng = random.Random(seed)
    steps = played = 0
    start = time.perf_counter()
    deadline = start + seconds
    while (max_games is None or played < max_games) and (
        max_games is not None or time.perf_counter() < deadline
    ):
        state = game.new_game(seed + played, chars)
        legal, apply, randrange = state.legal_actions, state.apply, rng.randrange
        while not state.is_over:
            actions = legal()
            apply(actions[randrange(len(actions))])
            steps += 1
        played += 1
    return BenchResult(name, len(chars), played, steps, time.perf_counter() - start)


def machine_summary() -> str:
    return (f"{platform.python_implementation()} {platform.python_version()} on "
            f"{platform.system()} {platform.machine()}, {platform.processor() or 'cpu'}")
