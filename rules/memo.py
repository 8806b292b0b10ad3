"""Bounded per-process memos: what a long-running server remembers between requests.

A moves, a name, a tile as written recur across requests, so the engine makes each once and
shares it. A server runs for weeks, so every such table is bounded: :class:`Memo` is a dict (looked
up with ``get``, in C) that drops every entry when it is full before it keeps a new one. Dropping
all at once, not the oldest, keeps a lookup free of bookkeeping; a working set larger than the
limit costs refilling, never memory.
"""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(dict[K, V]):
    """A dict of at most ``limit`` entries: :meth:`keep` adds one, emptying the memo first when full."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """Remember ``value`` for ``key`` and return what the memo holds for it (``setdefault``:
        when two threads make the same entry, both get the one kept)."""
        if len(self) >= self.limit:
            self.clear()
        return self.setdefault(key, value)
