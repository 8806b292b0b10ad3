"""Fuzz the page: random and mutated texts never make a 500, and bad input always says where."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mextrain_site.referee.views import EXAMPLE
from variants.loader import option_ids

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]
URL = "/en/adjudicate/"
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

LINES = EXAMPLE.splitlines()
PIECES = ["players:", "engine:", "turn:", "hand:", "check:", "moves:", "boneyard:", "variant:", "set:", "phase:",
          "mexican:", "open-doubles:", "round:", "hand Ann:", "Ann:", "Bob:", "Cy:", "Dee:", "...", "…", "*", "-",
          "->", ";", "#", "draw", "pass", "done", "12-12", "6-4", "0-0", "18-18", "19-1", "1-", "-1", "double-9",
          "first-turn", "masters+mandatory-doubles", "\n", "\n  ", "\t", " ", "ש", "Ωμέγα", "\u202e", "\x0b", "\u2028"]


def check(response) -> None:
    assert response.status_code in (200, 400, 413), response.status_code
    page = response.content.decode("utf-8")
    if response.status_code != 200:
        assert 'class="error-message" id="input-error"' in page


@st.composite
def mutated(draw) -> str:
    lines = list(LINES)
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["delete", "duplicate", "insert", "replace-word", "swap"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete" and len(lines) > 1:
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "insert":
            lines.insert(i, " ".join(draw(st.lists(st.sampled_from(PIECES), max_size=6))))
        elif op == "replace-word":
            words = lines[i].split(" ")
            j = draw(st.integers(0, len(words) - 1))
            words[j] = draw(st.one_of(st.sampled_from(PIECES), st.text(max_size=6)))
            lines[i] = " ".join(words)
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines)


@FUZZ
@given(text=st.text(max_size=300))
def test_random_text_never_500(client: Client, text: str) -> None:
    check(client.post(URL, {"position": text}))


@FUZZ
@given(text=mutated(), variants=st.lists(st.sampled_from([*option_ids(), "nonesuch", "masters+x"]), max_size=3),
       htmx=st.booleans())
def test_mutated_example_never_500(client: Client, text: str, variants: list[str], htmx: bool) -> None:
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    r = client.post(URL, {"position": text, "variant": variants}, **extra)
    check(r)
    page = r.content.decode()
    line = re.search(r'data-error-line="(\d+)"', page)
    if line:  # a bad line is echoed and marked
        assert f'<li value="{line.group(1)}" class="bad"' in page


@FUZZ
@given(text=mutated())
def test_share_never_500(client: Client, text: str) -> None:
    r = client.post("/en/adjudicate/share/", {"position": text})
    assert r.status_code in (303, 400, 413)
