"""A game's replay as one viewer may see it, built in a worker process, in two parts.

The replay page asks first for every step's frame without its position (the step's words
and events: the log, a few hundred bytes a step) and the first positions, enough to draw the
board at once (`replay_text`); then for the positions of the steps it shows next, a range at
a time (`positions_text`). The positions are the costly part: a 3,000-action Makuta game's are
about a third of a second of CPU and 7 MB of JSON, which, built whole before the first answer,
kept the board blank for seconds (9 s on a loaded machine, where the replay worker's lowest
CPU priority gives it little time).

Everything is built and encoded away from the event loop, in the replay workers at the
lowest CPU priority: the loop only checks the request, waits on a future and sends the text
it gets back. What a viewer is sent is what that viewer may see, step by step: the events'
and the observations' views for that seat (None: the public view), and an action's id and
words only where the viewer may know them.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from matanui.engine import Event, Record, State, replay
from matanui.engine.forfeits import FORFEIT_DECISIONS, parse_forfeit

from .accounts import seats_opened
from .bots import _position
from .protocol import Rejected

if TYPE_CHECKING:
    from .lobby import Lobby
    from .rooms import Room

FIRST_POSITIONS = 20  # in the first answer (steps 0 to 19): the board at once, and a few steps on
MOST_POSITIONS = 100  # positions one range request may ask for


def setup_events(state: State) -> list[Event]:
    """A copy of what the set-up told (every state keeps it: engine/state.py)."""
    return list(state.setup_events)


def turn_of(state: State) -> int | None:
    """The turn as the game counts it (its observations' `turn`; None for a game without
    turns): each frame carries it so that the page can jump to a turn without the positions."""
    return getattr(state, "turn", None)


def take_step(state: State, action: str, seat: int | None, over: bool) -> dict[str, Any]:
    """Apply `action` to `state`: the step's frame (its position aside), as `seat` may see it.

    An action id or its words may name what only the actor knew (a card from the hand):
    shown to the actor, and to everyone once the game is over (`over`), with the record.
    `text` is the decision's words alone; the page names the actor (`actor`) the way every
    surface does, by display name or character."""
    forfeit = parse_forfeit(action)  # taken by its own seat, whoever was to decide; public
    actor = state.current_player if forfeit is None else forfeit[1]
    shown = over or seat == actor or forfeit is not None
    text = FORFEIT_DECISIONS[forfeit[0]] if forfeit else state.describe(action) if shown else "decides."
    events = state.apply(action)
    return {"action": action if shown else None, "actor": actor, "text": text, "turn": turn_of(state),
            "events": [e.view(seat) for e in events]}


def replay_text(record: dict[str, Any], seat: int | None, over: bool, summary: dict[str, Any],
                chat: list[dict[str, Any]] | None = None) -> str:
    """In a worker: the first answer of the replay of `record` for `seat` (None: the public
    view), as JSON text: every step's frame without its position (`frames`, step 0 the
    set-up: the log, the step's words, its turn) and the observations of the first
    FIRST_POSITIONS steps (`from` 0, `observations`); the record once the game is over (`over`).
    `chat`: the players' chat lines, each with `after` (the step from which it is said)."""
    full = Record.from_dict(record)
    state = replay(replace(full, actions=[]))
    frames = [{"action": None, "text": "Set-up", "turn": turn_of(state),
               "events": [e.view(seat) for e in setup_events(state)]}]
    observations = [state.observation(seat)]
    for action in full.actions:
        frames.append(take_step(state, action, seat, over))
        if len(observations) < FIRST_POSITIONS:
            observations.append(state.observation(seat))
    result: dict[str, Any] = {"game": summary, "seat": seat, "frames": frames, "from": 0,
                              "observations": observations, "chat": chat or []}
    if over:
        result["record"] = record
    return json.dumps(result)


def positions_text(key: str, record: dict[str, Any], seat: int | None, start: int) -> str:
    """In a worker: the observations for `seat` of the steps from `start` to the end of
    `record` (which the caller cuts at the last step wanted), as JSON text.

    The worker keeps the game's last position under `key` (bots._position): the page asks
    for the ranges in order as it plays, and each is then built from where the last ended."""
    full = Record.from_dict(record)
    state = _position(key, replace(full, actions=full.actions[:start]))
    observations = [state.observation(seat)]
    for action in full.actions[start:]:
        state.apply(action)  # the kept position moves on with it: its history says where it is
        observations.append(state.observation(seat))
    return json.dumps({"seat": seat, "from": start, "observations": observations})


def check_viewer(room: Room, seat: int | None, token: str | None, account: str | None) -> None:
    """Rejected unless the caller may see the game from `seat`: anyone sees the public view
    (None); a seat's own view needs its token (or the signed-in account that holds it) while
    the game runs, and is open to all once it is over (nothing is secret any more)."""
    if seat is None:
        return
    state = room.state
    if not 0 <= seat < len(state.players):
        raise Rejected("bad_seat", f"this game has no seat {seat}: seat must be 0 to "
                       f"{len(state.players) - 1}, or absent for the public view", status=404)
    if not state.is_over and seat not in seats_opened(room, token, account):
        raise Rejected("bad_token", "while the game runs, a seat's replay needs that seat's token",
                       status=403)


def check_range(start: int | None, stop: int | None, last: int) -> tuple[int, int]:
    """The steps `start` to `stop` (both included) of a game whose last step is `last`, or
    Rejected saying which ranges are allowed."""
    allowed = (f"from and to are steps 0 to {last} (0: the set-up), from <= to, at most "
               f"{MOST_POSITIONS} steps at a time")
    if start is None or stop is None:
        raise Rejected("bad_range", f"give both from and to, or neither for the frames and the first "
                       f"positions: {allowed}", status=422)
    if not 0 <= start <= stop <= last or stop - start >= MOST_POSITIONS:
        raise Rejected("bad_range", f"{allowed}; not {start} to {stop}", status=422)
    return start, stop


async def positions_json(lobby: Lobby, game_id: str, seat: int | None, token: str | None,
                         client: str, account: str | None, start: int | None, stop: int | None) -> str:
    """The observations of the steps `start` to `stop` of a game as `seat` saw them, for the
    replay page to draw the board as it steps on (built in a replay worker)."""
    room = await lobby.find(game_id)
    check_viewer(room, seat, token, account)
    record = room.state.record()
    start, stop = check_range(start, stop, len(record.actions))
    with lobby.quotas.replay(client):
        wanted = replace(record, actions=record.actions[:stop]).to_dict()
        return await lobby.backends.replays.run(positions_text, f"replay:{game_id}", wanted, seat, start)
