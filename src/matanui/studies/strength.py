"""What the search costs and how far luck lets any player go: the numbers docs/ai.md quotes.

`search` replays heuristic games and, at every few decisions, runs one search as a move's
budget would: iterations per second, iterations used (a settled search stops early) and the
depth its tree reached.

`oracle` measures the luck bound. An oracle runs the same search on the *true* state (every
hidden card, the draw order and the future dice) instead of samples from its seat's view.
Knowing the future cannot make the search worse, so the oracle's win rate against an
opponent is a practical ceiling for any fair bot of this kind, and what it loses is luck
that no skill overcomes. The oracle is an instrument only: no interface can seat it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.base import Agent
from matanui.ai.ismcts import ISMCTSAgent
from matanui.ai.play import deciding
from matanui.arena.match import play_match
from matanui.arena.stats import wilson_interval
from matanui.engine import State


@dataclass(frozen=True)
class SearchCost:
    game: str
    searches: int
    seconds: float  # the budget of each search
    iterations_per_second: float  # per second of CPU time, so that a busy machine does not understate it
    iterations_median: float
    stopped_early: float  # share of searches that settled before the budget
    depth_median: float
    depth_max: int


def search_cost(game_name: str, spec: str, searches: int, every: int = 5, seed: int = 0) -> SearchCost:
    """Run `searches` searches of agent `spec` on decisions from heuristic self-play."""
    game = games.get(game_name)
    characters = game.characters()
    iterations: list[int] = []
    depths: list[int] = []
    times: list[float] = []
    cpu = 0.0
    settled = 0
    budget = 0.0
    game_seed = seed
    while len(iterations) < searches:
        state = game.new_game(game_seed, [characters[game_seed % len(characters)],
                                          characters[(game_seed + 1) % len(characters)]])
        players = [make_agent("heuristic", game_name, game_seed * 2 + seat) for seat in range(2)]
        for step, seat in enumerate(deciding(state, players)):
            if len(iterations) >= searches:
                break
            view = SeatView(state, seat)
            if step % every == 0 and len(state.legal_actions()) > 1:
                search = make_agent(spec, game_name, seed=len(iterations))
                if not isinstance(search, ISMCTSAgent):
                    raise ValueError(f"{spec!r} is not a search agent in {game_name}; name one, "
                                     "e.g. --agent ismcts@1000")
                start, start_cpu = time.perf_counter(), time.process_time()
                search.act(view)
                times.append(time.perf_counter() - start)
                cpu += time.process_time() - start_cpu
                iterations.append(search.last_iterations)
                depths.append(search.last_depth)
                budget = search.seconds or 0.0
                if (search.iterations is not None and search.last_iterations < search.iterations) or \
                        (search.seconds is not None and times[-1] < 0.9 * search.seconds):
                    settled += 1
        game_seed += 1
    return SearchCost(
        game=game_name, searches=len(iterations), seconds=budget,
        iterations_per_second=sum(iterations) / cpu,
        iterations_median=statistics.median(iterations),
        stopped_early=settled / len(times),
        depth_median=statistics.median(depths), depth_max=max(depths))


class _TrueView(SeatView):
    """A view whose samples are the true state itself: the oracle's eyes."""

    __slots__ = ()

    def determinize(self, rng: random.Random) -> State:
        return self._state.clone()


class OracleAgent(Agent):
    """The search of `spec`, fed the true state. For measuring luck; never for play."""

    def __init__(self, game_name: str, spec: str, seed: int) -> None:
        super().__init__(seed)
        self.search = make_agent(spec, game_name, seed)

    def act(self, view: SeatView) -> str:
        return self.search.act(_TrueView(view._state, view.seat))


@dataclass(frozen=True)
class OracleResult:
    game: str
    oracle: str
    opponent: str
    games: int
    score: float  # wins, half a point for a draw

    @property
    def rate(self) -> float:
        return self.score / self.games

    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.score, self.games)


def oracle_games(game_name: str, spec: str, opponent: str, count: int, seed: int = 0,
                 on_game: Callable[[OracleResult], None] | None = None) -> OracleResult:
    """`count` two-player games of the oracle against `opponent`, seats alternating and
    characters rotating as in the arena; `on_game` gets the running result after each game."""
    game = games.get(game_name)
    characters = game.characters()
    score = 0.0
    for number in range(count):
        game_seed = seed + number
        oracle_seat = number % 2
        pair = [characters[(number // 2) % len(characters)], characters[(number // 2 + 1) % len(characters)]]
        agents: list[Agent] = [make_agent(opponent, game_name, game_seed * 16 + seat) for seat in range(2)]
        agents[oracle_seat] = OracleAgent(game_name, spec, game_seed * 16 + oracle_seat)
        winners = play_match(game_name, pair, agents, seed=game_seed).winners
        if oracle_seat in winners:
            score += 1.0 / len(winners)
        if on_game is not None:
            on_game(OracleResult(game_name, spec, opponent, number + 1, score))
    return OracleResult(game_name, spec, opponent, count, score)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    cost = commands.add_parser("search", help="iterations/s, iterations used and depth of one move's search")
    cost.add_argument("game", choices=games.names())
    cost.add_argument("--agent", default="hard", help="a search agent spec (default: hard, 1 s a "
                      "move; in makuta, where hard does not search, name one such as ismcts@1100)")
    cost.add_argument("--searches", type=int, default=40)
    oracle = commands.add_parser("oracle", help="win rate of a search that sees the true state")
    oracle.add_argument("game", choices=games.names())
    oracle.add_argument("--agent", default="ismcts@1500", help="the oracle's search (default ismcts@1500)")
    oracle.add_argument("--against", default="random")
    oracle.add_argument("--games", type=int, default=100)
    oracle.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.command == "search":
        try:
            cost = search_cost(args.game, args.agent, args.searches)
        except ValueError as error:
            parser.error(str(error))
        print(f"{cost.game}: {cost.searches} searches of {args.agent}: {cost.iterations_per_second:,.0f} "
              f"iterations/s, median {cost.iterations_median:,.0f} iterations a move, "
              f"{cost.stopped_early:.0%} settled before the budget, tree depth median "
              f"{cost.depth_median:.0f} (max {cost.depth_max})")
    else:
        oracle_games(args.game, args.agent, args.against, args.games, args.seed, on_game=_print_oracle)


def _print_oracle(result: OracleResult) -> None:
    low, high = result.interval()
    print(f"{result.game}: oracle {result.oracle} vs {result.opponent}: {result.rate:.3f} "
          f"({low:.3f}-{high:.3f}) over {result.games} games", flush=True)


if __name__ == "__main__":
    main()
