"""Odd input where the statistics read a number or an id (tests/odd_input.py): a clear 400 or 404,
never a 500, and no job started."""

from __future__ import annotations

import urllib.parse

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mextrain_site.stats.models import Job
from tests.odd_input import controls, long_ids, odd_numbers, surrogates

pytestmark = pytest.mark.django_db

FIELDS = st.sampled_from(["players", "games", "seed"])
VALUES = odd_numbers | controls | surrogates | st.sampled_from(["", " ", "-1", "4.0", "1e3", "0x10", "+4"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(field=FIELDS, value=VALUES)
def test_an_odd_number_is_refused_with_a_clear_answer(client: Client, field: str, value: str) -> None:
    query = urllib.parse.urlencode({"players": "4", "games": "3", field: value}, encoding="utf-8", errors="surrogatepass")
    before = Job.objects.count()
    api = client.get(f"/api/variants/masters/stats?{query}")
    page = client.get(f"/en/variants/masters/stats/?{query}")
    assert api.status_code in (200, 202, 400) and page.status_code in (200, 400), (value, api.content[:300])
    if api.status_code == 400:
        assert api.json()["error"]["code"] in ("bad-request", "players-out-of-range", "games-out-of-range")
        assert Job.objects.count() == before


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ident=long_ids | controls | surrogates)
def test_an_odd_ruleset_id_is_refused(client: Client, ident: str) -> None:
    quoted = urllib.parse.quote(ident, safe="", errors="surrogatepass")
    assert client.get(f"/api/variants/{quoted}/stats?players=4").status_code in (400, 404)
    assert client.get(f"/en/variants/{quoted}/stats/?players=4").status_code in (400, 404)
    assert Job.objects.count() == 0
