"""The referee page held in one hand at the table (issue 27), in English, Hebrew and Greek, on a
375 px touch screen and at 1280 px: "can Bob play 5-1 on Ann's unmarked train?" (a) asked in Type
mode with the tokens (every keystroke and tap counted) and in Build mode (every tap counted), each
from the page as it opens; after Judge in Build mode the verdict is the first thing under the
site's header; the token row shows while the text has the focus; every target is thumb-sized.
Screenshots: test-artifacts/referee-<what>-<lang>-<width>.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.helpers import WIDTHS, NewPage, gettext, shoot

pytestmark = pytest.mark.browser

TYPE_MOST = 60
"""(a) in Type mode: keystrokes and taps together, Judge included (108 before the tokens)."""
BUILD_MOST = 8
"""(a) in Build mode: taps, Build and Judge included (11 before)."""
TARGETS = ("#type-tokens .token, .build-switch .mode, #table-fold, #builder-area button, #builder-area select,"
           " #builder-area summary, .ruling summary, .ruling button, .adjudicate .quote cite a, .form-actions button")
"""Everything a thumb taps on the referee page: each at least 44 x 44 px."""


class Hand:
    """A player's hand on the page: taps (or clicks) and keystrokes, each counted."""

    def __init__(self, page: Page, touch: bool) -> None:
        self.page, self.touch, self.count = page, touch, 0

    def tap(self, target: Locator) -> None:
        box = target.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (target, box)
        if self.touch:
            target.tap()
        else:
            target.click()
        self.count += 1

    def keys(self, text: str) -> None:
        """Typed on the keyboard, one keystroke a character (Enter for a new line)."""
        for part in text.split("\n")[:-1]:
            self.page.keyboard.type(part)
            self.page.keyboard.press("Enter")
        self.page.keyboard.type(text.split("\n")[-1])
        self.count += len(text)

    def token(self, token: str) -> None:
        self.tap(self.page.locator(f"#type-tokens .token[data-insert='{token}']"))
        expect(self.page.locator("#position")).to_be_focused()  # the keyboard stays up


def small(page: Page) -> list[str]:
    return list(page.evaluate(
        """sel => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility()).flatMap(e => {
              const r = e.getBoundingClientRect();
              return r.width < 44 || r.height < 44 ? [`${e.outerHTML.slice(0, 90)} ${r.width}x${r.height}`] : [];
           })""", TARGETS))


def tight_links(page: Page) -> list[str]:
    """Links inside the ruling's running text closer than 24 px (WCAG 2.2, 2.5.8's spacing)."""
    return list(page.evaluate(
        """() => { const boxes = [...document.querySelectorAll('#ruling a[href]')].filter(a => a.checkVisibility())
                     .map(a => [a, a.getBoundingClientRect()]);
              const out = [];
              for (const [a, r] of boxes) {
                if (r.width >= 24 && r.height >= 24) continue;
                const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
                for (const [b, s] of boxes) {
                  if (a === b) continue;
                  const dx = Math.max(s.left - cx, 0, cx - s.right), dy = Math.max(s.top - cy, 0, cy - s.bottom);
                  if (Math.hypot(dx, dy) < 12) out.push(`${a.textContent} / ${b.textContent}`);
                }
              }
              return out; }"""))


