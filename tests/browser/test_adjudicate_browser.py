"""The adjudication page in a real browser (system Chromium): judge a dispute with htmx, share
it and open the link in a fresh page, see a parse error marked, read the board on a phone,
and do it all without JavaScript. Screenshots go to test-artifacts/adjudicate-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Page, expect

from mextrain_site.referee.present import with_set
from mextrain_site.referee.views import EXAMPLE
from tests.browser.helpers import press_judge as judge
from tests.browser.helpers import scrolls_sideways, shoot
from tests.web.test_ruling_faithful import THREE

pytestmark = pytest.mark.browser

VIEWPORT = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}

DISPUTE = """\
# Ann wants to put 8-5 on Bob's train while her 6-6 is still open.
players: Ann Bob Cy Dee
engine: 9-9
Ann: 9-6 6-6
Bob: 9-3 3-8 *
Cy: ... 1-5 5-2
Dee: -
mexican: 9-0
boneyard: 12
turn: Ann
hand: 6-1 4-7 5-8 0-0
check: Ann: 8-5 -> Bob
"""


@pytest.fixture
def page(page: Page) -> Page:
    page.set_viewport_size(VIEWPORT)
    return page


def test_paste_a_dispute_and_read_the_verdict(page: Page, live_server: Any, artifacts: Path) -> None:
    page.goto(f"{live_server.url}/en/adjudicate/")
    expect(page.locator("#position")).to_have_value(EXAMPLE)
    page.evaluate("window.__marker = 'same page'")  # gone if the whole page reloads
    judge(page, DISPUTE)
    verdict = page.locator("#ruling-heading")
    expect(verdict).to_have_text("The rulesets disagree")
    assert page.evaluate("window.__marker") == "same page"  # htmx swapped the panel only
    expect(page.locator(".verdict-scope")).to_contain_text(
        "Legal under Masters Traditional Games. Illegal under How to play Mexican Train dominoes, "
        "Mexican Train — the game-rules page, Cardinal Games.")
    expect(page.locator(".answer[data-ruleset=howto] .badge")).to_have_text("Illegal")
    expect(page.locator(".answer[data-ruleset=howto] .answer-text")).to_contain_text(
        "The open double 6-6 on Ann's train must be satisfied first.")
    expect(page.locator(".answer[data-ruleset=cardinal] .answer-text")).to_contain_text(
        "Ann can add 6-1 to their own train, so must play there first.")
    # the rule in the reader's language first; the Hebrew original one tap away, right to left
    quote = page.locator(".answer[data-ruleset=howto] details.original blockquote").first
    assert quote.get_attribute("lang") == "he" and quote.get_attribute("dir") == "rtl"
    assert quote.evaluate("el => getComputedStyle(el).direction") == "rtl"
    # the table, behind its heading: columns per ruleset, each cell's reason
    page.locator("details.actions > summary").click()
    expect(page.locator(".actions-table").first.locator("thead th[data-ruleset]")).to_have_count(4)
    row = page.locator("tr.disagree", has_text="Ann: 8-5 -> Bob")
    expect(row.locator(".disagree-badge")).to_be_visible()
    expect(row.locator("td[data-ruleset=howto] .cell-headline")).to_have_text(
        "The open double 6-6 on Ann's train must be satisfied first.")
    # the board, behind its heading: the open double is drawn and highlighted
    page.locator("details.boards > summary").click()
    expect(page.locator(".board-svg [data-train=Ann] .open-double-glow")).to_have_count(1)
    expect(page.locator("#position")).to_have_value(DISPUTE)
    shoot(page, artifacts / "adjudicate-verdict", full_page=True)


def test_judge_posts_url_encoded_unless_that_passes_the_body_limit(page: Page, live_server: Any) -> None:
    """The script sends Judge URL-encoded (cheaper for the server to read); a text that would pass
    the server's body limit that way goes as the form says without script, multipart."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.headers.get("content-type", "")) if r.method == "POST" else None)
    page.goto(f"{live_server.url}/en/adjudicate/")
    with page.expect_response(lambda r: r.request.method == "POST"):
        judge(page, DISPUTE)
    expect(page.locator("#ruling-heading")).to_have_text("The rulesets disagree")
    assert sent == ["application/x-www-form-urlencoded"]
    # 20,000 characters of 4 UTF-8 bytes: 240 KB URL-encoded, within the limit (mextrain_site/core/sizes.py).
    gothic = DISPUTE + "".join("# " + "\U00010330" * 76 + "\n" for _ in range(250))
    assert len(gothic) <= 20_000
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        judge(page, gothic)
    assert answer.value.status == 200
    expect(page.locator("#ruling-heading")).to_have_text("The rulesets disagree")
    assert sent[1] == "application/x-www-form-urlencoded"
    page.get_by_role("button", name="Share this ruling").click()
    expect(page.locator("#share-slot a.share-url")).to_be_visible()
    assert sent[2] == "application/x-www-form-urlencoded"
    # Past it (only a text over 20,000 characters gets there) the form goes multipart, and is refused
    # in words, not by the body limit.
    with page.expect_response(lambda r: r.request.method == "POST") as answer:
        judge(page, gothic + gothic)
    assert answer.value.status == 413
    assert sent[3].startswith("multipart/form-data; boundary=")
    expect(page.locator("#ruling")).to_contain_text("at most 20000 are accepted")
    assert page.locator("#adjudicate-form").get_attribute("enctype") == "multipart/form-data"  # as without script


