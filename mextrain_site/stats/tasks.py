"""The Celery task: one chunk of one job (see :mod:`.jobs` and :mod:`.queue`)."""

from __future__ import annotations

from celery import shared_task  # type: ignore[import-untyped]  # untyped library

from . import jobs
from .queue import TASK


@shared_task(name=TASK, ignore_result=True, acks_late=True)  # type: ignore[untyped-decorator]
def play_chunk(job_id: int, start: int, stop: int) -> None:
    jobs.run_chunk(job_id, start, stop)
