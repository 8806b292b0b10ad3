"""Storage tests run again on PostgreSQL, in a subprocess.

`make test` runs the suite under scripts/with_postgres.py, which starts a throwaway cluster and
exports MEXTRAIN_TEST_POSTGRES_URL. :func:`rerun` runs a test file in a subprocess with
DATABASE_URL set to it, so Django uses PostgreSQL for that whole run; :data:`needs_postgres` skips
such a test, saying why, when the variable is not set."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
URL = os.environ.get("MEXTRAIN_TEST_POSTGRES_URL")

needs_postgres = pytest.mark.skipif(
    not URL, reason="MEXTRAIN_TEST_POSTGRES_URL is not set: run through scripts/with_postgres.py (make test does) "
                    "to run the storage tests on PostgreSQL")


def rerun(test_file: str, *expected: str) -> None:
    """Run ``test_file`` on PostgreSQL; it must pass, with each test named in ``expected`` passed
    (not skipped) among them."""
    env = {**os.environ, "DATABASE_URL": URL or "", "MEXTRAIN_EXPECT_DB_VENDOR": "postgresql"}
    env.pop("MEXTRAIN_TEST_POSTGRES_URL", None)  # the subprocess must not recurse into these tests
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", test_file],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-5000:]
    for name in expected:
        assert f"PASSED {test_file}::{name}" in out, out[-5000:]
