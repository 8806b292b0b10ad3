"""The statistics page in Chromium: the progress bar moves by htmx polling and the result is swapped
in without a reload; read at 375 px, in English and in Hebrew (right to left), without sideways
scrolling or English left over."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import OperationalError
from django.test import override_settings
from playwright.sync_api import Page, expect

from mextrain_site.stats import jobs
from mextrain_site.stats.models import Job
from tests.browser.helpers import english_left, scrolls_sideways, serious
from tests.browser.reading import overflowing

pytestmark = pytest.mark.browser

RULESET, PLAYERS, GAMES, SEED = "masters", 4, 6, 11


def play(job_id: int, start: int, stop: int) -> None:
    """A worker playing one chunk, beside the live server's thread polling the same in-memory SQLite,
    whose shared cache refuses a write while a read holds the table (at once, without waiting): try
    again, as a chunk may be run any number of times."""
    for _ in range(200):
        try:
            return jobs.run_chunk(job_id, start, stop)
        except OperationalError as exc:
            if "locked" not in str(exc):
                raise
            time.sleep(0.05)
    raise AssertionError("the test database stayed locked")


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_progress_bar_moves_and_the_result_is_swapped_in_without_a_reload(
        page: Page, live_server: Any, language: str) -> None:
    with override_settings(STATS_CHUNK_GAMES=2):
        job = Job.objects.create(ruleset=RULESET, players=PLAYERS, games=GAMES, seed=SEED)  # queued, no worker yet
        page.set_viewport_size({"width": 375, "height": 800})
        page.goto(f"{live_server.url}/{language}/variants/{RULESET}/stats/?players={PLAYERS}&games={GAMES}&seed={SEED}")
        page.evaluate("window.notReloaded = true")
        bar = page.locator("#stats-job progress")
        expect(bar).to_have_attribute("value", "0")
        play(job.pk, 0, 2)  # a worker plays the first chunk
        expect(bar).to_have_attribute("value", "33", timeout=10_000)
        assert not scrolls_sideways(page) and serious(page) == [] and english_left(page, language) == []
        for start, stop in ((2, 4), (4, 6)):
            play(job.pk, start, stop)
        expect(page.locator("#stats-job h2").first).to_be_visible(timeout=10_000)
        assert page.evaluate("window.notReloaded") is True
        expect(page.locator("#stats-job progress")).to_have_count(0)
        expect(page.locator("#stats-job img")).to_have_count(3)
        page.wait_for_function("() => [...document.querySelectorAll('#stats-job img')]"
                               ".every(img => img.complete && img.naturalWidth > 0)", timeout=60_000)
        assert not scrolls_sideways(page) and serious(page) == [] and english_left(page, language) == []
        assert page.evaluate("document.documentElement.dir") == ("rtl" if language == "he" else "ltr")
        page.goto("about:blank")  # nothing left polling the server once the test's database is gone


@pytest.mark.parametrize("language", ["en", "he"])
def test_two_rulesets_side_by_side_read_at_375_px(page: Page, live_server: Any, language: str) -> None:
    with override_settings(STATS_CHUNK_GAMES=2):
        for ruleset in (RULESET, "masters+no-special-first-turn"):
            job = Job.objects.create(ruleset=ruleset, players=PLAYERS, games=GAMES, seed=SEED)
            for start, stop in ((0, 2), (2, 4), (4, 6)):
                play(job.pk, start, stop)
        page.set_viewport_size({"width": 375, "height": 800})
        page.goto(f"{live_server.url}/{language}/stats/?v={RULESET}&v=masters%2Bno-special-first-turn"
                  f"&players={PLAYERS}&games={GAMES}&seed={SEED}")
        expect(page.locator("#stats-compare table")).to_be_visible()
        assert not scrolls_sideways(page), overflowing(page)
        assert serious(page) == [] and english_left(page, language) == []
