"""The statistics' pages: a finished job in every language (no English left), its charts, the
progress while it runs and its htmx swap, a failed job with its Retry, bad input, the 429 page and
two rulesets side by side."""

from __future__ import annotations

import re

import orjson
import pytest
from django.test import Client, override_settings

from mextrain_site.stats import jobs, present
from mextrain_site.stats.models import Job, Status
from tests.catalogues import english_in
from tests.languages import LANGUAGES
from tests.player_text import player_text

from .helpers import QUERY, RULESET, asked, run_all

pytestmark = pytest.mark.django_db
PAGE = f"/{{lang}}/variants/{RULESET}/stats/?{QUERY}"
OTHER = "masters+no-special-first-turn"
OTHER_Q = "masters%2Bno-special-first-turn"


def done(ruleset: str = RULESET) -> Job:
    return run_all(jobs.ask(asked(ruleset=ruleset), "127.0.0.1", lambda: None))


def body(html: bytes) -> str:
    """The page's main part as a player reads it (the header's language names are each in their own)."""
    text = html.decode()
    main = text[text.index("<main>"):text.index("</main>")]
    return player_text(main)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_finished_job_reads_in_every_language_with_its_charts(client: Client, lang: str) -> None:
    done()
    r = client.get(PAGE.format(lang=lang))
    assert r.status_code == 200 and f'lang="{lang}"' in r.text
    assert "hx-trigger" not in r.text and "<progress" not in r.text
    if lang != "en":
        assert english_in(body(r.content), lang) == []
    charts = re.findall(r'<img src="([^"]+\.svg\?[^"]+)"[^>]*alt="([^"]+)"', r.text)
    assert len(charts) == 3 and all(alt.strip() for _, alt in charts)
    for src, _ in charts:
        svg = client.get(src.replace("&amp;", "&"))
        assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml" and svg.content.startswith(b"<?xml")
    assert ("dir=rtl" in charts[0][0]) == (lang == "he")


def test_every_figure_states_its_sample_beside_it(client: Client) -> None:
    job = done()
    report = orjson.loads(job.report)
    text = body(client.get(PAGE.format(lang="en")).content)
    assert f"Sample: {report['games']} games, {report['rounds']} rounds, seed {report['seed']}." in text
    assert "one planner against 3 random players; one greedy player against 3 random players" in text
    turns = report["metrics"]["turns_per_round"]
    assert f"from {turns['n']} rounds" in text and text.count("Sample:") >= 4  # the page and each chart
    assert f"from {report['metrics']['winning_total']['n']} games" in text


def test_the_win_rate_chart_names_its_bars_in_the_readers_language(client: Client) -> None:
    done()
    english = client.get(f"/en/variants/{RULESET}/stats/wins.svg?{QUERY}").content
    italian = client.get(f"/it/variants/{RULESET}/stats/wins.svg?{QUERY}").content
    assert english != italian and b"<svg" in italian
    hebrew = client.get(f"/he/variants/{RULESET}/stats/wins.svg?{QUERY}&dir=rtl")
    assert hebrew.status_code == 200 and hebrew.content != english
    assert client.get(f"/en/variants/{RULESET}/stats/pie.svg?{QUERY}").status_code == 404
    assert client.get(f"/en/variants/{RULESET}/stats/wins.svg?players=4&games=9&seed=1").status_code == 404


def test_a_running_job_shows_its_progress_and_htmx_polls_the_same_address(client: Client) -> None:
    job = jobs.ask(asked(), "127.0.0.1", lambda: None)
    jobs.run_chunk(job.pk, 0, 2)
    r = client.get(PAGE.format(lang="en"))
    assert r.status_code == 200 and '<progress max="100" value="33"' in r.text and "Playing the games: 33% done." in r.text
    assert f'hx-get="/en/variants/{RULESET}/stats/?{QUERY.replace("&", "&amp;")}"' in r.text
    assert 'hx-trigger="every 1s"' in r.text and "htmx.min.js" in r.text
    partial = client.get(PAGE.format(lang="en"), HTTP_HX_REQUEST="true")
    assert partial.text.lstrip().startswith('<section id="stats-job"') and "<html" not in partial.text
    run_all(job)
    swapped = client.get(PAGE.format(lang="en"), HTTP_HX_REQUEST="true")
    assert "hx-trigger" not in swapped.text and "In plain words" in swapped.text and "<html" not in swapped.text


def test_a_queued_job_says_it_waits(client: Client) -> None:
    jobs.ask(asked(), "127.0.0.1", lambda: None)
    assert "Waiting for a free worker" in client.get(PAGE.format(lang="en")).text


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_failed_job_shows_a_retry_that_starts_it_again(client: Client, lang: str) -> None:
    job = jobs.ask(asked(), "127.0.0.1", lambda: None)
    Job.objects.filter(pk=job.pk).update(status=Status.FAILED, error="MemoryError")
    r = client.get(PAGE.format(lang=lang))
    assert r.status_code == 200 and 'role="alert"' in r.text and 'method="post"' in r.text and "hx-trigger" not in r.text
    if lang == "en":
        assert "The computation failed." in r.text and ">Retry</button>" in r.text
    else:
        assert "A számítás nem sikerült." in r.text and ">Újra</button>" in r.text
    retried = client.post(PAGE.format(lang=lang))
    assert retried.status_code == 303 and retried["Location"] == PAGE.format(lang=lang)
    assert Job.objects.get(pk=job.pk).status == Status.QUEUED


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("query", ["players=1", "players=4&games=0", "players=4&games=1000000000", "players=four"])
def test_bad_input_is_a_400_page_in_the_readers_language_keeping_what_was_typed(
        client: Client, lang: str, query: str) -> None:
    r = client.get(f"/{lang}/variants/{RULESET}/stats/?{query}")
    assert r.status_code == 400 and 'role="alert"' in r.text
    typed = dict(p.split("=") for p in query.split("&"))
    for name, value in typed.items():
        assert f'name="{name}" value="{value}"' in r.text
    if lang != "en":
        assert english_in(body(r.content), lang) == []
    assert Job.objects.count() == 0


