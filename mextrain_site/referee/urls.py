"""The referee's pages, under the language prefix: /<lang>/adjudicate/."""

from django.urls import path

from . import views

app_name = "referee"
urlpatterns = [
    path("adjudicate/", views.adjudicate, name="adjudicate"),
    path("adjudicate/share/", views.share, name="share"),
]
