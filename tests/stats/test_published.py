"""The shipped figures (``make stats``: mextrain_site/stats/published.json): current with the engine,
and shown at once on a fresh database."""

from __future__ import annotations

import pytest
from django.test import Client

from mextrain_site.stats import published
from mextrain_site.stats.jobs import DEFAULT_GAMES, DEFAULT_SEED, usual_players
from mextrain_site.stats.management.commands.publish_stats import fingerprint
from mextrain_site.stats.models import Job, Status
from variants.loader import get_ruleset, option_ids


def test_the_shipped_figures_were_computed_by_the_engine_of_today() -> None:
    """The fingerprint (a small chunk's tally) played again: when the engine plays differently, this
    fails, and ``make stats`` writes the file again."""
    shipped = published.load()["fingerprint"]
    assert shipped is not None, "no published figures: run make stats"
    assert fingerprint() == shipped, "the engine plays differently from the shipped figures: run make stats"


def test_each_shipped_figure_is_a_published_ruleset_at_its_usual_count_and_the_defaults() -> None:
    figures = published.load()["figures"]
    assert figures
    for f in figures:
        assert f["ruleset"] in option_ids()
        assert (f["players"], f["games"], f["seed"]) == (usual_players(get_ruleset(f["ruleset"])), DEFAULT_GAMES,
                                                         DEFAULT_SEED)
        assert f["tally"]["games"] == DEFAULT_GAMES


@pytest.mark.django_db
def test_a_published_rulesets_figures_show_at_once_on_a_fresh_database(client: Client) -> None:
    shipped = published.load()["figures"][0]
    ident = shipped["ruleset"]
    page = client.get(f"/en/variants/{ident.replace('+', '%2B')}/stats/")
    assert page.status_code == 200 and "In plain words" in page.text and "hx-trigger" not in page.text
    api = client.get(f"/api/variants/{ident.replace('+', '%2B')}/stats?players={shipped['players']}")
    assert api.status_code == 200 and api.json()["games"] == DEFAULT_GAMES
    job = Job.objects.get()
    assert job.status == Status.DONE and job.address == ""
