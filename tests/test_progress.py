"""Long commands show progress that moves: per game (or iteration, or measurement), with the
time left, saying what a resumed run took from its journal; drawn on stderr only when it is a
terminal, and never changing a number."""

import io
import json
import re

import pytest
from rich.console import Console
from rich.progress import Progress
from typer.testing import CliRunner

from matanui import progress as progress_module
from matanui.arena.backends import LocalBackend
from matanui.arena.batch import simulate
from matanui.arena.results import ResultStore
from matanui.arena.simulate import Job
from matanui.cli import app
from matanui.progress import TimeLeft, progress

runner = CliRunner()
CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def screen(buffer: io.StringIO) -> str:
    """What a terminal was sent, without its cursor and colour codes."""
    return CONTROL.sub("", buffer.getvalue()).replace("\r", "\n")


@pytest.fixture
def terminal(monkeypatch):
    """stderr as a terminal of 120 columns: the bars are drawn into the returned buffer."""
    buffer = io.StringIO()
    monkeypatch.setattr(progress_module, "stderr_console",
                        lambda: Console(file=buffer, force_terminal=True, width=120, color_system=None))
    return buffer


def stored(path):
    with ResultStore(path, create=False) as store:
        return list(store.rows())


def without_times(journal):
    """A journal's games; thinking times differ from run to run."""
    return sorted((row["seed"], row["agents"], row["winners"], row["steps"])
                  for row in map(json.loads, journal.read_text().splitlines()))


# -- simulate ---------------------------------------------------------------------------


def test_a_simulation_in_one_process_reports_every_game_not_every_chunk(tmp_path):
    seen = []
    simulate(Job.build("reconstruct", ["random"], 30), str(tmp_path / "r.sqlite"), LocalBackend(1),
             chunk=200, on_progress=lambda done, total: seen.append((done, total)))
    assert seen == [(done, 30) for done in range(31)]


def test_a_pool_hands_out_pieces_smaller_than_a_chunk_and_reports_each(tmp_path):
    assert LocalBackend(2).piece(120, 200) == 1
    assert LocalBackend(2).piece(100_000, 200) == 200  # a big run: pieces stop at a chunk
    seen = []
    simulate(Job.build("reconstruct", ["random"], 40), str(tmp_path / "r.sqlite"), LocalBackend(2),
             chunk=200, on_progress=lambda done, total: seen.append(done))
    assert seen == list(range(41))


def test_an_interrupt_keeps_every_finished_game_not_only_whole_chunks(tmp_path):
    path = str(tmp_path / "r.sqlite")
    job = Job.build("reconstruct", ["random"], 100)

    def stop_after_25(done, total):
        if done == 25:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate(job, path, LocalBackend(1), chunk=200, on_progress=stop_after_25)
    assert [row.index for row in stored(path)] == list(range(25))


def test_a_resumed_simulation_says_how_many_games_came_from_its_file(tmp_path):
    results = tmp_path / "r.sqlite"
    first = runner.invoke(app, ["simulate", "reconstruct", "--games", "20", "--agents", "random",
                                "--out", str(results)])
    assert first.exit_code == 0, first.output
    assert "Resumed" not in first.output
    again = runner.invoke(app, ["simulate", "reconstruct", "--games", "30", "--agents", "random",
                                "--out", str(results)])
    assert again.exit_code == 0, again.output
    assert f"Resumed 20 of 30 games from {results}; playing the other 10." in " ".join(again.output.split())
    assert "Played 10 games" in again.output


def test_a_simulation_draws_its_bar_on_a_terminal_stderr_and_keeps_stdout_to_the_result(tmp_path, terminal):
    results = tmp_path / "r.sqlite"
    result = runner.invoke(app, ["simulate", "reconstruct", "--games", "30", "--agents", "random",
                                 "--out", str(results)])
    assert result.exit_code == 0, result.output
    drawn = screen(terminal)
    assert "reconstruct self-play" in drawn and "30/30 games" in drawn and "left" in drawn
    assert result.stdout.split() == (f"Played 30 games; {results} holds the results. Next: matanui "
                                     f"report {results}").split()


def test_piped_output_holds_no_bar(tmp_path):
    """CliRunner's stderr is no terminal: nothing of a bar anywhere, the result alone."""
    results = tmp_path / "r.sqlite"
    result = runner.invoke(app, ["simulate", "reconstruct", "--games", "30", "--agents", "random",
                                 "--out", str(results)])
    assert result.exit_code == 0
    assert "self-play" not in result.output and "━" not in result.output
    assert result.output.startswith("Played 30 games")


def test_the_simulated_games_are_the_same_with_the_bar_drawn_or_not(tmp_path, monkeypatch):
    command = ["simulate", "reconstruct", "--games", "40", "--agents", "random,heuristic", "--workers", "2"]
    assert runner.invoke(app, [*command, "--out", str(tmp_path / "plain.sqlite")]).exit_code == 0
    buffer = io.StringIO()
    monkeypatch.setattr(progress_module, "stderr_console",
                        lambda: Console(file=buffer, force_terminal=True, width=120))
    assert runner.invoke(app, [*command, "--out", str(tmp_path / "drawn.sqlite")]).exit_code == 0
    assert "40/40 games" in screen(buffer)
    assert stored(tmp_path / "drawn.sqlite") == stored(tmp_path / "plain.sqlite")


# -- arena ------------------------------------------------------------------------------


def arena(out, *extra):
    return runner.invoke(app, ["arena", "reconstruct", "--agents", "random,heuristic", "--games", "4",
                               "--out", str(out), *extra])


