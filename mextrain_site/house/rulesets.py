"""Stored house rulesets: a ``house-…`` id -> a Ruleset, and storing a new one.

House ids are read from the database and built by ``variants.house`` (cached per process: a
stored house ruleset never changes). The app registers :func:`house_ruleset` with the one
resolver of ruleset ids (``mextrain_site.core.rulesets``) when it loads, so every front end finds
house rulesets without importing this app. The engine only ever sees the Ruleset objects.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from typing import Any

from django.utils import translation
from django.utils.html import strip_tags

from mextrain_site.core.storing import NAME, RULES, insert_once, refuse_control, refuse_control_in
from mextrain_site.reference.wording import value_html  # the one wording of each value
from rules.errors import ErrorCode, InputError
from rules.messages import Message
from rules.ruleset import Ruleset
from variants import house as hs
from variants.loader import RulesetError
from variants.schema import HouseFile, house_from_data

from .models import HouseRuleset


@functools.lru_cache(maxsize=512)
def _stored(ident: str) -> Ruleset:
    """Read and built once per process (a stored row never changes; a miss raises, so it is not kept)."""
    row = HouseRuleset.objects.filter(pk=ident).only("base", "name", "rules").first()
    if row is None:
        raise RulesetError(Message("no house ruleset is called {variant}", variant=repr(ident)),
                           code=ErrorCode.UNKNOWN_VARIANT, variant=ident)
    return _built(ident, row)


def _built(ident: str, row: HouseRuleset) -> Ruleset:
    spec = house_from_data(row.base, row.name, json.loads(row.rules), file=ident)
    return hs.build(hs.check(spec), ident, describe)


def forget() -> None:
    """Drop what this process has read (for tests, whose database is emptied between them)."""
    _stored.cache_clear()


def describe(key: str, value: Any) -> str:
    """A value's sentence in English, as plain text: a house rule's note (the API, its file)."""
    with translation.override("en"):
        return " ".join(strip_tags(str(value_html(key, value, compact=True))).split())


def house_ruleset(ident: str) -> Ruleset:
    """A stored house ruleset: read from the database the first time it is asked for."""
    if len(ident) > 64 or not re.fullmatch(hs.ID_PATTERN, ident):  # PostgreSQL refuses a NUL even in a query
        raise RulesetError(Message("no house ruleset is called {variant}", variant=repr(ident[:64] + "…" * (len(ident) > 64))),
                           code=ErrorCode.UNKNOWN_VARIANT, variant=ident[:64])
    return _stored(ident)


def _reads_back(house: hs.House, data: str) -> None:
    """Read ``data`` as a stored row is read (:func:`_built`) and check it gives the same rules;
    raises RuntimeError (a fault of ours, not the player's) if not, before anything is written."""
    try:
        again = hs.check(house_from_data(house.base, house.name, json.loads(data), file="stored"))
    except InputError as exc:
        raise RuntimeError(f"house ruleset {house.id} would not read back as stored: {exc}") from exc
    if again.overrides != house.overrides:
        raise RuntimeError(f"house ruleset {house.id} would not read back as stored: other rules")


def store(spec: HouseFile, before_insert: Callable[[str], None] | None = None) -> Ruleset:
    """Check and store a house ruleset (once: the same rules give the same row and id).

    Raises RulesetError or RulesetFileError with the exact reason. ``before_insert(text)``
    is called before a new row is written (the storage quota), not when it is already stored."""
    house = hs.check(spec)
    refuse_control(house.name, NAME)
    refuse_control_in(house.data(), RULES)
    data = json.dumps(house.data(), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    _reads_back(house, data)  # before any insert: a row that could not be read is never stored
    digest = hs.full_digest(house.base, house.overrides)
    charge = (lambda: before_insert(house.name + data)) if before_insert is not None else None
    for length in (hs.ID_LENGTH, 20, len(digest)):
        key = hs.PREFIX + digest[:length]
        row = insert_once(HouseRuleset, key, {"base": house.base, "name": house.name, "rules": data},
                          before_insert=charge)
        if row.base == house.base and row.rules == data:
            # built from the row in hand: a second read could meet a writer's lock on SQLite
            return _built(key, row)
    raise RuntimeError(f"house ruleset id {digest} is taken by different rules")
