"""The `matanui` command: every interface of the project behind one entry point."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from matanui import __version__, games
from matanui.ai import levels
from matanui.ai.analysis import ANALYSIS_ITERATIONS
from matanui.ai.settings import split_agents
from matanui.engine import MatanuiError, Record, replay
from matanui.games.text import literal
from matanui.numbers import integer
from matanui.packs_cli import data_app

if TYPE_CHECKING:
    from matanui.arena.tournament import GameOutcome, Journal, MatchSpec
    from matanui.terminal.boards import BoardPrinter

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="matanui: play and study three BIONICLE tabletop games of 2001-2002.",
)
console = Console(highlight=False)


def read_bad_bytes_as_text() -> None:
    """Bytes that are not text in the terminal's encoding are read as '\ufffd' (then
    answered like any unreadable answer) rather than raising UnicodeDecodeError."""
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")


def fail(error: Exception) -> None:
    """Print a clear error and exit with status 2 (bad input changes nothing)."""
    words = literal(str(error), keep="\n")  # a pack's problems are one a line
    console.print(f"[bold red]error:[/] {words}")
    raise typer.Exit(2)


PLAIN_HELP = ("Line by line instead of the full screen (for screen readers, pipes and scripts; "
              "chosen by itself when stdin or stdout is not a terminal).")


def full_screen(plain: bool) -> bool:
    """The full-screen app, unless --plain or stdin/stdout is not a terminal."""
    return not plain and sys.stdin.isatty() and sys.stdout.isatty()


def say_after(words: str | None) -> None:
    """What the full screen has to say once it is closed (the resume command, ...)."""
    if words:
        console.print(literal(words))


def print_version(value: bool) -> None:
    """Eager: runs while the command line is read, so `matanui --version` needs no command."""
    if value:
        console.print(f"matanui {__version__}")
        raise typer.Exit()


@app.callback()
def main_callback(
    version: bool = typer.Option(False, "--version", callback=print_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    """matanui: play and study three BIONICLE tabletop games of 2001-2002."""


@app.command("games")
def list_games() -> None:
    """List the games, their players, characters and options."""
    for name in games.names():
        game = games.get(name)
        players = str(game.min_players) if game.min_players == game.max_players else \
            f"{game.min_players}-{game.max_players}"
        console.print(f"[bold]{name}[/]: {game.title}, {players} players")
        console.print(f"  characters: {', '.join(game.characters())}")
        for key, option in game.options_schema().items():
            console.print(f"  -o {key}={option.synopsis()}  {literal(option.help)} "
                          f"(default {literal(option.default_words())})")


def options_help() -> str:
    """The help of -o: every game's options and their values, from the games' schemas."""
    per_game = []
    for name in games.names():
        schema = games.get(name).options_schema()
        per_game.append(f"{name}: " + ", ".join(f"{key}={o.synopsis()}" for key, o in schema.items()))
    return ("Game option key=value (repeatable); `matanui games` says what each does. "
            + "; ".join(per_game) + ".")


OPTIONS_HELP = options_help()
DATA_HELP = ("A data pack's folder (`matanui data export`): play on its cards and boards "
             "instead of the built-in data.")


@app.command()
def rules(game: str = typer.Argument(..., help="Which game (see `matanui games`).")) -> None:
    """How to play a game, with the key to every symbol of its board."""
    from matanui.games.guide import page_markdown

    if game not in games.names():
        fail(MatanuiError(games.unknown(game)))
    console.print(Markdown(page_markdown(game)))


@app.command()
def play(
    game: str | None = typer.Argument(None, help="Which game (see `matanui games`; default "
                                      "reconstruct)."),
    as_: str | None = typer.Option(None, "--as", help="Your character, e.g. tahu."),
    vs: str | None = typer.Option(None, "--vs", help="Bot level(s) for the other seats, "
                                  "comma-separated for several seats (default medium): "
                                  + levels.help_text()),
    opponent: list[str] = typer.Option([], "--opponent", help="Character for the next seat (repeatable)."),
    players: int | None = typer.Option(None, "--players", parser=integer, help="Number of players."),
    seed: int | None = typer.Option(None, "--seed", parser=integer,
                                    help="Seed: the same seed and moves give the "
                                    "same game (default: a fresh one, printed)."),
    hotseat: bool = typer.Option(False, "--hotseat", help="All seats are people at this terminal."),
    option: list[str] = typer.Option([], "-o", "--option", help=OPTIONS_HELP),
    save: Path | None = typer.Option(None, "--save", help="Where to save the game record."),
    resume: Path | None = typer.Option(None, "--resume", help="Continue a saved game, seated as "
                                       "it was saved (--hotseat or --vs change the seating)."),
    data: Path | None = typer.Option(None, "--data", help=DATA_HELP),
    plain: bool = typer.Option(False, "--plain", help=PLAIN_HELP),
) -> None:
    """Play a game in the terminal against bots, or hot-seat. The game is saved after every move."""
    from matanui.terminal.session import build_session

    read_bad_bytes_as_text()

    drawn = seed is None and resume is None
    if drawn:
        seed = random.SystemRandom().randrange(1_000_000)
    try:
        session = build_session(
            game_name=game, me=as_, vs=vs, opponents=opponent, seed=seed, players=players,
            hotseat=hotseat, options=option, save=save, resume=resume,
            console=console, ask=lambda prompt: console.input(f"[bold]{prompt}[/] "), data=data,
        )
    except MatanuiError as error:
        fail(error)
    if drawn:  # only once the game can be played: a refusal is its one line
        console.print(f"Seed {seed} (replay this deal with --seed {seed}).")
    if session.state.game.data:
        console.print(f'Playing on data pack "{literal(session.state.game.data["name"])}".')
    if full_screen(plain):
        from matanui.tui.play import PlayApp

        say_after(PlayApp(session).run())
    else:
        session.run()


@app.command()
def tutorial(
    game: str = typer.Argument(..., help="Which game (see `matanui games`)."),
    number: int | None = typer.Argument(None, parser=integer,
                                        help="Which of its tutorials (default: the first; "
                                        "with --check, all)."),
    check: bool = typer.Option(False, "--check", help="Walk the tutorial(s) through the engine "
                               "without stopping; exit 1 if a step or outcome no longer matches."),
    plain: bool = typer.Option(False, "--plain", help=PLAIN_HELP),
) -> None:
    """Learn a game from the rulebook's own examples, move by move."""
    from matanui.terminal import tutorial as terminal_tutorial
    from matanui.tutorial import tutorial as one_tutorial
    from matanui.tutorial import tutorials

    read_bad_bytes_as_text()
    try:
        lessons = tutorials(game) if check and number is None else [one_tutorial(game, number or 1)]
    except MatanuiError as error:
        fail(error)
    if check:
        raise typer.Exit(0 if terminal_tutorial.check_all(lessons, console) else 1)
    others = [f"{t.number}. {t.title}" for t in tutorials(game) if t.number != lessons[0].number]
    if others:
        console.print(f"[dim]Also: {literal('; '.join(others))} (matanui tutorial {game} N)[/]")
    if full_screen(plain):
        from matanui.tui.lesson import PLAY_ON, LessonApp

        said = LessonApp(lessons[0]).run()
        if said != PLAY_ON:
            say_after(said)
            return
        from matanui.terminal.session import play_on_session
        from matanui.tui.play import PlayApp

        session = play_on_session(lessons[0], "medium", console,
                                  lambda prompt: console.input(f"[bold]{prompt}[/] "))
        say_after(PlayApp(session).run())
        return
    terminal_tutorial.run(lessons[0], console, lambda prompt: console.input(f"[bold]{prompt}[/] "))


