"""Games outside the language prefix: the API (/api/games...) and the sheet's links (/g/<id>/...),
so that one link serves the whole table whatever language each phone reads in."""

from django.urls import re_path

from . import api, stream, views
from .store import ID_PATTERN

app_name = "game"
urlpatterns = [
    re_path(r"^api/games$", api.create_view, name="api-games"),
    re_path(rf"^api/games/(?P<game_id>{ID_PATTERN})$", api.game_view, name="api-game"),
    re_path(rf"^api/games/(?P<game_id>{ID_PATTERN})/rounds$", api.rounds_view, name="api-rounds"),
    re_path(rf"^g/(?P<game_id>{ID_PATTERN})/$", views.sheet_view, name="sheet"),
    re_path(rf"^g/(?P<game_id>{ID_PATTERN})/edit/$", views.edit_view, name="edit"),
    re_path(rf"^g/(?P<game_id>{ID_PATTERN})/sheet\.csv$", views.csv_view, name="csv"),
    re_path(rf"^g/(?P<game_id>{ID_PATTERN})/chart\.svg$", views.chart_view, name="chart"),
    re_path(rf"^g/(?P<game_id>{ID_PATTERN})/events$", stream.events_view, name="events"),
]
