"""Short share links, outside the language prefix: /r/<id>/."""

from django.urls import path  # noqa: F401

urlpatterns: list = []
