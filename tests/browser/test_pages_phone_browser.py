"""The site's pages other than the referee, as a player holding a phone at the table uses them (issue 27),
measured at 375 px (touch) and 1280 px in English, Hebrew and Greek: every page of the menu one tap away,
the comparison without sideways scrolling and with the rule's name never covered, a ruleset's contents
and one line per rule within six screens, /reasons/ short and searchable, sources named by title and
publisher, every target large enough; and the rule sheet printed by Chromium: its pages and font sizes.

Screenshots go to test-artifacts/pages-<what>-<lang>-<width>.png, the PDFs to pages-sheet-<lang>.pdf."""

from __future__ import annotations

import re
import zlib
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from mextrain_site.reference.citations import language_name
from tests.browser.helpers import WIDTHS, NewPage, gettext, scrolls_sideways, shoot, small_targets
from variants.loader import base_ids, get_ruleset, option_ids

pytestmark = pytest.mark.browser

CASES = [(language, width) for language in ("en", "he", "el") for width in ("phone", "desktop")]
MENU = ("adjudicate/", "game/new/", "variants/", "compare/", "house/", "sources/", "reasons/")
"""Every page of the header's menu, under the language prefix."""
SCREENS = 6
"""A ruleset's head, contents and list of rules fit in this many screens."""
REASONS_SCREENS = 12
"""/reasons/ (every reason, rule by rule, rulesets and codes folded) fits in this many screens
(it was 46 phone screens in English, 54 in Greek)."""
LONGEST = "cardinal"
"""The ruleset whose page is the longest in each of the three languages."""


def width_px(page: Page) -> int:
    return int(page.evaluate("window.innerWidth"))


def shot(page: Page, artifacts: Path, what: str, language: str, *, full: bool = False) -> None:
    shoot(page, artifacts / f"pages-{what}-{language}-{width_px(page)}", full_page=full)


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def covered(page: Page, selector: str) -> list[str]:
    """The elements ``selector`` finds whose first line another element is drawn over (the topmost
    element at its centre lies outside the element's own table cell), each scrolled into view first."""
    return list(page.evaluate(
        """sel => [...document.querySelectorAll(sel)].flatMap(el => {
              el.scrollIntoView({block: 'center', inline: 'nearest'});
              const r = el.getClientRects()[0];  // the name's first line
              const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              const own = el.closest('th') || el;  // the name's own cell, between its words
              return top && own.contains(top) ? [] : [`${el.textContent.trim()} under ${top && top.outerHTML.slice(0, 60)}`];
           })""", selector))


