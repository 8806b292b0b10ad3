"""A statistics job and its chunks, in the database (never in a Celery result backend).

A :class:`Job` is one question: a ruleset, a player count, a number of games and a seed. The four
are unique together, so the same question asked twice, or by a thousand readers, is one row and
one computation. The games are split into chunks (``rules.statistics.chunks``); a :class:`Chunk`
row holds one finished chunk's tally, unique per (job, first game), so a chunk delivered twice
(a retried task, a worker lost after it wrote) counts once. The last chunk to land merges them
all into the job's ``tally`` and ``report`` (see :mod:`.jobs`).
"""

from __future__ import annotations

from django.db import models


class Status(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"


class Job(models.Model):
    ruleset = models.CharField(max_length=200)
    """The ruleset's id as the engine resolves it (options joined by ``+``, or ``house-…``)."""
    players = models.PositiveSmallIntegerField()
    games = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    games_done = models.PositiveIntegerField(default=0)
    """Games of the chunks stored so far: the progress is ``games_done / games``."""
    error = models.TextField(blank=True, default="")
    """Why it failed (English, for the log and the API; a page words its own sentence)."""
    address = models.CharField(max_length=64, blank=True, default="")
    """The client address that started it (the cap on queued jobs per address)."""
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    tally = models.TextField(blank=True, default="")
    """The merged ``Tally.to_json()`` of every chunk, as JSON text."""
    report = models.TextField(blank=True, default="")
    """``Report.to_json()`` of the merged tally, as JSON text: the API's 200 body."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "players", "games", "seed"], name="stats_job_one_per_question"),
        ]
        indexes = [models.Index(fields=["address", "status"], name="stats_job_address")]

    def __str__(self) -> str:
        return f"{self.ruleset} {self.players}p {self.games}g seed {self.seed}: {self.status}"

    @property
    def progress(self) -> float:
        return 1.0 if self.status == Status.DONE else min(1.0, self.games_done / self.games) if self.games else 0.0


class Chunk(models.Model):
    job = models.ForeignKey(Job, on_delete=models.CASCADE, related_name="chunks")
    start = models.PositiveIntegerField()
    stop = models.PositiveIntegerField()
    tally = models.TextField()
    """``Tally.to_json()`` of games ``start`` to ``stop`` (excluded), as JSON text."""

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "start"], name="stats_chunk_once")]
