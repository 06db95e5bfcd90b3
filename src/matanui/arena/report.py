"""Writing tournament results: JSON, CSV, a Rich table and a PNG win-rate matrix."""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path

from .ratings import Rating, matrix_interval, win_matrix
from .tournament import GameOutcome


def write_results(outcomes: Sequence[GameOutcome], ratings: Sequence[Rating], folder: Path,
                  data: dict | None = None) -> list[Path]:
    """arena.json and games.csv; `data` names the data pack played ({name, hash}; None: built in)."""
    folder.mkdir(parents=True, exist_ok=True)
    matrix = win_matrix(outcomes)
    summary = {
        "games": len(outcomes),
        "data": data,
        "ratings": [r.__dict__ for r in ratings],
        "win_rates": {
            a: {b: {"games": rec.games, "score": rec.score, "rate": rec.rate(),
                    "interval95": list(matrix_interval(rec))} for b, rec in row.items()}
            for a, row in matrix.items()
        },
        "per_agent": per_agent_costs(outcomes),
    }
    paths = [folder / "arena.json", folder / "games.csv"]
    paths[0].write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    with paths[1].open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["seed", "game", "agents", "characters", "winners", "steps", "turns",
                         "decisions", "seconds_per_move", "iterations_per_move"])
        for o in outcomes:
            writer.writerow([o.seed, o.game, "|".join(o.agents), "|".join(o.characters),
                             "|".join(map(str, o.winners)), o.steps, o.turns,
                             "|".join(map(str, o.decisions)),
                             "|".join(f"{s:.4f}" for s in o.seconds_per_move),
                             "|".join(f"{s:.1f}" for s in o.iterations_per_move)])
    return paths


def per_agent_costs(outcomes: Sequence[GameOutcome]) -> dict[str, dict[str, float]]:
    """Mean thinking seconds and search iterations per decision (a move with more than one
    legal action), weighted by decisions, and iterations per second."""
    totals: dict[str, list[float]] = {}
    for o in outcomes:
        per_seat = zip(o.agents, o.decisions, o.seconds_per_move, o.iterations_per_move, strict=True)
        for agent, count, seconds, iterations in per_seat:
            entry = totals.setdefault(agent, [0.0, 0.0, 0])
            entry[0] += seconds * count
            entry[1] += iterations * count
            entry[2] += count
    return {
        agent: {
            "decisions": n,
            "seconds_per_move": s / n if n else 0.0,
            "iterations_per_move": it / n if n else 0.0,
            "iterations_per_second": it / s if s else 0.0,
        }
        for agent, (s, it, n) in totals.items()
    }


def plot_matrix(outcomes: Sequence[GameOutcome], path: Path, title: str) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    matrix = win_matrix(outcomes)
    agents = sorted(matrix)
    values = [[matrix[a][b].rate() if b in matrix[a] else float("nan") for b in agents] for a in agents]
    figure, axes = plt.subplots(figsize=(1.6 + 1.3 * len(agents), 1.2 + 1.1 * len(agents)))
    image = axes.imshow(values, cmap="RdYlGn", vmin=0, vmax=1)
    axes.set_xticks(range(len(agents)), agents, rotation=30, ha="right")
    axes.set_yticks(range(len(agents)), agents)
    axes.set_xlabel("opponent")
    axes.set_ylabel("agent (row's score)")
    for i, a in enumerate(agents):
        for j, b in enumerate(agents):
            if b in matrix[a]:
                low, high = matrix_interval(matrix[a][b])
                axes.text(j, i, f"{values[i][j]:.2f}\n[{low:.2f}-{high:.2f}]", ha="center",
                          va="center", fontsize=8)
    figure.colorbar(image, ax=axes, label="win rate (draws count half)")
    axes.set_title(title)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path
