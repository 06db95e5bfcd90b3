"""`matanui tune`: SPSA tuning of a search's parameters or a heuristic's weights."""

from __future__ import annotations

from pathlib import Path

import typer

from matanui import games
from matanui.cli.numbers import integer
from matanui.cli.shared import OPTIONS_HELP, console, fail
from matanui.engine import MatanuiError


def tune(
    game: str = typer.Argument(..., help="Which game."),
    agent: str = typer.Option("ismcts@300", "--agent", help="The agent to tune: a search, hard@SECONDS, "
                              "ismcts@ITERATIONS or ismcts-infer@ITERATIONS (iterations replay exactly), "
                              "or heuristic where the game's heuristic has weights (Makuta)."),
    param: list[str] = typer.Option([], "--param", help="NAME=START:MIN:MAX[:C_END[:R_END]] (repeatable): "
                                    "a parameter to tune (a search's exploration, rollout_limit, "
                                    "anchor_margin; a heuristic's weights), its bounds, its last "
                                    "perturbation (default a tenth of the range) and last gain "
                                    "(default 0.1)."),
    iterations: int = typer.Option(100, "--iterations", parser=integer,
                                   help="Game pairs to play, one per iteration."),
    workers: int = typer.Option(1, "--workers", parser=integer,
                                help="Pairs played at once around the same values "
                                "(part of the run: a resumed run must use the same)."),
    seed: int = typer.Option(0, "--seed", parser=integer,
                             help="Seed of the perturbations and of the first pair."),
    field: str | None = typer.Option(None, "--field", help="Tune against a field of this agent "
                                     "(e.g. medium) instead of against itself: each iteration plays "
                                     "one game at plus and one at minus, same seed and seat."),
    players: int = typer.Option(2, "--players", parser=integer,
                                help="Seats at the table with --field."),
    option: list[str] = typer.Option([], "-o", "--option", help=OPTIONS_HELP),
    out: Path = typer.Option(Path("tune-results"), "--out", help="Folder for the journal; each "
                             "iteration is journalled as it finishes, and the same command resumes."),
) -> None:
    """Tune a search's parameters, or a heuristic's weights, by SPSA: each iteration plays a
    game pair between the values nudged up and down, and steps towards the winner
    (docs/tuning.md)."""
    from matanui.ai import make_agent
    from matanui.ai.registry import parameters
    from matanui.arena import tune as spsa
    from matanui.arena.field import field_specs
    from matanui.arena.match import game_on
    from matanui.progress import progress

    try:
        games.require(game)
        if workers < 1:
            raise MatanuiError("--workers must be at least 1")
        allowed = parameters(agent, game)
        schedule = spsa.Spsa(tuple(spsa.parse_param(text, allowed) for text in param), iterations, seed)
        spsa.check_agent(agent, game, schedule)
        played = game_on(game, None)
        options = played.parse_options(option)
        played.new_game(0, played.characters()[:2], options)
        if field is None and players != 2:
            raise MatanuiError("--players needs --field: against itself an agent is tuned in game "
                               "pairs of two players")
        if field is not None:  # the field plays, and the table seats `players`
            make_agent(field, game)
            field_specs(game, [spsa.agent_at(agent, schedule, schedule.start()), field], players, 1)
        journal = spsa.TuneJournal(out / game / "spsa.jsonl",
                                   spsa.run_settings(game, agent, schedule, workers, options, field, players))
    except MatanuiError as error:
        fail(error)
    objective = (spsa.game_pairs(game, agent, schedule, workers, seed, options) if field is None
                 else spsa.field_games(game, agent, schedule, field, players, workers, seed, options))
    with progress(f"{game} SPSA", iterations, unit="iterations", source=journal.path) as bar:
        bar.resume(len(journal.steps))

        def record(step: spsa.Step) -> None:
            journal.append(step)
            bar.advance()
            bar.log(f"{step.k}/{iterations}: {spsa.agent_at(agent, schedule, step.plus)} against "
                    f"{spsa.agent_at(agent, schedule, step.minus)}: {step.result:+g}; now "
                    + ", ".join(f"{name}={value:.4g}" for name, value in step.theta_after.items()),
                    otherwise=console)

        theta = spsa.optimise(schedule, objective, journal.steps, workers, record)
    last = spsa.agent_at(agent, schedule, theta)
    tuned = spsa.agent_at(agent, schedule, spsa.averaged(journal.steps))
    check = (f"--agents '{tuned}',{agent} --pairs --sprt 0,50" if field is None
             else f"--agents '{tuned}',{field} --players {players} --games 400")
    console.print(f"After {iterations} iterations (journal: {journal.path}) the values are {last}; "
                  f"averaged over the second half of the run, which the noise moves less: {tuned}. "
                  f"Verify it on other seeds: matanui arena {game} {check} --seed {seed + iterations}")
