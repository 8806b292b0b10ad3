"""The rule sheet: a whole ruleset, options applied, to print for the table on at most two A4 pages.

Every rule is one sentence (the same sentences as the ruleset page, from ``summary``) with the
shortest passage its source gives for it, in the reader's language: the quote itself on a page in
the source's language, else its rendering. The players and the hand-size table head the sheet.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.safestring import SafeString
from django.utils.text import Truncator

from rules.ruleset import Ruleset, Status

from . import rule_views, wording
from .citations import CitationView

QUOTE_WORDS = 30
"""A quote on the sheet is cut after this many words (with an ellipsis) to keep to two pages."""
HEADER_KEYS = ("players.count", "setup.deal")
"""Rules the sheet shows in its header (the player range and the hand-size table), not as lines."""


@dataclass(frozen=True)
class SheetQuote:
    text: str
    """The passage in the reader's language: the quote itself, or its rendering."""
    language: str
    direction: str
    seed: str
    original: bool
    """Whether ``text`` is the source's own words (the page is in the source's language)."""
    text_lang: str = ""
    """The language ``text`` is in: the source's, or the rendering's (English where the reader's has none yet)."""
    text_dir: str = "auto"


@dataclass(frozen=True)
class SheetRule:
    key: str
    label: str
    sentence: SafeString
    status: str
    status_label: str
    quote: SheetQuote | None


@dataclass(frozen=True)
class SheetSection:
    id: str
    title: str
    rules: tuple[SheetRule, ...]


@dataclass(frozen=True)
class Sheet:
    ruleset: Ruleset
    players: SafeString
    deal: SafeString
    sections: tuple[SheetSection, ...]


def short_quote(view: rule_views.RuleView, reader_language: str) -> SheetQuote | None:
    """The shortest of a rule's passages, in the reader's language (a source in that language
    first), cut to QUOTE_WORDS words."""
    if not view.citations:
        return None

    def shown(c: CitationView) -> tuple[str, bool]:
        original = c.language.split("-")[0] == reader_language.split("-")[0]
        return (c.quote if original else c.gloss), original

    best = min(view.citations, key=lambda c: (not shown(c)[1], len(shown(c)[0])))  # the source's own words first
    text, original = shown(best)
    return SheetQuote(Truncator(text).words(QUOTE_WORDS, truncate="…"), best.language, best.direction,
                      best.seed, original, best.language if original else best.gloss_lang,
                      best.direction if original else best.gloss_dir)


def sheet(ruleset: Ruleset, reader_language: str) -> Sheet:
    sections = []
    for gid, title, specs in rule_views.grouped_specs():
        rules = []
        for spec in specs:
            if spec.key in HEADER_KEYS:
                continue
            view = rule_views.rule_view(ruleset, spec.key, compact=True)
            rules.append(SheetRule(spec.key, view.label, view.value, view.status,
                                   view.status_label if view.rule.status is not Status.STATED else "",
                                   short_quote(view, reader_language)))
        if rules:
            sections.append(SheetSection(gid, title, tuple(rules)))
    players = ruleset.flags.players_count
    return Sheet(ruleset, wording.player_range(players.min, players.max),
                 wording.deal_table(ruleset.flags.setup_deal, compact=True), tuple(sections))
