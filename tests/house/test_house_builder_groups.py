"""The house builder folded by group (issue 27), server side: the groups are the ruleset pages'
(``rule_views.grouped_specs``, one place), folded unless they hold a change, a refusal or a rule
found; the "find a rule" box without JavaScript; the quick-pick numbers; the saved page's
differences first and its file link in plain words, in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from mextrain_site.house.views import _fold
from mextrain_site.reference import rule_views, wording
from rules.ruleset import SPEC_BY_KEY
from tests.house.forms import builder_form
from tests.languages import LANGUAGES

pytestmark = [pytest.mark.django_db, pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


def groups(html: str) -> dict[str, tuple[bool, list[str]]]:
    """Each folded group of the page: its id, whether it is open, and the rules in it (their keys)."""
    out = {}
    starts = list(re.finditer(r'<details class="[^"]*house-group" id="([^"]+)"([^>]*)>', html))
    for i, m in enumerate(starts):
        body = html[m.end():starts[i + 1].start() if i + 1 < len(starts) else len(html)]
        out[m.group(1)] = ("open" in m.group(2), re.findall(r'<(?:div|article) class="[^"]*" id="rule-([^"]+)"', body))
    return out


def found(html: str) -> list[str]:
    """The rules the "find a rule" list shows (the others are hidden)."""
    return re.findall(r'<li data-find="[^"]*"><a href="#rule-([^"]+)">', html)


GROUPED = [(gid, [s.key for s in specs]) for gid, _title, specs in rule_views.grouped_specs()]


def test_the_builder_groups_the_rules_as_the_ruleset_pages_do_folded(client: Client) -> None:
    html = client.get("/en/house/").content.decode()
    assert [(gid, keys) for gid, (_open, keys) in groups(html).items()] == GROUPED
    assert not any(is_open for is_open, _keys in groups(html).values())  # nothing changed: every group folded
    # the index at the top: one link into each group, in order, by its title
    index = re.search(r'<nav class="house-index[^"]*"[^>]*>(.*?)</nav>', html, re.S)
    assert index is not None
    assert re.findall(r'href="#in-([^"]+)">([^<]+)</a>', index.group(1)) == [
        (gid, title) for gid, title, _specs in rule_views.grouped_specs()]
    assert html.index('class="house-index') < html.index('<details class="house-group"')


def test_a_group_opens_when_it_holds_a_change_or_a_refusal(client: Client) -> None:
    form = builder_form(client, "howto")
    changed = client.post("/en/house/", {**form, "rule:doubles.obligation": "none", "action": "preview"}).content.decode()
    assert [gid for gid, (is_open, _k) in groups(changed).items() if is_open] == ["doubles"]
    assert '<span class="house-gmark" id="gmark-doubles"><span class="badge badge-house">changed</span>' in changed
    refused = client.post("/en/house/", {**form, "rule:players.count:max": "16", "action": "preview"})
    assert refused.status_code == 400
    assert [gid for gid, (is_open, _k) in groups(refused.content.decode()).items() if is_open] == ["setup"]
    # an htmx preview carries each group's mark out of band, as it does each rule's
    partial = client.post("/en/house/", {**form, "rule:doubles.obligation": "none", "action": "preview"},
                          HTTP_HX_REQUEST="true").content.decode()
    assert '<span class="house-gmark" id="gmark-doubles" hx-swap-oob="true"><span class="badge' in partial
    assert '<span class="house-gmark" id="gmark-setup" hx-swap-oob="true"></span>' in partial


def test_find_a_rule_without_javascript_keeps_what_was_set(client: Client) -> None:
    form = builder_form(client, "howto")
    answer = client.post("/en/house/", {**form, "rule:turn.cannot_play": "marker-no-draw", "find": " BLANK ",
                                        "action": "find"})
    html = answer.content.decode()
    assert answer.status_code == 200
    assert found(html) == ["scoring.double_blank"]
    opened = [gid for gid, (is_open, _k) in groups(html).items() if is_open]
    assert opened == ["turn", "end"]  # the change's group and the found rule's
    assert '<option value="marker-no-draw" selected>' in html  # what was set stays set
    assert 'name="find" form="house-form" type="search" value="BLANK"' in html
    assert 'id="house-find-none" class="muted" hidden' in html
    nothing = client.post("/en/house/", {**form, "find": "zzqx", "action": "find"}).content.decode()
    assert found(nothing) == [] and '<p id="house-find-none" class="muted">No rule found by that name.</p>' in nothing
    # a GET with ?find= as well (a bookmark, a link): every rule whose name holds it, by name
    with translation.override("en"):
        doubles = sorted((k for k in SPEC_BY_KEY if "double" in str(wording.label(k)).lower()),
                         key=lambda k: _fold(str(wording.label(k))))
    assert len(doubles) > 5 and found(client.get("/en/house/?find=double").content.decode()) == doubles

def test_find_ignores_case_and_accents_in_every_language(client: Client) -> None:
    """Typed in a hurry on a phone: "ΠΟΝΤΟΙ" finds "Πόντοι …" as "blank" finds "double-blank"."""
    for lang in LANGUAGES:
        with translation.override(lang):
            name = str(wording.label("scoring.double_blank"))
        word = max(name.split(), key=len)
        html = client.get(f"/{lang}/house/", {"find": word.upper()}).content.decode()
        assert "scoring.double_blank" in found(html), (lang, word)
        with translation.override(lang):
            assert all(_fold(word) in _fold(str(wording.label(k))) for k in found(html)), (lang, found(html))
    assert _fold("Πόντοι  ΓΙΑ") == "ποντοι για" and _fold("Ordine dei doppi") == "ordine dei doppi"


def test_enter_in_a_field_finds_rather_than_starting_again(client: Client) -> None:
    """Enter in a text field submits with the form's first button: "Find" (which keeps every value),
    never "Start from this base" (which starts again)."""
    html = client.get("/en/house/").content.decode()
    form_starts = html.index('<form id="house-form"')
    find = html.index('<button type="submit" form="house-form" name="action" value="find"')
    assert find < form_starts  # before every button inside the form: the first in tree order
    assert not re.search(r'<button type="submit" form="house-form"', html[:find])

def test_the_points_take_quick_picks(client: Client) -> None:
    html = client.get("/en/house/?base=howto").content.decode()
    chips = re.search(r'<span class="house-chips" role="group" aria-label="Points for the double-blank" hidden>(.*?)</span>',
                      html, re.S)
    assert chips is not None
    picks = re.findall(r'data-for="r-scoring.double_blank" data-value="(\d+)" aria-pressed="(true|false)"', chips.group(1))
    assert picks == [("0", "false"), ("25", "false"), ("50", "true")]  # howto counts the 0-0 as 50


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_saved_page_shows_the_differences_first(client: Client, lang: str) -> None:
    form: dict[str, Any] = builder_form(client, "howto")
    saved = client.post(f"/{lang}/house/", {**form, "rule:doubles.obligation": "none", "rule:scoring.double_blank": "25",
                                            "name": "Kitchen", "action": "save"})
    assert saved.status_code == 303
    html = client.get(saved["Location"]).content.decode()
    own = re.findall(r'<article class="house-own-rule" id="own-([^"]+)">', html)
    assert own == ["doubles.obligation", "scoring.double_blank"]
    assert html.index('id="own"') < html.index('class="actions house-actions"') < html.index('id="all-rules"')
    assert [(gid, keys) for gid, (_o, keys) in groups(html).items()] == GROUPED
    assert not any(is_open for is_open, _keys in groups(html).values())
    with translation.override(lang):
        download = translation.gettext("Download these rules as a file")
    assert lang == "en" or download != "Download these rules as a file"
    assert f'download>{download}</a>' in html and "YAML" not in download