def test_a_resumed_arena_says_how_many_games_came_from_its_journal(tmp_path, terminal):
    assert arena(tmp_path).exit_code == 0
    journal = tmp_path / "reconstruct" / "games.jsonl"
    journal.write_text("\n".join(journal.read_text().splitlines()[:3]) + "\n")
    terminal.truncate(0)
    assert arena(tmp_path).exit_code == 0
    drawn = " ".join(screen(terminal).split())
    assert f"Resumed 3 of 4 games from {journal}; playing the other 1." in drawn
    assert "reconstruct arena" in drawn and "4/4 games" in drawn


def test_the_arena_results_are_the_same_with_the_bar_drawn_or_not(tmp_path, monkeypatch):
    assert arena(tmp_path / "plain").exit_code == 0
    buffer = io.StringIO()
    monkeypatch.setattr(progress_module, "stderr_console",
                        lambda: Console(file=buffer, force_terminal=True, width=120))
    assert arena(tmp_path / "drawn").exit_code == 0
    assert "4/4 games" in screen(buffer)
    plain, drawn = (tmp_path / name / "reconstruct" for name in ("plain", "drawn"))
    assert without_times(drawn / "games.jsonl") == without_times(plain / "games.jsonl")
    assert (json.loads((drawn / "arena.json").read_text())["win_rates"]
            == json.loads((plain / "arena.json").read_text())["win_rates"])


def test_a_resumed_sprt_says_how_many_games_came_from_its_journal(tmp_path, terminal):
    command = ["arena", "reconstruct", "--agents", "heuristic,random", "--sprt", "0,100", "--pairs",
               "--games", "6", "--out", str(tmp_path)]
    assert runner.invoke(app, command).exit_code == 0
    journal = tmp_path / "reconstruct" / "games.jsonl"
    kept = len(journal.read_text().splitlines())
    terminal.truncate(0)
    again = runner.invoke(app, command)
    assert again.exit_code == 0
    drawn = " ".join(screen(terminal).split())
    assert f"Resumed {kept} of 6 games from {journal}" in drawn
    assert "SPRT: score" in drawn and "LLR" in drawn


# -- bench and report -------------------------------------------------------------------


def test_bench_tells_each_measurement_as_it_finishes(terminal):
    result = runner.invoke(app, ["bench", "reconstruct", "--seconds", "0.05"])
    assert result.exit_code == 0, result.output
    drawn = " ".join(screen(terminal).split())
    assert re.search(r"reconstruct, 2 players: [\d,]+ steps/s, [\d,.]+ games/s", drawn)
    assert "1/1 measurements" in drawn
    assert "steps/s" in result.stdout and "cpu:" in result.stdout  # the table stays on stdout


def test_report_prints_its_headline_table_as_well_as_its_files(tmp_path):
    results = tmp_path / "r.sqlite"
    simulate(Job.build("reconstruct", ["random"], 12), str(results), LocalBackend(1))
    shown = runner.invoke(app, ["report", str(results), "--out", str(tmp_path / "out")])
    assert shown.exit_code == 0, shown.output
    said = " ".join(shown.output.split())
    data = json.loads((tmp_path / "out" / "report.json").read_text())
    first = data["first_seat"]
    assert "Toa Nuva Reconstruct: balance report" in said
    assert "games │ 12 of 12 planned" in said
    assert (f"first player wins │ {first['rate']:.3f} ({first['low']:.3f}-{first['high']:.3f}); "
            "fair 0.500") in said
    assert "Wrote" in said and "report.html" in said


# -- the helper -------------------------------------------------------------------------


def test_the_time_left_is_the_pace_of_this_run_not_counting_what_was_resumed():
    clock = [0.0]
    shown = Progress(TimeLeft(), get_time=lambda: clock[0], disable=True)
    task = shown.add_task("x", total=10, completed=4, resumed=4)
    assert TimeLeft().render(shown.tasks[task]).plain == "-:--:-- left"
    clock[0] = 10.0
    shown.advance(task, 2)  # two units in ten seconds: four more take twenty
    assert TimeLeft().render(shown.tasks[task]).plain == "0:00:20 left"


def test_a_units_count_and_a_resume_line_reach_a_terminal():
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=True, width=100, color_system=None)
    with progress("study", 5, unit="iterations", source="j.jsonl", console=console) as bar:
        bar.resume(2)
        bar.advance()
        bar.log("a line above the bar")
        assert bar.completed == 3
    drawn = screen(buffer)
    assert "Resumed 2 of 5 iterations from j.jsonl; playing the other 3." in drawn
    assert "a line above the bar" in drawn and "3/5 iterations" in drawn


def test_off_a_terminal_the_bar_counts_but_draws_nothing_and_lines_go_elsewhere():
    buffer, elsewhere = io.StringIO(), io.StringIO()
    with progress("study", 5, console=Console(file=buffer)) as bar:
        bar.advance(2)
        bar.log("kept", otherwise=Console(file=elsewhere))
        assert bar.completed == 2 and not bar.drawn
    assert buffer.getvalue() == "" and elsewhere.getvalue() == "kept\n"


def test_a_journal_path_is_named_as_it_is_not_read_as_markup_nor_folded():
    buffer = io.StringIO()
    source = "runs/[bold]x/" + "long-folder-name/" * 6 + "games.jsonl"
    with progress("study", 5, source=source, console=Console(file=buffer, width=40)) as bar:
        bar.resume(1)
    assert buffer.getvalue() == f"Resumed 1 of 5 games from {source}; playing the other 4.\n"
