"""Languages across the site: the browser's language is honoured, and the engine's reasons are
worded in the page's language on the adjudication page."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.utils import translation

from mextrain_site.referee.views import EXAMPLE
from rules.reasons import ReasonCode

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["en", "he", "hu", "ky", "it", "el"])
def test_the_browsers_language_picks_the_prefix(client: Client, lang: str) -> None:
    r = client.get("/variants/", HTTP_ACCEPT_LANGUAGE=f"{lang},en;q=0.5")
    assert r.status_code == 302 and r["Location"] == f"/{lang}/variants/"
    r = client.get("/", HTTP_ACCEPT_LANGUAGE=lang)
    assert r["Location"] == f"/{lang}/"


def test_an_unsupported_language_falls_back_to_english(client: Client) -> None:
    assert client.get("/variants/", HTTP_ACCEPT_LANGUAGE="ja")["Location"] == "/en/variants/"


@pytest.mark.parametrize("lang", ["he", "hu", "ky", "it", "el"])
def test_reasons_on_the_adjudication_page_are_in_the_pages_language(client: Client, lang: str) -> None:
    page = client.post(f"/{lang}/adjudicate/", {"position": EXAMPLE}).content.decode()
    with translation.override(lang):
        closed = translation.gettext(ReasonCode.TRAIN_NOT_OPEN.template).format(
            train=translation.gettext("%(name)s's train") % {"name": "Cy"}, player="Bob")
    english = ReasonCode.TRAIN_NOT_OPEN.template.format(train="Cy's train", player="Bob")
    assert html.escape(closed) in page or closed in page
    assert html.escape(english) not in page
    assert f'<html lang="{lang}" dir="{"rtl" if lang == "he" else "ltr"}"' in page
