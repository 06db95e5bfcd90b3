"""The messages the service accepts: HTTP request bodies and WebSocket messages, checked.

Every check that fails raises `Rejected` with a code and a sentence that says what was wrong
and what is allowed; the server sends it to the one connection that sent the message (or
answers the HTTP request with it) and changes nothing. docs/protocol.md documents all of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints
from pydantic_core import PydanticCustomError

from matanui import games
from matanui.engine.options import options_json_schema
from matanui.engine.untrusted import first_hidden, json_text_nests_deeper_than, printable

from .bots import BOT_LEVELS
from .names import MAX_MARKS, display_name_pattern, display_name_problem

MAX_MESSAGE_BYTES = 4096
MAX_MESSAGE_DEPTH = 4  # arrays and objects inside one another in a message (every message is flat)
MAX_TOKEN_CHARS = 128
MAX_ACTION_CHARS = 200
MAX_SEED = 2**53  # JavaScript's largest safe whole number: the browser may show it exactly
MAX_NAME_CHARS = 24  # a seat's display name: enough for a name, short enough for a seat list
MAX_SEATS = 8  # of a new game (every game has fewer): a seat number is below it


class Rejected(Exception):
    """A request or message refused; nothing changed. `code` is stable, `message` is for people."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def to_message(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message}


# -- HTTP bodies -----------------------------------------------------------------------


def _trimmed(name: str | None) -> str | None:
    """Spaces around a name are dropped; a blank name is no name."""
    return name.strip() or None if name is not None else None


NAME_WORDS = (f"plain text of at most {MAX_NAME_CHARS} characters that PRECIS's Nickname profile "
              "(RFC 8266) allows, letters of any script, spaces, symbols and emoji, with no hidden "
              "character (a control such as ESC or a newline, a format character such as a "
              "bidirectional override or a zero-width space, a line or paragraph separator), no "
              "character that shows as nothing (a default-ignorable one such as U+034F or a "
              "variation selector, a Hangul filler, U+2800 BRAILLE PATTERN BLANK), no middle dot, "
              f"at most {MAX_MARKS} combining marks on one character and none first; null or blank "
              "for none (the character's name is used)")


def _visible(name: str) -> str:
    """A name with no hidden character (engine/untrusted.py's one definition of them), then
    the rules of names.py (PRECIS Nickname, nothing invisible, no stack of marks), checked as
    given, before trimming, as the document's pattern checks it."""
    at = first_hidden(name)
    if at is not None:
        raise PydanticCustomError("hidden_character", "the name holds the hidden character {char} "
                                  "at character {at}; a display name is {allowed}",
                                  {"char": printable(name[at]), "at": at + 1, "allowed": NAME_WORDS})
    problem = display_name_problem(name, f"a display name is {NAME_WORDS}")
    if problem:
        raise PydanticCustomError("bad_name", "{problem}", {"problem": problem})
    return name


class _VisibleInTheDocument:
    """The document's half of `_visible`: its pattern, built when the document is (reading the
    Unicode database takes a second or so, which importing the server should not)."""

    def __get_pydantic_json_schema__(self, core_schema: Any, handler: Any) -> dict[str, Any]:
        schema = handler(core_schema)
        schema["pattern"] = display_name_pattern()
        return schema


# A person's display name, shown to everyone and used in the game's narration (NAME_WORDS);
# None or blank for none.
DisplayName = Annotated[
    Annotated[str, StringConstraints(max_length=MAX_NAME_CHARS), AfterValidator(_visible),
              _VisibleInTheDocument()] | None,
    AfterValidator(_trimmed)]


class ErrorBody(BaseModel):
    """What a refused request answers (nothing changed): a stable code and a sentence for people."""

    error: str = Field(description="A stable code, e.g. bad_token, bad_request, unknown_game.")
    message: str = Field(description="What was wrong and what is allowed.")


