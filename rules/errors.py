"""Input that cannot be judged: one error type with a stable code, for every front end.

The engine, the loader, the API, the pages and the CLI raise and catch :class:`InputError`;
its :class:`ErrorCode` is what the API answers as ``code`` and what each front end maps to its
status (``mextrain_site.core.errors.HTTP_STATUS``; the CLI exits 2). The message is a
:class:`rules.messages.Message`, so that a front end can word it in the reader's language.
"""

from __future__ import annotations

import enum
from typing import Any

from .messages import Lookup, Message, word


class ErrorCode(enum.StrEnum):
    """Every kind of bad input. The value is the stable code the API answers (a StrEnum: a member
    equals its code, so ``code == "too-large"`` reads as it should)."""

    # the position text
    SYNTAX = "syntax"
    TOO_LARGE = "too-large"
    # a well-formed position that cannot arise in play
    TILE_TWICE = "tile-twice"
    PIP_ABOVE_SET = "pip-above-set"
    TOO_MANY_TILES = "too-many-tiles"
    TRAIN_DOES_NOT_CHAIN = "train-does-not-chain"
    NOT_AN_OPEN_DOUBLE = "not-an-open-double"
    ROUND_ABOVE_SET = "round-above-set"
    ROUND_ABOVE_GAME = "round-above-game"
    """A round past the last of a game with a set number of rounds (``rounds.count`` a number)."""
    HAND_TOO_LARGE = "hand-too-large"
    BONEYARD_TOO_LARGE = "boneyard-too-large"
    """More tiles left in the boneyard than the ruleset's deal leaves for this many players."""
    IMPOSSIBLE = "impossible"
    """Cannot arise under any of the rulesets asked for."""
    # the rulesets
    UNKNOWN_VARIANT = "unknown-variant"
    IMPOSSIBLE_OPTIONS = "impossible-options"
    IMPOSSIBLE_RULESET = "impossible-ruleset"
    """A house ruleset whose values or combination the ruleset files' schema refuses."""
    # a statistics request (rules.statistics.check_request)
    PLAYERS_OUT_OF_RANGE = "players-out-of-range"
    """A player count the ruleset's deal table gives no hand size for."""
    GAMES_OUT_OF_RANGE = "games-out-of-range"
    """A number of self-play games outside 1..rules.statistics.MAX_GAMES."""
    # the request around the position
    ENCODING = "encoding"
    IO = "io"
    UNREADABLE = "unreadable"
    BAD_JSON = "bad-json"
    BAD_REQUEST = "bad-request"
    FORM = "form"
    NOT_FOUND = "not-found"
    METHOD_NOT_ALLOWED = "method-not-allowed"
    LENGTH_REQUIRED = "length-required"
    RATE_LIMITED = "rate-limited"
    QUOTA_EXCEEDED = "quota-exceeded"
    CONTROL_CHARACTER = "control-character"
    """A text to be stored holds a control character (a NUL, an escape, a lone surrogate...)."""
    STORAGE_FULL = "storage-full"
    """The site has stored as much as it stores in a day (every address together)."""
    UNAVAILABLE = "unavailable"
    """The database cannot be reached: try again shortly."""
    INTERNAL_ERROR = "internal-error"


class InputError(ValueError):
    """Bad input: a code, a message, and the line and column it points at (where there is one)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 code: ErrorCode = ErrorCode.SYNTAX) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.code = code
        self.where: str = ""
        if line is not None and column is not None:
            self.where = Message("line {line}, column {column}: ", line=line, column=column)
        elif line is not None:
            self.where = Message("line {line}: ", line=line)
        super().__init__(self.where + message if self.where else message)  # a Message stays one

    def worded(self, lookup: Lookup) -> str:
        """The whole message in the language ``lookup`` gives (see rules.messages)."""
        return word(self.where, lookup) + word(self.message, lookup)

    def as_dict(self, lookup: Lookup | None = None) -> dict[str, Any]:
        """The API's ``error`` object, worded through ``lookup`` when one is given."""
        message = self.worded(lookup) if lookup is not None else str(self)
        return {"code": self.code.value, "message": message, "line": self.line, "column": self.column}
