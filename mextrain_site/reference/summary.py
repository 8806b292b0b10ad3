"""Readable, translatable summaries of rulesets, generated from their data.

Nothing here is written per ruleset: every sentence is a translatable template chosen by a
rule's key and value (``SENTENCES``), so a change in a ``variants/*.yaml`` file changes the
summary in every language at once. Free text in the ruleset files (notes, readings, glosses,
equipment, option summaries) is English data; templates mark it ``lang="en" dir="ltr"``.

Numbers and other interpolated values are wrapped in ``<bdi dir="ltr">`` so ranges such as
``2–14`` and tiles keep their left-to-right order on right-to-left pages.

Coverage is checked by ``tests/reference/test_reference_summary.py``: every ``RULE_SPECS`` key
has a label, and every enum value and boolean of every key has a sentence.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from rules.ruleset import (
    RULE_SPECS,
    SPEC_BY_KEY,
    Citation,
    DealRow,
    PlayerRange,
    Rule,
    Ruleset,
    RuleSpec,
    Status,
    ValueKind,
)
from variants.loader import (
    OptionProblem,
    VariantError,
    all_rulesets,
    get_ruleset,
    load_base,
    option_closure,
    option_ids,
    option_problems,
)

from .sources import anchor_for

# -- labels: the short name of every dimension ---------------------------------------------------

LABELS: Mapping[str, Promise] = {
    "players.count": pgettext_lazy("rule dimension", "Players"),
    "setup.deal": pgettext_lazy("rule dimension", "Set and hand size"),
    "setup.equipment": pgettext_lazy("rule dimension", "Equipment"),
    "engine.tile": pgettext_lazy("rule dimension", "Engine double"),
    "engine.missing": pgettext_lazy("rule dimension", "Missing engine"),
    "start.first_player": pgettext_lazy("rule dimension", "First player"),
    "rounds.count": pgettext_lazy("rule dimension", "Rounds"),
    "first_turn.tiles": pgettext_lazy("rule dimension", "Tiles on the first turn"),
    "first_turn.who": pgettext_lazy("rule dimension", "Whose first turn is special"),
    "first_turn.trains": pgettext_lazy("rule dimension", "Trains on the first turn"),
    "first_turn.cannot_start": pgettext_lazy("rule dimension", "Unable to start a train"),
    "first_turn.going_out": pgettext_lazy("rule dimension", "Going out on the first turn"),
    "first_turn.doubles_apply": pgettext_lazy("rule dimension", "Doubles on the first turn"),
    "turn.matching_ends": pgettext_lazy("rule dimension", "Matching ends"),
    "turn.one_tile": pgettext_lazy("rule dimension", "One tile a turn"),
    "turn.own_train_first": pgettext_lazy("rule dimension", "Own train first"),
    "turn.marked_trains_open": pgettext_lazy("rule dimension", "Marked trains"),
    "turn.mexican_open": pgettext_lazy("rule dimension", "Mexican train"),
    "turn.must_play": pgettext_lazy("rule dimension", "Must play"),
    "turn.cannot_play": pgettext_lazy("rule dimension", "Unable to play"),
    "turn.drawn_tile_only": pgettext_lazy("rule dimension", "After drawing"),
    "turn.empty_boneyard_pass": pgettext_lazy("rule dimension", "Empty boneyard"),
    "turn.announce_last_tile": pgettext_lazy("rule dimension", "Announcing the last tile"),
    "markers.placed": pgettext_lazy("rule dimension", "Marker placed"),
    "markers.removed": pgettext_lazy("rule dimension", "Marker lifted"),
    "doubles.play_again": pgettext_lazy("rule dimension", "Playing again after a double"),
    "doubles.obligation": pgettext_lazy("rule dimension", "Open doubles"),
    "doubles.follow_up": pgettext_lazy("rule dimension", "The tile after one's own double"),
    "doubles.order": pgettext_lazy("rule dimension", "Order of open doubles"),
    "doubles.dead": pgettext_lazy("rule dimension", "Dead doubles"),
    "doubles.branching": pgettext_lazy("rule dimension", "Branching"),
    "round_end.blocked": pgettext_lazy("rule dimension", "Blocked round"),
    "round_end.last_tile_double": pgettext_lazy("rule dimension", "Going out on a double"),
    "scoring.double_blank": pgettext_lazy("rule dimension", "The double-blank"),
    "winner.tie_breaks": pgettext_lazy("rule dimension", "Tie-breaks"),
}

# -- sentences: one per (key, value) -------------------------------------------------------------
# Enum values are keyed by their spelled value, booleans by True/False.

SENTENCES: Mapping[str, Mapping[Any, Promise]] = {
    "engine.tile": {
        "round-double": _("Each round has its own engine: the set's highest double in the first round, then the next lower double in each later round."),
        "highest-held": _("The engine is the highest double any player holds after the deal."),
    },
    "engine.missing": {
        "draw-in-turn-until-found": _("If nobody holds the engine, the players draw from the boneyard in turn until it is found."),
        "set-aside-before-deal": _("The engine is set aside before the deal, so it can never be missing."),
        "draw-until-any-double": _("If nobody holds a double, the players draw from the boneyard until one turns up; that double becomes the engine."),
        "all-draw-until-found": _("If nobody holds the engine, every player draws one more tile at the same time, until someone draws it."),
    },
    "start.first_player": {
        "engine-holder": _("The player who holds the engine lays it and takes the first turn."),
        "chosen": _("The players choose who takes the first turn."),
        "left-of-engine-holder": _("The player who lays the engine does not start: the player on their left takes the first turn."),
    },
    "rounds.count": {
        "one-per-double": _("A game has one round for each double of the set, from the highest down to the double-blank."),
        "single-game": _("A game is a single round."),
    },
    "first_turn.tiles": {
        "one": _("There is no special first turn: a player lays one tile, as on any later turn."),
        "chain": _("On the first turn a player may lay a chain of as many tiles as they like."),
    },
    "first_turn.who": {
        "every-player": _("Every player's first turn follows the first-turn rules."),
        "first-player-only": _("Only the very first turn of the round, the first player's, follows the first-turn rules."),
    },
    "first_turn.trains": {
        "own-only": _("On the first turn a player may build only their own train."),
        "own-or-mexican": _("On the first turn a player may build their own train or the Mexican train."),
        "any-available": _("On the first turn a player may use any train open to them."),
    },
    "first_turn.cannot_start": {
        "marker-no-draw": _("A player who cannot start a train on the first turn places a marker and does not draw."),
        "normal-turn": _("A player who cannot start a train on the first turn takes a normal turn: draw a tile, play it if possible, otherwise place a marker."),
    },
    "first_turn.going_out": {
        "finish-round-of-turns": _("If a player goes out on the first turn, the others still take their first turn before the round ends."),
        "round-ends": _("If a player goes out on the first turn, the round ends at once."),
    },
    "first_turn.doubles_apply": {
        True: _("The rules for doubles apply on the first turn too."),
        False: _("The rules for doubles do not apply on the first turn."),
    },
    "turn.matching_ends": {
        True: _("A tile must match the open end it is laid against; every train starts with the engine's number."),
        False: _("A tile need not match the open end it is laid against."),
    },
    "turn.one_tile": {
        True: _("On every later turn a player lays one tile, unless it is a double."),
        False: _("On later turns a player may lay more than one tile."),
    },
    "turn.own_train_first": {
        True: _("A player who can add to their own train must do so before using any other train."),
        False: _("A player may play on any open train, even when able to add to their own."),
    },
    "turn.marked_trains_open": {
        True: _("Another player's train is open to everyone while it carries its owner's marker."),
        False: _("Another player's train is never open, marker or not."),
    },
    "turn.mexican_open": {
        True: _("The Mexican train is open to every player."),
        False: _("The Mexican train is not open to every player."),
    },
    "turn.must_play": {
        True: _("A player who can play must play."),
        False: _("A player may draw or pass even when able to play."),
    },
    "turn.cannot_play": {
        "draw-one": _("A player who cannot play draws one tile from the boneyard."),
        "marker-no-draw": _("A player who cannot play places a marker without drawing."),
    },
    "turn.drawn_tile_only": {
        True: _("After drawing, only the drawn tile may be played."),
        False: _("After drawing, any tile in the hand may be played."),
    },
    "turn.empty_boneyard_pass": {
        True: _("With the boneyard empty, a player who cannot play passes and marks their own train."),
        False: _("With the boneyard empty, a player who cannot play does not simply pass."),
    },
    "turn.announce_last_tile": {
        True: _("A player with one tile left must announce it."),
        False: _("A player need not announce their last tile."),
    },
    "markers.placed": {
        "on-pass": _("A player's marker goes down when they end a turn without playing."),
        "when-own-train-unplayable": _("A player's marker goes down as soon as they cannot add to their own train."),
    },
    "markers.removed": {
        "owner-plays-own-train": _("A marker is lifted when its owner plays on their own train again."),
    },
    "doubles.play_again": {
        True: _("A player who lays a double plays again."),
        False: _("Laying a double does not give another turn."),
    },
    "doubles.obligation": {
        "none": _("An open double need not be satisfied before play goes on elsewhere."),
        "satisfy": _("An open double must be satisfied before any other train is played."),
    },
    "doubles.follow_up": {
        "any-available-train": _("The tile a player lays after their own double may go on any train open to them."),
        "must-satisfy": _("A player who lays a double must satisfy it with the next tile."),
        "doubles-anywhere-then-satisfy": _("After laying a double, further doubles may go on any open train; the first tile that is not a double must satisfy the double."),
    },
    "doubles.order": {
        "oldest-first": _("Several open doubles are satisfied in the order they were laid."),
        "newest-first": _("Several open doubles are satisfied in reverse order: the last one laid first."),
    },
    "doubles.dead": {
        True: _("A double whose number is all played is dead and no longer restricts play."),
        False: _("There are no dead doubles: a double keeps its effect even when its number is all played."),
    },
    "doubles.branching": {
        "none": _("A double opens one end only: trains do not branch."),
    },
    "round_end.blocked": {
        "ends": _("When the boneyard is empty and nobody can play, the round ends and is scored."),
    },
    "round_end.last_tile_double": {
        True: _("Laying one's last tile ends the round at once, even when it is a double."),
        False: _("Going out on a double does not end the round until the double is satisfied."),
    },
}

# Items of list values, shown as an ordered list after an introducing sentence.
LIST_ITEMS: Mapping[str, Mapping[str, Promise]] = {
    "winner.tie_breaks": {
        "most-zero-rounds": _("the most rounds scored at zero"),
        "lowest-nonzero-round": _("the lowest round total other than zero"),
    },
}

# -- sections of the summary -----------------------------------------------------------------------

GROUPS: tuple[tuple[str, Promise, tuple[str, ...]], ...] = (
    ("setup", pgettext_lazy("summary section", "Setup"), ("players", "setup")),
    ("start", pgettext_lazy("summary section", "The start"), ("engine", "start", "rounds")),
    ("first-turn", pgettext_lazy("summary section", "The first turn"), ("first_turn",)),
    ("turn", pgettext_lazy("summary section", "A normal turn"), ("turn", "markers")),
    ("doubles", pgettext_lazy("summary section", "Doubles"), ("doubles",)),
    ("end", pgettext_lazy("summary section", "End of round and scoring"), ("round_end", "scoring", "winner")),
)
OTHER_GROUP = ("other", pgettext_lazy("summary section", "Other rules"))

STATUS_LABELS: Mapping[str, Promise] = {
    "stated": pgettext_lazy("rule status", "stated"),
    "silent": pgettext_lazy("rule status", "not stated: assumed"),
    "ambiguous": pgettext_lazy("rule status", "ambiguous: reading chosen"),
    "house": pgettext_lazy("rule status", "house rule"),
}

# Kinds that a card shows on its own (players, set) or that are free text: never "traits".
_NOT_TRAITS = (ValueKind.PLAYER_RANGE, ValueKind.DEAL_TABLE, ValueKind.TEXT)
_STATUS_RANK = {Status.STATED: 0, Status.AMBIGUOUS: 1, Status.SILENT: 2, Status.HOUSE: 3}


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


# -- value → HTML ----------------------------------------------------------------------------------


def bdi(value: object) -> SafeString:
    """A value that keeps its left-to-right order inside any text."""
    return format_html('<bdi dir="ltr">{}</bdi>', value)


def interpolate(template: str, **params: object) -> SafeString:
    """Fill a translated %-template; values are escaped and isolated with <bdi>."""
    safe = {k: v if isinstance(v, SafeString) else bdi(v) for k, v in params.items()}
    return mark_safe(escape(template) % safe)


def label(key: str) -> str:
    return str(LABELS.get(key, key))


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
        return format_html('<span lang="en" dir="ltr">{}</span>', value)
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
        items = LIST_ITEMS[key]
        return format_html(
            '{} <ol class="tie-breaks">{}</ol>',
            ngettext(
                "A tie for the lowest total is broken by:",
                "A tie for the lowest total is broken by, in this order:",
                len(value),
            ),
            format_html_join("", "<li>{}</li>", ((items.get(v.value, v.value),) for v in value)),
        )
    sentences = SENTENCES.get(key, {})
    lookup = value.value if isinstance(value, enum.Enum) else value
    if not isinstance(lookup, (list, tuple, dict)) and lookup in sentences:
        return mark_safe(escape(str(sentences[lookup])))
    # A value without a sentence (a new key or enum value): show it plainly rather than fail.
    return interpolate(gettext("%(dimension)s: %(value)s"), dimension=label(key), value=_plain(value))


# -- views of rulesets -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CitationView:
    seed: str
    quote: str
    gloss: str
    language: str
    direction: str

    @property
    def anchor(self) -> str:
        return anchor_for(self.quote)

    @property
    def url(self) -> str:
        """The cited place, in the active language's pages."""
        return f"{reverse('reference:source', args=[self.seed])}#{self.anchor}"


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


