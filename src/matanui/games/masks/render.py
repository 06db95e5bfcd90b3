"""Quest for the Masks drawn as text (Rich console markup) from one seat's observation: the
map with both Toa Masks, a legend, each player's Toa card with effective skills, attached and
unattached cards, hand and Mission queue. Fits a 100-column terminal (the whole island is 88
columns wide)."""

from __future__ import annotations

from typing import Any

from .cards import SKILL_NAMES
from .maps import ROW_LETTERS, Board, Symbol
from .rules import MasksGame

WIDTH = 96  # the columns a line may take inside the terminal's panel
# How each kind of space looks (three columns per space); names come from the map's legend.
KIND_STYLE = {"sea": "on blue", "blank": "dim", "west_start": "dim", "east_start": "dim",
              "mission": "bold magenta", "challenge": "bold red", "game_action": "bold green",
              "portal": "bold cyan"}
TOA_STYLE = {"tahu": "bold white on red", "kopaka": "bold black on white", "onua": "bold white on magenta",
             "lewa": "bold black on green", "pohatu": "bold black on yellow", "gali": "bold white on blue"}


def escape(text: str) -> str:
    """Keep card texts from being read as markup."""
    return text.replace("[", "\\[")


def glyph(symbol: Symbol) -> str:
    """A space as three columns of markup: ' C ', 'C C' for a double space, ' · ' for blank."""
    if symbol.kind == "sea":
        text = "   "
    elif symbol.kind == "blank":
        text = " · "
    elif symbol.circles == 2:
        text = f"{symbol.symbol[0]} {symbol.symbol[0]}"
    else:
        text = symbol.symbol[:1].center(3)
    return f"[{KIND_STYLE[symbol.kind]}]{text}[/]"


def legend(game: MasksGame, width: int = WIDTH) -> str:
    """The legend of the map file: glyph and name of each kind of space, wrapped to `width`."""
    lines: list[list[str]] = [[]]
    used = 0
    for symbol in game.maps.legend.values():
        size = 3 + 1 + len(symbol.name) + 2  # glyph, space, name, gap
        if used + size > width and lines[-1]:
            lines.append([])
            used = 0
        lines[-1].append(f"{glyph(symbol)} {escape(symbol.name)}")
        used += size
    return "\n".join("  ".join(line) for line in lines)


def draw_map(game: MasksGame, board: Board, obs: dict[str, Any]) -> list[str]:
    masks = {board.cell(label): seat for seat, label in enumerate(obs["positions"])}
    lines = ["    " + "".join(f"{col + 1:>3}" for col in range(board.width))]
    for row in range(board.height):
        cells = []
        for col in range(board.width):
            cell = row * board.width + col
            if cell in masks:
                toa = obs["players"][masks[cell]]
                name = game.cards.toa[toa].name[:2]
                cells.append(f"[{TOA_STYLE.get(toa, 'reverse')}]{name:^3}[/]")
            else:
                cells.append(glyph(game.maps.legend[board.symbols[cell]]))
        lines.append(f"  {ROW_LETTERS[row]} " + "".join(cells))
    return lines


def skills_line(game: MasksGame, seat_obs: dict[str, Any]) -> str:
    base = game.cards.toa[seat_obs["toa"]].skills
    parts = []
    for name, value, bare in zip(SKILL_NAMES, seat_obs["skills"], base, strict=True):
        extra = f" [green](+{value - bare})[/]" if value != bare else ""
        parts.append(f"{name} [bold]{value}[/]{extra}")
    return "  ".join(parts)


def card_name(game: MasksGame, number: int) -> str:
    card = game.cards.mask_cards[number]
    return f"{card.name} (#{number}: {card.text})"


def action_card(game: MasksGame, number: int) -> str:
    card = game.cards.actions[number]
    return f"[bold]#{number} {card.name}[/]: {escape(card.text)}"


