"""Every number a form, the API, the position text or a ruleset file reads goes through the one
number parser (rules.numbers): odd digits (``₀ ² ① ٣ １``), thousands of digits, a sign, spaces,
``1_000`` or nothing are never a 500; a page names the field and keeps what was typed."""

from __future__ import annotations

import json
import re
from html import escape
from typing import Any

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation

from mextrain_site.reference import wording
from rules.numbers import ascii_int
from rules.ruleset import SPEC_BY_KEY
from tests.house.forms import builder_form

ODD = ["₀", "²", "①", "٣", "１", "1" * 4301, "-1", "+1", " 1", "1_000", ""]
"""What a player (or a fuzzer) may type where a number goes."""
LANGUAGES = ("en", "he", "hu", "ky", "it", "el")


def oracle(text: str) -> int | None:
    """A whole number written in ASCII digits, as a person checks it: digit by digit."""
    text = text.strip()
    sign, digits = (-1, text[1:]) if text.startswith("-") else (1, text)
    if not digits or len(digits) > 9 or any(c not in "0123456789" for c in digits):
        return None
    value = 0
    for c in digits:
        value = value * 10 + "0123456789".index(c)
    return sign * value


@pytest.mark.parametrize("text", [*ODD, "0", "007", "-0", "123456789", "1234567890", "--1", "1-", "1 2", "٣٣"])
def test_the_parser_reads_ascii_digits_only(text: str) -> None:
    assert ascii_int(text, signed=True) == oracle(text)
    assert ascii_int(text) == (oracle(text) if not text.strip().startswith("-") else None)


# -- the house builder: every number field --------------------------------------------------------

NUMBER_FIELDS = {
    # field -> (the rule it belongs to, extra fields that make it a number field, the numbers it takes)
    "rule:players.count:min": ("players.count", {}, range(2, 9)),
    "rule:players.count:max": ("players.count", {}, range(2, 9)),
    "rule:rounds.count:number": ("rounds.count", {"rule:rounds.count": "number"}, range(2, 31)),
    "rule:scoring.double_blank": ("scoring.double_blank", {}, range(-10**6, 10**6)),
    "rule:scoring.going_out_bonus": ("scoring.going_out_bonus", {}, range(-100, 1)),
    "rule:scoring.open_double_penalty": ("scoring.open_double_penalty", {}, range(0, 101)),
    "rule:scoring.marker_penalty": ("scoring.marker_penalty", {}, range(0, 101)),
    "rule:setup.deal:lo:0": ("setup.deal", {}, range(1, 3)),
    "rule:setup.deal:hi:0": ("setup.deal", {}, range(2, 3)),
    "rule:setup.deal:set:0": ("setup.deal", {}, range(12, 13)),
    "rule:setup.deal:tiles:0": ("setup.deal", {}, range(1, 16)),
}
"""Each number field of the builder on masters. The ranges are what keeps the rest of the
builder's form valid (a wider value may be refused for another reason: the table, the set)."""


