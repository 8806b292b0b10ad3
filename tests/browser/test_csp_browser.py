"""The Content-Security-Policy in a real browser (system Chromium): every kind of page, and what
its scripts do (judging and sharing through htmx, the compare page's switch), run without one
violation; the 429 page reads well in English and Hebrew, on a phone and a desktop.
Screenshots go to test-artifacts/serving-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import override_settings
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.browser.helpers import press_judge as judge
from tests.browser.helpers import shoot
from tests.browser.test_adjudicate_browser import DISPUTE

pytestmark = pytest.mark.browser

PAGES = ["/en/", "/he/", "/en/variants/", "/en/variants/masters/", "/he/variants/howto/", "/en/sources/",
         "/en/reasons/", "/en/which/", "/en/compare/?v=howto&v=masters", "/en/adjudicate/", "/he/adjudicate/"]


@pytest.fixture
def violations(page: Page) -> Iterator[list[str]]:
    """What the browser reports of the policy: refusals in the console, and securitypolicyviolation events."""
    found: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            found.append(message.text)

    page.on("console", on_console)
    page.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                         "console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))")
    page.set_viewport_size({"width": 1280, "height": 900})
    yield found


def test_every_page_runs_under_the_policy(page: Page, live_server: Any, violations: list[str]) -> None:
    for path in PAGES:
        response = page.goto(f"{live_server.url}{path}")
        assert response is not None and response.ok, path
        policy = response.header_value("Content-Security-Policy") or ""
        assert "default-src 'self'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
        page.wait_for_load_state("load")
    assert violations == []


def test_judging_sharing_and_the_compare_switch_run_under_the_policy(page: Page, live_server: Any,
                                                                      violations: list[str]) -> None:
    page.goto(f"{live_server.url}/en/adjudicate/")
    judge(page, DISPUTE)
    expect(page.locator("#ruling-heading")).to_have_text("The rulesets disagree")
    page.get_by_role("button", name="Share this ruling").click()
    link = page.locator("#share-slot a.share-url")
    expect(link).to_be_visible()
    page.goto(link.get_attribute("href") or "")
    expect(page.locator("#ruling-heading")).to_have_text("The rulesets disagree")
    page.goto(f"{live_server.url}/en/compare/?v=howto&v=masters+mandatory-doubles")
    page.locator("#diff-switch").check()
    expect(page.locator("table.compare tr.same")).to_have_count(0)
    # the compare table keeps its width per ruleset without an inline style
    width = page.evaluate("getComputedStyle(document.querySelector('table.compare')).minInlineSize")
    assert width.endswith("px") and float(width[:-2]) > 500
    assert violations == []


@pytest.mark.ratelimit
@pytest.mark.django_db(transaction=True)
def test_over_the_limit_the_page_says_so_in_the_readers_language(browser: Browser, live_server: Any,
                                                                  artifacts: Path) -> None:
    with override_settings(RATE_LIMITS={"judge": "1/h", "share": "1/h", "ruleset": "1/h"}):
        for language, viewport in (("en", {"width": 1280, "height": 800}), ("he", {"width": 375, "height": 740}),
                                   ("en", {"width": 375, "height": 740}), ("he", {"width": 1280, "height": 800})):
            context = browser.new_context(viewport=viewport)  # type: ignore[arg-type]
            try:
                page = context.new_page()
                page.goto(f"{live_server.url}/{language}/adjudicate/")
                judge(page, DISPUTE, language)  # the first of the hour may pass, or an earlier test took it
                page.wait_for_load_state("networkidle")
                judge(page, DISPUTE, language)  # over the limit: the notice replaces the ruling (htmx)
                notice = page.locator("#ruling.over-limit")
                expect(notice).to_be_visible()
                expect(notice).to_have_attribute("role", "alert")
                heading = "יותר מדי בקשות" if language == "he" else "Too many requests"
                expect(notice.locator("h2")).to_have_text(heading)
                expect(page.locator("#position")).to_have_value(DISPUTE)  # the text is kept
                shoot(page, artifacts / f"serving-429-{language}-{viewport['width']}")
            finally:
                context.close()


@pytest.mark.ratelimit
@pytest.mark.django_db(transaction=True)
def test_over_the_limit_without_javascript_a_whole_page_says_so(browser: Browser, live_server: Any,
                                                                artifacts: Path) -> None:
    with override_settings(RATE_LIMITS={"judge": "1/h", "share": "1/h", "ruleset": "1/h"}):
        context = browser.new_context(java_script_enabled=False, viewport={"width": 375, "height": 740})
        try:
            page = context.new_page()
            for _ in range(2):
                page.goto(f"{live_server.url}/he/adjudicate/")
                judge(page, DISPUTE, "he")
            expect(page.locator("h2")).to_have_text("יותר מדי בקשות")
            assert page.evaluate("document.documentElement.dir") == "rtl"
            expect(page.locator(".site-header")).to_be_visible()  # the whole site around it, its navigation
            shoot(page, artifacts / "serving-429-he-375-nojs", full_page=True)
        finally:
            context.close()
