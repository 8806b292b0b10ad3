"""Storage tests run again on PostgreSQL, in a subprocess.

`make test` runs the suite under scripts/with_postgres.py, which starts a throwaway cluster and
exports MEXTRAIN_TEST_POSTGRES_URL. :func:`rerun` runs a test file in a subprocess with
DATABASE_URL set to it, so Django uses PostgreSQL for that whole run; :data:`needs_postgres` skips
such a test, saying why, when the variable is not set.

The suite runs on several pytest-xdist workers against the one cluster: each worker's reruns name a
database of their own (``mextrain_gw0`` ...), so pytest-django creates and drops ``test_mextrain_gw0``
and two workers never share a test database. The named database itself need not exist (Django creates
its test database from the ``postgres`` maintenance database)."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.parse
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
URL = os.environ.get("MEXTRAIN_TEST_POSTGRES_URL")

needs_postgres = pytest.mark.skipif(
    not URL, reason="MEXTRAIN_TEST_POSTGRES_URL is not set: run through scripts/with_postgres.py (make test does) "
                    "to run the storage tests on PostgreSQL")


def worker_url(url: str, worker: str | None = None) -> str:
    """``url`` naming this worker's own database: ``mextrain_<worker>`` (``mextrain_main`` outside xdist)."""
    worker = worker or os.environ.get("PYTEST_XDIST_WORKER") or "main"
    return urllib.parse.urlsplit(url)._replace(path=f"/mextrain_{worker}").geturl()


def rerun(test_file: str, *expected: str) -> None:
    """Run ``test_file`` on PostgreSQL; it must pass, with each test named in ``expected`` passed
    (not skipped) among them."""
    env = {**os.environ, "DATABASE_URL": worker_url(URL or ""), "MEXTRAIN_EXPECT_DB_VENDOR": "postgresql"}
    env.pop("MEXTRAIN_TEST_POSTGRES_URL", None)  # the subprocess must not recurse into these tests
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        env.pop(name, None)  # the subprocess is a plain pytest run, not a worker
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", test_file],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-5000:]
    for name in expected:
        assert f"PASSED {test_file}::{name}" in out, out[-5000:]
