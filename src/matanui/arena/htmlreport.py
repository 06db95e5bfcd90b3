"""`matanui report`: one self-contained HTML page of balance plots, and the same figures as
JSON, drawn from `analysis.analyse` so that the page and the JSON cannot disagree."""

from __future__ import annotations

import base64
import html
import io
import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .analysis import analyse
from .results import ResultStore
from .simulate import SimulationError, data_words


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _bars(axes: Any, entries: list[dict[str, Any]], label: str, fair: float | None) -> None:
    """Horizontal win-rate bars with their 95% intervals, and the fair rate as a line."""
    names = [str(e[label]) for e in entries]
    rates = [e["rate"] for e in entries]
    errors = [[r - e["low"] for r, e in zip(rates, entries, strict=True)],
              [e["high"] - r for r, e in zip(rates, entries, strict=True)]]
    axes.barh(names, rates, xerr=errors, color="#4c78a8", capsize=3)
    if fair is not None:
        axes.axvline(fair, color="#e45756", linestyle="--", label=f"fair ({fair:.2f})")
        axes.legend(loc="lower right")
    axes.set_xlim(0, 1)
    axes.invert_yaxis()
    axes.set_xlabel("win rate (95% interval)")


def plot_characters(data: dict[str, Any], axes: Any) -> None:
    _bars(axes, data["characters"], "character", data["fair_rate"])
    axes.set_title("Win rate per character")


def plot_pairings(data: dict[str, Any], axes: Any) -> None:
    names = data["pairings"]["characters"]
    where = {n: i for i, n in enumerate(names)}
    grid = [[float("nan")] * len(names) for _ in names]
    for cell in data["pairings"]["cells"]:
        i, j = where[cell["row"]], where[cell["column"]]
        grid[i][j] = cell["rate"]
        axes.text(j, i, f"{cell['rate']:.2f}\n[{cell['low']:.2f}-{cell['high']:.2f}]", ha="center",
                  va="center", fontsize=7)
    image = axes.imshow(grid, cmap="RdYlGn", vmin=0.25, vmax=0.75)
    axes.set_xticks(range(len(names)), names, rotation=30, ha="right")
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel("opponent")
    axes.set_ylabel("character (row's score)")
    axes.figure.colorbar(image, ax=axes, label="score, draws count half")
    axes.set_title("Pairings: row character against column character")


def plot_first_seat(data: dict[str, Any], axes: Any) -> None:
    first = data["first_seat"]
    entries = [{**first, "seat": "goes first"}] + [
        {**e, "seat": f"seat {e['seat'] + 1}"} for e in first["by_seat"]]
    if len(first["by_turn_order"]) > 2:
        entries += [{**e, "seat": f"turn order {e['position'] + 1}"} for e in first["by_turn_order"][1:]]
    _bars(axes, entries, "seat", data["fair_rate"])
    axes.set_title("First-seat advantage")


def plot_length(data: dict[str, Any], axes: Any) -> None:
    length = data["length"]["turns"] or data["length"]["steps"]
    unit = "turns" if data["length"]["turns"] else "steps (decisions)"
    hist = length["histogram"]
    edges = hist["edges"]
    axes.bar(edges[:-1], hist["counts"], width=[b - a for a, b in itertools.pairwise(edges)],
             align="edge", color="#72b7b2", edgecolor="white")
    axes.axvline(length["median"], color="#e45756", linestyle="--", label=f"median {length['median']:g}")
    axes.legend()
    axes.set_xlabel(unit)
    axes.set_ylabel("games")
    axes.set_title("Game length")


def plot_deciders(data: dict[str, Any], axes: Any, kind: str) -> None:
    entries = data["deciders"]["kinds"][kind]
    axes.barh([e["value"] for e in entries], [e["share"] for e in entries], color="#f58518")
    axes.invert_yaxis()
    axes.set_xlabel("share of won games")
    axes.set_ylabel(kind)
    axes.set_title(f"Which {kind} decided the game (top {len(entries)})")


def _png(draw: Callable[[Any], None], size: tuple[float, float]) -> str:
    plt = _pyplot()
    figure, axes = plt.subplots(figsize=size)
    draw(axes)
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100)
    plt.close(figure)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def figures(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(caption, base64 PNG) for every figure the data supports."""
    rows = max(len(data["characters"]), 2)
    drawn = [
        ("Win rate per character", _png(lambda a: plot_characters(data, a), (7, 1.2 + 0.35 * rows))),
        ("Pairings", _png(lambda a: plot_pairings(data, a), (1.6 + 1.1 * rows, 1.2 + 0.95 * rows))),
        ("First-seat advantage", _png(lambda a: plot_first_seat(data, a),
                                      (7, 2.2 + 0.6 * data["job"]["players"]))),
        ("Game length", _png(lambda a: plot_length(data, a), (7, 3.5))),
    ]
    for kind, entries in data["deciders"]["kinds"].items():
        drawn.append((f"Deciding {kind}", _png(lambda a, k=kind: plot_deciders(data, a, k),
                                               (7, 1.2 + 0.3 * len(entries)))))
    return drawn


def headline(data: dict[str, Any]) -> list[tuple[str, str]]:
    """(what, figure) rows at the head of the report: the page's table and the terminal's."""
    job = data["job"]
    first = data["first_seat"]
    turns = data["length"]["turns"]
    lines = [
        ("game", f"{data['title']} ({data['game']})"),
        ("games", f"{data['games']:,} of {job['games']:,} planned"),
        ("agents per seat", ", ".join(job["agents"])),
        ("options", json.dumps(job["options"]) if job["options"] else "defaults"),
        ("first seed", str(job["seed"])),
        ("data", data_words(job)),
        ("draws", f"{data['draws']['rate']:.3f}" if data["games"] else "-"),
        ("first player wins", f"{first['rate']:.3f} ({first['low']:.3f}-{first['high']:.3f}); "
                              f"fair {data['fair_rate']:.3f}" if data["games"] else "-"),
    ]
    if turns:
        lines.append(("turns", f"mean {turns['mean']:.1f}, median {turns['median']:g}, "
                               f"10%-90% {turns['p10']:g}-{turns['p90']:g}"))
    return lines


def _summary(data: dict[str, Any]) -> str:
    return "\n".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>"
                     for k, v in headline(data))


def render_html(data: dict[str, Any]) -> str:
    images = "\n".join(f'<figure><img alt="{html.escape(caption)}" src="data:image/png;base64,{png}">'
                       f"<figcaption>{html.escape(caption)}</figcaption></figure>"
                       for caption, png in figures(data))
    title = html.escape(f"{data['title']}: balance report")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}
th{{text-align:left;padding-right:1em}}figure{{margin:2em 0}}img{{max-width:100%}}</style>
</head><body>
<h1>{title}</h1>
<table>{_summary(data)}</table>
<p>Intervals are 95% Wilson intervals. The same figures are in report.json.</p>
{images}
</body></html>
"""


def write_report(results: str | Path, folder: str | Path) -> list[Path]:
    """report.html and report.json for the results file, in `folder`."""
    with ResultStore(results, create=False) as store:
        data = analyse(store.job(), store.rows())
    if not data["games"]:
        raise SimulationError(f"{results} holds no finished games yet")
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "report.json", out / "report.html"]
    paths[0].write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    paths[1].write_text(render_html(data), encoding="utf-8")
    return paths
