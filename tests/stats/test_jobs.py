"""Jobs in the database: one per question, chunks stored once, merged exactly by the last."""

from __future__ import annotations

import datetime

import orjson
import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from mextrain_site.stats import engine, jobs
from mextrain_site.stats.models import Chunk, Job, Status
from rules.statistics import play_chunk
from variants.loader import get_ruleset

from .helpers import GAMES, PLAYERS, RULESET, SEED, asked, run_all, tally

pytestmark = pytest.mark.django_db


def no_limit() -> None:
    return None


def test_the_same_question_twice_is_one_job() -> None:
    first = jobs.ask(asked(), "192.0.2.1", no_limit)
    second = jobs.ask(asked(), "192.0.2.2", no_limit)
    assert first.pk == second.pk and Job.objects.count() == 1
    assert jobs.ask(asked(seed=SEED + 1), "192.0.2.1", no_limit).pk != first.pk
    with pytest.raises(IntegrityError), transaction.atomic():
        Job.objects.create(ruleset=RULESET, players=PLAYERS, games=GAMES, seed=SEED)


def test_the_merged_chunks_equal_one_worker_playing_every_game() -> None:
    job = run_all(jobs.ask(asked(), "192.0.2.1", no_limit))
    assert job.status == Status.DONE and job.progress == 1.0 and Chunk.objects.filter(job=job).count() == 3
    whole = play_chunk(get_ruleset(RULESET), PLAYERS, SEED, 0, GAMES)
    assert tally(job) == whole.to_json()
    assert orjson.loads(job.report) == engine.report_of(get_ruleset(RULESET), PLAYERS, SEED, whole).to_json()


def test_the_chunks_merge_whatever_order_they_land_in() -> None:
    job = jobs.ask(asked(), "192.0.2.1", no_limit)
    for start, stop in reversed(engine.spans(GAMES)):
        jobs.run_chunk(job.pk, start, stop)
    job.refresh_from_db()
    assert tally(job) == play_chunk(get_ruleset(RULESET), PLAYERS, SEED, 0, GAMES).to_json()


def test_a_chunk_delivered_twice_counts_once() -> None:
    job = jobs.ask(asked(), "192.0.2.1", no_limit)
    jobs.run_chunk(job.pk, 0, 2)
    jobs.run_chunk(job.pk, 0, 2)  # a retried task: already stored, not played again
    job.refresh_from_db()
    assert (job.games_done, job.status) == (2, Status.RUNNING) and round(job.progress, 3) == 0.333
    with pytest.raises(IntegrityError), transaction.atomic():  # two copies landing at once: the second is refused
        Chunk.objects.create(job=job, start=0, stop=2, tally="{}")
    job = run_all(job)
    assert job.status == Status.DONE and job.games_done == GAMES
    assert tally(job) == play_chunk(get_ruleset(RULESET), PLAYERS, SEED, 0, GAMES).to_json()


def test_a_job_is_merged_once_and_a_late_copy_changes_nothing() -> None:
    job = run_all(jobs.ask(asked(), "192.0.2.1", no_limit))
    before = (job.tally, job.report, job.finished)
    jobs.run_chunk(job.pk, 2, 4)
    assert jobs.finish(job.pk)
    job.refresh_from_db()
    assert (job.tally, job.report, job.finished) == before


def test_a_chunk_that_fails_fails_the_job_and_a_retry_plays_only_the_rest() -> None:
    job = jobs.ask(asked(), "192.0.2.1", no_limit)
    jobs.run_chunk(job.pk, 0, 2)
    Job.objects.filter(pk=job.pk).update(ruleset="masters+no-such-option")  # the engine cannot play it
    jobs.run_chunk(job.pk, 2, 4)
    job.refresh_from_db()
    assert job.status == Status.FAILED and "no-such-option" in job.error and job.games_done == 2
    Job.objects.filter(pk=job.pk).update(ruleset=RULESET)
    job.refresh_from_db()
    retried = jobs.retry(job, "192.0.2.1", no_limit)
    assert retried.status == Status.QUEUED and retried.error == ""
    assert list(Chunk.objects.filter(job=job).values_list("start", flat=True)) == [0]
    job = run_all(retried)
    assert job.status == Status.DONE
    assert tally(job) == play_chunk(get_ruleset(RULESET), PLAYERS, SEED, 0, GAMES).to_json()


def test_a_job_that_has_not_moved_for_long_is_stale_and_may_be_retried() -> None:
    job = jobs.ask(asked(), "192.0.2.1", no_limit)
    assert not jobs.stale(job)
    long_ago = timezone.now() - datetime.timedelta(hours=1)
    Job.objects.filter(pk=job.pk).update(updated=long_ago)
    job.refresh_from_db()
    assert jobs.stale(job)
    assert jobs.retry(job, "192.0.2.1", no_limit).status == Status.QUEUED


def test_a_limit_refuses_a_new_job_but_not_one_already_asked() -> None:
    class Refused(Exception):
        pass

    def refuse() -> None:
        raise Refused

    job = jobs.ask(asked(), "192.0.2.1", no_limit)
    assert jobs.ask(asked(), "192.0.2.1", refuse).pk == job.pk
    with pytest.raises(Refused):
        jobs.ask(asked(seed=99), "192.0.2.1", refuse)
    assert Job.objects.count() == 1
