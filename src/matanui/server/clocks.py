"""Clocks: how long each person may take over a decision, and what happens when it runs out.

A clock is never stored. It is a pure function (`clock`) of the game's pace, who decided each
action and when that decision started and ended (the time the action before it was stored, and
its own: the `at` column of `actions`), when each seat's player first came to the game (its
`arrived`, stored with the seats), and the time now. So a restarted server and every instance
on one database compute the same clock and the same expiry from what is stored.

Only a person's own decisions are timed: not a bot's, not a response window (which closes by
itself) and not an action the server takes itself. A decision is timed from the later of the
decision before it and its player's arrival, so a friend who opens an invite late has the
whole move time then, not a clock that ran out before they came. A seat's first decision has
the move time without the bank.

- Real-time: each move has `move_seconds`; the time a move takes beyond it comes out of the
  seat's bank (`bank_seconds` at the start); the clock runs out when both are spent.
- Turn-based: `move_seconds` for each move (a day, say), no bank.
- A player who has not come when their decision is due has NO_SHOW (a minute real-time, a day
  turn-based) from the later of the game's creation and the decision before: then their clock
  has run out (the clock's `absent` says why).

When a clock runs out, every connection is told (a `clock` message whose `expired` is the
seat; the page of that seat says so plainly). The others may end it at once ("expel": the
engine's `timeout:<seat>` forfeit), "wait" (nothing happens by itself any more at this
decision; the late player may still move, the others may still end it), or, in a game of three
or more, "replace" (a bot, medium, takes the seat). If nobody chooses within the grace
(`move_seconds` real-time, an hour turn-based), the server ends it: the timeout forfeit, on the
instance that runs the game's bots (peers.may_run_bots). A timeout while the game may still be
aborted (aborts.py: someone has made fewer than two moves) aborts it, unrated; after that, in a
two-player game it loses the game, in a larger one the seat is out (Makuta goes on).
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
NO_SHOW = {"realtime": 60.0, "turn_based": 24 * 3600.0}  # seconds a seat's player has to come
FEWEST_TO_REPLACE = 3  # seats a game needs before a bot may take a seat out of time
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
    a start of None: stored by an older matanui, so untimed). `absent`: the decision being
    taken is of a seat whose player has not come (timed from `started` by NO_SHOW)."""

    seat: int
    started: float | None
    ended: float | None = None
    absent: bool = False


def clock(pace: dict[str, Any], seats: int, decisions: Sequence[Decision],
          now: float) -> dict[str, Any] | None:
    """The clock as clients are sent it: None for an untimed game, else its kind, the seat
    whose clock runs (None: no person's timed decision now), its deadline (seconds since
    1970; None: an untimed decision), the move time, each seat's bank at the start of the
    decision now, the seat whose clock has run out (None: none), and `absent`: whether the
    deciding seat's player has not come yet (its deadline is then the no-show's). A seat's
    first decision has the move time without the bank (a player who never moves does not hold
    a game for the whole bank). `decisions` are the timed ones in order, the last the one
    being taken (if any)."""
    if pace["kind"] == "untimed":
        return None
    move = float(pace["move_seconds"])
    banks = [float(pace.get("bank_seconds", 0))] * seats
    decided: set[int] = set()
    seat = deadline = expired = None
    absent = False
    for decision in decisions:
        first = decision.seat not in decided
        decided.add(decision.seat)
        if decision.ended is None:
            seat, absent = decision.seat, decision.absent
            if decision.started is not None:
                allowed = NO_SHOW[pace["kind"]] if absent else move + (0.0 if first else banks[seat])
                deadline = decision.started + allowed
                expired = seat if now >= deadline else None
            break
        if decision.started is not None:
            beyond = decision.ended - decision.started - move
            banks[decision.seat] = max(0.0, banks[decision.seat] - max(0.0, beyond))
    return {"kind": pace["kind"], "seat": seat, "deadline": deadline, "move_seconds": move,
            "banks": banks, "expired": expired, "absent": absent}


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
              seats: Sequence[SeatRow], now_turn: tuple[int | None, bool],
              created: float) -> list[Decision]:
    """The timed decisions of a game: of each action (`turns[i]` decided it, stored at
    `times[i]`) and the one being taken now (`now_turn`), in a game created at `created`. A
    replaced seat's decisions were a person's until the bot took it; the bot's after that are
    quick, and its clock never runs."""
    found = []
    last: float | None = None  # when the latest decision ended (None: none, or no time stored)
    stored = True  # every action so far has its time (an older matanui stored none)
    for number, turn in enumerate(turns):
        ended = times[number]
        stored = stored and ended is not None
        if turn == ASIDE:
            continue
        seat, by_rule = turn
        if seat is not None and not by_rule and (_person(seats[seat]) or seats[seat].replaced):
            found.append(Decision(seat, last if ended is not None else None,
                                  ended if ended is not None else 0.0))
        last = ended
    seat, by_rule = now_turn
    if seat is not None and not by_rule and _person(seats[seat]):
        since = None if not stored else created if last is None else max(last, created)
        arrived = seats[seat].arrived
        if arrived is None:
            found.append(Decision(seat, since, absent=True))
        else:
            found.append(Decision(seat, None if since is None else max(since, arrived)))
    return found