def citation_views(ruleset: Ruleset, citations: Iterable[Citation]) -> tuple[CitationView, ...]:
    langs = {s.seed: s for s in ruleset.sources}
    out = []
    for c in citations:
        src = langs.get(c.seed)
        out.append(CitationView(c.seed, c.quote, c.gloss, src.language if src else "", src.direction if src else "ltr"))
    return tuple(out)


@dataclass(frozen=True)
class RuleView:
    ruleset_id: str
    spec: RuleSpec
    rule: Rule
    value: SafeString
    citations: tuple[CitationView, ...]
    base_value: SafeString | None = None
    """When an option changed this rule: the value without the option."""

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
    def status_label(self) -> str:
        return str(STATUS_LABELS.get(self.status, self.status))

    @property
    def cite_groups(self) -> list[CiteGroup]:
        return cite_groups(self.citations)


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
                summary=spec.summary,
                requires=spec.requires,
                conflicts=spec.conflicts,
                citations=citation_views(ruleset, spec.citations),
                changes=changes,
                applied=name in ruleset.options,
                closure=option_closure(ruleset.base, name),
                needed=tuple(n for n in option_closure(ruleset.base, name) if n != name),
            )
        )
    return out


# -- choosing options ------------------------------------------------------------------------------


@dataclass
class Choice:
    """The outcome of asking for a base ruleset with some options."""

    base: str
    options: tuple[str, ...]
    ruleset: Ruleset | None = None
    errors: list[str] = field(default_factory=list)
    suggestion: str | None = None
    """A full id that would work, when the options asked for need others."""