@app.command("replay")
def replay_command(
    path: Path = typer.Argument(..., help="A saved game record (JSON)."),
    seat: int | None = typer.Option(None, "--seat", parser=integer,
                                    help="Watch as this player (1 for Player 1, "
                                       "...); default: the public view."),
    all_: bool = typer.Option(False, "--all", help="Print the whole game without stopping."),
    data: Path | None = typer.Option(None, "--data", help="The data pack the game was played "
                                     "with, when it was (the record names it)."),
    plain: bool = typer.Option(False, "--plain", help=PLAIN_HELP),
) -> None:
    """Step through a saved game, forwards and back, with what each action did."""
    from matanui.games.packs import game_for
    from matanui.terminal.boards import BoardPrinter

    try:
        record = Record.load(path)
        game = game_for(record.game, data)
        final = replay(record, game=game)
    except MatanuiError as error:
        fail(error)
    players = len(final.players)
    if seat is not None and not 1 <= seat <= players:
        fail(MatanuiError(f"--seat must be a player from 1 to {players}"))
    viewer = None if seat is None else seat - 1
    render = games.renderer(record.game).render
    total = len(record.actions)
    if full_screen(plain) and not all_:
        from matanui.tui.replay import ReplayApp

        say_after(ReplayApp(record, game, viewer).run())
        return
    boards = BoardPrinter(console)
    if all_:
        state = replay(record, 0, game=game)
        narrate(getattr(state, "setup_events", []), viewer, boards)
        for action in record.actions:
            narrate(state.apply(action), viewer, boards)
        boards.print(render(state.game, state.observation(viewer), state.names))
        return
    step: int | None = 0
    while step is not None:
        if step == 0:
            state = replay(record, 0, game=game)
            narrate(getattr(state, "setup_events", []), viewer, boards)
        else:  # the action that led here, and what it did
            state = replay(record, step - 1, game=game)
            words = literal(state.describe(record.actions[step - 1]))
            who = literal(state.names[state.current_player])
            boards.say(f"[bold]Action {step}, {who}:[/] {words}", hang=2)
            narrate(state.apply(record.actions[step - 1]), viewer, boards)
        boards.print(render(state.game, state.observation(viewer), state.names),
                     title=f"after action {step} of {total}")
        step = next_replay_step(step, total)


