"""Pictures drawn by matplotlib as SVG, for the score sheet and the statistics (matplotlib's object API,
never pyplot: no global state, safe in threads). matplotlib is imported when the first picture is drawn,
not when Django loads the URLs: the import is about 0.75 s of every process's start otherwise (each
server worker, each command, each task worker), and most processes never draw."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def figure(**options: Any) -> Figure:
    """A new matplotlib figure (``options``: ``Figure``'s: ``figsize``, ``dpi``, ``layout``)."""
    from matplotlib.figure import Figure

    return Figure(**options)


def svg(drawn: Figure) -> bytes:
    """The figure as SVG, with no date in it (the same picture gives the same bytes)."""
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    out = io.BytesIO()
    FigureCanvasSVG(drawn).print_svg(out, metadata={"Date": None})  # type: ignore[no-untyped-call]  # untyped in matplotlib
    return out.getvalue()