class SeatSpec(BaseModel):
    """One seat of a new game: who plays it and as whom. A "human" seat is given its secret
    token now (the creator's own seat, or an invite link) and is taken from that moment; an
    "open" seat has no token until someone in the lobby joins it; a "bot" plays at a level."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["human", "open", "bot"] = "human"
    level: Literal["easy", "medium", "hard"] = Field(
        "medium", description=f"The bot's level ({', '.join(BOT_LEVELS)}); ignored for people.")
    character: str | None = Field(
        None, max_length=64, description='The character (Toa) of this seat; omit (or "") to draw one.')
    name: DisplayName = Field(
        None, description=f"A display name for the person of this seat, shown to everyone and in "
                          f"the game's narration ({NAME_WORDS}).")


def _flag(name: str) -> dict[str, Any]:
    return {"required": [name], "properties": {name: {"const": True}}}


def _seats(rule: dict[str, Any]) -> dict[str, Any]:
    return {"properties": {"seats": rule}}


# JSON Schema of a person's seat (kind "human", or no kind) and of an open seat.
PERSON = {"not": {"required": ["kind"], "properties": {"kind": {"enum": ["open", "bot"]}}}}
OPEN = {"required": ["kind"], "properties": {"kind": {"const": "open"}}}
NO_OPEN_SEAT = _seats({"not": {"contains": OPEN}})
AT_MOST_ONE_PERSON = _seats({"contains": PERSON, "minContains": 0, "maxContains": 1})
SEEDED = {"required": ["seed"], "properties": {"seed": {"type": "integer"}}}
# The lobby's rules of a new game that look at more than one field (Lobby.create), so that a
# request the document calls valid is one the service takes.
SEAT_RULES = [
    {"if": _flag("hotseat"), "then": NO_OPEN_SEAT},  # a hot-seat game has no open seats
    {"if": _seats({"contains": OPEN}), "then": _seats({"contains": PERSON})},  # the creator's seat
    {"if": {"allOf": [_flag("hotseat"), _flag("public")]}, "then": AT_MOST_ONE_PERSON},
    # A chosen seed only where no seat is held by anyone but the creator (docs/protocol.md).
    {"if": SEEDED, "then": NO_OPEN_SEAT},
    {"if": {"allOf": [SEEDED, {"not": _flag("hotseat")}]}, "then": AT_MOST_ONE_PERSON},
]


def _one_game(name: str) -> dict[str, Any]:
    """What a new game of `name` allows: its number of seats, its characters (each at most
    once) and its options."""
    game = games.get(name)
    characters = game.characters()
    once = [{"contains": {"required": ["character"], "properties": {"character": {"const": c}}},
             "minContains": 0, "maxContains": 1} for c in characters]
    return {"title": f"a {name} game", "properties": {
        "game": {"const": name},
        "seats": {"minItems": game.min_players, "maxItems": game.max_players, "allOf": once,
                  # null or "": one is drawn from those left (Lobby._characters)
                  "items": {"properties": {"character": {"enum": [*characters, "", None]}}}},
        "options": {"title": f"{name} options", **options_json_schema(game.options_schema())}}}


def _whole_number(value: Any) -> Any:
    """JSON, and JSON Schema, make no difference between 5 and 5.0: a whole number written
    with a fraction is the integer it spells."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


# A whole number in a strict model (which refuses true for 1 and "5" for 5), 5.0 read as 5.
WholeNumber = Annotated[int, BeforeValidator(_whole_number)]


# A game's pace (docs/protocol.md, "Pace and clocks"): its bounds, in seconds. The least move
# time of a real-time game is the server's (Limits.least_move_seconds, REALTIME_LEAST_MOVE
# unless a test lowers it): the lobby checks it, and the OpenAPI document states it.
REALTIME_LEAST_MOVE = 10
REALTIME_MOST_MOVE = 3600
MOST_BANK = 3600
TURN_BASED_LEAST_MOVE = 3600
TURN_BASED_MOST_MOVE = 7 * 86400


