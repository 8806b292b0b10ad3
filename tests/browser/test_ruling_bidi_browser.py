"""A move inside a Hebrew sentence of the ruling, as Chromium lays it out at 375 px: the move reads
left to right and its brackets close around it ("(9-2 -> Ann)" was drawn as "(Ann <- 9-2" and
"Bob (9-2" with the bracket on the wrong side). Screenshot: test-artifacts/referee-closed-he-375.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from mextrain_site.referee.views import EXAMPLE
from tests.browser.helpers import judge, shoot
from tests.browser.reading import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLACES = """(li) => {
  // the sentence after the rulesets' names, as text nodes (tiles sit in spans of their own)
  const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT), nodes = [];
  for (let n; (n = walker.nextNode());) if (!n.parentElement.closest(".closed-by")) nodes.push(n);
  const at = {};
  for (const [name, needle, offset] of [["Bob", "Bob", 0], ["open", "(", 0], ["nine", "9-2", 0],
                                        ["arrow", "->", 1], ["Ann", "Ann", 0], ["close", ")", 0]]) {
    const node = nodes.find(n => n.textContent.includes(needle)), i = node.textContent.indexOf(needle) + offset;
    const r = document.createRange();
    r.setStart(node, i); r.setEnd(node, i + 1);
    const box = r.getBoundingClientRect();
    at[name] = {x: box.x, y: Math.round(box.y)};
  }
  return at;
}"""


def test_a_move_in_a_hebrew_sentence_reads_left_to_right_inside_its_brackets(page: Page, live_server: Any,
                                                                            artifacts: Path) -> None:
    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/he/adjudicate/")
    judge(page, EXAMPLE, "he")
    page.locator("details.actions > summary").click()
    page.locator("details.closed-rows > summary").click()
    li = page.locator("ul.closed-by-ruleset > li").filter(has_text="9-2 -> Ann").first
    at = li.evaluate(PLACES)
    assert len({p["y"] for p in at.values()}) == 1, at  # one line, so x alone says the order
    # right to left: the name, the bracket that opens, the move (itself left to right), the one that closes
    assert at["Bob"]["x"] > at["open"]["x"] > at["Ann"]["x"] > at["arrow"]["x"] > at["nine"]["x"] > at["close"]["x"], at
    li.scroll_into_view_if_needed()
    shoot(page.locator("details.closed-rows"), artifacts / "referee-closed-he-375")