@app.command("analyse")
def analyse_command(
    path: Path = typer.Argument(..., help="A saved game record (JSON)."),
    png: Path | None = typer.Option(None, "--png", help="Where to save the chart of each player's "
                                    "chance (default: beside the record, .analysis.png)."),
    iterations: int = typer.Option(ANALYSIS_ITERATIONS, "--iterations", min=10, max=100_000,
                                   help="Search iterations behind each estimate."),
    seed: int = typer.Option(0, "--seed", parser=integer, help="The searches' seed: the same record "
                             "and seed give the same analysis."),
    data: Path | None = typer.Option(None, "--data", help="The data pack the game was played "
                                     "with, when it was (the record names it)."),
) -> None:
    """Judge every decision of a game from the deciding player's own view: each player's chance
    of winning before and after, the best move found, and inaccuracies, mistakes and blunders
    (chance lost: 10, 20 and 30 points); a table, then a chart as a PNG."""
    from matanui.ai.analysis import analyse
    from matanui.analysis_report import decision_line, plot, print_turning_points, summary
    from matanui.games.packs import game_for

    try:
        record = Record.load(path)
        game = game_for(record.game, data)
        names = replay(record, 0, game=game).names
    except MatanuiError as error:
        fail(error)
    judged = []
    for decision in analyse(record, game, seed, iterations):
        judged.append(decision)
        console.print(decision_line(decision, names), highlight=False)
    if not judged:
        fail(MatanuiError(f"{path}: the record holds no decision to judge"))
    console.print(summary(judged, names))
    print_turning_points(console, judged, names)
    chart = png or path.with_suffix(".analysis.png")
    plot(judged, names, chart, f"{game.title}: each player's chance of winning")
    console.print(f"Chart: {literal(str(chart))}")


def narrate(events: list, viewer: int | None, boards: BoardPrinter) -> None:
    """What the events say as `viewer` may see them, wrapped to the width of the board's box."""
    for event in events:
        boards.say(f"  {literal(event.view(viewer)['text'])}", hang=4)


def replay_prompt(total: int) -> str:
    """The keys of the replay, as the person sees them (brackets escaped from Rich markup)."""
    return literal(f"[Enter] or [n] next, [b] back, [0-{total}] go to that action, [q] quit: ")


def next_replay_step(step: int, total: int) -> int | None:
    """Ask where to go from `step`; None to stop (q, Ctrl-C or end of input). An answer that
    cannot be read is answered and asked again, and so is Enter after the last action: it
    says the replay is at its end and how to leave or go back, rather than ending unsaid."""
    from matanui.terminal.answers import BadAnswer, ask_readable, number_in

    while True:
        answer = ask_readable(console, lambda: console.input(replay_prompt(total)))
        if answer is None:
            return None
        try:
            number = number_in(answer)
        except BadAnswer as problem:
            console.print(f"[red]{literal(str(problem))}[/]")
            continue
        if answer.lower() == "q":
            return None
        if answer.lower() == "b":
            return max(0, step - 1)
        if number is not None:
            return min(total, number)
        if (not answer or answer.lower() == "n") and step < total:
            return step + 1
        if not answer or answer.lower() == "n":
            console.print(f"This is the end of the replay (action {total} of {total}): type q to "
                          f"leave, b to go back one action, or a number from 0 to {total} to go "
                          "to that action.")
            continue
        console.print(f"[red]{literal(answer)} is not an answer here: press Enter or n, or type b, a "
                      f"number from 0 to {total}, or q.[/]")


