"""WSGI entry point: ``gunicorn mextrain_site.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mextrain_site.settings")
application = get_wsgi_application()

from django.conf import settings  # noqa: E402

from mextrain_site.core.warm import settle  # noqa: E402  (needs the apps loaded)

if settings.STATS_BROKER_URL:  # the statistics' chunks go to Celery workers
    from mextrain_site.celery import ready_to_send

    ready_to_send()
settle()
