"""The site on a phone (375 and 320 px), defects a reviewer found there: the header's menu reaches
every page in one tap, the home page leads to every part of the site, no button
or badge cuts a word, a tile never splits at its hyphen, the house builder's number box is
labelled and shown only when it is the choice, Build mode's intro and text button fit Build mode,
and the board's "not started" box has room for its words.

Screenshots go to test-artifacts/phone-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import Judged, NewPage, gettext, shoot
from tests.languages import LANGUAGES

pytestmark = pytest.mark.browser

MENU = ".site-nav"


def broken_words(page: Page, selector: str) -> list[str]:
    """The words inside ``selector`` drawn on more than one line (a word cut in half)."""
    return list(page.evaluate(
        """sel => { const out = [];
              for (const el of document.querySelectorAll(sel)) {
                if (!el.checkVisibility()) continue;
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                  for (const m of node.data.matchAll(/\\S+/g)) {
                    const range = document.createRange();
                    range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
                    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
                    if (tops.size > 1) out.push(m[0]);
                  }
                }
              }
              return out; }""", selector))


# -- 1. the header's pages ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_header_menu_reaches_every_page_in_one_tap(new_page: NewPage, live_server: Any,
                                                       artifacts: Path, language: str) -> None:
    """On a phone the header is one line (the name, the menu button, the language); the menu opens the
    list of every page, each whole on the screen and a finger's size (it was a sideways strip that
    showed three and a half of six)."""
    page = new_page()
    page.goto(f"{live_server.url}/{language}/")
    header = page.locator(".site-header").bounding_box()
    assert header and header["height"] <= 60  # one line of 44 px controls
    links = page.locator(f"{MENU} a")
    expect(links.first).to_be_hidden()
    page.locator(".site-menu > summary").click()
    assert links.count() == 7
    for link in links.all():
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375 and box["y"] + box["height"] <= 740, box
        assert box["height"] >= 44
    assert links.last.get_attribute("href") == f"/{language}/reasons/"
    shoot(page, artifacts / f"phone-header-{language}", clip={"x": 0, "y": 0, "width": 375, "height": 360})
    links.last.click()
    expect(page).to_have_url(f"{live_server.url}/{language}/reasons/")
    expect(page.locator(f"{MENU} a[aria-current=page]")).to_have_attribute("href", f"/{language}/reasons/")
    assert not page.evaluate("document.documentElement.scrollWidth > document.documentElement.clientWidth")


def test_a_wide_header_shows_every_page_without_a_menu_button(new_page: NewPage, live_server: Any) -> None:
    page = new_page("desktop")
    page.goto(f"{live_server.url}/en/")
    expect(page.locator(".site-menu > summary")).to_be_hidden()
    for link in page.locator(f"{MENU} a").all():
        expect(link).to_be_visible()


# -- 1b. the home page leads everywhere ----------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ky"])
def test_the_home_page_links_to_house_rules_sources_and_reasons(new_page: NewPage, live_server: Any, artifacts: Path,
                                                                language: str) -> None:
    page = new_page()
    page.goto(f"{live_server.url}/{language}/")
    home = page.locator("main .home")
    for path in ("house/", "sources/", "reasons/"):
        link = home.locator(f"a[href='/{language}/{path}']")
        expect(link).to_have_count(1)
        expect(link).to_be_visible()
        box = link.bounding_box()
        assert box and box["height"] >= 24, (path, box)
    expect(home.get_by_role("link", name=gettext(language, "House rules"), exact=True)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, artifacts / f"phone-home-{language}", full_page=True)


# -- 2. the Type / Build switch ------------------------------------------------------------------------


@pytest.mark.parametrize("width", [320, 375])
def test_the_type_and_build_buttons_keep_their_words_whole(new_page: NewPage, live_server: Any, artifacts: Path,
                                                           width: int) -> None:
    page = new_page(width)
    for language in LANGUAGES:
        page.goto(f"{live_server.url}/{language}/adjudicate/")
        expect(page.locator(".build-switch")).to_be_visible()
        assert broken_words(page, ".build-switch .mode") == [], f"/{language}/ at {width} px"
        assert page.locator(".build-switch .mode").evaluate_all("bs => bs.every(b => b.scrollWidth <= b.clientWidth)")
        if language == "el":
            shoot(page.locator(".build-switch"), artifacts / f"phone-switch-el-{width}")


# -- 3. the "rulesets disagree" badge ------------------------------------------------------------------


@pytest.mark.parametrize(("language", "width"), [("en", 375), ("hu", 375), ("hu", 320), ("el", 320), ("he", 320)])
def test_the_disagree_badge_stays_inside_its_column(judged: Judged, artifacts: Path, language: str, width: int) -> None:
    page = judged(language, None, width)
    page.locator("details.actions > summary").click()
    badges = page.locator("details.actions .disagree-badge")
    assert badges.count() >= 1
    outside = badges.evaluate_all(
        """bs => bs.flatMap(b => { const r = b.getBoundingClientRect(), c = b.closest('th').getBoundingClientRect();
                                   return r.left >= c.left - 0.5 && r.right <= c.right + 0.5 && b.scrollWidth <= b.clientWidth + 1
                                     ? [] : [`${b.textContent} ${r.left}..${r.right} in ${c.left}..${c.right}`]; })""")
    assert outside == []
    assert broken_words(page, "details.actions .disagree-badge") == []
    shoot(page.locator("details.actions .table-scroll").first, artifacts / f"phone-badge-{language}-{width}")


# -- 4. a tile never splits at its hyphen ----------------------------------------------------------------


@pytest.mark.parametrize(("language", "width"), [("el", 320), ("el", 375), ("hu", 320), ("en", 320)])
def test_a_tile_or_a_move_is_never_split_across_lines(judged: Judged, artifacts: Path, language: str,
                                                      width: int) -> None:
    page = judged(language, None, width)
    page.evaluate("document.querySelectorAll('.ruling details').forEach(d => d.open = true)")
    split = page.evaluate(
        """() => { const out = [];
              const walker = document.createTreeWalker(document.querySelector('#ruling'), NodeFilter.SHOW_TEXT);
              for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                if (!node.parentElement.checkVisibility()) continue;
                for (const m of node.data.matchAll(/\\d{1,2}-\\d{1,2}|->/g)) {
                  const range = document.createRange();
                  range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
                  const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
                  if (tops.size > 1) out.push(m[0] + ' in: ' + node.data.slice(0, 60));
                }
              }
              return out; }""")
    assert split == []
    # the text is unchanged: the tile is copied with its ASCII hyphen
    assert "(9-2 -> Ann)" in page.locator(".closed-rows").first.inner_text()
    shoot(page.locator(".closed-rows").first, artifacts / f"phone-closed-{language}-{width}")


# -- 5. the house builder's number box ----------------------------------------------------------------


@pytest.mark.parametrize("javascript", [True, False])
def test_the_rounds_number_box_is_labelled_and_shown_only_for_the_number(new_page: NewPage, live_server: Any,
                                                                         artifacts: Path, javascript: bool) -> None:
    page = new_page(javascript=javascript)
    page.goto(f"{live_server.url}/en/house/#rule-rounds.count")  # its folded group opens to the link
    choice = page.locator(".house-choice-number").first
    select, number = choice.locator("select"), choice.locator("input[type=number]")
    assert select.input_value() != "number"
    expect(number).to_be_hidden()
    select.select_option("number")
    expect(number).to_be_visible()
    label = choice.locator("label.house-number")
    expect(label).to_be_visible()
    expect(label).to_contain_text("The number", ignore_case=True)
    assert label.locator("input[type=number]").count() == 1  # the visible words label the box
    number.fill("7")
    shoot(choice, artifacts / f"phone-house-rounds-{'js' if javascript else 'nojs'}")
    select.select_option(index=0)
    expect(number).to_be_hidden()


def test_the_number_reaches_the_server_without_javascript(new_page: NewPage, live_server: Any) -> None:
    page = new_page(javascript=False)
    page.goto(f"{live_server.url}/en/house/#rule-rounds.count")  # its folded group opens to the link
    choice = page.locator(".house-choice-number").first
    choice.locator("select").select_option("number")
    choice.locator("input[type=number]").fill("7")
    page.locator("button[name=action][value=preview]").click()
    choice = page.locator(".house-choice-number").first
    assert choice.locator("select").input_value() == "number"
    expect(choice.locator("input[type=number]")).to_have_value("7")
    expect(choice.locator("input[type=number]")).to_be_visible()


# -- 6. Build mode's intro and its text button ------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "el"])
def test_build_mode_speaks_of_taps_and_its_text_button_is_under_the_text(new_page: NewPage, live_server: Any,
                                                                         artifacts: Path, language: str) -> None:
    page = new_page()
    page.goto(f"{live_server.url}/{language}/adjudicate/")
    toggle = page.locator("#builder-text-toggle")
    expect(page.locator(".lede:visible")).to_contain_text("check:")  # Type mode: the text and its check: line
    expect(toggle).to_be_hidden()
    page.locator("#mode-build").click()
    expect(page.locator("#builder .b-players")).to_be_visible()
    lede = page.locator(".lede:visible")
    expect(lede).to_have_count(1)
    expect(lede).not_to_contain_text("check:")
    expect(lede).to_contain_text(gettext(language, "Tap to describe the table and the move in dispute, then press "
                                                   "Judge. Every ruleset answers with the rule it applies, quoted "
                                                   "from its source."))
    expect(toggle).to_be_visible()
    expect(toggle).to_have_text(gettext(language, "Show all the text"))
    text, button = page.locator("#position").bounding_box(), toggle.bounding_box()
    assert text and button and button["y"] >= text["y"] + text["height"]  # under the text it lengthens
    before = text["height"]
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle).to_have_text(gettext(language, "Show fewer lines"))
    after = page.locator("#position").bounding_box()
    assert after and after["height"] > before
    shoot(page.locator(".adj-text"), artifacts / f"phone-build-text-{language}")
    page.locator("#mode-type").click()
    expect(toggle).to_be_hidden()
    expect(page.locator(".lede:visible")).to_contain_text("check:")


def test_without_javascript_the_intro_is_type_modes_and_no_text_button(new_page: NewPage, live_server: Any) -> None:
    page = new_page(javascript=False)
    page.goto(f"{live_server.url}/en/adjudicate/")
    expect(page.locator(".lede:visible")).to_have_count(1)
    expect(page.locator(".lede:visible")).to_contain_text("check:")
    expect(page.locator("#builder-text-toggle")).to_be_hidden()


# -- 7. the board's "not started" box ------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_boards_not_started_box_has_room_for_its_words(judged: Judged, artifacts: Path, language: str) -> None:
    page = judged(language, None, 375)
    page.locator("details.boards > summary").click()
    note = page.locator(".board-svg .empty-train").first
    box, words = note.locator("rect").bounding_box(), note.locator("text").bounding_box()
    assert box and words
    room = min(words["x"] - box["x"], box["x"] + box["width"] - words["x"] - words["width"])
    assert room >= 5, f"{language}: {room:.1f} px between the words and the box's edge"
    if language == "ky":
        shoot(note, artifacts / "phone-board-note-ky", scale="css")
