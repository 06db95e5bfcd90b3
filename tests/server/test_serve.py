"""`matanui serve` refuses bad settings with a clear error before starting anything."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from matanui.cli import app


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
