"""The ratings over HTTP: each game's leaderboard (the accounts by rating, the bots' anchors
beside them), a player's profile (per game their rating and its history, and their rated
games newest first, a page at a time), and the two pages that show them
(web/ratings.html, drawn by web/js/ratings.js). docs/protocol.md
("Ratings") documents them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParameter
from fastapi.responses import FileResponse
from sqlalchemy import desc, func, select

from matanui import games
from matanui.arena.anchors import current

from .document import refusals
from .protocol import Rejected
from .ratings import (
    PROVEN_GAMES,
    PROVEN_OPPONENTS,
    PROVISIONAL_RD,
    opponents_of,
    provisional,
    rating_history_table,
    ratings_table,
)
from .storage import Storage
from .users import users_table

WEB = Path(__file__).resolve().parent.parent / "web"
PAGE_SIZE = 50  # leaderboard rows or profile games a page, at most
HISTORY_POINTS = 500  # a profile's plot: the newest this many ratings of each game

router = APIRouter()

GameName = Annotated[str, PathParameter(json_schema_extra={"enum": games.names()},
                                        description="A game id from GET /api/catalog.")]
PlayerName = Annotated[str, PathParameter(min_length=1, max_length=32,
                                          description="An account's user name (any case).")]
Offset = Annotated[int, Query(ge=0, le=1_000_000, description="Rows to skip (the page's start).")]
Limit = Annotated[int, Query(ge=1, le=PAGE_SIZE, description=f"Rows a page, at most {PAGE_SIZE}.")]
NO_GAME = {404: "unknown_game: there is no such game"}
NO_PLAYER = {404: "unknown_player: no account has that user name"}


def _storage(request: Request) -> Storage:
    return request.app.state.lobby.backends.storage


def _rounded(value: float) -> float:
    return round(value, 1)


def leaderboard_rows(storage: Storage, game: str, offset: int,
                     limit: int) -> tuple[list[dict[str, Any]], int]:
    """(Synchronous.) A page of the game's accounts whose rating is no longer provisional
    (ratings.provisional), best first, and how many there are."""
    r, u = ratings_table.c, users_table.c
    met = opponents_of(r.account, r.game)
    proven = (r.game == game, r.rd <= PROVISIONAL_RD, r.games >= PROVEN_GAMES, met >= PROVEN_OPPONENTS)
    with storage.engine.connect() as db:
        total = db.scalar(select(func.count()).select_from(ratings_table).where(*proven)) or 0
        rows = db.execute(select(u.name, r.rating, r.rd, r.games).join(users_table, u.id == r.account)
                          .where(*proven).order_by(desc(r.rating), u.name_key)
                          .offset(offset).limit(limit)).all()
    return [{"rank": offset + i + 1, "name": name, "rating": _rounded(rating), "rd": _rounded(rd),
             "games": played, "provisional": False}
            for i, (name, rating, rd, played) in enumerate(rows)], total


def profile_of(storage: Storage, name: str, offset: int, limit: int) -> dict[str, Any] | None:
    """(Synchronous.) An account's ratings, rating history and a page of its rated games."""
    r, h, u = ratings_table.c, rating_history_table.c, users_table.c
    with storage.engine.connect() as db:
        user = db.execute(select(u.id, u.name).where(u.name_key == name.casefold())).first()
        if user is None:
            return None
        account = user.id
        per_game = {}
        for row in db.execute(select(ratings_table).where(r.account == account).order_by(r.game)).mappings():
            points = db.execute(select(h.game_id, h.at, h.rating, h.rd)
                                .where(h.account == account, h.game == row["game"])
                                .order_by(desc(h.at), desc(h.game_id)).limit(HISTORY_POINTS)).all()
            per_game[row["game"]] = {
                "rating": _rounded(row["rating"]), "rd": _rounded(row["rd"]), "games": row["games"],
                "provisional": provisional(row["rd"], row["games"],
                                           db.scalar(select(opponents_of(account, row["game"]))) or 0),
                "history": [{"game_id": g, "at": at, "rating": _rounded(rating), "rd": _rounded(rd)}
                            for g, at, rating, rd in reversed(points)]}
        total = db.scalar(select(func.count()).select_from(rating_history_table)
                          .where(h.account == account)) or 0
        played = db.execute(select(rating_history_table).where(h.account == account)
                            .order_by(desc(h.at), desc(h.game_id))
                            .offset(offset).limit(limit)).mappings().all()
        others = _opponents(db, [p["game_id"] for p in played], account)
    return {"name": user.name, "ratings": per_game, "total": total, "offset": offset,
            "games": [{"game_id": p["game_id"], "game": p["game"], "at": p["at"], "seat": p["seat"],
                       "result": "won" if p["score"] > 0.5 else "lost" if p["score"] < 0.5 else "draw",
                       "rating": _rounded(p["rating"]), "change": _rounded(p["rating"] - p["before"]),
                       "opponents": others.get(p["game_id"], [])} for p in played]}


def _opponents(db: Any, game_ids: list[str], account: str) -> dict[str, list[str]]:
    """The other accounts' names in each of those games, in seat order."""
    h, u = rating_history_table.c, users_table.c
    found: dict[str, list[str]] = {}
    for game_id, name in db.execute(select(h.game_id, u.name).join(users_table, u.id == h.account)
                                    .where(h.game_id.in_(game_ids), h.account != account)
                                    .order_by(h.game_id, h.seat)):
        found.setdefault(game_id, []).append(name)
    return found


def _known_game(game: str) -> None:
    if game not in games.names():
        raise Rejected("unknown_game", games.unknown(game), status=404)


@router.get("/api/ratings/{game}", summary="A game's leaderboard: the rated accounts, best first, "
            "and the bots' fixed ratings beside them", responses=refusals(NO_GAME))
async def leaderboard(request: Request, game: GameName, offset: Offset = 0,
                      limit: Limit = PAGE_SIZE) -> dict[str, Any]:
    _known_game(game)
    storage = _storage(request)
    players, total = await storage.run(leaderboard_rows, storage, game, offset, limit)
    bots = [{"level": level, "rating": rating} for level, rating in
            sorted(current(game).items(), key=lambda item: -item[1])]
    return {"game": game, "title": games.get(game).title, "players": players, "total": total,
            "offset": offset, "provisional_rd": PROVISIONAL_RD, "proven_games": PROVEN_GAMES,
            "proven_opponents": PROVEN_OPPONENTS, "bots": bots}


@router.get("/api/players/{name}", summary="A player's profile: per game their rating and its "
            "history, and their rated games with results, newest first", responses=refusals(NO_PLAYER))
async def profile(request: Request, name: PlayerName, offset: Offset = 0,
                  limit: Limit = PAGE_SIZE) -> dict[str, Any]:
    storage = _storage(request)
    found = await storage.run(profile_of, storage, name, offset, limit)
    if found is None:
        raise Rejected("unknown_player", "no account has that user name", status=404)
    return found


@router.get("/ratings/{game}", include_in_schema=False)
async def leaderboard_page(game: str) -> FileResponse:
    return FileResponse(WEB / "ratings.html")


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    return FileResponse(WEB / "ratings.html")
