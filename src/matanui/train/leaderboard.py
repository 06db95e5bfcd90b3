"""The leaderboard of docs/research.md ("Baselines and the leaderboard"), recomputed from the
committed arena journals under docs/research/leaderboard/: every pair of agents plays the same
fixed evaluation seeds, each seed twice with the seats swapped, and each cell is the row
agent's score (wins + half the draws) with its 95% Wilson interval.

`hard` searches one second a move by the clock, which makes its strength depend on the
machine and its load; the board plays the iteration budget that second buys on a quiet core
(docs/ai.md, "Strength") instead, the same games on any machine.

    python -m matanui.train.leaderboard        # prints the tables the document holds
"""

from __future__ import annotations

import sys
from pathlib import Path

from matanui.arena.ratings import PairRecord, matrix_interval, win_matrix
from matanui.arena.tournament import GameOutcome, Journal

JOURNALS = Path(__file__).resolve().parents[3] / "docs" / "research" / "leaderboard"
GAMES = ("reconstruct", "masks")
HARD = {"reconstruct": "ismcts@1500", "masks": "ismcts@2400"}  # hard's second, as iterations
FIRST_SEED = 1_000_000  # the evaluation seeds are FIRST_SEED, FIRST_SEED + 1, ...


def board(game: str) -> list[tuple[str, str]]:
    """(label, agent spec) of the agents on the board, in the order of its rows."""
    hard = HARD[game]
    return [("random", "random"), ("medium", "medium"), (f"hard (`{hard}`)", hard), ("ppo", "ppo")]


def outcomes(root: Path, game: str) -> list[GameOutcome]:
    """Every game of `game` in the journals under `root` (one folder per pair of agents)."""
    found: list[GameOutcome] = []
    for path in sorted(root.glob(f"*/{game}/games.jsonl")):
        found += Journal(path).done.values()
    return found


def cell(record: PairRecord | None) -> str:
    if record is None or not record.games:
        return "·"
    low, high = matrix_interval(record)
    return f"{record.rate():.3f} [{low:.3f}, {high:.3f}] ({record.games})"


def table(root: Path, game: str) -> str:
    """One game's leaderboard as a Markdown table: the row agent's score against the column
    agent, its interval and the number of games."""
    matrix = win_matrix(outcomes(root, game))
    agents = [(label, spec) for label, spec in board(game) if spec in matrix]
    lines = [f"| {game} | " + " | ".join(f"against {label}" for label, _ in agents) + " |",
             "|---|" + "---|" * len(agents)]
    for label, spec in agents:
        cells = ["—" if other == spec else cell(matrix[spec].get(other)) for _, other in agents]
        lines.append(f"| **{label}** | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def tables(root: Path = JOURNALS) -> str:
    return "\n\n".join(table(root, game) for game in GAMES) + "\n"


if __name__ == "__main__":
    sys.stdout.write(tables())
