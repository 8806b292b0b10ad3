"""What each bad-input code answers over HTTP: the one table the API and the pages use.

The engine and the loader raise :class:`rules.errors.InputError` with an
:class:`~rules.errors.ErrorCode`; the CLI exits 2 on any of them."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from rules.errors import ErrorCode

C = ErrorCode

HTTP_STATUS: Mapping[ErrorCode, int] = MappingProxyType({
    C.SYNTAX: 400,
    C.TOO_LARGE: 413,
    C.TILE_TWICE: 400,
    C.PIP_ABOVE_SET: 400,
    C.TOO_MANY_TILES: 400,
    C.TRAIN_DOES_NOT_CHAIN: 400,
    C.NOT_AN_OPEN_DOUBLE: 400,
    C.ROUND_ABOVE_SET: 400,
    C.ROUND_ABOVE_GAME: 400,
    C.HAND_TOO_LARGE: 400,
    C.BONEYARD_TOO_LARGE: 400,
    C.IMPOSSIBLE: 400,
    C.UNKNOWN_VARIANT: 400,
    C.IMPOSSIBLE_OPTIONS: 400,
    C.IMPOSSIBLE_RULESET: 400,
    C.PLAYERS_OUT_OF_RANGE: 400,
    C.GAMES_OUT_OF_RANGE: 400,
    C.ENCODING: 400,
    C.IO: 400,
    C.UNREADABLE: 400,
    C.BAD_JSON: 400,
    C.BAD_REQUEST: 400,
    C.FORM: 400,
    C.NOT_FOUND: 404,
    C.METHOD_NOT_ALLOWED: 405,
    C.LENGTH_REQUIRED: 411,
    C.RATE_LIMITED: 429,
    C.QUOTA_EXCEEDED: 429,
    C.CONTROL_CHARACTER: 400,
    C.STORAGE_FULL: 503,
    C.UNAVAILABLE: 503,
    C.INTERNAL_ERROR: 500,
})
"""Every code's status. An unknown ruleset named in a request body is a bad request (400);
named by a URL (``/api/variants/<id>``, the reference pages) it is a page not found:
:func:`status` with ``in_path``."""


def status(code: ErrorCode, *, in_path: bool = False) -> int:
    """The HTTP status of a bad input; ``in_path``: the ruleset id is the URL's, not the body's."""
    if in_path and code is C.UNKNOWN_VARIANT:
        return HTTP_STATUS[C.NOT_FOUND]
    return HTTP_STATUS[code]
