"""Write-once rows under a content-derived key, safe under concurrency: one helper for every app
that stores such rows (shared rulings, house rulesets)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import IntegrityError, OperationalError, models, transaction

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
