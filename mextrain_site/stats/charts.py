"""The report's pictures, drawn by matplotlib as SVG (the house way: mextrain_site/game/chart.py):
how many turns rounds last, how many points a player is left holding, and the strategies' win
rates with their intervals.

Readable on a phone and in print: one colour with hatching where it matters, large ticks, the
words on the page (the axes are said in the caption) but the strategies' short names beside their
bars, in the reader's language; in a right-to-left language the value axis runs from right to left
and the names sit on the right. Drawn once per job, chart, language and direction, then cached.
Uses matplotlib's object API, never pyplot (safe in threads)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.core.cache import cache

from mextrain_site.core.svg import figure as new_figure
from mextrain_site.core.svg import svg

from .present import strategy_figures

if TYPE_CHECKING:
    from matplotlib.figure import Figure

BAR = "#0b57d0"
FAIR = "#b3261e"
CACHE_SECONDS = 30 * 24 * 3600
KINDS = ("turns", "points", "wins")


def visual(label: str) -> str:
    """A label as matplotlib must be given it: it lays text out left to right, so a label wholly in
    a right-to-left script is given reversed (as the score sheet's chart does with names)."""
    rtl = [unicodedata.bidirectional(c) in ("R", "AL") for c in label if c.isalpha()]
    return label[::-1] if rtl and all(rtl) else label


def _histogram(pairs: Sequence[Sequence[int]], rtl: bool) -> bytes:
    """Bars of the share of the sample at each value (wide ranges binned into about 30 bars)."""
    figure = new_figure(figsize=(4.8, 2.8), dpi=100, layout="constrained")
    axes = figure.add_subplot()
    total = sum(c for _, c in pairs) or 1
    values = [v for v, _ in pairs]
    if values:
        low, high = min(values), max(values)
        width = max(1, -(-(high - low + 1) // 30))
        bins: dict[int, int] = {}
        for v, c in pairs:
            start = low + (v - low) // width * width
            bins[start] = bins.get(start, 0) + c
        axes.bar([b + (width - 1) / 2 for b in bins], [c / total for c in bins.values()], width=width * 0.9,
                 color=BAR)
    return _finish(figure, axes, axes.yaxis, "y", rtl)


def _finish(figure: Figure, axes: Any, shares: Any, grid: str, rtl: bool) -> bytes:
    """The common frame: shares in percent on the ``shares`` axis, a light grid, no box, and in a
    right-to-left language the horizontal axis reversed with the vertical one's ticks on the right."""
    from matplotlib.ticker import PercentFormatter  # with the first picture (mextrain_site/core/svg.py)

    shares.set_major_formatter(PercentFormatter(1.0, decimals=0))
    axes.grid(True, axis=grid, color="#d0d4da", linewidth=0.6)
    axes.spines[["top", "left" if rtl else "right"]].set_visible(False)
    if rtl:
        axes.invert_xaxis()
        axes.yaxis.tick_right()
    axes.tick_params(labelsize=11)
    return svg(figure)


def _wins(report: dict[str, Any], rtl: bool) -> bytes:
    """One bar per strategy table: its win rate, the interval as an error bar, the fair share as a mark."""
    shown = strategy_figures(report)
    figure = new_figure(figsize=(4.8, 0.9 + 0.7 * max(1, len(shown))), dpi=100, layout="constrained")
    axes = figure.add_subplot()
    ys = list(range(len(shown)))[::-1]
    means = [f.mean for f in shown]
    errors = [[f.mean - (f.lo if f.lo is not None else f.mean) for f in shown],
              [(f.hi if f.hi is not None else f.mean) - f.mean for f in shown]]
    axes.barh(ys, means, height=0.55, color=BAR, xerr=errors, error_kw={"ecolor": "#1f1f1f", "capsize": 5, "lw": 1.5})
    seats = {t["table"]: t["players"] for t in report["strategies"]}
    axes.scatter([1 / seats.get(f.name, 2) for f in shown], ys, marker="|", s=600, color=FAIR, linewidths=2.5, zorder=3)
    axes.set_yticks(ys, [visual(f.label) for f in shown])
    axes.set_xlim(0, 1)
    return _finish(figure, axes, axes.xaxis, "x", rtl)


def draw(kind: str, report: dict[str, Any], rtl: bool) -> bytes:
    if kind == "turns":
        return _histogram(report["turns_histogram"], rtl)
    if kind == "points":
        return _histogram(report["points_histogram"], rtl)
    return _wins(report, rtl)


def chart_svg(job_id: int, kind: str, report: dict[str, Any], language: str, rtl: bool) -> bytes:
    key = f"stats-chart:{job_id}:{kind}:{language}:{int(rtl)}"
    svg = cache.get(key)
    if svg is None:
        svg = draw(kind, report, rtl)
        cache.set(key, svg, CACHE_SECONDS)
    return bytes(svg)
