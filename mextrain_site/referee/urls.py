"""The referee's pages, under the language prefix: /<lang>/adjudicate/."""

from django.urls import path

from . import build_views, views

app_name = "referee"
urlpatterns = [
    path("adjudicate/", views.adjudicate, name="adjudicate"),
    path("adjudicate/share/", views.share, name="share"),
    path("adjudicate/build/", build_views.build, name="build"),
]
