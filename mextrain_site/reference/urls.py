"""The rule reference. Mounted under the language prefix: /en/variants/, /he/compare/, ...
Every page answers with an ETag and Last-Modified tied to the ruleset files (304 when unchanged)."""

from django.urls import path

from mextrain_site.core.caching import conditional

from . import views

app_name = "reference"
urlpatterns = [
    path("variants/", conditional(views.variants), name="variants"),
    path("variants/<str:ident>/", conditional(views.variant), name="variant"),
    path("variants/<str:ident>/sheet/", conditional(views.sheet), name="sheet"),
    path("compare/", conditional(views.compare), name="compare"),
    path("which/", conditional(views.which), name="which"),
    path("sources/", conditional(views.source_list), name="sources"),
    path("sources/<str:seed>/", conditional(views.source), name="source"),
    path("reasons/", conditional(views.reasons), name="reasons"),
]
