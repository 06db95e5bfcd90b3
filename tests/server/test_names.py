"""A display name is shown to every player, so it is text a person sees: no character that
acts on a screen or vanishes (a control such as ESC or the C1 CSI, a bidirectional override,
a zero-width space, a line separator: engine/untrusted.py's `hidden`). The service refuses
them wherever a name is given, saying which and what is allowed, and its OpenAPI document's
pattern refuses exactly the same characters, no more and no fewer."""

from __future__ import annotations

import itertools
import re
import sys
import unicodedata

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from matanui.engine.untrusted import hidden, hidden_ranges
from matanui.server.app import create_app
from matanui.server.names import MARKS, display_name_allowed, display_name_problem, invisible, skeleton
from matanui.server.protocol import SetName
from matanui.server.users import users_table

from .devices import PASSWORD, Device, cheap_hashes  # noqa: F401  (the fixture)
from .helpers import TEST_HOSTS, create
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


def test_the_documents_name_pattern_allows_exactly_the_characters_the_service_allows():
    """One character: the pattern and the service agree on every code point (none hidden, none
    invisible, none PRECIS's Nickname refuses); the Rust validator reads the pattern alike."""
    compiled = re.compile(name_pattern())
    everything = every_character()
    by_pattern = "".join(char for char in everything if compiled.fullmatch(char))
    by_service = "".join(char for char in everything
                         if display_name_allowed(char) and unicodedata.category(char) not in MARKS)
    assert by_pattern == by_service
    assert not any(hidden(char) or invisible(char) for char in by_pattern)
    validator = jsonschema_rs.Draft202012Validator({"pattern": name_pattern()})
    assert validator.is_valid(by_pattern[:5000] + by_pattern[-5000:])
    assert not any(validator.is_valid(char) for char in "\x1b\u202e\u034f\u3164\u2800\ufe0f\u00b7")


@pytest.mark.parametrize("name", ["Tahu", "a\u0301b", "e\u0323\u0302t", "a\u0301\u0301\u0301",
                                  "\u0301ab", "Zoë 🌋", "Tahu\u034f", "\u2800\u2800"])
def test_the_documents_name_pattern_and_the_service_agree_on_marks(name):
    assert bool(re.fullmatch(name_pattern(), name)) == (display_name_problem(name, "") is None)


def test_the_hidden_ranges_are_this_pythons_unicode_database_merged_into_runs():
    ranges = hidden_ranges()
    assert ranges[:2] == ((0x00, 0x1F), (0x7F, 0x9F)) and (0xD800, 0xDFFF) in ranges
    assert all(last + 1 < first for (_, last), (first, _) in itertools.pairwise(ranges))  # merged
    assert sum(last - first + 1 for first, last in ranges) == sum(
        hidden(chr(code)) for code in range(sys.maxunicode + 1))


# -- names.py: what shows as nothing, or as another account -------------------------------
# Each attack string, and what its refusal must say (its code point, or what is wrong).
INVISIBLE_NAMES = {
    "\u3164\u3164\u3164": "shows as nothing",  # HANGUL FILLER, a letter that draws nothing
    "\u2800\u2800\u2800": "shows as nothing",  # BRAILLE PATTERN BLANK, a symbol that draws nothing
    "\u115fTahu": "U+115F",  # HANGUL CHOSEONG FILLER before a name
    "Tahu\u034f": "U+034F",  # COMBINING GRAPHEME JOINER: "Tahu" to the eye
    "Ta\u0301\u0301\u0301hu": "at most 2",  # a stack of combining marks
    "\u0301Tahu": "no character to sit on",  # a mark on no character
}


def sign_up(client, name: str):
    return Device(client).call("POST", "/api/account", json={"name": name, "password": PASSWORD})


_suffixes = iter("abcdefghjkmnpqrstuvwxyz")  # no i, l or o: no suffix looks like another


@pytest.fixture
def suffix() -> str:
    """The tests share one service, whose accounts stay: each test's names end its own way."""
    return f"_{next(_suffixes)}"


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_a_user_name_that_shows_as_nothing_or_stacks_marks_is_refused_saying_why(client, name, suffix):
    message = refused(sign_up(client, name + suffix), 422, "bad_request")
    assert INVISIBLE_NAMES[name] in message and "3 to 24 characters" in message, message
    visible = "".join(char for char in name if char.isascii())
    if len(visible) >= 3:  # nothing was taken by the refused one
        assert sign_up(client, visible + suffix).status_code == 201


@pytest.mark.parametrize("name", INVISIBLE_NAMES)
def test_a_display_name_that_shows_as_nothing_or_stacks_marks_is_refused_saying_why(client, name):
    game = create(client, seats=PEOPLE)
    token = game["seats"][0]["token"]
    message = refused(client.post(f"/api/games/{game['id']}/name", json={"token": token, "name": name}),
                      422, "bad_request")
    assert INVISIBLE_NAMES[name] in message and "at most 24 characters" in message, message
    assert client.get(f"/api/games/{game['id']}").json()["seats"][0]["name"] is None  # unchanged


