"""The referee page's sentences where several rulesets speak at once, and on right-to-left pages.

- A move illegal under every ruleset lists the sentences that forbid it; where the rulesets word
  it differently, each sentence names the rulesets that give it (two unattributed sentences read as
  a contradiction: "Bob can play (9-2 -> mexican), so must play. Bob can play (9-2 -> Ann), so must
  play.").
- On a Hebrew page each value inside an engine sentence (a move, a tile, a name) is isolated
  (U+2068 … U+2069), so that it keeps its own order and the brackets around it stay in place."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.test import Client
from django.utils import translation

from mextrain_site.core.i18n import ruleset_name
from mextrain_site.referee.views import EXAMPLE
from tests.languages import LANGUAGES
from variants.loader import base_ids, get_ruleset

FSI, PDI = "\u2068", "\u2069"


def closed_item(html: str, move: str) -> str:
    closed = html.split('<ul class="closed-list"', 1)[1].split("</details>", 1)[0]
    item = closed.split(f'<code class="move" dir="ltr">{move}</code>', 1)[1].split("\n", 1)[0]
    return re.sub(r'<span class="tile-nw">([^<]*)</span>', r"\1", item)  # tiles kept whole on a line


@pytest.mark.django_db
def test_differing_sentences_for_a_move_illegal_everywhere_name_their_rulesets(client: Client) -> None:
    html = client.post("/en/adjudicate/", {"position": EXAMPLE}).content.decode()
    item = closed_item(html, "Bob: draw")
    said = re.findall(r'<li><span class="closed-by">(.*?):</span> ([^<]*)</li>', item)
    assert len(said) == 2 and said[0][1] != said[1][1], item  # two different sentences, each attributed
    with translation.override("en"):
        titles = sorted(ruleset_name(get_ruleset(i)) for i in base_ids())
    named = sorted(n for names, _ in said for n in re.findall(r"<bdi>(.*?)</bdi>", names))
    assert named == titles, named  # every ruleset, once
    assert {s for _, s in said} == {"Bob can play (9-2 -&gt; mexican), so must play.",
                                    "Bob can play (9-2 -&gt; Ann), so must play."}
    # a move all rulesets forbid in the same words keeps its one sentence, unattributed
    same = closed_item(html, "Bob: 6-4 -&gt; Ann")
    assert "closed-by" not in same and same.count("does not match") == 1, same


@pytest.mark.django_db
def test_values_in_a_hebrew_sentence_are_isolated(client: Client) -> None:
    he = client.post("/he/adjudicate/", {"position": EXAMPLE}).content.decode()
    item = closed_item(he, "Bob: draw")
    assert f"({FSI}9-2 -&gt; mexican{PDI})" in item and f"{FSI}Bob{PDI}" in item, item
    en = client.post("/en/adjudicate/", {"position": EXAMPLE}).content.decode()
    assert FSI not in en and PDI not in en  # a left-to-right page needs none


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_worked_example_speaks_the_reader_s_language(client: Client, language: str) -> None:
    """Its comment (what the table argues about) is translated; the position itself is the
    format's, so the page judges it as the English one."""
    page = client.get(f"/{language}/adjudicate/").content.decode()
    text = unescape(page.split('id="position"', 1)[1].split(">", 1)[1].split("</textarea>", 1)[0]).lstrip("\n")
    comment, position = text.split("\n", 1)
    with translation.override(language):
        assert comment == "# " + translation.gettext("Bob claims he may play 6-4 on Cy's train.")
    if language != "en":
        assert "claims" not in comment, comment
    assert position == EXAMPLE.split("\n", 1)[1]
    judged = client.post(f"/{language}/adjudicate/", {"position": text})
    assert judged.status_code == 200 and 'id="verdict"' in judged.content.decode()
