"""Mixed-direction text made readable: quoted code in a right-to-left sentence.

An engine message quotes what a player types, in the position format's Latin words: "expected
'key: value', found 'foo'", "the position has no 'engine:' line: add one after this line, like
'engine: 12-12'". Translated into Hebrew, such a sentence mixes directions, and the Unicode
bidirectional algorithm lays the quotes, colons and digits at the edges of each quoted span by
the sentence's direction: on a right-to-left page "'engine: 12-12'" comes out as "'-12 :engine".
Each quoted span, put in its own ``<bdi>`` (its direction found from its own first letter), is
laid out as a unit: the code reads as typed, the sentence around it right to left. Left-to-right
pages look the same with or without it.
"""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

QUOTED = re.compile(r"(?<!\w)'[^'\n]+'(?!\w)")
"""A span in single quotes: the opening quote not inside a word (not the apostrophe of "Bob's"),
the closing one not followed by a letter."""


def isolate_quoted(text: object) -> SafeString:
    """``text`` escaped, each quoted span isolated in a ``<bdi>``."""
    text = str(text)
    out: list[str] = []
    last = 0
    for m in QUOTED.finditer(text):
        out += [escape(text[last:m.start()]), "<bdi>", escape(m.group()), "</bdi>"]
        last = m.end()
    out.append(escape(text[last:]))
    return mark_safe("".join(out))
