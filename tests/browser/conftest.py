"""The browser tests' shared fixtures (the helpers they use are in tests/browser/helpers.py and
tests/browser/reading.py).

Every test in this folder is marked ``browser`` (tests/conftest.py) and may run on any pytest-xdist
worker: each worker has its own Chromium (pytest-playwright's ``browser``, per session), its own
``live_server`` on a free port and its own test database, so a new browser test is safe in parallel
as long as the files it writes in test-artifacts/ are named after the test. Ask for ``new_page`` and
``judged`` rather than opening contexts by hand: they close what they open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.helpers import Judged, NewPage, judge, open_page


@pytest.fixture
def new_page(browser: Browser) -> Iterator[NewPage]:
    """``new_page(width="phone", *, javascript=True, **context)``: a fresh page in a context of its
    own (width: "phone", "desktop" or a phone's width in px); every context is closed afterwards."""
    opened: list[BrowserContext] = []

    def make(width: str | int = "phone", *, javascript: bool = True, **context: Any) -> Page:
        page = open_page(browser, width, javascript=javascript, **context)
        opened.append(page.context)
        return page

    yield make
    for context in opened:
        context.close()


@pytest.fixture
def judged(new_page: NewPage, live_server: Any) -> Judged:
    """``judged(language="en", text=None, width="phone")``: a fresh page on /<language>/adjudicate/
    with ``text`` judged (None: the page's own example)."""

    def make(language: str = "en", text: str | None = None, width: str | int = "phone", **context: Any) -> Page:
        page = new_page(width, **context)
        page.goto(f"{live_server.url}/{language}/adjudicate/")
        judge(page, text, language)
        return page

    return make