class RealTime(BaseModel):
    """A clock per move, and a bank each seat draws on when a move takes longer."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["realtime"]
    # Its least is the server's (the lobby checks it, the document states it: clocks.py).
    move_seconds: WholeNumber = Field(120, le=REALTIME_MOST_MOVE, description=(
        f"Seconds for each move: {REALTIME_LEAST_MOVE} (10 s) to {REALTIME_MOST_MOVE} (1 h)."))
    bank_seconds: WholeNumber = Field(300, ge=0, le=MOST_BANK, description=(
        f"Each seat's bank, spent when a move takes longer: 0 to {MOST_BANK} (1 h)."))


class TurnBased(BaseModel):
    """A long clock per move (a day, say), no bank: play over days."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["turn_based"]
    move_seconds: WholeNumber = Field(86400, ge=TURN_BASED_LEAST_MOVE, le=TURN_BASED_MOST_MOVE, description=(
        f"Seconds for each move: {TURN_BASED_LEAST_MOVE} (1 h) to {TURN_BASED_MOST_MOVE} (7 days)."))


class Untimed(BaseModel):
    """No clock: the game waits for each player as long as it takes."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["untimed"]


Pace = Annotated[RealTime | TurnBased | Untimed, Field(discriminator="kind")]


def _whole_numbers(options: dict[str, Any]) -> dict[str, Any]:
    return {name: _whole_number(value) for name, value in options.items()}


def _rules_of_new_games(schema: dict[str, Any]) -> None:
    """CreateGame in the OpenAPI document: every rule the lobby checks, per game (built when
    the document is, not on import)."""
    schema["properties"]["game"]["enum"] = games.names()
    schema["anyOf"] = [_one_game(name) for name in games.names()]  # one game each: exclusive
    schema["allOf"] = SEAT_RULES


class CreateGame(BaseModel):
    """A new game: which game, its seats in order, its options."""

    # Strict: a value of another JSON type ("yes" for true, "5" for 5) is refused, as the
    # document says; only a whole number written with a fraction (5.0) is read as the integer.
    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra=_rules_of_new_games)

    game: str = Field(max_length=32, description="A game id from GET /api/catalog.")
    seats: list[SeatSpec] = Field(min_length=1, max_length=MAX_SEATS)
    options: Annotated[dict[str, Any], AfterValidator(_whole_numbers)] = Field(
        default_factory=dict,
        description="The game's printed variants, each left out taking its default: the options "
                    "of the game named by `game` (GET /api/catalog gives each with its values).")
    seed: Annotated[int | None, BeforeValidator(_whole_number)] = Field(None, ge=0, le=MAX_SEED, description=(
        "The deal, for games whose every seat is the creator's (alone against bots, hot-seat, "
        "bots only); refused where anyone else holds a seat (an invite or an open seat), whose "
        "deal the server draws and reveals only in the finished game's record. Omit for a "
        "fresh random seed."))
    data: str | None = Field(None, max_length=64, description=(
        "The hash of a data pack the server offers for this game (GET /api/catalog lists them "
        "under `packs`); omit for the built-in data."))
    hotseat: bool = Field(False, description="All people share one screen (one link for all).")
    hints: bool = Field(False, description=(
        "Hints for every seat, in a game with other people too: whoever takes a seat sees this "
        "before they join, so every person in it agrees. Games alone against bots and hot-seat "
        "games give hints anyway; a game with hints agreed is never rated."))
    rated: bool = Field(False, description=(
        "A rated game: its result changes its players' ratings if every seat is held by a "
        "signed-in account (each a different one) before the first action, and it is not "
        "aborted (docs/ratings.md, \"When a game counts\"). Chosen at creation only."))
    pace: Pace | None = Field(None, description=(
        "How long each move may take (docs/protocol.md, Pace and clocks). Omit for the default: "
        "untimed where every seat is the creator's (alone against bots, hot-seat, bots only), "
        "else real-time, 120 s a move and a 300 s bank."))
    public: bool = Field(False, description=(
        'Anyone in the lobby may take an "open" seat. A shorthand for clients that name no open '
        'seat: every "human" seat after the first (the creator\'s) is offered open.'))

    @property
    def shared(self) -> bool:
        """Whether anyone but the creator will hold a seat: an invite (a second "human" seat
        of a game that is not hot-seat) or an open seat (named, or made by `public`)."""
        people = sum(seat.kind == "human" for seat in self.seats)
        invites = people > 1 and (self.public or not self.hotseat)
        return invites or any(seat.kind == "open" for seat in self.seats)


class SeatToken(BaseModel):
    """A seat's secret token, proving the caller plays that seat."""

    model_config = ConfigDict(extra="forbid")

    token: str | None = Field(None, max_length=MAX_TOKEN_CHARS, description=(
        "The seat's secret token; without it, the seat the signed-in account holds"))


