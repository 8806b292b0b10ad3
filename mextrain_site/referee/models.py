"""Shared rulings: a position text and the rulesets chosen, stored under a content-derived id."""

from __future__ import annotations

from typing import Any

from django.db import models


class SharedRuling(models.Model):
    """What a short link ``/r/<id>/`` re-judges. Written once, never changed.

    The id is derived from the content (:func:`mextrain_site.referee.sharing.share_id`), so the
    same text and rulesets always give the same link."""

    id = models.CharField(primary_key=True, max_length=32)
    text = models.TextField()
    variants = models.CharField(max_length=2000, blank=True, default="")
    """Canonical ruleset ids, sorted, separated by single spaces; empty = as the text says."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "shared ruling"

    def __str__(self) -> str:
        return self.id

    @property
    def variant_ids(self) -> list[str]:
        return self.variants.split()

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("a shared ruling never changes once stored")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)
