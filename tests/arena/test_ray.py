"""`--backend ray` plays the same games as the process pool: on a local Ray it starts itself, and
on a cluster an operator started separately (`ray start --head`, token authentication on, as
Ray has it by default), with a driver that may be killed and run again.

Every Ray address stays on loopback: with RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 Ray keeps
127.0.0.1 instead of swapping in the machine's other interface (a one-node cluster, enough
here). Ray reads that setting when imported, so it is set before the import below.
"""

import os
import secrets
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

from matanui.arena.backends import LocalBackend, RayBackend
from matanui.arena.batch import simulate
from matanui.arena.results import ResultStore
from matanui.arena.simulate import Job

if os.environ.get("CI"):
    import ray  # CI installs the 'cluster' extra (in 'dev'): a missing Ray fails, never skips
else:
    ray = pytest.importorskip("ray", reason="the Ray backend needs the 'cluster' extra: "
                              "pip install 'matanui[cluster]'")

SRC = str(Path(__file__).resolve().parents[2] / "src")
RAY = str(Path(sys.executable).with_name("ray"))
CLUSTER_START_S = 90


def test_a_local_ray_cluster_gives_the_same_results_as_one_process(tmp_path):
    job = Job.build("reconstruct", ["random", "heuristic"], 300, seed=11)
    played = simulate(job, str(tmp_path / "ray.sqlite"), RayBackend(None, 2), chunk=25)
    simulate(job, str(tmp_path / "local.sqlite"), LocalBackend(1))
    assert played == 300
    assert not ray.is_initialized()  # the local cluster it started is shut down
    with ResultStore(tmp_path / "ray.sqlite") as a, ResultStore(tmp_path / "local.sqlite") as b:
        assert list(a.rows()) == list(b.rows())


def test_a_local_ray_cluster_stays_on_loopback():
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        assert {node["NodeManagerAddress"] for node in ray.nodes()} == {"127.0.0.1"}
    finally:
        ray.shutdown()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """A Ray head started the way an operator does, in its own process group, on loopback,
    asking for `token`. Stopped by its process ids."""

    def __init__(self, home: Path) -> None:
        self.port = free_port()
        self.token = secrets.token_hex(32)
        self.home = home  # no ~/.ray/auth_token of the machine's user takes part
        # Ray's socket paths must stay short, so not under pytest's deep temporary folders.
        self.temp = tempfile.mkdtemp(prefix="mtray", dir="/tmp")
        self.log = home / "ray-start.log"
        env = self.env(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=self.token)
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [RAY, "start", "--head", "--block", f"--port={self.port}", "--node-ip-address=127.0.0.1",
                 "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats",
                 f"--temp-dir={self.temp}"],
                env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + CLUSTER_START_S
        while "Ray runtime started" not in self.log.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                pytest.fail(f"ray start did not come up:\n{self.log.read_text()[-2000:]}")
            time.sleep(0.2)

    def env(self, **extra: str) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_AUTH")}
        env.update(HOME=str(self.home), PYTHONPATH=SRC, COLUMNS="200",
                   RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER="0", **extra)
        return env

    def stop(self) -> None:
        """SIGTERM to the group (as `ray stop` does), a short grace, then SIGKILL to whatever is
        left; the cluster's state is thrown away anyway."""
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=3)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=5)
        deadline = time.monotonic() + 10
        while group_alive(self.process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        shutil.rmtree(self.temp, ignore_errors=True)


def group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    head = Cluster(tmp_path_factory.mktemp("ray-home"))
    yield head
    head.stop()
    assert not group_alive(head.process.pid)


# Deterministic but slow enough (a search agent) that a driver can be killed midway.
GAMES, SEED, AGENTS = 40, 3, "ismcts@10,random"


def simulate_command(cluster: Cluster, out: Path) -> list[str]:
    return [sys.executable, "-m", "matanui.cli", "simulate", "reconstruct", "--games", str(GAMES),
            "--seed", str(SEED), "--agents", AGENTS, "--chunk", "2", "--backend", "ray",
            "--address", f"127.0.0.1:{cluster.port}", "--out", str(out)]


def stored(path: Path) -> int:
    try:
        with sqlite3.connect(path) as db:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_a_study_on_a_separate_cluster_survives_its_driver_and_matches_the_process_pool(cluster, tmp_path):
    out = tmp_path / "study.sqlite"
    env = cluster.env(RAY_AUTH_TOKEN=cluster.token)
    driver = subprocess.Popen(simulate_command(cluster, out), env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while stored(out) == 0 and driver.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    driver.kill()  # kill -9 of the driver, mid-study
    driver.wait()
    kept = stored(out)
    assert 0 < kept < GAMES

    again = subprocess.run(simulate_command(cluster, out), env=env, capture_output=True, text=True,
                           timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"Played {GAMES - kept} games" in again.stdout

    pool = tmp_path / "pool.sqlite"
    job = Job.build("reconstruct", AGENTS.split(","), GAMES, seed=SEED)
    simulate(job, str(pool), LocalBackend(2))
    with ResultStore(out) as a, ResultStore(pool) as b:
        assert list(a.rows()) == list(b.rows())


@pytest.mark.parametrize("token, says", [
    (None, "it asks for a token and this driver has none; set RAY_AUTH_TOKEN"),
    ("not-the-token", "it refused this driver's token; set RAY_AUTH_TOKEN"),
])
def test_a_driver_without_the_clusters_token_is_told_what_to_set(cluster, tmp_path, token, says):
    env = cluster.env(RAY_gcs_server_port_wait_time_s="2", **({"RAY_AUTH_TOKEN": token} if token else {}))
    result = subprocess.run(simulate_command(cluster, tmp_path / "x.sqlite"), env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    output = result.stdout + result.stderr
    assert f"error: cannot reach the Ray cluster at 127.0.0.1:{cluster.port}: {says}" in output
    assert "Traceback" not in output and "gcs_client" not in output


def test_an_address_where_no_cluster_listens_is_refused_at_once(tmp_path):
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "matanui.cli", "simulate", "reconstruct", "--games", "4", "--backend", "ray",
         "--address", f"127.0.0.1:{free_port()}", "--out", str(tmp_path / "x.sqlite")],
        env={**os.environ, "PYTHONPATH": SRC, "COLUMNS": "200"}, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and time.monotonic() - started < 30
    assert "nothing answers at 127.0.0.1:" in result.stdout and "ray start --head" in result.stdout
