"""``GET /api/variants/<id>/stats``: 202 while the job runs (the first request starts it), 200 with
the report when done, the one error body for bad input, 503 with a retry for a failed job, 429
past a limit."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.test import Client, override_settings

from mextrain_site.stats import jobs
from mextrain_site.stats.models import Job, Status
from rules.statistics import MAX_GAMES, play_chunk, report
from variants.loader import get_ruleset

from .helpers import GAMES, PLAYERS, QUERY, RULESET, SEED, asked, run_all

URL = f"/api/variants/{RULESET}/stats"


def get(base: str, path: str) -> tuple[int, dict[str, Any]]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


@pytest.mark.django_db(transaction=True)
def test_a_job_answers_202_while_it_runs_then_200_with_the_report(live_server: Any) -> None:
    """Over real HTTP, with the embedded fallback: the first request starts the job in the server's
    thread; polling shows its progress; the answer is the engine's report of every game."""
    status, body = get(live_server.url, f"{URL}?{QUERY}")
    assert status == 202 and body["status"] in ("queued", "running") and 0 <= body["progress"] < 1
    seen = [body["progress"]]
    deadline = time.monotonic() + 60
    while status == 202 and time.monotonic() < deadline:
        time.sleep(0.05)
        status, body = get(live_server.url, f"{URL}?{QUERY}")
        if status == 202:
            seen.append(body["progress"])
    assert status == 200, body
    assert seen == sorted(seen)
    whole = play_chunk(get_ruleset(RULESET), PLAYERS, SEED, 0, GAMES)
    assert body == json.loads(json.dumps(report(get_ruleset(RULESET), PLAYERS, SEED, whole).to_json()))
    assert set(body) >= {"ruleset", "players", "games", "rounds", "seed", "metrics"}
    assert body["metrics"]["turns_per_round"]["ci95"][0] <= body["metrics"]["turns_per_round"]["mean"]
    assert Job.objects.count() == 1


@pytest.mark.django_db
def test_a_thousand_readers_asking_at_once_share_one_job(client: Client) -> None:
    answers = {client.get(f"{URL}?{QUERY}").status_code for _ in range(20)}
    assert answers == {202} and Job.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(("query", "code", "says"), [
    ("players=4&games=0", "games-out-of-range", f"from 1 to {MAX_GAMES}"),
    ("players=4&games=1000000000", "games-out-of-range", f"from 1 to {MAX_GAMES}"),
    ("players=1", "players-out-of-range", "from 2 to"),
    ("players=four", "bad-request", "the number of players must be a whole number"),
    ("seed=-3", "bad-request", "the seed must be a whole number"),
    ("seed=99999999999", "bad-request", "from 0 to 999,999,999"),
])
def test_bad_numbers_are_refused_with_the_allowed_range(client: Client, query: str, code: str, says: str) -> None:
    r = client.get(f"{URL}?{query}")
    assert r.status_code == 400 and r["Content-Type"].startswith("application/json")
    error = r.json()["error"]
    assert error["code"] == code and says in error["message"], error
    assert Job.objects.count() == 0


@pytest.mark.django_db
def test_an_unknown_ruleset_is_a_bad_request_naming_the_known_ones(client: Client) -> None:
    r = client.get("/api/variants/nosuch/stats?players=4")
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown-variant"
    assert "masters" in r.json()["error"]["message"]


@pytest.mark.django_db
def test_an_error_is_worded_in_the_readers_language(client: Client) -> None:
    english = client.get(f"{URL}?players=4&games=0").json()["error"]["message"]
    for lang in ("hu", "he"):
        worded = client.get(f"{URL}?players=4&games=0", HTTP_ACCEPT_LANGUAGE=lang).json()["error"]["message"]
        assert worded != english and str(MAX_GAMES) in worded.replace(",", "").replace(" ", "").replace("\u00a0", "")


@pytest.mark.django_db
def test_another_method_is_refused_with_allow(client: Client) -> None:
    r = client.delete(f"{URL}?{QUERY}")
    assert r.status_code == 405 and r["Allow"] == "GET, HEAD, POST" and r.json()["error"]["code"] == "method-not-allowed"


@pytest.mark.django_db
def test_a_failed_job_says_so_and_a_post_starts_it_again(client: Client) -> None:
    job = jobs.ask(asked(), "127.0.0.1", lambda: None)
    Job.objects.filter(pk=job.pk).update(status=Status.FAILED, error="MemoryError: the worker ran out of memory")
    r = client.get(f"{URL}?{QUERY}")
    assert r.status_code == 503 and r.json()["status"] == "failed" and "MemoryError" in r.json()["error"]
    assert r.json()["retry"] == {"method": "POST", "url": f"{URL}?{QUERY}"}
    again = client.post(f"{URL}?{QUERY}")
    assert again.status_code == 202 and again.json() == {"status": "queued", "progress": 0.0}
    run_all(Job.objects.get(pk=job.pk))
    assert client.get(f"{URL}?{QUERY}").status_code == 200


@pytest.mark.django_db
@pytest.mark.ratelimit
def test_starting_jobs_is_rate_limited_per_address(client: Client) -> None:
    with override_settings(RATE_LIMITS={"stats": "2/h"}, STATS_QUEUED_PER_ADDRESS=0):
        assert [client.get(f"{URL}?players=4&games=3&seed={s}").status_code for s in (1, 2)] == [202, 202]
        refused = client.get(f"{URL}?players=4&games=3&seed=3")
        assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
        assert refused.json()["error"]["code"] == "rate-limited"
        assert client.get(f"{URL}?players=4&games=3&seed=1").status_code == 202  # asking after a job is free
        other = client.get(f"{URL}?players=4&games=3&seed=3", REMOTE_ADDR="192.0.2.9")
        assert other.status_code == 202


@pytest.mark.django_db
@pytest.mark.ratelimit
def test_an_address_may_have_only_so_many_jobs_waiting(client: Client) -> None:
    with override_settings(RATE_LIMITS={"stats": "off"}, STATS_QUEUED_PER_ADDRESS=2):
        assert [client.get(f"{URL}?players=4&games=3&seed={s}").status_code for s in (1, 2)] == [202, 202]
        refused = client.get(f"{URL}?players=4&games=3&seed=3", HTTP_ACCEPT_LANGUAGE="it")
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate-limited"
        assert "2" in refused.json()["error"]["message"] and "statistics" not in refused.json()["error"]["message"]
        run_all(Job.objects.get(seed=1))  # one done: room for another
        assert client.get(f"{URL}?players=4&games=3&seed=3").status_code == 202
