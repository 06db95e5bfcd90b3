"""Speed of the vector environments: `python -m matanui.batch.speed [--seconds S]`.

Steps a second of `gymnasium.make_vec(..., vectorization_mode="vector_entry_point")` (the
batched engine) for each game that has one, against Gymnasium's own SyncVectorEnv over the
reference environment. The learner plays uniformly random legal actions; only the time
inside `step` counts (the learner's choice is the caller's cost), and an opponent's moves
are inside it. A step is one decision of the learner in each sub-environment.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np

import matanui.envs.gymnasium  # noqa: F401  (registers the environments)

from . import batched_names


def vector_steps_per_second(game: str, num_envs: int, seconds: float,
                            mode: str = "vector_entry_point", threads: int | None = None) -> float:
    settings = {"threads": threads} if mode == "vector_entry_point" else {}
    envs = gymnasium.make_vec(f"matanui/{game}-v0", num_envs=num_envs, vectorization_mode=mode,
                              opponents="random", **settings)
    obs, _ = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    mask = obs["action_mask"]
    obs, *_ = envs.step((rng.random(mask.shape) * mask).argmax(axis=1))  # compiles, or loads the cache
    spent = 0.0
    steps = 0
    while spent < seconds:
        mask = obs["action_mask"]
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        begun = time.perf_counter()
        obs, *_ = envs.step(actions)
        spent += time.perf_counter() - begun
        steps += num_envs
    envs.close()
    return steps / spent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=5.0, help="time inside step per measurement")
    args = parser.parse_args(argv)
    print("| game | environment | sub-environments | threads | steps/s |")
    print("|---|---|---|---|---|")
    for game in batched_names():
        sync = vector_steps_per_second(game, 8, args.seconds, mode="sync")
        print(f"| {game} | SyncVectorEnv (reference) | 8 | 1 | {sync:,.0f} |")
        for num_envs, threads in ((256, 1), (1024, 1), (4096, 1), (4096, None)):
            rate = vector_steps_per_second(game, num_envs, args.seconds, threads=threads)
            shown = "all" if threads is None else threads
            print(f"| {game} | batched vector env | {num_envs} | {shown} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
