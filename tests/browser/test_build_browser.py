"""Build mode in a real browser at 375 px: three disputes a player brought, built by taps only
(no typing) from the page as it opens, judged, and the verdicts read. Each tap is counted (Build
and Judge included) and photographed, in English and in Hebrew:
test-artifacts/build-<dispute>-<lang>-<step>.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Browser, Locator, Page, expect

from mextrain_site.referee.views import EXAMPLE
from tests.browser.helpers import shoot
from tests.browser.reading import overflowing
from tests.languages import BIDI, LANGUAGES

pytestmark = pytest.mark.browser

PHONE = {"width": 375, "height": 740}


def word(language: str, text: str) -> str:
    with translation.override(language):
        return translation.gettext(text)


class Table:
    """A phone in a player's hand: every tap is counted and photographed."""

    def __init__(self, page: Page, name: str, language: str, artifacts: Path) -> None:
        self.page, self.name, self.language, self.artifacts = page, name, language, artifacts
        self.taps = 0

    def settled(self) -> None:
        expect(self.page.locator("#builder-area")).to_have_attribute("data-pending", "0")

    def shot(self, what: str) -> None:
        shoot(self.page, self.artifacts / f"build-{self.name}-{self.language}-{self.taps:02d}-{what}", full_page=True)

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

    def ops(self, *values: str) -> None:
        for value in values:
            self.op(value)

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
        expect(self.page.locator("#ruling h2").first).to_be_visible()


@pytest.fixture(params=BIDI)
def table(request: pytest.FixtureRequest, browser: Browser, live_server: Any, artifacts: Path) -> Iterator[Table]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/{request.param}/adjudicate/")
    yield Table(page, request.node.originalname.removeprefix("test_"), request.param, artifacts)
    context.close()


def start(t: Table) -> None:
    """Build mode, which opens on a new table (the page's example is not the table at hand): four
    seats, the 12-12 engine, nothing laid."""
    t.tap(t.page.locator("#mode-build"), "build")
    expect(t.page.locator("#builder .b-players")).to_be_visible()
    expect(t.page.locator("#position")).not_to_have_value(EXAMPLE)
    assert t.text() == "players: Ann Bob Cy Dee\nengine: 12-12\nAnn: -\nBob: -\nCy: -\nDee: -\nmexican: -\nturn: Ann\n"
    assert t.page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_six_four_on_cys_unmarked_train(table: Table) -> None:
    """"May I play 6-4 on Cy's unmarked train ending in 4?" (Bob asks.)"""
    t = table
    start(t)
    t.ops("turn:Bob", "hand:Bob:6-4", "open:train:Cy", "train-unknown:Cy:4", "pick:check:6-4",  # Bob's hand opens
          "check-play:6-4:Cy")
    assert "Cy: ... 12-4\n" in t.text() and "hand: 6-4\n" in t.text() and t.text().endswith("check: Bob: 6-4 -> Cy\n")
    t.judge()
    expect(t.page.locator("#ruling-heading")).to_have_text(word(t.language, "Illegal"))
    expect(t.page.locator(".answer[data-reason=train-not-open]")).to_have_count(4)
    assert t.taps <= 8
    print(f"dispute 1 ({t.language}): {t.taps} taps")


def test_five_one_after_nine_nine(table: Table) -> None:
    """"Ann laid 9-9 on her own train and wants to play 5-1 on the Mexican train.\""""
    t = table
    start(t)
    t.ops("open:train:Ann", "train-add:Ann:12-9", "open:train:mexican", "train-add:mexican:12-5", "open:hand:Ann",
          "hand:Ann:9-9", "hand:Ann:5-1", "hand:Ann:3-2", "open:moves", "pick:move:9-9", "move-play:9-9:Ann",
          "pick:check:5-1", "check-play:5-1:mexican")
    assert "moves:\n  Ann: 9-9 -> Ann\ncheck: Ann: 5-1 -> mexican\n" in t.text()
    t.judge()
    expect(t.page.locator("#ruling-heading")).to_have_text(word(t.language, "The rulesets disagree"))
    expect(t.page.locator(".answer[data-ruleset=gamerules]")).to_have_attribute("data-reason", "must-satisfy-own-double")
    assert t.taps <= 15
    print(f"dispute 2 ({t.language}): {t.taps} taps")