def choose(base_id: str, options: Sequence[str]) -> Choice:
    """Options for a base (which must exist), validated by the loader; each problem worded for the page."""
    wanted = tuple(dict.fromkeys(o for o in options if o))
    choice = Choice(base_id, wanted)
    problems = option_problems(base_id, wanted)
    if not problems:
        choice.ruleset = get_ruleset("+".join((base_id, *wanted)))
        return choice
    choice.errors = [option_problem_text(p) for p in problems]
    working = problems[0].suggestion
    choice.suggestion = working if working != base_id else None
    return choice


def option_problem_text(problem: VariantError) -> str:
    """A problem with the options chosen, worded for the page."""
    p = problem.problem
    if p is OptionProblem.UNKNOWN:
        known = ", ".join(load_base(problem.variant).options) or pgettext("no options", "none")
        return (gettext("The ruleset “%(ruleset)s” has no option “%(option)s”. Its options: %(known)s.")
                % {"ruleset": problem.variant, "option": problem.option, "known": known})
    if p is OptionProblem.REQUIRES:
        return (gettext("The option “%(option)s” only works together with “%(needed)s”.")
                % {"option": problem.option, "needed": problem.needs})
    if p is OptionProblem.CONFLICTS:
        return (gettext("The options “%(option)s” and “%(other)s” cannot be combined.")
                % {"option": problem.option, "other": problem.needs})
    return problem.worded(gettext)


