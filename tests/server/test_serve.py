"""`matanui serve` refuses bad settings, and a second server on one SQLite file, with a clear
error before starting anything."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from matanui.cli import app

from .process import free_port, start_server


@pytest.mark.parametrize(("args", "words"), [
    (["--database", "nonsense"], "is not a database URL"),
    (["--database", "postgresql+psycopg://x:y@127.0.0.1:1/db"], "cannot open the database"),
    (["--bot-workers", "0"], "--bot-workers must be at least 1"),
    (["--bot-pace", "-1"], "--bot-pace must be 0 or more"),
    (["--port", "70000"], "--port must be 1 to 65535"),
    (["--limit", "speed=1"], "no limit named 'speed'; the limits (and their defaults) are: games_per_minute"),
    (["--limit", "open_games=many"], "open_games must be a whole number"),
    (["--limit", "open_games=0"], "a limit must be more than 0"),
])
def test_bad_settings_are_refused(args, words):
    result = CliRunner().invoke(app, ["serve", *args])
    assert result.exit_code == 2 and words in " ".join(result.output.split())


def test_a_second_server_on_the_same_sqlite_file_is_refused(tmp_path):
    database = f"sqlite:///{tmp_path / 'games.db'}"
    first = start_server(database, free_port())
    try:
        second = subprocess.run([sys.executable, "-m", "matanui.cli", "serve", "--port", str(free_port()),
                                 "--database", database], capture_output=True, text=True, timeout=60)
        assert second.returncode == 2
        assert ("another `matanui serve` is already serving" in " ".join(second.stdout.split())
                and "run several servers on one PostgreSQL" in " ".join(second.stdout.split()))
        assert first.poll() is None  # the first one serves on
    finally:
        first.terminate()
        first.wait(timeout=30)
    third = start_server(database, free_port())  # once it has stopped, the file is free again
    third.terminate()
    third.wait(timeout=30)


PASSWORD = "s3cr3t-pw"


@pytest.mark.parametrize("database", [
    f"postgresql+psycopg://matanui:{PASSWORD}@127.0.0.1:1/games",  # nothing listens on port 1
    f"postgresql+psycopg://matanui:{PASSWORD}@127.0.0.1:notaport/games",
    f"postgresql+psycopg://matanui@127.0.0.1:1/games?password={PASSWORD}",
    f"postgresql+psycopg://matanui:{PASSWORD[:4]}@{PASSWORD[4:]}@127.0.0.1:1/games",  # an unencoded @
    f"matanui:{PASSWORD}@127.0.0.1",  # no scheme: not a URL, still a password
])
def test_a_database_that_cannot_be_opened_is_named_without_its_password(database):
    result = subprocess.run([sys.executable, "-m", "matanui.cli", "serve", "--port", str(free_port()),
                             "--database", database], capture_output=True, text=True, timeout=60)
    said = " ".join((result.stdout + result.stderr).split())
    assert result.returncode == 2 and "Traceback" not in said, said
    assert PASSWORD not in said and PASSWORD[4:] not in said and "***" in said and "matanui" in said, said


def test_the_start_up_banner_names_the_database_without_its_password(monkeypatch, capsys):
    from matanui.server import serve as serving

    class NoStorage:
        def __init__(self, url):
            pass

        def close(self):
            pass

    monkeypatch.setattr(serving, "Storage", NoStorage)
    monkeypatch.setattr(serving, "create_app", lambda *args, **kwargs: object())
    monkeypatch.setattr(serving.uvicorn, "run", lambda *args, **kwargs: None)
    serving.serve("127.0.0.1", 8000, f"postgresql+psycopg://matanui:{PASSWORD}@db.example.org/games", 1, 0.0)
    banner = capsys.readouterr().out
    assert "(database: postgresql+psycopg://matanui:***@db.example.org/games;" in banner
    assert PASSWORD not in banner


def test_redacted_hides_every_password_a_database_url_may_carry():
    from matanui.server.redact import redacted, scrubbed

    assert redacted("sqlite:///games.db") == "sqlite:///games.db"
    assert redacted(f"postgresql+psycopg://u:{PASSWORD}@h/db?password={PASSWORD}&sslmode=require") == \
        "postgresql+psycopg://u:***@h/db?password=***&sslmode=require"
    assert redacted(f"nonsense://u:{PASSWORD}@h:port/db") == "nonsense://u:***@h:port/db"
    assert redacted(f"u:{PASSWORD}@h") == "u:***@h"
    assert redacted(f"postgresql://u:pa@{PASSWORD}@h/db?sslpassword=x") == "postgresql://u:***@h/db?sslpassword=***"
    split = f"postgresql://u:pa@{PASSWORD}@h/db"
    assert PASSWORD not in scrubbed(f'failed to resolve host "{PASSWORD}@h"', split)
    url = f"postgresql+psycopg://u:{PASSWORD}@h/db"
    assert scrubbed(f"connection to h failed (password {PASSWORD!r})", url) == \
        "connection to h failed (password '***')"
