"""The referee as a player uses it (issue 9), in the system Chromium at 375 and 1280 px, in
English and Hebrew: the verdict at the top of the screen after Judge and on a shared link,
three layers with no codes in the answer, scores written out, the phone layout (no sideways
scrolling, tap targets, a short header, sticky first columns), the right-to-left board, the
home page, and axe-core finding no serious or critical violation on any page.

Screenshots go to test-artifacts/referee-*.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import translation
from playwright.sync_api import Browser, Locator, Page, expect

from rules.reasons import ReasonCode
from rules.ruleset import SPEC_BY_KEY
from tests.browser.reading import overflowing
from variants.loader import get_ruleset

pytestmark = pytest.mark.browser

WIDTHS = {"phone": {"width": 375, "height": 740}, "desktop": {"width": 1280, "height": 900}}
LANGUAGES = ("en", "he", "hu", "ky", "it", "el")

DISPUTE = """\
# Ann lays 9-9 on her own train, then 5-1 on the Mexican train.
players: Ann Bob Cy Dee
engine: 12-12
Ann: 12-9
Bob: 12-7
Cy: 12-3
Dee: 12-8
mexican: 12-5
boneyard: 20
turn: Ann
hand: 9-9 5-1 4-4 10-11
moves:
  Ann: 9-9 -> Ann
check: Ann: 5-1 -> mexican
"""

ROUND_OVER = """\
# Ann goes out; how much do Bob's 0-0 and 12-11 count?
players: Ann Bob
engine: 12
Ann: 12-3
Bob: 12-5
turn: Ann
hand: 3-4
hand Bob: 0-0 12-11
boneyard: 0
moves: Ann: 3-4 -> Ann
"""


def gettext(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


def new_page(browser: Browser, width: str, *, javascript: bool = True) -> Page:
    context = browser.new_context(viewport=WIDTHS[width], java_script_enabled=javascript)  # type: ignore[arg-type]
    return context.new_page()


def judge(page: Page, text: str, language: str) -> None:
    page.fill("#position", text)
    page.get_by_role("button", name=gettext(language, "Judge"), exact=True).click()
    expect(page.locator("#ruling-heading")).to_be_focused()


def judged(browser: Browser, live_server: Any, width: str, language: str, text: str = DISPUTE) -> Page:
    """A fresh page at ``width`` in ``language`` with ``text`` judged."""
    page = new_page(browser, width)
    page.goto(f"{live_server.url}/{language}/adjudicate/")
    judge(page, text, language)
    return page


def in_viewport(page: Page, selector: str) -> bool:
    return bool(page.evaluate(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                    return r.top >= 0 && r.bottom <= window.innerHeight; }""", selector))