def test_an_unknown_ruleset_is_a_404_page(client: Client) -> None:
    r = client.get("/it/variants/nosuch/stats/")
    assert r.status_code == 404 and "nosuch" in r.text and 'lang="it"' in r.text


@pytest.mark.ratelimit
@pytest.mark.parametrize("lang", LANGUAGES)
def test_past_the_limits_a_429_page_in_the_readers_language(client: Client, lang: str) -> None:
    with override_settings(RATE_LIMITS={"stats": "off"}, STATS_QUEUED_PER_ADDRESS=1):
        assert client.get(f"/{lang}/variants/{RULESET}/stats/?players=4&games=3&seed=1").status_code == 200
        r = client.get(f"/{lang}/variants/{RULESET}/stats/?players=4&games=3&seed=2")
        assert r.status_code == 429 and int(r["Retry-After"]) > 0 and 'role="alert"' in r.text
        if lang != "en":
            assert english_in(body(r.content), lang) == []
    with override_settings(RATE_LIMITS={"stats": "1/h"}, STATS_QUEUED_PER_ADDRESS=0):
        client.get(f"/{lang}/variants/{RULESET}/stats/?players=4&games=3&seed=3")
        r = client.get(f"/{lang}/variants/{RULESET}/stats/?players=4&games=3&seed=4")
        assert r.status_code == 429 and int(r["Retry-After"]) > 0
        if lang != "en":
            assert english_in(body(r.content), lang) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_two_rulesets_side_by_side(client: Client, lang: str) -> None:
    done()
    done(OTHER)
    r = client.get(f"/{lang}/stats/?v={RULESET}&v={OTHER_Q}&{QUERY}")
    assert r.status_code == 200 and r.text.count('<section id="stats-compare"') == 1
    assert "hx-trigger" not in r.text and r.text.count("<tr") >= 10
    if lang != "en":
        assert english_in(body(r.content), lang) == []


def test_the_side_by_side_page_waits_for_both_and_offers_a_choice_first(client: Client) -> None:
    picker = client.get("/en/stats/")
    assert picker.status_code == 200 and picker.text.count('<select name="v">') == 2
    assert "Pick two rulesets to compare." in picker.text
    done()
    r = client.get(f"/en/stats/?v={RULESET}&v={OTHER_Q}&{QUERY}")
    assert "hx-trigger" in r.text and "<progress" in r.text and Job.objects.count() == 2
    bad = client.get(f"/en/stats/?v={RULESET}&v=nosuch")
    assert bad.status_code == 400 and "nosuch" in bad.text


def figure(name: str, mean: float, lo: float, hi: float, unit: str = "round") -> present.Figure:
    return present.figure(name, {"mean": mean, "ci95": [lo, hi], "n": 100, "unit": unit})


def test_a_difference_is_said_only_where_the_intervals_do_not_overlap() -> None:
    blocked_a = figure("blocked_round_rate", 0.31, 0.28, 0.34)
    blocked_b = figure("blocked_round_rate", 0.15, 0.13, 0.17)
    assert present.difference(blocked_a, "Masters", blocked_b, "Cardinal") == (
        "Rounds end blocked 2.1 times as often under Masters: 31% against 15%.")
    assert present.difference(blocked_b, "Cardinal", blocked_a, "Masters") == (
        "Rounds end blocked 2.1 times as often under Masters: 31% against 15%.")
    touching = figure("blocked_round_rate", 0.20, 0.17, 0.23)
    assert present.difference(touching, "A", figure("blocked_round_rate", 0.15, 0.13, 0.17), "B") == ""
    turns = present.difference(figure("turns_per_round", 41.25, 40.0, 42.5), "A", figure("turns_per_round", 40.0, 39.0, 39.9), "B")
    assert turns == "Rounds last 1.03 times as many turns under A: 41.2 against 40.0."
    none = present.difference(figure("blocked_round_rate", 0.05, 0.03, 0.07), "A", figure("blocked_round_rate", 0.0, 0.0, 0.02), "B")
    assert none == "Rounds ending blocked: higher under A, 5% against 0%."
    no_interval = present.figure("winning_total", {"mean": 90.0, "ci95": None, "n": 1, "unit": "game"})
    assert present.difference(no_interval, "A", figure("winning_total", 10.0, 9.0, 11.0, "game"), "B") == ""


def test_the_ruleset_the_house_ruleset_and_the_compare_pages_link_to_the_statistics(client: Client) -> None:
    assert f'href="/en/variants/{RULESET}/stats/"' in client.get(f"/en/variants/{RULESET}/").text
    compare = client.get(f"/he/compare/?v={RULESET}&v={OTHER_Q}").text
    assert f'href="/he/stats/?v={RULESET}&amp;v={OTHER_Q}"' in compare
    made = client.post("/api/rulesets", orjson.dumps({"base": "masters", "name": "Our table",
                                                      "rules": {"setup.equipment": "Markers and a hub"}}),
                       content_type="application/json")
    house = made.json()["id"]
    assert f'href="/it/variants/{house}/stats/"' in client.get(f"/it/variants/{house}/").text
    page = client.get(f"/it/variants/{house}/stats/?players=4&games=4")
    assert page.status_code == 200 and "Our table" in page.text and "<progress" in page.text
    assert Job.objects.get().ruleset == house