def test_share_the_ruling_and_open_the_link_in_a_fresh_page(page: Page, browser: Browser, live_server: Any,
                                                            artifacts: Path) -> None:
    page.goto(f"{live_server.url}/en/adjudicate/")
    judge(page, DISPUTE)
    expect(page.locator("#ruling-heading")).to_have_text("The rulesets disagree")
    page.get_by_role("button", name="Share this ruling").click()
    link = page.locator("#share-slot a.share-url")
    expect(link).to_be_visible()
    url = link.get_attribute("href")
    assert url is not None and url.startswith(f"{live_server.url}/r/")
    shoot(page, artifacts / "adjudicate-share-link")
    # sharing again gives the same link
    page.get_by_role("button", name="Share this ruling").click()
    expect(page.locator("#share-slot a.share-url")).to_have_attribute("href", url)

    fresh = browser.new_context(viewport=VIEWPORT)
    try:
        other = fresh.new_page()
        other.goto(url)
        expect(other.locator("#ruling-heading")).to_have_text("The rulesets disagree")
        expect(other.locator("h1")).to_have_text("A shared ruling")
        expect(other.locator("#position")).to_have_value(DISPUTE)
        expect(other.locator(".board-svg")).to_have_count(1)
        other.locator("details.boards > summary").click()
        expect(other.locator(".board-svg")).to_be_visible()
        shoot(other, artifacts / "adjudicate-shared-page", full_page=True)
        # the shared page is a working page: judge it again from there
        other.locator("details.edit-position > summary").click()
        other.get_by_role("button", name="Judge").click()
        expect(other.locator("#ruling-heading")).to_have_text("The rulesets disagree")
    finally:
        fresh.close()


def test_parse_error_marks_the_line(page: Page, live_server: Any, artifacts: Path) -> None:
    page.goto(f"{live_server.url}/en/adjudicate/")
    judge(page, DISPUTE.replace("Bob: 9-3 3-8 *", "Bob: 9-3 3-q *"))
    message = page.locator("#input-error")
    expect(message).to_have_text("line 5, column 10: expected a tile like 6-4, found '3-q'")
    textarea = page.locator("#position")
    expect(textarea).to_have_attribute("aria-invalid", "true")
    assert "input-error" in (textarea.get_attribute("aria-describedby") or "")
    bad = page.locator(".echo li.bad")
    expect(bad).to_have_count(1)
    expect(bad).to_have_attribute("value", "5")
    expect(bad.locator("mark")).to_have_text("3-q")
    expect(textarea).to_have_value(DISPUTE.replace("Bob: 9-3 3-8 *", "Bob: 9-3 3-q *"))  # text kept
    shoot(page, artifacts / "adjudicate-parse-error", full_page=True)
    # "Go to line 5" selects that line in the text
    page.locator(".goto-line").click()
    selected = page.evaluate("(() => { const t = document.getElementById('position');"
                             " return t.value.slice(t.selectionStart, t.selectionEnd); })()")
    assert selected == "3-q *"
    # fixing the text clears the error state
    judge(page, DISPUTE)
    expect(page.locator("#verdict")).to_be_visible()
    assert textarea.get_attribute("aria-invalid") is None


def test_board_on_a_375px_phone(browser: Browser, live_server: Any, artifacts: Path) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/en/adjudicate/")
        assert not scrolls_sideways(page)
        long_train = EXAMPLE.replace("Bob: 12-7 7-3", "Bob: 12-7 7-3 3-3 3-1 1-1 1-5 5-5 5-8 8-8 8-0 0-0 0-10")
        judge(page, long_train)
        page.locator("details.boards > summary").click()
        board = page.locator(".board-svg").first
        expect(board).to_be_visible()
        page.locator(".boards").scroll_into_view_if_needed()
        box = board.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["width"] > 300  # the board uses the phone's width
        assert not scrolls_sideways(page)  # wide tables scroll inside their own box
        # the long train wraps onto more lines instead of running off the side
        tiles = page.locator(".board-svg [data-train=Bob] [data-tile]")
        expect(tiles).to_have_count(12)
        for i in range(12):
            t = tiles.nth(i).bounding_box()
            assert t is not None and t["x"] + t["width"] <= box["x"] + box["width"] + 0.5
        tile = tiles.first.bounding_box()
        assert tile is not None and tile["width"] >= 45  # domino faces stay readable
        shoot(page.locator(".boards"), artifacts / "adjudicate-phone-board")
        shoot(page, artifacts / "adjudicate-phone-page", full_page=True)
    finally:
        context.close()