@app.command()
def bench(
    game: list[str] = typer.Argument(None, help="Games to measure (default: all)."),
    seconds: float = typer.Option(3.0, "--seconds", help="Time per game."),
    players: int | None = typer.Option(None, "--players", parser=integer,
                                       help="Number of players (default: each "
                                       "game at its fewest and its most)."),
    profile: bool = typer.Option(False, "--profile", help="Profile with pyinstrument."),
    data: Path | None = typer.Option(None, "--data", help=DATA_HELP + " Measures the pack's game."),
    batch: int | None = typer.Option(None, "--batch", parser=integer, min=1,
                                     help="Also the batched engine with this many games at once (on all "
                                     "cores), beside the reference (python) and OpenSpiel's C++ "
                                     "leduc_poker."),
) -> None:
    """Random-playout speed: steps/s and games/s on one core (--batch: batched, all cores)."""
    from matanui.games.packs import read
    from matanui.progress import progress
    from matanui.studies.bench import (
        configurations,
        machine_summary,
        run_batched,
        run_openspiel,
        run_playouts,
    )

    try:
        names = game or ([read(data).game] if data else games.names())
    except MatanuiError as error:
        fail(error)
    for name in names:
        if name not in games.names():
            fail(MatanuiError(games.unknown(name)))
    runs = [(name, count, None) for name, count in configurations(players) if name in names]
    if not runs:
        fail(MatanuiError(f"none of {', '.join(names)} is played by {players} players"))
    if batch is not None:
        from matanui.batch import BATCHED

        if batch < 1:
            fail(MatanuiError(f"--batch is how many games are stepped at once: 1 or more, not {batch}"))
        if data is not None:
            fail(MatanuiError("--batch measures the built-in games; a data pack has no batched engine"))
        runs = [run for name, count, _ in runs for run in
                [(name, count, None)] + ([(name, count, batch)] if name in BATCHED and count == 2 else [])]
        runs.append(("leduc_poker", 2, 0))  # OpenSpiel's C++ game: the yardstick
    console.print(machine_summary())
    table = Table("game", "players", "engine", "games", "steps", "seconds", "steps/s", "games/s")
    profiler = None
    if profile:
        try:
            from pyinstrument import Profiler
        except ImportError:
            fail(MatanuiError("--profile needs pyinstrument (pip install 'matanui[dev]')"))
        profiler = Profiler()
        profiler.start()
    try:
        with progress("bench", len(runs), unit="measurements") as bar:
            for name, count, games_at_once in runs:
                engine = ("python" if games_at_once is None else "C++"
                          if games_at_once == 0 else f"batched x{games_at_once}")
                label = f"{name}, {count} players" + ("" if batch is None else f", {engine}")
                bar.describe(f"bench: {label}")
                if games_at_once is None:
                    result = run_playouts(name, seconds=seconds, players=count, data=data)
                elif games_at_once == 0:
                    result = run_openspiel(name, seconds=seconds)
                else:
                    result = run_batched(name, games_at_once, seconds=seconds)
                row = (name, str(result.players), engine, str(result.games), str(result.steps),
                       f"{result.seconds:.2f}", f"{result.steps_per_second:,.0f}",
                       f"{result.games_per_second:,.1f}")
                table.add_row(*row)
                bar.log(f"{label}: {row[6]} steps/s, {row[7]} games/s "
                        f"({row[3]} games in {row[5]} s)")
                bar.advance()
    except MatanuiError as error:
        fail(error)
    if profiler is not None:
        profiler.stop()
        console.print(profiler.output_text(unicode=True, color=False))
    console.print(table)


@app.command()
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


@app.command()
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


