"""The API's errors: JSON bodies {"error": {code, message, line, column}} with 400, 404, 405, 413."""

from __future__ import annotations

import json

import pytest
from django.test import Client, override_settings

from rules.position import MAX_TEXT

from .conftest import EXAMPLES, NO_STATIC_ROOT_WARNING, error_of

pytestmark = [pytest.mark.django_db, NO_STATIC_ROOT_WARNING]
URL = "/api/adjudicate"


def post_json(client: Client, data: object):
    return client.post(URL, json.dumps(data), content_type="application/json")


def test_bad_tile_names_line_and_column(client: Client) -> None:
    text = (EXAMPLES / "bad-tile.txt").read_text(encoding="utf-8")
    err = error_of(client.post(URL, text, content_type="text/plain"), 400)
    assert err["code"] == "syntax"
    assert (err["line"], err["column"]) == (3, 11)
    assert "4-x" in err["message"] and "6-4" in err["message"]


def test_bad_input_in_a_json_body_points_into_the_position(client: Client) -> None:
    text = (EXAMPLES / "bad-tile.txt").read_text(encoding="utf-8")
    err = error_of(post_json(client, {"position": text}), 400)
    assert (err["code"], err["line"], err["column"]) == ("syntax", 3, 11)


def test_unknown_key(client: Client) -> None:
    text = "players: Ann Bob\nengine: 12\nAnn: -\nBob: -\nturn: Ann\ncolour: red\n"
    err = error_of(client.post(URL, text, content_type="text/plain"), 400)
    assert (err["code"], err["line"], err["column"]) == ("syntax", 6, 1)
    assert "colour" in err["message"]


def test_empty_body(client: Client) -> None:
    err = error_of(client.post(URL, b"", content_type="text/plain"), 400)
    assert err["code"]


@pytest.mark.parametrize(
    ("payload", "line", "column"),
    [('{"position": ', 1, 14), ('{\n  "position": "x",\n  "variant": ]\n}', 3, 14), ("{'position': 'x'}", 1, 2)],
)
def test_malformed_json(client: Client, payload: str, line: int, column: int) -> None:
    err = error_of(client.post(URL, payload, content_type="application/json"), 400)
    assert (err["code"], err["line"], err["column"]) == ("bad-json", line, column)


def test_deeply_nested_json(client: Client) -> None:
    err = error_of(client.post(URL, "[" * 30_000 + "]" * 30_000, content_type="application/json"), 400)
    assert err["code"] in ("bad-json", "bad-request")


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (["players: Ann"], "JSON object"),
        ("players: Ann", "JSON object"),
        (None, "JSON object"),
        ({}, '"position"'),
        ({"variant": "masters"}, '"position"'),
        ({"position": 12}, '"position"'),
        ({"position": ["players: Ann"]}, '"position"'),
        ({"position": None}, '"position"'),
        ({"position": "x", "variant": 3}, '"variant"'),
        ({"position": "x", "variant": {"id": "masters"}}, '"variant"'),
        ({"position": "x", "variant": ["masters", 1]}, '"variant"'),
        ({"position": "x", "variant": [["masters"]]}, '"variant"'),
        ({"position": "x", "varient": "masters"}, "unknown field 'varient'"),
        ({"position": "x", "variant": ["masters"] * 33}, "at most 32"),
    ],
)
def test_wrong_shapes_and_types(client: Client, data: object, fragment: str) -> None:
    err = error_of(post_json(client, data), 400)
    assert err["code"] == "bad-request"
    assert fragment in err["message"], err["message"]
    assert err["line"] is None and err["column"] is None


@pytest.mark.parametrize("variant", ["dominos", ["masters", "nope"], "masters+no-such-option", "", ["  "], "x" * 500,
                                     "../settings"])
def test_unknown_variant_in_json(client: Client, spec_example: str, variant: object) -> None:
    err = error_of(post_json(client, {"position": spec_example, "variant": variant}), 400)
    assert err["code"] == "unknown-variant"


