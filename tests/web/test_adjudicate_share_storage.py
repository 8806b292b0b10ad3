"""Concurrent shares lose nothing: many threads share the same and different rulings at once,
and every one is stored exactly once.

Runs on the configured database: SQLite by default, PostgreSQL when DATABASE_URL points at
one (tests/web/test_adjudicate_postgres.py runs this file that way under `make test`).
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.test import Client

from mextrain_site.referee.models import SharedRuling
from mextrain_site.referee.sharing import share_id, store
from mextrain_site.referee.views import EXAMPLE
from tests.db_threads import in_thread

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

THREADS = 16
TEXTS = [EXAMPLE.replace("boneyard: 23", f"boneyard: {n}") for n in range(10, 22)]



def test_the_database_in_use() -> None:
    """Under test_adjudicate_postgres.py the run must really be on PostgreSQL."""
    expected = os.environ.get("MEXTRAIN_EXPECT_DB_VENDOR")
    assert connection.vendor == (expected or connection.vendor)
    assert connection.vendor in ("sqlite", "postgresql")


def test_concurrent_stores_of_the_same_and_different_texts_store_each_once() -> None:
    jobs = [(TEXTS[i % len(TEXTS)], ["masters"] if i % 3 == 0 else []) for i in range(96)]
    barrier = threading.Barrier(THREADS)

    def job(text: str, variants: list[str]) -> str:
        try:
            barrier.wait(timeout=10)
        except threading.BrokenBarrierError:
            pass
        return store(text, variants).pk

    with ThreadPoolExecutor(THREADS) as pool:
        futures = [pool.submit(in_thread(job, text, variants)) for text, variants in jobs]
        ids = [f.result(timeout=60) for f in futures]

    expected = {share_id(text, variants) for text, variants in jobs}
    for (text, variants), got in zip(jobs, ids):
        assert got == share_id(text, variants)
    rows = list(SharedRuling.objects.all())
    assert Counter(r.pk for r in rows) == Counter(expected)  # each exactly once, none lost
    by_id = {r.pk: r for r in rows}
    for text, variants in jobs:
        row = by_id[share_id(text, variants)]
        assert row.text == text and row.variant_ids == sorted(variants)


def test_concurrent_share_requests_through_the_views() -> None:
    texts = TEXTS[:4]
    barrier = threading.Barrier(THREADS)

    def job(n: int) -> tuple[int, str]:
        client = Client()
        try:
            barrier.wait(timeout=10)
        except threading.BrokenBarrierError:
            pass
        r = client.post("/en/adjudicate/share/", {"position": texts[n % len(texts)]})
        return r.status_code, r.get("Location", "")

    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda n: in_thread(job, n)(), range(THREADS * 2)))

    assert {status for status, _ in results} == {303}
    assert {loc for _, loc in results} == {f"/r/{share_id(t, [])}/" for t in texts}
    assert SharedRuling.objects.count() == len(texts)
    for t in texts:
        assert SharedRuling.objects.get(pk=share_id(t, [])).text == t
