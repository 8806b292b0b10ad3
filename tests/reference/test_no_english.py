"""No English leaks: every page rendered in each of the five other languages holds no sentence of
the English source (an interface string of the catalogues, or a free text of the ruleset files)
left untranslated. The pages: the reference (every ruleset and option, its rule sheet, compare,
which, sources, reasons), the referee's prefilled example judged, a finished round judged, bad
input, a page that does not exist, and the house rules: the builder, the builder refusing a combination, a
file that is not YAML, and a stored house ruleset's page."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from reference_html import Node, parse, reference_pages

from mextrain_site.referee.views import EXAMPLE
from tests.catalogues import english_in
from tests.house.forms import builder_form as house_form
from tests.languages import TRANSLATED

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
              pytest.mark.slow]  # every reference page in every language: make test, not make test-fast

FINISHED_ROUND = """players: Ann Bob Cy Dee
engine: 12-12
Ann: 12-5
Bob: 12-7
Cy: 12-3
Dee: 12-9
mexican: 12-1
boneyard: 10
turn: Bob
hand: 7-2
hand Ann: 6-6 1-0
hand Cy: 10-4
hand Dee: 0-0 11-3
moves:
  Bob: 7-2 -> Bob
check: Cy: pass
"""
BAD_INPUT = "players: Ann Bob\nengine: 12-12\nAnn: 12-5 5-5\nBob: -\nturn: Cy\n"
REFUSED_HOUSE = {"rule:markers.placed": "when-own-train-unplayable", "rule:markers.removed": "owner-plays-any-tile",
                 "rule:setup.deal:tiles:2": "12"}
"""A house ruleset the builder refuses (two rules that cannot work together, a hand-size row that does
not fit its set): the refusal is worded in the reader's language."""
NOT_PROSE = ("code", "kbd", "samp", "script", "style", "textarea", "pre")
"""Elements whose text is input syntax, ids or code, not prose."""


def prose(node: Node, lang: str) -> str:
    """The text a reader of the page reads, without code and without passages quoted in another language."""
    if isinstance(node, str):
        return node
    if node.tag in NOT_PROSE or node.attrs.get("lang", lang).split("-")[0] != lang:
        return " "
    shown = [node.attrs.get(a, "") for a in ("title", "aria-label", "placeholder", "alt")]
    return " ".join([*shown, *(prose(c, lang) for c in node.children)])  # type: ignore[arg-type]


def leaks(html: bytes, lang: str) -> list[str]:
    doc = parse(html)
    root = doc.find("html")
    assert root is not None and root.attrs.get("lang") == lang
    return english_in(prose(root, lang), lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_reference_page_leaks_english(client: Client, lang: str) -> None:
    found = {}
    for page in reference_pages():
        response = client.get(f"/{lang}/{page}")
        assert response.status_code == 200, page
        if stray := leaks(response.content, lang):
            found[page] = stray[:3]
    assert not found, f"{lang}: English on {len(found)} pages: {dict(list(found.items())[:5])}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_ruling_or_error_page_leaks_english(client: Client, lang: str) -> None:
    url = f"/{lang}/adjudicate/"
    house = client.post("/api/rulesets", json.dumps({"base": "masters+mandatory-doubles", "name": "Kitchen",
                                                     "rules": {"turn.cannot_play": "marker-no-draw"}}),
                        content_type="application/json").json()["id"]
    pages = {
        "the example": client.get(url),
        "the example judged": client.post(url, {"position": EXAMPLE}),
        "a finished round judged": client.post(url, {"position": FINISHED_ROUND}),
        "bad input": client.post(url, {"position": BAD_INPUT}),
        "no such page": client.get(f"/{lang}/variants/no-such-ruleset/"),
        "house rules refused": client.post(f"/{lang}/house/", {**house_form(client), **REFUSED_HOUSE, "action": "preview"}),
        "house rules builder": client.get(f"/{lang}/house/"),
        "house rules not YAML": client.post(f"/{lang}/house/upload/", {"file": SimpleUploadedFile(
            "ours.yaml", b"title: x\nbase: masters\nrules: {a: b: c}\n")}),
        "a house ruleset": client.get(f"/{lang}/variants/{house}/"),
    }
    assert pages["bad input"].status_code == 400 and pages["no such page"].status_code == 404
    assert pages["house rules refused"].status_code == 400
    found = {name: stray[:3] for name, r in pages.items() if (stray := leaks(r.content, lang))}
    assert not found, f"{lang}: English on {found}"


def test_the_check_finds_english_in_prose_but_not_in_code_or_quotes() -> None:
    gloss = "If a player cannot place a domino, he must draw one from the boneyard."
    assert leaks(f'<html lang="it"><p>Nota: {gloss}</p></html>'.encode(), "it")
    assert leaks('<html lang="it"><p title="Who else says this?">x</p></html>'.encode(), "it")
    assert not leaks(f'<html lang="it"><p><code>{gloss}</code> <span lang="en">{gloss}</span></p></html>'.encode(), "it")