@pytest.mark.parametrize("width", (375, 1280))
@pytest.mark.parametrize("language", ("en", "he", "el"))
def test_a_dispute_at_the_table(new_page: NewPage, live_server: Any, artifacts: Path, language: str, width: int) -> None:
    touch = width == 375
    screen = "phone" if touch else "desktop"
    size = WIDTHS[screen]
    assert size["width"] == width
    phone = {"has_touch": True, "is_mobile": True} if touch else {}
    url = f"{live_server.url}/{language}/adjudicate/"
    illegal = gettext(language, "Illegal")

    # -- Type mode: the box emptied and (a) typed, the tokens doing what a phone keyboard hides --------
    page = new_page(screen, **phone)
    refused: list[str] = []  # what the strict Content-Security-Policy blocked, if anything
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.goto(url)
    tokens = page.locator("#type-tokens")
    expect(tokens).to_be_hidden()
    hand = Hand(page, touch)
    hand.tap(page.locator("#position"))
    expect(tokens).to_be_visible()  # while the text has the focus ...
    box = tokens.bounding_box()
    assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= size["height"]  # ... on screen
    expect(tokens.locator(".token-name")).to_have_text(["Ann", "Bob", "Cy", "Dee"])  # the example's players
    page.keyboard.press("ControlOrMeta+a")
    hand.count += 2  # on a phone: a long press, then "Select all"
    page.keyboard.press("Backspace")
    hand.count += 1
    hand.keys("players")
    hand.token(":")
    hand.keys("Ann Bob\nengine")
    expect(tokens.locator(".token-name")).to_have_text(["Ann", "Bob"])  # the names follow the players: line
    hand.token(":")
    hand.keys("12\nturn")
    hand.token(":")
    hand.token("Bob")
    hand.keys("\n")
    hand.token("Ann")
    hand.token(":")
    hand.keys("12")
    hand.token("-")
    hand.keys("5\ncheck")
    hand.token(":")
    hand.token("Bob")
    hand.token(":")
    hand.keys("5")
    hand.token("-")
    hand.keys("1")
    hand.token("->")
    hand.token("Ann")
    assert page.locator("#position").input_value() == (
        "players: Ann Bob\nengine: 12\nturn: Bob\nAnn: 12-5\ncheck: Bob: 5-1 -> Ann")
    shoot(page, artifacts / f"referee-type-tokens-{language}-{width}")
    hand.tap(page.get_by_role("button", name=gettext(language, "Judge"), exact=True))
    expect(page.locator("#ruling-heading")).to_have_text(illegal)
    expect(page.locator(".answer[data-reason=train-not-open]").first).to_be_visible()
    expect(tokens).to_be_hidden()  # the focus left the text
    print(f"(a) in Type mode, /{language}/ at {width} px: {hand.count} keystrokes and taps")
    assert hand.count <= TYPE_MOST
    shoot(page, artifacts / f"referee-type-ruling-{language}-{width}")
    assert small(page) == []
    assert tight_links(page) == []
    assert refused == []

    # -- Build mode: a new table asking for its players, (a) by taps ---------------------------------
    page = new_page(screen, **phone)
    page.goto(url)
    area = page.locator("#builder-area")
    hand = Hand(page, touch)

    def op(value: str) -> None:
        hand.tap(page.locator(f"#builder button[value='{value}']"))
        expect(area).to_have_attribute("data-pending", "0")

    hand.tap(page.locator("#mode-build"))
    expect(area).to_have_attribute("data-pending", "0")
    expect(page.locator("#builder .b-ask")).to_be_visible()  # who is at the table?
    expect(page.locator("#builder .b-turn .b-name")).to_have_text(["Ann", "Bob", "Cy", "Dee"])
    expect(page.locator("#builder .b-tiles .bt-face")).to_have_count(0)  # nothing laid
    shoot(page, artifacts / f"referee-build-new-{language}-{width}", full_page=True)
    for value in ("turn:Bob", "hand:Bob:5-1", "open:train:Ann", "train-unknown:Ann:5", "pick:check:5-1",
                  "check-play:5-1:Ann"):
        op(value)
    assert page.locator("#position").input_value().endswith("check: Bob: 5-1 -> Ann\n")
    hand.tap(page.get_by_role("button", name=gettext(language, "Judge"), exact=True))
    expect(page.locator("#ruling-heading")).to_have_text(illegal)
    print(f"(a) in Build mode, /{language}/ at {width} px: {hand.count} taps")
    assert hand.count <= BUILD_MOST
    # the builder folded away: the verdict is the first thing under the site's header
    fold = page.locator("#table-fold")
    expect(fold).to_be_visible()
    expect(fold).to_have_attribute("aria-expanded", "false")
    expect(page.locator("#builder-area")).to_be_hidden()
    header, verdict = page.locator(".site-header").bounding_box(), page.locator("#verdict").bounding_box()
    assert header is not None and verdict is not None
    shoot(page, artifacts / f"referee-build-verdict-{language}-{width}")
    assert verdict["y"] <= header["y"] + header["height"] + 40, (header, verdict)  # the page's margin, the panel's padding
    assert small(page) == []
    assert tight_links(page) == []
    # one tap opens the table again, as it was
    shoot(fold, artifacts / f"referee-build-fold-{language}-{width}")
    hand.tap(fold)
    expect(page.locator("#builder-area")).to_be_visible()
    expect(page.locator("#builder .b-current")).to_contain_text("Bob: 5-1 -> Ann")
    assert small(page) == []
