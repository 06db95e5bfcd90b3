"""The How to play pages: each game's how-to-play text and symbol key (matanui.games.guide),
the same Markdown `matanui rules GAME` prints, rendered to HTML on the server.

Markdown's raw HTML is switched off, so the page holds only what the renderer writes from
our own text: no script and no inline style, within the service's Content-Security-Policy.
"""

from __future__ import annotations

from functools import cache
from html import escape

from markdown_it import MarkdownIt

from matanui import games
from matanui.games.guide import page_markdown

MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")

PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title} — matanui</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/static/css/style.css">
</head>
<body class="rules-page">
  <header class="top">
    <h1><a href="/">matanui</a></h1>
    <nav class="rules-nav" aria-label="How to play">{nav}</nav>
  </header>
  <main class="rules panel">
{body}
  </main>
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


@cache
def game_page(game: str) -> str:
    """The page of one registered game (the caller checks the name)."""
    body = MARKDOWN.render(page_markdown(game))
    return PAGE.format(title=f"How to play {escape(games.get(game).title)}", nav=_nav(game), body=body)


@cache
def index_page() -> str:
    """Every game's page, linked."""
    items = "\n".join(f'<li><a href="{link(name)}">{escape(games.get(name).title)}</a></li>'
                      for name in games.names())
    body = f"<h1>How to play</h1>\n<ul>\n{items}\n</ul>"
    return PAGE.format(title="How to play", nav=_nav(None), body=body)
