"""The house ruleset storage tests again, on PostgreSQL (as tests/web/test_adjudicate_postgres.py
does for shared rulings): `make test` exports MEXTRAIN_TEST_POSTGRES_URL; without it this skips."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
URL = os.environ.get("MEXTRAIN_TEST_POSTGRES_URL")
STORE_TESTS = "tests/house/test_house_store.py"


@pytest.mark.postgres
@pytest.mark.skipif(not URL, reason="MEXTRAIN_TEST_POSTGRES_URL is not set: run through scripts/with_postgres.py "
                                    "(make test does) to test house ruleset storage on PostgreSQL")
def test_house_storage_on_postgresql() -> None:
    env = {**os.environ, "DATABASE_URL": URL or "", "MEXTRAIN_EXPECT_DB_VENDOR": "postgresql"}
    env.pop("MEXTRAIN_TEST_POSTGRES_URL", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", STORE_TESTS],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-5000:]
    for name in ("test_the_database_in_use", "test_concurrent_creations_store_each_once"):
        assert f"PASSED {STORE_TESTS}::{name}" in out, out[-5000:]


DEAL_TESTS = "tests/house/test_house_deal_stored.py"


@pytest.mark.postgres
@pytest.mark.skipif(not URL, reason="MEXTRAIN_TEST_POSTGRES_URL is not set: run through scripts/with_postgres.py "
                                    "(make test does) to test house ruleset storage on PostgreSQL")
def test_hand_size_tables_stored_and_migrated_on_postgresql() -> None:
    """A changed hand-size table saved, the all-or-nothing store and migration 0002, on PostgreSQL."""
    env = {**os.environ, "DATABASE_URL": URL or "", "MEXTRAIN_EXPECT_DB_VENDOR": "postgresql"}
    env.pop("MEXTRAIN_TEST_POSTGRES_URL", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", DEAL_TESTS],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-5000:]
    assert f"PASSED {DEAL_TESTS}::test_migration_rewrites_rows_stored_in_the_broken_form" in out, out[-5000:]
