"""Analyses are shared fairly (analyses.py, issue #44): a client (its account, else its
address) has one analysis to finish at a time, the rest of the server's wait in one queue in
the order asked, each told how many are before it, and the analyses run in a worker of their
own below the replays' priority, so that a replay never waits behind them.

The queue is tested with a stand-in worker whose decisions finish when the test says."""

from __future__ import annotations

import asyncio
import os
import random
from types import SimpleNamespace
from typing import Any

import pytest

from matanui.server import analyses
from matanui.server.analyses import Analyses, decision_numbers, judge_decision
from matanui.server.quotas import Throttled
from matanui.server.workers import BACKGROUND_NICE, Workers

from .helpers import create, play_out
from .test_play import hello

DECISIONS = 2  # each stand-in game's


class Gated:
    """A stand-in analysis worker: a game's decisions are judged once `finish(game)` is called."""

    def __init__(self) -> None:
        self.gates: dict[str, asyncio.Event] = {}
        self.started: list[str] = []  # the games whose first decision was asked for, in order

    def gate(self, game_id: str) -> asyncio.Event:
        return self.gates.setdefault(game_id, asyncio.Event())

    def finish(self, game_id: str) -> None:
        self.gate(game_id).set()

    async def run(self, call: Any, *args: Any) -> Any:
        if call is decision_numbers:
            return list(range(1, DECISIONS + 1))
        assert call is judge_decision
        _, record, number, _ = args
        game_id = record["game_id"]
        if number == 1:
            self.started.append(game_id)
        await self.gate(game_id).wait()
        return {"number": number, "seat": number % 2, "words": "a move", "best_words": "a move",
                "before": 0.5, "after": 0.5, "lost": 0.0, "mark": None, "forced": False}


def finished(game_id: str) -> Any:
    return SimpleNamespace(id=game_id, state=SimpleNamespace(
        is_over=True, record=lambda: SimpleNamespace(game_id=game_id)))


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def closed(queue: Analyses) -> None:
    queue.close()
    await settle()  # the cancelled tasks end


def run(test: Any) -> None:
    asyncio.run(asyncio.wait_for(test(), timeout=10))


def test_a_client_has_one_analysis_to_finish_at_a_time_and_is_told_which():
    async def test() -> None:
        worker = Gated()
        queue = Analyses(worker, at_once=1)
        assert queue.of(finished("a1"), "address 1")["status"] == "running"
        assert queue.of(finished("a1"), "address 1")["status"] == "running"  # its own: asked again
        with pytest.raises(Throttled) as refused:
            queue.of(finished("a2"), "address 1")
        assert refused.value.code == "analysis_pending" and refused.value.status == 429
        assert "your analysis of game a1 is not complete yet (being worked out)" in refused.value.message
        assert "a2" not in queue.games  # refused: nothing queued, nothing started
        worker.finish("a1")
        await settle()
        assert queue.of(finished("a1"), "address 1")["status"] == "complete"
        assert queue.of(finished("a2"), "address 1")["status"] == "running"  # done: the next may come
        await closed(queue)

    run(test)


def test_a_refusal_says_how_many_are_before_the_clients_waiting_analysis():
    async def test() -> None:
        queue = Analyses(Gated(), at_once=1)
        queue.of(finished("b1"), "address 1")
        queue.of(finished("b2"), "address 2")
        with pytest.raises(Throttled) as refused:
            queue.of(finished("b3"), "address 2")
        assert "game b2 is not complete yet (waiting, 1 analyses before it)" in refused.value.message
        await closed(queue)

    run(test)


def test_clients_wait_in_the_order_they_asked_each_told_how_many_are_before_theirs():
    async def test() -> None:
        worker = Gated()
        queue = Analyses(worker, at_once=2)
        answers = [queue.of(finished(f"g{n}"), f"address {n}") for n in range(5)]
        assert [(a["status"], a["position"]) for a in answers] == [
            ("running", 0), ("running", 0), ("queued", 2), ("queued", 3), ("queued", 4)]
        assert answers[2]["decisions"] == [] and answers[2]["complete"] is False
        await settle()
        worker.finish("g1")  # the second to start ends first: the first waiting takes its place
        await settle()
        assert queue.of(finished("g2"), "address 2")["status"] == "running"
        assert queue.of(finished("g3"), "address 3")["position"] == 2
        assert queue.of(finished("g4"), "address 4")["position"] == 3
        worker.finish("g0")
        await settle()
        assert [queue.of(finished(f"g{n}"), f"address {n}")["position"] for n in (3, 4)] == [0, 2]
        assert worker.started == ["g0", "g1", "g2", "g3"]
        await closed(queue)

    run(test)


