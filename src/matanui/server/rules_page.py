"""The How to play pages: each game's how-to-play text as the browser tells it (the shared
text with its browser passages, matanui.games.guide), rendered to HTML on the server, and the
key to every symbol as a table whose pictures web/js/rules.js draws the way the game's board
does (its icons, its map's coloured circles, its cards).

Markdown's raw HTML is switched off, so the page holds only what the renderer writes from
our own text: no inline script and no inline style, within the service's
Content-Security-Policy.
"""

from __future__ import annotations

from functools import cache
from html import escape

from markdown_it import MarkdownIt

from matanui import games
from matanui.games.guide import how_to_play, legend_groups

MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} — matanui</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/css/style.css">
  <link rel="stylesheet" href="/static/css/rules.css">
</head>
<body class="rules-page">
  <header class="top">
    <h1><a href="/">matanui</a></h1>
    <nav class="rules-nav" aria-label="How to play">{nav}</nav>
  </header>
  <main class="rules panel"{game}>
{body}
  </main>
  <script type="module" src="/static/js/rules.js"></script>
</body>
</html>
"""


def link(game: str) -> str:
    return f"/rules/{game}"


def _nav(current: str | None) -> str:
    items = []
    for name in games.names():
        title = escape(games.get(name).title)
        here = ' aria-current="page"' if name == current else ""
        items.append(f'<a href="{link(name)}"{here}>{title}</a>')
    return '<a href="/">Lobby</a> · ' + " · ".join(items)


def key_html(game: str) -> str:
    """The key to every symbol, one table per group: a cell for the picture (drawn by
    rules.js from the row's symbol), its name and what it does, in the browser's words."""
    parts = ['<section class="key" aria-labelledby="key">', '<h2 id="key">Key to the symbols</h2>']
    for title, members in legend_groups(game):
        parts += [f"<h3>{title}</h3>", '<table class="key-table">',
                  "<thead><tr><th>Picture</th><th>Name</th><th>What it is</th></tr></thead>", "<tbody>"]
        parts += [f'<tr><td class="key-picture" data-symbol="{escape(s.id)}"></td>'
                  f"<td>{escape(s.name)}</td><td>{escape(s.means)}</td></tr>" for s in members]
        parts += ["</tbody>", "</table>"]
    parts.append("</section>")
    return "\n".join(parts)


@cache
def game_page(game: str) -> str:
    """The page of one registered game (the caller checks the name)."""
    body = MARKDOWN.render(how_to_play(game, "browser")) + key_html(game)
    return PAGE.format(title=f"How to play {escape(games.get(game).title)}", nav=_nav(game), body=body,
                       game=f' data-game="{escape(game)}"')


@cache
def index_page() -> str:
    """Every game's page, linked."""
    items = "\n".join(f'<li><a href="{link(name)}">{escape(games.get(name).title)}</a></li>'
                      for name in games.names())
    body = f"<h1>How to play</h1>\n<ul>\n{items}\n</ul>"
    return PAGE.format(title="How to play", nav=_nav(None), body=body, game="")
