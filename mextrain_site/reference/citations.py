"""One cited passage as every page shows it, and the one renderer of its quote.

The referee's answers and the rule reference's rules cite the same passages of the same sources;
both read them through :class:`CitationView` (what a reader sees of one citation, in the reader's
language first) and write them with :func:`quote_html`. The referee (above this app) imports it;
nothing here imports the referee. Nothing here decides a rule.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, get_language_bidi, get_language_info, gettext

from mextrain_site.core.i18n import ruleset_text, source_title
from rules.memo import Memo
from rules.ruleset import Citation, Ruleset, Source
from variants.loader import get_ruleset

from .sources import anchor_for


def language_name(code: str) -> str:
    """The name of a language in the active language; the code itself when Django knows none."""
    try:
        return str(get_language_info(code)["name_translated"])
    except KeyError:
        return code


def same_language(code: str, reader: str) -> bool:
    """Whether a text in language ``code`` is in the reader's language (``he`` reads ``he-IL``)."""
    return bool(code) and code.split("-")[0] == reader.split("-")[0]


@dataclass(frozen=True)
class CitationView:
    """A rule's words from one source, in the reader's language first: the quote itself when the
    reader reads the source's language, else its rendering (the English gloss where the reader's
    language has none yet); the verbatim original one tap away."""

    seed: str
    quote: str
    """The source's own words, verbatim."""
    language: str
    """The source's language."""
    direction: str
    gloss: str
    """The rendering of the quote in the reader's language; English where it has none yet."""
    gloss_lang: str
    gloss_dir: str
    language_name: str
    """The source's language, named in the reader's language."""
    source: str
    """The published source as a reader knows it (a house ruleset's base: the table wrote no quote)."""
    url: str
    """The cited place in the source text, in the reader's language's pages."""
    original: bool
    """The reader reads the source's language: the quote itself leads, no rendering is shown."""
    remark: str = ""
    """The translator's remark on the rendering, in the reader's language."""

    @property
    def anchor(self) -> str:
        return anchor_for(self.quote)

    @property
    def text(self) -> str:
        """What leads: the quote itself, or its rendering."""
        return self.quote if self.original else self.gloss

    @property
    def lang(self) -> str:
        return self.language if self.original else self.gloss_lang

    @property
    def dir(self) -> str:
        return self.direction if self.original else self.gloss_dir


def source_url(seed: str, quote: str) -> str:
    """The cited place: the source text's page in the active language, at the quote's mark."""
    try:
        return f"{reverse('reference:source', args=[seed])}#{anchor_for(quote)}"
    except NoReverseMatch:
        return ""


def citation_view(c: Citation, src: Source | None, source: str, url: str | None = None) -> CitationView:
    """One citation as the active language's reader sees it; ``source`` names the source credited."""
    reader = get_language() or "en"
    lang = src.language if src else ""
    direction = src.direction if src else "auto"
    gloss = ruleset_text(c.gloss)
    gloss_lang = reader if gloss != c.gloss or same_language("en", reader) else "en"
    gloss_dir = "rtl" if gloss_lang == reader and get_language_bidi() else "ltr"
    return CitationView(
        seed=c.seed, quote=c.quote, language=lang, direction=direction, gloss=gloss, gloss_lang=gloss_lang,
        gloss_dir=gloss_dir, language_name=language_name(lang), source=source,
        url=source_url(c.seed, c.quote) if url is None else url, original=same_language(lang, reader),
        remark=ruleset_text(c.remark))


def published(ruleset: Ruleset) -> Ruleset:
    """The published ruleset whose sources a ruleset's citations quote: a house ruleset's base."""
    return get_ruleset(ruleset.built_on) if ruleset.built_on else ruleset


def citation_views(ruleset: Ruleset, citations: Iterable[Citation]) -> tuple[CitationView, ...]:
    """A rule's (or an option's) citations under ``ruleset``, in the order its file gives them."""
    citations = tuple(citations)
    if not citations:
        return ()
    sources = {s.seed: s for s in ruleset.sources}
    title = source_title(published(ruleset))
    return tuple(citation_view(c, sources.get(c.seed), title) for c in citations)


# -- the one renderer ----------------------------------------------------------------------------

QUOTE_LIMIT = 4096
_HTML: Memo[tuple[str, CitationView, bool], str] = Memo(QUOTE_LIMIT)
"""Quotes' HTML by (language, view, credit): built once per process (views come from the loaded
rulesets and the few house rulesets in use)."""


def _esc(value: str) -> str:
    return html.escape(value)


def quote_html(view: CitationView, *, credit: bool = True) -> SafeString:
    """A cited passage: its words in the reader's language, its source credited (``credit``: by its
    title, linked to the cited place; a page about that source already names it), and, where a
    rendering leads, the original (and the translator's remark) one tap away (``<details>`` opens
    without JavaScript). The referee's answers and the reference's rules both write quotes here."""
    key = (get_language() or "", view, credit)
    found = _HTML.get(key)
    if found is None:
        url = _esc(view.url)
        caption = ""
        if credit:
            caption = f'— <cite><a href="{url}"><bdi>{_esc(view.source)}</bdi></a></cite>'
        if not view.original:
            note = gettext("Translator's note:")
            remark = (f'<p class="remark"><span class="aside-label">{note}</span> {_esc(view.remark)}</p>'
                      if view.remark else "")
            summary = gettext("The original (%(language)s)") % {"language": _esc(view.language_name)}
            caption += (f'\n    <details class="original"><summary>{summary}</summary>\n'
                        f'      <blockquote lang="{_esc(view.language)}" dir="{_esc(view.direction)}">'
                        f'{_esc(view.quote)}</blockquote>\n      {remark}</details>')
        found = _HTML.keep(key, (
            f'<figure class="quote">\n'
            f'  <blockquote lang="{_esc(view.lang)}" dir="{_esc(view.dir)}" cite="{url}">{_esc(view.text)}</blockquote>\n'
            + (f'  <figcaption>{caption}</figcaption>\n' if caption else "")
            + '</figure>'))
    return mark_safe(found)
