"""`matanui train`: a PPO policy trained against fixed opponents."""

from __future__ import annotations

from pathlib import Path

import typer

from matanui.ai.settings import split_agents
from matanui.cli.numbers import integer
from matanui.cli.shared import console, fail
from matanui.engine import MatanuiError


def train(
    game: str = typer.Argument(..., help="Which game: reconstruct, masks or makuta."),
    players: int | None = typer.Option(None, "--players", parser=integer, help="Players in each "
                                       "game (Makuta: 2 to 6); by default the game's fewest."),
    encoding: str = typer.Option("full", "--encoding", help="The observation encoding the policy "
                                 "reads: full, or Makuta's compact (a far smaller input)."),
    steps: int = typer.Option(100_000, "--steps", parser=integer, help="Learner steps (at least; "
                              "whole updates of --envs x 128 steps)."),
    opponents: str = typer.Option("random,heuristic", "--opponents", help="Comma-separated opponents, "
                                  "one per environment in turn, each met from both seats: agent names, "
                                  "ppo, MODULE:CALLABLE or PATH.npz."),
    out: Path = typer.Option(..., "--out", help="The policy file to write (PATH.npz); the learning "
                             "curve goes beside it as PATH-curve.csv and PATH-curve.png."),
    seed: int = typer.Option(0, "--seed", parser=integer, help="Seed: the same seed, the same weights."),
    hidden: str = typer.Option("64", "--hidden", help="Hidden layer widths of the policy, e.g. 64 or 64,64."),
    value_hidden: str = typer.Option("32", "--value-hidden", help="Hidden layer widths of the value head."),
    envs: int = typer.Option(16, "--envs", parser=integer, help="Environments stepped in lock-step."),
    gamma: float = typer.Option(0.99, "--gamma", help="Discount per step, above 0 and at most 1 (1 for "
                                "long games whose only reward is the end)."),
    rate: float = typer.Option(3e-4, "--rate", help="Adam's learning rate, above 0 and at most 1."),
    start_from: Path | None = typer.Option(None, "--start-from", help="Train on from this policy file "
                                           "(PATH.npz of the same game; its layer widths are kept)."),
) -> None:
    """Train a policy with PPO (numpy only) against fixed opponents; writes a policy file that
    `--agents PATH.npz` (and `ppo`, once committed) plays."""
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: reproducible sums, a fair share of CPU
    command = (f"matanui train {game} " + (f"--players {players} " if players else "")
               + (f"--encoding {encoding} " if encoding != "full" else "")
               + f"--steps {steps} --opponents {opponents} --out {out} --seed {seed} "
               f"--hidden {hidden} --value-hidden {value_hidden} --envs {envs} --gamma {gamma:g} "
               f"--rate {rate:g}" + (f" --start-from {start_from}" if start_from else ""))
    try:
        from matanui.ai.policy import require_numpy

        require_numpy()
        from matanui.train import run
    except MatanuiError as error:
        fail(error)
    try:
        paths = run.train_to_files(game, steps, split_agents(opponents), out, seed,
                                   run.widths(hidden, "--hidden"), run.widths(value_hidden, "--value-hidden"),
                                   envs, gamma, rate, command, console.print, start_from, players, encoding)
    except MatanuiError as error:
        fail(error)
    console.print(f"wrote {', '.join(map(str, paths))}")
