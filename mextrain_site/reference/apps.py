from django.apps import AppConfig


class ReferenceConfig(AppConfig):
    name = "mextrain_site.reference"
    label = "reference"
    default_auto_field = "django.db.models.BigAutoField"
