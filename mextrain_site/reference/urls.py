"""The rule reference. Mounted under the language prefix: /en/variants/, /he/compare/, ..."""

from django.urls import path

from . import views

app_name = "reference"
urlpatterns = [
    path("variants/", views.variants, name="variants"),
    path("variants/<str:ident>/", views.variant, name="variant"),
    path("variants/<str:ident>/sheet/", views.sheet, name="sheet"),
    path("compare/", views.compare, name="compare"),
    path("which/", views.which, name="which"),
    path("sources/", views.source_list, name="sources"),
    path("sources/<str:seed>/", views.source, name="source"),
    path("reasons/", views.reasons, name="reasons"),
]
