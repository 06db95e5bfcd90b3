"""The `matanui` command, driven as a person would: typed answers, bad input, Ctrl-C."""

import json

import pytest
from typer.testing import CliRunner

from matanui import __version__
from matanui.cli import app

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def said(result) -> str:
    """The output as one line (the console wraps at 80 columns)."""
    return " ".join(result.output.split())


def test_version_works_alone():
    result = run("--version")
    assert result.exit_code == 0
    assert result.output.strip() == f"matanui {__version__}"


def test_games_lists_every_game():
    result = run("games")
    assert result.exit_code == 0
    assert "reconstruct" in result.output and "Toa Nuva Reconstruct" in result.output


def test_play_against_a_bot_to_the_end_with_typed_numbers(tmp_path):
    save = tmp_path / "game.json"
    result = run("play", "reconstruct", "--as", "tahu", "--vs", "heuristic", "--seed", "7",
                 "--save", str(save), input="1\n" * 400)
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    record = json.loads(save.read_text())
    assert record["game"] == "reconstruct" and record["players"][0] == "tahu"


def play_reconstruct(tmp_path, input):
    return run("play", "reconstruct", "--as", "tahu", "--seed", "7", "--save",
               str(tmp_path / "g.json"), input=input)


def test_bad_input_is_answered_and_asked_again(tmp_path):
    result = play_reconstruct(tmp_path, "99\nbanana\n?\nq\n")
    assert result.exit_code == 0
    assert "There is no action 99" in result.output
    assert "'banana' is not legal for Tahu Nuva now" in said(result)
    assert "Type the number of an action" in result.output


def test_a_typed_illegal_id_gets_the_engines_reason(tmp_path):
    result = play_reconstruct(tmp_path, "add:1:tool\nq\n")
    assert "card #1 is not in Tahu Nuva's hand" in said(result)


@pytest.mark.parametrize(
    ("typed", "answer"),
    [
        ("\u00b2", "'²' is not legal for Tahu Nuva now"),  # isdigit() but not int()
        ("", "Type a number from 1 to"),
        ("9" * 10_000, "That answer is 10,000 characters long"),
        ("a" * 10_000, "That answer is 10,000 characters long"),
        ("\x1b[2J\x07", "That answer holds control characters"),
        ("1\x1b[A", "That answer holds control characters"),
    ],
    ids=["superscript-two", "empty", "long-number", "long-word", "escape-codes", "arrow-key"],
)
def test_any_typed_line_gets_a_short_answer_and_the_question_again(tmp_path, typed, answer):
    result = play_reconstruct(tmp_path, f"{typed}\nq\n")
    assert result.exception is None, result.exception
    assert answer in said(result)
    assert "\x1b" not in result.output and "\x07" not in result.output
    assert len(result.output) < 3000  # no 10,000 characters echoed back
    assert "Game saved" in result.output


def test_bytes_that_are_not_text_are_answered_too(tmp_path):
    result = runner.invoke(app, ["play", "reconstruct", "--as", "tahu", "--seed", "7", "--save",
                                 str(tmp_path / "g.json")], input=b"\xff\xfe\nq\n")
    assert result.exception is None, result.exception
    assert "is not legal for Tahu Nuva now" in said(result)


def test_quitting_saves_and_resume_continues(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "tahu", "--seed", "3", "--save", str(save), input="1\n1\nq\n")
    moves = len(json.loads(save.read_text())["actions"])
    assert moves >= 2
    result = run("play", "--resume", str(save), input="1\nq\n")
    assert result.exit_code == 0
    assert len(json.loads(save.read_text())["actions"]) > moves


def test_end_of_input_saves_instead_of_crashing(tmp_path):
    save = tmp_path / "g.json"
    result = run("play", "reconstruct", "--as", "tahu", "--save", str(save), input="")
    assert result.exit_code == 0 and "Game saved" in result.output and save.exists()


def test_end_of_input_mid_game_saves_every_move_made(tmp_path):
    save = tmp_path / "g.json"
    result = run("play", "reconstruct", "--as", "tahu", "--seed", "3", "--save", str(save),
                 input="1\n1\n")
    assert result.exit_code == 0 and "Game saved" in result.output
    assert len(json.loads(save.read_text())["actions"]) >= 2


def test_resume_of_a_hotseat_game_stays_hotseat_and_the_hint_is_the_whole_command(tmp_path):
    save = tmp_path / "g.json"
    first = run("play", "reconstruct", "--as", "tahu", "--seed", "3", "--hotseat", "--save", str(save),
                input="\n1\nq\n")
    assert f"Resume with: matanui play --resume {save}" in said(first)
    assert json.loads(save.read_text())["terminal"] == {"seats": ["person", "person"]}
    resumed = run("play", "--resume", str(save), input="\nq\n")
    assert resumed.exit_code == 0, resumed.output
    assert "your turn: press Enter (others look away)" in resumed.output
    assert json.loads(save.read_text())["terminal"] == {"seats": ["person", "person"]}


