"""`--backend ray` on a local Ray with 2 CPUs gives the same games as the local backend."""

import pytest

from matanui.arena.backends import LocalBackend, RayBackend
from matanui.arena.batch import simulate
from matanui.arena.results import ResultStore
from matanui.arena.simulate import Job

ray = pytest.importorskip("ray", reason="the Ray backend needs the 'cluster' extra: "
                          "pip install 'matanui[cluster]'")


def test_a_local_ray_cluster_gives_the_same_results_as_one_process(tmp_path):
    job = Job.build("reconstruct", ["random", "heuristic"], 300, seed=11)
    played = simulate(job, str(tmp_path / "ray.sqlite"), RayBackend(None, 2), chunk=25)
    simulate(job, str(tmp_path / "local.sqlite"), LocalBackend(1))
    assert played == 300
    assert not ray.is_initialized()  # the local cluster it started is shut down
    with ResultStore(tmp_path / "ray.sqlite") as a, ResultStore(tmp_path / "local.sqlite") as b:
        assert list(a.rows()) == list(b.rows())
