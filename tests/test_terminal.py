"""The terminal loop, driven with scripted answers: it never loses a game, and in hot-seat
the screen keeps each seat's secrets."""

import json
import os
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console

from matanui import games
from matanui.ai import make_agent
from matanui.engine import Record, replay
from matanui.engine.files import write_atomically
from matanui.terminal.game import PERSON, Seat, TerminalGame
from matanui.terminal.session import build_session

RECONSTRUCT = games.get("reconstruct")
CLEAR = "\x1b[2J"
SRC = str(Path(__file__).resolve().parents[1] / "src")


class Table:
    """The people at the terminal: they give the scripted answers in order, then end the
    input (Ctrl-D). Each prompt is kept with what the screen showed since the prompt before."""

    def __init__(self, answers: list[str], out: StringIO):
        self.answers = list(answers)
        self.out = out
        self.prompts: list[tuple[str, str]] = []
        self._mark = 0

    def __call__(self, prompt: str) -> str:
        text = self.out.getvalue()
        self.prompts.append((prompt, text[self._mark:]))
        self._mark = len(text)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def screen(terminal: bool = True) -> tuple[Console, StringIO]:
    out = StringIO()
    return Console(file=out, force_terminal=terminal, width=80, highlight=False), out


def hotseat_game(state, tmp_path, answers):
    console, out = screen()
    table = Table(answers, out)
    game = TerminalGame(state, [Seat(PERSON), Seat(PERSON)], tmp_path / "g.json", console, table)
    return game, table


# -- hot-seat -------------------------------------------------------------------------


@pytest.mark.parametrize("responder_hand", [[4, 5, 9], [4, 5, 8]], ids=["no-stop-card", "stop-card"])
def test_the_stop_window_is_always_handed_over_so_the_table_cannot_tell_who_holds_a_stop(
        tmp_path, responder_hand):
    # Player 1 holds add cards; Player 2 holds either no stop card or stop card #8.
    state = RECONSTRUCT.arrange(["tahu", "kopaka"], {}, hands=[[1, 2, 3], responder_hand],
                                first_player=0, draw_pile=[35, 36])
    # Player 1 takes the screen and plays a card (action 1: an add card); Player 2 takes it.
    game, table = hotseat_game(state, tmp_path, ["", "1", ""])
    game.run()
    prompts = [prompt for prompt, _ in table.prompts]
    assert prompts[0] == "Tahu Nuva, your turn: press Enter (others look away)"
    assert prompts[2] == "Kopaka Nuva, your turn: press Enter (others look away)"
    # Both ways Player 2 is handed the screen for the stop window, not after it.
    assert game.state.current_player == 1 and game.state.legal_actions()[0] == "allow"
    choose = {1: "type 1 for the only action", 2: "choose 1-2"}[len(game.state.legal_actions())]
    assert prompts[3] == f"Kopaka Nuva, {choose} (? for help)"


def test_every_handover_from_one_person_to_another_clears_the_screen_and_scrollback(tmp_path):
    state = RECONSTRUCT.arrange(["tahu", "kopaka"], {}, hands=[[1, 2, 3], [4, 5, 9]],
                                first_player=0, draw_pile=[35, 36])
    game, table = hotseat_game(state, tmp_path, ["", "1", "", "1", "1", "", "q"])
    game.run()
    first, *handovers = [shown for prompt, shown in table.prompts if "press Enter" in prompt]
    assert CLEAR not in first  # nothing secret shown yet: the set-up stays to be read
    assert "Tahu Nuva and Kopaka Nuva each build their Toa Nuva" in first
    assert len(handovers) == 2
    for shown in handovers:
        # Nothing of the last player's screen is left: the clear comes last, then the prompt.
        assert CLEAR in shown and "\x1b[3J" in shown
        assert "Your hand" not in shown.rpartition(CLEAR)[2]
    # Player 2 may only allow (no stop card), and is asked all the same, after the handover.
    assert [p for p, _ in table.prompts][3] == "Kopaka Nuva, type 1 for the only action (? for help)"


