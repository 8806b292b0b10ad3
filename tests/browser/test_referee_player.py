"""The referee as a player uses it (issue 9), in the system Chromium at 375 and 1280 px, in
English and Hebrew: the verdict at the top of the screen after Judge and on a shared link,
three layers with no codes in the answer, scores written out, the phone layout (no sideways
scrolling, tap targets, a short header, sticky first columns), the right-to-left board, the
home page; and one walk per language and width through every page, running every page check on each
(no sideways scrolling at 375 and 320 px, a short header, tap targets, axe-core finding no serious or
critical violation, no English left in a translated page).

Screenshots go to test-artifacts/referee-*.png."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from rules.reasons import ReasonCode
from rules.ruleset import SPEC_BY_KEY
from tests.browser.helpers import (
    WIDTHS,
    Judged,
    NewPage,
    english_left,
    gettext,
    judge,
    scrolls_sideways,
    serious,
    shoot,
    small_targets,
)
from tests.browser.walk import DISPUTE, JOURNEYS, PAGES, Walk, stays_in_view
from tests.languages import BIDI, LANGUAGES

pytestmark = pytest.mark.browser


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


def in_viewport(page: Page, selector: str) -> bool:
    return bool(page.evaluate(
        """sel => { const r = document.querySelector(sel).getBoundingClientRect();
                    return r.top >= 0 && r.bottom <= window.innerHeight; }""", selector))


def visible_text(page: Page, selector: str) -> str:
    return str(page.locator(selector).evaluate("el => el.innerText"))


# -- 1. the verdict first ------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", BIDI)
def test_after_judge_the_verdict_is_at_the_top_focused_and_announced(judged: Judged, artifacts: Path, width: str,
                                                                     language: str) -> None:
    page = judged(language, DISPUTE, width)
    assert in_viewport(page, ".verdict-move") and in_viewport(page, "#ruling-heading")
    expect(page.locator(".verdict-move code")).to_have_text("Ann: 5-1 -> mexican")
    expect(page.locator("#ruling-heading")).to_have_text(gettext(language, "The rulesets disagree"))
    expect(page.locator("#verdict-live")).to_have_text(
        "Ann: 5-1 -> mexican: " + gettext(language, "The rulesets disagree"))
    assert page.locator("#verdict-live").get_attribute("aria-live") == "polite"
    shoot(page, artifacts / f"referee-verdict-{language}-{width}")
    shoot(page, artifacts / f"referee-page-{language}-{width}", full_page=True)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_shared_link_opens_on_the_verdict_with_the_form_one_tap_away(new_page: NewPage, judged: Judged,
                                                                       artifacts: Path, width: str) -> None:
    page = judged("en", DISPUTE, width)
    page.get_by_role("button", name="Share this ruling").click()
    link = page.locator("#share-slot .share-url")
    expect(link).to_be_visible()
    url = link.get_attribute("href")
    assert url and re.search(r"/r/[\w-]+/$", url)
    fresh = new_page(width)
    fresh.goto(url)
    assert in_viewport(fresh, ".verdict-move") and in_viewport(fresh, "#ruling-heading")
    expect(fresh.locator("#ruling-heading")).to_be_focused()
    expect(fresh.locator("#position")).to_be_hidden()  # the form is folded away below the verdict
    fresh.get_by_text("The position and the rulesets: change them and judge again").click()
    expect(fresh.locator("#position")).to_be_visible()
    expect(fresh.locator("#position")).to_have_value(DISPUTE)
    shoot(fresh, artifacts / f"referee-shared-{width}")


def test_without_javascript_the_answer_opens_at_the_ruling(new_page: NewPage, live_server: Any) -> None:
    page = new_page("phone", javascript=False)
    page.goto(f"{live_server.url}/en/adjudicate/")
    page.fill("#position", DISPUTE)
    page.get_by_role("button", name="Judge", exact=True).click()
    page.wait_for_url(re.compile(r"#ruling$"))
    assert in_viewport(page, "#ruling-heading")


# -- 2 and 3. three layers, plain words, the dispute answered -----------------------------------


def test_three_layers_in_plain_words_and_the_legal_verdict_answers_the_dispute(judged: Judged, artifacts: Path) -> None:
    page = judged("en", DISPUTE, "desktop")
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
    shoot(page, artifacts / "referee-layers-desktop", full_page=True)


# -- 4. scores -----------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_a_finished_round_shows_each_hand_with_the_sum_written_out(judged: Judged, artifacts: Path, width: str) -> None:
    page = judged("en", ROUND_OVER, width)
    scores = page.locator(".scores")
    fifty = scores.filter(has_text="0-0 counts 50 + 12-11 counts 23 = 73")
    expect(fifty).to_have_count(1)
    expect(fifty.locator(".score-rule")).to_have_text(
        "Each hand counts the pips on its tiles; the double-blank (0-0) counts 50.")
    expect(fifty.locator(".quote blockquote").first).to_be_visible()
    expect(scores.filter(has_text="0-0 counts 0 + 12-11 counts 23 = 23")).to_have_count(1)
    expect(page.locator(".adj-help")).to_contain_text("check: score")
    assert not scrolls_sideways(page)
    shoot(scores.first, artifacts / f"referee-scores-{width}")


# -- 5. the page's size ----------------------------------------------------------------------------


def test_the_prefilled_example_is_short_on_a_phone(new_page: NewPage, live_server: Any) -> None:
    page = new_page("phone")
    page.goto(f"{live_server.url}/en/adjudicate/")
    page.get_by_role("button", name="Judge", exact=True).click()
    expect(page.locator("#ruling-heading")).to_be_focused()
    assert page.locator(".ruling details[open]").count() == 0
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2500, height


# -- 6. the phone: see the page walk (9) ---------------------------------------------------------------


@pytest.mark.parametrize("language", BIDI)
def test_wide_tables_keep_their_first_column_in_view(judged: Judged, artifacts: Path, language: str) -> None:
    """The ruling's table of moves (the comparison's table: walk.first_column_sticks, in the page walk)."""
    page = judged(language, DISPUTE, "phone")
    page.locator("details.actions > summary").click()
    scroller = page.locator("details.actions .table-scroll").first
    assert stays_in_view(scroller, scroller.locator("tbody th").first)
    shoot(scroller, artifacts / f"referee-table-scrolled-{language}")


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


def test_a_hebrew_error_message_shows_the_code_it_quotes_as_typed(new_page: NewPage, live_server: Any,
                                                                  artifacts: Path) -> None:
    """The right-to-left sentence keeps each quoted piece of the position format in its typed order
    ('engine: 12-12', not '-12 :engine' with its quotes at the far ends)."""
    page = new_page("desktop")  # the sentence on one line: read left to right as drawn
    page.goto(f"{live_server.url}/he/adjudicate/")
    judge(page, "players: Ann Bob\nturn: Ann\n", "he")  # no engine line
    [drawn] = visual_order(page, "#input-error")
    assert "'engine: 12-12'" in drawn and "'engine: 12'" in drawn and "'engine:'" in drawn, drawn
    page.set_viewport_size({"width": 320, "height": 740})  # the sentence wraps: no quoted span is split
    assert page.evaluate("[...document.querySelectorAll('#input-error bdi')].every(b => b.getClientRects().length === 1)")
    shoot(page.locator("#ruling"), artifacts / "referee-error-he-phone")


def test_the_hebrew_board_mirrors_its_labels_and_keeps_tiles_left_to_right(judged: Judged, artifacts: Path) -> None:
    page = judged("he", DISPUTE, "phone")
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
    shoot(svg, artifacts / "referee-board-he")


# -- 8. the home page ----------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_home_page_leads_to_the_three_jobs(new_page: NewPage, live_server: Any, artifacts: Path,
                                               width: str) -> None:
    page = new_page(width)
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
    shoot(page, artifacts / f"referee-home-{width}", full_page=True)


def test_check_score_answers_what_a_hand_counts(judged: Judged, artifacts: Path) -> None:
    page = judged("en", "players: Ann Bob Cy Dee\nhand Bob: 0-0 12-11\ncheck: score\n", "phone")
    expect(page.locator("#ruling-heading")).to_have_text("What each hand counts")
    assert in_viewport(page, "#ruling-heading") and in_viewport(page, ".score-sum")
    # every player listed: the hands not given say so, in their seat
    expect(page.locator(".scores").first.locator(".score-row")).to_have_count(4)
    expect(page.locator(".scores .score-sum").first).to_have_text("hand not given")
    expect(page.locator(".scores .score-row", has_text="Bob").first.locator(".score-sum")).to_have_text(
        "0-0 counts 50 + 12-11 counts 23 = 73")
    expect(page.locator(".scores").filter(has_text="0-0 counts 0 + 12-11 counts 23 = 23")).to_have_count(1)
    shoot(page, artifacts / "referee-check-score-phone")


# -- 9. every page, every check (the walk: tests/browser/walk.py) ------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_passes_every_check(new_page: NewPage, live_server: Any, artifacts: Path, language: str,
                                      width: str) -> None:
    """One walk through the site per language and width, every page check on each state it reaches:
    each page of the reference and the referee by its address (walk.PAGES, with their measures), then the
    pages reached by taps (walk.JOURNEYS): Build mode with each panel open in turn, a ruling with every
    part open and shared, and the score sheet. Merges the phone walk (no sideways scrolling, a short
    header), the tap targets walk and the axe-core walk, which loaded the same pages three times."""
    page = new_page(width, locale=language)  # a shared link opens in the reader's language
    walk = Walk(page, f"{live_server.url}/{language}", language, width, artifacts)
    for site_page in PAGES:
        walk.check(f"/{language}/{site_page.path}", lambda: page.goto(f"{walk.base}/{site_page.path}"),
                   site_page=site_page)
    for journey in JOURNEYS:
        journey(walk)
    assert walk.found == {}, f"/{language}/ at {width}: {walk.found}"


def test_the_page_checks_find_what_they_look_for(new_page: NewPage) -> None:
    """The walk's checks can fail: each finds its fault on a page made to have it."""
    page = new_page("phone")
    page.set_content('<html lang="en"><body><main><img src="x.png"><button style="height:20px">Go</button>'
                     '<div style="width:900px">wide</div>' + '<p class="a">readable</p>' * 50
                     + '<p class="a"><span style="color:#ccc">faint</span></p></main></body></html>')
    assert any(v.startswith("image-alt") for v in serious(page))
    # the colour rules read one element of each kind: the faint one among fifty readable ones
    assert any(v.startswith("color-contrast") for v in serious(page))
    assert not any(v.startswith("color-contrast") for v in serious(page, colour=False))
    assert serious(page, "button") == []  # only what the selector finds
    assert scrolls_sideways(page)
    assert any("button" in t.lower() for t in small_targets(page))
    page.set_content('<html lang="hu"><body><p>The position and the rulesets: change them and judge again</p>'
                     '<p lang="en">The position and the rulesets: change them and judge again</p></body></html>')
    assert english_left(page, "hu") and english_left(page, "en") == []
