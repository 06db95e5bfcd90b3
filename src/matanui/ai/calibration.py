"""Are the analysis's chances honest? When it says 70%, about 70 of a hundred such positions
should be won. Measured on held-out games: `medium` against `medium` from seeds no setting
was chosen on, a few decisions of each game judged from the deciding seat's view
(matanui.ai.analysis.estimate) and scored against how the game ended for that seat.

    python -m matanui.ai.calibration reconstruct --games 250 \\
        --journal docs/ai/calibration/reconstruct.jsonl --plot docs/ai/calibration/reconstruct.png

The journal holds one line per judged position (the search's raw chance) and is resumed: a
rerun judges only the games it lacks. The report gives the Brier score (the mean squared gap
between chance and result; 0 is perfect, and always saying 50% scores 0.25), a reliability
table and plot, and the recalibration map (matanui.ai.recalibration) fitted on the first half
of the games with its Brier score on the second: the slope and shift go to
data/calibration.toml, and a test checks them against the journal.
"""

from __future__ import annotations

import argparse
import json
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from matanui import games
from matanui.engine import MatanuiError

from .analysis import ANALYSIS_ITERATIONS, estimate
from .base import SeatView
from .play import deciding
from .recalibration import apply, curve, logit
from .registry import make_agent

FIRST_SEED = 300_000  # held out: no setting of the analysis was chosen on these games
POSITIONS_PER_GAME = 4
BINS = 10


@dataclass(frozen=True)
class Position:
    seed: int
    number: int  # the decision's action number in the game, from 1
    seat: int
    chance: float
    outcome: float  # 1 won, 0 lost, 0.5 drawn, for that seat


def judge_game(game: str, seed: int, iterations: int = ANALYSIS_ITERATIONS) -> list[Position]:
    """One held-out game of `medium` against `medium`, and a few of its decisions with a
    choice in them (drawn from the seed), each judged from the deciding seat's view then."""
    rules = games.get(game)
    state = rules.new_game(seed, rules.characters()[:2], {})
    players = [make_agent("medium", game, seed * 2 + seat) for seat in range(2)]
    choices = []
    for _ in deciding(state, players):
        if len(state.legal_actions()) > 1:
            choices.append(state.clone())
    outcome = [1.0 if seat in state.winners else 0.0 for seat in range(2)]
    if not state.winners:
        outcome = [0.5, 0.5]
    rng = random.Random(seed)
    picked = sorted(rng.sample(range(len(choices)), min(POSITIONS_PER_GAME, len(choices))))
    judged = []
    for index in picked:
        position = choices[index]
        seat = position.current_player
        chance = estimate(SeatView(position, seat), seed, iterations, raw=True).chance
        judged.append(Position(seed, len(position.history) + 1, seat, chance, outcome[seat]))
    return judged


def brier(judged: Sequence[Position], curve: tuple[float, float] | None = None) -> float:
    """The mean squared gap between chance and result (through `curve`, where given)."""
    said = [j.chance if curve is None else apply(curve, j.chance) for j in judged]
    return sum((chance - j.outcome) ** 2 for chance, j in zip(said, judged, strict=True)) / len(judged)


