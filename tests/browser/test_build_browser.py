"""Build mode in a real browser at 375 px: three disputes a player brought, built by taps only
(no typing), judged, and the verdicts read. Each tap is counted and photographed, in English
and in Hebrew: test-artifacts/build-<dispute>-<lang>-<step>.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Locator, Page, expect

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}
LANGUAGES = ("en", "he")


def word(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


class Table:
    """A phone in a player's hand: every tap is counted and photographed."""

    def __init__(self, page: Page, name: str, language: str, artifacts: Path) -> None:
        self.page, self.name, self.language, self.artifacts = page, name, language, artifacts
        self.taps = 0

    def settled(self) -> None:
        self.page.wait_for_function("!document.querySelector('.htmx-request')")

    def shot(self, what: str) -> None:
        self.page.screenshot(path=str(self.artifacts / f"build-{self.name}-{self.language}-{self.taps:02d}-{what}.png"),
                             full_page=True)

    def tap(self, target: Locator, what: str) -> None:
        box = target.bounding_box()
        assert box is not None and box["width"] >= 44 and box["height"] >= 44, (what, box)  # thumb-sized
        target.click()
        self.taps += 1
        self.settled()
        self.shot(what)

    def op(self, value: str, what: str = "") -> None:
        """Tap the button that makes the edit ``value`` (kind:arg:arg)."""
        self.tap(self.page.locator(f"#builder button[value='{value}']"), what or value.replace(":", "_"))

    def choose(self, name: str, value: str) -> None:
        """A native select: one tap opens it, one picks."""
        select = self.page.locator(f"#builder select[name={name}]")
        box = select.bounding_box()
        assert box is not None and box["height"] >= 44
        select.select_option(value)
        self.taps += 2
        self.settled()
        self.shot(f"{name}-{value}")

    def text(self) -> str:
        return self.page.locator("#position").input_value()

    def judge(self) -> None:
        self.tap(self.page.get_by_role("button", name=word(self.language, "Judge"), exact=True), "judge")
        expect(self.page.locator("#verdict-big")).to_be_visible()


@pytest.fixture(params=LANGUAGES)
def table(request: pytest.FixtureRequest, browser: Browser, live_server: Any, artifacts: Path) -> Iterator[Table]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/{request.param}/adjudicate/")
    yield Table(page, request.node.originalname.removeprefix("test_"), request.param, artifacts)
    context.close()


def start(t: Table) -> None:
    """Build mode, and a new table: four seats, the 12-12 engine, nothing laid."""
    t.tap(t.page.locator("#mode-build"), "build")
    expect(t.page.locator("#builder .b-players")).to_be_visible()
    t.op("new")
    assert t.text() == "players: Ann Bob Cy Dee\nengine: 12-12\nAnn: -\nBob: -\nCy: -\nDee: -\nmexican: -\nturn: Ann\n"
    assert t.page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_six_four_on_cys_unmarked_train(table: Table) -> None:
    """"May I play 6-4 on Cy's unmarked train ending in 4?" (Bob asks.)"""
    t = table
    start(t)
    t.op("turn:Bob")
    t.op("open:train:Cy")
    t.op("train-unknown:Cy:4")
    t.op("open:hand:Bob")
    t.op("hand:Bob:6-4")
    t.op("pick:check:6-4")
    t.op("check-play:6-4:Cy")
    assert "Cy: ... 12-4\n" in t.text() and "hand: 6-4\n" in t.text() and t.text().endswith("check: Bob: 6-4 -> Cy\n")
    t.judge()
    expect(t.page.locator("#verdict-big")).to_have_text(word(t.language, "Illegal"))
    expect(t.page.locator(".verdict-entry .reason-code", has_text="train-not-open")).to_have_count(4)
    assert t.taps <= 25
    print(f"dispute 1 ({t.language}): {t.taps} taps")


def test_five_one_after_nine_nine(table: Table) -> None:
    """"Ann laid 9-9 on her own train and wants to play 5-1 on the Mexican train.\""""
    t = table
    start(t)
    t.op("open:train:Ann")
    t.op("train-add:Ann:12-9")
    t.op("open:train:mexican")
    t.op("train-add:mexican:12-5")
    t.op("open:hand:Ann")
    for tile in ("9-9", "5-1", "3-2"):
        t.op(f"hand:Ann:{tile}")
    t.op("pick:move:9-9")
    t.op("move-play:9-9:Ann")
    t.op("pick:check:5-1")
    t.op("check-play:5-1:mexican")
    assert "moves:\n  Ann: 9-9 -> Ann\ncheck: Ann: 5-1 -> mexican\n" in t.text()
    t.judge()
    expect(t.page.locator("#verdict-big")).to_have_text(word(t.language, "The rulesets disagree"))
    expect(t.page.locator(".verdict-entry[data-ruleset=gamerules] .reason-code").first).to_have_text(
        "must-satisfy-own-double")
    assert t.taps <= 25
    print(f"dispute 2 ({t.language}): {t.taps} taps")


def test_what_bobs_hand_counts(table: Table) -> None:
    """"How many points are Bob's 0-0 and 12-11?\""""
    t = table
    start(t)
    t.op("turn:Bob")
    t.op("open:hand:Bob")
    t.op("hand:Bob:0-0")
    t.op("hand:Bob:12-11")
    t.op("check:score")
    assert t.text().endswith("turn: Bob\nhand: 12-11 0-0\ncheck: score\n")
    t.judge()
    assert t.taps <= 25
    print(f"dispute 3 ({t.language}): {t.taps} taps")
