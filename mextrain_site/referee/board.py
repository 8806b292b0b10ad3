"""The board drawn server-side as inline SVG: the engine, every train, markers, open doubles.

Pure drawing: it reads a :class:`rules.state.State` and decides nothing. The picture scales
with its box (a ``viewBox``, ``width="100%"``); long trains wrap onto further lines inside
their own row, so a phone 375 px wide shows the whole board without scrolling sideways.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape  # every text here is a str: Django's lazy-aware escape writes the same, slower
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules.memo import Memo
from rules.state import State

WIDTH = 360
"""ViewBox width; everything below is in viewBox units."""
PAD = 8
HALF = 32
"""A tile is two squares of HALF x HALF."""
GAP = 4
LINE_GAP = 6
HEADER = 24
NAME_CHARS = 16

PIP_COLOURS = (
    "#000", "#1565c0", "#2e7d32", "#c62828", "#6d4c41", "#6a1b9a", "#e65100", "#ad1457", "#00838f",
    "#283593", "#558b2f", "#4e342e", "#37474f", "#0277bd", "#9e2a2b", "#33691e", "#5d4037", "#4a148c", "#263238",
)

# Pip positions on a unit square, for 0..9 (the usual faces).
_G = (0.22, 0.5, 0.78)
_L, _M, _R = _G
_BASIC: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((_M, _M),),
    2: ((_L, _L), (_R, _R)),
    3: ((_L, _L), (_M, _M), (_R, _R)),
    4: ((_L, _L), (_R, _L), (_L, _R), (_R, _R)),
    5: ((_L, _L), (_R, _L), (_M, _M), (_L, _R), (_R, _R)),
    6: ((_L, _L), (_L, _M), (_L, _R), (_R, _L), (_R, _M), (_R, _R)),
    7: ((_L, _L), (_L, _M), (_L, _R), (_M, _M), (_R, _L), (_R, _M), (_R, _R)),
    8: tuple((x, y) for y in _G for x in _G if (x, y) != (_M, _M)),
    9: tuple((x, y) for y in _G for x in _G),
}


def pip_positions(n: int) -> tuple[tuple[float, float], ...]:
    """Where the pips of ``n`` go on a unit square: the usual faces up to 9, then three columns
    (the outer two full, the middle one holding the rest), as on double-twelve and larger sets."""
    if n in _BASIC:
        return _BASIC[n]
    rows = -(-n // 3)
    middle = n - 2 * rows
    top, bottom = 0.16, 0.84

    def column(x: float, k: int) -> list[tuple[float, float]]:
        if k == 1:
            return [(x, 0.5)]
        return [(x, top + (bottom - top) * i / (k - 1)) for i in range(k)]

    return tuple(column(_L, rows) + column(_M, middle) + column(_R, rows))


def _pip_radius(n: int) -> float:
    return 3.4 if n <= 9 else 2.7 if n <= 12 else 2.1


@functools.cache
def _pips(n: int) -> str:
    """The pips of ``n`` on a half at the origin, in their colour (drawn once per number and process)."""
    r = _pip_radius(n)
    circles = "".join(f'<circle cx="{px * HALF:.1f}" cy="{py * HALF:.1f}" r="{r}"/>' for px, py in pip_positions(n))
    return f'fill="{PIP_COLOURS[n % len(PIP_COLOURS)]}">{circles}'


def _half(x: float, y: float, n: int) -> str:
    if not n:
        return ""
    return f'<g transform="translate({x:.1f} {y:.1f})" {_pips(n)}</g>'


def tile_svg(x: float, y: float, a: int, b: int, *, vertical: bool = False, extra_class: str = "") -> str:
    """One domino face at (x, y): ``a`` on the left (or top), ``b`` on the right (or bottom)."""
    return _tile(x, y, a, b, vertical, _tile_class(extra_class))


def _tile_class(extra: str) -> str:
    return "tile" + (f" {extra}" if extra else "")


TILE_LIMIT = 20_000
_TILES: Memo[tuple[object, ...], str] = Memo(TILE_LIMIT)
"""Tiles drawn, by where and what they are: a tile's drawing is a pure function of its place, its
numbers and its class, and a table's next position keeps most tiles where they were (a turn adds
one), so each is drawn once per process."""


def _tile(x: float, y: float, a: int, b: int, vertical: bool, cls: str) -> str:
    """:func:`tile_svg` with its class written out (the board draws a dozen tiles a page)."""
    key = (x, y, a, b, vertical, cls, x.__class__, y.__class__)  # 8 and 8.0 write differently
    found = _TILES.get(key)
    return found if found is not None else _TILES.keep(key, _draw_tile(x, y, a, b, vertical, cls))


def _draw_tile(x: float, y: float, a: int, b: int, vertical: bool, cls: str) -> str:
    w, h = (HALF, 2 * HALF) if vertical else (2 * HALF, HALF)
    if vertical:
        divider = f'<line x1="{x + 4}" y1="{y + HALF}" x2="{x + HALF - 4}" y2="{y + HALF}" class="tile-divider"/>'
        second = (x, y + HALF)
    else:
        divider = f'<line x1="{x + HALF}" y1="{y + 4}" x2="{x + HALF}" y2="{y + HALF - 4}" class="tile-divider"/>'
        second = (x + HALF, y)
    return (
        f'<g class="{cls}" data-tile="{a}-{b}"><title>{a}-{b}</title>'
        f'<rect x="{x + 0.5}" y="{y + 0.5}" width="{w - 1}" height="{h - 1}" rx="4" class="tile-face"/>'
        f"{divider}{_half(x, y, a)}{_half(second[0], second[1], b)}</g>"
    )


def _marker_svg(x: float, y: float, title: str) -> str:
    """A little locomotive: a player's marker on the train (``title``: its name, escaped)."""
    return (
        f'<g class="marker" transform="translate({x:.1f} {y:.1f})"><title>{title}</title>'
        '<rect x="0" y="6" width="14" height="9" rx="1.5"/><rect x="11" y="0" width="10" height="15" rx="1.5"/>'
        '<rect x="2.5" y="1.5" width="3.5" height="5"/>'
        '<circle cx="5" cy="17" r="3"/><circle cx="16" cy="17" r="3"/></g>'
    )


