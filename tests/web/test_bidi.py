"""Quoted code in a sentence is isolated for right-to-left pages (mextrain_site.core.bidi), and the
pages that show the engine's and the loader's messages use it."""

from __future__ import annotations

import pytest
from django.test import Client

from mextrain_site.core.bidi import isolate_quoted


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


@pytest.mark.parametrize("language", ["en", "he", "hu", "ky", "it", "el"])
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
