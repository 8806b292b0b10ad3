"""The house-rules builder on a 375 px phone in Chromium: pick a base, change rules with live
differences (htmx), an impossible combination refused inline, save, and the house ruleset's page;
the same without JavaScript; Hebrew right to left. Screenshots go to test-artifacts/house-*.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from mextrain_site.core.i18n import ruleset_name
from tests.browser.helpers import shoot
from tests.browser.reading import PHONE, WIDE, no_codes, no_overflow
from tests.browser.test_csp_browser import violations  # noqa: F401  # the fixture: CSP refusals seen
from variants.loader import get_ruleset

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def open_group(page: Page, key: str) -> None:
    """Open the builder's folded group that holds the rule ``key`` by a tap on its title, as a player does."""
    group = page.locator("details.house-group", has=page.locator(f"[id='rule-{key}']"))
    if group.get_attribute("open") is None:
        group.locator("summary").click()
    expect(group).to_have_attribute("open", "")

def test_build_house_rules_on_a_phone(page: Page, live_server: Any, artifacts: Path,
                                      violations: list[str]) -> None:  # noqa: F811
    """Everything runs under the site's Content Security Policy (no inline script or style)."""
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/en/house/")
    no_overflow(page)
    no_codes(page)
    expect(page.locator("#house-base option:checked")).to_have_text("How to play Mexican Train dominoes")
    shoot(page, artifacts / "house-builder-en-375")
    summary = page.locator("#house-summary")
    expect(summary).to_contain_text("0 rules changed from the base")
    # a change: the summary follows live (htmx), the page does not reload
    open_group(page, "turn.cannot_play")
    page.locator("#r-turn\\.cannot_play").select_option("marker-no-draw")
    expect(summary).to_contain_text("1 rule changed from the base")
    expect(summary).to_contain_text("differs from How to play Mexican Train dominoes in 1 rule")
    open_group(page, "scoring.double_blank")
    page.locator("#r-scoring\\.double_blank").fill("25")
    page.locator("#r-scoring\\.double_blank").dispatch_event("change")
    expect(summary).to_contain_text("2 rules changed from the base")
    # an impossible combination: the reason and the fix, at once
    open_group(page, "players.count")
    page.locator("input[name='rule:players.count:max']").fill("16")
    page.locator("input[name='rule:players.count:max']").dispatch_event("change")
    expect(summary.get_by_role("alert")).to_contain_text("add a row for 15, 16 or allow fewer players")
    no_codes(page)  # the English refusal is plain English too
    shoot(page, artifacts / "house-builder-refused-375")
    page.locator("input[name='rule:players.count:max']").fill("14")
    page.locator("input[name='rule:players.count:max']").dispatch_event("change")
    expect(summary.get_by_role("alert")).to_have_count(0)
    page.locator("#house-name").fill("Kitchen table")
    page.get_by_role("button", name="Save the house rules").click()
    expect(page).to_have_url(re.compile(r"/(en|he)/variants/house-[a-z2-7]{12}/$"))
    expect(page.locator("h1")).to_have_text("Kitchen table")
    expect(page.locator("#own .flag-house")).to_have_count(2)
    for name in ("Judge a position under these rules", "Compare", "Download these rules as a file"):
        expect(page.locator(".house-actions").get_by_role("link", name=name, exact=True)).to_be_visible()
    no_overflow(page)
    no_codes(page)
    shoot(page, artifacts / "house-page-en-375", full_page=False)
    ident = page.url.rstrip("/").rsplit("/", 1)[1]
    # the id stays at hand for a position typed as text, folded away
    details = page.locator(".house-details")
    details.locator("summary").click()
    expect(details).to_contain_text(f"variant: {ident}")
    no_overflow(page)
    page.get_by_role("link", name="Judge a position under these rules").click()
    expect(page.locator(f"input[name='variant'][value='{ident}']")).to_be_checked()
    assert violations == []


