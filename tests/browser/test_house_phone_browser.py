"""The house builder and a saved house ruleset's page as a player holding a phone uses them (issue
27), measured in English, Hebrew and Greek on a 375 px touch screen and at 1280 px: where the named
rules stand, the index and the "find a rule" box, a two-rule house ruleset built, saved and shared
by counted taps with only its name typed, the saved page's differences first, tap targets, nothing
sideways. Screenshots: test-artifacts/house-<what>-<lang>-<width>.png."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Locator, Page, expect

from mextrain_site.reference import rule_views, wording
from tests.browser.helpers import WIDTHS, NewPage, gettext, shoot
from tests.browser.reading import no_codes, no_overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMED = ("doubles.obligation", "scoring.double_blank")
"""The rules the issue measured: "Open doubles" (5,144 px down a phone) and "Points for the double-blank" (6,143 px)."""
NAME = "Kitchen"
MAX_TAPS = 15

HOUSE_TARGETS = """() => [...document.querySelectorAll(
    '.house button, .house summary, .house select, .house a.button, .house-index a, .house-find-list a, .house-bar a')]
  .filter(e => e.checkVisibility())
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.height < 44 || r.width < 44)
  .map(([e, r]) => e.outerHTML.slice(0, 70) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))"""
"""The house pages' buttons, disclosures, chips and stand-alone links under 44 x 44 px."""

HOUSE_LINKS = """() => [...document.querySelectorAll('.house a[href], .house input[type=checkbox]')]
  .filter(e => e.checkVisibility())
  .flatMap(e => {
    const p = e.parentElement, r = (e.closest('label') || e).getBoundingClientRect();
    if (e.matches('a') && p.matches('p, li, dd, div') && p.textContent.trim() !== e.textContent.trim()) {
      // a link inside running text: its centre at least 24 px from the next one's (WCAG 2.5.8's spacing)
      const links = [...p.querySelectorAll(':scope > a[href]')], next = links[links.indexOf(e) + 1];
      if (!next) return [];
      const n = next.getBoundingClientRect();
      const apart = Math.hypot((n.left + n.right - r.left - r.right) / 2, (n.top + n.bottom - r.top - r.bottom) / 2);
      return apart < 24 ? [e.outerHTML.slice(0, 70) + ' ' + Math.round(apart) + ' px from the next link'] : [];
    }
    return r.height < 24 || r.width < 24 ? [e.outerHTML.slice(0, 70) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height)] : [];
  })"""
"""Links standing alone (and check boxes, by their labels) under 24 x 24 px on the house pages."""


class Taps:
    """Counts what a player's finger does: a tap (a click at 1280 px), a select (two taps: open the
    list, choose) and the keys typed."""

    def __init__(self, page: Page, touch: bool) -> None:
        self.page, self.touch, self.taps, self.keys = page, touch, 0, 0

    def tap(self, target: Locator) -> None:
        if self.touch:
            target.tap()
        else:
            target.click()
        self.taps += 1

    def choose(self, select: Locator, value: str) -> None:
        select.scroll_into_view_if_needed()
        select.select_option(value)
        self.taps += 2

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.keys += len(text)


def doc_bottom(locator: Locator) -> float:
    """How far down the page (from its top, in px) the element ends."""
    return float(locator.evaluate("e => e.getBoundingClientRect().bottom + window.scrollY"))


def doc_top(locator: Locator) -> float:
    return float(locator.evaluate("e => e.getBoundingClientRect().top + window.scrollY"))


def csp_refusals(page: Page) -> list[str]:
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if "Content Security Policy" in m.text else None)
    return found


