"""Short share links, outside the language prefix: /r/<id>/ (namespace ``share``)."""

from django.urls import re_path

from . import views
from .sharing import ID_PATTERN

app_name = "share"
urlpatterns = [
    re_path(rf"^(?P<share_id>{ID_PATTERN})/$", views.shared, name="ruling"),
]
