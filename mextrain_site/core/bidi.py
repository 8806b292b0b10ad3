"""Mixed-direction text made readable: quoted code in a right-to-left sentence.

An engine message quotes what a player types, in the position format's Latin words: "expected
'key: value', found 'foo'", "the position has no 'engine:' line: add one after this line, like
'engine: 12-12'". Translated into Hebrew, such a sentence mixes directions, and the Unicode
bidirectional algorithm lays the quotes, colons and digits at the edges of each quoted span by
the sentence's direction: on a right-to-left page "'engine: 12-12'" comes out as "'-12 :engine".
Each quoted span, put in its own ``<bdi>`` (its direction found from its own first letter), is
laid out as a unit: the code reads as typed, the sentence around it right to left. Left-to-right
pages look the same with or without it.

A name in Latin letters inside a right-to-left text (``רכבת מקסיקנית (Masters Traditional Games)``)
is isolated too, with its brackets: :func:`isolate_foreign` wraps it in U+2068 FIRST STRONG
ISOLATE … U+2069 POP DIRECTIONAL ISOLATE. Otherwise, when a narrow screen breaks the line inside the
name, each bracket takes the right-to-left direction of the sentence and lands at the far end of its
line: "Masters Traditional)" over "(Games". Plain characters rather than markup, so the name stays
whole in a ``<title>``, an attribute, a heading or a link.
"""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

FSI, PDI = "\u2068", "\u2069"
"""U+2068 FIRST STRONG ISOLATE and U+2069 POP DIRECTIONAL ISOLATE."""

_LTR = "A-Za-z\u00c0-\u024f\u1e00-\u1eff\u0370-\u03ff\u0400-\u052f"
"""Letters of the left-to-right scripts the sources and publishers are written in (Latin, Greek,
Cyrillic)."""
_WORD = rf"\.?[{_LTR}](?:[{_LTR}0-9'’.&-]*[{_LTR}0-9])?"
"""A word in those letters: inner apostrophes, dots and hyphens kept, a closing full stop left out,
a leading dot kept (the file extension ``.yaml``)."""
_RUN = rf"{_WORD}(?:[ \u00a0,]+(?:{_WORD}|[0-9]+))*"
FOREIGN = re.compile(rf"\({_RUN}\)|\[{_RUN}\]|{_RUN}")
"""A run of such words (and numbers after the first word), with the brackets around it when they
enclose just the run."""
RTL_LETTER = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]")
"""A Hebrew or Arabic letter."""


def isolate_foreign(text: str) -> str:
    """``text`` with each run of Latin (Greek, Cyrillic) words isolated (U+2068 … U+2069), brackets
    that enclose the run included, when ``text`` has a right-to-left letter; else ``text`` itself
    (a wholly Latin text needs no isolation, and an isolated first word would hide its direction
    from ``<bdi>``). Not escaped: plain text in, plain text out."""
    if not text or not RTL_LETTER.search(text) or FSI in text:
        return text
    return _isolate_runs(text)


def _isolate_runs(text: str) -> str:
    return FOREIGN.sub(lambda m: f"{FSI}{m.group()}{PDI}", text)


def isolated_first(name: str) -> str:
    """``name`` to open a right-to-left text: a right-to-left mark, then the name isolated (U+200F,
    U+2068 … U+2069), so that a Latin name neither sets the direction of the whole (``<bdi>`` takes
    it from the first strong letter) nor takes what follows it ("+ option", "· language") into its
    left-to-right run."""
    return f"\u200f{FSI}{name}{PDI}"


QUOTED = re.compile(r"(?<!\w)'[^'\n]+'(?!\w)")
"""A span in single quotes: the opening quote not inside a word (not the apostrophe of "Bob's"),
the closing one not followed by a letter."""


def isolate_quoted(text: object) -> SafeString:
    """``text`` escaped, each quoted span isolated in a ``<bdi>``; in a right-to-left text, each
    Latin name outside the quotes isolated too (:func:`isolate_foreign`: "(.yaml)", a ruleset's
    publisher)."""
    text = str(text)
    rtl = bool(RTL_LETTER.search(text))

    def plain(part: str) -> str:
        return escape(_isolate_runs(part) if rtl and FSI not in text else part)

    out: list[str] = []
    last = 0
    for m in QUOTED.finditer(text):
        out += [plain(text[last:m.start()]), "<bdi>", escape(m.group()), "</bdi>"]
        last = m.end()
    out.append(plain(text[last:]))
    return mark_safe("".join(out))
