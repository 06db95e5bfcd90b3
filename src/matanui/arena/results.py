"""Simulation results in one SQLite file: the job that made them and one row per game.

Each finished chunk is committed in one transaction, so a run killed at any moment leaves a
consistent file that a later run resumes. A file belongs to one job (game, agents, seed,
players, options, rules version); asking it to hold another job is refused rather than
mixing results. Only the number of games may grow between runs.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import TracebackType

from .simulate import GameRow, Job, SimulationError

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (
    idx INTEGER PRIMARY KEY,
    seed INTEGER NOT NULL,
    characters TEXT NOT NULL,
    agents TEXT NOT NULL,
    first INTEGER,
    winners TEXT NOT NULL,
    steps INTEGER NOT NULL,
    turns INTEGER,
    deciders TEXT NOT NULL
);
"""
FORMAT = "matanui-simulation-1"


class ResultStore:
    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        """Open a results file; `create` allows starting a new one. A file that is not a
        matanui results file is refused and left untouched."""
        self.path = Path(path)
        exists = self.path.is_file() and self.path.stat().st_size > 0
        if not exists and not create:
            raise SimulationError(f"no results file at {self.path} (make one with `matanui simulate`)")
        try:
            self.db = sqlite3.connect(self.path)
        except sqlite3.Error as exc:
            raise SimulationError(f"cannot open results file {self.path}: {exc}") from None
        if not exists:
            with self.db:
                self.db.executescript(SCHEMA)
                self.db.execute("INSERT INTO meta VALUES ('format', ?)", (FORMAT,))
            return
        try:
            stored = self._meta("format")
        except sqlite3.DatabaseError:
            stored = None
        if stored != FORMAT:
            self.db.close()
            raise SimulationError(f"{self.path} is not a matanui results file")

    def __enter__(self) -> ResultStore:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.db.close()

    def _meta(self, key: str) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else row[0]

    def job(self) -> Job:
        text = self._meta("job")
        if text is None:
            raise SimulationError(f"{self.path} holds no simulation yet")
        return Job.from_json(text)

    def bind(self, job: Job) -> None:
        """Make this file hold `job`: a new file takes it, a file of the same job (with any
        number of games) is resumed, any other job is refused, naming what differs."""
        text = self._meta("job")
        if text is not None:
            stored = json.loads(text)
            wanted = job.identity()
            different = [f"{key} {stored.get(key)!r} (asked: {wanted.get(key)!r})"
                         for key in [*wanted, *({"data_pack"} & set(stored) - set(wanted))]
                         if stored.get(key) != wanted.get(key)]
            if different:
                raise SimulationError(
                    f"{self.path} holds another simulation: " + "; ".join(different)
                    + ". Resume it with the same settings, or choose a new results file.")
            if stored["games"] >= job.games:
                return  # asking for fewer games than planned plays none and keeps the plan
        with self.db:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('job', ?)", (job.to_json(),))

    def done_indices(self) -> set[int]:
        return {row[0] for row in self.db.execute("SELECT idx FROM games")}

    def add(self, rows: Sequence[GameRow]) -> None:
        with self.db:
            self.db.executemany(
                "INSERT OR REPLACE INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(r.index, r.seed, json.dumps(r.characters), json.dumps(r.agents), r.first,
                  json.dumps(r.winners), r.steps, r.turns, json.dumps(r.deciders, sort_keys=True))
                 for r in rows])

    def count(self) -> int:
        return self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0]

    def rows(self) -> Iterator[GameRow]:
        """Every stored game, by index."""
        for idx, seed, chars, agents, first, winners, steps, turns, deciders in self.db.execute(
                "SELECT * FROM games ORDER BY idx"):
            yield GameRow(idx, seed, tuple(json.loads(chars)), tuple(json.loads(agents)), first,
                          tuple(json.loads(winners)), steps, turns, json.loads(deciders))
