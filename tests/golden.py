"""Golden playthroughs: a few seeded random games written out step by step.

Each file holds, per step, the deciding seat, its observation, the legal actions, the action
taken and the narration, so any change of behaviour shows as a diff. To keep files small, a
seat's observation is written whole the first time (`obs`) and afterwards only the top-level
fields that changed since that seat's previous one (`obs~`): nothing is left out. After a deliberate
change of rules, regenerate with `make golden` (python -m tests.golden --write) and review
the diff before committing it.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from matanui import games
from tests.play import new_random_game

FOLDER = Path(__file__).with_name("golden")
SEEDS = (1, 2, 3)


def playthrough(name: str, seed: int) -> str:
    state = new_random_game(name, seed)
    rng = random.Random(seed)
    lines = [f"# {name} seed {seed} players {list(state.players)} options {state.options}"]
    lines += [f"  {e.text}" for e in getattr(state, "setup_events", [])]
    step = 0
    previous: dict[int, dict] = {}
    while not state.is_over:
        seat = state.current_player
        actions = state.legal_actions()
        action = actions[rng.randrange(len(actions))]
        step += 1
        lines.append(f"step {step} seat {seat}")
        lines.append(observation_line(state.observation(seat), previous.get(seat)))
        previous[seat] = state.observation(seat)
        lines.append("  legal " + " ".join(actions))
        lines.append(f"  action {action}")
        lines += [f"  {e.text}" for e in state.apply(action)]
    lines.append(f"end winners {state.winners} returns {state.returns()}")
    return "\n".join(lines) + "\n"


def observation_line(obs: dict, before: dict | None) -> str:
    if before is None:
        return "  obs " + json.dumps(obs, sort_keys=True)
    changed = {key: value for key, value in obs.items() if before.get(key) != value}
    gone = sorted(key for key in before if key not in obs)
    return "  obs~ " + json.dumps(changed, sort_keys=True) + (f" removed {gone}" if gone else "")


def golden_path(name: str, seed: int) -> Path:
    return FOLDER / f"{name}-seed{seed}.txt"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the golden files")
    parser.add_argument("games", nargs="*", default=games.names())
    args = parser.parse_args()
    for name in args.games:
        for seed in SEEDS:
            path = golden_path(name, seed)
            text = playthrough(name, seed)
            if args.write:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
            else:
                same = path.exists() and path.read_text(encoding="utf-8") == text
                print(f"{path}: {'same' if same else 'DIFFERS'}")


if __name__ == "__main__":
    main()