def bare(text: str) -> str:
    """A word as a player types it in a hurry: no accents, upper case."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)).upper()


@pytest.mark.parametrize("width", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["en", "he", "el"])
def test_house_builder_and_saved_page_at_the_table(new_page: NewPage, live_server: Any, artifacts: Path,
                                                   lang: str, width: str) -> None:
    touch = width == "phone"
    px = WIDTHS[width]["width"]
    screen = WIDTHS[width]["height"]
    page = new_page(width, has_touch=touch, is_mobile=touch, permissions=["clipboard-read", "clipboard-write"])
    refusals = csp_refusals(page)
    with translation.override(lang):
        groups = [(gid, title) for gid, title, _specs in rule_views.grouped_specs()]
        labels = {key: str(wording.label(key)) for key in NAMED}
    page.goto(f"{live_server.url}/{lang}/house/")

    # -- the first screen: an index of the groups, the find box, every group folded ------------------
    index = page.locator(".house-index a")
    expect(index).to_have_text([title for _gid, title in groups])
    expect(page.locator("details.house-group")).to_have_count(len(groups))
    expect(page.locator("details.house-group[open]")).to_have_count(0)
    expect(page.locator("#house-find")).to_be_in_viewport()
    no_overflow(page)
    no_codes(page)
    assert page.evaluate(HOUSE_TARGETS) == []
    assert page.evaluate(HOUSE_LINKS) == []
    shoot(page, artifacts / f"house-builder-{lang}-{px}")

    # -- each named rule: one tap on the index opens its group, the rule within two screens ----------
    for key in NAMED:
        page.evaluate("document.querySelectorAll('details.house-group').forEach(d => d.open = false); scrollTo(0, 0)")
        group = page.locator(".house-group", has=page.locator(f"[id='rule-{key}']"))
        gid = group.get_attribute("id")
        page.locator(f".house-index a[href='#in-{gid}']").click()
        expect(group).to_have_attribute("open", "")
        rule = page.locator(f"[id='rule-{key}']")
        expect(rule.locator("label").first).to_have_text(labels[key])
        expect(group.locator("summary")).to_be_in_viewport()  # the jump lands on the group, its title in view
        assert doc_bottom(rule) <= 2 * screen, f"{key} ends {doc_bottom(rule):.0f} px down ({screen} px screens)"

    # -- find a rule: the list follows what is typed (accents and case aside); a tap goes to the rule --
    page.evaluate("document.querySelectorAll('details.house-group').forEach(d => d.open = false); scrollTo(0, 0)")
    word = max(labels["scoring.double_blank"].split(), key=len)
    find = page.locator("#house-find")
    find.fill(bare(word))
    found = page.locator("#house-find-list li:not([hidden])")
    expect(found.filter(has_text=labels["scoring.double_blank"])).to_have_count(1)
    assert found.count() < 10
    shoot(page, artifacts / f"house-find-{lang}-{px}")
    found.filter(has_text=labels["scoring.double_blank"]).locator("a").click()
    expect(page.locator("[id='r-scoring.double_blank']")).to_be_in_viewport()
    find.fill("zzqx")
    expect(found).to_have_count(0)
    expect(page.locator("#house-find-none")).to_be_visible()
    find.fill("")
    expect(page.locator("#house-find-none")).to_be_hidden()

    # -- a two-rule house ruleset, counted: open doubles need not be satisfied, the 0-0 counts 25 ----
    page.goto(f"{live_server.url}/{lang}/house/")
    taps = Taps(page, touch)
    doubles = page.locator(".house-group", has=page.locator("[id='rule-doubles.obligation']"))
    taps.tap(page.locator(f".house-index a[href='#in-{doubles.get_attribute('id')}']"))
    taps.choose(page.locator("[id='r-doubles.obligation']"), "none")
    summary = page.locator("#house-summary .house-changed")
    with translation.override(lang):
        changed = [translation.ngettext("%(counter)s rule changed from the base", "%(counter)s rules changed from the base",
                                        n) % {"counter": n} for n in (1, 2)]
    expect(summary).to_have_text(changed[0])
    end = page.locator(".house-group", has=page.locator("[id='rule-scoring.double_blank']"))
    taps.tap(end.locator("summary"))
    taps.tap(page.locator("[id='rule-scoring.double_blank'] .house-chip[data-value='25']"))
    expect(page.locator("[id='r-scoring.double_blank']")).to_have_value("25")
    expect(summary).to_have_text(changed[1])
    expect(page.locator("[id='rule-scoring.double_blank'] .house-mark .badge")).to_be_visible()
    taps.tap(page.locator("#house-name"))
    taps.type(NAME)
    taps.tap(page.get_by_role("button", name=gettext(lang, "Save the house rules")))
    expect(page).to_have_url(re.compile(rf"/{lang}/variants/house-[a-z2-7]{{12}}/$"))
    ident = page.url.rstrip("/").rsplit("/", 1)[1]
    # shared: the page's link on the clipboard in one tap
    taps.tap(page.locator(".house-copy"))
    expect(page.locator("#house-copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()").endswith(f"/h/{ident}/")
    assert taps.taps <= MAX_TAPS and taps.keys == len(NAME), (taps.taps, taps.keys)

    # -- the saved page: the differences first, the whole within four screens before the rule list ---
    expect(page.locator("h1")).to_have_text(NAME)
    own = page.locator("#own .house-own-rule")
    expect(own).to_have_count(2)
    expect(own.locator("h3")).to_have_text([labels["doubles.obligation"], labels["scoring.double_blank"]])
    expect(own.first).to_be_in_viewport()
    assert doc_top(page.locator("#own")) < doc_top(page.locator(".house-actions"))
    assert doc_top(page.locator("#all-rules")) <= 4 * screen, doc_top(page.locator("#all-rules"))
    expect(page.locator("#all-rules details.house-group[open]")).to_have_count(0)
    download = page.locator(".house-actions").get_by_role("link", name=gettext(lang, "Download these rules as a file"))
    expect(download).to_be_visible()
    assert download.get_attribute("href") == f"/h/{ident}.yaml"
    no_overflow(page)
    no_codes(page)
    assert page.evaluate(HOUSE_TARGETS) == []
    assert page.evaluate(HOUSE_LINKS) == []
    shoot(page, artifacts / f"house-saved-{lang}-{px}")
    shoot(page, artifacts / f"house-saved-full-{lang}-{px}", full_page=True)
    assert refusals == []
