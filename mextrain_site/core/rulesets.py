"""The one resolver of a ruleset id, for every front end: a published id (options joined by ``+``)
or a stored house ruleset's ``house-…`` id -> a :class:`~rules.ruleset.Ruleset`.

Published ids go to ``variants.loader``. House rulesets live in the database of the house app,
which sits above this one: it registers its lookup when it loads (``HouseConfig.ready``), so no
app below it imports it. Without the house app, a ``house-…`` id names no ruleset.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.errors import ErrorCode
from rules.messages import Message
from rules.ruleset import Ruleset
from variants.house import is_house_id
from variants.loader import RulesetError, get_ruleset

Describe = Callable[[str, Any], str]


@dataclass(frozen=True)
class HouseRulesets:
    """What the house app lends the apps below it."""

    lookup: Callable[[str], Ruleset]
    """A ``house-…`` id -> its stored ruleset; raises RulesetError (unknown-variant) when none is stored."""
    describe: Describe
    """A value's sentence in English, as plain text: a house rule's note (the API, its file, the CLI)."""


_HOUSE: list[HouseRulesets] = []


def register_house(house: HouseRulesets) -> None:
    """Called once by the house app when it loads (again: the later one replaces it)."""
    _HOUSE[:] = [house]


def resolve(ident: str) -> Ruleset:
    """The ruleset called ``ident``; raises RulesetError (the loader's texts for published ids)."""
    ident = ident.strip()
    if not is_house_id(ident):
        return get_ruleset(ident)
    if not _HOUSE:
        raise RulesetError(Message("no house ruleset is called {variant}", variant=repr(ident[:64])),
                           code=ErrorCode.UNKNOWN_VARIANT, variant=ident[:64])
    return _HOUSE[0].lookup(ident)


def describe(key: str, value: Any) -> str:
    """A value's sentence for a house rule's note ("" when the house app is not loaded)."""
    return _HOUSE[0].describe(key, value) if _HOUSE else ""
