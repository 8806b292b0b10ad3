"""The rule sheet's content (its printing is tested in tests/browser/test_sheet_browser.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from reference_html import parse

from mextrain_site.reference import rule_views, wording
from mextrain_site.reference import sheet as sh
from rules.ruleset import RULE_SPECS, DoubleObligation
from variants.loader import get_ruleset, option_ids


@pytest.mark.parametrize("ident", option_ids())
def test_the_sheet_holds_every_rule_once_with_its_sentence(client: Client, ident: str) -> None:
    doc = parse(client.get(f"/en/variants/{ident}/sheet/").content)
    keys = [n.attrs["data-rule"] for n in doc.find_all("div", cls="sheet-rule")]
    assert keys == [s.key for s in RULE_SPECS if s.key not in sh.HEADER_KEYS]
    rs = get_ruleset(ident)
    for key in keys:
        line = next(n for n in doc.find_all("div", cls="sheet-rule") if n.attrs["data-rule"] == key)
        assert parse(str(wording.value_html(key, rs.rule(key).value, compact=True))).text in line.text
    assert doc.find("table", cls="deal-table") is not None
    assert doc.find("nav") is None and doc.find("header", cls="site-header") is None


def test_options_in_the_id_or_the_query_are_applied(client: Client) -> None:
    path = client.get("/en/variants/masters+mandatory-doubles/sheet/").content
    query = client.get("/en/variants/masters/sheet/?options=mandatory-doubles").content
    assert b"mandatory-doubles" in path and path == query
    line = DoubleObligation.SATISFY.sentence
    assert line in parse(path).text


def test_bad_options_and_unknown_rulesets(client: Client) -> None:
    assert client.get("/en/variants/masters/sheet/?options=no-such").status_code == 400
    assert client.get("/en/variants/no-such/sheet/").status_code == 404


def test_a_quote_is_the_source_itself_in_its_language_else_its_rendering() -> None:
    rs = get_ruleset("howto")  # Hebrew (000) and Kyrgyz (002) sources
    view = rule_views.rule_view(rs, "engine.missing")
    with translation.override("he"):
        q = sh.short_quote(rule_views.rule_view(rs, "engine.missing"), "he")
    assert q is not None and q.original and q.language == "he" and q.text.rstrip("…") in next(
        c.quote for c in view.citations if c.language == "he")
    with translation.override("it"):
        q = sh.short_quote(rule_views.rule_view(rs, "engine.missing"), "it")
        glosses = [translation.gettext(c.gloss) for c in rs.rule("engine.missing").citations]
    assert q is not None and not q.original and q.text.rstrip("…") in " ".join(glosses)


def test_quotes_are_cut_to_a_few_words() -> None:
    for ident in option_ids():
        for section in sh.sheet(get_ruleset(ident), "en").sections:
            for r in section.rules:
                assert r.quote is None or len(r.quote.text.split()) <= sh.QUOTE_WORDS


def test_a_quote_names_its_source_by_language_not_by_file(client: Client) -> None:
    """The two sources of ``howto`` (a Hebrew and a Kyrgyz text) are told apart by language; on an
    English sheet every quote is a rendering, labelled as translated from its source's language (an
    English gloss of a foreign sentence is not that language's words), and marked as English."""
    doc = parse(client.get("/en/variants/howto/sheet/").content)
    cites = {n.text.strip() for n in doc.find_all("cite")}
    assert cites and cites <= {"translated from Hebrew", "translated from Kyrgyz"}
    assert {q.attrs.get("lang") for q in doc.find_all("q")} == {"en"}
    # on a page in the source's language, the quote is the source's own words, named by its language
    he = parse(client.get("/he/variants/howto/sheet/").content)
    assert "עברית" in {n.text.strip() for n in he.find_all("cite")}
