"""The statistics' pages, under the language prefix (/en/variants/<id>/stats/, /en/stats/)."""

from django.urls import path

from . import views

app_name = "stats"
urlpatterns = [
    path("variants/<str:ident>/stats/", views.page_view, name="page"),
    path("variants/<str:ident>/stats/<str:kind>.svg", views.chart_view, name="chart"),
    path("stats/", views.compare_view, name="compare"),
]