class JoinSeat(BaseModel):
    """Who takes an open seat (the body of a join is optional)."""

    model_config = ConfigDict(extra="forbid")

    name: DisplayName = Field(None, description=f"The joiner's display name ({NAME_WORDS}).")


class SetName(BaseModel):
    """A seat holder's display name, set or changed after they arrive (by invite link)."""

    model_config = ConfigDict(extra="forbid")

    token: str | None = Field(None, max_length=MAX_TOKEN_CHARS, description=(
        "The seat's secret token; without it, the seat the signed-in account holds."))
    name: DisplayName = Field(description=f"The seat's display name ({NAME_WORDS}).")


# -- WebSocket messages ----------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """The first message: a seat token to play a seat, `account` to play the seat the
    signed-in account holds (accounts.py), or neither to watch."""

    token: str | None
    account: bool = False


@dataclass(frozen=True)
class Act:
    """Take a legal action. `at`, when given, is the number of actions the client has seen:
    an action sent from an outdated view is refused instead of applied to a newer position."""

    action: str
    at: int | None


@dataclass(frozen=True)
class Drawn:
    """The page drew the response window at position `at` (the number of actions it has
    seen): the window's time counts from now (rooms.py, Room.drawn)."""

    at: int


@dataclass(frozen=True)
class History:
    """Ask for the part of the log before entry `before` (the welcome carries only the recent
    log: its `log_from` is the first `before` to ask for)."""

    before: int


@dataclass(frozen=True)
class Resign:
    """The connection's seat resigns (hot-seat: each seat has its own connection)."""


@dataclass(frozen=True)
class Abort:
    """The connection's seat aborts the game: allowed while some player has made fewer than
    two moves of their own (aborts.py); it ends unrated, with no result."""


@dataclass(frozen=True)
class HintRequest:
    """Ask what a strong player would do in this seat's place now (hints.py says where)."""


@dataclass(frozen=True)
class ClockChoice:
    """What the other players do with a seat whose clock ran out: "expel" (its game ends on
    time: the engine's timeout forfeit), "wait" for it, or "replace" (a bot takes the seat; in
    a game of three or more only)."""

    choice: Literal["expel", "wait", "replace"]
    seat: int


@dataclass(frozen=True)
class ChatMessage:
    """Say a line in the game's chat (chat.py checks its text and who may say it)."""

    text: str


@dataclass(frozen=True)
class PresenceMessage:
    """The page is visible, or hidden (presence.py)."""

    visible: bool


ClientMessage = (Hello | Act | Drawn | History | Resign | Abort | HintRequest | ClockChoice | ChatMessage
                 | PresenceMessage)


