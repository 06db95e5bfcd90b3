"""The analysis of a finished game for its replay page (matanui.ai.analysis): every decision
judged from the deciding seat's view, one decision a job in the replay workers (the lowest
CPU priority, never the event loop), so the page's chart fills in while the rest is worked
out. Each instance keeps the analyses of the games asked about lately, and a game is analysed
once, however many pages ask.

Only a finished game is analysed: while it runs, an estimate from one seat's view would tell
the others something of what that seat holds.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from matanui.ai.analysis import ANALYSIS_ITERATIONS, MARKS, Judged, turning_points
from matanui.engine import Record

from .protocol import Rejected

if TYPE_CHECKING:
    from .rooms import Room
    from .workers import Workers

KEPT = 64  # analyses kept per instance, the latest asked about
AT_ONCE = 4  # games analysed at the same time; another waits its turn (503, Retry-After)
# A long game's decisions share a budget: past this many, each gets fewer iterations (never
# fewer than LEAST_ITERATIONS), so a 3,000-action Makuta game is analysed in minutes, not hours.
FULL_BUDGET_DECISIONS = 300
LEAST_ITERATIONS = 60


def budget(decisions: int) -> int:
    """The iterations each decision of a game with this many decisions is judged with."""
    if decisions <= FULL_BUDGET_DECISIONS:
        return ANALYSIS_ITERATIONS
    return max(LEAST_ITERATIONS, ANALYSIS_ITERATIONS * FULL_BUDGET_DECISIONS // decisions)


def decision_numbers(record: dict[str, Any]) -> list[int]:
    """In a worker: the action numbers (from 1) of the game's decisions."""
    from matanui.ai.analysis import decisions

    return [number for number, _ in decisions(Record.from_dict(record))]


def judge_decision(key: str, record: dict[str, Any], number: int, iterations: int) -> dict[str, Any]:
    """In a worker: the decision that is action `number` of the record, judged."""
    from matanui.ai.analysis import judge

    from .bots import _position

    full = Record.from_dict(record)
    before = Record(**{**vars(full), "actions": full.actions[: number - 1]})
    state = _position(key, before).clone()
    return as_json(judge(state, full.actions[number - 1], full.seed + number, iterations))


def as_json(judged: Judged) -> dict[str, Any]:
    return {"number": judged.number, "seat": judged.seat, "words": judged.words,
            "best_words": judged.best_words, "before": round(judged.before, 4),
            "after": round(judged.after, 4), "lost": round(judged.lost, 4), "mark": judged.mark,
            "forced": judged.forced}


def from_json(data: dict[str, Any]) -> Judged:
    """Enough of a judged decision to find the turning points (the ids are not kept)."""
    return Judged(data["number"], data["seat"], "", data["words"], "", data["best_words"],
                  data["before"], data["after"], data["forced"])


@dataclass
class Progress:
    """One game's analysis so far."""

    total: int | None = None  # its decisions (None: not counted yet)
    judged: list[dict[str, Any]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    @property
    def complete(self) -> bool:
        return self.total is not None and len(self.judged) == self.total

    def message(self) -> dict[str, Any]:
        done = self.complete
        points = turning_points([from_json(j) for j in self.judged]) if done else []
        return {"complete": done, "total": self.total, "decisions": self.judged,
                "turning_points": [point.number for point in points],
                "marks": {name: threshold for name, threshold in MARKS}}


class Analyses:
    """The analyses this instance holds, worked out in `workers`."""

    def __init__(self, workers: Workers) -> None:
        self.workers = workers
        self.games: OrderedDict[str, Progress] = OrderedDict()

    def of(self, room: Room) -> dict[str, Any]:
        """The analysis of the room's game as far as it has come, started if it was not."""
        if not room.state.is_over:
            raise Rejected("not_over", "a game is analysed once it is over: while it runs, the "
                           "analysis would tell each player something of the others' cards", status=409)
        progress = self.games.get(room.id)
        if progress is None:
            running = sum(p.task is not None and not p.task.done() for p in self.games.values())
            if running >= AT_ONCE:
                raise Rejected("analyses_busy", f"the server is analysing {running} games, as many as "
                               "it may at once: ask again in a minute", status=503)
            progress = self.games[room.id] = Progress()
            progress.task = asyncio.create_task(self._work(room.id, vars(room.state.record())),
                                                name=f"analysis-{room.id}")
            while len(self.games) > KEPT:
                _, dropped = self.games.popitem(last=False)
                if dropped.task is not None:
                    dropped.task.cancel()
        self.games.move_to_end(room.id)
        return progress.message()

    async def _work(self, game_id: str, record: dict[str, Any]) -> None:
        progress = self.games[game_id]
        try:
            numbers = await self.workers.run(decision_numbers, record)
            progress.total = len(numbers)
            iterations = budget(len(numbers))
            for number in numbers:
                progress.judged.append(await self.workers.run(
                    judge_decision, f"analysis:{game_id}", record, number, iterations))
        except Exception:  # a worker that died: forget it, so that the next ask starts again
            self.games.pop(game_id, None)
            raise

    def close(self) -> None:
        for progress in self.games.values():
            if progress.task is not None:
                progress.task.cancel()
