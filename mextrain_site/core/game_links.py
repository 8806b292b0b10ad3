"""The link from a dispute back to its game: a position opened from a score sheet starts with the
comment ``# game: /g/<id>/``, which travels with the text into a shared ruling. Pure: the referee
reads it without touching the games, so it lives below both apps."""

from __future__ import annotations

import re

GAME_COMMENT = "# game: {path}"
GAME_LINK = re.compile(r"^# game: (/g/[a-z2-7]{13}/)$", re.MULTILINE)


def game_link(text: str) -> str | None:
    """The path of the score sheet a position was opened from, or None."""
    found = GAME_LINK.search(text)
    return found.group(1) if found else None
