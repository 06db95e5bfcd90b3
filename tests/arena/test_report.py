"""The balance figures: exact on hand-made games, and the HTML page and JSON agree."""

import json

import pytest
from typer.testing import CliRunner

from matanui.arena.analysis import analyse
from matanui.arena.backends import LocalBackend
from matanui.arena.batch import simulate
from matanui.arena.htmlreport import render_html, write_report
from matanui.arena.results import ResultStore
from matanui.arena.simulate import GameRow, Job, SimulationError
from matanui.cli import app

JOB = Job.build("reconstruct", ["random", "heuristic"], 4)
ROWS = [
    GameRow(0, 0, ("tahu", "kopaka"), ("random", "heuristic"), 0, (0,), 30, 15, {"card": 1}),
    GameRow(1, 1, ("kopaka", "tahu"), ("heuristic", "random"), 0, (0,), 40, 20, {"card": 1}),
    GameRow(2, 2, ("tahu", "kopaka"), ("random", "heuristic"), 1, (1,), 50, 25, {"card": 3}),
    GameRow(3, 3, ("kopaka", "tahu"), ("heuristic", "random"), 1, (), 60, 200, {}),
]


def test_win_rates_pairings_first_seat_lengths_and_deciders_are_exact():
    data = analyse(JOB, ROWS)
    chars = {c["character"]: c for c in data["characters"]}
    assert (chars["tahu"]["wins"], chars["tahu"]["games"]) == (1, 4)
    assert (chars["kopaka"]["wins"], chars["kopaka"]["games"]) == (2, 4)
    cells = {(c["row"], c["column"]): c for c in data["pairings"]["cells"]}
    assert cells[("kopaka", "tahu")]["score"] == 2.5  # two wins and half a draw
    assert data["first_seat"]["wins"] == 3 and data["first_seat"]["games"] == 4
    assert [s["wins"] for s in data["first_seat"]["by_seat"]] == [2, 1]
    assert [s["wins"] for s in data["first_seat"]["by_turn_order"]] == [3, 0]
    assert data["draws"] == {"games": 1, "rate": 0.25}
    assert data["length"]["turns"]["median"] == 22.5 and data["length"]["turns"]["max"] == 200
    assert sum(data["length"]["steps"]["histogram"]["counts"]) == 4
    assert data["deciders"]["won_games"] == 3
    assert data["deciders"]["kinds"]["card"][0] == {"value": "1", "games": 2, "share": 2 / 3}
    agents = {a["agent"]: a["wins"] for a in data["agents"]}
    assert agents == {"heuristic": 2, "random": 1}
    low, high = chars["kopaka"]["low"], chars["kopaka"]["high"]
    assert 0 < low < 0.5 < high < 1


def test_the_report_writes_html_with_plots_and_the_same_figures_as_json(tmp_path):
    path = tmp_path / "r.sqlite"
    simulate(Job.build("reconstruct", ["heuristic"], 60), str(path), LocalBackend(1))
    html_path = tmp_path / "out" / "report.html"
    paths = write_report(path, tmp_path / "out")
    assert html_path in paths
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    with ResultStore(path) as store:
        assert data == json.loads(json.dumps(analyse(store.job(), store.rows())))
    page = html_path.read_text()
    assert page.count("data:image/png;base64,") == 5  # characters, pairings, first seat, length, cards
    assert "Toa Nuva Reconstruct: balance report" in page


def test_a_report_of_nothing_is_refused(tmp_path):
    with pytest.raises(SimulationError, match="no results file"):
        write_report(tmp_path / "missing.sqlite", tmp_path / "out")
    with ResultStore(tmp_path / "empty.sqlite"):
        pass
    with pytest.raises(SimulationError, match="holds no simulation yet"):
        write_report(tmp_path / "empty.sqlite", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_the_commands_simulate_then_report(tmp_path):
    runner = CliRunner()
    results = tmp_path / "recon.sqlite"
    run = runner.invoke(app, ["simulate", "reconstruct", "--games", "40", "--agents", "heuristic",
                              "--workers", "2", "--out", str(results)])
    assert run.exit_code == 0, run.output
    assert "Played 40 games" in run.output
    again = runner.invoke(app, ["simulate", "reconstruct", "--games", "40", "--out", str(results)])
    assert "Played 0 games" in again.output
    shown = runner.invoke(app, ["report", str(results)])
    assert shown.exit_code == 0, shown.output
    assert (tmp_path / "recon-report" / "report.html").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["simulate", "reconstruct", "--backend", "spark"], "--backend must be local or ray"),
    (["simulate", "reconstruct", "--address", "auto"], "--address is for --backend ray"),
    (["simulate", "reconstruct", "--workers", "0"], "--workers must be a whole number >= 1"),
    (["simulate", "reconstruct", "-o", "advanced=maybe"], "advanced must be true or false"),
    (["report", "nowhere.sqlite"], "no results file at nowhere.sqlite"),
])
def test_bad_command_lines_get_a_clear_error(args, message, tmp_path):
    result = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "x.sqlite")] if args[0] == "simulate"
                                else args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "x.sqlite").exists()


def test_a_many_player_report_shows_turn_order_and_its_json_matches(tmp_path):
    job = Job.build("makuta", ["random"], 3, players=3)
    rows = [GameRow(i, i, ("tahu", "onua", "lewa"), ("random",) * 3, i % 3, ((i + 1) % 3,), 90, 30,
                    {"token": "turaga:nuju", "space": "0,5"}) for i in range(3)]
    data = analyse(job, rows)
    assert [p["wins"] for p in data["first_seat"]["by_turn_order"]] == [0, 3, 0]
    assert data["fair_rate"] == 1 / 3
    page = render_html(data)
    assert page.count("data:image/png;base64,") == 6  # characters, pairings, first seat, length, space, token
