"""A game night's score sheet, stored as an append-only log of events.

A :class:`Game` row holds what never changes (the players, the ruleset, the set, the hash of the
edit secret); every round entered, corrected or the game ended is a new :class:`GameEvent`,
numbered 1, 2, 3... per game. The number is the sheet's version: a write names the version it was
based on and inserts the next number, so two writes based on the same version cannot both land
(the unique constraint refuses the second). Nothing is ever updated or deleted.
"""

from __future__ import annotations

from typing import Any

from django.db import models


class Game(models.Model):
    id = models.CharField(primary_key=True, max_length=16)
    ruleset = models.CharField(max_length=300)
    """The ruleset id as resolved (options included, or a ``house-…`` id)."""
    set_max = models.PositiveSmallIntegerField()
    players = models.JSONField()
    """The players' names, in seat order."""
    token_hash = models.CharField(max_length=64)
    """SHA-256 of the edit secret (hex): the secret itself is never stored."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "game"

    def __str__(self) -> str:
        return self.id

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("a game's header never changes once stored; append an event")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)


class GameEvent(models.Model):
    class Kind(models.TextChoices):
        ROUND = "round", "round entered"
        CORRECTION = "correction", "round corrected"
        FINISHED = "finished", "game finished"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    """1, 2, 3... per game: the sheet's version after this event."""
    kind = models.CharField(max_length=12, choices=Kind.choices)
    data = models.JSONField()
    """A round: ``{"round": 1, "out": "Ann" | null, "blocked": false, "hands": {"Bob": ["0-0"], "Cy": 21}}``."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "game event"
        ordering = ("game", "seq")
        constraints = [models.UniqueConstraint(fields=("game", "seq"), name="game_event_once_per_version")]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("an event never changes once stored; append a correction")
        kwargs["force_insert"] = True
        super().save(*args, **kwargs)
