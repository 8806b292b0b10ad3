"""Bounded work per request (issue 7, part 4): the worst requests within the limits are answered
quickly and within the answer's size cap; one over the limit is refused with 413 before any
judging, saying what to reduce; a hand larger than the deal and boneyard allow is refused."""

from __future__ import annotations

import json
import time

import pytest
from django.test import Client

from bench.worst import Worst, cases, over_the_limit
from rules.limits import MAX_ANSWER_BYTES, MAX_WORK, work
from rules.position import Position

from .conftest import NO_STATIC_ROOT_WARNING, body, error_of

pytestmark = [pytest.mark.django_db, NO_STATIC_ROOT_WARNING]
URL = "/api/adjudicate"
WITHIN = [c for c in cases() if "over the limit" not in c.name]
CPU_BUDGET = 0.5
"""Seconds of CPU time (one core) the worst request within the limits may take, the answer
encoded included; measured without the test client's overhead in ``make bench``."""


def post(case: Worst) -> tuple[object, float]:
    client = Client()
    client.post(URL, json.dumps({"position": "players: A B\nengine: 1\nturn: A\n"}), content_type="application/json")
    t = time.process_time()
    response = client.post(URL, json.dumps({"position": case.text, "variant": list(case.variants)}),
                           content_type="application/json")
    return response, time.process_time() - t


@pytest.mark.parametrize("case", WITHIN, ids=lambda c: c.name)
def test_the_worst_requests_within_the_limits_are_answered_in_time(case: Worst) -> None:
    asked = work(Position.parse(case.text), len(case.variants)).total
    assert MAX_WORK * 2 // 3 <= asked <= MAX_WORK, asked  # each is close to the limit
    response, seconds = post(case)
    assert response.status_code == 200, response.content[:300]
    assert len(response.content) <= MAX_ANSWER_BYTES
    answer = body(response)
    assert list(answer["variants"]) == list(case.variants)
    assert seconds < CPU_BUDGET, f"{case.name}: {seconds:.3f} s of CPU time"


def test_one_ruleset_more_is_refused_before_judging() -> None:
    case = over_the_limit()
    response, seconds = post(case)
    err = error_of(response, 413)
    assert err["code"] == "too-large"
    assert f"at most {MAX_WORK}" in err["message"] and "judge fewer rulesets" in err["message"]
    assert seconds < 0.05


def test_the_audit_request_is_refused() -> None:
    """20 players, double-18, a 187-tile hand, 32 ruleset ids: 5-7 s and 276 MB before."""
    hand = [f"{a}-{b}" for a in range(18, -1, -1) for b in range(a, -1, -1) if (a, b) != (18, 18)][:187]
    players = " ".join(f"P{i}" for i in range(20))
    text = f"players: {players}\nset: double-18\nengine: 18\nboneyard: 0\nturn: P0\nhand: {' '.join(hand)}\n"
    ids = (["howto", "masters", "gamerules", "cardinal"] * 8)[:32]
    t = time.process_time()
    response = Client().post(URL, json.dumps({"position": text, "variant": ids}), content_type="application/json")
    assert time.process_time() - t < CPU_BUDGET
    err = error_of(response, 400)
    assert (err["code"], err["line"], err["column"]) == ("hand-too-large", 6, 7), err