def _text(x: float, y: float, content: str, cls: str, anchor: str = "start", rtl: bool = False) -> str:
    """A label. Right to left, it is mirrored: ``x`` is measured from the right edge and
    ``anchor`` stays logical (start = where the reading begins)."""
    if rtl:
        return (f'<text x="{WIDTH - x:.1f}" y="{y:.1f}" class="{cls}" text-anchor="{anchor}" '
                f'direction="rtl">{escape(content)}</text>')
    return f'<text x="{x:.1f}" y="{y:.1f}" class="{cls}" text-anchor="{anchor}">{escape(content)}</text>'


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _approx_width(text: str, size: float) -> float:
    return len(text) * size * 0.58


_Item = tuple[float, float, Callable[..., str], tuple[Any, ...]]
"""Something laid out on a train's lines (a tile, the unknown part, a marker, a note): its width,
its height, and what draws it at (x, y) given the rest of its arguments. A plain tuple: a board
lays a few dozen of them."""


def _lay(top: float, items: Sequence[_Item], parts: list[str]) -> float:
    """Draw ``items`` into ``parts`` from ``top``, left to right, wrapping onto new lines within
    WIDTH; return the y just below the last line."""
    lines: list[list[_Item]] = [[]]
    x: float = PAD
    for item in items:
        if lines[-1] and x + item[0] > WIDTH - PAD:
            lines.append([])
            x = PAD
        lines[-1].append(item)
        x += item[0] + GAP
    y = top
    for line in lines:
        height = max((i[1] for i in line), default=HALF)
        x = PAD
        for width, item_height, draw, args in line:
            parts.append(draw(x, y + (height - item_height) / 2, *args))
            x += width + GAP
        y += height + LINE_GAP
    return y - LINE_GAP


def _tile_item(a: int, b: int, *, cross_doubles: bool = True, extra_class: str = "") -> _Item:
    vertical = cross_doubles and a == b
    cls = _tile_class(extra_class)
    return (HALF, 2 * HALF, _tile, (a, b, True, cls)) if vertical else (2 * HALF, HALF, _tile, (a, b, False, cls))


def _open_double(x: float, y: float, a: int) -> str:
    glow = (f'<rect x="{x - 3}" y="{y - 3}" width="{HALF + 6}" height="{2 * HALF + 6}" rx="6" '
            f'class="open-double-glow"/>')
    return glow + _tile(x, y, a, a, True, "tile open-double")


