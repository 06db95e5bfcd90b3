"""Setting up a terminal game: the characters, who plays each seat, a new or resumed save."""

from __future__ import annotations

import random
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console

from matanui import games
from matanui.ai import make_agent
from matanui.engine import BadSetup, Record, RecordError, replay
from matanui.engine.record import read_json
from matanui.games.tutorial import Tutorial, play_on_from
from matanui.terminal.game import PERSON, Seat, TerminalGame


def choose_characters(game_name: str, me: str | None, opponents: list[str], count: int,
                      seed: int) -> list[str]:
    """Seat 0 plays `me`; the others play `opponents` in order, then characters drawn
    (seeded) from those left, standing in for the rulebook's choosing at the table."""
    game = games.get(game_name)
    allowed = game.characters()
    if not game.min_players <= count <= game.max_players:
        raise BadSetup(f"{game_name} is for {game.players_words()} players, not {count}")
    chosen = [me] if me else []
    chosen += opponents
    for name in chosen:
        if name not in allowed:
            raise BadSetup(f"{name!r} is not a character of {game_name}; choose from: {', '.join(allowed)}")
    if len(chosen) > count:
        raise BadSetup(f"{len(chosen)} characters named for {count} players")
    rest = [c for c in allowed if c not in chosen]
    random.Random(seed).shuffle(rest)
    chosen += rest[: count - len(chosen)]
    if not me:
        chosen = chosen[:count]
    return chosen


def seating(count: int, hotseat: bool, vs: str | None, saved: list[str] | None) -> list[str]:
    """Seat kinds: all people (hot-seat); a person against the `vs` bots (one level per bot
    seat, the last repeated for the seats left; more levels than seats are refused); else as
    saved; else a person against heuristic bots."""
    if hotseat:
        if vs is not None:
            raise BadSetup("--hotseat seats people only; leave out --vs")
        return [PERSON] * count
    if vs is None and saved is not None:
        return saved
    levels = [v for v in (vs or "heuristic").split(",") if v]
    if not levels:
        raise BadSetup("--vs needs an agent name, e.g. heuristic")
    bots = count - 1
    if len(levels) > bots:
        raise BadSetup(f"--vs names {len(levels)} bot levels ({', '.join(levels)}) for {bots} bot "
                       f"seat{'' if bots == 1 else 's'}; name at most {bots}, or seat more with "
                       "--players")
    return [PERSON] + [levels[min(index, len(levels) - 1)] for index in range(count - 1)]


def saved_seating(path: Path, count: int) -> list[str] | None:
    """The seating a save holds next to its record (None in a record saved without one)."""
    data = read_json(path)  # Record.load has read and checked it
    terminal = data.get("terminal")
    if terminal is None:
        return None
    seats = terminal.get("seats") if isinstance(terminal, dict) else None
    if not (isinstance(seats, list) and len(seats) == count and all(isinstance(s, str) for s in seats)):
        raise RecordError(f"the save's 'terminal' field must be {{\"seats\": [...]}} with one entry "
                          f"per player ({count}): {PERSON!r} or a bot's name")
    return seats


def new_save_path(game_name: str, seed: int) -> Path:
    """GAME-seedN.matanui.json, or -2, -3... after it when that file holds an earlier game."""
    path = Path(f"{game_name}-seed{seed}.matanui.json")
    number = 1
    while path.exists():
        number += 1
        path = Path(f"{game_name}-seed{seed}-{number}.matanui.json")
    return path


def play_on_session(lesson: Tutorial, level: str, console: Console,
                    ask: Callable[[str], str]) -> TerminalGame:
    """A game against `level` bots after `lesson`'s last step: from where it ended if the game
    goes on there, else a fresh deal of its characters and options; saved as a new game."""
    state = play_on_from(lesson, random.SystemRandom().randrange(2**31))
    seed = state.record().seed
    seats = [Seat(PERSON) if index == lesson.learner
             else Seat(level, make_agent(level, lesson.game, seed=seed * 7 + index))
             for index in range(len(state.players))]
    return TerminalGame(state, seats, new_save_path(lesson.game, seed), console, ask)


def build_session(*, game_name: str | None, me: str | None, vs: str | None, opponents: list[str],
                  seed: int | None, players: int | None, hotseat: bool, options: Sequence[str],
                  save: Path | None, resume: Path | None, console: Console,
                  ask: Callable[[str], str], data: Path | None = None) -> TerminalGame:
    """A terminal game, new or resumed; `data` is a data pack's folder (None: built-in data);
    `options` are the command line's key=value pairs."""
    from matanui.games.packs import game_for

    if resume is not None:
        given = [flag for flag, value in (("GAME", game_name), ("--as", me), ("--opponent", opponents),
                                          ("--seed", seed), ("--players", players), ("-o", options))
                 if value]
        if given:
            raise BadSetup(f"--resume continues the saved game with its own game, characters, seed "
                           f"and options; leave out {', '.join(given)}")
        record = Record.load(resume)
        state = replay(record, game=game_for(record.game, data))
        game_name, seed, count = record.game, record.seed, len(record.players)
        saved = saved_seating(resume, count)
        save = save or resume
    else:
        game_name = game_name or "reconstruct"
        game = game_for(game_name, data)
        count = players or game.min_players
        characters = choose_characters(game_name, me, opponents, count, seed)
        state = game.new_game(seed, characters, game.parse_options(options))
        saved = None
        save = save or new_save_path(game_name, seed)
    if save.exists() and (resume is None or save.resolve() != resume.resolve()):
        raise BadSetup(f"{save} already exists and is not overwritten; continue that game with "
                       f"`matanui play --resume {shlex.quote(str(save))}`, or choose another --save")
    seats = [Seat(kind) if kind == PERSON else Seat(kind, make_agent(kind, game_name, seed=seed * 7 + index))
             for index, kind in enumerate(seating(count, hotseat, vs, saved))]
    return TerminalGame(state, seats, save, console, ask)
