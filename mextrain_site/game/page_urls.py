"""The new-game page, under the language prefix (/en/game/new/)."""

from django.urls import path

from . import views

app_name = "games"
urlpatterns = [
    path("game/new/", views.new_view, name="new"),
]
