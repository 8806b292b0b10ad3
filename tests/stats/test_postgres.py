"""The statistics' storage tests again, on PostgreSQL (tests/on_postgres.py): the row lock of the
merge and the unique chunk under concurrent workers."""

from __future__ import annotations

import pytest

from tests.on_postgres import needs_postgres, rerun


@pytest.mark.postgres
@needs_postgres
def test_statistics_storage_on_postgresql() -> None:
    rerun("tests/stats/test_concurrent.py", "test_the_database_in_use",
          "test_chunks_landing_at_once_are_counted_once_and_merged_once_exactly")
    rerun("tests/stats/test_jobs.py", "test_a_chunk_delivered_twice_counts_once")
