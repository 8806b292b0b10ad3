from django.apps import AppConfig


class RefereeConfig(AppConfig):
    name = "mextrain_site.referee"
    label = "referee"
    default_auto_field = "django.db.models.BigAutoField"
