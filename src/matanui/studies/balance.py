"""Seat balance of a 2-player game under self-play: `python -m matanui.studies.balance GAME`.

Prints, per agent, how often the first player (the seat that moves first) wins, how often
games are drawn, and the mean number of turns, with 95% intervals, as a Markdown table.
"""

from __future__ import annotations

import argparse
import statistics

from matanui import games
from matanui.ai import make_agent
from matanui.arena.match import play_match
from matanui.arena.stats import wilson_interval


def first_seat_table(game_name: str, agent_names: list[str], count: int, options: dict) -> str:
    game = games.get(game_name)
    chars = game.characters()
    rows = ["| agents | games | first player wins | draws | mean turns |", "|---|---|---|---|---|"]
    for name in agent_names:
        first_wins = draws = 0
        turns: list[int] = []
        for i in range(count):
            first = i % 2
            pair = [chars[i % len(chars)], chars[(i + 1) % len(chars)]]
            agents = [make_agent(name, game_name, seed=2 * i), make_agent(name, game_name, seed=2 * i + 1)]
            result = play_match(game_name, pair, agents, seed=i, options={**options, "first_player": first})
            if not result.winners:
                draws += 1
            elif result.winners[0] == first:
                first_wins += 1
            turns.append(result.turns or 0)
        low, high = wilson_interval(first_wins, count)
        rows.append(f"| {name} vs {name} | {count} | {first_wins / count:.3f} ({low:.3f}-{high:.3f}) "
                    f"| {draws / count:.3f} | {statistics.mean(turns):.1f} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--agents", default="random,heuristic")
    parser.add_argument("--advanced", action="store_true")
    args = parser.parse_args()
    options = {"advanced": True} if args.advanced else {}
    print(first_seat_table(args.game, args.agents.split(","), args.games, options))


if __name__ == "__main__":
    main()
