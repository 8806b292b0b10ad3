"""The rule sheet printed by Chromium (Playwright ``page.pdf``): every ruleset as written, and the
one with the most options, in every language, on at most two A4 pages; the Hebrew sheet right to
left. PDFs and a screenshot go to test-artifacts/sheet-*."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from playwright.sync_api import Page

from tests.browser.helpers import shoot
from variants.loader import base_ids, option_ids

pytestmark = pytest.mark.browser

LANGUAGES = [code for code, _ in settings.LANGUAGES]
MOST_OPTIONS = max(option_ids(), key=lambda i: i.count("+"))
MAX_PAGES = 2


def pdf_pages(pdf: bytes) -> int:
    """The number of pages of a PDF Chromium printed (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_sheet_prints_on_at_most_two_a4_pages(page: Page, live_server: Any, artifacts: Path, lang: str) -> None:
    for ident in (*base_ids(), MOST_OPTIONS):
        page.goto(f"{live_server.url}/{lang}/variants/{ident}/sheet/")
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.locator("nav, .site-header").count() == 0  # no navigation on the sheet
        pdf = page.pdf(format="A4", print_background=True, prefer_css_page_size=True)
        pages = pdf_pages(pdf)
        (artifacts / f"sheet-{ident}-{lang}.pdf").write_bytes(pdf)
        assert 1 <= pages <= MAX_PAGES, f"{ident} in {lang}: {pages} pages"


def test_hebrew_sheet_is_right_to_left(page: Page, live_server: Any, artifacts: Path) -> None:
    page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
    page.emulate_media(media="print")
    page.goto(f"{live_server.url}/he/variants/masters/sheet/")
    assert page.evaluate("document.documentElement.dir") == "rtl"
    assert page.evaluate("getComputedStyle(document.querySelector('.sheet-body')).direction") == "rtl"
    # the first section's heading starts at the right edge of the sheet
    head = page.locator(".sheet-section h2").first.bounding_box()
    body = page.locator(".sheet-body").bounding_box()
    assert head is not None and body is not None
    assert head["x"] + head["width"] > body["x"] + body["width"] - 4
    # numbers and ruleset ids keep their left-to-right order
    assert page.locator(".sheet-meta bdi").first.evaluate("el => getComputedStyle(el).direction") == "ltr"
    shoot(page, artifacts / "sheet-masters-he-print", full_page=True)
    page.emulate_media(media="screen")
    page.set_viewport_size({"width": 375, "height": 800})
    shoot(page, artifacts / "sheet-masters-he-375", full_page=True)
