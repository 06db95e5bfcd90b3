"""Quest for the Masks drawn as text (Rich console markup) from one seat's observation: the
map with both Toa Masks, a legend, each player's Toa card with effective skills, attached and
unattached cards, hand and Mission queue, also as `regions`, with `targets` placing on the
map the spaces the engine says the actions act on. Fits an 80-column terminal: a space takes three
columns, or two on the whole island (28 spaces wide)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..text import WIDTH, Regions, Target, compose, game_over, literal, seat_names
from .cards import SKILL_NAMES
from .maps import ROW_LETTERS, Board, Symbol
from .rules import MasksGame

ROW_LABEL = 4  # "  A " before each row of the map
# How each kind of space looks (three columns per space); names come from the map's legend.
KIND_STYLE = {"sea": "on blue", "blank": "dim", "west_start": "dim", "east_start": "dim",
              "mission": "bold magenta", "challenge": "bold red", "game_action": "bold green",
              "portal": "bold cyan"}
TOA_STYLE = {"tahu": "bold white on red", "kopaka": "bold black on white", "onua": "bold white on magenta",
             "lewa": "bold black on green", "pohatu": "bold black on yellow", "gali": "bold white on blue"}


def glyph(symbol: Symbol, cols: int = 3) -> str:
    """A space as `cols` (3 or 2) columns of markup: ' C ' or 'C ', 'C C' or 'CC' for a double
    space, ' · ' or '· ' for blank."""
    letter = symbol.symbol[:1]
    if symbol.kind == "sea":
        text = " " * cols
    elif symbol.kind == "blank":
        text = "·".center(cols) if cols == 3 else "· "
    elif symbol.circles == 2:
        text = f"{letter} {letter}" if cols == 3 else letter * 2
    else:
        text = letter.center(cols) if cols == 3 else letter + " "
    return f"[{KIND_STYLE[symbol.kind]}]{text}[/]"


def columns(board: Board) -> int:
    """Columns a space takes: three where the map fits in them, else two."""
    return 3 if ROW_LABEL + 3 * board.width <= WIDTH else 2


def legend(game: MasksGame, cols: int = 3, width: int = WIDTH) -> str:
    """The legend of the map file: glyph and name of each kind of space, wrapped to `width`."""
    lines: list[list[str]] = [[]]
    used = 0
    for symbol in game.maps.legend.values():
        size = cols + 1 + len(symbol.name) + 2  # glyph, space, name, gap
        if used + size > width and lines[-1]:
            lines.append([])
            used = 0
        lines[-1].append(f"{glyph(symbol, cols)} {literal(symbol.name)}")
        used += size
    return "\n".join("  ".join(line) for line in lines)


def map_top(board: Board) -> int:
    """Lines of column numbers above the map's first row: one, or two (tens above units)."""
    return 1 if columns(board) == 3 else 2


def draw_map(game: MasksGame, board: Board, obs: dict[str, Any]) -> list[str]:
    masks = {board.cell(label): seat for seat, label in enumerate(obs["positions"])}
    cols = columns(board)
    numbers = [str(col + 1) for col in range(board.width)]
    if cols == 3:
        lines = [" " * ROW_LABEL + "".join(f"{n:^3}" for n in numbers)]
    else:  # tens above units, so that 10 and 11 do not run together
        lines = [" " * ROW_LABEL + "".join(f"{n[:-1]:<2}" for n in numbers),
                 " " * ROW_LABEL + "".join(f"{n[-1]:<2}" for n in numbers)]
    for row in range(board.height):
        cells = []
        for col in range(board.width):
            cell = row * board.width + col
            if cell in masks:
                toa = obs["players"][masks[cell]]
                name = game.cards.toa[toa].name[:2]
                cells.append(f"[{TOA_STYLE.get(toa, 'reverse')}]{name:^{cols}}[/]")
            else:
                cells.append(glyph(game.maps.legend[board.symbols[cell]], cols))
        lines.append(f"  {ROW_LETTERS[row]} " + "".join(cells))
    return lines


def skills_lines(game: MasksGame, seat_obs: dict[str, Any]) -> list[str]:
    """The six skills, three to a line so that a bonus never breaks a line."""
    base = game.cards.toa[seat_obs["toa"]].skills
    parts = []
    for name, value, bare in zip(SKILL_NAMES, seat_obs["skills"], base, strict=True):
        extra = f" [green](+{value - bare})[/]" if value != bare else ""
        parts.append(f"{name} [bold]{value}[/]{extra}")
    return ["  " + "  ".join(parts[:3]), "  " + "  ".join(parts[3:])]


def card_name(game: MasksGame, number: int) -> str:
    card = game.cards.mask_cards[number]
    return literal(f"{card.name} (#{number}: {card.text})")


def action_card(game: MasksGame, number: int) -> str:
    card = game.cards.actions[number]
    return f"[bold]#{number} {literal(card.name)}[/]: {literal(card.text)}"