def halves(judged: Sequence[Position]) -> tuple[list[Position], list[Position]]:
    """The positions of the first half of the games (by seed), to fit a map on, and of the
    second, to check it on."""
    seeds = sorted({j.seed for j in judged})
    cut = seeds[len(seeds) // 2]
    return [j for j in judged if j.seed < cut], [j for j in judged if j.seed >= cut]


def fit(judged: Sequence[Position]) -> tuple[float, float]:
    """The logistic curve on the logit of the raw chance that best predicts the results
    (maximum likelihood, draws as half a win: Newton's method on two parameters)."""
    xs = [logit(j.chance) for j in judged]
    slope, shift = 1.0, 0.0
    for _ in range(50):
        g_slope = g_shift = h_ss = h_sb = h_bb = 0.0
        for x, position in zip(xs, judged, strict=True):
            q = 1 / (1 + math.exp(-(slope * x + shift)))
            gap, weight = q - position.outcome, q * (1 - q)
            g_slope += gap * x
            g_shift += gap
            h_ss += weight * x * x
            h_sb += weight * x
            h_bb += weight
        det = h_ss * h_bb - h_sb * h_sb
        step_slope = (h_bb * g_slope - h_sb * g_shift) / det
        step_shift = (h_ss * g_shift - h_sb * g_slope) / det
        slope, shift = slope - step_slope, shift - step_shift
        if abs(step_slope) + abs(step_shift) < 1e-10:
            break
    return round(slope, 4), round(shift, 4)


def reliability(judged: Iterable[Position], bins: int = BINS) -> list[tuple[float, float, float, int]]:
    """Per bin of stated chance (low, high): the mean chance stated, the share won (draws
    half), and how many positions fell in it; empty bins are left out."""
    rows: list[list[Position]] = [[] for _ in range(bins)]
    for position in judged:
        rows[min(bins - 1, int(position.chance * bins))].append(position)
    return [(index / bins, sum(j.chance for j in row) / len(row), sum(j.outcome for j in row) / len(row),
             len(row)) for index, row in enumerate(rows) if row]


def read_journal(path: Path) -> list[Position]:
    if not path.exists():
        return []
    judged = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        try:
            judged.append(Position(**json.loads(line)))
        except (ValueError, TypeError) as error:
            raise MatanuiError(f"{path}, line {number}: not a calibration line ({error})") from None
    return judged


def plot(judged: Sequence[Position], path: Path, title: str, curve: tuple[float, float]) -> None:
    """The reliability of the raw chances, and of the second half's through the map fitted
    on the first."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = reliability(judged)
    _, checked = halves(judged)
    mapped = reliability([Position(j.seed, j.number, j.seat, apply(curve, j.chance), j.outcome)
                          for j in checked])
    figure, axes = plt.subplots(figsize=(5, 5))
    axes.plot([0, 1], [0, 1], color="grey", linewidth=0.8, label="perfectly calibrated")
    axes.plot([r[1] for r in rows], [r[2] for r in rows], marker="o", label="the search's raw chance")
    axes.plot([r[1] for r in mapped], [r[2] for r in mapped], marker="s",
              label="mapped (held-out half)")
    for _, said, won, count in rows:
        axes.annotate(str(count), (said, won), textcoords="offset points", xytext=(4, -10), fontsize=7)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("chance of winning stated")
    axes.set_ylabel("share of those positions won")
    axes.set_title(f"{title}\nBrier {brier(judged):.3f} raw over {len(judged)} positions\nheld-out half: "
                   f"{brier(checked):.3f} raw, {brier(checked, curve):.3f} mapped", fontsize=9)
    axes.legend(fontsize=8, loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def markdown_table(journals: dict[str, Path]) -> str:
    """The Brier score of each game's journal, as docs/ai.md shows it (a test compares)."""
    lines = ["| game | positions (games) | Brier, raw | map fitted on the first half | "
             "second half, raw | second half, mapped | map used |", "|---|---|---|---|---|---|---|"]
    for game, path in journals.items():
        judged = read_journal(path)
        fitted, checked = halves(judged)
        slope, shift = fit(fitted)
        lines.append(f"| {games.get(game).title} | {len(judged):,} ({len({j.seed for j in judged}):,}) | "
                     f"{brier(judged):.3f} | slope {slope:g}, shift {shift:g} | {brier(checked):.3f} | "
                     f"{brier(checked, (slope, shift)):.3f} | {'yes' if curve(game) else 'no: no better'} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=games.names())
    parser.add_argument("--games", type=int, default=250)
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--iterations", type=int, default=ANALYSIS_ITERATIONS)
    parser.add_argument("--journal", type=Path, required=True)
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args(argv)
    judged = read_journal(args.journal)
    done = {j.seed for j in judged}
    args.journal.parent.mkdir(parents=True, exist_ok=True)
    with args.journal.open("a") as journal:
        for seed in range(args.first_seed, args.first_seed + args.games):
            if seed in done:
                continue
            for position in judge_game(args.game, seed, args.iterations):
                journal.write(json.dumps(vars(position)) + "\n")
                judged.append(position)
            journal.flush()
    print(f"{args.game}: Brier {brier(judged):.4f} over {len(judged)} positions "
          f"({len({j.seed for j in judged})} games); always 50% would score 0.25")
    print("stated   said   won    positions")
    for low, said, won, count in reliability(judged):
        print(f"{low:.1f}-{low + 1 / BINS:.1f}  {said:.3f}  {won:.3f}  {count}")
    fitted, checked = halves(judged)
    fitted_curve = fit(fitted)
    print(f"map fitted on the first {len(fitted)} positions: slope = {fitted_curve[0]}, shift = "
          f"{fitted_curve[1]}; the other {len(checked)}: Brier {brier(checked):.4f} raw, "
          f"{brier(checked, fitted_curve):.4f} mapped")
    if args.plot:
        plot(judged, args.plot, f"{games.get(args.game).title}: calibration", fitted_curve)


if __name__ == "__main__":
    main()