def no_horizontal_overflow(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth"))


def visible_text(page: Page, selector: str) -> str:
    return str(page.locator(selector).evaluate("el => el.innerText"))


# -- 1. the verdict first ------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", ["en", "he"])
def test_after_judge_the_verdict_is_at_the_top_focused_and_announced(browser: Browser, live_server: Any,
                                                                     artifacts: Path, width: str, language: str) -> None:
    page = judged(browser, live_server, width, language)
    assert in_viewport(page, ".verdict-move") and in_viewport(page, "#ruling-heading")
    expect(page.locator(".verdict-move code")).to_have_text("Ann: 5-1 -> mexican")
    expect(page.locator("#ruling-heading")).to_have_text(gettext(language, "The rulesets disagree"))
    expect(page.locator("#verdict-live")).to_have_text(
        "Ann: 5-1 -> mexican: " + gettext(language, "The rulesets disagree"))
    assert page.locator("#verdict-live").get_attribute("aria-live") == "polite"
    page.screenshot(path=str(artifacts / f"referee-verdict-{language}-{width}.png"))
    page.screenshot(path=str(artifacts / f"referee-page-{language}-{width}.png"), full_page=True)
    page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_shared_link_opens_on_the_verdict_with_the_form_one_tap_away(browser: Browser, live_server: Any,
                                                                       artifacts: Path, width: str) -> None:
    page = judged(browser, live_server, width, "en")
    page.get_by_role("button", name="Share this ruling").click()
    link = page.locator("#share-slot .share-url")
    expect(link).to_be_visible()
    url = link.get_attribute("href")
    assert url and re.search(r"/r/[\w-]+/$", url)
    fresh = new_page(browser, width)
    fresh.goto(url)
    assert in_viewport(fresh, ".verdict-move") and in_viewport(fresh, "#ruling-heading")
    expect(fresh.locator("#ruling-heading")).to_be_focused()
    expect(fresh.locator("#position")).to_be_hidden()  # the form is folded away below the verdict
    fresh.get_by_text("The position and the rulesets: change them and judge again").click()
    expect(fresh.locator("#position")).to_be_visible()
    expect(fresh.locator("#position")).to_have_value(DISPUTE)
    fresh.screenshot(path=str(artifacts / f"referee-shared-{width}.png"))
    for p in (page, fresh):
        p.context.close()


def test_without_javascript_the_answer_opens_at_the_ruling(browser: Browser, live_server: Any) -> None:
    page = new_page(browser, "phone", javascript=False)
    page.goto(f"{live_server.url}/en/adjudicate/")
    page.fill("#position", DISPUTE)
    page.get_by_role("button", name="Judge", exact=True).click()
    page.wait_for_url(re.compile(r"#ruling$"))
    assert in_viewport(page, "#ruling-heading")
    page.context.close()


# -- 2 and 3. three layers, plain words, the dispute answered -----------------------------------


def test_three_layers_in_plain_words_and_the_legal_verdict_answers_the_dispute(browser: Browser, live_server: Any,
                                                                               artifacts: Path) -> None:
    page = judged(browser, live_server, "desktop", "en")
    # (a) one line per ruleset; the legal ones say why the open 9-9 does not bind Ann
    masters = page.locator(".answer[data-ruleset=masters]")
    expect(masters.locator(".answer-text")).to_have_text(
        "The open double 9-9 on Ann's train does not have to be satisfied first under this ruleset.")
    expect(page.locator(".answer[data-ruleset=howto] .answer-text")).to_have_text(
        "Ann laid the double 9-9 this turn and may follow it on any train open to them.")
    expect(page.locator(".answer[data-ruleset=gamerules] .answer-text")).to_have_text(
        "Ann must follow the double 9-9 on Ann's train with a tile on it.")
    # where its source is silent, the reading the ruleset takes (Masters lists the duty only among
    # its extended variants)
    expect(masters.locator(".assumed")).to_contain_text("The source says nothing on this; the ruleset assumes:")
    # the rule quoted in the reader's language, the source by its title, the original one tap away
    quote = page.locator(".answer[data-ruleset=gamerules] .quote").first
    assert quote.locator("blockquote").first.get_attribute("lang") == "en"
    expect(quote.locator("cite")).to_have_text("Mexican Train — the game-rules page")
    original = quote.locator("details.original blockquote")
    expect(original).to_be_hidden()
    quote.locator("details.original summary").click()
    expect(original).to_be_visible()
    assert original.get_attribute("lang") == "hu"
    # (b) why, collapsed; (c) everything, behind its own headings
    why = page.locator("details.why")
    expect(why).not_to_have_attribute("open", "")
    why.locator("> summary").click()
    expect(page.locator("details.actions > summary h2")).to_have_text("Every candidate move for Ann")
    expect(page.locator("details.boards > summary h2")).to_have_text("The board")
    # no file names, codes or rule keys in (a) and (b)
    words = visible_text(page, "#verdict") + visible_text(page, "details.why")
    for code in ReasonCode:
        assert code.value not in words, code.value
    for key in SPEC_BY_KEY:
        assert key not in words, key
    assert not re.search(r"\d{3}_[0-9a-f]+\.txt", words)
    page.screenshot(path=str(artifacts / "referee-layers-desktop.png"), full_page=True)
    page.context.close()


# -- 4. scores -----------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_a_finished_round_shows_each_hand_with_the_sum_written_out(browser: Browser, live_server: Any,
                                                                   artifacts: Path, width: str) -> None:
    page = judged(browser, live_server, width, "en", ROUND_OVER)
    scores = page.locator(".scores")
    fifty = scores.filter(has_text="0-0 counts 50 + 12-11 counts 23 = 73")
    expect(fifty).to_have_count(1)
    expect(fifty.locator(".score-rule")).to_have_text(
        "Each hand counts the pips on its tiles; the double-blank (0-0) counts 50.")
    expect(fifty.locator(".quote blockquote").first).to_be_visible()
    expect(scores.filter(has_text="0-0 counts 0 + 12-11 counts 23 = 23")).to_have_count(1)
    expect(page.locator(".adj-help")).to_contain_text("check: score")
    assert no_horizontal_overflow(page)
    scores.first.screenshot(path=str(artifacts / f"referee-scores-{width}.png"))
    page.context.close()


