"""`matanui serve`: run the web service with uvicorn and say where it is."""

from __future__ import annotations

import fcntl
import ipaddress
from dataclasses import fields, replace
from pathlib import Path
from typing import IO

import uvicorn
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from matanui import games
from matanui.engine import MatanuiError
from matanui.engine.untrusted import printable
from matanui.games import packs

from .app import create_app
from .protocol import MAX_MESSAGE_BYTES
from .quotas import Limits
from .redact import redacted, scrubbed
from .rooms import RESPONSE_WINDOW
from .security import DEFAULT_ALLOWED_HOSTS
from .storage import Storage


def parse_limits(settings: list[str]) -> Limits:
    """`--limit NAME=VALUE` settings over the defaults of quotas.Limits."""
    defaults = Limits()
    names = ", ".join(f"{field.name} ({getattr(defaults, field.name)})" for field in fields(Limits))
    values: dict[str, int | float] = {}
    for setting in settings:
        name, _, value = setting.partition("=")
        kind = type(getattr(defaults, name, None))
        if kind not in (int, float):
            raise MatanuiError(f"--limit {setting!r}: no limit named {name!r}; the limits (and "
                               f"their defaults) are: {names}")
        try:
            values[name] = kind(value)
        except ValueError:
            raise MatanuiError(f"--limit {setting!r}: {name} must be a "
                               f"{'whole number' if kind is int else 'number of seconds'}") from None
        if values[name] <= 0:
            raise MatanuiError(f"--limit {setting!r}: a limit must be more than 0")
    return replace(defaults, **values)


def check_proxies(proxies: tuple[str, ...]) -> None:
    """Each --trusted-proxy is an address or a network (10.0.0.0/8), never a name: the peer a
    request comes from is an address."""
    for proxy in proxies:
        try:
            if "/" in proxy:
                ipaddress.ip_network(proxy)
            else:
                ipaddress.ip_address(proxy)
        except ValueError:
            raise MatanuiError(f"--trusted-proxy {proxy[:100]!r} is not an address or a network; give "
                               "the address your reverse proxy connects from, such as 127.0.0.1, "
                               "::1 or 10.0.0.0/8") from None


def hold_sqlite_file(database: str) -> IO[bytes] | None:
    """One server per SQLite file: the file is locked for as long as this process serves it
    (an flock, which is independent of SQLite's own fcntl locks), and a second `matanui serve`
    on it is refused. Two processes would each keep their own copy of every game in memory and
    never hear of the other's actions. PostgreSQL serves any number of instances."""
    url = make_url(database)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    path = Path(url.database).resolve()
    handle = path.open("a+b")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise MatanuiError(f"another `matanui serve` is already serving {path}: an SQLite file serves "
                           "one server process. Stop that one, give this one another --database, or run "
                           "several servers on one PostgreSQL (docs/deploy.md)") from None
    return handle


def serve(host: str, port: int, database: str, bot_workers: int, bot_pace: float,
          limits: list[str] | None = None, allowed_hosts: tuple[str, ...] = (),
          data_dir: str | None = None, response_window: float = RESPONSE_WINDOW,
          trusted_proxies: tuple[str, ...] = ()) -> None:
    settings = parse_limits(limits or [])
    check_proxies(trusted_proxies)
    if bot_workers < 1:
        raise MatanuiError("--bot-workers must be at least 1")
    if bot_pace < 0:
        raise MatanuiError("--bot-pace must be 0 or more seconds")
    if not 0 <= response_window <= 60:
        raise MatanuiError("--response-window must be 0 to 60 seconds")
    if not 0 < port < 65536:
        raise MatanuiError("--port must be 1 to 65535")
    try:
        make_url(database)
    except (ArgumentError, ValueError):  # ValueError: a port that is not a number
        raise MatanuiError(f"--database {redacted(database)!r} is not a database URL; use "
                           "sqlite:///FILE or postgresql+psycopg://USER:PASSWORD@HOST/DB") from None
    try:
        Storage(database).close()  # creates the tables; fails early and clearly if unreachable
    except (SQLAlchemyError, ImportError) as exc:
        raise MatanuiError(f"cannot open the database {redacted(database)!r}: "
                           f"{scrubbed(str(exc), database)}") from None
    held = hold_sqlite_file(database)
    for name in allowed_hosts:
        if not name or any(c in name for c in " /@,"):
            raise MatanuiError(f"--allowed-host {name!r} is not a host name; give a name such as "
                               "games.example.org, an address, or * for any (not advised)")
    hosts = allowed_hosts or DEFAULT_ALLOWED_HOSTS
    if data_dir is not None and not Path(data_dir).is_dir():
        raise MatanuiError(f"--data-dir {data_dir!r} is not a folder; give a folder whose "
                           "subfolders are data packs (`matanui data export`)")
    app = create_app(database, bot_workers=bot_workers, bot_pace=bot_pace, response_window=response_window,
                     limits=settings, allowed_hosts=hosts, data_dir=data_dir,
                     trusted_proxies=trusted_proxies)
    for name in games.names():
        for game in packs.library(name):
            print(f'offering data pack "{printable(game.data["name"])}" for {name} (hash '
                  f'{game.data["hash"]})', flush=True)
    print(f"matanui is serving at http://{printable(host)}:{port}/  (database: {redacted(database)}; "
          "Ctrl-C stops it)", flush=True)
    # Frames above twice the protocol's limit are cut by uvicorn before the app reads them;
    # smaller oversized ones get the protocol's clear error. uvicorn's own reading of
    # X-Forwarded-For (which believes 127.0.0.1) is off: the app believes only --trusted-proxy.
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=2 * MAX_MESSAGE_BYTES,
                    proxy_headers=False)
    finally:
        if held is not None:
            held.close()
