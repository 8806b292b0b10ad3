"""Jobs: asked once, split into chunks, each chunk stored once, merged by the last to land.

:func:`question` reads and checks what is asked (the engine's ``check_request`` gives the allowed
ranges); :func:`ask` finds its job, or the shipped figures (:mod:`.published`), or starts it;
:func:`run_chunk` is what a worker (a Celery task or the embedded thread) runs for one chunk;
:func:`finish` merges once every game is stored: under a row lock on the job (``select_for_update``;
PostgreSQL), so of two chunks landing together exactly one merges, and the merge reads every chunk
committed before it.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from mextrain_site.core.rulesets import resolve
from rules.errors import ErrorCode, InputError
from rules.messages import Message
from rules.numbers import ascii_int
from rules.ruleset import Ruleset

from . import engine, published, queue
from .models import Chunk, Job, Status

log = logging.getLogger(__name__)

DEFAULT_PLAYERS = 4
DEFAULT_GAMES = 2000
"""Games of a job when the request names none: the shipped figures' count."""
DEFAULT_SEED = 26
"""Seed of a job when the request names none: the shipped figures' seed."""
MAX_SEED = 999_999_999


@dataclass(frozen=True)
class Question:
    ruleset: Ruleset
    players: int
    games: int
    seed: int

    @property
    def key(self) -> tuple[str, int, int, int]:
        return (self.ruleset.id, self.players, self.games, self.seed)


def _number(text: str | None, name: Message, default: int) -> int:
    if text is None or text == "":
        return default
    value = ascii_int(text, max_digits=12)
    if value is None:
        raise InputError(Message("{name} must be a whole number written in digits; found {found}",
                                 name=name, found=repr(text[:20])), code=ErrorCode.BAD_REQUEST)
    return value


PLAYERS = Message("the number of players")
GAMES = Message("the number of games")
SEED = Message("the seed")


def question(ident: str, players: str | None, games: str | None, seed: str | None) -> Question:
    """What is asked, checked: the ruleset (``resolve``: an unknown id is an ``unknown-variant``
    error), then the numbers (the engine's ranges for players and games)."""
    ruleset = resolve(ident)
    asked = Question(ruleset, _number(players, PLAYERS, usual_players(ruleset)), _number(games, GAMES, DEFAULT_GAMES),
                     _number(seed, SEED, DEFAULT_SEED))
    engine.check_request(ruleset, asked.players, asked.games)
    if asked.seed > MAX_SEED:
        raise InputError(Message("the seed must be a whole number from 0 to {most}; found {found}",
                                 most=f"{MAX_SEED:,}", found=str(asked.seed)), code=ErrorCode.BAD_REQUEST)
    return asked


def usual_players(ruleset: Ruleset) -> int:
    """The player count a ruleset's figures are shown for when none is asked: four, or the count
    nearest four that its table allows."""
    for players in sorted(range(2, 10), key=lambda n: (abs(n - DEFAULT_PLAYERS), n)):
        try:
            engine.check_request(ruleset, players, DEFAULT_GAMES)
        except InputError:
            continue
        return players
    return DEFAULT_PLAYERS


def find(asked: Question) -> Job | None:
    ident, players, games, seed = asked.key
    return Job.objects.filter(ruleset=ident, players=players, games=games, seed=seed).first()


def stale(job: Job) -> bool:
    """A job queued or running that has not moved for ``STATS_STALE_SECONDS``: its worker is gone."""
    limit = datetime.timedelta(seconds=settings.STATS_STALE_SECONDS)
    return job.status in (Status.QUEUED, Status.RUNNING) and timezone.now() - job.updated > limit


Guard = Callable[[], None]
"""Called before a job is started or retried: raises (a limit) to refuse it."""


def ask(asked: Question, address: str, guard: Guard) -> Job:
    """The job of ``asked``: stored (one per question), the shipped figures, or a new one started."""
    job = find(asked)
    if job is not None:
        return job
    shipped = published.tally_for(*asked.key)
    if shipped is not None:
        return _store_shipped(asked, shipped)
    guard()
    ident, players, games, seed = asked.key
    try:
        with transaction.atomic():
            job = Job.objects.create(ruleset=ident, players=players, games=games, seed=seed, address=address)
    except IntegrityError:  # asked at the same moment by another reader: theirs is the one job
        return Job.objects.get(ruleset=ident, players=players, games=games, seed=seed)
    _send(job, engine.spans(games))
    return job


