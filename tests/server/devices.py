"""A browser of the accounts tests: its own session cookie and CSRF token over a shared
TestClient (whose own cookie jar is kept empty, so that two "devices" never mix)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient

from matanui.server import accounts

PASSWORD = "correct horse battery"
# Cheap parameters: the tests hash often on a slow machine (production keeps the defaults).
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(accounts, "HASHER", CHEAP)


class Device:
    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.cookie: str | None = None
        self.csrf: str | None = None

    def headers(self, csrf: bool = True) -> dict[str, str]:
        headers = {}
        if self.cookie:
            headers["cookie"] = f"{accounts.COOKIE}={self.cookie}"
        if csrf and self.csrf:
            headers["x-csrf-token"] = self.csrf
        return headers

    def call(self, method: str, url: str, csrf: bool = True, headers: dict[str, str] | None = None,
             **kwargs: Any) -> Any:
        self.client.cookies.clear()
        answer = self.client.request(method, url, headers={**self.headers(csrf), **(headers or {})}, **kwargs)
        self.client.cookies.clear()
        for line in answer.headers.get_list("set-cookie"):
            found = re.match(rf"{accounts.COOKIE}=([^;]*)", line)
            if found:
                self.cookie = found.group(1).strip('"') or None
        if answer.headers.get("content-type", "").startswith("application/json") and answer.is_success:
            body = answer.json()
            if isinstance(body, dict) and "csrf" in body:
                self.csrf = body["csrf"]
        return answer

    def sign_up(self, name: str, password: str = PASSWORD) -> Any:
        answer = self.call("POST", "/api/account", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        return answer

    def sign_in(self, name: str, password: str = PASSWORD) -> Any:
        return self.call("POST", "/api/session", json={"name": name, "password": password})

    def who(self) -> str | None:
        return self.call("GET", "/api/session").json()["account"]

    def socket(self, game_id: str) -> Any:
        self.client.cookies.clear()
        return self.client.websocket_connect(f"/ws/games/{game_id}", headers=self.headers(csrf=False))
