"""Storing shared rulings: content-derived ids, insert-once semantics safe under concurrency.

``share_id(text, variants)`` is the first characters of the base32 SHA-256 of a canonical
serialisation of the text and the sorted ruleset ids; :func:`store` inserts the row if it is
not there yet (two requests sharing the same ruling at once both get the one row; a unique
violation from a concurrent insert is caught and the winner's row read back).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable, Iterable

from mextrain_site.core.storing import POSITION, insert_once, refuse_control

from .models import SharedRuling

ID_LENGTH = 12
"""Characters of the id in a link: 60 bits of the hash."""
ID_PATTERN = r"[a-z2-7]{%d,32}" % ID_LENGTH


class ShareCollision(RuntimeError):
    """Two different contents hash to the same full-length id (not expected to happen)."""


def canonical(text: str, variants: Iterable[str]) -> bytes:
    """The serialisation the id is derived from: the text as given, the ids deduplicated and sorted."""
    ids = sorted(set(variants))
    return json.dumps({"v": 1, "text": text, "variants": ids}, ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


def full_digest(text: str, variants: Iterable[str]) -> str:
    digest = hashlib.sha256(canonical(text, variants)).digest()
    return base64.b32encode(digest).decode("ascii").rstrip("=").lower()


def share_id(text: str, variants: Iterable[str]) -> str:
    return full_digest(text, variants)[:ID_LENGTH]


def _matches(row: SharedRuling, text: str, joined: str) -> bool:
    return row.text == text and row.variants == joined


def store(text: str, variants: Iterable[str], *, retries: int = 50,
          before_insert: Callable[[], None] | None = None) -> SharedRuling:
    """Store ``text`` judged under ``variants`` (empty: as the text says) and return the row.

    Idempotent: storing the same content again returns the stored row unchanged. If a
    different content ever took the short id, a longer prefix of the same hash is used.
    ``before_insert`` is called once before a new row is written (the storage quota; it may raise
    to refuse), not when the content is already stored."""
    refuse_control(text, POSITION, lines=True)
    ids = sorted(set(variants))
    joined = " ".join(ids)
    digest = full_digest(text, ids)
    for length in (ID_LENGTH, 20, len(digest)):
        key = digest[:length]
        row = insert_once(SharedRuling, key, {"text": text, "variants": joined}, retries, before_insert)
        if _matches(row, text, joined):
            return row
    raise ShareCollision(f"share id {digest} is taken by a different ruling")