def _open_double_item(a: int) -> _Item:
    return (HALF, 2 * HALF, _open_double, (a,))


def _unknown(x: float, y: float, title: str) -> str:
    return (f'<g class="unknown-tiles"><title>{title}</title>'
            f'<rect x="{x + 0.5}" y="{y + 0.5}" width="39" height="{HALF - 1}" rx="4"/>'
            f'<text x="{x + 20}" y="{y + 21}" text-anchor="middle">…</text></g>')


def _unknown_item(title: str) -> _Item:
    """The earlier tiles a text left out (``title``: what they are, in words)."""
    return (40, HALF, _unknown, (escape(title),))


def _note(x: float, y: float, width: float, label: str) -> str:
    return (f'<g class="empty-train"><rect x="{x + 0.5}" y="{y + 0.5}" width="{width - 1}" '
            f'height="{HALF - 1}" rx="4"/>{_text(x + width / 2, y + 20, label, "note", "middle")}</g>')


NOTE_SIZE = 12
"""The font size of a note (``.board-svg .note`` in mextrain.css)."""


def _note_item(label: str) -> _Item:
    """A note in a dashed box ("not started"): the box as wide as the text at its own size, with room
    at both ends (Kyrgyz "башталган эмес" touched the edges of a box sized for a smaller text)."""
    width = max(2 * HALF, _approx_width(label, NOTE_SIZE) + 24)
    return (width, HALF, _note, (width, label))


def _marker_item(title: str) -> _Item:
    """A marker (``title``: its name, in words)."""
    return (22, 20, _marker_svg, (escape(title),))


@dataclass(frozen=True)
class BoardLabels:
    """Per-train annotations that come from more than one ruling (open doubles by ruleset)."""

    open_doubles: Mapping[int, bool] = field(default_factory=dict)
    """Train index -> True when every ruleset drawn holds it open, False when only some do."""


_WORDS: dict[str, dict[str, str]] = {}
"""The board's fixed words by language: looked up in the catalogue once per process."""


def _words() -> Callable[[str], str]:
    """gettext for the active language, each word looked up once per process."""
    table = _WORDS.setdefault(get_language() or "", {})

    def word(english: str) -> str:
        found = table.get(english)
        if found is None:
            found = table[english] = _(english)
        return found
    return word


