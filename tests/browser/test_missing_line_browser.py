"""A missing line on the referee page, in the system Chromium at 375 px, English and Hebrew: the
message, the numbered echo marking the end of the line after which the missing line belongs,
"Go to line N" putting the caret there, and the player typing the line there getting a ruling.
An error at an exact place in the same text (a pip above the set, further down) is shown first.

Screenshots go to test-artifacts/missing-line-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from playwright.sync_api import expect

from rules.position import Position, PositionError
from tests.browser.helpers import NewPage, gettext, judge, scrolls_sideways, shoot
from tests.languages import BIDI

pytestmark = pytest.mark.browser

NO_TURN = "# Ann asks\nplayers: Ann Bob\nengine: 12-12\nAnn: -\nBob: -   # not started\nhand: 1-2 12-3\n"
"""The 'turn:' line belongs after Bob's train, line 5: the error points at the end of that line."""


def worded(text: str, language: str) -> str:
    """The engine's error for ``text`` as the page words it in ``language``."""
    with pytest.raises(PositionError) as info:
        Position.parse(text)
    with translation.override(language):
        return info.value.worded(translation.gettext)


@pytest.mark.parametrize("language", BIDI)
def test_a_missing_line_is_marked_where_the_player_types_it(new_page: NewPage, live_server: Any, artifacts: Path,
                                                            language: str) -> None:
    page = new_page("phone")
    page.goto(f"{live_server.url}/{language}/adjudicate/")
    judge(page, NO_TURN, language)
    panel = page.locator("#ruling")
    expect(panel).to_have_attribute("data-error-line", "5")
    expect(panel).to_have_attribute("data-error-column", "23")
    message = page.locator("#input-error")
    expect(message).to_have_text(worded(NO_TURN, language))
    assert message.inner_text().startswith(gettext(language, "line {line}, column {column}: ").format(line=5, column=23))
    # the echo marks line 5, at its end: the place the missing line is typed after
    bad = page.locator(".echo li.bad")
    expect(bad).to_have_count(1)
    expect(bad).to_have_attribute("value", "5")
    assert bad.locator("code").inner_text().startswith("Bob: -   # not started")
    assert bad.locator("mark").inner_text().strip() == ""
    assert not scrolls_sideways(page)
    shoot(panel, artifacts / f"missing-line-{language}-phone")
    # "Go to line 5" puts the caret at the end of line 5; the player types the line there
    page.locator(".goto-line").click()
    end_of_line_5 = len("\n".join(NO_TURN.split("\n")[:5]))
    assert page.evaluate("() => { const t = document.getElementById('position');"
                         " return [t.selectionStart, t.selectionEnd]; }") == [end_of_line_5, end_of_line_5]
    page.keyboard.type("\nturn: Ann")
    assert page.input_value("#position") == NO_TURN.replace("# not started\n", "# not started\nturn: Ann\n")
    judge(page, page.input_value("#position"), language)
    expect(page.locator("#ruling.ruling-error")).to_have_count(0)
    expect(page.locator("#position")).not_to_have_attribute("aria-invalid", "true")


@pytest.mark.parametrize("language", BIDI)
def test_an_exact_error_further_down_is_shown_before_the_missing_line(new_page: NewPage, live_server: Any,
                                                                      language: str) -> None:
    text = NO_TURN.replace("12-3", "13-3")
    page = new_page("phone")
    page.goto(f"{live_server.url}/{language}/adjudicate/")
    judge(page, text, language)
    expect(page.locator("#ruling")).to_have_attribute("data-error-line", "6")
    expect(page.locator(".echo li.bad mark")).to_have_text("13-3")
    with translation.override(language):
        pip = translation.gettext("{tile} has a pip above the set's maximum {limit}; for a larger set, add a line "
                                  "like 'set: double-{larger}'").format(tile="13-3", limit=12, larger=15)
    expect(page.locator("#input-error")).to_contain_text(pip)