def test_with_one_action_every_answer_names_it_as_the_only_one_never_a_range_of_one(tmp_path):
    state = RECONSTRUCT.arrange(["tahu", "kopaka"], {}, hands=[[1, 2, 3], [4, 5, 9]],
                                first_player=0, draw_pile=[35, 36])
    game, table = hotseat_game(state, tmp_path, ["", "1", "", "", "2", "q"])
    game.run()
    shown = " ".join(SGR.sub("", "".join(text for _, text in table.prompts)).split())
    assert "Type 1 for the only action (? for help)." in shown
    assert "There is no action 2: type 1 for the only action." in shown
    assert "1 to 1" not in shown and "1-1" not in shown


@pytest.mark.parametrize("typed", ["١", "１", "१"], ids=["arabic-indic", "fullwidth",
                                                                     "devanagari"])
def test_only_ascii_digits_are_numbers_and_other_digits_are_told_what_to_type(tmp_path, typed):
    console, out = screen(terminal=False)
    state = RECONSTRUCT.new_game(2, ["tahu", "kopaka"])
    game = TerminalGame(state, [Seat(PERSON), Seat("random", make_agent("random", "reconstruct"))],
                        tmp_path / "g.json", console, Table([typed, "q"], out))
    game.run()
    assert game.state.record().actions == []  # U+0661 is not action 1
    assert f"'{typed}' is not a number here: type numbers with the digits 0 to 9" in out.getvalue()


def test_display_names_name_the_seats_in_prompts_the_table_and_narration(tmp_path):
    state = RECONSTRUCT.arrange(["tahu", "kopaka"], {}, hands=[[1, 2, 3], [4, 5, 9]],
                                first_player=0, draw_pile=[35, 36], names=["Ana [x]", None])
    game, table = hotseat_game(state, tmp_path, ["", "1", ""])
    game.run()
    prompts = [prompt for prompt, _ in table.prompts]
    assert prompts[0] == "Ana \\[x], your turn: press Enter (others look away)"  # markup escaped
    assert prompts[2] == "Kopaka Nuva, your turn: press Enter (others look away)"
    shown = re.sub(r"\x1b\[[0-9;]*m", "", table.prompts[0][1] + table.prompts[1][1])
    assert "Ana [x] (Tahu Nuva) and Kopaka Nuva each build their Toa Nuva" in shown
    assert "Ana [x] (you): Tahu Nuva" in shown and "Kopaka Nuva holds 3 cards" in shown


def test_after_a_handover_the_public_log_since_the_last_look_is_shown_again(tmp_path):
    state = RECONSTRUCT.arrange(["tahu", "kopaka"], {}, hands=[[1, 2, 3], [4, 5, 9]],
                                first_player=0, draw_pile=[35, 36])
    game, table = hotseat_game(state, tmp_path, ["", "1", ""])
    game.run()
    _, after_handover = table.prompts[3]
    assert "Since Kopaka Nuva last looked:" in after_handover
    assert "Tahu Nuva plays card #" in after_handover


# -- saving after every action ----------------------------------------------------------


class PowerCut(Exception):
    pass


def test_a_crash_mid_game_loses_nothing_but_the_answer_being_typed(tmp_path):
    save = tmp_path / "g.json"
    console, _ = screen(terminal=False)
    answered = 0

    def ask(prompt: str) -> str:
        nonlocal answered
        if answered == 6:
            raise PowerCut
        answered += 1
        return "1"

    game = build_session(game_name="reconstruct", me="tahu", vs="random", opponents=[], seed=11,
                         players=None, hotseat=False, options=[], save=save, resume=None,
                         console=console, ask=ask)
    with pytest.raises(PowerCut):
        game.run()
    played = game.state.record().actions
    assert len(played) >= 6  # six answers of Player 1, the bot's moves between them
    assert Record.load(save).actions == played