def test_what_bobs_hand_counts(table: Table) -> None:
    """"How many points are Bob's 0-0 and 12-11?\""""
    t = table
    start(t)
    t.ops("turn:Bob", "hand:Bob:0-0", "hand:Bob:12-11", "check:score")  # the turn opens Bob's hand
    text = t.text()
    assert text.endswith("turn: Bob\nhand: 12-11 0-0\ncheck: score\n")
    t.judge()
    # the page writes each sum out: 73 where the double-blank counts 50 (howto, gamerules), else 23
    expect(t.page.locator(".scores").filter(has_text=" = 73")).to_have_count(1)
    expect(t.page.locator(".scores").filter(has_text=" = 23")).to_have_count(1)
    # the engine's answer to the text built by taps, through the API
    origin = t.page.evaluate("location.origin")
    answer = t.page.request.post(f"{origin}/api/adjudicate", data=text, headers={"Content-Type": "text/plain"}).json()
    scores = {ident: {p: s for p, s in v["scores"].items() if s is not None} for ident, v in answer["variants"].items()}
    assert scores == {"howto": {"Bob": 73}, "gamerules": {"Bob": 73}, "masters": {"Bob": 23}, "cardinal": {"Bob": 23}}
    # every other player of the table is listed too, as not given (no hand line)
    assert all(len(v["scores"]) > 1 and all(s is None for p, s in v["scores"].items() if p != "Bob")
               for v in answer["variants"].values())
    assert t.taps <= 6
    print(f"dispute 3 ({t.language}): {t.taps} taps")


# The page's example as a player might type it: a title, a short engine, another player to move.
TYPED = "# Dee asks\n" + EXAMPLE.split("\n", 1)[1].replace("engine: 12-12", "engine: 12").replace(
    "turn: Bob", "turn: Dee").replace("check: Bob: 6-4 -> Cy\n", "")
CANONICAL = TYPED.replace("engine: 12\n", "engine: 12-12\n").replace("2-11", "11-2")  # as the parser writes it


@pytest.fixture
def phone(browser: Browser, live_server: Any) -> Iterator[Page]:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/en/adjudicate/")
    yield page
    context.close()


def typed_example(page: Page) -> None:
    """The page's example as if typed (a comment added): Build lays it out instead of a new table."""
    page.fill("#position", EXAMPLE + "# at our table\n")


def settled(page: Page) -> None:
    """Every tap answered (builder.js counts them)."""
    expect(page.locator("#builder-area")).to_have_attribute("data-pending", "0")


def test_switching_keeps_everything(phone: Page, artifacts: Path) -> None:
    page = phone
    refused: list[str] = []  # what the strict Content-Security-Policy blocked, if anything
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.fill("#position", TYPED)
    page.locator("#mode-build").click()
    expect(page.locator("#b-open\\:train\\:Cy .b-unknown")).to_have_count(1)
    expect(page.locator("#builder .b-turn[aria-pressed=true]")).to_contain_text("Dee")
    assert page.locator("#position").input_value() == TYPED  # looking changes nothing
    page.locator("#mode-type").click()
    expect(page.locator("#builder-area")).to_be_hidden()
    assert page.locator("#position").input_value() == TYPED
    # a tap in Build writes the text; the title comment stays
    page.locator("#mode-build").click()
    settled(page)
    page.locator("#builder button[value='open:train:Dee']").click()
    settled(page)
    page.locator("#builder button[value='train-marker:Dee']").click()
    settled(page)
    expect(page.locator("#position")).to_have_value(CANONICAL.replace("Dee: - *\n", "Dee: -\n"))
    # typing in the text while in Build shows in the editor
    collapsed = page.locator("#position").bounding_box()
    page.locator("#builder-text-toggle").click()
    expect(page.locator("#builder-text-toggle")).to_have_attribute("aria-expanded", "true")
    shown = page.locator("#position").bounding_box()
    assert collapsed is not None and shown is not None and 40 < collapsed["height"] < shown["height"] / 2
    page.locator("#position").fill(TYPED.replace("turn: Dee", "turn: Ann"))
    expect(page.locator("#builder .b-turn[aria-pressed=true]")).to_contain_text("Ann")
    shoot(page, artifacts / "build-switching", full_page=True)
    # undo goes one tap back
    page.locator("#builder button[value='turn:Bob']").click()
    settled(page)
    page.locator("#b-undo").click()
    expect(page.locator("#builder .b-turn[aria-pressed=true]")).to_contain_text("Ann")
    assert refused == []


