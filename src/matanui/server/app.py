"""The web service: HTTP for the lobby (OpenAPI at /docs), a WebSocket per player for play,
and the browser client's files. `create_app` builds it; `matanui serve` runs it with uvicorn.
The WebSocket messages are documented in docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any, Literal

import fastapi_offline
from fastapi import Body, FastAPI, Header, Query, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.websockets import WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from matanui import games
from matanui.engine import ABORT, MatanuiError
from matanui.games import packs

from . import accounts, catalog, clocks, hints, leaderboard, rules_page, tutorials
from .analyses import Analyses
from .bots import BotPool
from .document import INVALID, declare_common, refusals
from .incidents import ClientNoise, where
from .lobby import CURSOR, Lobby, listed
from .peers import PostgresPeers, Solo
from .protocol import (
    MAX_SEATS,
    MAX_TOKEN_CHARS,
    Abort,
    Act,
    ChatMessage,
    ClockChoice,
    CreateGame,
    Drawn,
    Hello,
    HintRequest,
    History,
    JoinSeat,
    PresenceMessage,
    Rejected,
    Resign,
    SeatToken,
    SetName,
    parse_message,
)
from .quotas import TOO_MANY, Limits, Quotas, Throttled
from .replays import MOST_POSITIONS, positions_json
from .rooms import DRAW_GRACE, GONE, RESPONSE_WINDOW, Backends, Connection, Room
from .security import (
    DEFAULT_ALLOWED_HOSTS,
    BodyLimit,
    HostCheck,
    SecurityHeaders,
    policy_allowing_inline_scripts,
)
from .storage import Storage, StorageFailed
from .workers import BACKGROUND_NICE, Workers

log = logging.getLogger("matanui.server")

WEB = Path(__file__).resolve().parent.parent / "web"
# Swagger UI's script and style, bundled by the fastapi-offline package: /docs needs no CDN.
DOCS_FILES = Path(fastapi_offline.__file__).resolve().parent / "static"
ERROR_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
               405: "method_not_allowed", 413: "too_large", 429: "too_many_requests"}
MAX_BODY_BYTES = 16_384
DEFAULT_DATABASE = "sqlite:///matanui.db"
CONNECTION_NUMBERS = itertools.count()
DEFAULT_PAGE = 50  # games a page of GET /api/games without ?limit


class SeatLink(BaseModel):
    seat: int
    character: str
    kind: str
    token: str | None
    link: str | None


class CreatedGame(BaseModel):
    id: str
    seats: list[SeatLink]
    hotseat_link: str | None
    spectator_link: str


class JoinedSeat(BaseModel):
    seat: int
    token: str
    link: str


class Unavailable(BaseModel):
    status: str = Field(description='"unavailable"')
    message: str


class NamedSeat(BaseModel):
    seat: int
    name: str | None = Field(description="The display name now (null: the character's name).")


# What a new game (or a rematch) may meet besides its own refusals (quotas.py).
NEW_GAME_LIMITS = {429: "too_many_games, too_many_bot_games: this address has made as many as it "
                        "may for now (Retry-After)",
                   503: "server_full, bot_games_full: the server keeps as many games as it may "
                        "(Retry-After); not_saved: the database failed the write (a full disk), "
                        "nothing was made"}
# What a stored game's operations may meet (lobby.py, storage.py).
UNAVAILABLE = {410: "unavailable_game: the stored game is damaged or does not replay with these "
                    "rules (the message says which field or action); it is never listed"}
NOT_SAVED = {503: "not_saved: the database failed the write (a full disk); nothing was changed"}


def seat_link(game_id: str, seat: int, token: str) -> str:
    # The token rides in the fragment, which browsers never send to a server.
    return f"/games/{game_id}#seat={seat}&token={token}"


def client_of(request: Request | WebSocket) -> str:
    """Who is asking, for the limits: the client's address (the one a trusted proxy names in
    X-Forwarded-For, see create_app)."""
    return request.client.host if request.client else "unknown"


def analyst_of(request: Request) -> str:
    """Who asks for an analysis, for its one at a time (analyses.py): the signed-in account,
    else the address."""
    account = accounts.account_id(request)
    return f"account {account}" if account else f"address {client_of(request)}"


def methods_of(app: FastAPI, request: Request) -> list[str]:
    """Every method the routes of the request's path answer: a path served by several routes
    (GET and POST /api/games) names them all, not only the first route's."""
    scope = {**request.scope, "type": "http"}
    return sorted({method for route in app.router.routes if getattr(route, "methods", None)
                   and route.matches(scope)[0] is not Match.NONE for method in route.methods})