def test_the_save_is_a_plain_record_that_replays_with_the_seating_beside_it(tmp_path):
    save = tmp_path / "g.json"
    console, _ = screen(terminal=False)
    game = build_session(game_name="reconstruct", me="gali", vs="random", opponents=[], seed=5,
                         players=None, hotseat=False, options=[], save=save, resume=None,
                         console=console, ask=lambda prompt: "1")
    game.run()
    data = json.loads(save.read_text())
    assert data["terminal"] == {"seats": [PERSON, "random"]}
    assert replay(Record.load(save)).is_over


def test_an_atomic_write_that_fails_leaves_the_old_file_whole_and_no_temporary_file(
        tmp_path, monkeypatch):
    path = tmp_path / "g.json"
    path.write_text("the old game\n")

    def refuse(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        write_atomically(path, "the new game\n")
    assert path.read_text() == "the old game\n"
    assert list(tmp_path.iterdir()) == [path]


@pytest.mark.skipif(sys.platform == "win32", reason="file size limits are POSIX")
def test_a_disk_that_fills_up_mid_game_keeps_the_last_whole_save(tmp_path):
    save = tmp_path / "g.json"
    command = [sys.executable, "-m", "matanui.cli", "play", "reconstruct", "--as", "tahu",
               "--vs", "random", "--seed", "3", "--save", str(save)]
    env = {**os.environ, "PYTHONPATH": SRC, "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run(command, input="1\nq\n", text=True, env=env, check=True, capture_output=True)
    size = save.stat().st_size

    def small_disk() -> None:
        import resource
        import signal

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 40, size + 40))

    result = subprocess.run([*command[:4], "--resume", str(save)], input="1\n" * 20 + "q\n",
                            text=True, env=env, capture_output=True, preexec_fn=small_disk)
    record = Record.load(save)  # whole: the last save that fitted
    assert replay(record).record().actions == record.actions
    assert "Could not save the game" in result.stdout, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]


@pytest.mark.parametrize("game_name", ["reconstruct", "masks", "makuta"])
@pytest.mark.parametrize("seed", [1, 2])
def test_in_hotseat_every_decision_is_made_by_the_seat_holding_the_screen(tmp_path, game_name, seed):
    """Response windows, the player to the left choosing what another loses: whoever
    decides has been handed the screen, even when there is one thing to do."""
    game = games.get(game_name)
    state = game.new_game(seed, game.characters()[:game.max_players], {})
    console, _ = screen()
    holder = None
    prompts = 0

    def ask(prompt: str) -> str:
        nonlocal holder, prompts
        prompts += 1
        if prompts > 300:
            raise EOFError
        if "press Enter" in prompt:
            holder = state.names.index(prompt.partition(",")[0])
            return ""
        return "1"

    deciders: list[tuple[int, int | None]] = []
    apply = state.apply

    def watched_apply(action: str):
        deciders.append((state.current_player, holder))
        return apply(action)

    state.apply = watched_apply
    seats = [Seat(PERSON) for _ in state.players]
    TerminalGame(state, seats, tmp_path / "g.json", console, ask).run()
    assert len(deciders) > 50
    assert all(seat == holder for seat, holder in deciders)


# -- untrusted text is shown, never obeyed ------------------------------------------------

# What the console itself writes: colours, and the thinking spinner's cursor hiding, line
# erasing and returns.
SGR = re.compile(r"\x1b\[[0-9;?]*[mhlAK]|\r")


def test_display_names_with_control_characters_are_escaped_on_the_table(tmp_path):
    hostile = "Ana\x1b]0;owned\x07\u202e"
    state = RECONSTRUCT.new_game(2, ["tahu", "kopaka"], names=[hostile, None])
    console, out = screen()
    game = TerminalGame(state, [Seat(PERSON), Seat("random", make_agent("random", "reconstruct"))],
                        tmp_path / "g.json", console, Table(["1", "1", "q"], out))
    game.run()
    shown = SGR.sub("", out.getvalue())
    assert "\x1b" not in shown and "\x07" not in shown and "\u202e" not in shown
    assert "Ana\\x1b]0;owned\\x07\\u202e (you)" in shown


