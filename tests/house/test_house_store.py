"""Concurrent creations lose nothing: many threads create the same and different house rulesets
at once; each is stored exactly once under its content-derived id.

Runs on the configured database: SQLite by default, PostgreSQL when DATABASE_URL points at one
(tests/house/test_house_postgres.py runs this file that way under `make test`)."""

from __future__ import annotations

import os
import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from mextrain_site.house.models import HouseRuleset
from mextrain_site.house.rulesets import store
from tests.db_threads import in_thread
from variants import house as hs
from variants.schema import house_from_data

pytestmark = [pytest.mark.django_db(transaction=True)]

THREADS = 12
RULES = [{"scoring.double_blank": n} for n in range(1, 7)]



def test_the_database_in_use() -> None:
    expected = os.environ.get("MEXTRAIN_EXPECT_DB_VENDOR")
    assert connection.vendor == (expected or connection.vendor)


def test_concurrent_creations_store_each_once() -> None:
    jobs = [(["masters", "howto"][i % 2], RULES[i % len(RULES)], f"name {i}") for i in range(72)]
    barrier = threading.Barrier(THREADS)

    def job(base: str, rules: dict[str, int], name: str) -> str:
        try:
            barrier.wait(timeout=10)
        except threading.BrokenBarrierError:
            pass
        return store(house_from_data(base, name, rules)).id

    with ThreadPoolExecutor(THREADS) as pool:
        ids = [f.result(timeout=60) for f in [pool.submit(in_thread(job, *j)) for j in jobs]]
    expected = [hs.house_id(base, {k: v for k, v in rules.items()}) for base, rules, _ in jobs]
    assert ids == expected
    rows = list(HouseRuleset.objects.all())
    assert Counter(r.pk for r in rows) == Counter(set(expected))  # each exactly once, none lost
    for row in rows:
        assert row.name.startswith("name ")