@app.command()
def simulate(
    game: str = typer.Argument(..., help="Which game."),
    games_count: int = typer.Option(1000, "--games", parser=integer,
                                    help="Number of games in all (a resumed run "
                                    "plays only the ones the results file lacks)."),
    agents: str = typer.Option("heuristic", "--agents", help="One agent for every seat, or one per "
                               "seat, comma-separated: random, heuristic, hard@SECONDS, ismcts@N."),
    players: int | None = typer.Option(None, "--players", parser=integer, help="Number of players."),
    workers: int = typer.Option(1, "--workers", parser=integer,
                                help="Processes (or Ray CPUs) to play on."),
    backend: str = typer.Option("local", "--backend", help="local (process pool) or ray."),
    address: str | None = typer.Option(None, "--address", help="Ray cluster to join: its head's "
                                       "HOST:PORT, with its token in RAY_AUTH_TOKEN (default: start a "
                                       "local one)."),
    seed: int = typer.Option(0, "--seed", parser=integer, help="Seed of game 0; game i uses seed + i."),
    option: list[str] = typer.Option([], "-o", "--option", help=OPTIONS_HELP),
    out: Path | None = typer.Option(None, "--out", help="Results file (SQLite; default "
                                    "GAME-results.sqlite)."),
    chunk: int = typer.Option(200, "--chunk", parser=integer,
                              help="Games per commit to the results file (and per "
                              "task with --backend ray); a process pool hands out smaller pieces, "
                              "so that progress moves."),
    data: Path | None = typer.Option(None, "--data", help=DATA_HELP + " The results file keeps "
                                     "the pack's name and hash; resuming on other data is refused."),
) -> None:
    """Batch self-play over every character pairing and seat order, resumable, for `report`."""
    from matanui.arena.backends import LocalBackend, RayBackend
    from matanui.arena.batch import simulate as run_simulation
    from matanui.arena.match import game_on
    from matanui.arena.simulate import Job
    from matanui.progress import progress

    path = out or Path(f"{game}-results.sqlite")
    try:
        if backend not in ("local", "ray"):
            raise MatanuiError(f"--backend must be local or ray, not {backend!r}")
        if address and backend != "ray":
            raise MatanuiError("--address is for --backend ray")
        pack = None if data is None else str(data.resolve())
        job = Job.build(game, split_agents(agents), games_count, seed, players,
                        game_on(game, pack).parse_options(option), pack)
        runner = RayBackend(address, workers) if backend == "ray" else LocalBackend(workers)
    except MatanuiError as error:
        fail(error)
    try:
        with progress(f"{game} self-play", job.games, source=path) as bar:
            played = run_simulation(job, str(path), runner, chunk, lambda done, _: bar.reach(done),
                                    bar.resume)
    except MatanuiError as error:
        fail(error)
    except KeyboardInterrupt:
        console.print(f"Interrupted. Finished games are kept in {path}; run the same command "
                      "again to resume.")
        raise typer.Exit(130) from None
    console.print(f"Played {played} games; {path} holds the results. Next: matanui report {path}")


@app.command()
def report(
    results: Path = typer.Argument(..., help="A results file from `matanui simulate`."),
    out: Path | None = typer.Option(None, "--out", help="Folder for report.html and report.json "
                                    "(default: next to the results, RESULTS-report)."),
) -> None:
    """Balance report of a simulation: HTML with plots, and the same figures as JSON."""
    from matanui.arena.htmlreport import headline, write_report

    folder = out or results.with_name(results.stem + "-report")
    try:
        paths = write_report(results, folder)
    except MatanuiError as error:
        fail(error)
    from matanui.arena.simulate import data_words

    data = json.loads(paths[0].read_text(encoding="utf-8"))
    console.print(f"Played on {literal(data_words(data['job']))}.")
    table = Table(show_header=False, title=f"{literal(data['title'])}: balance report "
                  "(95% Wilson intervals)")
    for what, value in headline(data):
        table.add_row(what, literal(value))
    console.print(table)
    console.print("Wrote " + ", ".join(str(p) for p in paths))