# -- traits that set a ruleset apart ----------------------------------------------------------------


@dataclass(frozen=True)
class Trait:
    view: RuleView
    shared_with: int
    """How many of the other rulesets hold the same value."""


def distinctive_traits(rulesets: Sequence[Ruleset], limit: int = 4, minimum: int = 3) -> dict[str, list[Trait]]:
    """For each ruleset, the rule values that set it apart from the others.

    A value is a trait when fewer than half of the other rulesets hold it. Rarer values come
    first, then stated rules before ambiguous and silent ones; at most one trait per section
    until every section has had its turn, so a card shows different aspects of the game.
    """
    out: dict[str, list[Trait]] = {}
    order = {s.key: i for i, s in enumerate(RULE_SPECS)}
    for rs in rulesets:
        others = [o for o in rulesets if o.id != rs.id]
        candidates: list[tuple[tuple[int, int, int], str, int]] = []
        for spec in RULE_SPECS:
            if spec.kind in _NOT_TRAITS:
                continue
            value = rs.rule(spec.key).value
            shared = sum(1 for o in others if o.rule(spec.key).value == value)
            if shared < len(others):
                rank = (shared, _STATUS_RANK[rs.rule(spec.key).status], order[spec.key])
                candidates.append((rank, spec.key, shared))
        candidates.sort()
        strict = [c for c in candidates if c[2] * 2 < len(others)]
        pool = strict if len(strict) >= minimum else candidates
        picked: list[tuple[tuple[int, int, int], str, int]] = []
        sections: set[str] = set()
        for c in pool:
            if len(picked) < limit and SPEC_BY_KEY[c[1]].section not in sections:
                picked.append(c)
                sections.add(SPEC_BY_KEY[c[1]].section)
        for c in pool:
            if len(picked) < limit and c not in picked:
                picked.append(c)
        picked.sort(key=lambda c: order[c[1]])
        out[rs.id] = [Trait(rule_view(rs, key), shared) for _, key, shared in picked]
    return out


def set_sizes(ruleset: Ruleset) -> list[int]:
    return sorted({row.set_max for row in ruleset.flags.setup_deal})


# -- who says what ---------------------------------------------------------------------------------


@dataclass
class ValueGroup:
    value: SafeString
    holders: list[RuleView]


def who_says(key: str, compact: bool = True) -> list[ValueGroup]:
    """The values the rulesets hold for one dimension, and who holds each.

    Every base ruleset is listed; a ruleset with options only where an option changes the value.
    """
    groups: list[tuple[Any, ValueGroup]] = []
    for ident in option_ids():
        rs = get_ruleset(ident)
        value = rs.rule(key).value
        if rs.options and value == load_base(rs.base).rules[key].value:
            continue
        view = rule_view(rs, key, compact=compact)
        for held, group in groups:
            if held == value:
                group.holders.append(view)
                break
        else:
            groups.append((value, ValueGroup(view.value, [view])))
    return [g for _, g in groups]


def base_rulesets() -> tuple[Ruleset, ...]:
    return all_rulesets()