def _has_lone_surrogate(value: Any) -> bool:
    """Whether a decoded message holds text that is not Unicode: half of a surrogate pair,
    which JSON can write as an escape (\\ud800) and nothing can encode or print."""
    if isinstance(value, str):
        return any("\ud800" <= char <= "\udfff" for char in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def parse_message(raw: str | bytes | None) -> ClientMessage:
    """Check one WebSocket message from a client: its size and depth before decoding it, then
    its text and fields."""
    if not isinstance(raw, str):
        raise Rejected("bad_message", "send JSON text messages, not binary frames")
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise Rejected("too_large", f"the message is {size} bytes; at most {MAX_MESSAGE_BYTES} are allowed")
    if json_text_nests_deeper_than(raw, MAX_MESSAGE_DEPTH):
        raise Rejected("too_deep", f"the message has arrays or objects nested more than "
                       f"{MAX_MESSAGE_DEPTH} deep; messages are flat objects such as "
                       '{"type": "act", "action": "pass"}')
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise Rejected("bad_message", f"the message is not valid JSON ({exc.msg} at character "
                       f"{exc.pos})") from None
    if _has_lone_surrogate(data):
        raise Rejected("bad_message", "the message holds a lone surrogate (a \\ud800-\\udfff "
                       "escape that is not half of a pair); text must be valid Unicode")
    if not isinstance(data, dict):
        raise Rejected("bad_message", 'a message must be a JSON object such as {"type": "act", '
                       '"action": "pass"}')
    kind = data.get("type")
    if kind == "hello":
        _only(data, {"type", "token", "account"})
        token, account = data.get("token"), data.get("account", False)
        if token is not None and (not isinstance(token, str) or len(token) > MAX_TOKEN_CHARS):
            raise Rejected("bad_message", f"'token' must be a string of at most {MAX_TOKEN_CHARS} "
                           "characters, or absent to watch")
        if not isinstance(account, bool) or (account and token is not None):
            raise Rejected("bad_message", "'account' is true (the signed-in account's seat) or "
                           "absent, and never beside a 'token'")
        return Hello(token, account)
    if kind == "act":
        _only(data, {"type", "action", "at"})
        action = data.get("action")
        if not isinstance(action, str) or not 0 < len(action) <= MAX_ACTION_CHARS:
            raise Rejected("bad_message", "'action' must be an action id string (one of the 'legal' "
                           f"ids, at most {MAX_ACTION_CHARS} characters)")
        at = data.get("at")
        if at is not None and (not isinstance(at, int) or isinstance(at, bool) or at < 0):
            raise Rejected("bad_message", "'at' must be the whole number of actions you have seen")
        return Act(action, at)
    if kind == "drawn":
        _only(data, {"type", "at"})
        at = data.get("at")
        if not isinstance(at, int) or isinstance(at, bool) or at < 0:
            raise Rejected("bad_message", "'at' must be the whole number of actions you have seen "
                           "(the view's 'at' whose response window was drawn)")
        return Drawn(at)
    if kind == "history":
        _only(data, {"type", "before"})
        before = data.get("before")
        if not isinstance(before, int) or isinstance(before, bool) or before < 0:
            raise Rejected("bad_message", "'before' must be the whole number of the log entry to "
                           "read back from (the welcome's 'log_from', then each answer's 'from')")
        return History(before)
    if kind == "resign":
        _only(data, {"type"})
        return Resign()
    if kind == "abort":
        _only(data, {"type"})
        return Abort()
    if kind == "hint":
        _only(data, {"type"})
        return HintRequest()
    if kind in ("expel", "wait", "replace"):
        _only(data, {"type", "seat"})
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < MAX_SEATS:
            raise Rejected("bad_message", f"'seat' must be the number of the seat whose clock ran "
                           f"out (0 to {MAX_SEATS - 1})")
        return ClockChoice(kind, seat)
    if kind == "chat":
        _only(data, {"type", "text"})
        if not isinstance(data.get("text"), str):
            raise Rejected("bad_message", "'text' must be the chat line, a string")
        return ChatMessage(data["text"])
    if kind == "presence":
        _only(data, {"type", "visible"})
        if not isinstance(data.get("visible"), bool):
            raise Rejected("bad_message", "'visible' must be true (the page is shown) or false (hidden)")
        return PresenceMessage(data["visible"])
    raise Rejected("bad_message", f"unknown message type {kind!r}; the types are 'hello', 'act', "
                   "'drawn', 'history', 'resign', 'abort', 'hint', 'expel', 'wait', 'replace', 'chat' "
                   "and 'presence'")


def _only(data: dict[str, Any], allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed)
    if extra:
        raise Rejected("bad_message", f"unknown field(s) {', '.join(extra)}; a {data['type']!r} "
                       f"message has: {', '.join(sorted(allowed))}")
