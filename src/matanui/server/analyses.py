"""The analysis of a finished game for its replay page (matanui.ai.analysis): every decision
judged from the deciding seat's view, one decision a job in the analysis worker (its own
process, at the lowest CPU priority and SCHED_IDLE: it takes only what replays and games leave
over, and a replay never waits in a queue behind an analysis's jobs), so the page's chart fills
in while the rest is worked out. Each instance keeps the analyses of the games asked about
lately, and a game is analysed once, however many pages ask.

Shared fairly: a client (its signed-in account, else its address) has at most one analysis
asked for and not complete; asking for another game's meanwhile is refused (429
`analysis_pending`, naming the one it waits for), never queued, so that nobody can line up
games ahead of others. AT_ONCE analyses are worked out at once (their decisions take turns in
the worker), the rest wait in one queue in the order asked (first come, first served: with one
each, every client has the same place in it), each told its `position` (the analyses before
it). A waiting analysis nobody has asked about for FORGOTTEN_AFTER seconds (its page closed)
leaves the queue; past MOST_WAITING waiting the server refuses new ones (503 `analyses_busy`).

Only a finished game is analysed: while it runs, an estimate from one seat's view would tell
the others something of what that seat holds.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from matanui.ai.analysis import ANALYSIS_ITERATIONS, MARKS, Judged, turning_points
from matanui.engine import Record

from .protocol import Rejected
from .quotas import Throttled

if TYPE_CHECKING:
    from .rooms import Room
    from .workers import Workers

KEPT = 64  # analyses kept per instance, the latest asked about (never one still to finish)
AT_ONCE = 2  # games analysed at the same time (their decisions take turns); the rest wait
MOST_WAITING = 32  # analyses waiting to start; past it a new one is refused (503, Retry-After)
FORGOTTEN_AFTER = 120.0  # seconds: a waiting analysis nobody asks about leaves the queue
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


QUEUED, RUNNING, COMPLETE = "queued", "running", "complete"


@dataclass
class Progress:
    """One game's analysis so far."""

    client: str  # who asked first: its one analysis until complete
    record: dict[str, Any] | None  # the game to analyse (None once worked out)
    asked: float  # when it was last asked about (the clock of Analyses)
    total: int | None = None  # its decisions (None: not counted yet)
    judged: list[dict[str, Any]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None  # None: waiting to start

    @property
    def complete(self) -> bool:
        return self.total is not None and len(self.judged) == self.total

    @property
    def status(self) -> str:
        return COMPLETE if self.complete else QUEUED if self.task is None else RUNNING

    def message(self, position: int) -> dict[str, Any]:
        done = self.complete
        points = turning_points([from_json(j) for j in self.judged]) if done else []
        return {"status": self.status, "position": position, "complete": done, "total": self.total,
                "decisions": self.judged, "turning_points": [point.number for point in points],
                "marks": {name: threshold for name, threshold in MARKS}}


class Analyses:
    """The analyses this instance holds, worked out in `workers` (the analysis worker), at
    most `at_once` at a time, the others waiting in the order asked."""

    def __init__(self, workers: Workers, *, at_once: int = AT_ONCE, most_waiting: int = MOST_WAITING,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.workers = workers
        self.at_once = at_once
        self.most_waiting = most_waiting
        self.clock = clock
        self.games: OrderedDict[str, Progress] = OrderedDict()
        self.waiting: deque[str] = deque()  # the games waiting to start, first to start first
        self.closed = False

    def of(self, room: Room, client: str) -> dict[str, Any]:
        """The analysis of the room's game as far as it has come (queued at its place if it
        waits), asked for by `client` if nobody had: Rejected while the game runs, Throttled
        while `client` has another analysis to finish or the queue is full."""
        if not room.state.is_over:
            raise Rejected("not_over", "a game is analysed once it is over: while it runs, the "
                           "analysis would tell each player something of the others' cards", status=409)
        self._forget_unasked()
        progress = self.games.get(room.id)
        if progress is None:
            progress = self._queue(room, client)
        progress.asked = self.clock()
        self.games.move_to_end(room.id)
        return progress.message(self.position(room.id))

    def position(self, game_id: str) -> int:
        """The analyses before this game's: those being worked out and those waiting ahead of
        it (0: its own is being worked out, or done)."""
        if game_id not in self.waiting:
            return 0
        return self.running() + self.waiting.index(game_id)

    def running(self) -> int:
        return sum(p.task is not None and not p.task.done() for p in self.games.values())

    def pending_of(self, client: str) -> str | None:
        """The game whose analysis `client` asked for and is not complete yet, if any."""
        return next((game_id for game_id, p in self.games.items() if p.client == client and not p.complete),
                    None)

    def _queue(self, room: Room, client: str) -> Progress:
        own = self.pending_of(client)
        if own is not None:
            place = self.position(own)
            where = (f"waiting, {place} analyses before it" if own in self.waiting
                     else "being worked out")
            raise Throttled("analysis_pending", f"your analysis of game {own} is not complete yet "
                            f"({where}): one analysis at a time per player (your account if you are "
                            "signed in, else your address); ask for this game's once it is complete",
                            retry_after=60)
        if len(self.waiting) >= self.most_waiting:
            raise Throttled("analyses_busy", f"{len(self.waiting)} analyses are waiting already, the "
                            "most this server queues: ask again in a few minutes", status=503,
                            retry_after=120)
        progress = self.games[room.id] = Progress(client, vars(room.state.record()), self.clock())
        self.waiting.append(room.id)
        self._start_next()
        self._drop_old()
        return progress

    def _start_next(self) -> None:
        """Start the waiting analyses, first come first, while fewer than `at_once` run."""
        while not self.closed and self.waiting and self.running() < self.at_once:
            game_id = self.waiting.popleft()
            progress = self.games[game_id]
            progress.task = asyncio.create_task(self._work(game_id, progress), name=f"analysis-{game_id}")
            progress.task.add_done_callback(lambda _: self._start_next())

    def _forget_unasked(self) -> None:
        """A waiting analysis nobody asked about for FORGOTTEN_AFTER seconds leaves the queue
        (its page was closed): asked for again, it waits at the end."""
        now = self.clock()
        for game_id in [g for g in self.waiting if now - self.games[g].asked > FORGOTTEN_AFTER]:
            self.waiting.remove(game_id)
            del self.games[game_id]

    def _drop_old(self) -> None:
        """Past KEPT, forget the complete analyses asked about least lately."""
        done = [game_id for game_id, p in self.games.items() if p.complete]
        for game_id in done[: max(0, len(self.games) - KEPT)]:
            del self.games[game_id]

    async def _work(self, game_id: str, progress: Progress) -> None:
        record = progress.record
        assert record is not None
        try:
            numbers = await self.workers.run(decision_numbers, record)
            progress.total = len(numbers)
            iterations = budget(len(numbers))
            for number in numbers:
                progress.judged.append(await self.workers.run(
                    judge_decision, f"analysis:{game_id}", record, number, iterations))
            progress.record = None
        except Exception:  # a worker that died: forget it, so that the next ask starts again
            if self.games.get(game_id) is progress:
                del self.games[game_id]
            raise

    def close(self) -> None:
        self.closed = True
        for progress in self.games.values():
            if progress.task is not None:
                progress.task.cancel()
