"""A missing required line, over real HTTP and through the CLI: the API's error points (line,
column) at the end of the line after which it belongs, the CLI says the same in one line, and an
error at an exact place (here a pip above the set, found under the rulesets) comes first."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.serving import fetch
from tests.test_cli import manage

NO_TURN = "players: Ann Bob\nengine: 12-12\nAnn: -\nBob: -\nhand: 1-2\n"
NO_ENGINE = "players: Ann Bob\nAnn: -\nBob: -\nturn: Ann\nhand: 1-2\n"
TURN_MESSAGE = ("line 4, column 7: the position has no 'turn:' line: add one after this line naming the "
                "player to move, like 'turn: Ann'")
ENGINE_MESSAGE = ("line 1, column 17: the position has no 'engine:' line: add one after this line, "
                  "like 'engine: 12-12' or 'engine: 12'")

CASES = [
    (NO_TURN, {"code": "syntax", "message": TURN_MESSAGE, "line": 4, "column": 7}),
    (NO_ENGINE, {"code": "syntax", "message": ENGINE_MESSAGE, "line": 1, "column": 17}),
    ("", {"code": "syntax", "line": 1, "column": 1,
          "message": "line 1, column 1: the position has no 'players:' line: start it with one naming the seats, "
                     "like 'players: Ann Bob'"}),
    # the bad tile after the missing 'turn:' line's place, and a bad tile before the missing 'engine:' one's
    (NO_TURN.replace("1-2", "1-2 13-1"),
     {"code": "pip-above-set", "message": "line 5, column 11: 13-1 has a pip above the set's maximum 12; for a larger set, "
                                             "add a line like 'set: double-15'",
      "line": 5, "column": 11}),
    (NO_ENGINE.replace("Bob: -", "Bob: 4-x"),
     {"code": "syntax", "message": "line 3, column 6: expected a tile like 6-4, found '4-x'", "line": 3, "column": 6}),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("text,error", CASES)
def test_the_api_points_at_the_missing_line_over_http(live_server: Any, text: str, error: dict[str, Any]) -> None:
    for body, content_type in ((text.encode(), "text/plain; charset=utf-8"),
                               (json.dumps({"position": text, "variant": "masters"}).encode(), "application/json")):
        answer = fetch(live_server.url, "POST", "/api/adjudicate", body, Content_Type=content_type)
        assert answer.status == 400, answer.text[:300]
        assert answer.headers["content-type"].startswith("application/json")
        assert json.loads(answer.body) == {"error": error}


@pytest.mark.django_db(transaction=True)
def test_the_api_words_it_in_the_readers_language(live_server: Any) -> None:
    answer = fetch(live_server.url, "POST", "/api/adjudicate", NO_TURN.encode(), Content_Type="text/plain",
                   Accept_Language="it")
    error = json.loads(answer.body)["error"]
    assert (answer.status, error["line"], error["column"]) == (400, 4, 7)
    assert error["message"] == ("riga 4, colonna 7: nella posizione manca la riga 'turn:': aggiungine una dopo "
                                "questa riga che indichi il giocatore di turno, come 'turn: Ann'"), error["message"]


@pytest.mark.slow  # a real process each: make test, not make test-fast
@pytest.mark.parametrize("text,error", CASES)
def test_the_cli_says_it_in_one_line(text: str, error: dict[str, Any]) -> None:
    out = manage("adjudicate", "-", stdin=text)
    assert (out.returncode, out.stdout) == (2, "")
    assert out.stderr == f"error: {error['message']}\n"
