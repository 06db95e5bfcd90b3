"""The balance figures of a simulation, as plain JSON-safe data (the HTML report draws these).

Definitions, all with 95% Wilson intervals:
- a character's (seat's, agent's) win rate: the share of its games in which it is among the
  winners; a fair game gives 1/players, drawn games count as not won;
- a pairing's score: for character A against character B in the same game, 1 when A wins
  and B does not, 0 the other way round, 1/2 otherwise (draws count half);
- first-seat advantage: the win rate of the seat that decided first (who goes first), and
  of each place in turn order after it (assuming turns pass in seat order);
- deciders: in each won game, the card, space and token last named during the final turn.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from matanui import games

from .ratings import matrix_interval, win_matrix
from .simulate import GameRow, Job
from .stats import wilson_interval
from .tournament import GameOutcome

HISTOGRAM_BINS = 40
TOP_DECIDERS = 25


def rate(label: str, value: Any, wins: float, total: int) -> dict[str, Any]:
    low, high = wilson_interval(wins, total)
    return {label: value, "games": total, "wins": wins, "rate": wins / total if total else None,
            "low": low, "high": high}


def win_rates(label: str, keyed: Iterable[tuple[Any, bool]]) -> list[dict[str, Any]]:
    """Win rate per key from (key, won) pairs, in key order."""
    totals: Counter[Any] = Counter()
    wins: Counter[Any] = Counter()
    for key, won in keyed:
        totals[key] += 1
        wins[key] += won
    return [rate(label, key, wins[key], totals[key]) for key in sorted(totals)]


def distribution(values: Sequence[int]) -> dict[str, Any] | None:
    if not values:
        return None
    ordered = sorted(values)
    low, high = ordered[0], ordered[-1]
    width = max(1, -(-(high - low + 1) // HISTOGRAM_BINS))
    edges = list(range(low, high + width + 1, width))
    counts = [0] * (len(edges) - 1)
    for v in ordered:
        counts[(v - low) // width] += 1
    quantiles = statistics.quantiles(ordered, n=10) if len(ordered) > 1 else [ordered[0]] * 9
    return {"mean": statistics.fmean(ordered), "median": statistics.median(ordered),
            "p10": quantiles[0], "p90": quantiles[-1], "min": low, "max": high,
            "histogram": {"edges": edges, "counts": counts}}


def pairings(job: Job, rows: Sequence[GameRow]) -> dict[str, Any]:
    """Character against character, reusing the arena's pairwise win matrix."""
    outcomes = [GameOutcome(job.game, list(r.characters), list(r.characters), r.seed, list(r.winners),
                            r.steps, r.turns) for r in rows]
    matrix = win_matrix(outcomes)
    cells = []
    for a in sorted(matrix):
        for b in sorted(matrix[a]):
            record = matrix[a][b]
            low, high = matrix_interval(record)
            cells.append({"row": a, "column": b, "games": record.games, "score": record.score,
                          "rate": record.rate(), "low": low, "high": high})
    return {"characters": sorted(matrix), "cells": cells}


def deciders(rows: Sequence[GameRow]) -> dict[str, Any]:
    decided = [r for r in rows if r.winners]
    by_kind: dict[str, Counter[str]] = {}
    for row in decided:
        for kind, value in row.deciders.items():
            by_kind.setdefault(kind, Counter())[str(value)] += 1
    return {
        "won_games": len(decided),
        "kinds": {kind: [{"value": value, "games": n, "share": n / len(decided)}
                         for value, n in counts.most_common(TOP_DECIDERS)]
                  for kind, counts in sorted(by_kind.items())},
        "distinct": {kind: len(counts) for kind, counts in by_kind.items()},
    }


def analyse(job: Job, rows: Iterable[GameRow]) -> dict[str, Any]:
    rows = list(rows)
    players = job.players
    game = games.get(job.game)
    drawn = sum(1 for r in rows if not r.winners)
    seat_rows = [(r, seat) for r in rows for seat in range(players)]
    result: dict[str, Any] = {
        "game": job.game,
        "title": game.title,
        "job": {**job.identity(), "games": job.games},
        "games": len(rows),
        "fair_rate": 1 / players,
        "draws": {"games": drawn, "rate": drawn / len(rows) if rows else None},
        "characters": win_rates("character", ((r.characters[s], s in r.winners) for r, s in seat_rows)),
        "pairings": pairings(job, rows),
        "first_seat": {
            **rate("seat", "first", sum(r.first in r.winners for r in rows), len(rows)),
            "by_seat": win_rates("seat", ((s, s in r.winners) for r, s in seat_rows)),
            # 0 is the first player, 1 the next in seat order, ...
            "by_turn_order": win_rates("position", (((s - r.first) % players, s in r.winners)
                                                    for r, s in seat_rows)),
        },
        "length": {"turns": distribution([r.turns for r in rows if r.turns is not None]),
                   "steps": distribution([r.steps for r in rows])},
        "deciders": deciders(rows),
    }
    if len(set(job.agents)) > 1:
        result["agents"] = win_rates("agent", ((r.agents[s], s in r.winners) for r, s in seat_rows))
    return result
