"""`play`, `tutorial` and `replay` take the full screen only when stdin and stdout are
terminals and --plain is not given; the tests (no TTY) get the line mode."""

from __future__ import annotations

import io

import pytest

from matanui.cli import app
from matanui.cli.shared import full_screen


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


@pytest.mark.parametrize("piped", ["stdin", "stdout"])
def test_without_a_terminal_the_line_mode_is_kept(monkeypatch, piped):
    monkeypatch.setattr("sys.stdin", Terminal())
    monkeypatch.setattr("sys.stdout", Terminal())
    monkeypatch.setattr(f"sys.{piped}", Pipe())
    assert not full_screen(plain=False)


@pytest.mark.parametrize("plain", [False, True])
def test_on_a_terminal_the_full_screen_is_used_unless_plain(monkeypatch, plain):
    monkeypatch.setattr("sys.stdin", Terminal())
    monkeypatch.setattr("sys.stdout", Terminal())
    assert full_screen(plain=plain) is not plain


@pytest.mark.parametrize("command", ["play", "tutorial", "replay"])
def test_each_command_offers_plain(command):
    from typer.testing import CliRunner

    result = CliRunner().invoke(app, [command, "--help"])
    assert "--plain" in result.output