@app.command()
def train(
    game: str = typer.Argument(..., help="Which game: reconstruct, masks or makuta."),
    players: int | None = typer.Option(None, "--players", parser=integer, help="Players in each "
                                       "game (Makuta: 2 to 6); by default the game's fewest."),
    encoding: str = typer.Option("full", "--encoding", help="The observation encoding the policy "
                                 "reads: full, or Makuta's compact (a far smaller input)."),
    steps: int = typer.Option(100_000, "--steps", parser=integer, help="Learner steps (at least; "
                              "whole updates of --envs x 128 steps)."),
    opponents: str = typer.Option("random,heuristic", "--opponents", help="Comma-separated opponents, "
                                  "one per environment in turn, each met from both seats: agent names, "
                                  "ppo, MODULE:CALLABLE or PATH.npz."),
    out: Path = typer.Option(..., "--out", help="The policy file to write (PATH.npz); the learning "
                             "curve goes beside it as PATH-curve.csv and PATH-curve.png."),
    seed: int = typer.Option(0, "--seed", parser=integer, help="Seed: the same seed, the same weights."),
    hidden: str = typer.Option("64", "--hidden", help="Hidden layer widths of the policy, e.g. 64 or 64,64."),
    value_hidden: str = typer.Option("32", "--value-hidden", help="Hidden layer widths of the value head."),
    envs: int = typer.Option(16, "--envs", parser=integer, help="Environments stepped in lock-step."),
    gamma: float = typer.Option(0.99, "--gamma", help="Discount per step, above 0 and at most 1 (1 for "
                                "long games whose only reward is the end)."),
    rate: float = typer.Option(3e-4, "--rate", help="Adam's learning rate, above 0 and at most 1."),
    start_from: Path | None = typer.Option(None, "--start-from", help="Train on from this policy file "
                                           "(PATH.npz of the same game; its layer widths are kept)."),
) -> None:
    """Train a policy with PPO (numpy only) against fixed opponents; writes a policy file that
    `--agents PATH.npz` (and `ppo`, once committed) plays."""
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: reproducible sums, a fair share of CPU
    command = (f"matanui train {game} " + (f"--players {players} " if players else "")
               + (f"--encoding {encoding} " if encoding != "full" else "")
               + f"--steps {steps} --opponents {opponents} --out {out} --seed {seed} "
               f"--hidden {hidden} --value-hidden {value_hidden} --envs {envs} --gamma {gamma:g} "
               f"--rate {rate:g}" + (f" --start-from {start_from}" if start_from else ""))
    try:
        from matanui.ai.policy import require_numpy

        require_numpy()
        from matanui.train import run
    except MatanuiError as error:
        fail(error)
    try:
        paths = run.train_to_files(game, steps, split_agents(opponents), out, seed,
                                   run.widths(hidden, "--hidden"), run.widths(value_hidden, "--value-hidden"),
                                   envs, gamma, rate, command, console.print, start_from, players, encoding)
    except MatanuiError as error:
        fail(error)
    console.print(f"wrote {', '.join(map(str, paths))}")


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", parser=integer, help="Port to listen on."),
    database: str = typer.Option("sqlite:///matanui.db", "--database", help="SQLAlchemy URL: "
                                 "sqlite:///FILE or postgresql+psycopg://USER:PASSWORD@HOST/DB."),
    bot_workers: int = typer.Option(1, "--bot-workers", parser=integer,
                                    help="Processes that run the bots."),
    bot_pace: float = typer.Option(0.6, "--bot-pace", help="Least seconds between a bot's move "
                                   "and the action before it, so people can follow."),
    response_window: float = typer.Option(3.0, "--response-window", help="Seconds a person's "
                                          "response window (Reconstruct: a stop card?) stays open, "
                                          "the same whether or not they could answer."),
    allowed_host: list[str] = typer.Option(
        [], "--allowed-host", help="A Host name the server answers to (repeat for several); "
        "default: localhost, 127.0.0.1 and [::1]. Others are refused, against DNS rebinding."),
    limit: list[str] = typer.Option([], "--limit", help="NAME=VALUE: change one of the limits "
                                    "of docs/protocol.md, e.g. games_per_minute=20 (repeatable)."),
    data_dir: Path | None = typer.Option(None, "--data-dir", help="A folder of data packs (one "
                                         "per subfolder): each good one is offered in the lobby "
                                         "for its game."),
    trusted_proxy: list[str] = typer.Option(
        [], "--trusted-proxy", help="The address (or network) of a reverse proxy in front of the "
        "server (repeat for several): its X-Forwarded-For names the client. From anyone else "
        "the header is ignored; default: none."),
) -> None:
    """Run the web service: play every game in the browser, against people and bots."""
    from matanui.server.serve import serve as run_server

    try:
        run_server(host, port, database, bot_workers, bot_pace, limit, tuple(allowed_host),
                   None if data_dir is None else str(data_dir), response_window, tuple(trusted_proxy))
    except MatanuiError as error:
        fail(error)


app.add_typer(data_app, name="data")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