def player_lines(game: MasksGame, obs: dict[str, Any], seat: int, name: str) -> list[str]:
    me = obs["toa"][seat]
    toa = game.cards.toa[me["toa"]]
    you = " (you)" if obs["seat"] == seat else ""
    turn = "  [bold yellow]<- to decide[/]" if obs["current_player"] == seat else ""
    who = f"[bold]{name}[/] " if name != literal(toa.name) else ""
    lines = [f"{who}[{TOA_STYLE.get(me['toa'], 'bold')}] {literal(toa.name)} [/]{you} "
             f"at {obs['positions'][seat]}, Great Masks {me['masks']}/{obs['masks_to_win']}{turn}"]
    # the hand first: on a small screen it is what the seat needs in view while deciding
    if obs["seat"] == seat and obs["hand"] is not None:
        lines.append(f"  Hand ({len(obs['hand'])}/5):" + ("" if obs["hand"] else " empty"))
        lines += [f"    {action_card(game, n)}" for n in obs["hand"]]
    else:
        known = me["known_in_hand"]
        seen = f" (known: {', '.join(f'#{n}' for n in known)})" if known else ""
        lines.append(f"  Hand: {me['hand_size']} card{'s' if me['hand_size'] != 1 else ''}{seen}")
    lines += skills_lines(game, me)
    mask = card_name(game, me["mask"]) if me["mask"] else "none"
    turaga = card_name(game, me["turaga"]) if me["turaga"] else "none"
    lines += [f"  Attached Great Mask: {mask}", f"  Attached Turaga: {turaga}"]
    loose = [card_name(game, n) for n in me["won"] if n not in (me["mask"], me["turaga"])]
    if loose:
        lines.append("  Unattached: " + "; ".join(loose))
    for number, left in me["missions"]:
        mission = game.cards.missions[number]
        count = f" ({left} to go)" if mission.kind in ("discard", "skip") and left != mission.count else ""
        lines.append(f"  [magenta]Mission #{number}[/]: {literal(mission.text)}{count}")
    if me["skips"]:
        lines.append(f"  Skips the next {me['skips']} move{'s' if me['skips'] > 1 else ''} (Penalty)")
    closed = [label for label in (me["last_challenge"], me["last_game_action"]) if label]
    discard = ", ".join(f"#{n}" for n in me["action_discard"]) or "none"
    lines.append(f"  [dim]Piles: Great Mask/Turaga {me['mask_pile']}, Game Action {me['action_pile']} "
                 f"(discard {discard})[/]")
    lines.append(f"  [dim]May not go back to: {', '.join(closed) or 'nothing'}[/]")
    return lines


def regions(game: MasksGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> Regions:
    """The table as `obs`'s seat sees it, in parts; `names` are the seats' display names
    (default: the Toa's names)."""
    names = seat_names(game, obs, names)
    board = game.boards[obs["map"]]
    seat = obs["seat"]
    short = ", the shorter game" if obs["short"] else ""
    title = f"[bold]Quest for the Masks[/]: {literal(board.name)}{short}  turn {obs['turn']}"
    if obs["is_over"]:
        title += "  " + game_over(names, obs)
    players = [player_lines(game, obs, s, names[s]) for s in range(len(obs["players"]))]
    challenge_discard = ", ".join(f"#{n}" for n in obs["challenge_discard"]) or "none"
    mission_discard = ", ".join(f"#{n}" for n in obs["mission_discard"]) or "none"
    table = [line for s, lines in enumerate(players) if s != seat for line in lines]
    table.append(f"Great Mask Challenge pile {obs['challenge_pile']} (discard {challenge_discard}); "
                 f"Mission pile {obs['mission_pile']} (discard {mission_discard})")
    table += _decision(game, obs, names)
    top = map_top(board)
    cols = columns(board)
    pieces = []
    for label in obs["positions"]:
        row, col = divmod(board.space_cell(label), board.width)
        pieces.append((top + row, ROW_LABEL + cols * col))
    return Regions(title=title, board=draw_map(game, board, obs),
                   key=legend(game, cols).split("\n"),
                   mine=players[seat] if seat is not None else [], table=table,
                   pieces=tuple(pieces))


def _decision(game: MasksGame, obs: dict[str, Any], names: list[str]) -> list[str]:
    """The challenge, the window or the claim in progress."""
    lines = []
    challenge = obs["challenge"]
    if challenge:
        lander = challenge["lander"]
        scores = challenge["scores"]
        lines.append(f"[bold red]Great Mask Challenge[/]: Card #{challenge['card']} uses "
                     f"{challenge['skill'].capitalize()}. {names[lander]} landed: {scores[lander]} "
                     f"against {scores[1 - lander]} (the lander wins a tie).")
    if obs["phase"] == "anytime":  # MASKS-GA-ANY-TIME
        player = obs["current_player"]
        who = "You" if player == obs["seat"] else names[player]
        lines.append(f"{who} may play a Game Action card before the turn passes.")
    if obs["claim"]:
        claimer = obs["current_player"]
        who = "You have" if claimer == obs["seat"] else f"{names[claimer]} has"
        lines.append(f"{who} just won {card_name(game, obs['claim'])}.")
    return lines


def render(game: MasksGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The table as `obs`'s seat sees it, within 80 columns; `names` are the seats' display
    names (default: the Toa's names)."""
    return compose(regions(game, obs, names))


def targets(game: MasksGame, obs: dict[str, Any], spaces: Mapping[str, str]) -> dict[str, Target]:
    """Where on `regions(...).board` each space named in `spaces` ({action: space label},
    as the engine's `State.targets` names it: "F2") is drawn; a label not on the map is
    absent."""
    board = game.boards[obs["map"]]
    cols = columns(board)
    found = {}
    for action, label in spaces.items():
        cell = board.cell(label)
        if cell is None:
            continue
        row, col = divmod(cell, board.width)
        found[action] = Target(map_top(board) + row, ROW_LABEL + cols * col, cols, label)
    return found


def preview(game: MasksGame, obs: dict[str, Any], action: str) -> list[str] | None:
    """Quest for the Masks lays no boards: nothing to preview."""
    return None
