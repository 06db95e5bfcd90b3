"""`matanui serve` as a real child process on a free loopback port, for tests that need a
real server (restarts, browsers)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(database: str, port: int, bot_pace: float = 0.0, limits: tuple[str, ...] = (
        "messages_per_second=10000", "games_per_minute=10000", "hellos_per_minute=10000",
        "accounts_per_hour=10000", "rated_one_address=1"),
        extra: tuple[str, ...] = (), command: str = "matanui.cli") -> subprocess.Popen:
    """Start the server and return once it answers (scripted clients act faster than people:
    the default `limits` lift the limits they would reach, and every account of theirs comes
    from 127.0.0.1, as a club's behind one address: they rate each other). `command` is the module run as
    the command line (tests.example_game.serve: one with the example game registered)."""
    process = subprocess.Popen(
        [sys.executable, "-m", command, "serve", "--port", str(port), "--database", database,
         "--bot-pace", str(bot_pace), "--response-window", "1.5", *(f"--limit={limit}" for limit in limits),
         *extra],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog", timeout=2)
            return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited: {process.stdout.read().decode()}") from None
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("the server did not answer within 60 s")