def test_builder_without_javascript_in_hebrew(browser: Browser, live_server: Any, artifacts: Path) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/he/house/")
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    no_overflow(page)
    page.locator("#house-base").select_option("howto")
    page.locator("button[name='action'][value='base']").click()
    expect(page.locator("#house-base")).to_have_value("howto")
    open_group(page, "doubles.dead")
    page.locator("#r-doubles\\.dead").select_option("true" if page.locator("#r-doubles\\.dead").input_value() == "false" else "false")
    page.locator("button[name='action'][value='preview']").click()
    expect(page.locator("#house-summary .house-changed")).to_have_text("חוק אחד שונה מהבסיס")
    expect(page.locator(".house-rule-changed")).to_have_count(1)
    shoot(page, artifacts / "house-builder-he-375-nojs")
    page.locator("#house-name").fill("החוקים שלנו")
    page.locator("button[name='action'][value='save']").click()
    expect(page).to_have_url(re.compile(r"/(en|he)/variants/house-[a-z2-7]{12}/$"))
    expect(page.locator("h1")).to_have_text("החוקים שלנו")
    assert page.evaluate("document.documentElement.lang") == "he"  # in the language it was built in
    expect(page.locator(".house-actions")).to_contain_text("הורדת החוקים האלה כקובץ")
    expect(page.locator(".facts")).to_contain_text("איך משחקים דומינו רכבת מקסיקנית")  # the base by its Hebrew title
    no_overflow(page)
    no_codes(page)
    shoot(page, artifacts / "house-page-he-375")
    context.close()


@pytest.mark.parametrize("lang", ["en", "he"])
def test_house_pages_at_1280(page: Page, live_server: Any, artifacts: Path, lang: str) -> None:
    """The builder on a base with an option, then the house ruleset's page: the base named as the
    referee page names it, no rule key or ruleset id in what a player reads; the keys for editing
    the file by hand in a collapsed help, each beside its label."""
    page.set_viewport_size(WIDE)
    with translation.override(lang):  # the option by its label in the reader's language
        base_name = ruleset_name(get_ruleset("masters+mandatory-doubles"))
    assert base_name.endswith("Mandatory doubles" if lang == "en" else "כפולות חובה")
    page.goto(f"{live_server.url}/{lang}/house/?base=masters%2Bmandatory-doubles")
    expect(page.locator("#house-base option:checked")).to_have_text(base_name)
    no_codes(page)
    shoot(page, artifacts / f"house-builder-{lang}-1280")
    keys = page.locator(".house-upload .house-details")
    keys.locator("summary").click()
    expect(keys.locator("code", has_text="turn.cannot_play")).to_be_visible()
    shoot(keys, artifacts / f"house-keys-{lang}-1280")
    open_group(page, "turn.cannot_play")
    page.locator("#r-turn\\.cannot_play").select_option("marker-no-draw")
    page.locator("#house-name").fill("Wide")
    page.locator("button[name='action'][value='save']").click()
    expect(page).to_have_url(re.compile(rf"/{lang}/variants/house-"))
    expect(page.locator(".facts")).to_contain_text(base_name)
    no_codes(page)
    shoot(page, artifacts / f"house-page-{lang}-1280")


@pytest.mark.parametrize(("lang", "frame"), [("en", "The file is not valid YAML at line 3, column 13:"),
                                             ("he", "הקובץ אינו YAML תקין בשורה 3, עמודה 13:")])
