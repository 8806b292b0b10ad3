from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "mextrain_site.core"
    label = "core"
    verbose_name = "mextrain core"

    def ready(self) -> None:
        from . import checks  # noqa: F401  (registers the ruleset check)
