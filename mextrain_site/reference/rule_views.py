"""What the pages show of a ruleset: each rule with its worded value, status, notes and citations
(the quote and its rendering in the reader's language), the summary in the order of play, and
each option with what it changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.safestring import SafeString
from django.utils.translation import pgettext_lazy

from mextrain_site.core.i18n import option_label, ruleset_name, ruleset_text
from rules.ruleset import RULE_SPECS, SPEC_BY_KEY, Rule, Ruleset, RuleSpec
from variants.loader import (
    get_ruleset,
    load_base,
    option_closure,
)

from .citations import CitationView, citation_views
from .wording import STATUS_LABELS, description, label, value_html

GROUPS: tuple[tuple[str, Promise, tuple[str, ...]], ...] = (
    ("setup", pgettext_lazy("summary section", "Setup"), ("players", "setup")),
    ("start", pgettext_lazy("summary section", "The start"), ("engine", "start", "rounds")),
    ("first-turn", pgettext_lazy("summary section", "The first turn"), ("first_turn",)),
    ("turn", pgettext_lazy("summary section", "A normal turn"), ("turn", "markers")),
    ("doubles", pgettext_lazy("summary section", "Doubles"), ("doubles",)),
    ("end", pgettext_lazy("summary section", "End of round and scoring"), ("round_end", "scoring", "winner")),
)
OTHER_GROUP = ("other", pgettext_lazy("summary section", "Other rules"))


def grouped_specs() -> list[tuple[str, str, list[RuleSpec]]]:
    """The summary's sections in reading order; a section not listed in GROUPS goes last."""
    out: list[tuple[str, str, list[RuleSpec]]] = []
    placed: set[str] = set()
    for gid, title, sections in GROUPS:
        specs = [s for s in RULE_SPECS if s.section in sections]
        placed.update(s.key for s in specs)
        out.append((gid, str(title), specs))
    rest = [s for s in RULE_SPECS if s.key not in placed]
    if rest:
        out.append((OTHER_GROUP[0], str(OTHER_GROUP[1]), rest))
    return [g for g in out if g[2]]


@dataclass(frozen=True)
class CiteGroup:
    """The citations of one rule from one source language, numbered."""

    language: str
    direction: str
    citations: tuple[tuple[int, CitationView], ...]


def cite_groups(citations: Sequence[CitationView]) -> list[CiteGroup]:
    order: list[tuple[str, str]] = []
    for c in citations:
        if (c.language, c.direction) not in order:
            order.append((c.language, c.direction))
    return [
        CiteGroup(lang, direction, tuple(enumerate((c for c in citations if c.language == lang), start=1)))
        for lang, direction in order
    ]


@dataclass(frozen=True)
class RuleView:
    ruleset_id: str
    spec: RuleSpec
    rule: Rule
    value: SafeString
    citations: tuple[CitationView, ...]
    base_value: SafeString | None = None
    """When an option changed this rule: the value without the option."""
    ruleset_name: str = ""
    """The ruleset as a player names it (:func:`~mextrain_site.core.i18n.ruleset_name`)."""
    option_label: str = ""
    """The option that set this rule, as a player names it; "" when none did."""

    @property
    def key(self) -> str:
        return self.spec.key

    @property
    def label(self) -> str:
        return label(self.spec.key)

    @property
    def description(self) -> str:
        return description(self.spec.key)

    @property
    def status(self) -> str:
        return self.rule.status.value

    @property
    def note(self) -> str:
        return ruleset_text(self.rule.note)

    @property
    def reading(self) -> str:
        return ruleset_text(self.rule.reading)

    @property
    def alternative(self) -> str:
        return ruleset_text(self.rule.alternative)

    @property
    def status_label(self) -> str:
        return str(STATUS_LABELS.get(self.status, self.status))

    @property
    def cite_groups(self) -> list[CiteGroup]:
        return cite_groups(self.citations)

    @property
    def inline_value(self) -> bool:
        """Whether the value is a sentence, which fits on the rule's own line (the hand-size table
        and a list of tie-breaks stand below it)."""
        return "<table" not in self.value and "<ol" not in self.value


def without_option(ruleset: Ruleset, name: str) -> Ruleset:
    """The ruleset without one of its options (and without the options that need it)."""
    keep = [o for o in ruleset.options if name not in option_closure(ruleset.base, o)]
    return get_ruleset("+".join((ruleset.base, *keep)))


def rule_view(ruleset: Ruleset, key: str, compact: bool = False) -> RuleView:
    rule = ruleset.rule(key)
    base_value = None
    if rule.option:
        prior = without_option(ruleset, rule.option).rule(key).value
        if prior != rule.value:
            base_value = value_html(key, prior, compact=compact)
    return RuleView(
        ruleset_id=ruleset.id,
        spec=SPEC_BY_KEY[key],
        rule=rule,
        value=value_html(key, rule.value, compact=compact),
        citations=citation_views(ruleset, rule.citations),
        base_value=base_value,
        ruleset_name=ruleset_name(ruleset),
        option_label=option_label(ruleset, rule.option) if rule.option else "",
    )


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    rules: list[RuleView]


def summary(ruleset: Ruleset) -> list[Section]:
    """The whole ruleset, section by section, every rule key once."""
    return [Section(gid, title, [rule_view(ruleset, s.key) for s in specs]) for gid, title, specs in grouped_specs()]


@dataclass(frozen=True)
class Change:
    key: str
    label: str
    before: SafeString
    after: SafeString
    status: str
    status_label: str


@dataclass(frozen=True)
class OptionView:
    name: str
    """The option's id: the checkbox's value, the URL's ``options=`` and its anchor."""
    label: str
    """The option as a player names it, in the reader's language; so are ``requires``, ``conflicts`` and ``needed``."""
    summary: str
    requires: tuple[str, ...]
    conflicts: tuple[str, ...]
    citations: tuple[CitationView, ...]
    changes: list[Change]
    applied: bool
    closure: tuple[str, ...]
    """This option with every option it needs, in the file's order."""
    needed: tuple[str, ...] = ()
    """Every option it needs, directly or not: its changes are shown against the ruleset with them."""




def option_views(ruleset: Ruleset) -> list[OptionView]:
    base = load_base(ruleset.base)
    out = []
    for name, spec in base.options.items():
        changes = []
        before = get_ruleset("+".join((ruleset.base, *[n for n in option_closure(ruleset.base, name) if n != name])))
        for key, new in spec.changes.items():
            old = before.rule(key)
            changes.append(
                Change(key, label(key), value_html(key, old.value, compact=True), value_html(key, new.value, compact=True),
                       new.status.value, str(STATUS_LABELS.get(new.status.value, new.status.value)))
            )
        out.append(
            OptionView(
                name=name,
                label=ruleset_text(spec.label),
                summary=ruleset_text(spec.summary),
                requires=tuple(option_label(ruleset, n) for n in spec.requires),
                conflicts=tuple(option_label(ruleset, n) for n in spec.conflicts),
                citations=citation_views(ruleset, spec.citations),
                changes=changes,
                applied=name in ruleset.options,
                closure=option_closure(ruleset.base, name),
                needed=tuple(option_label(ruleset, n) for n in option_closure(ruleset.base, name) if n != name),
            )
        )
    return out
