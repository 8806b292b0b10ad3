"""How a rule and its value read, in the active language: labels, descriptions and the sentence
for each value (declared beside each rule in ``rules/ruleset.py``), numbers, ranges, set names and
the hand-size table as HTML, and the labels of a rule's status.

Nothing here is written per ruleset: a change in a ``variants/*.yaml`` file changes every page in
every language at once. Numbers and other interpolated values are wrapped in ``<bdi dir="ltr">``
so ranges such as ``2–14`` and tiles keep their left-to-right order on right-to-left pages.
Coverage is checked by ``tests/reference/test_reference_wording.py``: every value of every rule
key is worded, in every language.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import Promise
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

from mextrain_site.core.i18n import LABEL_CONTEXT, ruleset_text
from rules.messages import fields
from rules.ruleset import (
    SPEC_BY_KEY,
    DealRow,
    PlayerRange,
    ValueKind,
    Worded,
)

STATUS_LABELS: Mapping[str, Promise] = {
    "stated": pgettext_lazy("rule status", "stated"),
    "silent": pgettext_lazy("rule status", "not stated: assumed"),
    "ambiguous": pgettext_lazy("rule status", "ambiguous: reading chosen"),
    "house": pgettext_lazy("rule status", "house rule"),
}




def bdi(value: object) -> SafeString:
    """A value that keeps its left-to-right order inside any text."""
    return format_html('<bdi dir="ltr">{}</bdi>', value)


def interpolate(template: str, **params: object) -> SafeString:
    """Fill a translated %-template; values are escaped and isolated with <bdi>."""
    safe = {k: v if isinstance(v, SafeString) else bdi(v) for k, v in params.items()}
    return mark_safe(escape(template) % safe)


def label(key: str) -> str:
    """The rule's label (declared on its RuleSpec), in the active language."""
    spec = SPEC_BY_KEY.get(key)
    return pgettext(LABEL_CONTEXT, spec.label) if spec is not None else key


def description(key: str) -> str:
    """The dimension's description from RULE_SPECS, translated (see mextrain_site/core/engine_messages.py)."""
    spec = SPEC_BY_KEY.get(key)
    return gettext(spec.description) if spec is not None else ""


def set_name(n: int) -> SafeString:
    # Translators: the name of a domino set by its highest double, e.g. "double-12".
    return format_html("<bdi>{}</bdi>", interpolate(pgettext("domino set", "double-%(n)s"), n=n))


def number_range(lo: int, hi: int) -> str:
    """"2–8", kept as one left-to-right unit by interpolate()."""
    return f"{lo}–{hi}" if lo != hi else str(lo)


def player_range(lo: int, hi: int) -> SafeString:
    # Translators: %(range)s is a number or a range of numbers such as "2–8".
    return interpolate(ngettext("%(range)s player", "%(range)s players", hi), range=number_range(lo, hi))


def deal_table(rows: Sequence[DealRow], compact: bool = False) -> SafeString:
    head = format_html(
        "<thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead>",
        pgettext("deal table", "Players"), pgettext("deal table", "Set"), pgettext("deal table", "Tiles each"),
    )
    body = format_html_join(
        "",
        "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
        (
            (
                bdi(number_range(r.min_players, r.max_players)),
                set_name(r.set_max),
                bdi(r.tiles) if r.tiles is not None else format_html('<span class="muted">{}</span>', pgettext("hand size", "not stated")),
            )
            for r in rows
        ),
    )
    css = "deal-table compact" if compact else "deal-table"
    return format_html('<table class="{}">{}<tbody>{}</tbody></table>', css, head, body)


def _plain(value: Any) -> str:
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return ", ".join(_plain(v) for v in value)
    return str(value)


def value_html(key: str, value: Any, compact: bool = False) -> SafeString:
    """The value of one rule as a sentence (or a table), in the active language."""
    spec = SPEC_BY_KEY.get(key)
    if spec is None:
        return format_html("{}", _plain(value))
    kind = spec.kind
    if kind is ValueKind.PLAYER_RANGE and isinstance(value, PlayerRange):
        if value.min == value.max:
            return interpolate(ngettext("Exactly %(n)s player.", "Exactly %(n)s players.", value.max), n=value.min)
        return interpolate(ngettext("From %(lo)s to %(hi)s player.", "From %(lo)s to %(hi)s players.", value.max), lo=value.min, hi=value.max)
    if kind is ValueKind.DEAL_TABLE:
        return deal_table(value, compact=compact)
    if kind is ValueKind.TEXT:
        return format_html("{}", ruleset_text(value))
    if kind is ValueKind.INT and key == "scoring.double_blank":
        if value == 0:
            return mark_safe(escape(gettext("The double-blank left in a hand counts nothing at the end of a round.")))
        return interpolate(
            ngettext(
                "The double-blank left in a hand counts %(points)s point at the end of a round.",
                "The double-blank left in a hand counts %(points)s points at the end of a round.",
                value,
            ),
            points=value,
        )
    if kind is ValueKind.ENUM_LIST and key == "winner.tie_breaks":
        if not value:
            return mark_safe(escape(gettext("No tie-break: players tied for the lowest total share the win.")))
        return format_html(
            '{} <ol class="tie-breaks">{}</ol>',
            ngettext(
                "A tie for the lowest total is broken by:",
                "A tie for the lowest total is broken by, in this order:",
                len(value),
            ),
            format_html_join("", "<li>{}</li>", ((gettext(v.sentence) if isinstance(v, Worded) else v.value,) for v in value)),
        )
    sentence = spec.sentence(value)
    if sentence and isinstance(value, int) and not isinstance(value, bool):
        # A number's sentence carries {n}: the number, isolated left to right.
        translated = gettext(sentence)
        template = translated if fields(translated) == fields(sentence) else sentence
        return mark_safe(escape(template).replace("{n}", bdi(value)))
    if sentence:
        return mark_safe(escape(gettext(sentence)))
    # A value without a sentence (a new key or enum value): show it plainly rather than fail.
    return interpolate(gettext("%(dimension)s: %(value)s"), dimension=label(key), value=_plain(value))