def test_resume_keeps_the_bots_it_was_played_against(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "tahu", "--seed", "3", "--vs", "random", "--save", str(save),
        input="q\n")
    run("play", "--resume", str(save), input="q\n")
    assert json.loads(save.read_text())["terminal"] == {"seats": ["person", "random"]}


def test_resume_refuses_flags_that_would_set_up_another_game(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "tahu", "--seed", "3", "--save", str(save), input="q\n")
    result = run("play", "--resume", str(save), "--seed", "4", "--as", "gali")
    assert result.exit_code == 2
    assert "leave out --as, --seed" in said(result)


def test_a_new_game_never_overwrites_a_saved_one(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "tahu", "--seed", "3", "--save", str(save), input="1\nq\n")
    before = save.read_text()
    result = run("play", "reconstruct", "--seed", "4", "--save", str(save), input="q\n")
    assert result.exit_code == 2
    assert f"{save} already exists" in said(result)
    assert save.read_text() == before


def test_hotseat_asks_each_player_in_turn(tmp_path):
    result = run("play", "reconstruct", "--as", "tahu", "--hotseat", "--save",
                 str(tmp_path / "g.json"), input="\n1\n\n1\nq\n")
    assert "Tahu Nuva, your turn" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "chess"], "no game named 'chess'"),
        (["play", "reconstruct", "--as", "bob"], "'bob' is not a character of reconstruct"),
        (["play", "reconstruct", "--vs", "genius"], "no agent named 'genius'"),
        (["play", "reconstruct", "-o", "advanced"], "must look like key=value"),
        (["play", "reconstruct", "-o", "speed=9"], "reconstruct has no option 'speed'"),
        (["play", "reconstruct", "-o", "advanced=9"], "advanced must be true or false"),
        (["play", "reconstruct", "--players", "3"], "reconstruct is for exactly 2 players, not 3"),
        (["play", "masks", "--players", "3"], "masks is for exactly 2 players, not 3"),
        (["play", "makuta", "--players", "7"], "makuta is for 2 to 6 players, not 7"),
        (["play", "masks", "--vs", "hard,easy", "--players", "2"],
         "--vs names 2 bot levels (hard, easy) for 1 bot seat"),
        (["play", "makuta", "--vs", "hard,easy,easy", "--players", "3"],
         "--vs names 3 bot levels (hard, easy, easy) for 2 bot seats"),
        (["play", "--resume", "/nonexistent.json"], "cannot read record"),
        (["bench", "chess"], "no game named 'chess'"),
    ],
)
def test_bad_options_get_a_clear_error_and_exit_status_2(args, message):
    result = run(*args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_replay_prints_a_whole_saved_game(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save), input="1\n" * 400)
    result = run("replay", str(save), "--all")
    assert result.exit_code == 0
    assert "Gali Nuva and " in result.output and "each build their Toa Nuva" in result.output


def test_replay_steps_forwards_and_back(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save), input="1\n1\nq\n")
    result = run("replay", str(save), input="\n\nb\nq\n")
    assert result.exit_code == 0
    assert "after action 0" in result.output and "after action 2" in result.output
    assert result.output.count("after action 1 ") == 2


def test_replay_takes_any_answer_and_end_of_input(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save), input="1\n1\nq\n")
    result = run("replay", str(save), input="\u00b2\n" + "9" * 10_000 + "\nbanana\n1\n")
    assert result.exit_code == 0 and result.exception is None
    assert "² is not an answer here" in said(result)
    assert "That answer is 10,000 characters long" in said(result)
    assert "after action 1 " in result.output


def test_replay_jumps_only_to_numbers_in_ascii_digits(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save), input="1\n1\nq\n")
    result = run("replay", str(save), input="\u0661\nq\n")
    assert result.exit_code == 0 and "after action 1 " not in result.output
    assert "'\u0661' is not a number here: type numbers with the digits 0 to 9" in said(result)


def test_enter_at_the_last_step_of_a_replay_says_it_is_the_end_and_how_to_leave(tmp_path):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save), input="1\n1\nq\n")
    total = len(json.loads(save.read_text())["actions"])
    result = run("replay", str(save), input=f"{total}\n\nb\nq\n")
    assert result.exit_code == 0
    assert (f"This is the end of the replay (action {total} of {total}): type q to leave, b to go "
            "back one action, or a number from 0 to") in said(result)
    assert f"after action {total - 1} of {total}" in result.output  # b still worked after it


