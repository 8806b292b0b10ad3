"""The site's one page walk: what it visits and what it checks at every stop.

``tests/browser/test_referee_player.py::test_every_page_passes_every_check`` walks the site once per
language and width (12 cases, spread over the workers) and runs :func:`page_problems` at every stop:
axe-core, English left in a translated page, sideways scrolling (at 375 and 320 px on a phone), the
header's height and the tap targets (on a phone). Loading a page is cheap; reading it is not, so a new
page joins the walk instead of getting a walk of its own:

- a page reached by its address: a :class:`SitePage` line in :data:`PAGES` (``long=True`` for a page of
  thousands of elements that is the same template in every language, see :func:`axe_policy`);
- a page reached by taps (a form filled in, a panel opened): a :data:`Journey` in :data:`JOURNEYS`,
  a function that drives ``walk.page`` and calls ``walk.check(where)`` at each state worth checking;
- a measurement of one page (a sticky column, a box that must stay in view): a :data:`Measure` in the
  page's ``measures``, run on the page the walk has loaded, in every language and width, instead of a
  test that loads the page again. It returns its problems as sentences (an empty list: none).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page, expect

from tests.browser.helpers import (
    NARROWEST,
    WIDTHS,
    english_left,
    gettext,
    judge,
    scrolls_sideways,
    serious,
    shoot,
    small_targets,
)
from tests.browser.reading import overflowing
from tests.languages import BIDI
from variants.loader import get_ruleset

Measure = Callable[[Page, str, str], list[str]]
"""A measurement of a loaded page: ``measure(page, language, width) -> problems``."""


@dataclass(frozen=True)
class SitePage:
    """A page of the site the walk loads by its address, ``/<language>/<path>``."""

    path: str
    long: bool = False
    """Thousands of elements, the same template in every language (see :func:`axe_policy`)."""
    measures: tuple[Measure, ...] = field(default=())


def axe_policy(language: str, width: str, page: SitePage | None = None) -> dict[str, Any]:
    """How axe-core reads a stop: every rule on every stop in every language and width, but on a long page
    (one template whose colours and layout do not depend on its words) the colour rules
    (helpers.COLOUR_RULES, most of axe's time) only in one language per direction (English and Hebrew),
    and the other languages' words at the phone's width only."""
    if page is None or not page.long or language in BIDI:
        return {}
    return {"colour": False, "axe": width == "phone"}


def stays_in_view(scroller: Locator, cell: Locator) -> bool:
    """Whether ``cell`` keeps its place while ``scroller`` scrolls to its far end (sticky)."""
    before = cell.bounding_box()
    scroller.evaluate("el => el.scrollLeft = (getComputedStyle(el).direction === 'rtl' ? -1 : 1) * el.scrollWidth")
    after = cell.bounding_box()
    return before is not None and after is not None and abs(before["x"] - after["x"]) < 1


def first_column_sticks(page: Page, language: str, width: str) -> list[str]:
    """The comparison's first column stays in view while its table scrolls sideways."""
    table = page.locator(".table-scroll").first
    return [] if stays_in_view(table, table.locator("tbody tr:not(.group) th").first) else [
        "the first column scrolls out of view"]


PAGES: tuple[SitePage, ...] = (
    SitePage(""), SitePage("adjudicate/"), SitePage("variants/"), SitePage("variants/masters/", long=True),
    SitePage("variants/masters/sheet/", long=True), SitePage("compare/", long=True, measures=(first_column_sticks,)),
    SitePage("sources/"), SitePage(f"sources/{get_ruleset('howto').sources[0].seed}/", long=True),
    SitePage("sources/003_d192915f30379178.txt/", long=True), SitePage("reasons/", long=True), SitePage("which/"),
    SitePage("variants/masters/stats/"), SitePage("stats/?v=masters&v=masters%2Bno-special-first-turn"),
)
"""Every page of the reference and the referee reached by its address (a new page of the site belongs here)."""


@dataclass
class Walk:
    """One walk: its page (a context in the walk's language), where it stands, and what it found."""

    page: Page
    base: str
    """The live server's address with the language: ``http://…/<language>``."""
    language: str
    width: str
    artifacts: Path
    found: dict[str, list[str]] = field(default_factory=dict)

    def screenshot(self, name: str) -> None:
        """The whole page as it stands, to test-artifacts/<name>-<language>-<width>.png."""
        shoot(self.page, self.artifacts / f"{name}-{self.language}-{self.width}", full_page=True)

    def check(self, where: str, action: Callable[[], object] = lambda: None, *, site_page: SitePage | None = None,
              **only: Any) -> None:
        """Do ``action``, then run every page check (and ``site_page``'s measures); what fails is kept under
        ``where``. ``only``: :func:`page_problems`' switches (``axe_within``, ``taps``, ``colour``)."""
        action()
        policy = axe_policy(self.language, self.width, site_page)
        problems = page_problems(self.page, self.language, self.width, **{**policy, **only})
        for measure in site_page.measures if site_page else ():
            problems += measure(self.page, self.language, self.width)
        if problems:
            self.found[where] = problems


def page_problems(page: Page, language: str, width: str, *, axe: bool = True, axe_within: str | None = None,
                  colour: bool = True, taps: bool = True) -> list[str]:
    """Every page check on the page as it stands: axe-core's serious and critical violations (in the
    element ``axe_within`` finds, if given; ``colour``: with the colour rules), English left in a
    translated page, sideways scrolling; on a phone also at 320 px, with a header at most 100 px tall
    and tap targets large enough (tests/browser/helpers.py, ``small_targets``)."""
    found = [*(serious(page, axe_within, colour=colour) if axe else ()),
             *(f"English: {s!r}" for s in english_left(page, language))]
    screens = (WIDTHS[width]["width"], NARROWEST) if width == "phone" else (WIDTHS[width]["width"],)
    for screen in screens:
        page.set_viewport_size({**WIDTHS[width], "width": screen})
        if scrolls_sideways(page):
            found.append(f"scrolls sideways at {screen} px: {overflowing(page)}")
        header = page.locator(".site-header")
        if width == "phone" and header.count():  # the rule sheet, made to be printed, has none
            box = header.bounding_box()
            if not box or box["height"] > 100:
                found.append(f"header {box} at {screen} px")
    page.set_viewport_size(WIDTHS[width])
    if width == "phone" and taps:
        found += [f"small target: {t}" for t in small_targets(page)]
    return found


# -- the journeys: pages reached by taps -----------------------------------------------------------

Journey = Callable[[Walk], None]
"""A path through pages reached by taps: drives ``walk.page`` and calls ``walk.check`` at each state."""

DISPUTE = """\
# Ann lays 9-9 on her own train, then 5-1 on the Mexican train.
players: Ann Bob Cy Dee
engine: 12-12
Ann: 12-9
Bob: 12-7
Cy: 12-3
Dee: 12-8
mexican: 12-5
boneyard: 20
turn: Ann
hand: 9-9 5-1 4-4 10-11
moves:
  Ann: 9-9 -> Ann
check: Ann: 5-1 -> mexican
"""

BUILD_PANELS = ("open:train:Ann", "open:train:Dee", "open:hand:Bob", "open:moves", "pick:move:6-4",
                "pick:check:6-4", "open:rename:Ann")
"""Build mode's states, one panel open at a time (the page's example: Bob to move, 6-4 in his hand)."""


def build_mode(walk: Walk) -> None:
    """Build mode with each panel open in turn, the other hands shown and a text it cannot show."""
    page = walk.page
    page.goto(f"{walk.base}/adjudicate/")
    page.locator("details.picker summary").click()
    page.locator("#mode-build").click()
    expect(page.locator("#builder .b-players")).to_be_visible()
    expect(page.locator("#builder-area")).to_have_attribute("data-pending", "0")
    walk.check("Build mode, a new table")  # what Build opens on: the example is not the table at hand
    page.locator("#mode-type").click()  # the example, typed: Build lays it out
    page.locator("#position").evaluate("t => { t.value = t.defaultValue + '#\\n'; }")
    page.locator("#mode-build").click()
    expect(page.locator("#builder button[value='open:hand:Bob']")).to_be_visible()
    walk.check("Build mode")
    for panel in BUILD_PANELS:
        page.locator(f"#builder button[value='{panel}']").click()
        expect(page.locator("#builder-area")).to_have_attribute("data-pending", "0")
        walk.check(f"Build mode, {panel}", axe_within="#builder")  # axe read the rest of the page just before
    walk.check("Build mode, other hands", lambda: page.locator("#builder details.b-others > summary").click(),
               axe_within="#builder")
    page.fill("#position", "players: Ann Bob\nengine: x\n")
    expect(page.locator("#builder .b-error")).to_be_visible()
    walk.check("Build mode, an error", axe_within="#builder")


def house_pages(walk: Walk) -> None:
    """The house builder with a rule found and every group open, then a saved house ruleset's page."""
    page = walk.page
    open_groups = "document.querySelectorAll('details.house-group').forEach(d => d.open = true)"
    walk.check(f"/{walk.language}/house/, a rule found, every group open",
               lambda: (page.goto(f"{walk.base}/house/?find=double"), page.evaluate(open_groups)))
    page.locator("[id='r-doubles.obligation']").select_option("none")
    page.locator("#house-name").fill("Walk")
    page.locator("button[name=action][value=save]").click()
    page.wait_for_url("**/variants/house-*/")
    walk.check("a house ruleset's page, every group open", lambda: page.evaluate(open_groups))


def a_ruling(walk: Walk) -> None:
    """A ruling with a quote's original opened, then with every part open, then shared."""
    page = walk.page
    page.goto(f"{walk.base}/adjudicate/")
    judge(page, DISPUTE, walk.language)
    walk.check("the ruling, a quote's original open", lambda: page.locator(".answer .original summary").first.click())
    walk.check("the ruling, every part open",
               lambda: page.evaluate("document.querySelectorAll('.ruling details').forEach(d => d.open = true)"))
    page.get_by_role("button", name=gettext(walk.language, "Share this ruling")).click()
    url = page.locator("#share-slot .share-url").get_attribute("href")
    assert url
    walk.check("a shared ruling", lambda: page.goto(url))


def the_score_sheet(walk: Walk) -> None:
    """A new game, its edit link with a round entered and the tile picker open, its view link (screenshots
    test-artifacts/game-{edit,view,print}-<language>-<width>.png)."""
    page = walk.page
    walk.check(f"/{walk.language}/game/new/", lambda: page.goto(f"{walk.base}/game/new/"))
    page.locator("#g-players").fill("Ann Bob Cy Dee")
    page.locator("#g-ruleset").select_option("howto")
    page.locator("button.game-primary").click()
    page.wait_for_url("**/edit/#*")
    page.locator("label.game-choice").first.click()
    for seat, points in ((1, "12"), (2, "0"), (3, "7")):
        page.locator(f"#e-points-{seat}").fill(points)
    page.locator("button.game-primary").click()
    expect(page.locator(".game-saved")).to_be_visible()
    walk.check("the score sheet's edit link, a round entered, the tile picker open",
               lambda: page.locator(".game-hand[data-index='1'] summary").click())
    walk.screenshot("game-edit")
    walk.check("the score sheet's view link", lambda: page.goto(page.url.split("edit/")[0]))
    walk.screenshot("game-view")
    page.emulate_media(media="print")
    walk.screenshot("game-print")


JOURNEYS: tuple[Journey, ...] = (house_pages, build_mode, a_ruling, the_score_sheet)
"""Every page reached by taps, in the order walked (a new one belongs here)."""