@pytest.mark.parametrize(("language", "width"), CASES)
def test_the_pages_at_the_table(new_page: NewPage, live_server: Any, artifacts: Path, language: str, width: str) -> None:
    touch = {"has_touch": True, "is_mobile": True} if width == "phone" else {}
    page = new_page(width, **touch)
    screen = WIDTHS[width]["height"]
    site = f"{live_server.url}/{language}"
    problems: list[str] = []

    def tap(selector: str) -> None:
        target = page.locator(selector).first
        target.tap() if touch else target.click()

    # -- the menu: from any page, every page of the site in one tap (after the menu button on a phone)
    for start in ("compare/", "variants/masters/"):
        page.goto(f"{site}/{start}")
        assert box(page, ".site-header")["height"] <= 100
        menu_button = page.locator(".site-menu > summary")
        if width == "phone":
            expect(menu_button).to_be_visible()
            tap(".site-menu > summary")
        else:
            expect(menu_button).to_be_hidden()  # a wide screen shows the pages as a row
        for path in MENU:
            link = page.locator(f".site-nav a[href='/{language}/{path}']")
            expect(link).to_be_visible()
            found = link.bounding_box()
            assert found is not None
            # whole on the screen (none cut off or scrolled away), and a finger's size
            assert 0 <= found["x"] and found["x"] + found["width"] <= width_px(page) + 0.5, (path, found)
            assert 0 <= found["y"] and found["y"] + found["height"] <= screen, (path, found)
            assert found["height"] >= 44 and found["width"] >= 44, (path, found)
        if start == "compare/":
            shot(page, artifacts, "menu", language)
        tap(f".site-nav a[href='/{language}/reasons/']")
        expect(page).to_have_url(f"{site}/reasons/")

    # -- compare: no sideways scrolling of the page, the rule's name never drawn over, the two choices on top
    page.goto(f"{site}/compare/")
    assert not scrolls_sideways(page)
    for control in ("label.switch", ".chooser-menu > summary"):
        found = box(page, control)
        assert found["y"] + found["height"] <= screen, (control, found)  # in the first screen
        assert found["height"] >= 44, (control, found)
    shot(page, artifacts, "compare", language)
    rows = "table.compare > tbody > tr:not(.group) > th[scope=row] > a"  # each rule's name
    if width == "desktop":  # every ruleset: the table scrolls sideways in its box, its rule column stays, nothing over it
        page.goto(f"{site}/compare/?" + "&".join(f"v={quote(i)}" for i in option_ids()))
        assert not scrolls_sideways(page)
        page.locator(".table-scroll").evaluate("s => s.scrollBy({left: getComputedStyle(s).direction === 'rtl' ? -1e5 : 1e5})")
        assert page.locator(".table-scroll").evaluate("s => Math.abs(s.scrollLeft) > 0")
    else:  # one card per rule: the rulesets' values stacked under the rule's name, each named
        assert page.locator("table.compare td .cell-ruleset").first.is_visible()
        names = page.locator("#row-setup\\.deal .cell-ruleset").all_inner_texts()
        assert len(names) == len(base_ids())
        clipped = page.evaluate("""() => [...document.querySelectorAll('table.compare a.cite')].filter(a => {
              const r = a.getBoundingClientRect(), c = a.closest('td').getBoundingClientRect();
              return r.left < c.left - 1 || r.right > c.right + 1; }).length""")
        assert clipped == 0, f"{clipped} citation numbers stick out of their card"
    problems += [f"compare: covered {c}" for c in covered(page, rows)]
    page.locator("#row-setup\\.deal").scroll_into_view_if_needed()
    shot(page, artifacts, "compare-deal", language)
    tap(".chooser-menu > summary")
    chips = page.locator("label.chip")
    expect(chips.first).to_be_visible()
    problems += [f"compare (chooser open): small {t}" for t in small_targets(page)]

    # -- a ruleset's page: contents, then one line per rule, within six screens; the rest on tap
    page.goto(f"{site}/variants/{LONGEST}/")
    expect(page.locator("nav.toc")).to_be_visible()
    assert box(page, "nav.toc")["y"] < screen
    last = page.locator(".rule-section:not(#options)").last.evaluate("s => s.getBoundingClientRect().bottom + scrollY")
    assert last <= SCREENS * screen, f"the rules end at {last} px"
    lines = page.locator(".rule-section:not(#options) .rule-more > summary")
    assert lines.count() >= 30
    assert page.locator(".rule .citations").first.is_hidden()  # folded until tapped
    problems += [f"{LONGEST}: small {t}" for t in small_targets(page)]
    assert not scrolls_sideways(page)
    shot(page, artifacts, "ruleset", language)
    page.goto(f"{site}/variants/masters/")
    rule = "#rule-engine\\.tile"
    tap(f"{rule} > details > summary")
    expect(page.locator(f"{rule} .citations")).to_be_visible()
    if language != "it":  # a rendering leads; its Italian original one tap further
        tap(f"{rule} details.original > summary")
        expect(page.locator(f"{rule} details.original > blockquote")).to_be_visible()
    shot(page, artifacts, "ruleset-rule", language)
    page.goto(f"{site}/variants/masters/#rule-doubles.obligation")  # a link to a rule lands on it opened
    expect(page.locator("#rule-doubles\\.obligation > details")).to_have_attribute("open", "")
    expect(page.locator("#rule-doubles\\.obligation .rule-links")).to_be_in_viewport()

    # -- /reasons/: rule by rule, searchable, codes in a closed section
    page.goto(f"{site}/reasons/")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= REASONS_SCREENS * screen, f"/reasons/ is {height} px"
    expect(page.locator("details#codes")).not_to_have_attribute("open", "")
    expect(page.locator("#codes code").first).to_be_hidden()
    assert page.locator(".rule-key").count() == 0
    problems += [f"reasons: small {t}" for t in small_targets(page)]
    shot(page, artifacts, "reasons", language)
    reasons = page.locator("li.reason")
    every = reasons.count()
    with translation.override(language):
        from mextrain_site.reference import wording

        word = wording.label("doubles.obligation")
    page.fill("#reason-search", word)
    shown = page.locator("li.reason:visible")
    expect(shown.first).to_be_visible()
    assert 0 < shown.count() < every
    expect(page.locator("#reasons-doubles\\.obligation li.reason").first).to_be_visible()
    page.fill("#reason-search", "qqqqzzzz")
    expect(page.locator("#reason-list-none")).to_be_visible()
    page.fill("#reason-search", "")
    expect(reasons).to_have_count(every)
    assert page.locator("li.reason:visible").count() == every

    # -- sources: named by title and publisher; the file name only in a closed details line
    page.goto(f"{site}/sources/")
    text = page.locator("main").inner_text()
    assert ".txt" not in text, "a file name shows on /sources/"
    with translation.override(language):
        for ident in base_ids():
            rs = get_ruleset(ident)
            if rs.publisher:
                assert rs.publisher in text, ident
    problems += [f"sources: small {t}" for t in small_targets(page)]
    shot(page, artifacts, "sources", language)
    page.locator(".source-cards h2 a").first.click()
    assert ".txt" not in page.locator("main").inner_text()
    problems += [f"source: small {t}" for t in small_targets(page)]

    # -- the other pages of the reference, for their targets
    for path in ("", "variants/", "which/?key=doubles.follow_up"):
        page.goto(f"{site}/{path}")
        problems += [f"/{path}: small {t}" for t in small_targets(page)]
        assert not scrolls_sideways(page), path
    assert problems == [], "\n".join(problems)


