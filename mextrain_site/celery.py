"""The Celery app of the statistics' workers: ``celery -A mextrain_site worker``.

Its broker is ``settings.STATS_BROKER_URL`` (Redis; by default the ``REDIS_URL`` of the shared
cache). No result backend: a chunk's result is written to the database by the task itself
(mextrain_site/stats/jobs.py). The web processes import this module only to send tasks, and only
when a broker is configured (mextrain_site/stats/queue.py): then with the server (``wsgi.py``), by
:func:`ready_to_send`, not with the first job.
"""

from __future__ import annotations

import os

from celery import Celery  # type: ignore[import-untyped]  # untyped library

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mextrain_site.settings")

app = Celery("mextrain_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["mextrain_site.stats"])


def ready_to_send() -> None:
    """Load what a process's first ``send_task`` would: the task modules and the message machinery
    (about 0.25 s here, the import of this module 0.1 s more). A server calls it before its first
    request, so that the first statistics job each server process starts is not the slower to reach
    the workers. Nothing connects to the broker yet."""
    app.loader.import_default_modules()
    app.amqp.producer_pool  # noqa: B018  (built on first use)
