"""Bounded work on the page (issue 7, part 4): the page renders every judgement as HTML, so its
limit is MAX_PAGE_WORK; the worst requests within it are rendered in under 0.5 s of CPU time, a
shared ruling included, and one over it is refused with 413 saying what to reduce."""

from __future__ import annotations

import time

import pytest
from django.test import Client

from bench.worst import Worst, cases, over_the_limit
from mextrain_site.referee.sharing import store
from rules.limits import MAX_PAGE_WORK

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]
URL = "/en/adjudicate/"
WITHIN = [c for c in cases(MAX_PAGE_WORK) if "over the limit" not in c.name]
CPU_BUDGET = 0.5


@pytest.mark.parametrize("case", WITHIN, ids=lambda c: c.name)
def test_the_worst_pages_within_the_limit_render_in_time(client: Client, case: Worst) -> None:
    client.get(URL)
    t = time.process_time()
    response = client.post(URL, {"position": case.text, "variant": list(case.variants)})
    seconds = time.process_time() - t
    assert response.status_code == 200
    assert seconds < CPU_BUDGET, f"{case.name}: {seconds:.3f} s of CPU time"


def test_a_shared_ruling_within_the_limit_opens_in_time(client: Client) -> None:
    case = WITHIN[0]
    row = store(case.text, list(case.variants))
    client.get(URL)
    t = time.process_time()
    response = client.get(f"/r/{row.id}/")
    assert response.status_code == 200
    assert time.process_time() - t < CPU_BUDGET


@pytest.mark.parametrize("path", [URL, URL + "share/"])
def test_too_much_work_is_refused_with_413(client: Client, path: str) -> None:
    case = over_the_limit(MAX_PAGE_WORK)
    response = client.post(path, {"position": case.text, "variant": list(case.variants)})
    assert response.status_code == 413
    assert "judge fewer rulesets" in response.content.decode()
