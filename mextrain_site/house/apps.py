from django.apps import AppConfig


class HouseConfig(AppConfig):
    name = "mextrain_site.house"
    label = "house"
    default_auto_field = "django.db.models.AutoField"
