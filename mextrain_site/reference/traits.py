"""The rules that set a ruleset apart from the others, for the cards of the rulesets page."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.ruleset import (
    RULE_SPECS,
    SPEC_BY_KEY,
    Ruleset,
    Status,
    ValueKind,
)

from .rule_views import RuleView, rule_view

_NOT_TRAITS = (ValueKind.PLAYER_RANGE, ValueKind.DEAL_TABLE, ValueKind.TEXT)
_STATUS_RANK = {Status.STATED: 0, Status.AMBIGUOUS: 1, Status.SILENT: 2, Status.HOUSE: 3}




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