def test_an_upload_that_is_not_yaml_on_a_phone(page: Page, live_server: Any, artifacts: Path, tmp_path: Path,
                                               lang: str, frame: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/{lang}/house/")
    bad = tmp_path / "ours.yaml"
    bad.write_text("title: x\nbase: masters\nrules: {a: b: c}\n", encoding="utf-8")
    page.locator("#house-file").set_input_files(str(bad))
    page.locator(".house-upload button[type='submit']").click()
    alert = page.locator(".alert[role='alert']").first
    expect(alert).to_contain_text(frame)
    expect(alert.locator("code[lang='en']")).to_have_text("did not find expected ',' or '}'")
    no_overflow(page)
    shoot(page, artifacts / f"house-upload-not-yaml-{lang}-375")
    # the help for editing the file by hand: each rule's key beside its label, on a phone
    keys = page.locator(".house-upload .house-details")
    keys.locator("summary").click()
    expect(keys.locator("dd code").first).to_be_visible()
    no_overflow(page)
    shoot(keys, artifacts / f"house-keys-{lang}-375")


def deal_row(page: Page, i: int) -> list[str]:
    return [page.locator(f"[name='rule:setup.deal:{f}:{i}']").input_value() for f in ("lo", "hi", "set", "tiles")]


def test_hand_size_table_editor_on_a_phone(page: Page, live_server: Any, artifacts: Path,
                                           violations: list[str]) -> None:  # noqa: F811
    """The hand-size table: a published table chosen from the presets fills the editor in place
    (htmx), a number edited per player count updates the differences, a hand that does not fit
    the set is refused naming the row; then a number of rounds. Under the site's CSP."""
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/en/house/?base=masters")
    open_group(page, "setup.deal")
    editor = page.locator("#deal-editor")
    editor.scroll_into_view_if_needed()
    assert deal_row(page, 0) == ["2", "4", "12", "15"]
    no_overflow(page)
    summary = page.locator("#house-summary")
    page.locator("#deal-preset").select_option(label="16/15/14/12/11/10/9")
    expect(page.locator("[name='rule:setup.deal:tiles:6']")).to_have_value("9")
    assert [deal_row(page, i) for i in range(7)] == [[str(n), str(n), "12", str(t)] for n, t in
                                                     enumerate((16, 15, 14, 12, 11, 10, 9), start=2)]
    expect(summary).to_contain_text("1 rule changed from the base")
    no_overflow(page)
    shoot(editor, artifacts / "house-deal-editor-en-375")
    shoot(page, artifacts / "house-deal-editor-page-en-375")
    # a number edited by hand: 8 players cannot take 12 tiles each from a double-12 set (91 tiles)
    tiles = page.locator("[name='rule:setup.deal:tiles:6']")
    tiles.fill("12")
    tiles.dispatch_event("change")
    expect(summary.get_by_role("alert")).to_contain_text(
        "Set and hand size, row 7: expected a hand that fits a double-12 set for 8 players; found 12")
    tiles.fill("11")
    tiles.dispatch_event("change")
    expect(summary.get_by_role("alert")).to_have_count(0)
    # a number of rounds: the choice 'A game has … rounds.' and its number
    open_group(page, "rounds.count")
    page.locator("#r-rounds\\.count").select_option("number")
    rounds = page.locator("input[name='rule:rounds.count:number']")
    rounds.fill("10")
    rounds.dispatch_event("change")
    expect(summary).to_contain_text("2 rules changed from the base")
    no_overflow(page)
    shoot(page.locator("#rule-rounds\\.count"), artifacts / "house-rounds-en-375")
    assert violations == []


def test_hand_size_presets_without_javascript_in_hebrew(browser: Browser, live_server: Any, artifacts: Path) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    page = context.new_page()
    page.goto(f"{live_server.url}/he/house/?base=masters")
    open_group(page, "setup.deal")
    page.locator("#deal-preset").select_option(label="15/15/15/11/11/8/8")
    page.locator("button[name='action'][value='preset']").click()
    assert deal_row(page, 6) == ["8", "8", "12", "8"]
    expect(page.locator("#house-summary .house-changed")).to_have_text("חוק אחד שונה מהבסיס")
    expect(page.locator("#deal-editor th").first).not_to_have_text("Players from")
    no_overflow(page)
    shoot(page.locator("#deal-editor"), artifacts / "house-deal-editor-he-375")
    # a row that does not fit is marked, the message names it in words and says what fits, in Hebrew
    page.locator("[name='rule:setup.deal:tiles:0']").fill("50")
    page.locator("button[name='action'][value='preview']").click()
    expect(page.locator(".deal-row-error")).to_have_count(1)
    error = page.locator("#rule-setup\\.deal .field-error")
    expect(error).to_have_text("סט וגודל היד, שורה 1: צפוי: יד שמתאימה לסט כפול-12 עבור 2 שחקנים; נמצא: המספר 50")
    expect(page.locator("#house-summary [role=alert]")).not_to_contain_text("rules.")
    no_overflow(page)
    shoot(page.locator("#rule-setup\\.deal"), artifacts / "house-deal-editor-refused-he-375")
    context.close()


NARROW = {"width": 320, "height": 640}


def fits_the_screen(page: Page) -> None:
    """Nothing wider than the viewport itself (``no_overflow`` allows up to 375 px); what a scrolling
    box holds (the site's menu on a phone scrolls sideways) may reach beyond it."""
    width, client = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
                         if (getComputedStyle(a).overflowX !== 'visible') return false;
                       return true; })
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5
                  || e.getBoundingClientRect().left < -0.5)
        .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")
    assert width <= client and not wide, f"{width} px wide in {client} px: {wide}"


