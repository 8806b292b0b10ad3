"""What a player reads in the browser, shared by the browser tests: the rendered text, and checks that
it names no rule key, ruleset id or option id (``tests/player_text.py`` defines them) and fits a phone."""

from __future__ import annotations

import re

from playwright.sync_api import Page

from tests.player_text import codes_in

PHONE = {"width": 375, "height": 780}
WIDE = {"width": 1280, "height": 900}


def player_text(page: Page) -> str:
    """What a player reads: the rendered text (a collapsed <details> holds no rendered text) and the
    chosen option of each select; the page's own link left out (an address, not prose)."""
    text: str = page.evaluate("""() => document.body.innerText + ' ' + [...document.querySelectorAll('select')]
        .map(s => s.selectedOptions.length ? s.selectedOptions[0].text : '').join(' ')""")
    return re.sub(r"https?://\S+", " ", text)


def no_codes(page: Page) -> None:
    """No rule key, ruleset id or option id in what a player reads."""
    found = codes_in(player_text(page))
    assert not found, f"shown to players: {found}"


def no_overflow(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
        .slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id)""")
    screen = page.evaluate("window.innerWidth")  # the viewport the test set (320 px is a phone too)
    assert width <= screen, f"the page is {width} px wide on a {screen} px screen: {wide}"


def overflowing(page: Page) -> list[str]:
    """The visible elements that stick out sideways, outside any scrolling box (for the message)."""
    return list(page.evaluate("""() => { const W = document.documentElement.clientWidth; const out = [];
        for (const el of document.querySelectorAll('body *')) {
          const r = el.getBoundingClientRect();
          if (!(r.right > W + 1 || r.left < -1) || r.width === 0 || !el.checkVisibility()) continue;
          let p = el.parentElement, clipped = false;
          while (p) { if (getComputedStyle(p).overflowX !== 'visible') { clipped = true; break; } p = p.parentElement; }
          if (!clipped) out.push(`${el.tagName}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
        }
        return out.slice(0, 6); }"""))
