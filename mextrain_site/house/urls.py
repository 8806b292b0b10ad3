"""The builder, under the language prefix: /<lang>/house/ (namespace ``builder``), and a house
ruleset's page among the rulesets, /<lang>/variants/house-…/ (included before the reference's
URLs, whose ``reference:variant`` reverses to the same address)."""

from django.urls import path, re_path

from mextrain_site.core.caching import conditional

from . import views

app_name = "builder"
urlpatterns = [
    path("house/", views.builder, name="builder"),
    path("house/upload/", views.upload, name="upload"),
    # any id a player may type after the prefix (what is not a house id's form is a 404 worded here)
    re_path(r"^variants/(?P<ident>\s*house-[^/]*)/$", conditional(views.house_page), name="variant"),
]
