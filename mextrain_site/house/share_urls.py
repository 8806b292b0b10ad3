"""A house ruleset's short links, outside the language prefix: /h/<id>/ and /h/<id>.yaml
(namespace ``house``)."""

from django.urls import re_path

from variants.house import ID_PATTERN

from . import views

app_name = "house"
urlpatterns = [
    re_path(rf"^(?P<ident>{ID_PATTERN})/$", views.page, name="page"),
    re_path(rf"^(?P<ident>{ID_PATTERN})\.yaml$", views.download, name="yaml"),
]
