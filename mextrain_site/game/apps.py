from django.apps import AppConfig


class GameConfig(AppConfig):
    name = "mextrain_site.game"
    label = "game"
    default_auto_field = "django.db.models.BigAutoField"
