"""A data pack's balance beside the built-in data's: `matanui data balance DIR`.

The same self-play job (agents, games, seeds) runs once on the built-in data and once on the
pack, each into its own resumable results file, and the two analyses are set side by side:
the first player's and each character's win rate with their 95% intervals, draws, length.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from matanui.games import packs

from .analysis import analyse
from .backends import LocalBackend
from .batch import simulate
from .results import ResultStore
from .simulate import Job


def run_both(folder: Path, games_count: int, agents: str, workers: int, seed: int, out: Path,
             on_progress: Callable[[str, int, int], None] | None = None) -> dict[str, dict[str, Any]]:
    """Simulate the pack's game on both data; {"built-in": analysis, "pack": analysis}."""
    pack = packs.read(folder)
    out.mkdir(parents=True, exist_ok=True)
    analyses = {}
    for label, data in (("built-in", None), ("pack", str(folder.resolve()))):
        job = Job.build(pack.game, agents.split(","), games_count, seed, data=data)
        path = out / f"{label}.sqlite"
        simulate(job, str(path), LocalBackend(workers), 100,
                 None if on_progress is None else lambda done, total, lb=label: on_progress(lb, done, total))
        with ResultStore(path, create=False) as store:
            analyses[label] = analyse(store.job(), store.rows())
    return analyses


def _rate(entry: dict[str, Any] | None) -> str:
    if not entry or entry.get("rate") is None:
        return "-"
    return f"{entry['rate']:.3f} ({entry['low']:.3f}-{entry['high']:.3f})"


def side_by_side(analyses: dict[str, dict[str, Any]]) -> list[tuple[str, str, str]]:
    """(what, built-in, pack) rows: the figures docs/balance.md reads first."""
    ours, theirs = analyses["built-in"], analyses["pack"]
    rows = [("games", str(ours["games"]), str(theirs["games"])),
            ("draw rate", f"{ours['draws']['rate']:.3f}", f"{theirs['draws']['rate']:.3f}"),
            ("first player wins", _rate(ours["first_seat"]), _rate(theirs["first_seat"]))]
    characters = {c["character"] for a in analyses.values() for c in a["characters"]}
    for name in sorted(characters):
        pick = [next((c for c in a["characters"] if c["character"] == name), None) for a in (ours, theirs)]
        rows.append((f"{name} wins", _rate(pick[0]), _rate(pick[1])))
    turns = [a["length"]["turns"] for a in (ours, theirs)]
    if all(turns):
        rows.append(("mean turns", f"{turns[0]['mean']:.1f}", f"{turns[1]['mean']:.1f}"))
    return rows
