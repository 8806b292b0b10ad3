from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.test import override_settings

from .helpers import CHUNK


@pytest.fixture(autouse=True)
def _small_chunks() -> Iterator[None]:
    """Chunks of two games: a job of six games is three chunks."""
    with override_settings(STATS_CHUNK_GAMES=CHUNK):
        yield