def pdf_pages(pdf: bytes) -> list[bytes]:
    """The decompressed content stream of each page Chromium printed (Skia writes one a page, in order)."""
    out = []
    for m in re.finditer(rb"stream\r?\n(.*?)\r?\nendstream", pdf, re.S):
        try:
            data = zlib.decompress(m.group(1))
        except zlib.error:
            continue
        if b" Tf" in data:
            out.append(data)
    return out


def font_sizes(stream: bytes) -> Counter[float]:
    """Glyphs drawn per font size, in points. Chromium writes sizes in CSS px (``/F4 12 Tf``) under its
    page transform, which scales px to points (x 0.75: 12 px is 9 pt)."""
    sizes: Counter[float] = Counter()
    size = 0.0
    for op in re.finditer(rb"([\d.]+) Tf|<([0-9A-Fa-f]+)> Tj", stream):
        if op.group(1):
            size = round(float(op.group(1)) * 0.75, 1)
        else:
            sizes[size] += len(op.group(2)) // 4
    return sizes


@pytest.mark.parametrize("language", ["en", "he"])
def test_the_rule_sheet_prints_large_enough(new_page: NewPage, live_server: Any, artifacts: Path, language: str) -> None:
    page = new_page("desktop")
    for ident in ("masters", "howto"):
        page.goto(f"{live_server.url}/{language}/variants/{ident}/sheet/")
        pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        (artifacts / f"pages-sheet-{ident}-{language}.pdf").write_bytes(pdf)
        pages = pdf_pages(pdf)
        assert 1 <= len(pages) <= 2, f"{ident}: {len(pages)} pages"
        footer = len(page.locator(".sheet-foot").inner_text())
        sizes: Counter[float] = Counter()
        for n, stream in enumerate(pages, start=1):
            on_page = font_sizes(stream)
            # no page holds only the footer: each has at least twice the footer's glyphs
            assert sum(on_page.values()) > 2 * footer, f"{ident} page {n}: {on_page}"
            sizes += on_page
        body = sizes.most_common(1)[0][0]
        assert body >= 9, f"{ident}: body text {body} pt ({sizes})"
        assert min(sizes) >= 7, f"{ident}: small print {min(sizes)} pt ({sizes})"
        # a rendering is labelled as translated from its source's language, in the reader's language
        cites = page.locator(".sheet-rule cite").all_inner_texts()
        source = get_ruleset(ident).sources[0].language
        with translation.override(language):
            translated = gettext(language, "translated from %(language)s") % {"language": language_name(source)}
            bare = language_name(source)
        if source != language:
            assert translated in cites and bare not in cites, (ident, set(cites))


def test_the_target_check_finds_what_it_looks_for(new_page: NewPage) -> None:
    """``small_targets`` fails a control under 44 px, a lone link under 24 px and links inside a
    sentence crowded within 24 px of each other; it passes links in a sentence that keep their distance."""
    page = new_page("phone")
    page.set_content('<html lang="en"><body><main>'
                     '<button style="height:40px;width:120px">Go</button>'
                     '<details><summary style="height:30px">More</summary></details>'
                     '<label class="chip" style="display:inline-block;height:30px"><input type="checkbox"> howto</label>'
                     '<nav><a href="#a" style="display:inline-block;height:44px;width:30px">A</a></nav>'
                     '<div><a href="#b" style="font-size:12px">alone</a></div>'
                     '<p>Read <a id="near1" href="#c">a</a><a id="near2" href="#d">b</a> here.</p>'
                     '<p style="line-height:2">A sentence with <a href="#e">one link</a> and, well apart, <a href="#f">another</a>.</p>'
                     '</main></body></html>')
    found = "\n".join(small_targets(page))
    for what in ("<button", "<summary", "<input", 'href="#a"', 'href="#b"', 'id="near1"'):
        assert what in found, (what, found)
    assert 'href="#e"' not in found and 'href="#f"' not in found, found