def small_targets(page: Page) -> list[str]:
    """Form controls of the house pages under 24 px tall or wide (WCAG 2.5.8), or a checkbox whose
    label (the target a player taps) is."""
    found: list[str] = page.evaluate("""() => [...document.querySelectorAll(
            '.house select, .house input:not([type=checkbox]):not([type=hidden]), .house button, .house-checks label')]
        .filter(e => e.offsetParent !== null)
        .map(e => [e, e.getBoundingClientRect()])
        .filter(([e, r]) => r.height < 24 || r.width < 24)
        .map(([e, r]) => (e.name || e.textContent.trim().slice(0, 20)) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""")
    return found


@pytest.mark.parametrize("lang", ["en", "he", "hu", "ky"])
def test_builder_at_320_px_leaves_the_form_in_view(page: Page, live_server: Any, artifacts: Path, lang: str) -> None:
    """On a 320 px phone the summary of changes scrolls away with the page (it covered a quarter of
    the screen, sticky); the hand-size table fits; every control is a target of at least 24 px."""
    page.set_viewport_size(NARROW)
    page.goto(f"{live_server.url}/{lang}/house/?base=masters")
    fits_the_screen(page)
    assert small_targets(page) == []
    shoot(page, artifacts / f"house-builder-{lang}-320")
    open_group(page, "setup.deal")
    editor = page.locator("#deal-editor")
    editor.scroll_into_view_if_needed()
    box, room = editor.locator("table").bounding_box(), editor.bounding_box()
    assert box is not None and room is not None
    assert room["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= room["x"] + room["width"] + 0.5, (box, room)
    page.evaluate("window.scrollBy(0, 400)")
    summary = page.locator("#house-summary").bounding_box()
    assert summary is not None and summary["y"] + summary["height"] <= 0, f"the summary covers the form: {summary}"
    shoot(page, artifacts / f"house-builder-scrolled-{lang}-320")
    shoot(editor, artifacts / f"house-deal-editor-{lang}-320")


def test_an_impossible_combination_stays_in_view_on_a_phone(page: Page, live_server: Any, artifacts: Path) -> None:
    """The summary is sticky on a phone only while it holds a refusal, and then at most a third of the
    screen: the reason stays in view while the player fixes it."""
    page.set_viewport_size(NARROW)
    page.goto(f"{live_server.url}/en/house/?base=masters")
    open_group(page, "players.count")
    field = page.locator("input[name='rule:players.count:max']")
    field.fill("16")
    field.dispatch_event("change")
    summary = page.locator("#house-summary")
    expect(summary.get_by_role("alert")).to_contain_text("add a row for")
    page.locator("#deal-editor").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 300)")
    box = summary.bounding_box()
    assert box is not None and 0 <= box["y"] <= 8 and box["height"] <= NARROW["height"] / 3, box
    shoot(page, artifacts / "house-builder-refused-en-320")
    field.fill("8")
    field.dispatch_event("change")
    expect(summary.get_by_role("alert")).to_have_count(0)
    page.evaluate("window.scrollBy(0, 200)")
    box = summary.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 0, box


