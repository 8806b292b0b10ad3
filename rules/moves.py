"""Moves: ``Move.parse("Bob: 7-7 -> Bob")`` / ``str(move)``."""

from __future__ import annotations

import enum
import re
from typing import NamedTuple

from .errors import ErrorCode, InputError
from .messages import Message
from .tiles import Tile

MEXICAN = "mexican"


class Action(enum.Enum):
    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    DONE = "done"

    __hash__ = object.__hash__
    """Members are singletons: hashed by identity, in C (Enum's own __hash__ runs in Python)."""


class MoveSyntaxError(InputError):
    """A move that is not written as the format says; ``column`` is 1-based within the move (the
    position's parser adds the move's line and column)."""

    column: int
    """Always given (from 1), unlike a position error's."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(message, None, column, ErrorCode.SYNTAX)


class Move(NamedTuple):
    """A move by a player. ``train`` is a player's name or ``mexican``.

    A named tuple: judging compares and hashes moves by the thousand, and a tuple does both in C."""

    player: str
    action: Action
    tile: Tile | None = None
    train: str | None = None

    def __str__(self) -> str:
        if self.action is Action.PLAY:
            return f"{self.player}: {self.tile} -> {self.train}"
        if self.action is Action.DRAW and self.tile is not None:
            return f"{self.player}: draw {self.tile}"
        return f"{self.player}: {self.action.value}"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @staticmethod
    def play(player: str, tile: Tile, train: str) -> Move:
        return Move(player, Action.PLAY, tile, train)

    @staticmethod
    def parse(text: str) -> Move:
        """Parse one move. Names are returned as written; the position resolves them."""
        return parse_move(text)


_WORD = re.compile(r"\S+")


def parse_move(text: str) -> Move:
    colon = text.find(":")
    if colon < 0:
        raise MoveSyntaxError(Message("expected a move like 'Bob: 6-4 -> Cy', found {found}", found=repr(text.strip())), 1)
    player = text[:colon].strip()
    if not player or len(player.split()) != 1:
        raise MoveSyntaxError(Message("expected a player's name before ':', found {found}", found=repr(player)), 1)
    words = [(m.group(), m.start() + 1) for m in _WORD.finditer(text, colon + 1)]
    if not words:
        raise MoveSyntaxError(Message("expected a move after ':' (a tile -> train, draw, pass or done)"), colon + 2)
    first, col = words[0]
    low = first.lower()
    if low in ("pass", "done"):
        if len(words) > 1:
            raise MoveSyntaxError(Message("expected nothing after '{word}', found {found}", word=low, found=repr(words[1][0])),
                                  words[1][1])
        return Move(player, Action(low))
    if low == "draw":
        if len(words) > 2:
            raise MoveSyntaxError(Message("expected at most one tile after 'draw', found {found}", found=repr(words[2][0])),
                                  words[2][1])
        tile = None
        if len(words) == 2:
            tile = _tile(words[1][0], words[1][1])
        return Move(player, Action.DRAW, tile)
    tile = _tile(first, col)
    if len(words) < 3 or words[1][0] != "->":
        where = words[1][1] if len(words) > 1 else col + len(first)
        found = repr(words[1][0]) if len(words) > 1 else Message("the end of the move")
        raise MoveSyntaxError(Message("expected '-> TRAIN' after the tile, found {found}", found=found), where)
    if len(words) > 3:
        raise MoveSyntaxError(Message("expected nothing after the train, found {found}", found=repr(words[3][0])),
                              words[3][1])
    return Move(player, Action.PLAY, tile, words[2][0])


def _tile(word: str, column: int) -> Tile:
    try:
        return Tile.parse(word)
    except ValueError as exc:
        if word.lower() in ("draw", "pass", "done"):
            raise
        raise MoveSyntaxError(
            Message("expected a tile like 6-4 (or draw, pass, done), found {found}", found=repr(word))
            if "pips" not in str(exc)
            else exc.args[0],
            column,
        ) from None
