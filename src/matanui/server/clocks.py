"""Clocks: how long each person may take over a decision, and what happens when it runs out.

A clock is never stored. It is a pure function (`clock`) of the game's pace, who decided each
action and when that decision started and ended (the time the action before it was stored, and
its own: the `at` column of `actions`), and the time now. So a restarted server and every
instance on one database compute the same clock and the same expiry from what is stored.

Only a person's own decisions are timed: not a bot's, not a response window (which closes by
itself) and not an action the server takes itself. Each seat's first timed decision is free
(lichess: the clock starts after each side's first move; the players may still be arriving).

- Real-time: each move has `move_seconds`; the time a move takes beyond it comes out of the
  seat's bank (`bank_seconds` at the start); the clock runs out when both are spent.
- Turn-based: `move_seconds` for each move (a day, say), no bank.

When a clock runs out, the other players are told (a `clock` message whose `expired` is the
seat) and may expel the seat (it loses: the engine's `timeout:<seat>` forfeit) or have a bot
(medium) take it over. If nobody chooses within the grace (`move_seconds` real-time, an hour
turn-based) the server has a bot take it, on the instance that runs the game's bots
(peers.may_run_bots). Until someone chooses, the late player may still move.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from matanui.engine import State
from matanui.engine.forfeits import parse_forfeit

from .protocol import REALTIME_MOST_MOVE, ClockChoice, CreateGame, Rejected
from .storage import UNTIMED, SeatRow, StorageFailed

if TYPE_CHECKING:
    from .rooms import Room

TURN_BASED_GRACE = 3600.0  # seconds the others have to choose after a turn-based clock ran out
RETRY = 5.0  # seconds before an instance that may not act on an expiry (or failed to) looks again
REPLACING_BOT = "medium"
# The pace of a game with people, unless its creator chooses: docs/protocol.md.
DEFAULT_PACE = {"kind": "realtime", "move_seconds": 120, "bank_seconds": 300}


def pace_of(spec: CreateGame, least_move: int) -> dict[str, Any]:
    """A new game's pace as stored: the one asked for, else untimed where every seat is the
    creator's and real-time (DEFAULT_PACE) where anyone else plays. A real-time move time
    under the server's least (`least_move`) is refused."""
    if spec.pace is None:
        return dict(DEFAULT_PACE if spec.shared else UNTIMED)
    if spec.pace.kind == "realtime" and spec.pace.move_seconds < least_move:
        raise Rejected("bad_pace", f"pace: a real-time move_seconds of {spec.pace.move_seconds} is too "
                       f"short; it must be {least_move} to {REALTIME_MOST_MOVE} seconds", status=422)
    return spec.pace.model_dump()


def document_least_move(document: dict[str, Any], least_move: int) -> None:
    """The OpenAPI document states the server's least real-time move time."""
    realtime = document["components"]["schemas"]["RealTime"]["properties"]["move_seconds"]
    realtime["minimum"] = least_move


@dataclass(frozen=True)
class Decision:
    """One timed decision of a seat: when it started and ended (None: it is being taken now;
    a start of None: stored by an older matanui, so untimed)."""

    seat: int
    started: float | None
    ended: float | None = None


def clock(pace: dict[str, Any], seats: int, decisions: Sequence[Decision],
          now: float) -> dict[str, Any] | None:
    """The clock as clients are sent it: None for an untimed game, else its kind, the seat
    whose clock runs (None: no person's timed decision now), its deadline (seconds since
    1970; None: an untimed decision, one with no start, such as the game's first, or that of a
    seat nobody has opened yet), the move time, each seat's bank at the start of the decision
    now, and the seat whose clock has run out (None: none). A seat's first decision has the
    move time without the bank (a player who never comes does not hold a game for the whole
    bank). `decisions` are the timed ones in order, the last the one being taken (if any)."""
    if pace["kind"] == "untimed":
        return None
    move = float(pace["move_seconds"])
    banks = [float(pace.get("bank_seconds", 0))] * seats
    decided: set[int] = set()
    seat = deadline = expired = None
    for decision in decisions:
        first = decision.seat not in decided
        decided.add(decision.seat)
        if decision.ended is None:
            seat = decision.seat
            if decision.started is not None:
                deadline = decision.started + move + (0.0 if first else banks[seat])
                expired = seat if now >= deadline else None
            break
        if decision.started is not None:
            beyond = decision.ended - decision.started - move
            banks[decision.seat] = max(0.0, banks[decision.seat] - max(0.0, beyond))
    return {"kind": pace["kind"], "seat": seat, "deadline": deadline, "move_seconds": move,
            "banks": banks, "expired": expired}


def grace_ends(clock_now: dict[str, Any]) -> float:
    """When the server replaces a seat whose clock ran out if nobody chose."""
    grace = clock_now["move_seconds"] if clock_now["kind"] == "realtime" else TURN_BASED_GRACE
    return clock_now["deadline"] + grace


# -- who decided each action --------------------------------------------------------------


# A forfeit of a seat that was not deciding: it ends nobody's decision (Makuta goes on, and
# the Toa deciding keeps the time it has used).
ASIDE = (None, True)


def turn_of(state: State, action: str | None = None) -> tuple[int | None, bool]:
    """Who decides now, or decided `action` (noted before it is applied), and whether the
    server takes it by the rules (a response window, an automatic action, a forfeit: untimed);
    ASIDE for a forfeit of a seat that was not deciding."""
    seat = state.current_player
    forfeit = None if action is None else parse_forfeit(action)
    if forfeit is not None:
        return (seat, True) if forfeit[1] == seat else ASIDE
    return seat, state.response_window() is not None or state.automatic_action() is not None


