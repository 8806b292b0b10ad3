"""A house ruleset's pages lead nowhere dead: every link on /h/<id>/, /<lang>/variants/<id>/ and its
rule sheet answers 200 (the sheet to print is the published rulesets' sheet, headed by the house
ruleset's name and its base); a GET of the upload URL (a reload after an error) leads back to the
builder instead of an empty 405."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

RULES = {"turn.cannot_play": "marker-no-draw", "scoring.double_blank": 25,
         "setup.deal": [{"players": [2, 4], "set": 12, "tiles": 14}, {"players": [5, 6], "set": 12, "tiles": 12},
                        {"players": [7, 8], "set": 12, "tiles": 10}]}


def _create(client: Client, name: str = "Kitchen table") -> str:
    answer = client.post("/api/rulesets", json.dumps({"base": "masters", "name": name, "rules": RULES}),
                         content_type="application/json")
    assert answer.status_code == 201, answer.content
    ident: str = answer.json()["id"]
    return ident


def _links(html: str) -> list[str]:
    """The site's own links on a page (href starting with /), without fragments, each once."""
    hrefs = (unescape(h).split("#")[0] for h in re.findall(r'<a [^>]*href="([^"]+)"', html))
    return list(dict.fromkeys(h for h in hrefs if h.startswith("/") and not h.startswith("//")))


@pytest.mark.parametrize("lang", ["en", "he"])
def test_every_link_on_a_house_rulesets_pages_answers_200(client: Client, lang: str) -> None:
    ident = _create(client)
    client.cookies.load({"django_language": lang})
    pages = [f"/h/{ident}/", f"/{lang}/variants/{ident}/"]
    sheet = f"/{lang}/variants/{ident}/sheet/"
    seen: dict[str, int] = {}
    for url in pages:
        html = client.get(url).content.decode()
        links = _links(html)
        assert sheet in links or f"/en/variants/{ident}/sheet/" in links, url  # "Print the rule sheet"
        for link in [*links, sheet]:
            if link not in seen:
                seen[link] = client.get(link).status_code
    dead = {link: status for link, status in seen.items() if status != 200}
    assert dead == {}
    # the sheet's own links too
    for link in _links(client.get(sheet).content.decode()):
        assert client.get(link).status_code == 200, link


def test_the_rule_sheet_of_a_house_ruleset_names_it_and_its_base(client: Client) -> None:
    ident = _create(client, "Rules")  # a name that is also an English word of the catalogues: kept as written
    for lang, base, house in (("en", "Masters Traditional Games", "House rules"), ("he", None, None)):
        page = client.get(f"/{lang}/variants/{ident}/sheet/")
        html = page.content.decode()
        assert page.status_code == 200
        assert "<h1><bdi>Rules</bdi></h1>" in html
        if base:
            assert f"{house} · Built on: <bdi>{base}</bdi>" in html
        assert html.count('class="sheet-rule sheet-house"') == 2  # the table's own (the deal table heads the sheet)
        assert "14" in html.split('class="sheet-section sheet-deal"')[1].split("</section>")[0]
        assert f'href="/{lang}/variants/{ident}/"' in html  # "The ruleset in full"
    assert client.get("/en/variants/house-aaaaaaaaaaaa/sheet/").status_code == 404


@pytest.mark.parametrize("lang", ["en", "he"])
def test_a_get_of_the_upload_url_goes_back_to_the_builder(client: Client, lang: str) -> None:
    answer = client.get(f"/{lang}/house/upload/")
    assert answer.status_code == 303 and answer["Location"] == f"/{lang}/house/"
    assert client.get(answer["Location"]).status_code == 200
    assert client.head(f"/{lang}/house/upload/").status_code == 303
    assert client.put(f"/{lang}/house/upload/").status_code == 405


