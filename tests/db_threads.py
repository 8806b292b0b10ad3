"""Concurrency helpers for the storage tests: work in a thread with its own database connection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections


def in_thread(fn: Callable[..., Any], *args: Any) -> Callable[[], Any]:
    """Run ``fn`` in a worker thread with its own connection, closed afterwards."""
    def run() -> Any:
        try:
            return fn(*args)
        finally:
            connections.close_all()
    return run
