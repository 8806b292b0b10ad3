"""The reference pages: every page in every language, options, errors, htmx, the switcher."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from reference_html import LANGUAGES, RTL, parse, reference_pages

from mextrain_site.core.i18n import ruleset_name
from mextrain_site.reference import wording
from rules.reasons import ReasonCode
from rules.ruleset import RULE_SPECS
from tests.player_text import codes_in, player_text
from variants.loader import base_ids, get_ruleset, load_base, option_ids


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", reference_pages())
def test_every_page_in_every_language(client: Client, lang: str, page: str) -> None:
    response = client.get(f"/{lang}/{page}")
    assert response.status_code == 200, response.content[:500]
    doc = parse(response.content)
    html = doc.find("html")
    assert html is not None
    assert html.attrs["lang"] == lang
    assert html.attrs["dir"] == ("rtl" if lang in RTL else "ltr")
    assert response["Content-Language"] == lang
    if page != "reasons/":  # the catalogue of reason codes: its codes are its subject
        # players read names: no rule key, ruleset id or option id outside links, values and the
        # collapsed line for a position typed by hand
        assert not codes_in(player_text(response.content.decode())), codes_in(player_text(response.content.decode()))


def test_urls_are_named_under_the_language_prefix() -> None:
    with translation.override("he"):
        assert reverse("reference:variants") == "/he/variants/"
        assert reverse("reference:variant", args=["masters+mandatory-doubles"]) == "/he/variants/masters+mandatory-doubles/"
        assert reverse("reference:compare") == "/he/compare/"
        assert reverse("reference:which") == "/he/which/"
        assert reverse("reference:source", args=["003_d192915f30379178.txt"]) == "/he/sources/003_d192915f30379178.txt/"
        assert reverse("reference:reasons") == "/he/reasons/"


# -- rulesets --------------------------------------------------------------------------------------


def test_variants_has_one_card_per_ruleset_with_facts_and_traits(client: Client) -> None:
    doc = parse(client.get("/en/variants/").content)
    cards = doc.find_all("article", cls="card")
    assert [c.attrs["id"] for c in cards] == [f"card-{i}" for i in base_ids()]
    for card, ident in zip(cards, base_ids()):
        base = load_base(ident)
        assert base.title in card.text
        traits = card.find("ul", cls="traits")
        assert traits is not None
        assert 3 <= len(traits.elements) <= 4, ident
        facts = card.find("dl", cls="facts")
        assert facts is not None
        lo, hi = base.flags.players_count.min, base.flags.players_count.max
        assert f"{lo}–{hi}" in facts.text or f"{lo} to {hi}" in facts.text
        for row in base.flags.setup_deal:
            assert f"double-{row.set_max}" in facts.text
        for source in base.sources:
            assert card.find("a", href=f"/en/sources/{source.seed}/") is not None


def test_sources_show_language_and_direction(client: Client) -> None:
    """The ruleset's card names its sources' languages and directions (its own page names the
    languages only, to keep its head short; the source's page says the direction too)."""
    doc = parse(client.get("/en/variants/").content)
    card = doc.by_id("card-howto")
    assert card is not None
    facts = card.find("dl", cls="facts")
    assert facts is not None
    assert "Hebrew" in facts.text and "right to left" in facts.text
    assert "Kyrgyz" in facts.text and "left to right" in facts.text


def test_ruleset_page_deal_table_is_a_table(client: Client) -> None:
    doc = parse(client.get("/en/variants/gamerules/").content)
    rule = doc.by_id("rule-setup.deal")
    assert rule is not None
    table = rule.find("table", cls="deal-table")
    assert table is not None
    rows = table.find("tbody").find_all("tr")  # type: ignore[union-attr]
    assert len(rows) == len(load_base("gamerules").flags.setup_deal)
    assert "not stated" in table.text  # the double-15/-18 rows name no hand size


def test_silent_and_ambiguous_rules_are_flagged_with_their_reading(client: Client) -> None:
    doc = parse(client.get("/en/variants/masters/").content)
    silent = doc.by_id("rule-turn.announce_last_tile")
    assert silent is not None and "rule-silent" in silent.classes
    assert "Not stated by this source; assumed:" in silent.text
    assert load_base("masters").rules["turn.announce_last_tile"].reading in silent.text
    ambiguous = doc.by_id("rule-first_turn.tiles")
    assert ambiguous is not None and "rule-ambiguous" in ambiguous.classes
    rule = load_base("masters").rules["first_turn.tiles"]
    assert "the reading chosen" in ambiguous.text
    assert rule.reading in ambiguous.text and rule.alternative in ambiguous.text


def test_citations_carry_language_direction_and_gloss(client: Client) -> None:
    doc = parse(client.get("/en/variants/howto/").content)
    rule = doc.by_id("rule-engine.missing")
    assert rule is not None
    originals = [d.find("blockquote") for d in rule.find_all("details", cls="original")]
    langs = {(q.attrs["lang"], q.attrs["dir"]) for q in originals if q is not None}
    assert langs == {("he", "rtl"), ("ky", "ltr")}
    # the rendering leads, in the reader's language
    leads = [f.find("blockquote") for f in rule.find_all("figure", cls="quote")]
    assert {(q.attrs["lang"], q.attrs["dir"]) for q in leads if q is not None} == {("en", "ltr")}
    for cite in load_base("howto").rules["engine.missing"].citations:
        assert cite.quote in rule.text and cite.gloss in rule.text


@pytest.mark.parametrize("query", ["?options=mandatory-doubles,free-bonus-turn",
                                   "?options=mandatory-doubles&options=free-bonus-turn",
                                   "?options=free-bonus-turn+mandatory-doubles"])
def test_options_applied_from_the_query(client: Client, query: str) -> None:
    response = client.get("/en/variants/masters/" + query)
    assert response.status_code == 200
    doc = parse(response.content)
    # the options applied by their names; the id only where a position typed by hand needs it
    assert "Options appliedMandatory doubles, Free bonus turn" in " ".join(doc.find("dl", cls="facts").text.split())  # type: ignore[union-attr]
    assert "variant: masters+mandatory-doubles+free-bonus-turn" in doc.find("details", cls="position-line").text  # type: ignore[union-attr]
    follow_up = doc.by_id("rule-doubles.follow_up")
    assert follow_up is not None and "rule-optioned" in follow_up.classes
    assert "Without the option Free bonus turn" in follow_up.text
    option = doc.by_id("option-free-bonus-turn")
    assert option is not None and "option-applied" in option.classes


def test_options_in_the_path(client: Client) -> None:
    response = client.get("/en/variants/masters+thirteen-rounds/")
    assert response.status_code == 200
    assert b"masters+thirteen-rounds" in response.content


def test_every_option_is_listed_with_its_changes(client: Client) -> None:
    for ident in base_ids():
        doc = parse(client.get(f"/en/variants/{ident}/").content)
        for name, spec in load_base(ident).options.items():
            node = doc.by_id(f"option-{name}")
            assert node is not None, (ident, name)
            assert spec.summary in node.text
            changes = node.find("table", cls="changes")
            assert changes is not None
            for key in spec.changes:
                assert changes.find("a", href=f"#rule-{key}") is not None


@pytest.mark.parametrize("query, needle", [
    ("?options=free-bonus-turn", "The option “Free bonus turn” only works together with “Mandatory doubles”"),
    ("?options=reverse-order", "The option “Doubles satisfied in reverse order” only works together with “Free bonus turn”"),
    ("?options=no-such-option", "The ruleset “Masters Traditional Games” has no option “no-such-option”. Its options: Mandatory doubles, "),
])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_impossible_options_give_a_clear_message(client: Client, query: str, needle: str, lang: str) -> None:
    response = client.get(f"/{lang}/variants/masters/{query}")
    assert response.status_code == 400
    doc = parse(response.content)
    alert = doc.find("div", cls="alert")
    assert alert is not None
    if lang == "en":
        assert needle in alert.text
    # the page still shows the rules as written
    assert doc.by_id("rule-players.count") is not None


def test_impossible_options_suggest_what_would_work(client: Client) -> None:
    doc = parse(client.get("/en/variants/masters/?options=reverse-order").content)
    alert = doc.find("div", cls="alert")
    assert alert is not None
    link = alert.find("a")
    assert link is not None
    assert link.attrs["href"] == "/en/variants/masters+mandatory-doubles+free-bonus-turn+reverse-order/"


def test_unknown_ruleset_is_404(client: Client) -> None:
    assert client.get("/en/variants/dominos/").status_code == 404
    assert client.get("/en/variants/..%2Fsettings/").status_code == 404


# -- compare -----------------------------------------------------------------------------------------


def _rows(doc):  # type: ignore[no-untyped-def]
    table = doc.find("table", cls="compare")
    assert table is not None
    return [tr for tr in table.find_all("tr") if "differs" in tr.classes or "same" in tr.classes]


def test_compare_defaults_to_every_ruleset_one_row_per_dimension(client: Client) -> None:
    doc = parse(client.get("/en/compare/").content)
    rows = _rows(doc)
    assert [r.attrs["data-rule"] for r in rows] == [s.key for s in RULE_SPECS]
    head = doc.find("table", cls="compare").find("thead")  # type: ignore[union-attr]
    for ident in base_ids():
        assert head.find("a", href=f"/en/variants/{ident}/") is not None  # type: ignore[union-attr]


def test_compare_highlights_differences_and_can_hide_equal_rows(client: Client) -> None:
    url = "/en/compare/?v=howto&v=masters+mandatory-doubles"
    all_rows = _rows(parse(client.get(url).content))
    differing = [r.attrs["data-rule"] for r in all_rows if "differs" in r.classes]
    assert "engine.tile" in differing and "turn.matching_ends" not in differing
    assert any("same" in r.classes for r in all_rows)
    only = _rows(parse(client.get(url + "&diff=1").content))
    assert [r.attrs["data-rule"] for r in only] == differing


def test_compare_cells_cite_their_source(client: Client) -> None:
    doc = parse(client.get("/en/compare/?v=howto&v=masters").content)
    row = doc.by_id("row-engine.tile")
    assert row is not None
    cells = row.find_all("td")
    assert len(cells) == 2
    hrefs = [a.attrs["href"] for a in cells[1].find_all("a", cls="cite")]
    assert hrefs and all(h.startswith("/en/sources/003_d192915f30379178.txt/#q-") for h in hrefs)


def test_compare_htmx_returns_the_results_only(client: Client) -> None:
    response = client.get("/en/compare/?v=howto&v=gamerules&diff=1", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="compare-results")
    assert response.status_code == 200
    assert b"<html" not in response.content
    doc = parse(response.content)
    assert doc.by_id("compare-results") is not None
    assert all("differs" in r.classes for r in _rows(doc))
    assert "HX-Request" in response["Vary"]


def test_compare_form_works_without_javascript(client: Client) -> None:
    doc = parse(client.get("/en/compare/?v=howto&v=masters").content)
    form = doc.find("form", cls="compare-form")
    assert form is not None
    assert form.attrs["method"] == "get" and form.attrs["action"] == "/en/compare/"
    assert form.attrs["hx-get"] == "/en/compare/"
    switch = form.find("input", name="diff")
    assert switch is not None and switch.attrs["value"] == "1"
    assert form.find("button", type="submit") is not None
    checked = [i.attrs["value"] for i in form.find_all("input", name="v") if "checked" in i.attrs]
    assert checked == ["howto", "masters"]


def test_compare_with_a_combination_not_in_the_list(client: Client) -> None:
    response = client.get("/en/compare/?v=masters+mandatory-doubles+dead-double+thirteen-rounds&v=howto")
    assert response.status_code == 200
    assert b"masters+mandatory-doubles+dead-double+thirteen-rounds" in response.content


@pytest.mark.parametrize("query", ["?v=howto&v=dominos", "?v=howto&v=masters+free-bonus-turn", "?v=howto", "?v="])
def test_compare_bad_input_is_explained_not_a_500(client: Client, query: str) -> None:
    response = client.get("/en/compare/" + query)
    assert response.status_code in (200, 400)
    doc = parse(response.content)
    assert doc.find(cls="alert") is not None


# -- which rulesets say X --------------------------------------------------------------------------


def test_which_lists_every_value_and_its_holders(client: Client) -> None:
    doc = parse(client.get("/en/which/?key=engine.missing").content)
    groups = doc.find_all("li", cls="value-group")
    values = {load_base(i).rules["engine.missing"].value for i in base_ids()}
    # thirteen-rounds changes the masters value; it is listed where it lands
    assert len(groups) == len(values | {load_base("masters").options["thirteen-rounds"].changes["engine.missing"].value})
    holders = [a.text.strip() for g in groups for a in g.find("ul", cls="holders").find_all("a") if a.attrs["href"].startswith("/en/variants/")]  # type: ignore[union-attr]
    with translation.override("en"):  # each holder by its name, its link by its id
        for ident in base_ids():
            assert ruleset_name(get_ruleset(ident)) in holders
        assert "Masters Traditional Games + Thirteen rounds" in holders
    assert doc.find("a", href="/en/variants/masters+thirteen-rounds/#rule-engine.missing") is not None


def test_which_overview_lists_every_dimension(client: Client) -> None:
    doc = parse(client.get("/en/which/").content)
    for spec in RULE_SPECS:
        assert doc.find("a", href=f"?key={spec.key}") is not None
    select = doc.find("select", name="key")
    assert select is not None
    assert len(select.find_all("option")) == len(RULE_SPECS) + 1


def test_which_with_an_unknown_key(client: Client) -> None:
    response = client.get("/en/which/?key=nope")
    assert response.status_code == 400
    assert "There is no rule dimension" in parse(response.content).find(cls="alert").text  # type: ignore[union-attr]


# -- sources ---------------------------------------------------------------------------------------


def test_source_page_has_language_and_direction(client: Client) -> None:
    doc = parse(client.get("/en/sources/000_6fd4c4b4ba48b953.txt/").content)
    text = doc.find("article", cls="source-text")
    assert text is not None and text.attrs["lang"] == "he" and text.attrs["dir"] == "rtl"
    doc = parse(client.get("/he/sources/003_d192915f30379178.txt/").content)
    text = doc.find("article", cls="source-text")
    assert text is not None and text.attrs["lang"] == "it" and text.attrs["dir"] == "ltr"


@pytest.mark.parametrize(("lang", "seed", "name"), [
    ("en", "000_6fd4c4b4ba48b953.txt", "How to play Mexican Train dominoes · Hebrew"),
    ("en", "002_af9cae03ea40bc17.txt", "How to play Mexican Train dominoes · Kyrgyz"),
    ("it", "003_d192915f30379178.txt", "Masters Traditional Games · Italiano"),
])
def test_a_source_is_named_as_a_player_knows_it_and_its_file_is_a_fact(client: Client, lang: str, seed: str,
                                                                       name: str) -> None:
    """The heading and the list name a source by its ruleset's title (or publisher) and its
    language, the facts by title and publisher; the file name, which rule files cite, stands only in
    a closed details line, for those who want to check it."""
    doc = parse(client.get(f"/{lang}/sources/{seed}/").content)
    h1 = doc.find("h1")
    assert h1 is not None and h1.text.strip() == name and seed not in h1.text
    facts = doc.find("dl", cls="facts")
    assert facts is not None and seed not in facts.text
    with translation.override(lang):
        assert translation.gettext("Title") in facts.text and translation.gettext("Publisher") in facts.text
    file_line = doc.find("details", cls="source-file")
    assert file_line is not None and "open" not in file_line.attrs and seed in file_line.text
    cards = parse(client.get(f"/{lang}/sources/").content)
    link = cards.find("a", href=f"/{lang}/sources/{seed}/")
    assert link is not None and link.text.strip() == name
    card = cards.find("details", cls="source-file")
    assert card is not None and "open" not in card.attrs


def test_unknown_source_is_404(client: Client) -> None:
    assert client.get("/en/sources/999_nothing.txt/").status_code == 404
    assert client.get("/en/sources/..%2F..%2Fsettings.py/").status_code == 404


# -- reasons ---------------------------------------------------------------------------------------


def test_reasons_catalogue_lists_every_code(client: Client) -> None:
    """Every reason, under the rule it rests on (its name, with the rulesets that have it, grouped by
    value, folded), read as a player reads it; its code is its anchor and stands, for the API's and
    the command line's users, only in the closed section at the end."""
    doc = parse(client.get("/en/reasons/").content)
    codes = doc.by_id("codes")
    assert codes is not None and codes.tag == "details" and "open" not in codes.attrs
    listed = {c.text for c in codes.find_all("code")}
    for code in ReasonCode:
        node = doc.by_id(code.code)
        assert node is not None, code
        assert node.find("span", cls="reason-text").text.strip() == code.description  # type: ignore[union-attr]
        assert code.code not in node.text
        assert codes.find("a", href=f"#{code.code}") is not None and code.code in listed
        assert ("reason-forbids" in node.classes) is code.blocks
        rule = doc.by_id(f"reasons-{code.rule}") if code.rule else None
        if code.rule is None:
            unruled = doc.by_id("any-ruleset")
            assert unruled is not None and unruled in node.ancestors()
            continue
        assert rule is not None and rule.find("li", id=code.code) is not None, code
        name = rule.find("h3")
        with translation.override("en"):
            assert name is not None and name.text.strip() == wording.label(code.rule)
        assert name.find("a", href=f"/en/which/?key={code.rule}") is not None
        holders = [a.text.strip() for a in rule.find_all("a") if re.fullmatch(r"/en/variants/[^/]+/#rule-.*", a.attrs.get("href", ""))]
        with translation.override("en"):
            for ident in base_ids():
                assert ruleset_name(get_ruleset(ident)) in holders, (code, ident)
    # the rule keys only in the codes' section
    assert all(codes in k.ancestors() for k in doc.find_all("code"))


# -- language switcher -----------------------------------------------------------------------------


def test_language_switcher_keeps_the_page(client: Client) -> None:
    url = "/en/variants/masters/?options=mandatory-doubles"
    doc = parse(client.get(url).content)
    switcher = doc.find("nav", cls="language-switcher")
    assert switcher is not None
    forms = switcher.find_all("form")
    assert len(forms) == len(LANGUAGES)
    nexts = {f.find("button").attrs["value"]: f.find("input", name="next").attrs["value"] for f in forms}  # type: ignore[union-attr]
    for lang in LANGUAGES:
        assert nexts[lang] == f"/{lang}/variants/masters/?options=mandatory-doubles"
    current = switcher.find("button", value="en")
    assert current is not None and "aria-current" in current.attrs
    response = client.post("/i18n/setlang/", {"language": "hu", "next": nexts["hu"]})
    assert response.status_code == 302
    assert response["Location"] == "/hu/variants/masters/?options=mandatory-doubles"
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert parse(page.content).find("html").attrs["lang"] == "hu"  # type: ignore[union-attr]


def test_language_swap_leaves_unprefixed_paths() -> None:
    from mextrain_site.reference.templatetags.reference_tags import swap_language_prefix

    assert swap_language_prefix("/en/compare/?v=a+b", "he") == "/he/compare/?v=a+b"
    assert swap_language_prefix("/en", "el") == "/el"
    assert swap_language_prefix("/english/", "el") == "/english/"
    assert swap_language_prefix("/api/variants", "el") == "/api/variants"


def test_every_option_id_page_exists(client: Client) -> None:
    for ident in option_ids():
        assert client.get(f"/en/variants/{ident}/").status_code == 200


def test_compare_htmx_with_nothing_chosen_asks_for_two(client: Client) -> None:
    response = client.get("/en/compare/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="compare-results")
    assert response.status_code == 200
    assert b"Pick at least two rulesets" in response.content


def test_compare_htmx_errors_are_swapped_in(client: Client) -> None:
    """htmx swaps only 2xx answers, so a partial with an error message comes with 200."""
    response = client.get("/en/compare/?v=howto&v=dominos&v=masters&diff=1", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="compare-results")
    assert response.status_code == 200
    assert "No ruleset is called “dominos”." in response.content.decode()
    assert client.get("/en/compare/?v=howto&v=dominos&v=masters").status_code == 400
