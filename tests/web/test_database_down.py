"""While the database cannot be reached (issue 24): a real gunicorn whose DATABASE_URL points at a
PostgreSQL port nobody listens on. What needs the database answers 503 with Retry-After (JSON under
/api/, a page in the reader's language elsewhere), never a 500; what does not (judging, the
reference pages, the health check) answers 200."""

from __future__ import annotations

import json
import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.stack import Server, free_port, production_env
from tests.examples import SPEC_EXAMPLE
from tests.serving import Answer, fetch

HOUSE = "house-aaaaaaaaaaaa"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    pytest.importorskip("psycopg")
    tmp = tmp_path_factory.mktemp("database-down")
    env = production_env(Path(tmp), DEBUG="1", DATABASE_URL=f"postgres://mextrain@127.0.0.1:{free_port()}/none",
                         RATELIMIT_ENABLE="0")
    started = Server(env, 1, Path(tmp) / "gunicorn.log")
    try:
        started.wait_ready()
        yield started
    finally:
        started.stop()


def post_form(base: str, path: str, fields: list[tuple[str, str]], language: str) -> Answer:
    """A form posted the way the page does it: the CSRF token read from the page first."""
    page = fetch(base, "GET", f"/{language}/adjudicate/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert page.status == 200 and token, page.text[:500]
    body = urllib.parse.urlencode([("csrfmiddlewaretoken", token.group(1)), *fields]).encode()
    return fetch(base, "POST", path, body, Content_Type="application/x-www-form-urlencoded",
                 Cookie=f"csrftoken={page.cookies['csrftoken']}")


def unavailable(answer: Answer) -> None:
    assert answer.status == 503, (answer.status, answer.text[:1000])
    assert int(answer.headers["retry-after"]) > 0


def test_the_api_answers_503_in_json(server: Server) -> None:
    for method, path, body in [("POST", "/api/rulesets", {"base": "masters", "name": "Ours", "rules": {}}),
                               ("GET", f"/api/variants/{HOUSE}", None),
                               ("POST", "/api/adjudicate", {"position": SPEC_EXAMPLE, "variant": [HOUSE]})]:
        answer = fetch(server.url, method, path, json.dumps(body).encode() if body else None,
                       Content_Type="application/json")
        unavailable(answer)
        assert json.loads(answer.body)["error"]["code"] == "unavailable", path


@pytest.mark.parametrize(("language", "words"), [("el", "Δοκιμάστε ξανά σε λίγο"), ("he", "נסו שוב בעוד רגע"),
                                                 ("ky", "Бир аздан кийин кайра аракет кылыңыз")])
def test_pages_that_store_or_read_a_stored_text_answer_503_in_the_readers_language(
        server: Server, language: str, words: str) -> None:
    shared = post_form(server.url, f"/{language}/adjudicate/share/", [("position", SPEC_EXAMPLE)], language)
    unavailable(shared)
    assert words in shared.text and f'lang="{language}"' in shared.text
    for path in ("/r/abcdefghijkl/", f"/h/{HOUSE}/", f"/{language}/variants/{HOUSE}/"):
        answer = fetch(server.url, "GET", path, Accept_Language=language)
        unavailable(answer)
        assert words in answer.text, path


def test_judging_and_the_reference_pages_need_no_database(server: Server) -> None:
    assert fetch(server.url, "POST", "/api/adjudicate", SPEC_EXAMPLE.encode(), Content_Type="text/plain").status == 200
    judged = post_form(server.url, "/el/adjudicate/", [("position", SPEC_EXAMPLE)], "el")
    assert judged.status == 200, judged.text[:1000]
    for path in ("/en/variants/", "/he/variants/masters/", "/api/variants", "/health"):
        assert fetch(server.url, "GET", path).status == 200, path
    assert fetch(server.url, "GET", "/health?ready=1").status == 503  # readiness does say the database is down
