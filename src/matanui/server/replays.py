"""A game's replay: every position as one viewer may see it, built in a worker process.

A replay of a long game is thousands of observations (a 3,000-action Makuta game: about a
third of a second of CPU and 7 MB of JSON), so it is built and encoded away from the event
loop, in the replay workers at the lowest CPU priority: the loop only waits on a future and
sends the text it gets back.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from matanui.engine import Event, Record, State, replay
from matanui.engine.forfeits import FORFEIT_DECISIONS, parse_forfeit


def setup_events(state: State) -> list[Event]:
    """A copy of what the set-up told (every state keeps it: engine/state.py)."""
    return list(state.setup_events)


def replay_text(record: dict[str, Any], seat: int | None, over: bool, summary: dict[str, Any],
                chat: list[dict[str, Any]] | None = None) -> str:
    """In a worker: the replay of `record` for `seat` (None: the public view), as JSON text.

    An action id or its words may name what only the actor knew (a card from the hand):
    shown to the actor, and to everyone once the game is over (`over`), with the record.
    `chat`: the players' chat lines, each with `after` (the frame from which it is said).
    A frame's `text` is the decision's words alone; the page names the actor (`actor`) the
    way every surface does, by display name or character."""
    full = Record.from_dict(record)
    step = replay(replace(full, actions=[]))
    frames = [{"action": None, "text": "Set-up", "events": [e.view(seat) for e in setup_events(step)],
               "observation": step.observation(seat)}]
    for action in full.actions:
        forfeit = parse_forfeit(action)  # taken by its own seat, whoever was to decide; public
        actor = step.current_player if forfeit is None else forfeit[1]
        shown = over or seat == actor or forfeit is not None
        text = FORFEIT_DECISIONS[forfeit[0]] if forfeit else step.describe(action) if shown \
            else "decides."
        events = step.apply(action)
        frames.append({"action": action if shown else None, "actor": actor, "text": text,
                       "events": [e.view(seat) for e in events], "observation": step.observation(seat)})
    result: dict[str, Any] = {"game": summary, "seat": seat, "frames": frames, "chat": chat or []}
    if over:
        result["record"] = record
    return json.dumps(result)