def retry(job: Job, address: str, guard: Guard) -> Job:
    """Start a failed (or stale) job again: only the chunks not stored yet are played."""
    if job.status == Status.DONE or (job.status != Status.FAILED and not stale(job)):
        return job
    guard()
    if not Job.objects.filter(pk=job.pk, status=job.status, updated=job.updated).update(
            status=Status.QUEUED, error="", address=address, updated=timezone.now()):
        return Job.objects.get(pk=job.pk)  # another reader retried it first
    stored = set(Chunk.objects.filter(job=job).values_list("start", flat=True))
    _send(job, [s for s in engine.spans(job.games) if s[0] not in stored])
    job.refresh_from_db()
    return job


def _send(job: Job, spans: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> None:
    job_id = job.pk

    def send() -> None:
        try:
            queue.send(job_id, spans, run_chunk)
        except Exception as exc:  # the broker is unreachable: say so on the job, a retry sends again
            log.exception("statistics job %s not queued", job_id)
            fail(job_id, f"not queued: {exc}")

    transaction.on_commit(send)


def fail(job_id: int, error: str) -> None:
    Job.objects.filter(pk=job_id).exclude(status=Status.DONE).update(
        status=Status.FAILED, error=error[:2000], updated=timezone.now())


def _json(data: Any) -> str:
    return orjson.dumps(data).decode()


def run_chunk(job_id: int, start: int, stop: int) -> None:
    """Play games ``start`` to ``stop`` of job ``job_id`` and store them, once; then merge if they
    were the last. Safe to run twice, at once or one after the other, on any machine."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or job.status == Status.DONE:
        return
    if not Chunk.objects.filter(job_id=job_id, start=start).exists():
        now = timezone.now()
        Job.objects.filter(pk=job_id, status=Status.QUEUED).update(status=Status.RUNNING, started=now, updated=now)
        try:
            tally = engine.play(resolve(job.ruleset), job.players, job.seed, start, stop)
        except Exception as exc:
            log.exception("statistics job %s, games %s to %s, failed", job_id, start, stop)
            fail(job_id, f"{type(exc).__name__}: {exc}")
            return
        try:
            with transaction.atomic():
                Chunk.objects.create(job_id=job_id, start=start, stop=stop, tally=_json(tally.to_json()))
                Job.objects.filter(pk=job_id).update(games_done=F("games_done") + (stop - start),
                                                     updated=timezone.now())
        except IntegrityError:
            pass  # delivered twice: the first copy is stored, this one counts for nothing
    finish(job_id)


def finish(job_id: int) -> bool:
    """Merge the job's chunks once all its games are stored; True when it is done."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status == Status.DONE:
            return True
        rows = list(Chunk.objects.filter(job=job).order_by("start").values_list("start", "stop", "tally"))
        if sum(stop - start for start, stop, _ in rows) < job.games:
            return False
        tally = engine.merged([orjson.loads(t) for _, _, t in rows])
        report = engine.report_of(resolve(job.ruleset), job.players, job.seed, tally)
        job.tally, job.report = _json(tally.to_json()), _json(report.to_json())
        job.status, job.error, job.finished, job.games_done = Status.DONE, "", timezone.now(), job.games
        job.save()
        return True


def _store_shipped(asked: Question, tally: dict[str, Any]) -> Job:
    """The shipped figures of ``asked`` (``make stats``), stored as a finished job."""
    merged = engine.merged([tally])
    report = engine.report_of(asked.ruleset, asked.players, asked.seed, merged)
    ident, players, games, seed = asked.key
    now = timezone.now()
    try:
        with transaction.atomic():
            return Job.objects.create(ruleset=ident, players=players, games=games, seed=seed, status=Status.DONE,
                                      games_done=games, tally=_json(tally), report=_json(report.to_json()),
                                      started=now, finished=now)
    except IntegrityError:
        return Job.objects.get(ruleset=ident, players=players, games=games, seed=seed)


def queued_by(address: str) -> int:
    """Jobs of ``address`` waiting or running now."""
    return Job.objects.filter(address=address, status__in=(Status.QUEUED, Status.RUNNING)).count()