def test_a_game_others_asked_for_is_shared_and_counts_only_for_the_first_to_ask():
    async def test() -> None:
        worker = Gated()
        queue = Analyses(worker, at_once=1)
        queue.of(finished("s1"), "address 1")
        assert queue.of(finished("s1"), "account 7")["status"] == "running"  # the same analysis
        assert queue.of(finished("s2"), "account 7")["position"] == 1  # account 7's own is s2
        worker.finish("s1")
        worker.finish("s2")
        await settle()
        assert worker.started == ["s1", "s2"]  # each game analysed once
        await closed(queue)

    run(test)


def test_a_waiting_analysis_nobody_asks_about_leaves_the_queue():
    async def test() -> None:
        now = [0.0]
        queue = Analyses(Gated(), at_once=1, clock=lambda: now[0])
        queue.of(finished("w1"), "address 1")
        queue.of(finished("w2"), "address 2")  # its page closes: never asked again
        now[0] += analyses.FORGOTTEN_AFTER / 2
        queue.of(finished("w3"), "address 3")
        now[0] += analyses.FORGOTTEN_AFTER / 2 + 1
        assert queue.of(finished("w3"), "address 3")["position"] == 1  # w2 left the queue
        assert "w2" not in queue.games
        assert queue.of(finished("w1"), "address 1")["status"] == "running"  # running: kept
        assert queue.of(finished("w2"), "address 2")["position"] == 2  # asked again: at the end
        await closed(queue)

    run(test)


def test_a_full_queue_refuses_new_analyses_and_says_so():
    async def test() -> None:
        queue = Analyses(Gated(), at_once=1, most_waiting=2)
        for n in range(3):
            queue.of(finished(f"f{n}"), f"address {n}")
        with pytest.raises(Throttled) as refused:
            queue.of(finished("f3"), "address 3")
        assert refused.value.code == "analyses_busy" and refused.value.status == 503
        assert "2 analyses are waiting already" in refused.value.message
        await closed(queue)

    run(test)


def test_complete_analyses_are_dropped_past_the_kept_but_never_one_still_to_finish(monkeypatch):
    monkeypatch.setattr(analyses, "KEPT", 2)

    async def test() -> None:
        worker = Gated()
        queue = Analyses(worker, at_once=1)
        queue.of(finished("k0"), "address 0")
        worker.finish("k0")
        await settle()
        for n in (1, 2, 3):
            queue.of(finished(f"k{n}"), f"address {n}")
        assert list(queue.games) == ["k1", "k2", "k3"]  # k0 (complete) dropped; three to finish kept
        await closed(queue)

    run(test)


# -- over HTTP, with the real app -------------------------------------------------------------


def finished_game(client) -> str:
    created = create(client)
    with hello(client, created["id"], created["seats"][0]["token"]) as ws:
        play_out(ws, random.Random(1))
    return created["id"]


def test_over_http_the_second_game_of_one_address_is_refused_and_a_queued_one_told_its_place(client):
    first, second = finished_game(client), finished_game(client)
    real = client.app.state.analyses
    stand_in = Analyses(Gated(), at_once=0)  # nothing starts: every analysis waits
    client.app.state.analyses = stand_in
    try:
        queued = client.get(f"/api/games/{first}/analysis")
        assert queued.status_code == 200, queued.text
        assert queued.json()["status"] == "queued" and queued.json()["position"] == 0
        refused = client.get(f"/api/games/{second}/analysis")
        assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
        assert refused.json()["error"] == "analysis_pending"
        assert f"your analysis of game {first} is not complete yet" in refused.json()["message"]
    finally:
        stand_in.close()
        client.app.state.analyses = real


def test_analyses_run_in_a_worker_of_their_own_below_the_replays_priority(client):
    assert client.app.state.analyses.workers is not client.app.state.lobby.backends.replays

    async def priority() -> tuple[int, int]:
        worker = Workers(1, nice=BACKGROUND_NICE, idle=True)
        try:
            pid = await worker.run(os.getpid)
            return os.getpriority(os.PRIO_PROCESS, pid), os.sched_getscheduler(pid)
        finally:
            worker.close()

    nice, policy = asyncio.run(priority())
    assert nice == BACKGROUND_NICE
    assert policy == os.SCHED_IDLE  # only the CPU that nothing else wants, replays' (nice 19) too
