"""The house ruleset storage tests again, on PostgreSQL (tests/on_postgres.py), as
tests/web/test_adjudicate_postgres.py does for shared rulings."""

from __future__ import annotations

import pytest

from tests.on_postgres import needs_postgres, rerun


@pytest.mark.postgres
@needs_postgres
def test_house_storage_on_postgresql() -> None:
    rerun("tests/house/test_house_store.py", "test_the_database_in_use", "test_concurrent_creations_store_each_once")


@pytest.mark.postgres
@needs_postgres
def test_hand_size_tables_stored_and_migrated_on_postgresql() -> None:
    """A changed hand-size table saved, the all-or-nothing store and migration 0002, on PostgreSQL."""
    rerun("tests/house/test_house_deal_stored.py", "test_migration_rewrites_rows_stored_in_the_broken_form")
