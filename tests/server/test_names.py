"""A display name is shown to every player, so it is text a person sees: no character that
acts on a screen or vanishes (a control such as ESC or the C1 CSI, a bidirectional override,
a zero-width space, a line separator: engine/untrusted.py's `hidden`). The service refuses
them wherever a name is given, saying which and what is allowed, and its OpenAPI document's
pattern refuses exactly the same characters, no more and no fewer."""

from __future__ import annotations

import itertools
import re
import sys

import jsonschema_rs
import pytest

from matanui.engine.untrusted import hidden, hidden_ranges
from matanui.server.protocol import SetName

from .helpers import create
from .test_limits import refused

# A C1 control (CSI, which starts an escape sequence), the right-to-left override, a
# zero-width space, the line separator, a Unicode tag (invisible, above the BMP) and ESC.
HIDDEN_NAMES = {"a\u009bb": r"\x9b", "\u202eevil": r"\u202e", "a\u200bb": r"\u200b",
                "a\u2028b": r"\u2028", "a\U000e0041b": r"\U000e0041", "\x1b[31mKai": r"\x1b"}
PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]


def said_about(answer, escape: str) -> None:
    """A 422 that names the hidden character by its escape and says what a name may be."""
    message = refused(answer, 422, "bad_request")
    assert escape in message and "at most 24 characters" in message, message
    assert not any(hidden(char) for char in message), message  # the message itself is safe to show


@pytest.mark.parametrize("name", HIDDEN_NAMES)
def test_a_new_games_seat_name_with_a_hidden_character_is_refused_naming_it(client, name):
    answer = client.post("/api/games", json={"game": "reconstruct", "seats": [
        {"kind": "human", "name": name}, {"kind": "bot"}]})
    said_about(answer, HIDDEN_NAMES[name])


@pytest.mark.parametrize("name", HIDDEN_NAMES)
def test_a_joiners_or_a_seat_holders_name_with_a_hidden_character_is_refused(client, name):
    game = create(client, seats=[PEOPLE[0], {"kind": "open"}])
    said_about(client.post(f"/api/games/{game['id']}/join", json={"name": name}), HIDDEN_NAMES[name])
    token = game["seats"][0]["token"]
    said_about(client.post(f"/api/games/{game['id']}/name", json={"token": token, "name": name}),
               HIDDEN_NAMES[name])
    seats = client.get(f"/api/games/{game['id']}").json()["seats"]
    assert [(seat["kind"], seat["name"]) for seat in seats] == [("human", None), ("open", None)]


def test_names_of_any_script_with_marks_spaces_and_emoji_are_kept(client):
    game = create(client, seats=PEOPLE)
    token = game["seats"][0]["token"]
    for name in ("Ōkami Kai", "Мата Нуи", "タフ", "ملك", "Zoë 🌋", "a\u0301b"):
        answer = client.post(f"/api/games/{game['id']}/name", json={"token": token, "name": name})
        assert answer.status_code == 200 and answer.json()["name"] == name, answer.text


def name_pattern() -> str:
    return SetName.model_json_schema()["properties"]["name"]["anyOf"][0]["pattern"]


def every_character() -> str:
    """Every Unicode scalar value (the surrogates are not characters a JSON string holds)."""
    return "".join(chr(code) for code in range(sys.maxunicode + 1) if not 0xD800 <= code <= 0xDFFF)


def test_the_documents_name_pattern_refuses_exactly_the_hidden_characters():
    pattern = name_pattern()
    refusing = re.fullmatch(r"\^\[\^(.+)\]\*\$", pattern).group(1)  # ^[^...]*$: the class refused
    everything = every_character()
    refused_by_python = re.sub(f"[^{refusing}]", "", everything)
    assert refused_by_python == "".join(char for char in everything if hidden(char))
    # The validator schemathesis checks answers with (Rust's regex engine) reads it alike.
    validator = jsonschema_rs.Draft202012Validator({"pattern": pattern})
    assert validator.is_valid("".join(char for char in everything if not hidden(char)))
    assert not any(validator.is_valid(char) for char in refused_by_python)


def test_the_hidden_ranges_are_this_pythons_unicode_database_merged_into_runs():
    ranges = hidden_ranges()
    assert ranges[:2] == ((0x00, 0x1F), (0x7F, 0x9F)) and (0xD800, 0xDFFF) in ranges
    assert all(last + 1 < first for (_, last), (first, _) in itertools.pairwise(ranges))  # merged
    assert sum(last - first + 1 for first, last in ranges) == sum(
        hidden(chr(code)) for code in range(sys.maxunicode + 1))
