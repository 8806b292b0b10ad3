"""The house app's endpoint of the JSON API, mounted at /api/ before the API's own URLs (whose
catch-all answers a JSON 404 for anything else)."""

from django.urls import path

from . import api

app_name = "house_api"
urlpatterns = [
    path("rulesets", api.create_ruleset_view, name="rulesets"),
]