@pytest.mark.parametrize("variant,message", [
    ("masters+free-bonus-turn", "option 'free-bonus-turn' of 'masters' requires 'mandatory-doubles': "
                                "use masters+mandatory-doubles+free-bonus-turn"),
    ("masters+dead-double+dead-double", "option 'dead-double' is given twice in 'masters+dead-double+dead-double'"),
])
def test_options_that_cannot_be_combined_in_json(client: Client, spec_example: str, variant: str, message: str) -> None:
    """The loader's check, and its wording, whichever front end asks."""
    err = error_of(post_json(client, {"position": spec_example, "variant": variant}), 400)
    assert err == {"code": "impossible-options", "message": message, "line": None, "column": None}
    err = error_of(client.post(URL, f"variant: {variant}\n" + spec_example, content_type="text/plain"), 400)
    assert err == {"code": "impossible-options", "message": "line 1, column 10: " + message, "line": 1, "column": 10}


def test_unknown_variant_line_points_at_it(client: Client, spec_example: str) -> None:
    err = error_of(client.post(URL, "variant: dominos\n" + spec_example, content_type="text/plain"), 400)
    assert err["code"] == "unknown-variant"
    assert (err["line"], err["column"]) == (1, 10)
    assert "howto" in err["message"]  # says which ones exist


def test_not_utf8(client: Client) -> None:
    err = error_of(client.generic("POST", URL, "players: Ánn".encode("latin-1"), content_type="text/plain"), 400)
    assert err["code"] == "encoding"


def test_position_over_the_limit_is_413(client: Client, spec_example: str) -> None:
    text = spec_example + "#" * (MAX_TEXT - len(spec_example) + 1)
    assert len(text) == MAX_TEXT + 1
    for r in (client.post(URL, text, content_type="text/plain"), post_json(client, {"position": text})):
        err = error_of(r, 413)
        assert err["code"] == "too-large" and str(MAX_TEXT) in err["message"].replace(",", "")


def test_position_at_the_limit_is_judged(client: Client, spec_example: str) -> None:
    text = spec_example + "#" * (MAX_TEXT - len(spec_example))
    assert client.post(URL, text, content_type="text/plain").status_code == 200


@pytest.mark.parametrize("content_type", ["text/plain", "application/json"])
def test_body_over_django_limit_is_a_json_413(client: Client, settings, content_type: str) -> None:  # type: ignore[no-untyped-def]
    big = b'{"position": "' + b"#" * settings.DATA_UPLOAD_MAX_MEMORY_SIZE + b'"}'
    err = error_of(client.post(URL, big, content_type=content_type), 413)
    assert err["code"] == "too-large"


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100)
def test_body_limit_follows_the_setting(client: Client, spec_example: str) -> None:
    err = error_of(client.post(URL, spec_example, content_type="text/plain"), 413)
    assert "100 bytes" in err["message"]


@pytest.mark.parametrize("method", ["get", "put", "patch", "delete", "options", "head"])
def test_adjudicate_wrong_method_is_405(client: Client, method: str) -> None:
    r = getattr(client, method)(URL)
    assert r.status_code == 405
    assert r["Allow"] == "POST"
    if method != "head":
        assert error_of(r, 405)["code"] == "method-not-allowed"


@pytest.mark.parametrize("path", ["/api/variants", "/api/variants/masters"])
@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_variants_wrong_method_is_405(client: Client, path: str, method: str) -> None:
    r = getattr(client, method)(path)
    err = error_of(r, 405)
    assert err["code"] == "method-not-allowed"
    assert r["Allow"] == "GET, HEAD"


@pytest.mark.parametrize("path", ["/api/", "/api/nothing", "/api/variants/", "/api/adjudicate/", "/api/variants/masters/rules"])
def test_unknown_api_paths_are_json_404(client: Client, path: str) -> None:
    for method in ("get", "post"):
        err = error_of(getattr(client, method)(path), 404)
        assert err["code"] == "not-found"


def test_declared_charset_is_honoured(client: Client, spec_example: str) -> None:
    text = spec_example.replace("Ann", "Ánn")
    for charset in ("latin-1", "utf-16"):
        r = client.generic("POST", URL, text.encode(charset), content_type=f"text/plain; charset={charset}")
        assert r.status_code == 200, (charset, r.content[:300])


@pytest.mark.parametrize("charset", ["nonsense", "rot13", "zlib"])
def test_unknown_or_non_text_charset(client: Client, charset: str) -> None:
    err = error_of(client.generic("POST", URL, b"players: Ann", content_type=f"text/plain; charset={charset}"), 400)
    assert err["code"] == "encoding"
