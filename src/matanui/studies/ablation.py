"""Which decisions matter: a game's heuristic with one kind of decision (one phase of the
game, as its observations name it) played at random, in game pairs against the heuristic
itself. A phase whose random play costs little is one the heuristic does no better than
chance at, or one that hardly matters; one that costs a lot is where its judgement counts.

    python -m matanui.studies.ablation makuta --pairs 300 --seed 700000

Pairs follow the arena's paired schedule (`matanui arena --pairs`: one seed and one seating
of characters, played twice with the seats swapped), so every phase meets the same deals.
The score is the ablated player's, with the pentanomial 95% interval of the SPRT's reports.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.base import Agent
from matanui.ai.play import deciding
from matanui.arena.match import play_match
from matanui.arena.sprt import Z95, mean_and_variance
from matanui.arena.tournament import paired_specs

PAIR_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)


class Ablated(Agent):
    """The game's heuristic, except in `phase`, where it plays a uniformly random legal action."""

    def __init__(self, game: str, phase: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.phase = phase
        self.heuristic = make_agent("heuristic", game, seed)
        self.name = f"heuristic, {phase} at random"

    def act(self, view: SeatView) -> str:
        actions = view.legal_actions()
        if len(actions) > 1 and view.observation()["phase"] == self.phase:
            return actions[self.rng.randrange(len(actions))]
        return self.heuristic.act(view)


def phases(game: str, count: int = 10, seed: int = 0) -> list[str]:
    """The phases in which the heuristic had a choice (two or more legal actions) in `count`
    games against itself, in the order first met."""
    seen: dict[str, None] = {}
    characters = games.get(game).characters()[:2]
    for number in range(count):
        state = games.get(game).new_game(seed + number, characters)
        agents = [make_agent("heuristic", game, seed + number + seat) for seat in range(2)]
        for seat in deciding(state, agents):
            if len(state.legal_actions()) > 1:
                seen.setdefault(state.observation(seat)["phase"], None)
    return list(seen)


@dataclass(frozen=True)
class Ablation:
    phase: str
    pairs: int
    counts: tuple[int, ...]  # pairs scoring 0, 1/4, 1/2, 3/4, 1 for the ablated player
    score: float
    interval95: tuple[float, float]


def _pair(job: tuple[str, str, int, tuple[str, ...], int]) -> float:
    """The ablated player's score over one pair (0 to 1), seats swapped."""
    game, phase, seed, characters, agent_seed = job
    score = 0.0
    for ablated_seat in (0, 1):
        agents = [Ablated(game, phase, agent_seed) if seat == ablated_seat
                  else make_agent("heuristic", game, agent_seed + 1) for seat in range(2)]
        winners = play_match(game, characters, agents, seed).winners
        score += 0.5 if len(winners) != 1 else float(winners[0] == ablated_seat)
    return score / 2


def ablate(game: str, phase: str, pairs: int, seed: int = 0, workers: int = 1) -> Ablation:
    """`pairs` game pairs of the heuristic with `phase` at random against the heuristic."""
    jobs = [(game, phase, spec.seed, spec.characters, spec.seed * 16)
            for spec, _ in paired_specs(game, "ablated", "heuristic", pairs, seed)]
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            scores = list(pool.map(_pair, jobs, chunksize=8))
    else:
        scores = [_pair(job) for job in jobs]
    counts = tuple(sum(1 for s in scores if s == value) for value in PAIR_VALUES)
    n, mean, variance = mean_and_variance(counts, PAIR_VALUES)
    half = Z95 * math.sqrt(variance / n)
    return Ablation(phase, n, counts, mean, (max(0.0, mean - half), min(1.0, mean + half)))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=games.names())
    parser.add_argument("--pairs", type=int, default=300, help="game pairs for each phase")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--phases", help="comma-separated phases (default: every phase with a choice)")
    args = parser.parse_args(argv)
    if args.pairs < 1 or args.workers < 1:
        parser.error("--pairs and --workers must be at least 1")
    known = phases(args.game)
    chosen = args.phases.split(",") if args.phases else known
    unknown = [phase for phase in chosen if phase not in known]
    if unknown:
        parser.error(f"no phase {', '.join(unknown)} with a choice in {args.game}; "
                     f"the phases are: {', '.join(known)}")
    print(f"{args.game}: the heuristic with one phase at random, against the heuristic, "
          f"{args.pairs} pairs each (seeds {args.seed} on)")
    for phase in chosen:
        result = ablate(args.game, phase, args.pairs, args.seed, args.workers)
        low, high = result.interval95
        print(f"  {phase:<12} {result.score:.3f} ({low:.3f}-{high:.3f})  pairs 0/¼/½/¾/1: "
              + " / ".join(map(str, result.counts)), flush=True)


if __name__ == "__main__":
    main()
