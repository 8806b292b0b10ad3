"""The rule reference in a real browser (system Chromium): right-to-left Hebrew, the compare
page's "differences only" switch (htmx, and without JavaScript), the language switcher.
Screenshots go to test-artifacts/reference-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from mextrain_site.core.i18n import ruleset_name
from tests.browser.helpers import shoot
from tests.browser.reading import PHONE, WIDE, no_codes, no_overflow
from variants.loader import get_ruleset

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}


@pytest.fixture
def page(page: Page) -> Page:
    page.set_viewport_size(VIEWPORT)
    return page


def test_hebrew_ruleset_page_is_right_to_left(page: Page, live_server: Any, artifacts: Path) -> None:
    page.goto(f"{live_server.url}/he/variants/masters/")
    assert page.evaluate("document.documentElement.lang") == "he"
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    assert page.evaluate("getComputedStyle(document.querySelector('#rule-engine\\\\.tile')).direction") == "rtl"
    # quotes keep their own direction; numbers and ids stay left to right
    quote = page.locator("#rule-engine\\.tile details.original blockquote").first
    assert quote.get_attribute("lang") == "it"
    assert quote.evaluate("el => getComputedStyle(el).direction") == "ltr"
    lead = page.locator("#rule-engine\\.tile figure.quote > blockquote").first  # the rendering, in Hebrew
    assert lead.get_attribute("lang") == "he" and lead.evaluate("el => getComputedStyle(el).direction") == "rtl"
    assert page.locator("#rule-players\\.count bdi").first.evaluate("el => getComputedStyle(el).direction") == "ltr"
    # the page is mirrored: the section headings start at the right edge
    box = page.locator("#h-setup").bounding_box()
    main = page.locator("main").bounding_box()
    assert box is not None and main is not None
    assert box["x"] + box["width"] > main["x"] + main["width"] - 40
    shoot(page, artifacts / "reference-he-variant-masters")
    page.goto(f"{live_server.url}/he/variants/howto/#rule-engine.missing")
    shoot(page, artifacts / "reference-he-variant-howto-rule")


def test_compare_differences_only_switch_hides_equal_rows(page: Page, live_server: Any, artifacts: Path) -> None:
    page.goto(f"{live_server.url}/en/compare/?v=howto&v=masters+mandatory-doubles")
    same = page.locator("table.compare tr.same")
    differs = page.locator("table.compare tr.differs")
    n_differs = differs.count()
    assert same.count() > 0 and n_differs > 0
    expect(same.first).to_be_visible()
    shoot(page, artifacts / "reference-compare-all")
    page.locator("#diff-switch").check()
    expect(same).to_have_count(0)
    expect(differs).to_have_count(n_differs)
    expect(page).to_have_url(f"{live_server.url}/en/compare/?diff=1&v=howto&v=masters%2Bmandatory-doubles")  # the switch comes first
    shoot(page, artifacts / "reference-compare-diff")
    # and back
    page.locator("#diff-switch").uncheck()
    expect(same.first).to_be_visible()
    # a reload of the pushed URL renders the whole page, still filtered
    page.locator("#diff-switch").check()
    expect(same).to_have_count(0)
    page.reload()
    expect(page.locator("h1")).to_have_count(1)
    expect(same).to_have_count(0)
    expect(page.locator("#diff-switch")).to_be_checked()


def test_compare_switch_without_javascript(browser: Browser, live_server: Any) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/en/compare/?v=gamerules&v=cardinal")
        assert page.locator("table.compare tr.same").count() > 0
        page.locator("#diff-switch").check()
        page.locator(".compare-form button[type=submit]").click()
        page.wait_for_url("**diff=1**")
        assert page.locator("table.compare tr.same").count() == 0
        assert page.locator("table.compare tr.differs").count() > 0
    finally:
        context.close()


def test_language_switcher_keeps_the_page(page: Page, live_server: Any, artifacts: Path) -> None:
    page.goto(f"{live_server.url}/en/variants/masters/?options=mandatory-doubles")
    page.locator(".language-switcher button[value=hu]").click()
    page.wait_for_url(f"{live_server.url}/hu/variants/masters/?options=mandatory-doubles")
    assert page.evaluate("document.documentElement.lang") == "hu"
    with translation.override("hu"):  # the option kept, named in Hungarian
        expect(page.locator("dl.facts")).to_contain_text(translation.gettext("Mandatory doubles"))
    page.locator(".language-switcher button[value=he]").click()
    page.wait_for_url(f"{live_server.url}/he/variants/masters/?options=mandatory-doubles")
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    expect(page.locator(".language-switcher button[value=he]")).to_be_disabled()
    shoot(page, artifacts / "reference-switcher-he")


def test_citation_link_lands_on_the_highlighted_quote(page: Page, live_server: Any, artifacts: Path) -> None:
    page.goto(f"{live_server.url}/en/variants/masters/")
    page.locator("#rule-engine\\.tile > details > summary").click()  # the rule's line opens its quotes
    link = page.locator("#rule-engine\\.tile a.cite-link").first
    quote = page.locator("#rule-engine\\.tile details.original blockquote").first.text_content() or ""
    link.click()
    page.wait_for_url("**/en/sources/003_d192915f30379178.txt/#q-*")
    target = page.locator("mark:target")
    expect(target).to_have_count(1)
    assert quote in target.inner_text()
    assert target.evaluate("el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
    shoot(page, artifacts / "reference-source-target")


@pytest.mark.parametrize("lang", ["en", "he"])
def test_screenshots_of_every_page(page: Page, live_server: Any, artifacts: Path, lang: str) -> None:
    shots = {
        "variants": "/variants/",
        "variant-gamerules": "/variants/gamerules/",
        "variant-options": "/variants/masters/?options=mandatory-doubles,free-bonus-turn#options",
        "variant-bad-options": "/variants/masters/?options=reverse-order",
        "compare": "/compare/",
        "which": "/which/",
        "which-key": "/which/?key=engine.missing",
        "sources": "/sources/",
        "source": "/sources/000_6fd4c4b4ba48b953.txt/",
        "reasons": "/reasons/",
    }
    for name, path in shots.items():
        response = page.goto(f"{live_server.url}/{lang}{path}")
        assert response is not None and response.status in (200, 400), path
        shoot(page, artifacts / f"reference-{lang}-{name}")


NAMED_PAGES = {
    "compare": "/compare/",
    "compare-options": "/compare/?v=howto&v=masters+mandatory-doubles+free-bonus-turn&diff=1",
    "variants": "/variants/",
    "variant-options": "/variants/masters/?options=mandatory-doubles,free-bonus-turn",
    "variant-bad-options": "/variants/masters/?options=reverse-order",
    "which-key": "/which/?key=doubles.follow_up",
    "sheet-options": "/variants/masters+thirteen-rounds/sheet/",
    "source": "/sources/003_d192915f30379178.txt/",
}


@pytest.mark.parametrize("lang", ["en", "he"])
@pytest.mark.parametrize("viewport", [PHONE, WIDE], ids=["375", "1280"])
def test_players_read_rulesets_and_options_by_name(page: Page, live_server: Any, artifacts: Path, lang: str,
                                                   viewport: dict[str, int]) -> None:
    """The compare page's chips and headings, the ruleset pages, who says what, the rule sheet and the
    sources name each ruleset and option as a player does (``Masters Traditional Games + Mandatory
    doubles``), never by its id or a rule key; on a phone nothing runs off the screen."""
    page.set_viewport_size(viewport)
    with translation.override(lang):
        combined = ruleset_name(get_ruleset("masters+mandatory-doubles+free-bonus-turn"))
        labels = [translation.gettext(t) for t in ("Mandatory doubles", "Free bonus turn")]
    for name, path in NAMED_PAGES.items():
        response = page.goto(f"{live_server.url}/{lang}{path}")
        assert response is not None and response.status in (200, 400), path
        no_codes(page)
        if viewport is PHONE:
            no_overflow(page)
        shoot(page, artifacts / f"reference-named-{name}-{lang}-{viewport['width']}", full_page=name == "compare")
        if name == "compare":  # each chip by its name, the id its value (and so the URL's ?v=)
            chip = page.locator("label.chip", has=page.locator("input[value='masters+mandatory-doubles+free-bonus-turn']"))
            expect(chip).to_have_text(combined)
        if name == "compare-options":
            expect(page.locator("table.compare thead th").nth(2)).to_have_text(combined)
        if name == "variant-options":
            for label in labels:
                expect(page.locator("dl.facts")).to_contain_text(label)
            expect(page.locator("#option-free-bonus-turn h3")).to_have_text(labels[1])
            # the id only for a position typed by hand, folded away
            line = page.locator("details.position-line")
            line.locator("summary").click()
            expect(line).to_contain_text("variant: masters+mandatory-doubles+free-bonus-turn")
            if viewport is PHONE:
                no_overflow(page)
