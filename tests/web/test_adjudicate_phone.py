"""What the referee page renders for a phone (issue 27): Type mode's token row (hidden until script
shows it), the syntax box's targets, the example marked so that Build opens on a new table, the
fold Build closes after Judge; and the Build editor's first state and its turn tap."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client

from mextrain_site.referee import building as b
from mextrain_site.referee.views import EXAMPLE
from tests.languages import LANGUAGES

pytestmark = pytest.mark.django_db


def page(client: Client, url: str = "/en/adjudicate/", **data: str) -> str:
    response = client.post(url, data) if data else client.get(url)
    assert response.status_code in (200, 400)
    return response.content.decode()


def test_the_token_row_is_rendered_hidden_with_the_formats_tokens() -> None:
    html = page(Client())
    row = re.search(r'<div id="type-tokens"[^>]*>(.*?)</div>', html, re.S)
    assert row is not None
    assert " hidden" in row.group(0).split(">")[0] and 'aria-controls="position"' in row.group(0)
    assert [unescape(t) for t in re.findall(r'data-insert="([^"]*)"', row.group(1))] == [
        "->", ":", "-", "*", "mexican", "draw", "pass"]
    assert '<span class="token-names"></span>' in row.group(1)  # the names: typing.js, from the players: line
    assert 'src="/static/referee/typing.js"' in html and "<script>" not in html  # strict CSP: no inline script
    assert ' style="' not in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_syntax_box_lists_done_the_marker_out_and_the_mexican_train(language: str) -> None:
    html = page(Client(), f"/{language}/adjudicate/")
    terms = [unescape(t) for t in re.findall(r"<dt><code>(.*?)</code></dt>", html)]
    for wanted in ("*", "check: Bob: done", "out: Ann", "check: Bob: 7-1 -> mexican", "mexican: 12-2 2-2"):
        assert wanted in terms, (language, wanted)


def test_only_the_untouched_example_is_marked_for_a_new_table() -> None:
    client = Client()
    assert 'data-example="1"' in page(client)  # the page as it opens: its worked example
    assert "data-example" not in page(client, "/en/adjudicate/?position=players%3A+Ann+Bob%0A")  # a sheet's round
    assert "data-example" not in page(client, position=EXAMPLE)  # posted: the table's own text


def test_the_fold_is_rendered_hidden_before_the_form() -> None:
    html = page(Client())
    fold = html.index('id="table-fold"')
    assert html.index('<form id="adjudicate-form"') > fold
    assert re.search(r'<button type="button" id="table-fold"[^>]* hidden aria-expanded="true" aria-controls="adjudicate-form">',
                     html)


def build(client: Client, **data: str) -> str:
    response = client.post("/en/adjudicate/build/", data)
    assert response.status_code == 200
    return response.content.decode()


def test_a_new_table_asks_for_its_players() -> None:
    client = Client()
    html = build(client, position=EXAMPLE, op="new")
    assert 'class="b-hint b-ask"' in html
    assert re.findall(r'<bdi class="b-name">(\w+)</bdi>', html) == list(b.SEAT_NAMES[:4])  # Ann, Bob, Cy, Dee
    laid = b.apply(b.NEW_TABLE, b.Edit(b.Kind.TRAIN_ADD, ("Ann", "12-5"))).format()
    assert "b-ask" not in build(client, position=laid)  # something laid: no longer a new table


def test_naming_the_player_to_move_opens_their_hand() -> None:
    html = build(Client(), position=b.NEW_TABLE.format(), op="turn:Bob")
    assert 'aria-expanded="true"' in re.search(r'<button[^>]*id="b-open:hand:Bob"[^>]*>', html).group(0)  # type: ignore[union-attr]
    assert 'value="hand:Bob:5-1"' in html  # the grid of his hand, one tap away
