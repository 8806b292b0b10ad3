"""ASGI entry point, for the live score sheet's streams (``/g/<id>/events``):
``uvicorn mextrain_site.asgi:application``. Every other page works here too; production serves
them through gunicorn's sync workers (``mextrain_site.wsgi``) and sends only the streams here."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mextrain_site.settings")
application = get_asgi_application()
