"""Chunks landing at once from several workers (threads with their own connections): every game is
counted once and the job merged once, exactly. On PostgreSQL (tests/stats/test_postgres.py runs this
file there): SQLite's in-memory test database locks whole tables instead of waiting."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

from mextrain_site.stats import engine, jobs
from mextrain_site.stats.models import Chunk, Job, Status
from rules.statistics import play_chunk
from tests.db_threads import in_thread
from variants.loader import get_ruleset

from .helpers import PLAYERS, RULESET, SEED, tally

pytestmark = pytest.mark.django_db(transaction=True)
GAMES = 12


def test_the_database_in_use() -> None:
    expected = os.environ.get("MEXTRAIN_EXPECT_DB_VENDOR")
    assert connection.vendor == (expected or connection.vendor)


def test_chunks_landing_at_once_are_counted_once_and_merged_once_exactly() -> None:
    if connection.vendor == "sqlite":
        pytest.skip("SQLite's shared in-memory test database refuses concurrent writers: run on PostgreSQL")
    job = Job.objects.create(ruleset=RULESET, players=PLAYERS, games=GAMES, seed=SEED)  # queued; no worker sent
    spans = [*engine.spans(GAMES)] * 2  # every chunk delivered twice
    start = threading.Barrier(len(spans))

    def land(span: tuple[int, int]) -> None:
        start.wait()
        jobs.run_chunk(job.pk, *span)

    with ThreadPoolExecutor(len(spans)) as pool:
        for future in [pool.submit(in_thread(land, span)) for span in spans]:
            future.result()
    job.refresh_from_db()
    assert job.status == Status.DONE and job.games_done == GAMES
    assert Chunk.objects.filter(job=job).count() == len(engine.spans(GAMES))
    assert tally(job) == play_chunk(get_ruleset(RULESET), PLAYERS, SEED, 0, GAMES).to_json()
