"""`matanui bench` measures every game, at its fewest and most players, and says on what."""

from typer.testing import CliRunner

from matanui import games
from matanui.cli import app
from matanui.studies.bench import configurations, machine_details, run_playouts


def test_every_game_is_measured_at_its_fewest_and_its_most_players():
    chosen = configurations()
    for name in games.names():
        game = games.get(name)
        assert (name, game.min_players) in chosen and (name, game.max_players) in chosen
    assert all(n == 4 for _, n in configurations(4))


def test_machine_details_name_the_processor_cores_memory_and_python():
    details = machine_details()
    assert set(details) == {"cpu", "cores", "memory", "python", "system", "matanui"}
    assert "usable" in details["cores"] and details["python"]


def test_a_playout_batch_counts_games_and_steps():
    result = run_playouts("reconstruct", max_games=5)
    assert result.games == 5 and result.steps > 5 and result.steps_per_second > 0


def test_bench_refuses_a_player_count_no_chosen_game_allows():
    result = CliRunner().invoke(app, ["bench", "reconstruct", "--players", "4"])
    assert result.exit_code == 2
    assert "none of reconstruct is played by 4 players" in result.output
