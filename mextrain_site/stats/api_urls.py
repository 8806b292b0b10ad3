"""The statistics' API, mounted at /api/ before the API's catch-all (mextrain_site/urls.py)."""

from django.urls import path

from . import views

app_name = "stats-api"
urlpatterns = [
    path("variants/<str:ident>/stats", views.api_view, name="stats"),
]
