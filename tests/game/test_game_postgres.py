"""The games API's storage tests again, on PostgreSQL (tests/on_postgres.py)."""

from __future__ import annotations

import pytest

from tests.on_postgres import needs_postgres, rerun


@pytest.mark.postgres
@needs_postgres
def test_game_storage_on_postgresql() -> None:
    rerun("tests/game/test_game_api.py", "test_the_database_in_use",
          "test_concurrent_writes_of_one_round_exactly_one_wins")