def _person(seat: SeatRow) -> bool:
    return seat.kind != "bot"


def decisions(turns: Sequence[tuple[int | None, bool]], times: Sequence[float | None],
              seats: Sequence[SeatRow], now_turn: tuple[int | None, bool]) -> list[Decision]:
    """The timed decisions of a game: of each action (`turns[i]` decided it, stored at
    `times[i]`) and the one being taken now (`now_turn`). A replaced seat's decisions were a
    person's until the bot took it; the bot's after that are quick, and its clock never runs."""
    found = []
    last: float | None = None  # when the latest decision ended (None: none, or no time stored)
    for number, turn in enumerate(turns):
        if turn == ASIDE:
            continue
        seat, by_rule = turn
        ended = times[number]
        if seat is not None and not by_rule and (_person(seats[seat]) or seats[seat].replaced):
            found.append(Decision(seat, last if ended is not None else None,
                                  ended if ended is not None else 0.0))
        last = ended
    seat, by_rule = now_turn
    if seat is not None and not by_rule and _person(seats[seat]):
        # Timed from the decision before it, once the seat's player has come (its token opened).
        found.append(Decision(seat, last if seats[seat].claimed else None))
    return found


def room_clock(room: Room, now: float | None = None) -> dict[str, Any] | None:
    """The room's clock now (None: untimed, or the game is over)."""
    if room.state.is_over:
        return None
    found = decisions(room.turns, room.row.times, room.row.seats, turn_of(room.state))
    return clock(room.row.pace, len(room.row.seats), found, time.time() if now is None else now)


# -- acting on expiry --------------------------------------------------------------------


def watch(room: Room) -> None:
    """(Re)start the room's clock timer: after every action and change of seats."""
    task = room.clock_task
    if task is not None and task is not asyncio.current_task():
        task.cancel()
    room.clock_task = None
    if room.row.pace["kind"] != "untimed" and not room.state.is_over:
        room.clock_task = asyncio.create_task(_watch(room), name=f"clock-{room.id}")


async def stop(room: Room) -> None:
    if room.clock_task is not None:
        room.clock_task.cancel()
        await asyncio.gather(room.clock_task, return_exceptions=True)


async def _watch(room: Room) -> None:
    """Tell the connections when the clock runs out; at the end of the grace, have a bot take
    the seat (on the instance that runs the game's bots; the others look again later, in case
    that one is gone)."""
    told = False
    while True:
        now = time.time()  # one reading for both: the clock told must agree with the test below
        now_clock = room_clock(room, now)
        if now_clock is None or now_clock["deadline"] is None:
            return
        if now < now_clock["deadline"]:
            await asyncio.sleep(now_clock["deadline"] - now)
            continue
        if not told:
            room.broadcast_all({"type": "clock", "clock": now_clock})
            told = True
        if now < grace_ends(now_clock):
            await asyncio.sleep(grace_ends(now_clock) - now)
            continue
        if await room.backends.peers.may_run_bots(room.id):
            with contextlib.suppress(Rejected):  # the database failed, or someone chose first
                await replace_seat(room, now_clock["expired"])
                return
        await asyncio.sleep(RETRY)


def _expired(room: Room, seat: int) -> None:
    """Rejected unless `seat`'s clock has run out now."""
    now_clock = room_clock(room)
    if now_clock is None or now_clock["expired"] != seat:
        raise Rejected("not_expired", f"seat {seat}'s clock has not run out; expel or replace a "
                       "player only once their clock has (the clock's 'expired' names the seat)",
                       status=409)


async def replace_seat(room: Room, seat: int) -> None:
    """A bot takes the seat whose clock ran out (kind bot, level medium, replaced), stored
    with the seats; it then moves."""
    async with room.lock:
        if room.backends.storage.shared:  # the late player may have just moved on another instance
            await room._catch_up()
        _expired(room, seat)
        seats = [replace(row, kind="bot", level=REPLACING_BOT, replaced=True) if number == seat else row
                 for number, row in enumerate(room.row.seats)]
        try:
            await room._store_seats(seats)
        except StorageFailed as exc:
            raise Rejected("not_saved", f"the bot could not take the seat: the database failed "
                           f"({exc.reason}); nothing changed: try again in a while", status=503) from None
    room.announce_seats()
    room.broadcast_all({"type": "clock", "clock": room_clock(room)})  # nothing has run out now
    room.wake()


async def choose(room: Room, by: int | None, message: ClockChoice) -> None:
    """A player's choice for a seat whose clock ran out: expel it or have a bot take it."""
    if by is None:
        raise Rejected("spectator", "spectators watch; the players choose what happens to a seat "
                       "whose clock ran out")
    if by == message.seat:
        raise Rejected("own_clock", "it is your own clock that ran out: move now if you can; the "
                       "other players choose whether you are expelled or a bot takes your seat")
    room.check_played_by_person(by)
    if by in room.state.out:
        raise Rejected("out", "you are out of this game; the players still in it choose", status=409)
    if message.choice == "replace":
        await replace_seat(room, message.seat)
        return
    _expired(room, message.seat)
    await room.forfeit(message.seat, "timeout", at=len(room.state.history))
