"""The one reader of whole numbers, for every number a form, the API, the position text or a
ruleset file reads.

ASCII digits only: ``str.isdigit()`` also accepts ``₀ ² ① ٣ １``, which ``int()`` then refuses
(a 500 where it was not expected) or reads (``int("٣") == 3``), and ``int()`` of thousands of
digits is slow, or refused past 4,300. Here a number is at most :data:`MAX_DIGITS` ASCII digits,
with a ``-`` in front only where the field allows negative numbers; no ``+``, no spaces inside,
no ``_`` between digits, no other base.
"""

from __future__ import annotations

import re

MAX_DIGITS = 9
"""Most digits a number may have (every number of the game is far smaller)."""
_DIGITS = re.compile(r"[0-9]+")


def ascii_int(text: str, *, signed: bool = False, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number ``text`` writes (surrounding spaces ignored), or None when it is not one:
    1 to ``max_digits`` ASCII digits, after a ``-`` only when ``signed``."""
    text = text.strip()
    digits = text[1:] if signed and text.startswith("-") else text
    if not 0 < len(digits) <= max_digits or not _DIGITS.fullmatch(digits):
        return None
    return int(text)
