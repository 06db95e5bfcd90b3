"""A learning curve as CSV (one row per update) and a PNG plot of it."""

from __future__ import annotations

import csv
import math
from pathlib import Path

from .ppo import Curve


def write_csv(curve: Curve, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=curve.columns(), lineterminator="\n")
        writer.writeheader()
        for row in curve.rows:
            writer.writerow({key: _text(value) for key, value in row.items()})


def _text(value: float) -> str:
    if math.isnan(value):
        return ""
    return str(int(value)) if float(value).is_integer() else f"{value:.6g}"


def read_csv(path: Path) -> Curve:
    """The curve a CSV of `write_csv` holds (to plot a run that was stopped)."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = [{key: float(value) if value else math.nan for key, value in row.items()}
                for row in csv.DictReader(handle)]
    opponents = [key[len("return_vs_"):] for key in rows[0] if key.startswith("return_vs_")] if rows else []
    return Curve(opponents, rows)


def write_png(curve: Curve, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4))
    steps = [row["steps"] for row in curve.rows]
    for opponent in curve.opponents:
        axes.plot(steps, [row[f"return_vs_{opponent}"] for row in curve.rows], label=f"against {opponent}")
    axes.axhline(0.0, color="grey", linewidth=0.5)
    axes.set_xlabel("learner steps")
    axes.set_ylabel("mean return, last 100 episodes (+1 win, -1 loss)")
    axes.set_ylim(-1.05, 1.05)
    axes.set_title(title)
    axes.legend(loc="lower right")
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)