@pytest.mark.parametrize(("lang", "one", "none"), [("en", "1 rule changed", "changed"), ("he", "חוק אחד שונה", "שונה")])
def test_a_change_far_down_the_form_is_seen_where_the_player_is(page: Page, live_server: Any, artifacts: Path,
                                                                 lang: str, one: str, none: str) -> None:
    """On a phone the summary has scrolled away when the player changes a rule far down the form: a
    one-line bar at the foot of the screen gives the count at once, and the rule just changed is
    marked where it stands; both follow the change back. The bar's links are real tap targets."""
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/{lang}/house/")
    bar = page.locator("#house-bar")
    expect(bar).to_be_hidden()  # nothing changed yet: nothing to keep in view
    for key in ("setup.deal", "engine.tile", "first_turn.tiles", "turn.cannot_play", "doubles.obligation"):
        open_group(page, key)  # every group above it open: the rule far down the form
    select = page.locator("#r-doubles\\.obligation")
    select.scroll_into_view_if_needed()
    base = select.input_value()
    other = next(v for v in select.locator("option").evaluate_all("os => os.map(o => o.value)") if v != base)
    select.select_option(other)
    expect(bar).to_be_visible()
    expect(bar.locator("a").first).to_have_text(one)
    row = page.locator("#rule-doubles\\.obligation")
    expect(row.locator(".house-mark .badge")).to_have_text(none)
    assert row.evaluate("e => getComputedStyle(e).backgroundColor") != "rgba(0, 0, 0, 0)"  # the row is tinted
    summary, box = page.locator("#house-summary").bounding_box(), bar.bounding_box()
    assert summary is not None and summary["y"] + summary["height"] <= 0, summary  # the summary is off-screen
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"] + 0.5, box
    assert box["height"] <= 60, box  # one line of 44 px targets
    for link in bar.locator("a").all():
        target = link.bounding_box()
        assert target is not None and target["height"] >= 24 and target["width"] >= 24, target
    shoot(page, artifacts / f"house-builder-bar-{lang}-375")
    bar.locator(".house-bar-save").click()  # to the name and the Save button
    expect(page.locator("#house-name")).to_be_in_viewport()
    select.select_option(base)  # back as the base has it: no mark, no bar
    expect(bar).to_be_hidden()
    expect(row.locator(".house-mark .badge")).to_have_count(0)


CHOSEN = """() => [...document.querySelectorAll('.house-rule select[id^="r-"]')].map(s => {
  const chosen = document.getElementById('chosen-' + s.id.slice(2));
  return {key: s.id, option: s.selectedOptions[0].textContent, cut: s.scrollWidth > s.clientWidth ||
          s.selectedOptions[0].textContent.length * 6 > s.clientWidth,
          text: chosen ? chosen.textContent : null, shown: chosen ? chosen.offsetHeight > 0 : false,
          whole: chosen ? chosen.scrollWidth <= chosen.clientWidth : false};
})"""


