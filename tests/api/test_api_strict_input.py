"""Strict input at the API (issue 7, part 3): odd digits, huge numbers, lone surrogates, odd
charsets and overlong ids get a JSON 400 (or 404 for an unknown ruleset), never a 500 or HTML."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.odd_input import BASE, huge_numbers, long_ids, odd_charsets, planted, surrogates

from .conftest import NO_STATIC_ROOT_WARNING, error_of

pytestmark = [pytest.mark.django_db, NO_STATIC_ROOT_WARNING]
URL = "/api/adjudicate"
FUZZ = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def answered(response: Any) -> Any:
    assert response.status_code in (200, 400, 404, 413), (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    return json.loads(response.content.decode("utf-8"))


@FUZZ
@given(text=planted())
def test_planted_odd_input_as_text(text: str) -> None:
    answered(Client().generic("POST", URL, text.encode("utf-8", "surrogatepass"), content_type="text/plain"))


@FUZZ
@given(text=planted())
def test_planted_odd_input_as_json(text: str) -> None:
    # json.dumps escapes a lone surrogate as \udXXX: valid JSON, no valid text
    answered(Client().generic("POST", URL, json.dumps({"position": text}), content_type="application/json"))


@FUZZ
@given(digits=huge_numbers, where=st.sampled_from(["position", "variant", "extra", "list"]))
def test_huge_json_integers(digits: str, where: str) -> None:
    value = f"[{digits}]" if where == "list" else digits
    key = "variant" if where == "list" else where
    body = '{"position": %s}' % value if where == "position" else '{"position": %s, "%s": %s}' % (
        json.dumps(BASE), key, value)
    err = error_of(Client().generic("POST", URL, body, content_type="application/json"), 400)
    assert err["code"] == "bad-json"


@FUZZ
@given(s=surrogates, where=st.sampled_from(["position", "variant", "key"]))
def test_lone_surrogates_in_json(s: str, where: str) -> None:
    escaped = json.dumps(s)  # "\udXXX"
    if where == "position":
        body = '{"position": "players: %s b\\nengine: 12\\nturn: b\\n"}' % escaped[1:-1]
    elif where == "variant":
        body = '{"position": %s, "variant": %s}' % (json.dumps(BASE), escaped)
    else:
        body = '{"position": %s, %s: 1}' % (json.dumps(BASE), escaped)
    error_of(Client().generic("POST", URL, body, content_type="application/json"), 400)


@FUZZ
@given(charset=odd_charsets, json_body=st.booleans())
def test_odd_charsets(charset: str, json_body: bool) -> None:
    body = json.dumps({"position": BASE}) if json_body else BASE
    ctype = ("application/json" if json_body else "text/plain") + (f"; charset={charset}" if charset else "")
    answered(Client().generic("POST", URL, body.encode("utf-8"), content_type=ctype))


@pytest.mark.parametrize("charset", ["idna", "punycode", "utf-7", "unicode_escape"])
def test_host_name_and_escaping_charsets_are_refused(charset: str) -> None:
    err = error_of(Client().generic("POST", URL, BASE.encode(), content_type=f"text/plain; charset={charset}"), 400)
    assert err["code"] == "encoding" and "UTF-8" in err["message"]


@FUZZ
@given(ident=long_ids)
def test_overlong_ruleset_ids(ident: str) -> None:
    client = Client()
    assert answered(client.get("/api/variants/" + ident))["error"]["code"] == "unknown-variant"
    answered(client.post(URL, json.dumps({"position": BASE, "variant": ident}), content_type="application/json"))
    answered(client.post(URL, BASE + f"variant: {ident}\n", content_type="text/plain"))


def test_the_audit_requests() -> None:
    """The requests of the audit, one by one."""
    client = Client()
    bone_line = BASE.splitlines().index("boneyard: 23") + 1
    end_line = len(BASE.splitlines()) + 1
    for value in ("²", "①", "₀", "٣", "9" * 4301):
        err = error_of(client.post(URL, BASE.replace("boneyard: 23", f"boneyard: {value}"), content_type="text/plain"), 400)
        assert (err["line"], err["column"]) == (bone_line, 11)
        err = error_of(client.post(URL, BASE + f"round: {value}\n", content_type="text/plain"), 400)
        assert err["line"] == end_line
    error_of(client.generic("POST", URL, '{"position": "players: \\ud800 b ..."}', content_type="application/json"), 400)
    assert error_of(client.get("/api/variants/" + "a" * 251), 404)["code"] == "unknown-variant"
    err = error_of(client.post(URL, BASE + "variant: " + "a" * 251 + "\n", content_type="text/plain"), 400)
    assert (err["code"], err["line"]) == ("unknown-variant", end_line)
