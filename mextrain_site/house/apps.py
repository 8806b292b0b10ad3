from django.apps import AppConfig


class HouseConfig(AppConfig):
    name = "mextrain_site.house"
    label = "house"
    default_auto_field = "django.db.models.AutoField"

    def ready(self) -> None:
        """Lend the apps below this one its rulesets: ``house-…`` ids resolve everywhere."""
        from mextrain_site.core.rulesets import HouseRulesets, register_house

        from .rulesets import describe, house_ruleset

        register_house(HouseRulesets(lookup=house_ruleset, describe=describe))
