"""The engine's statistics, as this app uses them: the one module that imports ``rules.statistics``.

The web layer decides nothing here: which games, which strategies, what a metric means and its
interval are the engine's; this app stores tallies, merges them and shows the report."""

from __future__ import annotations

import functools
from typing import Any

from django.conf import settings

from rules.ruleset import Ruleset
from rules.statistics import CHUNK, METRICS, Report, Tally, check_request, chunks, play_chunk, report

__all__ = ["METRICS", "Report", "Tally", "check_request", "merged", "play", "report_of", "spans"]


def spans(games: int) -> tuple[tuple[int, int], ...]:
    """The chunks of a job of ``games`` games: (first game, last game + 1) each."""
    size = settings.STATS_CHUNK_GAMES or CHUNK
    return tuple(chunks(games, size=size))


def play(ruleset: Ruleset, players: int, seed: int, start: int, stop: int) -> Tally:
    return play_chunk(ruleset, players, seed, start, stop)


def merged(tallies: list[dict[str, Any]]) -> Tally:
    """The exact merge of chunk tallies (as stored JSON)."""
    return functools.reduce(Tally.merge, (Tally.from_json(t) for t in tallies))


def report_of(ruleset: Ruleset, players: int, seed: int, tally: Tally) -> Report:
    return report(ruleset, players, seed, tally)
