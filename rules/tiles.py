"""Tiles and sets: ``Tile.parse("6-4")`` / ``str(tile)``."""

from __future__ import annotations

import re
from functools import cache
from typing import NamedTuple

from .memo import Memo
from .messages import Message

MAX_PIP = 18
STANDARD_SETS = (6, 9, 12, 15, 18)
_TILE_RE = re.compile(r"(\d{1,2})-(\d{1,2})\Z", re.ASCII)
"""ASCII digits only: '²-1' or Arabic-Indic digits are not pips."""


class _Pips(NamedTuple):
    high: int
    low: int


class Tile(_Pips):
    """A domino, canonical: ``high >= low``. Orientation belongs to trains, not tiles.

    A named tuple, so that comparing and hashing tiles (the engine's commonest operation)
    runs at C speed."""

    __slots__ = ()

    def __new__(cls, high: int, low: int) -> Tile:
        if high < low:
            raise ValueError(f"tile {high}-{low} is not canonical; use Tile.of")
        return super().__new__(cls, high, low)

    @staticmethod
    def of(a: int, b: int) -> Tile:
        return _tile(max(a, b), min(a, b))

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse ``a-b``; raises ValueError naming what was expected."""
        found = _PARSED.get(text)
        return found if found is not None else _PARSED.keep(text, Tile._parse(text))

    @staticmethod
    def _parse(text: str) -> Tile:
        m = _TILE_RE.match(text)
        if not m:
            raise ValueError(Message("expected a tile like 6-4, found {found}", found=repr(text)))
        a, b = int(m.group(1)), int(m.group(2))
        if a > MAX_PIP or b > MAX_PIP:
            raise ValueError(Message("expected pips from 0 to {limit}, found {found}", limit=MAX_PIP, found=repr(text)))
        return Tile.of(a, b)

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    @property
    def pips(self) -> int:
        return self.high + self.low

    def has(self, pip: int) -> bool:
        return self.high == pip or self.low == pip

    def other(self, pip: int) -> int:
        """The end facing away when the ``pip`` end is laid against a train."""
        return self.low if self.high == pip else self.high

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"


_PARSED: Memo[str, Tile] = Memo(4096)
"""Each tile as written, parsed once (a position is mostly tiles)."""


@cache
def _tile(high: int, low: int) -> Tile:
    return Tile(high, low)


def set_size(set_max: int) -> int:
    """How many tiles a double-``set_max`` set has: (N+1)(N+2)/2."""
    return (set_max + 1) * (set_max + 2) // 2


@cache
def full_set(set_max: int) -> tuple[Tile, ...]:
    return tuple(Tile.of(a, b) for a in range(set_max, -1, -1) for b in range(a, -1, -1))


def format_tiles(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    return " ".join(str(t) for t in tiles)