def player_lines(game: MasksGame, obs: dict[str, Any], seat: int) -> list[str]:
    me = obs["toa"][seat]
    toa = game.cards.toa[me["toa"]]
    you = " (you)" if obs["seat"] == seat else ""
    turn = "  [bold yellow]<- to decide[/]" if obs["current_player"] == seat else ""
    lines = [f"[bold]Player {seat + 1}{you}[/]: [{TOA_STYLE.get(me['toa'], 'bold')}] {toa.name} [/] "
             f"at {obs['positions'][seat]}, Great Masks {me['masks']}/{obs['masks_to_win']}{turn}",
             "  " + skills_line(game, me)]
    mask = card_name(game, me["mask"]) if me["mask"] else "none"
    turaga = card_name(game, me["turaga"]) if me["turaga"] else "none"
    lines.append(f"  Attached: Great Mask {mask}; Turaga {turaga}")
    loose = [card_name(game, n) for n in me["won"] if n not in (me["mask"], me["turaga"])]
    if loose:
        lines.append("  Unattached: " + "; ".join(loose))
    if obs["seat"] == seat and obs["hand"] is not None:
        hand = "; ".join(action_card(game, n) for n in obs["hand"]) or "empty"
        lines.append(f"  Hand ({len(obs['hand'])}/5): {hand}")
    else:
        known = me["known_in_hand"]
        seen = f" (known: {', '.join(f'#{n}' for n in known)})" if known else ""
        lines.append(f"  Hand: {me['hand_size']} card{'s' if me['hand_size'] != 1 else ''}{seen}")
    for number, left in me["missions"]:
        mission = game.cards.missions[number]
        count = f" ({left} to go)" if mission.kind in ("discard", "skip") and left != mission.count else ""
        lines.append(f"  [magenta]Mission #{number}[/]: {escape(mission.text)}{count}")
    if me["skips"]:
        lines.append(f"  Skips his next {me['skips']} move{'s' if me['skips'] > 1 else ''} (Penalty)")
    closed = [label for label in (me["last_challenge"], me["last_game_action"]) if label]
    discard = ", ".join(f"#{n}" for n in me["action_discard"]) or "none"
    lines.append(f"  [dim]Piles: Great Mask/Turaga {me['mask_pile']}, Game Action {me['action_pile']} "
                 f"(discard {discard}); may not go back to: {', '.join(closed) or 'nothing'}[/]")
    return lines


def render(game: MasksGame, obs: dict[str, Any]) -> str:
    board = game.boards[obs["map"]]
    short = ", the shorter game" if obs["short"] else ""
    lines = [f"[bold]Quest for the Masks[/]: {board.name}{short}  turn {obs['turn']}"]
    lines += draw_map(game, board, obs)
    lines.append(legend(game))
    for seat in range(len(obs["players"])):
        lines += player_lines(game, obs, seat)
    chal_discard = ", ".join(f"#{n}" for n in obs["challenge_discard"]) or "none"
    mis_discard = ", ".join(f"#{n}" for n in obs["mission_discard"]) or "none"
    lines.append(f"Great Mask Challenge pile {obs['challenge_pile']} (discard {chal_discard}); "
                 f"Mission pile {obs['mission_pile']} (discard {mis_discard})")
    challenge = obs["challenge"]
    if challenge:
        lander = challenge["lander"]
        scores = challenge["scores"]
        lines.append(f"[bold red]Great Mask Challenge[/]: Card #{challenge['card']} uses "
                     f"{challenge['skill'].capitalize()}. Player {lander + 1} landed: {scores[lander]} "
                     f"against {scores[1 - lander]} (he wins a tie).")
    if obs["claim"]:
        lines.append(f"Player {obs['current_player'] + 1} has just won {card_name(game, obs['claim'])}.")
    if obs["is_over"]:
        winners = obs["winners"]
        lines.append("[bold]Game over: " + (f"Player {winners[0] + 1} wins![/]" if winners else "a draw.[/]"))
    return "\n".join(lines)
