"""The Celery app of the statistics' workers: ``celery -A mextrain_site worker``.

Its broker is ``settings.STATS_BROKER_URL`` (Redis; by default the ``REDIS_URL`` of the shared
cache). No result backend: a chunk's result is written to the database by the task itself
(mextrain_site/stats/jobs.py). The web processes import this module only to send tasks, and only
when a broker is configured (mextrain_site/stats/queue.py).
"""

from __future__ import annotations

import os

from celery import Celery  # type: ignore[import-untyped]  # untyped library

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mextrain_site.settings")

app = Celery("mextrain_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["mextrain_site.stats"])
