"""`matanui arena`: round robins, one agent against a field, and the SPRT between two agents."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from matanui import games
from matanui.ai.settings import split_agents
from matanui.cli.numbers import integer
from matanui.cli.shared import DATA_HELP, OPTIONS_HELP, console, fail
from matanui.engine import MatanuiError
from matanui.games.text import literal

if TYPE_CHECKING:
    from matanui.arena.tournament import GameOutcome, Journal, MatchSpec


def arena(
    game: str = typer.Argument(..., help="Which game."),
    agents: str = typer.Option("random,heuristic", "--agents", help="Comma-separated agents: random, "
                               "heuristic, hard, hard@SECONDS, ismcts@ITERATIONS, "
                               "ismcts-infer@ITERATIONS; a search may set its parameters in braces, "
                               "'ismcts@300{exploration=0.9}'; ppo (the game's trained policy), "
                               "MODULE:CALLABLE (an array policy) or PATH.npz (a policy file)."),
    games_per_pair: int = typer.Option(20, "--games", parser=integer,
                                       help="Games per pair of agents (with --sprt: the "
                                       "most games the test may play)."),
    workers: int = typer.Option(1, "--workers", parser=integer, help="Processes to play on."),
    seed: int = typer.Option(0, "--seed", parser=integer, help="First game seed."),
    option: list[str] = typer.Option([], "-o", "--option", help=OPTIONS_HELP),
    out: Path = typer.Option(Path("arena-results"), "--out", help="Folder for JSON, CSV and PNG; "
                             "games are journalled there as they finish, and a rerun resumes."),
    pairs: bool = typer.Option(False, "--pairs", help="Play games in pairs: the same seed twice, "
                               "seats swapped, which cancels most of the luck of the deal."),
    sprt: str | None = typer.Option(None, "--sprt", help="ELO0,ELO1: a sequential test that the first "
                                    "agent is ELO1 stronger rather than ELO0 (e.g. 0,100); it stops as "
                                    "soon as either is accepted, after at most --games games."),
    alpha: float = typer.Option(0.05, "--alpha", help="SPRT: chance of accepting ELO1 when ELO0 holds."),
    beta: float = typer.Option(0.05, "--beta", help="SPRT: chance of accepting ELO0 when ELO1 holds."),
    data: Path | None = typer.Option(None, "--data", help=DATA_HELP + " The journal names the pack's "
                                     "hash; a rerun on other data plays its games afresh."),
    players: int | None = typer.Option(None, "--players", parser=integer,
                                       help="One against the field: --games games "
                                       "of this many players (as many as the game allows), the first "
                                       "agent in one seat (each seat in turn, each character in turn), "
                                       "the second agent in all the others; reports the first agent's "
                                       "win share, with its 95% interval, against the fair share "
                                       "1/players, and writes field.json. Exactly two agents; not with "
                                       "--pairs or --sprt."),
) -> None:
    """Round robin between agents: win-rate matrix, ratings with intervals, files and a plot.
    With --sprt, a sequential test between two agents instead; with --players, one agent
    against a field of another."""
    from matanui.ai import make_agent
    from matanui.ai.policy import PolicyAgent
    from matanui.arena import field, report, tournament
    from matanui.arena.match import game_on
    from matanui.arena.ratings import matrix_interval, ratings_with_intervals, win_matrix

    names = split_agents(agents)
    pack = None if data is None else str(data.resolve())
    try:
        games.require(game)
        if len(set(names)) < 2:
            raise MatanuiError("--agents needs at least two different agents, e.g. random,heuristic")
        if games_per_pair < 1 or workers < 1:
            raise MatanuiError("--games and --workers must be at least 1")
        for name in names:
            agent = make_agent(name, game)
            if isinstance(agent, PolicyAgent):
                agent.check_players(players or 2)
        played = game_on(game, pack)
        options = played.parse_options(option)
        field_specs = None
        if players is not None:
            if pairs or sprt is not None:
                raise MatanuiError("--players plays a field of fixed length: it does not combine with "
                                   "--pairs or --sprt, which compare two agents in two-player games")
            field_specs = field.field_specs(game, names, players, games_per_pair, seed=seed,
                                            options=options, data=pack)
        played.new_game(0, played.characters()[:players or 2], options)
    except MatanuiError as error:
        fail(error)
    if played.data:
        console.print(f"On the data pack {literal(played.data['name'])} ({played.data['hash']}).")
    folder = out / game
    try:
        journal = tournament.Journal(folder / "games.jsonl")
    except MatanuiError as error:
        fail(error)
    if field_specs is not None:
        _arena_field(game, names, players or 0, field_specs, workers, journal, folder)
        return
    if sprt is not None:
        _arena_sprt(game, names, sprt, alpha, beta, pairs, games_per_pair, seed, options, workers,
                    journal, folder, pack)
        return
    schedule = tournament.paired_round_robin if pairs else tournament.round_robin
    specs = schedule(game, names, games_per_pair, seed=seed, options=options, data=pack)
    outcomes = _play_journalled(f"{game} arena", specs, workers, journal)
    matrix = win_matrix(outcomes)
    table = Table("agent \\ opponent", *names, title=f"{game}: row agent's score (95% interval)")
    for a in names:
        cells = []
        for b in names:
            record = matrix.get(a, {}).get(b)
            if record is None:
                cells.append("-")
            else:
                low, high = matrix_interval(record)
                cells.append(f"{record.rate():.2f} ({low:.2f}-{high:.2f})")
        table.add_row(a, *cells)
    console.print(table)
    ratings = ratings_with_intervals(outcomes)
    rating_table = Table("agent", "rating", "95% interval", "s/move", "iterations/move", "iterations/s",
                         title="Bradley-Terry ratings (Elo scale, mean 0)")
    costs = report.per_agent_costs(outcomes)
    for r in ratings:
        cost = costs.get(r.agent, {})
        rating_table.add_row(r.agent, f"{r.rating:+.0f}", f"{r.low:+.0f} to {r.high:+.0f}",
                             f"{cost.get('seconds_per_move', 0):.3f}",
                             f"{cost.get('iterations_per_move', 0):.0f}",
                             f"{cost.get('iterations_per_second', 0):.0f}")
    console.print(rating_table)
    paths = report.write_results(outcomes, ratings, folder, played.data)
    paths.append(report.plot_matrix(outcomes, folder / "win-matrix.png", f"{game}: win rates"))
    console.print("Wrote " + ", ".join(str(p) for p in paths))


def _write_json(path: Path, data: dict) -> None:
    """A result file, written whole or not at all: a run killed while writing leaves the
    previous one, so a resumed test never reads half a file."""
    from matanui.engine.files import write_atomically

    write_atomically(path, json.dumps(data, indent=1) + "\n")


def _play_journalled(description: str, specs: list[MatchSpec], workers: int,
                     journal: Journal) -> list[GameOutcome]:
    """Play the games of `specs` that the journal lacks, the bar moving as each finishes."""
    from matanui.arena import tournament
    from matanui.progress import progress

    with progress(description, len(specs), source=journal.path) as bar:
        bar.resume(len(journal.done.keys() & set(specs)))
        return tournament.run(specs, workers=workers, on_result=lambda _: bar.advance(), journal=journal)


def _arena_field(game: str, names: list[str], players: int, specs: list[MatchSpec], workers: int,
                 journal: Journal, folder: Path) -> None:
    """`matanui arena --players`: play (or resume) the field's games, print and write field.json."""
    from matanui.arena.field import field_result

    outcomes = _play_journalled(f"{game} field", specs, workers, journal)
    result = field_result(game, outcomes, names[0], names[1], players)
    low, high = result.interval95
    table = Table("", f"{names[0]} against {players - 1} {names[1]}", title=f"{game}: one against the field")
    table.add_row("games (no winner)", f"{result.games} ({result.draws})")
    table.add_row("wins", f"{result.wins:g}")
    table.add_row("win share (95% interval)", f"{result.share:.3f} ({low:.3f}-{high:.3f})")
    table.add_row("fair share", f"{result.fair_share:.3f}")
    for entry in result.per_seat:
        table.add_row(f"share in seat {entry['seat']}", f"{entry['share']:.3f} of {entry['games']}")
    for agent, cost in result.costs.items():
        table.add_row(f"{agent}: s / iterations a move", f"{cost['seconds_per_move']:.3f} / "
                      f"{cost['iterations_per_move']:.0f}")
    console.print(table)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "field.json"
    _write_json(path, result.to_dict())
    console.print(f"Wrote {path}")


