"""Languages across the site: the browser's language is honoured, and the engine's reasons are
worded in the page's language on the adjudication page."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.utils import translation

from mextrain_site.core.bidi import isolate_quoted
from mextrain_site.core.i18n import WORDING
from mextrain_site.referee.views import EXAMPLE
from rules.reasons import ReasonCode, reason
from tests.languages import LANGUAGES, TRANSLATED

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_browsers_language_picks_the_prefix(client: Client, lang: str) -> None:
    r = client.get("/variants/", HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5")
    assert r.status_code == 302 and r["Location"] == f"/{lang}/variants/"
    r = client.get("/", HTTP_ACCEPT_LANGUAGE=lang)
    assert r["Location"] == f"/{lang}/"


def test_an_unsupported_language_falls_back_to_english(client: Client) -> None:
    assert client.get("/variants/", HTTP_ACCEPT_LANGUAGE="ja")["Location"] == "/en/variants/"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_reasons_on_the_adjudication_page_are_in_the_pages_language(client: Client, lang: str) -> None:
    page = client.post(f"/{lang}/adjudicate/", {"position": EXAMPLE}).content.decode()
    with translation.override(lang):
        template = translation.gettext(ReasonCode.TRAIN_NOT_OPEN.template)
        if translation.get_language_bidi():  # each value isolated in a right-to-left sentence
            template = re.sub(r"\{\w+\}", "\u2068\\g<0>\u2069", template)
        closed = reason(ReasonCode.TRAIN_NOT_OPEN, train="Cy", player="Bob").text(template, WORDING.train_label)
    english = ReasonCode.TRAIN_NOT_OPEN.template.format(train="Cy's train", player="Bob")
    assert html.escape(closed) in page or closed in page
    assert html.escape(english) not in page
    assert f'<html lang="{lang}" dir="{"rtl" if lang == "he" else "ltr"}"' in page


BAD = "players: Ann Bob\nengine: 12\nAnn: 12-3\nturn: Bob\nhand: 3-12 6x4\n"


def _worded(lang: str, text: str) -> str:
    from rules.position import Position, PositionError

    try:
        Position.parse(text)
    except PositionError as exc:
        with translation.override(lang):
            return exc.worded(translation.gettext)
    raise AssertionError("the text parses")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_parse_errors_are_in_the_pages_language(client: Client, lang: str) -> None:
    worded = _worded(lang, BAD)
    english = _worded("en", BAD)
    assert worded != english and "5" in worded and "'6x4'" in worded
    page = client.post(f"/{lang}/adjudicate/", {"position": BAD}).content.decode()
    assert isolate_quoted(worded) in page and isolate_quoted(english) not in page  # as the page writes it


@pytest.mark.parametrize("lang", ["he", "it"])
def test_api_errors_follow_accept_language(client: Client, lang: str) -> None:
    r = client.post("/api/adjudicate", BAD, content_type="text/plain", HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["message"] == _worded(lang, BAD) and error["line"] == 5 and error["column"] == 12
    r = client.post("/api/adjudicate", BAD, content_type="text/plain")
    assert r.json()["error"]["message"] == "line 5, column 12: expected a tile like 6-4, found '6x4'"


def test_a_duplicate_tile_names_both_places_in_the_readers_language() -> None:
    text = "players: Ann Bob\nengine: 12\nAnn: 12-3\nturn: Bob\nhand: 3-12\n"
    with translation.override("it"):
        mexican = translation.gettext("{name}'s train").format(name="Ann")
    assert mexican in _worded("it", text)


@pytest.mark.parametrize(("lang", "says"), [
    ("hu", "a nyitott duplát (2-2) a mexikói vonaton"),
    ("it", "il doppio aperto 2-2 sul treno messicano"),
    ("ky", "мексикалык поезддеги ачык 2-2 дублун"),
    ("el", "το ανοιχτό διπλό 2-2 στο μεξικάνικο τρένο"),
])
def test_the_page_words_a_train_in_the_form_its_sentence_needs(client: Client, lang: str, says: str) -> None:
    """Satisfying the open double 2-2 on the Mexican train, as the page says it: the train comes in
    its "on" form (Italian "sul", Hungarian "-on"), not the bare phrase glued in ("su treno messicano")."""
    position = EXAMPLE.replace("check: Bob: 6-4 -> Cy", "check: Bob: 9-2 -> mexican")
    page = html.unescape(client.post(f"/{lang}/adjudicate/", {"position": position}).content.decode())
    assert says in page