@pytest.fixture(scope="module")
def masters_form(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return builder_form(Client())


def _post(client: Client, form: dict[str, Any], lang: str = "en", htmx: bool = False) -> Any:
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/{lang}/house/", {**form, "action": "preview"}, headers=headers)


@pytest.mark.parametrize("field", NUMBER_FIELDS)
@pytest.mark.parametrize("typed", ODD)
def test_every_number_field_of_the_builder_refuses_odd_digits_naming_the_rule(
        client: Client, masters_form: dict[str, Any], field: str, typed: str) -> None:
    key, extra, fits = NUMBER_FIELDS[field]
    if field.startswith("rule:setup.deal:") and typed == "":
        pytest.skip("an empty cell is no number: a row with no hand size, or the lowest count again")
    response = _post(client, {**masters_form, **extra, field: typed})
    html = response.content.decode()
    assert response.status_code in (200, 400), response.status_code
    number = oracle(typed)
    if number is not None and number in fits:
        assert response.status_code == 200, html
        return
    assert response.status_code == 400
    errors = re.search(r'<div class="alert" role="alert">(.*?)</div>', html, re.S)
    assert errors is not None, f"no error shown for {field}={typed[:20]!r}"
    label = escape(str(wording.label(key)))
    assert label in errors.group(1) and "expected" in errors.group(1)
    if field != "rule:setup.deal:set:0":  # a select: a browser sends one of its sets, nothing typed
        # what was typed is shown again in its field (spaces around trimmed)
        assert f'value="{escape(typed.strip())}"' in html


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("typed", ["₀", "²", "①", "1" * 4301])
@pytest.mark.parametrize("end", ["min", "max"])
def test_the_player_count_in_every_language_with_and_without_htmx(
        client: Client, masters_form: dict[str, Any], lang: str, htmx: bool, typed: str, end: str) -> None:
    """The crash found by fuzzing: ``rule:players.count:min=₀`` answered 500."""
    response = _post(client, {**masters_form, f"rule:players.count:{end}": typed}, lang, htmx)
    html = response.content.decode()
    assert response.status_code == (200 if htmx else 400)  # htmx swaps only a 2xx answer
    with translation.override(lang):
        label = escape(str(wording.label("players.count")))
    errors = re.search(r'<div class="alert" role="alert">(.*?)</div>', html, re.S)
    assert errors is not None and label in errors.group(1)
    if not htmx:  # a preview swaps only the summary: the field keeps what was typed in the browser
        assert f'value="{escape(typed)}"' in html


# -- the JSON API and a ruleset file ------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("typed", ODD)
def test_the_api_refuses_a_number_that_is_text_naming_the_rule(client: Client, typed: str) -> None:
    body = json.dumps({"base": "masters", "name": "odd", "rules": {"scoring.marker_penalty": typed}})
    response = client.post("/api/rulesets", body, content_type="application/json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "impossible-ruleset" and "scoring.marker_penalty" in error["message"]


@pytest.mark.django_db
@pytest.mark.parametrize("digits", ["1" * 4301, "1" * 21])
def test_the_api_refuses_a_long_json_number(client: Client, digits: str) -> None:
    body = '{"base": "masters", "name": "odd", "rules": {"scoring.marker_penalty": ' + digits + "}}"
    response = client.post("/api/rulesets", body, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad-json"


@pytest.mark.django_db
@pytest.mark.parametrize("written", ["1_000", "0x10", "+5", "1:30", "1" * 4301, "٣", "²"])
def test_a_ruleset_file_reads_only_ascii_numbers(client: Client, written: str) -> None:
    text = yaml.safe_dump({"title": "odd", "base": "masters"}) + f"rules:\n  scoring.marker_penalty: {written}\n"
    response = client.post("/en/house/upload/", {"file": SimpleUploadedFile("odd.yaml", text.encode())})
    html = response.content.decode()
    assert response.status_code == 400
    assert escape(str(wording.label("scoring.marker_penalty"))) in html and "expected" in html


# -- the position builder's number fields -------------------------------------------------------


@pytest.mark.parametrize("op", ["engine", "set", "boneyard"])
@pytest.mark.parametrize("typed", ODD)
def test_the_position_builder_refuses_odd_digits(client: Client, op: str, typed: str) -> None:
    response = client.post("/en/adjudicate/build/", {"position": "", "op": op, op: typed})
    assert response.status_code == 200
    number = oracle(typed)
    if number is None or typed != typed.strip() or typed.startswith("-"):
        assert "expected a number" in response.content.decode() or op == "set" and typed == ""


def test_every_number_field_is_listed() -> None:
    """The fields above are every number the builder's rules hold (a new one must be fed too)."""
    numbered = {k for k, s in SPEC_BY_KEY.items()
                if s.kind.value in ("int", "choice-or-number", "player-range", "deal-table")}
    assert numbered == {key for key, _extra, _fits in NUMBER_FIELDS.values()}
