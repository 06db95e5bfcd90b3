"""`matanui tutorial GAME [N]` in the terminal, as a learner types it, and `--check`."""

import shutil

from typer.testing import CliRunner

from matanui.cli import app
from matanui.games import tutorial as tutorial_module
from matanui.games.tutorial import tutorial

runner = CliRunner()


def said(result) -> str:
    return " ".join(result.output.split())


def learners_moves(game: str, number: int) -> list[str]:
    lesson = tutorial(game, number)
    walk, _ = tutorial_module.Walk.to(lesson, 0)
    moves = []
    while not walk.finished:
        moves.append(walk.next_step.action)
        walk.attempt(walk.next_step.action)
    return moves


def test_a_learner_plays_the_makuta_tutorial_to_the_printed_sum():
    moves = learners_moves("makuta", 1)
    answers = [moves[0], "move:S", *moves[1:]]  # the second answer is not the tutorial's move
    result = runner.invoke(app, ["tutorial", "makuta"], input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    text = said(result)
    assert "Step 1 of 22 (MAKUTA-ROLL-MOVE)" in text
    assert ("Move south to the space at 0,2 with a face-down Rahi (0 steps left) is legal, but not this "
            "tutorial's move. This step is to move north to the space at 0,-2 with a face-down Kanohi "
            "token (0 steps left).") in text
    assert "Lewa moves one space east: pawns move across or up and down" in text  # a scripted move, explained
    assert "Tahu's total: 4 + 25 = 29 against the Rahi's 18." in text
    assert "✓ The Rahi Muaka (18) is out of the game" in text
    assert "the rulebook’s own sum" in text


def test_moves_are_chosen_by_number_and_nonsense_is_answered():
    result = runner.invoke(app, ["tutorial", "masks", "2"], input="9\n?\n1\n4\nq\n")
    text = said(result)
    assert result.exit_code == 0
    assert "Also: 1. Theme Deck One: Pohatu and Gali; 3. Theme Deck Three: Onua and Lewa" in text
    assert "9 is not one of the moves: type 1 to 4." in text
    assert "Type the number of a move (or its id)." in text
    assert "Move north to the blank space at F2 is legal, but not this tutorial's move." in text
    assert "Tahu moves the Tahu Mask one space to the West." in text  # 4: West, as the demo says
    assert "Kopaka moves the Kopaka Mask one space to the East." in text
    assert "Left the tutorial. Start it again with: matanui tutorial masks 2" in text


def test_check_walks_every_tutorial_of_a_game():
    result = runner.invoke(app, ["tutorial", "masks", "--check"])
    assert result.exit_code == 0
    assert said(result).count("20 steps, 6 printed outcomes reached") == 3


def test_check_fails_when_a_step_no_longer_matches_the_engine(tmp_path, monkeypatch):
    source = tutorial_module.folder("reconstruct") / "1-first-game.toml"
    broken = tmp_path / "1-first-game.toml"
    shutil.copy(source, broken)
    broken.write_text(broken.read_text(encoding="utf-8").replace('"add:9:head"', '"add:9:tool"', 1),
                      encoding="utf-8")
    monkeypatch.setattr(tutorial_module, "folder", lambda game: tmp_path)
    result = runner.invoke(app, ["tutorial", "reconstruct", "1", "--check"])
    assert result.exit_code == 1
    assert "step 7: 'add:9:tool' is not legal in the engine now" in said(result)


def test_an_unknown_tutorial_says_which_there_are():
    result = runner.invoke(app, ["tutorial", "makuta", "2"])
    assert result.exit_code == 2
    assert "makuta has no tutorial 2; its tutorials are 1 to 1" in said(result)


def test_a_tutorial_reads_only_ascii_digits_as_move_numbers():
    result = runner.invoke(app, ["tutorial", "masks", "2"], input="\u0661\nq\n")
    assert result.exit_code == 0
    assert "'\u0661' is not a number here: type numbers with the digits 0 to 9" in said(result)
    assert "is legal, but not this tutorial's move" not in said(result)
