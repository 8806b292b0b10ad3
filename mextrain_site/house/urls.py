"""The builder, under the language prefix: /<lang>/house/ (namespace ``builder``)."""

from django.urls import path

from . import views

app_name = "builder"
urlpatterns = [
    path("house/", views.builder, name="builder"),
    path("house/upload/", views.upload, name="upload"),
]
