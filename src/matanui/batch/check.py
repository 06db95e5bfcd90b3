"""A batched game checked against the reference engine, move for move:
`python -m matanui.batch.check GAME --games N [--options JSON] [--journal PATH]`.

Each game is dealt from the same seed on both sides (`envs.table.Table.deal` and the batched
`reset`), then played with uniformly random legal actions chosen from the reference's legal
set. Before every decision the two must agree on who decides, on the legal actions (as a
mask in the encoding's order) and on every seat's information-state tensor (observation and
memory); at the end, on the returns. The first difference stops the check with the seed, the
decision and the pieces that differ, named as the encoding names them.

A long check keeps a journal, one JSON line per finished batch of seeds; run again with the
same journal, it checks only the seeds not yet in it and reports the total.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from matanui.engine import MatanuiError
from matanui.envs.encoding import Encoding
from matanui.envs.table import Table

from .base import BatchedGame


class Mismatch(AssertionError):
    """The batched game and the reference disagree."""


@dataclass
class CheckResult:
    games: int
    decisions: int
    seconds: float


def piece_names(encoding: Encoding) -> list[tuple[str, slice]]:
    """Every piece of the information-state tensor: the observation's, then the memory's."""
    offset = encoding.observation_size
    pieces = [(name, where) for name, where, _ in encoding.observation_layout.pieces]
    pieces += [(f"memory {name}", slice(where.start + offset, where.stop + offset))
               for name, where, _ in encoding.memory_layout.pieces]
    return pieces


def _differences(encoding: Encoding, got: np.ndarray, expected: np.ndarray) -> str:
    wrong = np.flatnonzero(got != expected)
    named = []
    for name, where in piece_names(encoding):
        inside = wrong[(wrong >= where.start) & (wrong < where.stop)]
        if inside.size:
            at = (inside - where.start).tolist()
            named.append(f"{name} at {at[:6]}: batched {got[inside][:6].tolist()}, "
                         f"reference {expected[inside][:6].tolist()}")
    return "; ".join(named)


def _compare(batched: BatchedGame, tables: list[Table], seeds: list[int], decision: int,
             observations: list[np.ndarray]) -> None:
    encoding = batched.encoding
    current, masks = batched.current_player, batched.legal_mask()
    for i, table in enumerate(tables):
        state = table.state
        where = f"seed {seeds[i]}, decision {decision}"
        expected = -1 if state.is_over else state.current_player
        if current[i] != expected:
            raise Mismatch(f"{where}: the batched game has seat {current[i]} deciding, "
                           f"the reference {expected}")
        if state.is_over:
            continue
        mask = table.mask().astype(np.bool_)
        if not np.array_equal(mask, masks[i]):
            extra = [encoding.actions[a] for a in np.flatnonzero(masks[i] & ~mask)]
            missing = [encoding.actions[a] for a in np.flatnonzero(mask & ~masks[i])]
            raise Mismatch(f"{where}: legal actions differ; only batched: {extra}; only reference: {missing}")
        for seat, seen in enumerate(observations):
            features = table.features(seat)
            if not np.array_equal(seen[i], features):
                raise Mismatch(f"{where}, seat {seat}'s tensor: {_differences(encoding, seen[i], features)}")


def check_games(batched: BatchedGame, seeds: list[int], options: Mapping[str, Any] | None = None,
                choice_seed: int = 0) -> int:
    """Play the games of `seeds` (at most batched.num_games) side by side; the decisions made."""
    count = len(seeds)
    if count > batched.num_games:
        raise MatanuiError(f"{count} seeds for {batched.num_games} batched games")
    padded = np.array(list(seeds) + [0] * (batched.num_games - count), np.int64)
    batched.reset(padded)
    tables = [Table.deal(batched.encoding, seed, None, options) for seed in seeds]
    choosers = [random.Random(choice_seed * 1_000_003 + seed) for seed in seeds]
    actions = np.zeros(batched.num_games, np.int64)
    decisions = 0
    while True:
        observations = [batched.observe(np.full(batched.num_games, seat)) for seat in range(batched.players)]
        _compare(batched, tables, list(seeds), decisions, observations)
        playing = [i for i, table in enumerate(tables) if not table.state.is_over]
        if not playing:
            break
        for i in playing:
            actions[i] = choosers[i].choice(tables[i].legal_indices())
            tables[i].play(int(actions[i]))
        # The padding games (and any over) play on unchecked: give them a legal action.
        rest = batched.legal_mask()[count:]
        actions[count:] = np.where(rest.any(axis=1), rest.argmax(axis=1), 0)
        batched.step(actions)
        decisions += len(playing)
    returns = batched.returns  # computed for every game at once: read it once
    for i, table in enumerate(tables):
        if not np.allclose(returns[i], table.state.returns()):
            raise Mismatch(f"seed {seeds[i]}: returns differ at the end: batched "
                           f"{returns[i].tolist()}, reference {table.state.returns()}")
    return decisions


def check(make: Callable[[int], BatchedGame], seeds: Iterable[int], batch: int = 256,
          options: Mapping[str, Any] | None = None,
          on_chunk: Callable[[int], None] | None = None) -> CheckResult:
    """Check every seed, `batch` games at a time; `make(n)` builds the batched game."""
    batched = make(batch)
    chunk: list[int] = []
    games = decisions = 0
    started = time.perf_counter()

    def flush() -> None:
        nonlocal games, decisions
        decisions += check_games(batched, chunk, options)
        games += len(chunk)
        if on_chunk is not None:
            on_chunk(len(chunk))
        chunk.clear()

    for seed in seeds:
        chunk.append(seed)
        if len(chunk) == batch:
            flush()
    if chunk:
        flush()
    return CheckResult(games, decisions, time.perf_counter() - started)


def main(argv: list[str] | None = None) -> None:
    from matanui.progress import progress

    from . import batched_game, batched_names

    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=batched_names())
    parser.add_argument("--games", type=int, default=1000, help="how many games (seeds first-seed onwards)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--batch", type=int, default=256, help="games stepped at once")
    parser.add_argument("--options", type=json.loads, default=None,
                        help='game options as JSON, e.g. \'{"advanced": true}\'')
    parser.add_argument("--journal", type=Path, default=None, help="a JSON-lines journal to resume from")
    args = parser.parse_args(argv)
    seeds = range(args.first_seed, args.first_seed + args.games)
    done = _journaled(args.journal, args.game, args.options)
    todo = [seed for seed in seeds if seed not in done["seeds"]]
    try:
        make = batched_game(args.game)
        with progress(f"check {args.game}", len(seeds), source=args.journal) as bar:
            bar.advance(len(seeds) - len(todo))
            for start in range(0, len(todo), args.batch * 16):
                part = todo[start:start + args.batch * 16]
                result = check(lambda n: make(n, args.options), part, args.batch, args.options, bar.advance)
                _journal(args.journal, args.game, args.options, part, result, done)
    except (MatanuiError, Mismatch) as error:
        sys.exit(f"check {args.game}: {error}")
    print(f"{args.game}: {done['games']:,} games, {done['decisions']:,} decisions equal move for move "
          f"(options {json.dumps(args.options or {})}) in {done['seconds']:,.0f} s")


def _journaled(path: Path | None, game: str, options: Any) -> dict[str, Any]:
    done: dict[str, Any] = {"seeds": set(), "games": 0, "decisions": 0, "seconds": 0.0}
    if path is None or not path.exists():
        return done
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
            if entry["game"] != game or entry["options"] != (options or {}):
                raise ValueError(f"it is of {entry['game']} with options {entry['options']}")
            for first, count in entry["seeds"]:
                done["seeds"].update(range(first, first + count))
            for key in ("games", "decisions", "seconds"):
                done[key] += entry[key]
        except (ValueError, KeyError, TypeError) as error:
            sys.exit(f"check {game}: {path} line {number} is not this check's journal ({error})")
    return done


def _journal(path: Path | None, game: str, options: Any, seeds: list[int], result: CheckResult,
             done: dict[str, Any]) -> None:
    """One line per batch of seeds checked, its seeds as runs [first, count]."""
    runs: list[list[int]] = []
    for seed in seeds:
        if runs and seed == runs[-1][0] + runs[-1][1]:
            runs[-1][1] += 1
        else:
            runs.append([seed, 1])
    done["games"] += result.games
    done["decisions"] += result.decisions
    done["seconds"] += result.seconds
    if path is not None:
        entry = {"game": game, "options": options or {}, "seeds": runs, "games": result.games,
                 "decisions": result.decisions, "seconds": round(result.seconds, 3)}
        with path.open("a", encoding="utf-8") as journal:
            journal.write(json.dumps(entry) + "\n")


if __name__ == "__main__":
    main()
