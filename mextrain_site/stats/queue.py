"""Where a job's chunks run, chosen in this one place.

* A broker is configured (``settings.STATS_BROKER_URL``, Redis: production): each chunk is a Celery
  task (:mod:`.tasks`), taken by any worker on any machine (``celery -A mextrain_site worker``).
* None (``make run``, the tests): the same chunk function runs in the embedded fallback, a bounded
  pool of daemon threads in the server process (``settings.STATS_THREADS``), so the page works on a
  fresh machine. Jobs are not kept across a restart of the process: one left unfinished shows as
  failed once it is stale, with a retry.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable, Iterable

from django.conf import settings
from django.db import connections

log = logging.getLogger(__name__)

TASK = "mextrain_site.stats.tasks.play_chunk"
"""The Celery task's name (:func:`.tasks.play_chunk`)."""

Work = Callable[[int, int, int], None]


def embedded() -> bool:
    """True when the chunks run in this process's threads (no broker configured)."""
    return not settings.STATS_BROKER_URL


def send(job_id: int, spans: Iterable[tuple[int, int]], work: Work) -> None:
    """Queue chunks ``spans`` of job ``job_id``: to the broker, or to the embedded pool, which runs
    ``work(job_id, start, stop)`` (the function a Celery worker runs)."""
    if embedded():
        for start, stop in spans:
            _pool().put((work, job_id, start, stop))
        return
    from mextrain_site.celery import app  # imported only where a broker is configured

    for start, stop in spans:
        app.send_task(TASK, args=(job_id, start, stop))


_queue: queue.SimpleQueue[tuple[Work, int, int, int]] = queue.SimpleQueue()
_threads: list[threading.Thread] = []
_lock = threading.Lock()


def _pool() -> queue.SimpleQueue[tuple[Work, int, int, int]]:
    with _lock:
        _threads[:] = [t for t in _threads if t.is_alive()]
        while len(_threads) < max(1, settings.STATS_THREADS):
            thread = threading.Thread(target=_serve, name=f"stats-{len(_threads)}", daemon=True)
            thread.start()
            _threads.append(thread)
    return _queue


def _serve() -> None:
    while True:
        work, job_id, start, stop = _queue.get()
        try:
            work(job_id, start, stop)
        except Exception:  # the job is marked failed by the work itself; keep serving the others
            log.exception("statistics chunk %s [%s, %s) failed", job_id, start, stop)
        finally:
            connections.close_all()
