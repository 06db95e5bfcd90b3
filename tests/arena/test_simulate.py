"""Batch self-play: seating covers every pairing and seat order, results do not depend on the
backend or on interruptions, and bad jobs are refused before anything runs."""

import itertools
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from matanui import games
from matanui.arena.backends import LocalBackend
from matanui.arena.batch import simulate
from matanui.arena.results import ResultStore
from matanui.arena.simulate import Job, SimulationError, nth_arrangement, play_game
from matanui.engine import MatanuiError


def stored(path):
    with ResultStore(path, create=False) as store:
        return list(store.rows())


def test_every_character_pairing_and_seat_order_is_played():
    job = Job.build("reconstruct", ["heuristic"], 30)
    seatings = {job.seating(i)[0] for i in range(job.games)}
    assert seatings == set(itertools.permutations(games.get("reconstruct").characters(), 2))


def test_different_agents_rotate_through_the_seats_game_by_game():
    job = Job.build("reconstruct", ["random", "heuristic"], 60)
    assert [job.seating(i)[1] for i in range(3)] == [("random", "heuristic"), ("heuristic", "random"),
                                                     ("random", "heuristic")]
    # each rotation meets every seating
    assert len({job.seating(i) for i in range(60)}) == 60


def test_nth_arrangement_enumerates_each_ordered_choice_once():
    items = ["a", "b", "c", "d"]
    found = [nth_arrangement(items, 3, n) for n in range(24)]
    assert sorted(found) == sorted(itertools.permutations(items, 3))


def test_a_game_is_a_function_of_the_job_and_its_index():
    job = Job.build("reconstruct", ["heuristic"], 10, seed=5)
    row = play_game(job, 3)
    assert row == play_game(job, 3)
    assert row.seed == 8 and row.winners and row.first in (0, 1)
    assert row.deciders["card"] in games.get("reconstruct").deck.cards


def test_same_results_in_one_process_or_a_pool_whatever_the_chunks(tmp_path):
    job = Job.build("reconstruct", ["random", "heuristic"], 120)
    simulate(job, str(tmp_path / "one.sqlite"), LocalBackend(1), chunk=120)
    simulate(job, str(tmp_path / "pool.sqlite"), LocalBackend(2), chunk=7)
    assert stored(tmp_path / "one.sqlite") == stored(tmp_path / "pool.sqlite")
    assert [r.index for r in stored(tmp_path / "pool.sqlite")] == list(range(120))


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path):
    job = Job.build("reconstruct", ["heuristic"], 100)
    path = str(tmp_path / "r.sqlite")

    def stop_after_two_chunks(done, total):
        if done == 40:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(job, path, LocalBackend(1), chunk=20, on_progress=stop_after_two_chunks)
    assert len(stored(path)) == 40
    progress = []
    played = simulate(job, path, LocalBackend(1), chunk=20, on_progress=lambda d, t: progress.append(d))
    assert played == 60 and progress[0] == 40
    simulate(job, str(tmp_path / "whole.sqlite"), LocalBackend(1))
    assert stored(path) == stored(tmp_path / "whole.sqlite")


def test_a_killed_command_leaves_a_file_that_resumes(tmp_path):
    path = tmp_path / "killed.sqlite"
    command = [sys.executable, "-m", "matanui.cli", "simulate", "reconstruct", "--games", "1500",
               "--agents", "random", "--chunk", "20", "--out", str(path)]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        count = 0
        while count == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
            if path.exists():
                try:
                    count = sqlite3.connect(path).execute("SELECT COUNT(*) FROM games").fetchone()[0]
                except sqlite3.OperationalError:  # the tables are not there yet
                    count = 0
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait()
    assert count > 0
    job = Job.build("reconstruct", ["random"], 1500)
    kept = len(stored(path))
    assert 0 < kept < 1500, "the run finished before it could be killed; make it longer"
    assert simulate(job, str(path), LocalBackend(1)) == 1500 - kept
    rows = stored(path)
    assert [r.index for r in rows] == list(range(1500))
    assert all(row == play_game(job, row.index) for row in rows[::50])


def test_a_results_file_holds_one_job_and_may_only_grow(tmp_path):
    path = str(tmp_path / "j.sqlite")
    simulate(Job.build("reconstruct", ["random"], 10), path, LocalBackend(1))
    with pytest.raises(SimulationError, match=r"holds another simulation: agents .*heuristic"):
        simulate(Job.build("reconstruct", ["heuristic"], 10), path, LocalBackend(1))
    with pytest.raises(SimulationError, match=r"seed 0 \(asked: 4\)"):
        simulate(Job.build("reconstruct", ["random"], 10, seed=4), path, LocalBackend(1))
    assert simulate(Job.build("reconstruct", ["random"], 25), path, LocalBackend(1)) == 15
    assert simulate(Job.build("reconstruct", ["random"], 12), path, LocalBackend(1)) == 0
    with ResultStore(path, create=False) as store:
        assert store.job().games == 25 and store.count() == 25


def test_a_run_is_not_resumed_once_the_games_data_changed(tmp_path, monkeypatch):
    path = str(tmp_path / "d.sqlite")
    simulate(Job.build("reconstruct", ["random"], 5), path, LocalBackend(1))
    monkeypatch.setattr("matanui.arena.simulate.data_fingerprint", lambda game: "edited")
    changed = r"holds another simulation: data '[0-9a-f]+' \(asked: 'edited'\)"
    with pytest.raises(SimulationError, match=changed):
        simulate(Job.build("reconstruct", ["random"], 10), path, LocalBackend(1))


def test_a_file_that_is_not_a_results_file_is_refused_and_left_alone(tmp_path):
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).executescript("CREATE TABLE mine (x); INSERT INTO mine VALUES (1);")
    before = other.read_bytes()
    with pytest.raises(SimulationError, match="is not a matanui results file"):
        simulate(Job.build("reconstruct", ["random"], 5), str(other), LocalBackend(1))
    assert other.read_bytes() == before
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    with pytest.raises(SimulationError, match="is not a matanui results file"):
        ResultStore(text)
    assert text.read_text() == "hello"


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"game": "chess"}, "no game named 'chess'"),
    ({"players": 3}, "reconstruct is for exactly 2 players, not 3"),
    ({"agents": ["random", "random", "random"]}, "one per seat"),
    ({"agents": ["oracle"]}, "no agent named 'oracle'"),
    ({"games_count": 0}, "whole number >= 1"),
    ({"options": {"colour": "red"}}, "no option 'colour'"),
])
def test_bad_jobs_are_refused_saying_what_is_allowed(kwargs, message):
    settings = {"game": "reconstruct", "agents": ["random"], "games_count": 5, **kwargs}
    with pytest.raises(MatanuiError, match=message):
        Job.build(**settings)


def test_bad_workers_and_chunks_are_refused(tmp_path):
    with pytest.raises(SimulationError, match="--workers"):
        LocalBackend(0)
    with pytest.raises(SimulationError, match="chunk size"):
        simulate(Job.build("reconstruct", ["random"], 5), str(tmp_path / "x.sqlite"), LocalBackend(1), 0)
    assert not (tmp_path / "x.sqlite").exists()