def test_bench_reports_steps_per_second():
    result = run("bench", "reconstruct", "--seconds", "0.2")
    assert result.exit_code == 0
    assert "steps/s" in result.output


# -- what a file says is shown, never obeyed: control characters escaped, markup literal ----

HOSTILE = "Ana\x1b[2J\u202e[bold]x"  # clears the screen, reverses the line, starts bold
SHOWN = "Ana\\x1b[2J\\u202e[bold]x"


def raw_controls(text: str) -> list[str]:
    return [c for c in text if c in "\x1b\x07\r\x9b\u202e"]


def hostile_save(tmp_path):
    from matanui import games

    state = games.get("reconstruct").new_game(4, ["tahu", "gali"], names=[HOSTILE, None])
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    path = tmp_path / "hostile.json"
    state.record().save(path)
    return path


def test_replay_shows_a_records_names_literally_and_never_sends_their_control_characters(tmp_path):
    result = run("replay", str(hostile_save(tmp_path)), "--all")
    assert result.exit_code == 0, result.output
    assert raw_controls(result.output) == [] and SHOWN in result.output


def test_resuming_a_save_shows_its_names_literally(tmp_path):
    result = run("play", "--resume", str(hostile_save(tmp_path)), input="q\n")
    assert result.exit_code == 0, result.output
    assert raw_controls(result.output) == [] and SHOWN in result.output


def test_an_error_quoting_a_record_field_escapes_its_control_characters(tmp_path):
    record = json.loads(hostile_save(tmp_path).read_text())
    record["data"] = {"name": "\x1b]0;owned\x07pack", "hash": "feed"}
    (tmp_path / "pack.json").write_text(json.dumps(record))
    result = run("replay", str(tmp_path / "pack.json"), "--all")
    assert result.exit_code == 2 and raw_controls(result.output) == []
    assert 'data pack "\\x1b]0;owned\\x07pack" (hash feed)' in said(result)


def test_data_check_prints_a_packs_name_literally(tmp_path):
    from tests.test_packs import pack

    folder = pack(tmp_path / "pk", "reconstruct")
    meta = folder / "pack.toml"
    meta.write_text(meta.read_text().replace('"my cards"', '"[bold]my[/] cards"'))
    result = run("data", "check", str(folder))
    assert result.exit_code == 0 and 'data pack "[bold]my[/] cards" for reconstruct is good' in said(result)


@pytest.mark.parametrize(("data", "words"), [
    (b"[" * 100_000 + b"]" * 100_000, "nests lists and objects more than 32 deep"),
    ('{"a": 1}'.encode("utf-16"), "starts with a UTF-16 byte-order mark"),
])
def test_replay_of_an_unreadable_record_is_one_error_line_not_a_traceback(tmp_path, data, words):
    (tmp_path / "bad.json").write_bytes(data)
    result = run("replay", str(tmp_path / "bad.json"))
    assert result.exit_code == 2 and words in said(result) and result.exception.__class__ is SystemExit


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-16", "latin-1"])
@pytest.mark.parametrize("command", [["replay"], ["replay", "--all"], ["play", "--resume"]])
def test_a_save_that_is_not_utf8_is_one_line_naming_the_file_not_a_traceback(tmp_path, encoding,
                                                                              command):
    save = tmp_path / "g.json"
    run("play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save), input="1\nq\n")
    save.write_bytes(save.read_text().replace("gali", "gäli").encode(encoding))
    result = run(*command, str(save), input="q\n")
    assert result.exit_code == 2 and result.exception.__class__ is SystemExit
    assert said(result).startswith(f"error: record {save} is not UTF-8 text")
    assert said(result).endswith("it must be a UTF-8 JSON game record")
    assert "Traceback" not in result.output


def test_a_pack_that_cannot_be_played_is_refused_in_one_line_before_any_seed(tmp_path):
    pack = tmp_path / "pack"
    assert runner.invoke(app, ["data", "export", "masks", str(pack)]).exit_code == 0
    (pack / "pack.toml").write_bytes(b"\xff\xfe not utf-8")
    result = runner.invoke(app, ["play", "masks", "--data", str(pack)])
    assert result.exit_code == 2 and "Seed" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("args", [
    ["play", "masks", "--seed", "\u0661"],  # ARABIC-INDIC DIGIT ONE, which int() reads as 1
    ["tutorial", "masks", "\uff11"],  # FULLWIDTH DIGIT ONE
    ["simulate", "reconstruct", "--games", "\u0663"],
    ["data", "balance", ".", "--seed", "\u0661"],
])
def test_numbers_on_the_command_line_are_only_the_digits_0_to_9(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    said = " ".join(result.output.replace("│", " ").split())
    assert "is not a number: write it with the digits 0 to 9" in said
    assert "Traceback" not in said