def _arena_sprt(game: str, names: list[str], bounds_text: str, alpha: float, beta: float, pairs: bool,
                max_games: int, seed: int, options: dict, workers: int, journal: Journal,
                folder: Path, data: str | None = None) -> None:
    """`matanui arena --sprt`: play until the test decides, print and write sprt.json."""
    from matanui.arena import report
    from matanui.arena.ratings import ratings_with_intervals
    from matanui.arena.sprt import Sprt, SprtResult
    from matanui.progress import progress

    try:
        if len(names) != 2:
            raise MatanuiError("--sprt compares exactly two agents: --agents NEW,BASE")
        try:
            elo0, elo1 = (float(x) for x in bounds_text.split(","))
        except ValueError:
            raise MatanuiError(f"--sprt takes ELO0,ELO1, two numbers such as 0,100, "
                               f"not {bounds_text!r}") from None
        samples = (max_games + 1) // 2 if pairs else max_games
        test = Sprt(game, names[0], names[1], elo0=elo0, elo1=elo1, alpha=alpha, beta=beta,
                    paired=pairs, max_samples=samples, seed=seed, options=options, data=data)
    except MatanuiError as error:
        fail(error)
    folder.mkdir(parents=True, exist_ok=True)

    def write(result: SprtResult) -> None:
        _write_json(folder / "sprt.json", result.to_dict())

    scheduled = [spec for sample in test.samples for spec in sample]
    with progress(f"{game} SPRT", len(scheduled), source=journal.path) as bar:
        bar.resume(len(journal.done.keys() & set(scheduled)))

        def on_sample(result: SprtResult) -> None:
            """Show where the test stands, and keep sprt.json current: a test stopped early
            still says where it stood."""
            write(result)
            bar.describe(f"{game} SPRT: score {result.score:.3f}, LLR {result.llr:+.2f} "
                         f"({result.lower_bound:+.2f}, {result.upper_bound:+.2f})")

        result, outcomes = test.play(workers=workers, journal=journal, on_sample=on_sample,
                                     on_game=lambda _: bar.advance())
    table = Table("", names[0] + " against " + names[1], title=f"{game}: SPRT elo0={elo0:g} elo1={elo1:g} "
                  f"alpha={alpha:g} beta={beta:g} ({result.model})")
    low, high = result.interval95
    for label, value in (("games", str(result.games)),
                         ("results" + (" (pairs 0..1 by quarters)" if pairs else " (L/D/W)"),
                          " / ".join(map(str, result.counts))),
                         ("score (95% interval)", f"{result.score:.3f} ({low:.3f}-{high:.3f})"),
                         ("Elo (95% interval)", f"{result.elo:+.0f} ({result.elo_interval95[0]:+.0f} to "
                                                f"{result.elo_interval95[1]:+.0f})"),
                         ("LLR (bounds)", f"{result.llr:+.2f} ({result.lower_bound:+.2f}, "
                                          f"{result.upper_bound:+.2f})"),
                         ("verdict", {"H1": f"H1 accepted: {names[0]} is at least {elo1:g} Elo stronger",
                                      "H0": f"H0 accepted: {names[0]} is not {elo1:g} Elo stronger",
                                      "undecided": "undecided: --games reached before either bound"}
                          [result.verdict])):
        table.add_row(label, value)
    console.print(table)
    write(result)
    paths = report.write_results(outcomes, ratings_with_intervals(outcomes), folder)
    console.print("Wrote " + ", ".join(str(p) for p in [folder / "sprt.json", *paths]))
