"""The package as a user installs it: the built wheel in a fresh virtual environment (no
editable install, the checkout not on the path) holds every file the code opens beside itself,
serves the lobby with every script and stylesheet it links, How to play, the OpenAPI document
and a game against a bot over the WebSocket to its end, and plays in the terminal."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.server.process import free_port
from tests.server.wire import draw_window

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "src" / "matanui"
BUILT = (".py", ".pyc", ".nbi", ".nbc")  # sources, and caches written beside them at run time


def clean_env() -> dict[str, str]:
    """The environment of a user's shell: nothing that points at the checkout."""
    return {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--wheel-dir", str(out), str(REPO)], check=True, cwd=out, env=clean_env())
    return next(out.glob("matanui-*.whl"))


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin folder of a fresh virtual environment holding the wheel (and what it needs)."""
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=clean_env())
    subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(wheel)], check=True,
                   cwd=venv, env=clean_env())
    return venv / "bin"


def test_the_wheel_holds_every_file_the_package_opens_beside_its_code(wheel):
    held = set(zipfile.ZipFile(wheel).namelist())
    needed = {f"matanui/{path.relative_to(PACKAGE).as_posix()}" for path in PACKAGE.rglob("*")
              if path.is_file() and path.suffix not in BUILT and "__pycache__" not in path.parts}
    assert needed and not needed - held, sorted(needed - held)


def test_the_installed_package_is_not_the_checkout(installed, tmp_path):
    found = subprocess.run([str(installed / "python"), "-c", "import matanui; print(matanui.__file__)"],
                           check=True, capture_output=True, text=True, cwd=tmp_path, env=clean_env())
    assert "site-packages" in found.stdout and str(REPO) not in found.stdout
    version = subprocess.run([str(installed / "matanui"), "--version"], capture_output=True, text=True,
                             cwd=tmp_path, env=clean_env())
    assert version.returncode == 0 and re.search(r"\d+\.\d+", version.stdout), version


@pytest.fixture(scope="module")
def served(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("served")
    port = free_port()
    process = subprocess.Popen([str(installed / "matanui"), "serve", "--port", str(port), "--database",
                                f"sqlite:///{folder / 'matanui.db'}", "--bot-pace", "0",
                                "--response-window", "0.5",  # the script answers no stop card
                                "--limit", "messages_per_second=1000"],  # and moves at once
                               cwd=folder, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    server = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"{server}/api/catalog", timeout=2)
            break
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"the installed server did not start: {process.stdout.read().decode()[-2000:]}")
            time.sleep(0.3)
    yield server
    process.terminate()
    process.wait(timeout=20)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=20) as answer:
            return answer.status, answer.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""


def linked(page: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', page)


def test_the_installed_server_serves_its_pages_and_everything_they_link(served):
    pages = ["/", "/rules/reconstruct", "/rules/masks", "/rules/makuta", "/ratings/reconstruct"]
    assets: set[str] = set()
    for path in pages:
        status, page = get(served + path)
        assert status == 200, path
        assets |= set(linked(page))
    web = PACKAGE / "web"
    modules = {f"/static/{path.relative_to(web).as_posix()}" for path in web.rglob("*.js") if path.is_file()}
    assert linked(get(served + "/")[1]), "the lobby links no script or stylesheet"
    for asset in sorted(assets | modules):  # the page's own, and every module they import
        assert get(served + asset)[0] == 200, asset
    status, document = get(served + "/openapi.json")
    assert status == 200 and "/api/games" in json.loads(document)["paths"]


def call(server: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.load(answer)


@pytest.mark.parametrize("game", ["reconstruct", "masks", "makuta"])
def test_the_installed_server_plays_a_game_against_a_bot_to_its_end(served, game):
    created = call(served, "/api/games", {"game": game, "seats": [{"kind": "human"},
                                                                   {"kind": "bot", "level": "easy"}]})
    rng = random.Random(1)
    with connect(f"ws{served.removeprefix('http')}/ws/games/{created['id']}") as ws:
        ws.send(json.dumps({"type": "hello", "token": created["seats"][0]["token"]}))
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=60))
            assert message["type"] != "error", message
            if message["type"] not in ("welcome", "update"):
                continue
            if message["over"]:
                assert not message["aborted"]
                return
            draw_window(ws, message, 0)  # as a page does: the window is on the screen
            if message["legal"]:
                action = rng.choice(message["legal"])["id"]
                ws.send(json.dumps({"type": "act", "action": action, "at": message["at"]}))
    pytest.fail(f"the {game} game against a bot did not end in 240 s")


def test_the_installed_package_plays_in_the_terminal_and_teaches(installed, tmp_path):
    played = subprocess.run([str(installed / "matanui"), "play", "reconstruct", "--vs", "easy", "--seed", "3",
                             "--plain", "--save", str(tmp_path / "game.json")], input="1\n" * 3 + "q\n",
                            capture_output=True, text=True, cwd=tmp_path, env=clean_env(), timeout=120)
    assert played.returncode == 0, played.stderr[-2000:]
    assert json.loads((tmp_path / "game.json").read_text())["actions"]
    taught = subprocess.run([str(installed / "matanui"), "tutorial", "masks", "--check"], capture_output=True,
                            text=True, cwd=tmp_path, env=clean_env(), timeout=120)
    assert taught.returncode == 0 and "printed outcomes reached" in taught.stdout, taught.stdout[-2000:]