@pytest.mark.parametrize("lang", ["en", "he"])
def test_every_chosen_rule_reads_in_full_on_a_phone(page: Page, live_server: Any, artifacts: Path, lang: str) -> None:
    """A select is as wide as the phone and cuts its sentence mid-word: the chosen sentence is written
    out in full beneath each one, and follows a change (htmx, out of band). At 1280 px the select
    shows it whole, so there is no copy. The free text (the equipment) is a box that wraps."""
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/{lang}/house/?base=masters")
    for summary in page.locator("details.house-group > summary").all():
        summary.click()
    rules = page.evaluate(CHOSEN)
    assert len(rules) >= 20, rules
    assert [r["key"] for r in rules if r["text"] != r["option"] or not r["shown"] or not r["whole"]] == []
    assert any(r["cut"] for r in rules)  # the reason for it: some sentences do not fit a phone's select
    select = page.locator("#r-doubles\\.obligation")
    select.scroll_into_view_if_needed()
    other = next(o for o in select.locator("option").all() if o.get_attribute("value") != select.input_value())
    select.select_option(other.get_attribute("value"))
    expect(page.locator("#chosen-doubles\\.obligation")).to_have_text(other.inner_text())
    expect(page.locator("#chosen-doubles\\.obligation")).to_be_in_viewport()
    equipment = page.locator("#r-setup\\.equipment")
    assert equipment.evaluate("e => e.tagName") == "TEXTAREA"
    assert equipment.evaluate("e => e.scrollHeight <= e.clientHeight + 1")  # the whole text in view
    no_overflow(page)
    shoot(page, artifacts / f"house-builder-chosen-{lang}-375")
    page.set_viewport_size(WIDE)
    assert [r["key"] for r in page.evaluate(CHOSEN) if r["shown"]] == []


@pytest.mark.parametrize("lang", ["en", "he"])
def test_builder_summary_stays_in_view_at_1280(page: Page, live_server: Any, artifacts: Path, lang: str) -> None:
    """On a wide screen the summary stays at the top while the form scrolls (there is room for it)."""
    page.set_viewport_size(WIDE)
    page.goto(f"{live_server.url}/{lang}/house/?base=masters")
    open_group(page, "setup.deal")
    open_group(page, "doubles.obligation")
    page.locator("#deal-editor").scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 300)")
    box = page.locator("#house-summary").bounding_box()
    assert box is not None and 0 <= box["y"] <= 8, box  # at the top, below its margin
    select = page.locator("#r-doubles\\.obligation")
    select.select_option(next(v for v in select.locator("option").evaluate_all("os => os.map(o => o.value)")
                              if v != select.input_value()))
    expect(page.locator("#house-summary .house-changed")).not_to_have_text(re.compile(r"^0 |^0$"))
    expect(page.locator("#rule-doubles\\.obligation .house-mark .badge")).to_have_count(1)
    expect(page.locator("#house-bar")).to_be_hidden()  # the summary itself is in view: no bar
    fits_the_screen(page)
    assert small_targets(page) == []
    shoot(page, artifacts / f"house-builder-scrolled-{lang}-1280")


def test_a_house_rulesets_sheet_in_the_browser(page: Page, live_server: Any, artifacts: Path) -> None:
    """'Print the rule sheet' on a saved house ruleset opens its sheet (it was a 404), in English and
    Hebrew, on a phone and a wide screen."""
    page.set_viewport_size(WIDE)
    page.goto(f"{live_server.url}/en/house/?base=masters")
    open_group(page, "setup.deal")
    page.locator("[name='rule:setup.deal:tiles:0']").fill("14")
    page.locator("#house-name").fill("Fourteen each")
    page.get_by_role("button", name="Save the house rules").click()
    expect(page).to_have_url(re.compile(r"/en/variants/house-[a-z2-7]{12}/$"))  # it was a 400
    expect(page.locator("#own .flag-house")).to_have_count(1)
    ident = page.url.rstrip("/").rsplit("/", 1)[1]
    for lang in ("en", "he"):
        for size, width in ((WIDE, 1280), (NARROW, 320)):
            page.set_viewport_size(size)
            page.goto(f"{live_server.url}/{lang}/variants/{ident}/")
            with page.expect_navigation():
                page.locator(".house-actions a.button[href$='/sheet/']").click()
            assert page.url.endswith(f"/{lang}/variants/{ident}/sheet/")
            expect(page.locator("h1")).to_have_text("Fourteen each")
            expect(page.locator(".sheet-meta")).to_contain_text(
                "Masters Traditional Games")
            fits_the_screen(page)
            shoot(page, artifacts / f"house-sheet-{lang}-{width}", full_page=width == 1280)
