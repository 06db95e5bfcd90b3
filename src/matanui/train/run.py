"""`matanui train`: check the command's settings, train, write the policy file and its
learning curve."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from matanui import games
from matanui.engine import MatanuiError
from matanui.envs.encoding import DEFAULT_VARIANT, encoding_for

from . import curve
from .ppo import Curve, Settings, train

if TYPE_CHECKING:
    from matanui.envs.checkpoint import Checkpoint

MAX_WIDTH = 4096
SAVE_EVERY = 20  # updates between the policy files and curves written while training


def widths(text: str, option: str) -> tuple[int, ...]:
    """Layer widths such as "64" or "64,64"."""
    try:
        found = tuple(int(part) for part in text.split(","))
    except ValueError:
        found = ()
    if not found or not all(1 <= width <= MAX_WIDTH for width in found):
        raise MatanuiError(f"{option} takes comma-separated layer widths from 1 to {MAX_WIDTH}, e.g. 64 "
                           f"or 64,64, not {text!r}")
    return found


def curve_paths(out: Path) -> tuple[Path, Path]:
    stem = out.with_suffix("")
    return stem.with_name(f"{stem.name}-curve.csv"), stem.with_name(f"{stem.name}-curve.png")


def train_to_files(game: str, steps: int, opponents: Sequence[str], out: Path, seed: int,
                   hidden: tuple[int, ...], value_hidden: tuple[int, ...], envs: int, gamma: float,
                   rate: float, command: str, say: Callable[[str], None],
                   start_from: Path | None = None, players: int | None = None,
                   encoding: str = DEFAULT_VARIANT) -> list[Path]:
    games.require(game)
    spec = games.get(game)
    players = spec.min_players if players is None else players
    encoding_for(spec, players, encoding)  # a clear error for players or an encoding the game lacks
    if out.suffix != ".npz":
        raise MatanuiError(f"--out must be a policy file ending .npz, not {out}")
    if not out.parent.is_dir():
        raise MatanuiError(f"--out: there is no folder {out.parent}")
    if not 1 <= envs <= 1024:
        raise MatanuiError(f"--envs must be from 1 to 1024, not {envs}")
    if not 0 < gamma <= 1:  # False for nan too
        raise MatanuiError(f"--gamma must be above 0 and at most 1, not {gamma}")
    if not 0 < rate <= 1:
        raise MatanuiError(f"--rate must be above 0 and at most 1, not {rate}")
    settings = Settings(hidden=hidden, value_hidden=value_hidden, envs=envs, gamma=gamma, rate=rate)
    start = None
    if start_from is not None:
        from matanui.envs.checkpoint import Checkpoint

        start = Checkpoint.load(start_from)

    csv_path, png_path = curve_paths(out)
    title = f"{game}, {players} players: PPO against {', '.join(opponents)} (seed {seed})"

    def report(learned: Curve, snapshot: Callable[[], Checkpoint]) -> None:
        row = learned.rows[-1]
        if len(learned.rows) % SAVE_EVERY == 0:  # a long run that is stopped keeps what it learnt
            snapshot().save(out)
            curve.write_csv(learned, csv_path)
            curve.write_png(learned, png_path, title)
        returns = ", ".join(f"{key[len('return_vs_'):]} {value:+.3f}" for key, value in row.items()
                            if key.startswith("return_vs_"))
        say(f"{int(row['steps']):,} steps, {int(row['episodes']):,} episodes: mean return against {returns}")

    policy, learned = train(game, steps, opponents, seed, settings, {"command": command}, report, start,
                            players, encoding)
    policy.save(out)
    curve.write_csv(learned, csv_path)
    curve.write_png(learned, png_path, title)
    return [out, csv_path, png_path]