# -- 5. the page's size ----------------------------------------------------------------------------


def test_the_prefilled_example_is_short_on_a_phone(browser: Browser, live_server: Any) -> None:
    page = new_page(browser, "phone")
    page.goto(f"{live_server.url}/en/adjudicate/")
    page.get_by_role("button", name="Judge", exact=True).click()
    expect(page.locator("#ruling-heading")).to_be_focused()
    assert page.locator(".ruling details[open]").count() == 0
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2500, height
    page.context.close()


# -- 6. the phone ----------------------------------------------------------------------------------

PAGES = ("", "adjudicate/", "variants/", "variants/masters/", "compare/", "sources/", "reasons/", "which/")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_scrolls_sideways_on_a_phone_and_the_header_is_short(browser: Browser, live_server: Any,
                                                                     language: str) -> None:
    page = new_page(browser, "phone")
    for width in (320, 375):
        page.set_viewport_size({"width": width, "height": 740})
        for path in PAGES:
            page.goto(f"{live_server.url}/{language}/{path}")
            assert no_horizontal_overflow(page), f"/{language}/{path} at {width} px: {overflowing(page)}"
            header = page.locator(".site-header").bounding_box()
            assert header and header["height"] <= 100, f"header {header} on /{language}/{path} at {width} px"
        page.goto(f"{live_server.url}/{language}/adjudicate/")
        judge(page, DISPUTE, language)
        for details in page.locator(".ruling details").all():
            details.evaluate("el => el.open = true")
        assert no_horizontal_overflow(page), f"ruling, /{language}/ at {width} px: {overflowing(page)}"
    page.context.close()


TARGETS = "a[href], button, summary, select, input[type=checkbox], input[type=radio]"
"""Everything a finger taps, but a link inside a sentence (WCAG 2.5.8 exempts it)."""


def small_targets(page: Page) -> list[str]:
    """Targets under 24x24 px (a check box: its label), controls (buttons, selects, disclosures,
    the header's links) under 44 px tall, and the Build editor's controls under 44x44 px (docs/web.md,
    *Building the table by taps*); a quote's disclosure of its original text, repeated under every
    quote, is held to WCAG's 24 px."""
    return list(page.evaluate(
        """sel => [...document.querySelectorAll(sel)].flatMap(el => {
              const r = el.getBoundingClientRect();
              if (r.width === 0 || r.height === 0 || !el.checkVisibility()) return [];
              const p = el.parentElement;
              if (el.matches('a') && p.matches('p, blockquote, .hint') && p.textContent.trim() !== el.textContent.trim()) return [];
              const control = el.matches('button, summary, select, .site-header a') && !el.closest('.quote, details.original');
              const min = control ? 44 : 24;
              const minWidth = control && el.closest('#builder-area') ? 44 : 24;
              const box = el.matches('input') && el.closest('label') ? el.closest('label').getBoundingClientRect() : r;
              return box.height < min || box.width < minWidth ? [`${el.outerHTML.slice(0, 80)} ${box.width}x${box.height}`] : [];
           })""", TARGETS))


BUILD_PANELS = ("", "open:train:Ann", "open:train:Dee", "open:hand:Bob", "open:moves", "pick:move:6-4",
                "pick:check:6-4", "open:rename:Ann")
