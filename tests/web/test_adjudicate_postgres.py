"""The share storage tests again, on PostgreSQL (tests/on_postgres.py): the whole of
tests/web/test_adjudicate_share_storage.py with DATABASE_URL pointing at `make test`'s cluster."""

from __future__ import annotations

import pytest

from tests.on_postgres import needs_postgres, rerun


@pytest.mark.postgres
@needs_postgres
def test_share_storage_on_postgresql() -> None:
    rerun("tests/web/test_adjudicate_share_storage.py", "test_the_database_in_use",
          "test_concurrent_stores_of_the_same_and_different_texts_store_each_once",
          "test_concurrent_share_requests_through_the_views",
          "test_a_ruleset_name_with_a_control_character_is_a_400_in_json[U+0000]",
          "test_the_house_builder_refuses_a_control_character_in_the_name_and_keeps_it")
