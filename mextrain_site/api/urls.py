"""The JSON API, mounted at /api/ outside the language prefix (see mextrain_site/urls.py)."""

from django.urls import path, re_path

from . import views

app_name = "api"
urlpatterns = [
    path("adjudicate", views.adjudicate_view, name="adjudicate"),
    path("variants", views.variants_view, name="variants"),
    path("variants/<str:ident>", views.variant_view, name="variant"),
    # Anything else under /api/ is a JSON 404, never an HTML page or a slash redirect.
    re_path(r"^(?P<rest>.*)$", views.not_found, name="not-found"),
]
