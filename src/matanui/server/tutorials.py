"""Tutorials over HTTP, stateless: the client holds only how many steps are done (`at`); each
request rebuilds that position by replaying the tutorial through the engine (a tutorial is a
few dozen steps), tries the learner's move if there is one, and answers the learner's view.

Endpoints are documented in docs/protocol.md ("Tutorials"); each declares every refusal it
may answer (document.py), so that the OpenAPI document says all it answers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter
from fastapi import Path as PathParameter
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from matanui import games
from matanui.games.tutorial import Played, Tutorial, TutorialError, Walk, tutorials

from .document import refusals
from .protocol import MAX_ACTION_CHARS, Rejected, WholeNumber
from .rooms import legal_entries

WEB = Path(__file__).resolve().parent.parent / "web"
MAX_STEPS = 1000
MAX_TUTORIALS = 99  # of one game (each has a few): a tutorial's number is 1 to this

router = APIRouter()
T = TypeVar("T")

# A tutorial's game: the games are named in the document (a generated request then reaches
# the tutorials, not only the refusal of a game that does not exist).
GameName = Annotated[str, PathParameter(json_schema_extra={"enum": games.names()},
                                        description="A game id from GET /api/catalog.")]
TutorialNumber = Annotated[int, PathParameter(ge=1, le=MAX_TUTORIALS, description=(
    "The tutorial's number in its game, from 1 (GET /api/tutorials lists them)."))]
# What each route may answer besides its answer, each with the service's {error, message}.
NO_TUTORIAL = {404: "unknown_game, no_tutorial: there is no such game, or it has no tutorial of "
                    "that number"}
NO_STEP = {404: "unknown_game, no_tutorial, no_step: there is no such game, tutorial or step"}
BROKEN = {500: "tutorial_broken: a step the engine no longer allows (a bug, which `matanui "
               "tutorial --check` finds); internal: the server failed on this request"}
NOT_YOUR_STEP = {409: "not_your_step: after `at` steps the learner has no move to make (the "
                      "scripted moves come next, or the tutorial is over); the message names the "
                      "position to ask for"}


class PlayOn(BaseModel):
    """How strong the bots of the game played on after a tutorial are."""

    model_config = ConfigDict(extra="forbid")

    level: Literal["easy", "medium", "hard"] = Field("medium", description="The bots' level.")


class TutorialMove(BaseModel):
    """The learner's move on the position after `at` steps."""

    # Strict: true is not step 1, nor "1" (the document says an integer), 1.0 is.
    model_config = ConfigDict(extra="forbid", strict=True)

    at: WholeNumber = Field(ge=0, le=MAX_STEPS,
                            description="Steps done: the `at` of the view the move was made on.")
    action: str = Field(max_length=MAX_ACTION_CHARS, description="An action id, as offered in `legal`.")


@functools.cache
def _lessons(game: str) -> tuple[Tutorial, ...]:
    return tuple(tutorials(game))


def find_lesson(game: str, number: int) -> Tutorial:
    if game not in games.names():
        raise Rejected("unknown_game", games.unknown(game), status=404)
    found = _lessons(game)
    if not 1 <= number <= len(found):
        raise Rejected("no_tutorial", f"{game} has no tutorial {number}; its tutorials are 1 to "
                       f"{len(found)}", status=404)
    return found[number - 1]


def _guarded(play: Callable[..., T], *args: Any) -> T:
    """Play steps; a step the engine no longer allows (a bug, which --check finds) is a 500
    that says which."""
    try:
        return play(*args)
    except TutorialError as error:
        raise Rejected("tutorial_broken", str(error), status=500) from None


def _walk(lesson: Tutorial, at: int) -> tuple[Walk, list[Played]]:
    if at > len(lesson.steps):  # a position the tutorial does not have
        raise Rejected("no_step", f"at: this tutorial has {len(lesson.steps)} steps, so at is 0 to "
                       f"{len(lesson.steps)}", status=404)
    return _guarded(Walk.to, lesson, at)


def view(walk: Walk, played: list[Played], hint: str | None = None) -> dict[str, Any]:
    """The learner's view of a walk: the board, what to do next and why, what just happened."""
    lesson, state, step = walk.tutorial, walk.state, walk.next_step
    learner = lesson.learner
    waiting = step is not None and state.current_player == learner
    answer: dict[str, Any] = {
        "game": lesson.game, "number": lesson.number, "title": lesson.title, "at": walk.done,
        "total": len(lesson.steps), "finished": walk.finished, "seat": learner,
        "players": list(state.players), "current_player": state.current_player,
        "observation": state.observation(learner),
        "legal": legal_entries(state) if waiting else [],
        "step": None if step is None else {"number": walk.done + 1, "action": step.action,
                                           "explain": step.explain, "teaches": step.teaches},
        "played": [p.to_json(learner) for p in played], "hint": hint,
        "log": [e.view(learner) for e in walk.log],
    }
    if walk.finished:
        answer["outcome"] = [{"says": e.says, "reached": found == e.equals} for e, found in walk.outcome()]
        answer["finale"] = lesson.finale
    return answer


@router.get("/tutorials/{game}/{number}", include_in_schema=False)
def tutorial_page(game: str, number: int) -> FileResponse:
    return FileResponse(WEB / "tutorial.html")


@router.get("/api/tutorials", summary="The tutorials of every game, in order")
def list_tutorials() -> list[dict[str, Any]]:
    return [lesson.summary_json() for game in games.names() for lesson in _lessons(game)]


@router.get("/api/tutorials/{game}/{number}", summary="One tutorial: its introduction and every step",
            responses=refusals({**NO_TUTORIAL, **BROKEN}))
def get_tutorial(game: GameName, number: TutorialNumber) -> dict[str, Any]:
    lesson = find_lesson(game, number)
    walk, played = _walk(lesson, 0)
    played += _guarded(walk.play_to_end)
    return {**lesson.summary_json(), "intro": lesson.intro, "finale": lesson.finale, "seat": lesson.learner,
            "players": list(lesson.players), "steps": [p.to_json(lesson.learner) for p in played],
            "outcome": [{"says": e.says, "path": e.path, "equals": e.equals} for e in lesson.outcome]}


@router.get("/api/tutorials/{game}/{number}/steps/{at}",
            summary="The learner's view after `at` steps (and the opponent's scripted moves after them)",
            responses=refusals({**NO_STEP, **BROKEN}))
def tutorial_position(game: GameName, number: TutorialNumber,
                      at: Annotated[int, PathParameter(ge=0, le=MAX_STEPS)]) -> dict[str, Any]:
    walk, played = _walk(find_lesson(game, number), at)
    return view(walk, played)


@router.post("/api/tutorials/{game}/{number}/moves",
             summary="Try the learner's move: the tutorial's move goes ahead, another gets a hint",
             responses=refusals({**NO_STEP, **NOT_YOUR_STEP, **BROKEN}))
def tutorial_move(game: GameName, number: TutorialNumber, move: TutorialMove) -> dict[str, Any]:
    walk, _ = _walk(find_lesson(game, number), move.at)
    if walk.done != move.at or walk.finished:
        raise Rejected("not_your_step", f"after {move.at} steps the learner has no move to make; the "
                       f"next position to ask for is at={walk.done}", status=409)
    played, hint = _guarded(walk.attempt, move.action)
    return view(walk, played, hint)