def room_clock(room: Room, now: float | None = None) -> dict[str, Any] | None:
    """The room's clock now (None: untimed, or the game is over)."""
    if room.state.is_over:
        return None
    found = decisions(room.turns, room.row.times, room.row.seats, turn_of(room.state), room.row.created)
    now_clock = clock(room.row.pace, len(room.row.seats), found, time.time() if now is None else now)
    if now_clock is not None:  # the others chose to wait for the seat out of time (wait_for)
        now_clock["waited"] = room.row.waited == len(room.state.history)
    return now_clock


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
    """Tell the connections when the clock runs out; at the end of the grace, unless the
    others chose to wait, end the seat's game by the timeout forfeit (on the instance that
    runs the game's bots; the others look again later, in case that one is gone)."""
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
        if room.row.waited == len(room.state.history):
            return  # the others wait for the late player: a move (or their choice) ends it
        if now < grace_ends(now_clock):
            await asyncio.sleep(grace_ends(now_clock) - now)
            continue
        if await room.backends.peers.may_run_bots(room.id):
            with contextlib.suppress(Rejected):  # the database failed, or someone chose first
                await time_out(room, now_clock["expired"])
                return
        await asyncio.sleep(RETRY)


def _expired(room: Room, seat: int) -> None:
    """Rejected unless `seat`'s clock has run out now."""
    now_clock = room_clock(room)
    if now_clock is None or now_clock["expired"] != seat:
        raise Rejected("not_expired", f"seat {seat}'s clock has not run out; end its game, wait or "
                       "have a bot take it only once its clock has (the clock's 'expired' names "
                       "the seat)", status=409)


async def time_out(room: Room, seat: int) -> None:
    """The seat whose clock ran out forfeits on time (an abort while the game may be
    aborted), by the others' choice or at the grace's end, unless it moved a moment ago on
    another instance."""
    if room.backends.storage.shared:
        await room.catch_up()
    _expired(room, seat)
    await room.forfeit(seat, "timeout", at=len(room.state.history))


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


async def wait_for(room: Room, seat: int) -> None:
    """The others wait for the seat whose clock ran out: stored (every instance then leaves
    the seat alone at this decision), and told to every connection."""
    async with room.lock:
        _expired(room, seat)
        number = len(room.state.history)
        storage = room.backends.storage
        try:
            await storage.run(storage.set_waited, room.id, number)
        except StorageFailed as exc:
            raise Rejected("not_saved", f"the choice to wait was not saved: the database failed "
                           f"({exc.reason}); nothing changed: try again in a while", status=503) from None
        room.row.waited = number
    room.broadcast_all({"type": "clock", "clock": room_clock(room)})


async def choose(room: Room, by: int | None, message: ClockChoice) -> None:
    """A player's choice for a seat whose clock ran out: end its game now (expel), wait for
    it, or (three or more seats) have a bot take it."""
    if by is None:
        raise Rejected("spectator", "spectators watch; the players choose what happens to a seat "
                       "whose clock ran out")
    if by == message.seat:
        raise Rejected("own_clock", "it is your own clock that ran out: move now if you can; the "
                       "other players choose whether your game ends on time or they wait for you")
    room.check_played_by_person(by)
    if by in room.state.out:
        raise Rejected("out", "you are out of this game; the players still in it choose", status=409)
    if message.choice == "replace":
        if len(room.row.seats) < FEWEST_TO_REPLACE:
            raise Rejected("no_replace", "a bot takes a seat out of time only in a game of three or "
                           "more; in a two-player game end it on time ('expel': you win) or 'wait'",
                           status=409)
        await replace_seat(room, message.seat)
        return
    if message.choice == "wait":
        await wait_for(room, message.seat)
        return
    await time_out(room, message.seat)
