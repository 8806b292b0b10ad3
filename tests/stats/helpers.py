"""Small jobs for the statistics' tests: Masters Traditional Games plays one round a game, so a
few games take a fraction of a second; chunks of two games make a job of several chunks."""

from __future__ import annotations

import time
from typing import Any

import orjson

from mextrain_site.stats import jobs
from mextrain_site.stats.models import Job, Status

RULESET, PLAYERS, GAMES, SEED, CHUNK = "masters", 4, 6, 7, 2
QUERY = f"players={PLAYERS}&games={GAMES}&seed={SEED}"


def asked(games: int = GAMES, seed: int = SEED, ruleset: str = RULESET) -> jobs.Question:
    return jobs.question(ruleset, str(PLAYERS), str(games), str(seed))


def run_all(job: Job) -> Job:
    """Every chunk of ``job`` played here, in order (what the workers do, one after the other)."""
    for start, stop in jobs.engine.spans(job.games):
        jobs.run_chunk(job.pk, start, stop)
    job.refresh_from_db()
    return job


def wait_done(job_id: int, timeout: float = 60) -> Job:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = Job.objects.get(pk=job_id)
        if job.status in (Status.DONE, Status.FAILED):
            return job
        time.sleep(0.05)
    raise AssertionError(f"job {job_id} not finished within {timeout} s")


def tally(job: Job) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads(job.tally)
    return data