def test_a_ruleset_set_apart_and_one_tap_to_a_larger_set_on_a_375px_phone(browser: Browser, live_server: Any,
                                                                           artifacts: Path) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/en/adjudicate/")
        page.evaluate("window.__marker = 'same page'")
        # three at the table: Cardinal Games (4 to 10 players) is named beside the verdict, counted apart
        judge(page, THREE)
        expect(page.locator(".verdict-scope")).to_have_text("Under the 3 rulesets that allow 3 players.")
        why = page.locator("#verdict .apart-why")
        expect(why).to_have_text("Cardinal Games is for 4 to 10 players; this position has 3.")
        expect(why).to_be_in_viewport()
        expect(page.locator("#verdict .answers-apart .answer[data-ruleset=cardinal]")).to_be_visible()
        expect(page.locator("#verdict > .answers:not(.answers-apart) > .answer")).to_have_count(3)
        assert not scrolls_sideways(page)
        shoot(page.locator("#verdict"), artifacts / "adjudicate-phone-apart")
        # a pip above every ruleset's default set: one tap adds 'set: double-15' and judges again
        text = THREE.replace("hand: 11-10 10-10", "hand: 11-15 10-10").replace("11-10 -> Ann", "11-15 -> Ann")
        judge(page, text)
        retry = page.locator("form.retry-set button")
        expect(retry).to_have_text("Add set: double-15 and judge again")
        box = retry.bounding_box()
        assert box is not None and box["height"] >= 24 and box["x"] + box["width"] <= PHONE["width"]
        assert not scrolls_sideways(page)
        shoot(page.locator("#ruling"), artifacts / "adjudicate-phone-retry-set")
        retry.tap()
        expect(page.locator("#verdict")).to_be_visible()
        expect(page.locator("#position")).to_have_value(with_set(text, 15))
        expect(page.locator("form.retry-set")).to_have_count(0)
        assert page.evaluate("window.__marker") == "same page"  # judged in place, the typed text kept
    finally:
        context.close()


def test_judge_and_share_without_javascript(browser: Browser, live_server: Any, artifacts: Path) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=VIEWPORT)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/en/adjudicate/")
        page.fill("#position", DISPUTE)
        page.locator("details.picker summary").click()
        page.locator("#adjudicate-form input[name=variant][value=masters]").check()
        page.locator("#adjudicate-form input[name=variant][value='masters+mandatory-doubles']").check()
        page.get_by_role("button", name="Judge").click()
        page.wait_for_load_state()
        expect(page.locator("#ruling-heading")).to_have_text("The rulesets disagree")
        expect(page.locator(".verdict-scope")).to_contain_text(
            "Legal under Masters Traditional Games. Illegal under Masters Traditional Games + Mandatory doubles.")
        expect(page.locator(".actions-table").first.locator("thead th[data-ruleset]")).to_have_count(2)
        expect(page.locator("#adjudicate-form input[name=variant][value=masters]")).to_be_checked()
        page.get_by_role("button", name="Share this ruling").click()
        page.wait_for_url(f"{live_server.url}/r/*/")
        expect(page.locator("h1")).to_have_text("A shared ruling")
        expect(page.locator(".actions-table").first.locator("thead th[data-ruleset]")).to_have_count(2)
        # a parse error without JavaScript: the whole page, the line marked
        page.locator("details.edit-position > summary").click()
        page.fill("#position", "players: Ann Bob\nengine: 12\nAnn: 12-4 x\n")
        page.get_by_role("button", name="Judge").click()
        page.wait_for_load_state()
        expect(page.locator(".echo li.bad")).to_have_attribute("value", "3")
        expect(page.locator("#position")).to_have_attribute("aria-invalid", "true")
        shoot(page, artifacts / "adjudicate-no-js-error", full_page=True)
    finally:
        context.close()


def test_hebrew_page_and_a_long_text_refusal(page: Page, live_server: Any, artifacts: Path) -> None:
    page.goto(f"{live_server.url}/he/adjudicate/")
    assert page.evaluate("getComputedStyle(document.body).direction") == "rtl"
    assert page.locator("#position").evaluate("el => getComputedStyle(el).direction") == "ltr"
    judge(page, EXAMPLE, "he")
    expect(page.locator("#ruling-heading")).to_be_visible()
    with translation.override("he"):
        illegal = translation.gettext("Illegal")
    expect(page.locator("#ruling-heading")).to_have_text(illegal)
    shoot(page, artifacts / "adjudicate-he")
    too_long = EXAMPLE + "#" * 20_000
    page.evaluate("t => { document.getElementById('position').value = t; }", too_long)
    page.locator("button.primary").click()
    # the refusal is worded in the page's language, numbers and all
    with translation.override("he"):
        refusal = translation.gettext("the position is {length} characters long; at most {limit} are accepted").format(
            length=len(too_long), limit=20_000)
    expect(page.locator("#ruling.ruling-error #input-error")).to_contain_text(refusal)
    assert len(page.locator("#position").input_value()) == len(too_long)
