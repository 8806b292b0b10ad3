"""The picture of a game: each player's running total by round, drawn by matplotlib as SVG.

Made for a phone, for print and for right-to-left pages: no words inside but the players' names
(the page says what the axes are); each player has a colour, a marker and a dash of their own, so
the lines stay apart in black and white; in a right-to-left language the rounds run from right to
left, as the sheet's columns do, with the totals' scale on the right. Drawn once per version of a
game and language direction, then kept in the cache. Uses matplotlib's object API, never pyplot
(no global state: safe in threads).
"""

from __future__ import annotations

import unicodedata

from django.core.cache import cache

from mextrain_site.core.svg import figure as new_figure
from mextrain_site.core.svg import svg

from .sheet import Sheet

COLOURS = ("#0b57d0", "#b3261e", "#1e7d32", "#8a5a00", "#6a1b9a", "#00838f", "#37474f", "#c2185b")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
DASHES = ("-", "--", "-.", ":")
CACHE_SECONDS = 7 * 24 * 3600


def visual(name: str) -> str:
    """A name as matplotlib must be given it to show it right: it lays text out left to right, so a
    name written wholly in a right-to-left script is reversed (a player's name is one word)."""
    rtl = [unicodedata.bidirectional(c) in ("R", "AL") for c in name if not c.isspace()]
    return name[::-1] if rtl and all(rtl) else name


def draw(sheet: Sheet, rtl: bool) -> bytes:
    played = sheet.played
    figure = new_figure(figsize=(4.8, 3.2), dpi=100, layout="constrained")
    axes = figure.add_subplot()
    numbers = [r.number for r in played]
    for i, player in enumerate(sheet.players):
        totals = [r.running[player] if r.running else 0 for r in played]
        axes.plot(numbers, totals, color=COLOURS[i % len(COLOURS)], marker=MARKERS[i % len(MARKERS)],
                  linestyle=DASHES[(i // len(COLOURS)) % len(DASHES)] if len(sheet.players) > len(COLOURS)
                  else DASHES[i % len(DASHES)], linewidth=2, markersize=6, label=visual(player))
    axes.set_xticks(numbers or [1])
    axes.grid(True, color="#d0d4da", linewidth=0.6)
    axes.spines[["top", "left" if rtl else "right"]].set_visible(False)
    if rtl:
        axes.invert_xaxis()
        axes.yaxis.tick_right()
    axes.tick_params(labelsize=11)
    figure.legend(loc="outside lower center", frameon=False, ncols=min(4, len(sheet.players)), fontsize=11,
                  reverse=rtl)
    return svg(figure)


def chart_svg(sheet: Sheet, rtl: bool) -> bytes:
    key = f"game-chart:{sheet.id}:{sheet.version}:{int(rtl)}"
    svg = cache.get(key)
    if svg is None:
        svg = draw(sheet, rtl)
        cache.set(key, svg, CACHE_SECONDS)
    return bytes(svg)
