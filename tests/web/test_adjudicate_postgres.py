"""The share storage tests again, on PostgreSQL.

`make test` runs the suite under scripts/with_postgres.py, which starts a throwaway cluster
and exports MEXTRAIN_TEST_POSTGRES_URL. This test then runs
tests/web/test_adjudicate_share_storage.py in a subprocess with DATABASE_URL set to it, so
Django uses PostgreSQL for that whole run. Without the variable it skips, saying why.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
URL = os.environ.get("MEXTRAIN_TEST_POSTGRES_URL")
STORAGE_TESTS = "tests/web/test_adjudicate_share_storage.py"


@pytest.mark.postgres
@pytest.mark.skipif(not URL, reason="MEXTRAIN_TEST_POSTGRES_URL is not set: run through scripts/with_postgres.py "
                                    "(make test does) to test share storage on PostgreSQL")
def test_share_storage_on_postgresql() -> None:
    env = {**os.environ, "DATABASE_URL": URL or "", "MEXTRAIN_EXPECT_DB_VENDOR": "postgresql"}
    env.pop("MEXTRAIN_TEST_POSTGRES_URL", None)  # the subprocess must not recurse into this test
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", STORAGE_TESTS],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-5000:]
    for name in ("test_the_database_in_use", "test_concurrent_stores_of_the_same_and_different_texts_store_each_once",
                 "test_concurrent_share_requests_through_the_views"):
        assert f"PASSED {STORAGE_TESTS}::{name}" in out, out[-5000:]
