"""WSGI entry point: ``gunicorn mextrain_site.wsgi``."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mextrain_site.settings")
application = get_wsgi_application()

from mextrain_site.core.warm import settle  # noqa: E402  (needs the apps loaded)

settle()