def test_a_text_the_parser_refuses_shows_its_error_and_the_way_back(phone: Page, artifacts: Path) -> None:
    page = phone
    page.fill("#position", TYPED.replace("Bob: 12-7 7-3", "Bob: 12-7 7-q"))
    page.locator("#mode-build").click()
    error = page.locator("#builder .b-error")
    expect(error).to_contain_text("line 5, column 11: expected a tile like 6-4, found '7-q'")
    expect(error.locator(".echo li.bad mark")).to_have_text("7-q")
    shoot(page, artifacts / "build-parse-error", full_page=True)
    error.locator(".b-back").click()
    expect(page.locator("#builder-area")).to_be_hidden()
    selected = page.evaluate("(() => { const t = document.getElementById('position');"
                             " return t.value.slice(t.selectionStart, t.selectionEnd); })()")
    assert selected == "7-q"


def test_every_control_is_thumb_sized_labelled_and_keyboard_operable(phone: Page) -> None:
    page = phone
    typed_example(page)
    page.locator("#mode-build").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#builder .b-players")).to_be_visible()
    for panel in ("open:train:Ann", "open:hand:Bob"):  # one panel open at a time
        page.locator(f"#builder button[value='{panel}']").click()
        settled(page)
        sizes = page.evaluate("""() => [...document.querySelectorAll(
            '#builder-area button, #builder-area select, #builder-area summary, #builder-area input:not([type=hidden])')]
            .filter(e => e.checkVisibility())
            .map(e => { const r = e.getBoundingClientRect();
              const name = e.getAttribute('aria-label') || e.innerText.trim() || (e.labels && e.labels[0] && e.labels[0].innerText);
              return [e.id || e.name || e.outerHTML.slice(0, 60), r.width, r.height, r.right, !!name]; })""")
        assert len(sizes) > 40
        for ident, width, height, right, named in sizes:
            assert width >= 44 and height >= 44, ident
            assert right <= PHONE["width"], ident  # nothing runs off a 375 px screen
            assert named, ident
    # keyboard: focus a tile of the hand grid, press Space; the text follows and focus stays put
    page.locator("#builder button[value='hand:Bob:5-5']").focus()
    page.keyboard.press("Space")
    settled(page)
    expect(page.locator("#position")).to_have_value(re.compile("hand: 11-2 9-2 7-7 6-4 5-5\n"))
    assert page.evaluate("document.activeElement.value") == "hand:Bob:5-5"
    page.keyboard.press("Space")
    settled(page)
    expect(page.locator("#position")).to_have_value(re.compile("hand: 11-2 9-2 7-7 6-4\n"))


