from django.apps import AppConfig


class StatsConfig(AppConfig):
    name = "mextrain_site.stats"
    label = "stats"
    default_auto_field = "django.db.models.BigAutoField"
