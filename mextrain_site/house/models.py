"""House rulesets: a table's own rules, stored under a content-derived id (see variants/house.py)."""

from __future__ import annotations

from typing import Any

from django.db import models


class HouseRuleset(models.Model):
    """What ``/h/<id>/`` shows and any ruleset picker accepts. Written once, never changed.

    The id is derived from the base and the overrides (:func:`variants.house.house_id`), not the
    name: the same rules always give the same id, and the first name given is the one kept."""

    id = models.CharField(primary_key=True, max_length=64)
    base = models.CharField(max_length=300)
    """The canonical published ruleset id it is built on."""
    name = models.CharField(max_length=60)
    rules = models.TextField()
    """The overrides as canonical JSON: rule key -> value as plain data."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "house ruleset"

    def __str__(self) -> str:
        return self.id

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("a house ruleset never changes once stored")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)