"""Build mode's states, one panel open at a time (the page's example: Bob to move, 6-4 in his hand)."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_tap_targets_are_large_enough_on_a_phone(browser: Browser, live_server: Any, language: str) -> None:
    page = new_page(browser, "phone")
    seed = get_ruleset("howto").sources[0].seed
    for path in (*PAGES, "variants/masters/sheet/", f"sources/{seed}/"):
        page.goto(f"{live_server.url}/{language}/{path}")
        assert small_targets(page) == [], f"/{language}/{path}"
    page.goto(f"{live_server.url}/{language}/adjudicate/")
    page.locator("details.picker summary").click()
    # Build mode, each panel open in turn, the other players' hands shown, then a text it cannot show
    page.locator("#mode-build").click()
    expect(page.locator("#builder .b-players")).to_be_visible()
    for panel in BUILD_PANELS:
        if panel:
            page.locator(f"#builder button[value='{panel}']").click()
            expect(page.locator("#builder-area")).to_have_attribute("data-pending", "0")
        assert small_targets(page) == [], f"Build mode, {panel or 'closed'}"
    page.locator("#builder details.b-others > summary").click()
    assert small_targets(page) == [], "Build mode, other hands"
    page.fill("#position", "players: Ann Bob\nengine: x\n")
    expect(page.locator("#builder .b-error")).to_be_visible()
    assert small_targets(page) == [], "Build mode, an error"
    page.locator("#mode-type").click()
    judge(page, DISPUTE, language)
    page.locator(".answer .original summary").first.click()
    assert small_targets(page) == []
    page.context.close()


def stays_in_view(scroller: Locator, cell: Locator) -> bool:
    """Whether ``cell`` keeps its place while ``scroller`` scrolls to its far end (sticky)."""
    before = cell.bounding_box()
    scroller.evaluate("el => el.scrollLeft = (getComputedStyle(el).direction === 'rtl' ? -1 : 1) * el.scrollWidth")
    after = cell.bounding_box()
    return before is not None and after is not None and abs(before["x"] - after["x"]) < 1


@pytest.mark.parametrize("language", ["en", "he"])
def test_wide_tables_keep_their_first_column_in_view(browser: Browser, live_server: Any, artifacts: Path,
                                                     language: str) -> None:
    page = judged(browser, live_server, "phone", language)
    page.locator("details.actions > summary").click()
    scroller = page.locator("details.actions .table-scroll").first
    assert stays_in_view(scroller, scroller.locator("tbody th").first)
    scroller.screenshot(path=str(artifacts / f"referee-table-scrolled-{language}.png"))
    page.goto(f"{live_server.url}/{language}/compare/")
    table = page.locator(".table-scroll").first
    assert stays_in_view(table, table.locator("tbody tr:not(.group) th").first)
    page.context.close()


# -- 7. right to left ----------------------------------------------------------------------------------


def visual_order(page: Page, selector: str) -> list[str]:
    """The characters of each element matching ``selector``, left to right as drawn on the screen."""
    return list(page.evaluate(
        """sel => [...document.querySelectorAll(sel)].map(el => {
              const chars = [], walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                for (let i = 0; i < node.length; i++) {
                  const range = document.createRange();
                  range.setStart(node, i); range.setEnd(node, i + 1);
                  const r = range.getBoundingClientRect();
                  if (r.width > 0) chars.push([r.top, r.left, node.data[i]]);
                }
              }
              chars.sort((a, b) => Math.abs(a[0] - b[0]) > 4 ? a[0] - b[0] : a[1] - b[1]);
              return chars.map(c => c[2]).join('');
           })""", selector))


def test_a_hebrew_error_message_shows_the_code_it_quotes_as_typed(browser: Browser, live_server: Any,
                                                                   artifacts: Path) -> None:
    """The right-to-left sentence keeps each quoted piece of the position format in its typed order
    ('engine: 12-12', not '-12 :engine' with its quotes at the far ends)."""
    page = new_page(browser, "desktop")  # the sentence on one line: read left to right as drawn
    page.goto(f"{live_server.url}/he/adjudicate/")
    judge(page, "players: Ann Bob\nturn: Ann\n", "he")  # no engine line
    [drawn] = visual_order(page, "#input-error")
    assert "'engine: 12-12'" in drawn and "'engine: 12'" in drawn and "'engine:'" in drawn, drawn
    page.set_viewport_size({"width": 320, "height": 740})  # the sentence wraps: no quoted span is split
    assert page.evaluate("[...document.querySelectorAll('#input-error bdi')].every(b => b.getClientRects().length === 1)")
    page.locator("#ruling").screenshot(path=str(artifacts / "referee-error-he-phone.png"))
    page.context.close()


def test_the_hebrew_board_mirrors_its_labels_and_keeps_tiles_left_to_right(browser: Browser, live_server: Any,
                                                                            artifacts: Path) -> None:
    page = judged(browser, live_server, "phone", "he")
    page.locator("details.boards > summary").click()
    svg = page.locator(".board-svg").first
    box = svg.bounding_box()
    assert box is not None
    assert svg.get_attribute("class") == "board-svg rtl"
    name = page.locator(".board-svg [data-train=Ann] .train-name").bounding_box()
    chips = page.locator(".board-svg [data-train=Ann] .chips").bounding_box()
    assert name and chips
    assert name["x"] + name["width"] > box["x"] + box["width"] * 0.8  # the name on the right
    assert chips["x"] < box["x"] + box["width"] * 0.5  # its notes on the left
    engine = page.locator(".board-svg .engine").bounding_box()
    assert engine and engine["x"] > box["x"] + box["width"] / 2
    tiles = page.locator(".board-svg [data-train=Ann] [data-tile]")
    xs = [b["x"] for b in (t.bounding_box() for t in tiles.all()) if b]
    assert xs == sorted(xs) and len(xs) == 2  # 12-9 then 9-9, left to right
    svg.screenshot(path=str(artifacts / "referee-board-he.png"))
    page.context.close()


# -- 8. the home page ----------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_home_page_leads_to_the_three_jobs(browser: Browser, live_server: Any, artifacts: Path, width: str) -> None:
    page = new_page(browser, width)
    page.goto(f"{live_server.url}/en/")
    lede = page.locator(".home-lede").inner_text()
    assert len(re.findall(r"[.!?](\s|$)", lede)) == 2
    page.get_by_role("link", name="Settle a dispute").last.click()
    expect(page).to_have_url(re.compile(r"/en/adjudicate/$"))
    page.go_back()
    expect(page.locator(".home .example")).to_have_text("check: Bob: 6-4 -> Cy")
    expect(page.get_by_role("link", name="Compare the rulesets")).to_have_attribute("href", "/en/compare/")
    expect(page.get_by_role("link", name="Read the rules")).to_have_attribute("href", "/en/variants/")
    links = page.locator(".home-rulesets a")
    expect(links).to_have_count(4)
    expect(links.filter(has_text="Masters")).to_have_attribute("href", "/en/variants/masters/")
    page.screenshot(path=str(artifacts / f"referee-home-{width}.png"), full_page=True)
    page.context.close()


# -- 9. axe-core ---------------------------------------------------------------------------------------


AXE = Axe()


def serious(page: Page) -> list[str]:
    results = AXE.run(page)
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
            for v in results.response["violations"] if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("language", ["en", "he"])
def test_axe_finds_no_serious_violation_on_any_page(browser: Browser, live_server: Any, language: str) -> None:
    page = new_page(browser, "desktop")
    found = {}
    for path in (*PAGES, "sources/003_d192915f30379178.txt/"):
        page.goto(f"{live_server.url}/{language}/{path}")
        found[path] = serious(page)
    page.goto(f"{live_server.url}/{language}/adjudicate/")
    judge(page, DISPUTE, language)
    for details in page.locator(".ruling details").all():
        details.evaluate("el => el.open = true")
    found["ruling"] = serious(page)
    page.get_by_role("button", name=gettext(language, "Share this ruling")).click()
    url = page.locator("#share-slot .share-url").get_attribute("href")
    assert url
    page.goto(url)
    found["shared"] = serious(page)
    assert {k: v for k, v in found.items() if v} == {}
    page.context.close()


def test_check_score_answers_what_a_hand_counts(browser: Browser, live_server: Any, artifacts: Path) -> None:
    page = judged(browser, live_server, "phone", "en", "players: Ann Bob Cy Dee\nhand Bob: 0-0 12-11\ncheck: score\n")
    expect(page.locator("#ruling-heading")).to_have_text("What each hand counts")
    assert in_viewport(page, "#ruling-heading") and in_viewport(page, ".score-sum")
    # every player listed: the hands not given say so, in their seat
    expect(page.locator(".scores").first.locator(".score-row")).to_have_count(4)
    expect(page.locator(".scores .score-sum").first).to_have_text("hand not given")
    expect(page.locator(".scores .score-row", has_text="Bob").first.locator(".score-sum")).to_have_text(
        "0-0 counts 50 + 12-11 counts 23 = 73")
    expect(page.locator(".scores").filter(has_text="0-0 counts 0 + 12-11 counts 23 = 23")).to_have_count(1)
    page.screenshot(path=str(artifacts / "referee-check-score-phone.png"))
    page.context.close()
