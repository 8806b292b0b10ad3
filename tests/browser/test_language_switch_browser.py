"""Another language mid-argument, in Chromium at 375 px: the position the table typed, the rulesets
it ticked and its ruling come along (the switcher reloads the page; before, the new page showed
the worked example and the ruling was gone). Screenshot: test-artifacts/referee-switched-he-375.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from tests.browser.helpers import judge, shoot
from tests.browser.reading import PHONE
from tests.house.test_house_web import STUCK

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TYPED = STUCK + "check: Bob: 2-3 -> Ann\n"
"""Bob holds no tile he can play: any tile laid is illegal."""


def switch_to(page: Page, language: str) -> None:
    page.locator("details.language-menu > summary").click()
    page.locator(f".language-switcher button[value='{language}']").click()
    page.wait_for_url(f"**/{language}/adjudicate/**")


def test_the_typed_position_and_its_ruling_follow_a_change_of_language(page: Page, live_server: Any,
                                                                       artifacts: Path) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/en/adjudicate/")
    page.locator("details.picker > summary").click()
    page.locator("input[name=variant][value=masters]").check()
    judge(page, TYPED, "en")
    expect(page.locator("#ruling-heading")).to_have_text("Illegal")
    switch_to(page, "he")
    expect(page.locator("#position")).to_have_value(TYPED)
    assert page.locator("input[name=variant]:checked").evaluate_all("bs => bs.map(b => b.value)") == ["masters"]
    with translation.override("he"):
        illegal = translation.gettext("Illegal")
    expect(page.locator("#ruling-heading")).to_have_text(illegal)  # judged again, in Hebrew
    expect(page.locator("#verdict")).to_be_in_viewport()
    shoot(page, artifacts / "referee-switched-he-375")
    page.goto(page.url)  # carried once: the page again shows what the server sends, its placeholder
    expect(page.locator("#ruling > .placeholder")).to_have_count(1)


def test_the_untouched_example_becomes_the_new_language_s_own(page: Page, live_server: Any) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/en/adjudicate/")
    switch_to(page, "it")
    with translation.override("it"):
        claim = translation.gettext("Bob claims he may play 6-4 on Cy's train.")
    assert page.locator("#position").input_value().startswith(f"# {claim}\n")
    expect(page.locator("#ruling > .placeholder")).to_have_count(1)  # nothing was judged, nothing is