def test_a_shared_ruling_opens_in_build(page: Page, live_server: Any) -> None:
    page.goto(f"{live_server.url}/en/adjudicate/")
    page.fill("#position", TYPED)
    page.get_by_role("button", name="Judge", exact=True).click()
    page.get_by_role("button", name="Share this ruling").click()
    url = page.locator("#share-slot a.share-url").get_attribute("href")
    assert url
    page.goto(url + "#build")
    expect(page.locator("#mode-build")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#builder .b-turn[aria-pressed=true]")).to_contain_text("Dee")
    assert page.locator("#position").input_value() == TYPED
    # judged again in Build: the ruling stays first and the form folds back into its <details>
    assert page.locator("#table-fold").count() == 0
    page.locator("details.edit-position > summary").click()
    page.get_by_role("button", name="Judge", exact=True).click()
    expect(page.locator("#ruling-heading")).to_be_focused()
    expect(page.locator("details.edit-position")).not_to_have_attribute("open", "")
    expect(page.locator("details.edit-position + #ruling, #ruling + details.edit-position")).to_have_count(1)


def test_without_javascript_the_page_is_type_mode(browser: Browser, live_server: Any) -> None:
    context = browser.new_context(java_script_enabled=False, viewport=PHONE)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/en/adjudicate/")
        expect(page.locator(".build-switch")).to_be_hidden()
        expect(page.locator("#builder-area")).to_be_hidden()
        expect(page.locator("#position")).to_be_visible()
        page.locator("#position").focus()
        expect(page.locator("#type-tokens")).to_be_hidden()  # the tokens are script's too
    finally:
        context.close()


def test_quick_taps_are_all_kept_in_order(phone: Page) -> None:
    """Taps made before the previous answer lands are posted after it, on the new text."""
    page = phone
    typed_example(page)
    page.locator("#mode-build").click()
    settled(page)
    page.locator("#builder button[value='open:hand:Bob']").click()
    settled(page)
    # four taps before the first answer lands (clicked in one go, as a quick thumb would); the
    # count is read in the same script, before any answer can land (read later, a fast server
    # has already answered the first tap)
    pending = page.evaluate("""() => {
        ['5-5', '5-1', '3-3', '1-0'].forEach(
            t => document.querySelector(`#builder button[value='hand:Bob:${t}']`).click());
        return document.querySelector('#builder-area').dataset.pending;
    }""")
    assert pending == "4"
    settled(page)
    expect(page.locator("#position")).to_have_value(re.compile("hand: 11-2 9-2 7-7 6-4 5-5 5-1 3-3 1-0\n"))


@pytest.mark.parametrize("language", LANGUAGES)
def test_build_mode_fits_a_phone_and_names_the_sets_in_every_language(browser: Browser, live_server: Any,
                                                                       artifacts: Path, language: str) -> None:
    """At 320 and 375 px, in every language, Build mode (with a train, a hand and the moves open in
    turn) never scrolls sideways: long translated options (Hungarian's default set reads "ahogy a
    szabályváltozatok mondják (dupla-12)") shrink their select instead of widening the page. The sets
    are named in the player's words, as the house pages name them."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/{language}/adjudicate/")
    typed_example(page)
    page.locator("#mode-build").click()
    expect(page.locator("#builder .b-players")).to_be_visible()
    settled(page)
    for panel in ("", "open:train:Ann", "open:hand:Bob", "open:moves"):
        if panel:
            page.locator(f"#builder button[value='{panel}']").click()
            settled(page)
        for width in (320, 375):
            page.set_viewport_size({"width": width, "height": PHONE["height"]})
            width_now = page.evaluate("document.documentElement.scrollWidth")
            assert width_now <= width, f"Build, {panel or 'closed'}, /{language}/ at {width} px: {width_now} px wide, {overflowing(page)}"
            if not panel:
                shoot(page, artifacts / f"build-fit-{language}-{width}", full_page=True)
    options: list[str] = page.evaluate("""() => [...document.querySelectorAll('#builder-area option')].map(o => o.text)""")
    shown = page.locator("#builder-area").inner_text() + "\n" + "\n".join(options)
    with translation.override(language):
        twelve = translation.pgettext("domino set", "double-%(n)s") % {"n": 12}
    assert twelve in options and any(twelve in o and o != twelve for o in options)  # a choice, and the default
    if language != "en":
        assert not re.search(r"double", shown, re.I), f"Latin 'double' in Build mode, /{language}/"
    context.close()


@pytest.mark.parametrize("language", ("en", "he", "hu"))
def test_build_mode_at_1280(browser: Browser, live_server: Any, artifacts: Path, language: str) -> None:
    """On a wide screen the selects keep their natural width (the phone fix does not stretch them)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server.url}/{language}/adjudicate/")
    typed_example(page)
    page.locator("#mode-build").click()
    expect(page.locator("#builder .b-players")).to_be_visible()
    settled(page)
    page.locator("#builder button[value='open:hand:Bob']").click()
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    engine = page.locator("#builder select[name=engine]").bounding_box()
    assert engine is not None and engine["width"] < 200
    shoot(page, artifacts / f"build-wide-{language}-1280", full_page=True)
    context.close()
