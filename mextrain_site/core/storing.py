"""What the site stores, in one place: write-once rows under a content-derived key, safe under
concurrency (:func:`insert_once`, for shared rulings and house rulesets), and the texts they hold,
which may carry no control character (:func:`refuse_control`).

Texts the site stores (a shared position, a house ruleset's name and rules): no control characters.

PostgreSQL refuses a NUL character in a text column (SQLite stores it), and no other control
character (C0, DEL, C1) nor a lone surrogate belongs in a name, a rule's text or a position: none
can be typed, shown or copied back. :func:`refuse_control` is called wherever a text is about to
be stored; it raises :class:`rules.errors.InputError` (code ``control-character``, a 400) naming
the field, the character and where it is, in words each front end translates.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from django.db import IntegrityError, OperationalError, models, transaction

from rules.errors import ErrorCode, InputError
from rules.messages import Message

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""C0, DEL, C1 and lone surrogates: a text of one line may hold none of them."""
CONTROL_IN_LINES = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
"""The same, less tab and newline: a text of several lines (a position) may hold those two."""

POSITION = Message("the position")
NAME = Message("the name")
RULES = Message("the rules")


def refuse_control(text: str, field: str, *, lines: bool = False) -> None:
    """Raise InputError if ``text`` (``field``: what it is, a :class:`Message` to translate) holds
    a control character; ``lines``: tab and newline are allowed, and the error names the line and
    column."""
    found = (CONTROL_IN_LINES if lines else CONTROL).search(text)
    if found is None:
        return
    char = found.group()
    kind = Message("a lone surrogate") if "\ud800" <= char <= "\udfff" else Message("a control character")
    message = Message("{field} holds {kind} (U+{code}), which cannot be stored: remove it", field=field, kind=kind,
                      code=f"{ord(char):04X}")
    if lines:
        before = text[:found.start()]
        line = before.count("\n") + 1
        raise InputError(message, line, found.start() - (before.rfind("\n") + 1) + 1, code=ErrorCode.CONTROL_CHARACTER)
    raise InputError(message, code=ErrorCode.CONTROL_CHARACTER)


def refuse_control_in(data: Any, field: str) -> None:
    """:func:`refuse_control` on every text inside ``data`` (mappings, lists, texts: a rule's value),
    lines allowed in each."""
    for text in _texts(data):
        refuse_control(text, field, lines=True)


def _texts(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from _texts(key)
            yield from _texts(value)
    elif isinstance(data, (list, tuple)):
        for item in data:
            yield from _texts(item)


M = TypeVar("M", bound=models.Model)


def insert_once(model: type[M], key: str, fields: dict[str, Any], retries: int = 50,
                before_insert: Callable[[], None] | None = None) -> M:
    """The row ``key`` of ``model``: read if stored, else inserted with ``fields`` (write-once rows)."""
    manager = model._default_manager
    delay = 0.005
    for attempt in range(retries):
        try:
            existing = manager.filter(pk=key).first()
            if existing is not None:
                return existing
            if before_insert is not None:
                before_insert()
                before_insert = None  # charged once, however many retries follow
            try:
                with transaction.atomic():
                    return manager.create(pk=key, **fields)
            except IntegrityError:
                # A concurrent request inserted the same id first: read its row.
                return manager.get(pk=key)
        except OperationalError as exc:
            # SQLite reports a busy or locked database to concurrent writers; wait and retry.
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if attempt == retries - 1:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.2)
    raise AssertionError("unreachable")
