"""Driving the pages in the browser tests, shared through tests/browser/conftest.py: the widths, the
Judge button in any language, and the checks every page of the site must pass (sideways overflow,
tap targets, axe-core, English left in a translated page)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe
from django.utils import translation
from playwright.sync_api import Browser, Locator, Page, expect

from tests.catalogues import english_in

WIDTHS: dict[str, dict[str, int]] = {"phone": {"width": 375, "height": 740}, "desktop": {"width": 1280, "height": 900}}
"""The two widths the pages are walked at, by name."""
NARROWEST = 320
"""The narrowest phone the pages must fit without scrolling sideways."""

NewPage = Callable[..., Page]
"""The ``new_page`` fixture: ``new_page(width="phone", *, javascript=True, **context) -> Page``."""
Judged = Callable[..., Page]
"""The ``judged`` fixture: ``judged(language="en", text=None, width="phone", **context) -> Page``."""


def gettext(language: str, text: str) -> str:
    """``text`` as the site words it in ``language`` (to find a button by its name)."""
    with translation.override(language):
        return translation.gettext(text)


def open_page(browser: Browser, width: str | int = "phone", *, javascript: bool = True, **context: Any) -> Page:
    """A page in a context of its own, ``width`` a name of :data:`WIDTHS` or a phone's width in px.
    Close it with ``page.context.close()`` (the ``new_page`` fixture closes its pages itself)."""
    viewport = WIDTHS[width] if isinstance(width, str) else {"width": width, "height": 740}
    return browser.new_context(viewport=viewport, java_script_enabled=javascript, **context).new_page()  # type: ignore[arg-type]


def press_judge(page: Page, text: str | None, language: str = "en") -> None:
    """Type ``text`` (None: keep the page's example) and press Judge, found by its name in ``language``."""
    if text is not None:
        page.fill("#position", text)
    page.get_by_role("button", name=gettext(language, "Judge"), exact=True).click()


def judge(page: Page, text: str | None, language: str = "en") -> None:
    """:func:`press_judge`, then wait for the ruling's heading (or the error's) to take the focus."""
    press_judge(page, text, language)
    expect(page.locator("#ruling-heading")).to_be_focused()


def shoot(target: Page | Locator, stem: Path, **options: Any) -> None:
    """A screenshot of ``target`` (a page, or one element) to ``<stem>.png``, for a person to look at.
    PNG, not JPEG: JPEG at quality 80 cost about 30% less CPU a shot, too little to show on a whole
    module, and a PNG opens in every viewer a reviewer may have. ``options``: Playwright's
    (``full_page``, ``clip``)."""
    target.screenshot(path=str(stem.parent / f"{stem.name}.png"), **options)


def scrolls_sideways(page: Page) -> bool:
    return not page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


# -- the page checks --------------------------------------------------------------------------------

TARGETS = "a[href], button, summary, select, input[type=checkbox], input[type=radio]"
"""Everything a finger taps."""
CONTROLS = "button, summary, select, input, label.chip, a.cite, nav a"
"""Buttons, toggles (a check box or radio button: its label), disclosures, chips and menu items: at
least 44x44 px (issue 27)."""


def small_targets(page: Page) -> list[str]:
    """Targets too small for a finger (docs/web.md, *On a phone*): every button, toggle (a check box
    or radio button, measured by its label), disclosure (``<summary>``), chip and menu item under
    44x44 px; a link standing on its own under 24x24 px; and a link inside running text (a sentence
    of a paragraph, a quote or a hint, which WCAG 2.2's 2.5.8 exempts from the size) under 24 px
    whose 24 px circle, centred on it, reaches another target (WCAG's spacing)."""
    return list(page.evaluate(
        """([sel, controls]) => {
              const seen = [...document.querySelectorAll(sel)].flatMap(el => {
                const r = el.getBoundingClientRect();
                if (r.width === 0 || r.height === 0 || !el.checkVisibility()) return [];
                const label = el.matches('input') && el.closest('label');
                const box = label ? label.getBoundingClientRect() : r;
                const p = el.parentElement;
                const inText = el.matches('a') && p.matches('p, blockquote, .hint, dd, li, figcaption')
                  && p.textContent.trim() !== el.textContent.trim();
                const kind = el.matches(controls) || (label && label.matches('label')) ? 'control' : inText ? 'text' : 'link';
                return [{el, box, kind}];
              });
              const near = (t, o) => {  // distance from t's centre to o's box
                const cx = t.box.left + t.box.width / 2, cy = t.box.top + t.box.height / 2;
                const dx = Math.max(o.box.left - cx, 0, cx - o.box.right), dy = Math.max(o.box.top - cy, 0, cy - o.box.bottom);
                return Math.hypot(dx, dy);
              };
              const say = t => `${t.el.outerHTML.slice(0, 80)} ${Math.round(t.box.width)}x${Math.round(t.box.height)}`;
              return seen.flatMap(t => {
                const {box, kind} = t;
                if (kind === 'control') return box.width < 44 || box.height < 44 ? [say(t)] : [];
                if (box.width >= 24 && box.height >= 24) return [];
                if (kind === 'link') return [say(t)];
                const crowded = seen.find(o => o !== t && o.el !== t.el.closest('label') && near(t, o) < 12);
                return crowded ? [`${say(t)} within 12 px of ${say(crowded)}`] : [];
              });
           }""", [TARGETS, CONTROLS]))


AXE = Axe()
COLOUR_RULES = ("color-contrast", "link-in-text-block")
"""axe-core's rules that read the colours of text: most of axe's time on a long page (every text
element's background is found by hit-testing), so :func:`serious` runs them on one sample of each
distinct element (:data:`SAMPLE_JS`) rather than on every copy of it."""

SAMPLE_JS = """root => {
  // One element of each kind that holds text. The kind is what the stylesheet's selectors read: the chain of
  // ancestors, each with its tag and attributes (but ids, links, labels and data), the element's and its
  // parent's first or last place among their siblings, and the element's previous sibling with its state
  // (input:checked + span); two elements of one kind have the same colours, font and background.
  const skip = new Set(['id', 'href', 'src', 'for', 'name', 'value', 'title', 'alt', 'aria-label', 'aria-labelledby',
                        'aria-describedby', 'aria-controls', 'headers', 'datetime', 'action', 'content']);
  const kind = el => {
    const prev = el.previousElementSibling;
    const parts = [prev ? `${prev.tagName}${prev.checked ? ':checked' : ''}${prev.disabled ? ':disabled' : ''}` : '^'];
    for (let n = el, depth = 0; n && n.nodeType === 1; n = n.parentElement, depth++) {
      const attrs = [...n.attributes].filter(a => !skip.has(a.name) && !a.name.startsWith('data-'))
                                     .map(a => `${a.name}=${a.value}`).sort().join(' ');
      const place = depth < 2 ? `${n.previousElementSibling ? '' : '^'}${n.nextElementSibling ? '' : '$'}` : '';
      parts.push(`${n.tagName}[${attrs}]${place}`);
    }
    return parts.join('<');
  };
  const seen = new Set(), picked = [];
  for (const el of (root || document).querySelectorAll('*')) {
    if (![...el.childNodes].some(c => c.nodeType === 3 && c.data.trim())) continue;
    const k = kind(el);
    if (!seen.has(k)) { seen.add(k); picked.push(el); }
  }
  return picked;
}"""
"""JavaScript: the elements :func:`serious` reads the colour rules on, one of each distinct kind in ``root``."""


def serious(page: Page, within: str | None = None, *, colour: bool = True) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands (``within``: only in the
    element that selector finds, when the rest of the page was read before and has not changed;
    ``colour``: also the rules of :data:`COLOUR_RULES`, read on one element of each kind)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.axe_script)  # once per document, not on every run
    violations = page.evaluate(
        """async ([within, colour, rules]) => {
             const sample = """ + SAMPLE_JS + """;
             const root = within ? document.querySelector(within) : document;
             const off = Object.fromEntries(rules.map(r => [r, {enabled: false}]));
             const found = (await axe.run(root, {resultTypes: ['violations'], rules: off})).violations;
             const picked = colour ? sample(root) : [];
             if (picked.length) {
               found.push(...(await axe.run({include: picked}, {resultTypes: ['violations'],
                                            runOnly: {type: 'rule', values: rules}})).violations);
             }
             return found;
           }""", [within, colour, list(COLOUR_RULES)])
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
            for v in violations if v["impact"] in ("serious", "critical")]


def prose(page: Page) -> str:
    """The prose a reader of the page's language reads: the rendered text and the titles, labels,
    placeholders and alternative texts, without code (input syntax, ids) and without passages marked
    as another language (a quoted source); a collapsed <details> counts, as in the served HTML."""
    return str(page.evaluate(
        """() => { const lang = document.documentElement.lang.split('-')[0];
              const skip = new Set(['CODE', 'KBD', 'SAMP', 'SCRIPT', 'STYLE', 'TEXTAREA', 'PRE']);
              const walk = n => {
                if (n.nodeType === Node.TEXT_NODE) return n.data;
                if (n.nodeType !== Node.ELEMENT_NODE || skip.has(n.tagName)) return ' ';
                if (n.hasAttribute('lang') && n.getAttribute('lang').split('-')[0] !== lang) return ' ';
                const shown = ['title', 'aria-label', 'placeholder', 'alt'].map(a => n.getAttribute(a) || '');
                return [...shown, ...[...n.childNodes].map(walk)].join(' ');
              };
              return walk(document.documentElement); }"""))


def english_left(page: Page, language: str) -> list[str]:
    """English sentences left in a page shown in ``language`` (none to find in English itself)."""
    return [] if language == "en" else english_in(prose(page), language)[:3]
