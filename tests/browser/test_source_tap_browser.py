"""A source text on a phone (Chromium, 375 px): a cited passage shows its rendering when tapped,
beneath it, in the reader's language and direction; before, the rendering was a title that only
a pointer's hover shows. Screenshots: test-artifacts/source-tapped-{en,he}-375.png."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import shoot
from tests.browser.reading import PHONE, no_overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEED = "003_d192915f30379178.txt"


@pytest.mark.parametrize("lang", ["en", "he"])
def test_a_tap_on_a_cited_passage_shows_its_rendering(page: Page, live_server: Any, artifacts: Path,
                                                      lang: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/{lang}/sources/{SEED}/")
    mark = page.locator(".source-text mark[title]").nth(3)
    mark.scroll_into_view_if_needed()
    title = mark.get_attribute("title")
    assert title
    before = mark.bounding_box()
    mark.click()
    expect(mark).to_be_focused()
    shown = mark.evaluate("m => getComputedStyle(m, '::after')")
    assert shown["content"] == json.dumps(title, ensure_ascii=False) and shown["display"] == "inline-block", shown["content"]
    assert shown["direction"] == ("rtl" if lang == "he" else "ltr")
    after = mark.bounding_box()
    assert before is not None and after is not None and after["height"] > before["height"] + 10  # it takes room
    no_overflow(page)
    shoot(page, artifacts / f"source-tapped-{lang}-375")