@pytest.mark.parametrize(("existing", "lookalike"), [
    ("tahu", "Tahu"), ("TAHU", "Tahu"), ("Tahu", "tAhU"),  # the same whatever the case
    ("Lewa", "Iewa"), ("Nuju1", "NujuI"), ("Pohatu", "P0hatu"),  # I, l and 1; 0 and O
])
def test_a_user_name_that_looks_like_an_existing_one_is_refused_naming_it(client, existing, lookalike,
                                                                          suffix):
    assert sign_up(client, existing + suffix).status_code == 201
    message = refused(sign_up(client, lookalike + suffix), 409, "name_taken")
    if existing.casefold() == lookalike.casefold():
        assert "whatever the case" in message, message
    else:
        assert f"looks like the account {existing + suffix}'s" in message, message


def test_a_cyrillic_letter_in_place_of_a_latin_one_is_refused_naming_it(client, suffix):
    assert sign_up(client, "Tahu" + suffix).status_code == 201
    message = refused(sign_up(client, "T\u0430hu" + suffix), 422, "bad_request")
    assert "U+0430 CYRILLIC SMALL LETTER A" in message and "a-z" in message, message
    # and were user names ever widened past ASCII, the skeleton would still catch it
    assert skeleton("T\u0430hu") == skeleton("Tahu") == skeleton("TAHU")


def test_names_unlike_any_other_are_accepted(client, suffix):
    for name in ("Tahu", "Tahu-Nuva", "Gali-2", "Onua", "Lewa", "Kopaka"):
        assert sign_up(client, name + suffix).status_code == 201, name


def test_an_older_databases_accounts_get_their_skeletons_at_start(tmp_path):
    database = f"sqlite:///{tmp_path / 'old.db'}"
    with TestClient(create_app(database, allowed_hosts=TEST_HOSTS)) as first:
        assert sign_up(first, "Lewa").status_code == 201
        with first.app.state.lobby.backends.storage.engine.begin() as db:
            db.execute(update(users_table).values(name_skeleton=None))  # as an older version left it
    with TestClient(create_app(database, allowed_hosts=TEST_HOSTS)) as second:
        refused(sign_up(second, "Iewa"), 409, "name_taken")


@pytest.mark.parametrize("name", ["Тоа", "タフ", "Мата Нуи", "Việt", "タフ・ヌヴァ", "Zoë 🌋"])
def test_display_names_of_any_script_are_accepted(client, name):
    game = create(client, seats=PEOPLE)
    token = game["seats"][0]["token"]
    answer = client.post(f"/api/games/{game['id']}/name", json={"token": token, "name": name})
    assert answer.status_code == 200 and answer.json()["name"] == name, answer.text


@pytest.mark.parametrize("text", ["\u3164", "\u2800\u2800 \u2800", "\u115f\u1160", "\ufe0f"])
def test_a_chat_line_of_only_invisible_characters_is_refused_as_blank(client, text):
    game = create(client, seats=PEOPLE)
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
        ws.send_json({"type": "chat", "text": text})
        while (message := ws.receive_json())["type"] not in ("chat", "error"):
            pass
        assert message["code"] == "blank_chat" and "shows as nothing" in message["message"], message
        ws.send_json({"type": "chat", "text": "\u3164kia ora"})  # something to read: kept
        while (message := ws.receive_json())["type"] not in ("chat", "error"):
            pass
        assert message["type"] == "chat", message


def test_an_empty_user_name_is_refused_saying_what_is_allowed(client):
    assert "3 to 24 characters" in refused(sign_up(client, ""), 422, "bad_request")


def test_a_display_name_that_looks_like_an_account_is_refused_but_to_its_holder(client, suffix):
    """Nobody plays as "Pohatu" beside the account Pohatu but Pohatu, signed in."""
    holder = Device(client)
    holder.sign_up("Pohatu" + suffix)
    game = create(client, seats=PEOPLE)
    token = game["seats"][0]["token"]
    for name in ("pohatu" + suffix, "P0hatu" + suffix):
        message = refused(client.post(f"/api/games/{game['id']}/name", json={"token": token, "name": name}),
                          409, "name_taken")
        assert f"looks like the account Pohatu{suffix}'s name" in message, message
    assert client.get(f"/api/games/{game['id']}").json()["seats"][0]["name"] is None  # unchanged
    mine = holder.call("POST", "/api/games", json={"game": "reconstruct", "seats": PEOPLE,
                                                   "pace": {"kind": "untimed"}})
    made = mine.json()
    answer = holder.call("POST", f"/api/games/{made['id']}/name",
                         json={"token": made["seats"][0]["token"], "name": "pohatu" + suffix})
    assert answer.status_code == 200, answer.text
