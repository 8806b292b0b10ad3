"""Template helpers of the rule reference, and the language switcher's URL.

``{% load reference_tags %}`` then:

* ``{% language_swap_url "hu" %}`` — the current page (path and query) under another
  language prefix: ``/en/variants/masters/?options=x`` → ``/hu/variants/masters/?options=x``.
"""

from __future__ import annotations

import re

from django import template
from django.conf import settings
from django.utils.safestring import SafeString

from mextrain_site.core.bidi import isolate_foreign, isolated_first
from mextrain_site.core.i18n import option_labels as labels
from mextrain_site.core.i18n import ruleset_name as name
from mextrain_site.core.i18n import ruleset_text, source_title
from mextrain_site.reference import citations
from mextrain_site.reference.sources import SourceInfo
from rules.ruleset import Ruleset
from variants.loader import get_ruleset

register = template.Library()


def swap_language_prefix(full_path: str, code: str) -> str:
    codes = "|".join(re.escape(c) for c, _ in settings.LANGUAGES)
    swapped, n = re.subn(rf"^/(?:{codes})(?=/|\?|$)", f"/{code}", full_path, count=1)
    return swapped if n else full_path


@register.simple_tag(takes_context=True)
def language_swap_url(context: template.Context, code: str) -> str:
    request = context.get("request")
    if request is None:
        return f"/{code}/"
    return swap_language_prefix(request.get_full_path(), code)


@register.filter
def language_name(code: str) -> str:
    """The name of a language in the active language."""
    return citations.language_name(code)


@register.filter
def source_name(info: SourceInfo) -> str:
    """A source text as a player knows it: the title (or publisher) of the ruleset resting on it,
    and its language (``How to play Mexican Train dominoes · Hebrew``), never its file name.

    In a right-to-left language the name starts with a right-to-left mark and the title is isolated
    (U+200F, U+2068 … U+2069), as in :func:`~mextrain_site.core.i18n.ruleset_name`: a Latin
    publisher then neither makes the ``<bdi>`` around it left to right nor takes the "·" and the
    language into its run ("Masters Traditional Games · איטלקית" reads the publisher first)."""
    from django.utils.translation import get_language_bidi

    title = source_title(get_ruleset(info.rulesets[0]))
    if get_language_bidi():
        title = isolated_first(title)
    return f"{title} · {language_name(info.language)}"


@register.filter
def language_name_local(code: str) -> str:
    """The name of a language in that language; the code itself when Django knows none."""
    from django.utils.translation import get_language_info

    try:
        return str(get_language_info(code)["name_local"])
    except KeyError:
        return code


@register.filter
def direction_label(direction: str) -> str:
    from django.utils.translation import pgettext

    if direction == "rtl":
        return pgettext("text direction", "right to left")
    return pgettext("text direction", "left to right")


@register.filter
def ruletext(english: str) -> str:
    """A free text of a ruleset file (a title, say) in the active language, as a page shows it: in a
    right-to-left language each Latin name in it isolated with its brackets
    (:func:`~mextrain_site.core.bidi.isolate_foreign`), so "רכבת מקסיקנית (Masters Traditional Games)"
    keeps its brackets around the name when a narrow screen breaks the line inside it."""
    from django.utils.translation import get_language_bidi

    text = ruleset_text(english)
    return isolate_foreign(text) if get_language_bidi() else text


@register.filter
def ruleset_name(ruleset: Ruleset) -> str:
    """A ruleset as a player names it (never its id), in the active language."""
    return name(ruleset)


@register.filter
def option_labels(ruleset: Ruleset) -> tuple[str, ...]:
    """The options applied to a ruleset, as a player names them, in the active language."""
    return labels(ruleset)


@register.filter
def in_reader_language(code: str) -> bool:
    """Whether a text in language ``code`` is in the language of the page."""
    from django.utils.translation import get_language

    return citations.same_language(code, get_language() or "")


@register.simple_tag
def quote(view: citations.CitationView, credit: bool = True) -> SafeString:
    """``{% quote c %}``: a cited passage, as the referee's answers write it too
    (:func:`~mextrain_site.reference.citations.quote_html`)."""
    return citations.quote_html(view, credit=credit)