def test_a_packs_names_that_look_like_markup_are_printed_as_written(tmp_path):
    """Names from a pack that Rich would read as markup ('[/]' closes nothing) are drawn as
    written instead of stopping the game."""
    import tomli_w

    from matanui.games import packs
    from tests.test_packs import pack

    data = packs.builtin("masks", "toa.toml")
    masks = [{**mask, "name": f"[/]{mask['name']}[bold]"} for mask in data["mask"]]
    cards = [{**card, "name": "[/]Turaga[bold]"} for card in data["turaga_card"]]
    game = packs.load_game(pack(tmp_path / "pk", "masks",
                                toa=tomli_w.dumps({"mask": masks, "turaga_card": cards})))
    state = game.arrange(["tahu", "kopaka"], {}, first_player=0, won=[[42, 48, 43], []],
                         attached=[[42, 48], []])
    console, out = screen(terminal=False)
    TerminalGame(state, [Seat(PERSON), Seat(PERSON)], tmp_path / "g.json", console,
                 Table(["", "q"], out)).run()
    shown = " ".join(out.getvalue().split())
    assert "Attached Great Mask: Tahu - [/]Kanohi Kakama[bold] (#42" in shown
    assert "Attached Turaga: [/]Turaga[bold] (#48" in shown
    assert "Unattached: Tahu - [/]Kanohi Pakari[bold] (#43" in shown


# -- the line mode's screen: a bot is seen thinking, help and log give the board back --------


def against_a_bot(tmp_path, answers, console, out):
    state = RECONSTRUCT.arrange(["tahu", "kopaka"], {}, hands=[[1, 2, 3], [4, 5, 9]],
                                first_player=1, draw_pile=[35, 36])
    table = Table(answers, out)
    game = TerminalGame(state, [Seat(PERSON), Seat("random", make_agent("random", "reconstruct"))],
                        tmp_path / "g.json", console, table)
    game.run()
    return table


def test_on_a_terminal_a_bot_is_shown_thinking_before_it_moves(tmp_path):
    console, out = screen()
    against_a_bot(tmp_path, ["q"], console, out)
    before_its_move = SGR.sub("", out.getvalue()).partition("Kopaka Nuva plays")[0]
    assert "Kopaka Nuva (random) is thinking…" in before_its_move


def test_a_terminal_without_cursor_control_gets_one_plain_thinking_line(tmp_path):
    out = StringIO()
    console = Console(file=out, force_terminal=True, width=80, highlight=False, _environ={"TERM": "dumb"})
    against_a_bot(tmp_path, ["q"], console, out)
    assert "\nKopaka Nuva (random) is thinking…\n" in SGR.sub("", out.getvalue())


def test_output_that_is_not_a_terminal_has_no_thinking_line(tmp_path):
    console, out = screen(terminal=False)
    against_a_bot(tmp_path, ["q"], console, out)
    assert "thinking" not in out.getvalue() and "Kopaka Nuva plays" in out.getvalue()


@pytest.mark.parametrize("command", ["?", "l"])
def test_after_help_or_the_log_the_board_and_the_numbered_choices_are_drawn_again(tmp_path, command):
    console, out = screen(terminal=False)
    table = against_a_bot(tmp_path, [command, "q"], console, out)
    after = table.prompts[1][1]  # what the screen showed between the command and the next prompt
    last_board = after.rfind("╭")
    assert last_board > 0 and "Your hand" in after[last_board:]  # the board comes last...
    assert "\n   1. " in after[last_board:]  # ...with the choices under it
    if command == "?":
        assert after.index("Type the number of an action") < last_board
