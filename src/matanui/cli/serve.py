"""`matanui serve`: the web service."""

from __future__ import annotations

from pathlib import Path

import typer

from matanui.cli.numbers import integer
from matanui.cli.shared import fail
from matanui.engine import MatanuiError


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", parser=integer, help="Port to listen on."),
    database: str = typer.Option("sqlite:///matanui.db", "--database", help="SQLAlchemy URL: "
                                 "sqlite:///FILE or postgresql+psycopg://USER:PASSWORD@HOST/DB."),
    bot_workers: int = typer.Option(1, "--bot-workers", parser=integer,
                                    help="Processes that run the bots."),
    bot_pace: float = typer.Option(0.6, "--bot-pace", help="Least seconds between a bot's move "
                                   "and the action before it, so people can follow."),
    response_window: float = typer.Option(8.0, "--response-window", help="Seconds a person's "
                                          "response window (Reconstruct: a stop card?) stays open "
                                          "from the moment their page drew it, the same whether or "
                                          "not they could answer."),
    allowed_host: list[str] = typer.Option(
        [], "--allowed-host", help="A Host name the server answers to (repeat for several); "
        "default: localhost, 127.0.0.1 and [::1]. Others are refused, against DNS rebinding."),
    limit: list[str] = typer.Option([], "--limit", help="NAME=VALUE: change one of the limits "
                                    "of docs/protocol.md, e.g. games_per_minute=20 (repeatable)."),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="A folder of data packs (one "
                                         "per subfolder): each good one is offered in the lobby "
                                         "for its game."),
    trusted_proxy: list[str] = typer.Option(
        [], "--trusted-proxy", help="The address (or network) of a reverse proxy in front of the "
        "server (repeat for several): its X-Forwarded-For names the client. From anyone else "
        "the header is ignored; default: none."),
) -> None:
    """Run the web service: play every game in the browser, against people and bots."""
    from matanui.server.serve import serve as run_server

    try:
        run_server(host, port, database, bot_workers, bot_pace, limit, tuple(allowed_host),
                   None if data_dir is None else str(data_dir), response_window, tuple(trusted_proxy))
    except MatanuiError as error:
        fail(error)