def created(room: Room, tokens: list[str | None], hotseat: bool) -> CreatedGame:
    """The answer to a new game: each seat, its token and invite link for people."""
    seats = [SeatLink(seat=i, character=room.state.players[i], kind=room.row.seats[i].kind,
                      token=token, link=seat_link(room.id, i, token) if token else None)
             for i, token in enumerate(tokens)]
    humans = [t for t in tokens if t]
    shared = f"/games/{room.id}#tokens={','.join(humans)}" if hotseat and humans else None
    return CreatedGame(id=room.id, seats=seats, hotseat_link=shared, spectator_link=f"/games/{room.id}")


def create_app(database: str = DEFAULT_DATABASE, *, bot_workers: int = 1, bot_pace: float = 0.0,
               response_window: float = RESPONSE_WINDOW, draw_grace: float = DRAW_GRACE,
               limits: Limits | None = None, allowed_hosts: tuple[str, ...] = DEFAULT_ALLOWED_HOSTS,
               data_dir: str | None = None, trusted_proxies: tuple[str, ...] = ()) -> FastAPI:
    """The service. `database` is an SQLAlchemy URL; `bot_workers` processes run the bots of
    games with people (one more, at low priority, those of bots only); a bot's move is
    broadcast no sooner than `bot_pace` seconds after the action before it; a person's response
    window closes `response_window` seconds after the answering page drew it, waiting at most
    `draw_grace` seconds for the drawing (rooms.py); `limits` are
    what one client may ask (quotas.py); requests naming a Host other than `allowed_hosts`
    are refused (DNS rebinding), and WebSockets opened by pages of other hosts (security.py);
    every good data pack in the subfolders of `data_dir` is offered in the lobby
    (games/packs.py). A client is the address it connects from, unless that address is one of
    `trusted_proxies` (addresses or networks): then it is the client the proxy names in
    X-Forwarded-For; from anyone else that header is ignored."""
    limits = limits or Limits()
    for problem in packs.install_library(data_dir):
        print(f"data pack {problem}", flush=True)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        noise = ClientNoise()  # after uvicorn has set up its loggers
        logging.getLogger("uvicorn.error").addFilter(noise)
        storage = Storage(database)
        bots = BotPool(bot_workers)
        replays = Workers(1, nice=BACKGROUND_NICE)
        quotas = Quotas(limits)
        peers = PostgresPeers(database, storage.instance) if storage.shared else Solo()
        backends = Backends(storage, bots, replays, bot_pace, limits, peers, response_window, draw_grace)
        lobby = Lobby(backends, quotas)
        await lobby.load()
        await accounts.remember_names(storage)
        await peers.start(lobby)
        app.state.lobby = lobby
        app.state.quotas = quotas
        # Analyses in a worker of their own, below the replays' priority: a replay never waits
        # behind an analysis's jobs, and gets the CPU first (analyses.py).
        app.state.analyses = Analyses(Workers(1, nice=BACKGROUND_NICE, idle=True))
        app.state.session_sockets = accounts.SessionSockets()
        try:
            yield
        finally:
            app.state.analyses.close()
            app.state.analyses.workers.close()
            await peers.stop()
            await lobby.stop()
            bots.close()
            replays.close()
            storage.close()
            logging.getLogger("uvicorn.error").removeFilter(noise)

    app = FastAPI(title="matanui", version="1", lifespan=lifespan, docs_url=None, redoc_url=None,
                  description=(
        "Play three BIONICLE tabletop games in the browser. HTTP is for the lobby; play goes over "
        "the WebSocket /ws/games/{id}, documented in docs/protocol.md."))

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            clocks.document_least_move(accounts.declare_csrf(declare_common(FastAPI.openapi(app))),
                                       limits.least_move_seconds)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.add_middleware(accounts.Sessions)  # innermost: after the proxy's scheme and the checks
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    app.add_middleware(HostCheck, allowed_hosts=allowed_hosts)
    app.add_middleware(SecurityHeaders)
    if trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(trusted_proxies))

    def lobby_of(request: Request | WebSocket) -> Lobby:
        return request.app.state.lobby

    @app.exception_handler(Rejected)
    async def rejected(_: Request, exc: Rejected) -> JSONResponse:
        retry = {"Retry-After": str(exc.retry_after)} if isinstance(exc, Throttled) else None
        return JSONResponse({"error": exc.code, "message": exc.message}, status_code=exc.status,
                            headers=retry)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc'][1:]) or 'body'}: {e['msg']}"
                             for e in exc.errors())
        return JSONResponse({"error": "bad_request", "message": problems[:2000]}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        """Errors the framework raises itself (an unknown path, a body that is not JSON) in the
        service's shape too."""
        message = str(exc.detail)
        if message == "There was an error parsing the body":
            message = ("the body is not JSON this service can read (at most 4300 digits in a "
                       "number, and nesting of reasonable depth)")
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            headers = {"Allow": ", ".join(methods_of(app, request))}
            message = f"{request.method} is not a method of this path; its methods are {headers['Allow']}"
        return JSONResponse({"error": ERROR_CODES.get(exc.status_code, "error"), "message": message},
                            status_code=exc.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return JSONResponse({"error": "internal", "message": "the server failed on this request; "
                             "it is logged, and nothing was changed"}, status_code=500)

    # -- pages -------------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/games/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(WEB / "game.html")

    @app.get("/games/{game_id}/replay", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return FileResponse(WEB / "replay.html")

    app.include_router(tutorials.router)
    app.include_router(accounts.router)
    app.include_router(leaderboard.router)

    @app.get("/rules", include_in_schema=False)
    async def rules_index() -> HTMLResponse:
        return HTMLResponse(rules_page.index_page())

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules(game: str) -> HTMLResponse:
        if game not in games.names():
            raise Rejected("unknown_game", games.unknown(game), status=404)
        return HTMLResponse(rules_page.game_page(game))

    app.mount("/static", StaticFiles(directory=WEB), name="static")
    app.mount("/static-docs", StaticFiles(directory=DOCS_FILES), name="static-docs")

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        page = get_swagger_ui_html(openapi_url="/openapi.json", title="matanui — HTTP API",
                                   swagger_js_url="/static-docs/swagger-ui-bundle.js",
                                   swagger_css_url="/static-docs/swagger-ui.css",
                                   swagger_favicon_url="/static-docs/favicon.png")
        html = page.body.decode("utf-8")
        return HTMLResponse(html, headers={"content-security-policy": policy_allowing_inline_scripts(html)})

    # -- the lobby's HTTP API ----------------------------------------------------------

    @app.get("/api/health", summary="For load balancers: 200 while this instance serves and its "
             "database takes writes, else 503",
             responses={503: {"model": Unavailable, "description": "the database does not answer "
                                                                  "or does not take writes"}})
    async def health(request: Request) -> JSONResponse:
        """A tiny write and the memory of the latest one (storage.py): a database that answers
        but cannot write (a full disk) is unavailable too."""
        lobby = lobby_of(request)
        storage = lobby.backends.storage
        try:
            await storage.run(storage.ping)
            failing = storage.failing()
        except StorageFailed as exc:
            failing = exc.reason
        if failing is not None:
            return JSONResponse({"status": "unavailable", "message": f"the database does not answer or "
                                 f"does not take writes ({failing}); nothing can be saved"},
                                status_code=503)
        return JSONResponse({"status": "ok", "games": len(lobby.rooms), "instance": storage.instance,
                             "bots": lobby.backends.bots.counts})

    @app.get("/api/catalog", summary="The games, their characters, options and bot levels")
    async def get_catalog() -> list[dict[str, Any]]:
        return catalog.catalog()

    @app.get("/api/catalog/{game}", summary="One game's description and components for drawing it",
             responses=refusals({404: "unknown_game: no such game; unknown_data: this server offers "
                                      "no such data pack for it"}))
    async def get_picture_book(game: str, data: str | None = None) -> dict[str, Any]:
        if game not in games.names():
            raise Rejected("unknown_game", games.unknown(game), status=404)
        try:
            return catalog.picture_book(game, data)
        except MatanuiError as exc:  # a pack this server does not offer
            raise Rejected("unknown_data", str(exc), status=404) from None

    @app.get("/api/games", summary="A page of games: open and running ones, newest first, then "
             "abandoned ones (nobody plays them now), then finished ones; each says whether it is "
             "rated; the header Link (rel=next) gives the next page")
    async def list_games(
        request: Request, response: Response,
        # A default, not an annotation: annotations are read in the module, which has no `limits`.
        limit: int | None = Query(None, ge=1, json_schema_extra={"maximum": limits.page_size}),
        before: Annotated[str | None, Query(max_length=100, json_schema_extra={"pattern": CURSOR},
                                            description="The cursor in the Link header of the page "
                                                        "before")] = None,
        game: Annotated[str | None, Query(max_length=32, json_schema_extra={"enum": games.names()},
                                          description="Only the games of this game id")] = None,
        pace: Annotated[Literal["realtime", "turn_based", "untimed"] | None,
                        Query(description="Only the games of this pace")] = None,
    ) -> list[dict[str, Any]]:
        limit = limit or min(DEFAULT_PAGE, limits.page_size)
        if limit > limits.page_size:
            raise Rejected("bad_request", f"limit: at most {limits.page_size} games a page; follow "
                           "the Link header for more", status=422)
        page, more = lobby_of(request).listing(limit, before, game, pace=pace)
        if more is not None:
            only = (f"&game={game}" if game else "") + (f"&pace={pace}" if pace else "")
            response.headers["Link"] = f'</api/games?limit={limit}{only}&before={more}>; rel="next"'
        return page

    @app.post("/api/games", status_code=201, response_model=CreatedGame,
              summary="Create a game; the answer holds each human seat's secret invite link",
              responses=refusals({404: "unknown_data: this server offers no such data pack for the game",
                                  422: "bad_request, bad_game, bad_pace: the game, its seats, options, "
                                       "seed or pace are not allowed (the message says what is)",
                                  **NEW_GAME_LIMITS}))
    async def create_game(request: Request, spec: CreateGame) -> CreatedGame:
        room, tokens = await lobby_of(request).create(spec, client_of(request), accounts.account_id(request))
        return created(room, tokens, spec.hotseat)

    @app.post("/api/tutorials/{game}/{number}/play", status_code=201, response_model=CreatedGame,
              summary="A game against bots for a learner who finished a tutorial, with hints: from "
                      "where the tutorial ended if its game goes on there, else a fresh deal",
              responses=refusals({**tutorials.NO_TUTORIAL, **tutorials.BROKEN, **NEW_GAME_LIMITS}))
    async def play_on(request: Request, game: tutorials.GameName, number: tutorials.TutorialNumber,
                      body: Annotated[tutorials.PlayOn | None, Body()] = None) -> CreatedGame:
        lesson = tutorials.find_lesson(game, number)
        level = body.level if body else tutorials.PlayOn().level
        room, tokens = await lobby_of(request).play_on(lesson, level, client_of(request),
                                                       accounts.account_id(request))
        return created(room, tokens, False)

    @app.get("/api/games/{game_id}", summary="One game's public summary, as the lobby lists it",
             responses=refusals({404: "unknown_game: there is no such game", **UNAVAILABLE}))
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        return listed(await lobby_of(request).find(game_id))

    @app.post("/api/games/{game_id}/join", response_model=JoinedSeat,
              summary="Take the first open seat of a public game, optionally under a display "
              "name; its token is issued now",
              responses=refusals({403: "not_public: the game's seats are taken by invite only",
                                  404: "unknown_game: there is no such game",
                                  409: "no_free_seat or game_over",
                                  422: "bad_request: the name is too long or holds a hidden "
                                       "character (a control, format or separator character)",
                                  **UNAVAILABLE, **NOT_SAVED}))
    async def join_game(request: Request, game_id: str,
                        body: Annotated[JoinSeat | None, Body()] = None) -> JoinedSeat:
        seat, token = await lobby_of(request).join(game_id, body.name if body else None,
                                                    accounts.account_id(request))
        return JoinedSeat(seat=seat, token=token, link=seat_link(game_id, seat, token))

    @app.post("/api/games/{game_id}/name", response_model=NamedSeat,
              summary="Set or change the display name of the seat a token opens; everyone "
              "connected is sent a fresh view, its narration naming the player anew",
              responses=refusals({403: "bad_token: the token opens no seat of this game (without "
                                       "a token: the signed-in account holds none)",
                                  404: "unknown_game: there is no such game",
                                  422: "bad_request: the name is too long or holds a hidden "
                                       "character (a control, format or separator character)",
                                  **UNAVAILABLE, **NOT_SAVED}))
    async def set_name(request: Request, game_id: str, body: Annotated[SetName, Body()]) -> NamedSeat:
        seat = await lobby_of(request).set_name(game_id, body.token, body.name, accounts.account_id(request))
        return NamedSeat(seat=seat, name=body.name)

    @app.post("/api/games/{game_id}/rematch", summary="Offer a rematch, or accept the one offered: "
              "once every person at the table has, the same seats and options with a new deal "
              "(every seat keeps its token; 200, the new game); until then 202 and the seats "
              "offering it",
              responses=refusals({403: "bad_token: the token opens no seat of this game (without "
                                       "a token: the signed-in account holds none)",
                                  404: "unknown_game: there is no such game",
                                  409: "not_over: a rematch is offered once the game is over",
                                  **UNAVAILABLE, **NEW_GAME_LIMITS}))
    async def rematch(request: Request, response: Response, game_id: str,
                      body: Annotated[SeatToken, Body()]) -> dict[str, Any]:
        made = await lobby_of(request).rematch(game_id, body.token, client_of(request),
                                               accounts.account_id(request))
        if isinstance(made, list):  # offered: the others are asked (their end dialog says so)
            response.status_code = 202
            return {"offered_by": made}
        return made.summary()

    @app.post("/api/games/{game_id}/rematch/decline", summary="Decline the rematch offered, or "
              "withdraw your own offer: every connection is told no offer stands",
              responses=refusals({403: "bad_token: the token opens no seat of this game (without "
                                       "a token: the signed-in account holds none)",
                                  404: "unknown_game: there is no such game",
                                  409: "rematch_made: the rematch is made already",
                                  **UNAVAILABLE, **NOT_SAVED}))
    async def decline_rematch(request: Request, game_id: str,
                              body: Annotated[SeatToken, Body()]) -> dict[str, int]:
        seat = await lobby_of(request).decline_rematch(game_id, body.token, accounts.account_id(request))
        return {"declined_by": seat}

    @app.get("/api/games/{game_id}/replay", summary="A game's log and first positions, for stepping "
             "through it; the positions of further steps by range (from, to)",
             response_class=Response, responses={200: {"content": {"application/json": {}}}, **refusals({
                 403: "bad_token: while the game runs, a seat's replay needs that seat's token "
                        "(or the signed-in account that holds it)",
                 404: "unknown_game: there is no such game; bad_seat: the game has no such seat",
                 **UNAVAILABLE,
                 422: f"bad_range: from and to name steps of the game (0: the set-up), from <= to, "
                      f"at most {MOST_POSITIONS} at a time, both or neither; {INVALID}",
                 429: "too_many_replays: this address has as many replays being built as it may",
                 503: "replays_busy: the server builds as many replays as it may (Retry-After)"})})
    async def replay(request: Request, game_id: str,
                     seat: Annotated[int | None, Query(ge=0, lt=MAX_SEATS, description=(
                         "A seat's own view (its token in X-Seat-Token while the game runs); "
                         "omit for the public view"))] = None,
                     start: Annotated[int | None, Query(alias="from", ge=0, description=(
                         "The first step whose position is wanted (with `to`); omit both for "
                         "the log and the first steps' positions"))] = None,
                     to: Annotated[int | None, Query(ge=0, description="The last step wanted")] = None,
                     x_seat_token: Annotated[str | None, Header(max_length=MAX_TOKEN_CHARS)] = None,
                     ) -> Response:
        lobby = lobby_of(request)
        if start is None and to is None:
            text = await lobby.replay_json(game_id, seat, x_seat_token, client_of(request),
                                           accounts.account_id(request))
        else:
            text = await positions_json(lobby, game_id, seat, x_seat_token, client_of(request),
                                        accounts.account_id(request), start, to)
        return Response(text, media_type="application/json")

    @app.get("/api/games/{game_id}/analysis", summary="The analysis of a finished game, so far",
             responses=refusals({
                 404: "unknown_game: there is no such game",
                 409: "not_over: a game is analysed once it is over",
                 **UNAVAILABLE,
                 429: "analysis_pending: your analysis of another game is not complete yet (one "
                      "at a time per account, else per address; the message names it; Retry-After)",
                 503: "analyses_busy: as many analyses wait as the server queues (Retry-After)"}))
    async def analysis(request: Request, game_id: str) -> dict[str, Any]:
        """Each decision judged from the deciding player's view: `before` and `after` (that
        player's chance of winning before and after the move, 0 to 1), `best_words` (the best
        move found), `lost` and `mark` (inaccuracy, mistake or blunder by the chance lost:
        `marks` holds the thresholds); `complete` false while the rest is worked out (ask
        again), then `turning_points` (action numbers). `status`: `queued` (waiting its turn:
        `position` analyses are before it), `running` or `complete`."""
        room = await lobby_of(request).find(game_id)
        return request.app.state.analyses.of(room, analyst_of(request))

    # -- play --------------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def play(websocket: WebSocket, game_id: str) -> None:
        await websocket.accept()
        websocket.state.number = f"{next(CONNECTION_NUMBERS)}"  # the key of its message rate
        try:
            room = await lobby_of(websocket).find(game_id)
            with websocket.app.state.quotas.socket(client_of(websocket), game_id):
                await serve_connection(websocket, room)
        except Throttled as exc:
            await _refuse(websocket, exc)
        except Rejected as exc:
            await websocket.send_json(exc.to_message())
            await websocket.close(code=GONE)

    return app


async def _refuse(websocket: WebSocket, exc: Throttled) -> None:
    """Say which limit was reached, then close with code 4429 and the same reason."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_json(exc.to_message())
        await websocket.close(code=TOO_MANY, reason=exc.message[:120])


async def _receive(websocket: WebSocket) -> str | bytes | None:
    """The next message's payload; WebSocketDisconnect when the client has gone, Throttled
    when the connection sends faster than its limit."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    websocket.app.state.quotas.message(websocket.state.number)
    return message.get("text") if message.get("text") is not None else message.get("bytes")


async def _say_hello(websocket: WebSocket, room: Room) -> Connection:
    """Wait for a valid hello: a seat token opens that seat, `account` the seat the signed-in
    account holds (accounts.py), neither the public view.
    A token that opens no seat is answered with an error that says so, and the connection
    watches: never a silent downgrade, and no second hello is needed."""
    while True:
        try:
            message = parse_message(await _receive(websocket))
            if not isinstance(message, Hello):
                raise Rejected("hello_first", 'say hello first: {"type": "hello", "token": "..."} to '
                               'play a seat, or {"type": "hello"} to watch')
        except Throttled:
            raise
        except Rejected as exc:
            await websocket.send_json(exc.to_message())
            continue
        websocket.app.state.quotas.hello(client_of(websocket))  # each welcome costs: Throttled
        seat = None
        if message.token is not None or message.account:
            try:
                seat = (accounts.hello_seat(websocket, room) if message.token is None
                        else room.seat_for(message.token))
            except Rejected as exc:
                await websocket.send_json(exc.to_message())
        if seat is not None:
            await room.claim(seat)
        # A seat the account opened is the session's: it ends with it (sign-out, a new password).
        session = accounts.session_of(websocket) if seat is not None and message.token is None else None
        return Connection(seat, session=session.id_hash if session else None, client=client_of(websocket),
                          account=accounts.account_id(websocket))


async def _still_signed_in(room: Room, connection: Connection) -> None:
    """A seat opened by a session that has ended (here or on another instance) is closed:
    the message is refused, `session_ended`, and the socket closes with SESSION_ENDED."""
    try:
        await accounts.still_signed_in(room.backends.storage, connection.session)
    except Rejected as exc:
        connection.send(json.dumps(exc.to_message()))
        connection.close(accounts.SESSION_ENDED, "your session ended (signed out or password changed)")
        raise


async def _send_outbox(websocket: WebSocket, connection: Connection) -> None:
    """Drain a connection's outbox until it is to close (Connection.close: a client that fell
    too far behind reconnects, and its welcome brings it up to date)."""
    while connection.closing is None:
        text = await connection.outbox.get()
        if text is not None:
            await websocket.send_text(text)
    code, reason = connection.closing
    await websocket.close(code=code, reason=reason)


async def serve_connection(websocket: WebSocket, room: Room) -> None:
    """Serve one connection to a room until it closes. A fault of the server's own (a bug any
    client input reached) is one log line per kind a minute, an `internal` error and close
    code 1011: never a traceback a client can repeat into the log."""
    try:
        await _serve(websocket, room)
    except WebSocketDisconnect:
        return
    except Throttled:
        raise
    except Exception as exc:
        room.backends.incidents.report(f"socket {type(exc).__name__}", logging.ERROR,
                                       f"a connection to game {room.id} failed: {type(exc).__name__}: "
                                       f"{exc} (at {where(exc)})")
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await websocket.send_json(Rejected("internal", "the server failed on this connection; it "
                                               "is logged: reconnect to go on").to_message())
            await websocket.close(code=1011)


async def _serve(websocket: WebSocket, room: Room) -> None:
    try:
        connection = await _say_hello(websocket, room)
    except WebSocketDisconnect:
        return
    await room.chat.load()  # the welcome carries the newest lines (first: a failure leaves no task)
    await room.load_rating_changes()  # and a rated game's rating changes, for its end dialog
    sender = asyncio.create_task(_send_outbox(websocket, connection))
    room.join(connection)
    if connection.session is not None:
        accounts.sockets(websocket).opened(connection, accounts.session_of(websocket))
    try:
        while True:
            try:
                message = parse_message(await _receive(websocket))
                if not isinstance(message, (History, PresenceMessage)):  # it does something: still yours?
                    await _still_signed_in(room, connection)
                if isinstance(message, Hello):
                    raise Rejected("already_hello", "this connection has said hello already; open a "
                                   "new connection to change seat")
                if isinstance(message, History):
                    connection.send(json.dumps(room.history(connection.seat, message.before)))
                    continue
                if isinstance(message, ClockChoice):
                    await clocks.choose(room, connection.seat, message)
                    continue
                if isinstance(message, ChatMessage):
                    await room.chat.say(connection, message.text)
                    continue
                if isinstance(message, PresenceMessage):
                    room.presence.seen(connection, message.visible)
                    continue
                if connection.seat is None:
                    raise Rejected("spectator", "spectators watch and cannot act or resign; hello "
                                   "with a seat token to play")
                if isinstance(message, Resign | Abort):
                    room.check_played_by_person(connection.seat)
                    await room.forfeit(connection.seat, "resign" if isinstance(message, Resign) else ABORT)
                    continue
                if isinstance(message, Drawn):
                    await room.drawn(connection.seat, message.at)
                    continue
                if isinstance(message, HintRequest):
                    connection.send(json.dumps(await hints.answer(room, connection.seat)))
                    continue
                assert isinstance(message, Act)
                await room.act(connection.seat, message.action, message.at)
            except Throttled as exc:
                connection.send(json.dumps(exc.to_message()))
                connection.close(TOO_MANY, exc.message[:120])
                await asyncio.gather(sender, return_exceptions=True)
                return
            except Rejected as exc:
                connection.send(json.dumps(exc.to_message()))
    except WebSocketDisconnect:
        pass
    finally:
        room.leave(connection)
        accounts.sockets(websocket).closed(connection)
        sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)