def board_svg(state: State, labels: BoardLabels | None = None, *, caption: str = "", ident: str = "board",
              show_set: bool = True, rtl: bool = False) -> SafeString:
    """The board of ``state`` as an inline ``<svg>`` element; ``ident`` prefixes its element ids.

    ``show_set``: name the domino set (off when the board stands for rulesets with different sets).
    ``rtl``: mirror the labels and the engine for a right-to-left page; the tiles of a train
    still run left to right, as the position's text writes them."""
    _ = _words()  # named _ : the name the catalogue extraction looks for
    labels = labels or BoardLabels(open_doubles={i: True for i in state.open_doubles})
    parts: list[str] = []
    summary: list[str] = []

    # -- the engine and the table's vital numbers --------------------------------------------
    e = state.engine
    y: float = PAD
    engine_x = WIDTH - PAD - HALF if rtl else PAD
    parts.append(f'<g class="engine">{tile_svg(engine_x, y, e, e, vertical=True, extra_class="engine-tile")}</g>')
    tx = PAD + HALF + 12
    parts.append(_text(tx, y + 16, _("Engine %(tile)s") % {"tile": f"{e}-{e}"}, "engine-label", rtl=rtl))
    facts = [_("double-%(n)s set") % {"n": state.set_max}] if show_set else []
    if state.boneyard is not None:
        facts.append(_("boneyard: %(n)s") % {"n": state.boneyard} if state.boneyard else _("boneyard empty"))
    parts.append(_text(tx, y + 36, " · ".join(facts), "fact", rtl=rtl))
    if state.round_over:
        parts.append(_text(tx, y + 56, _("The round is over"), "fact strong", rtl=rtl))
    else:
        parts.append(_text(tx, y + 56, _("%(player)s to move") % {"player": _short(state.player)}, "fact strong",
                           rtl=rtl))
    summary.append(_("Engine %(tile)s.") % {"tile": f"{e}-{e}"})
    y += 2 * HALF + 14

    # -- each train, then the Mexican train ------------------------------------------------------
    n = len(state.players)
    for index, train in enumerate(state.trains):
        mexican = index == n
        name = _("Mexican train") if mexican else _short(state.players[index])
        open_state = labels.open_doubles.get(index)
        chips = []
        if not mexican and index == state.to_move and not state.round_over:
            chips.append(_("to move"))
        if train.marker:
            chips.append(_("marker down"))
        if open_state is not None:
            chips.append(_("open double") + ("" if open_state else " †"))
        items: list[_Item] = []
        line = train.line()
        if train.unknown_prefix:
            items.append(_unknown_item(_("earlier tiles not listed")))
        oriented = list(line.oriented(state.engine))
        for k, (near, far) in enumerate(oriented):
            last = k == len(oriented) - 1
            if last and open_state is not None and near == far:
                items.append(_open_double_item(near))
            else:
                items.append(_tile_item(near, far))
        if not train.started:
            items.append(_note_item(_("not started")))
        if train.marker:
            items.append(_marker_item(_("marker")))
        row_class = "train mexican" if mexican else "train"
        if not mexican and index == state.to_move and not state.round_over:
            row_class += " to-move"
        top = y
        head_y = top + 17
        name_w = _approx_width(name, 15) + 12
        chip_text = "  ·  ".join(chips)
        chip_line = head_y
        extra = 0.0
        if chips and PAD + name_w + _approx_width(chip_text, 12.5) > WIDTH - PAD * 2:
            chip_line = head_y + 17
            extra = 17
        drawn: list[str] = []
        bottom = _lay(top + HEADER + extra + 4, items, drawn)
        height = bottom - top + PAD
        parts.append(f'<g class="{row_class}" data-train="{escape(state.train_name(index))}">')
        parts.append(f'<rect x="1" y="{top:.1f}" width="{WIDTH - 2}" height="{height:.1f}" rx="8" class="train-bg"/>')
        parts.append(_text(PAD + 2, head_y, name, "train-name", rtl=rtl))
        if chips:
            parts.append(_text(WIDTH - PAD - 2, chip_line, chip_text, "chips", "end", rtl=rtl))
        parts.extend(drawn)
        parts.append("</g>")
        described = " ".join(f"{a}-{b}" for a, b in oriented) or _("not started")
        if train.unknown_prefix:
            described = "… " + described
        if train.marker:
            described += ", " + _("marker down")
        if open_state is not None:
            described += ", " + _("open double")
        summary.append(f"{name}: {described}.")
        y = top + height + PAD

    # -- the hand of the player to move ---------------------------------------------------------
    hand = state.hands[state.to_move] if not state.round_over else None
    if not state.round_over:
        top = y + 4
        label = _("%(player)s's hand") % {"player": _short(state.player)}
        items = []
        if hand is None:
            items.append(_note_item(_("hand not given")))
        else:
            items.extend(_tile_item(t.high, t.low, cross_doubles=False) for t in hand.tiles)
            if hand.unknown:
                items.append(_note_item(_("+%(n)s unseen") % {"n": hand.unknown}))
            if hand.empty:
                items.append(_note_item(_("empty")))
        drawn = []
        bottom = _lay(top + HEADER, items, drawn)
        height = bottom - top + PAD
        parts.append('<g class="hand">')
        parts.append(f'<rect x="1" y="{top:.1f}" width="{WIDTH - 2}" height="{height:.1f}" rx="8" class="hand-bg"/>')
        parts.append(_text(PAD + 2, top + 17, label, "train-name", rtl=rtl))
        parts.extend(drawn)
        parts.append("</g>")
        if hand is not None:
            summary.append(f"{label}: {' '.join(str(t) for t in hand.tiles) or '-'}.")
        y = top + height + PAD

    total = y
    title = caption or _("The board")
    i = escape(ident)
    svg = (
        f'<svg class="board-svg{" rtl" if rtl else ""}" viewBox="0 0 {WIDTH} {total:.0f}" width="100%" role="img" '
        f'aria-labelledby="{i}-title {i}-desc" xmlns="http://www.w3.org/2000/svg" direction="ltr" '
        f'preserveAspectRatio="xMidYMin meet">'
        f'<title id="{i}-title">{escape(title)}</title><desc id="{i}-desc">{escape(" ".join(summary))}</desc>'
        + "".join(parts) + "</svg>"
    )
    return mark_safe(svg)
