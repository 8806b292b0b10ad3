"""Quoted code in a sentence is isolated for right-to-left pages (mextrain_site.core.bidi), and the
pages that show the engine's and the loader's messages use it."""

from __future__ import annotations

import pytest
from django.test import Client

from mextrain_site.core.bidi import isolate_foreign, isolate_quoted
from tests.languages import LANGUAGES


@pytest.mark.parametrize(("text", "html"), [
    ("expected 'key: value', found 'foo'", "expected <bdi>&#x27;key: value&#x27;</bdi>, found <bdi>&#x27;foo&#x27;</bdi>"),
    ("צפויה שורת 'engine:' (כמו 'engine: 12-12')",
     "צפויה שורת <bdi>&#x27;engine:&#x27;</bdi> (כמו <bdi>&#x27;engine: 12-12&#x27;</bdi>)"),
    # an apostrophe inside a word opens no quote, even with a quote later in the sentence
    ("Bob's hand holds 'x'", "Bob&#x27;s hand holds <bdi>&#x27;x&#x27;</bdi>"),
    ("the players' trains", "the players&#x27; trains"),
    ("'<b>' & co", "<bdi>&#x27;&lt;b&gt;&#x27;</bdi> &amp; co"),  # escaped inside and out
    ("no quotes at all", "no quotes at all"),
])
def test_quoted_spans_are_isolated_and_everything_escaped(text: str, html: str) -> None:
    assert isolate_quoted(text) == html


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "he"])
def test_a_bad_position_s_message_isolates_the_code_it_quotes(client: Client, language: str) -> None:
    response = client.post(f"/{language}/adjudicate/", {"position": "players: Ann Bob\nturn: Ann\n"})  # no engine line
    assert response.status_code == 400
    page = response.content.decode()
    message = page.split('id="input-error">', 1)[1].split("</p>", 1)[0]
    assert "<bdi>&#x27;engine: 12-12&#x27;</bdi>" in message, message


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_picker_names_the_variant_line_as_code(client: Client, language: str) -> None:
    page = client.get(f"/{language}/adjudicate/").content.decode()
    summary = page.split('<details class="picker"', 1)[1].split("</summary>", 1)[0]
    assert '<code dir="ltr">variant:</code>' in summary, summary
    assert summary.count("variant:") == 1, summary


@pytest.mark.django_db
def test_a_refused_house_upload_isolates_the_keys_it_quotes(client: Client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    text = ("title: Ours\nbase: masters\nrules:\n  setup.deal:\n    value:\n      - {max_players: 3, set: 12, tiles: 15}\n"
            "    status: house\n    cite: []\n")
    refused = client.post("/he/house/upload/", {"file": SimpleUploadedFile("ours.yaml", text.encode())})
    assert refused.status_code == 400
    assert "<bdi>&#x27;max_players&#x27;</bdi>" in refused.content.decode()


@pytest.mark.parametrize(("text", "isolated"), [
    # a Latin name in a Hebrew title: isolated with its brackets
    ("רכבת מקסיקנית (Masters Traditional Games)", "רכבת מקסיקנית \u2068(Masters Traditional Games)\u2069"),
    # the sentence's full stop stays outside; an apostrophe inside a word stays inside
    ("כמו בחוקי Masters Traditional Games.", "כמו בחוקי \u2068Masters Traditional Games\u2069."),
    ("חוקי הבית (Bob's rules)", "חוקי הבית \u2068(Bob's rules)\u2069"),
    ("קובץ (.yaml)", "קובץ \u2068(.yaml)\u2069"),
    # no right-to-left letter: nothing to isolate; isolated already: left alone
    ("Mexican Train (Masters Traditional Games)", "Mexican Train (Masters Traditional Games)"),
    ("\u200f\u2068Masters Traditional Games\u2069 + כפולות חובה", "\u200f\u2068Masters Traditional Games\u2069 + כפולות חובה"),
    ("", ""),
])
def test_latin_runs_in_right_to_left_text_are_isolated(text: str, isolated: str) -> None:
    assert isolate_foreign(text) == isolated


def test_a_hebrew_message_isolates_its_latin_words_outside_the_quotes() -> None:
    assert (isolate_quoted("בחרו קובץ (.yaml) ולא 'x'")
            == "בחרו קובץ \u2068(.yaml)\u2069 ולא <bdi>&#x27;x&#x27;</bdi>")
    assert isolate_quoted("choose a file (.yaml)") == "choose a file (.yaml)"


@pytest.mark.parametrize(("path", "name"), [
    ("/he/variants/masters/", "\u2068(Masters Traditional Games)\u2069"),
    ("/he/variants/", "\u2068(Cardinal Games)\u2069"),
    ("/he/", "\u2068(Masters Traditional Games)\u2069"),
    ("/en/variants/masters/", "Mexican Train (Masters Traditional Games)"),  # left-to-right pages unchanged
])
def test_ruleset_titles_isolate_the_publisher_on_hebrew_pages(client: Client, path: str, name: str) -> None:
    assert name in client.get(path).content.decode()


def test_the_house_upload_label_isolates_the_file_extension(client: Client) -> None:
    page = client.get("/he/house/").content.decode()
    label = page.split('<label for="house-file">', 1)[1].split("</label>", 1)[0]
    assert "\u2068(.yaml)\u2069" in label, label
