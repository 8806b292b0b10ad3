"""Who says what: the values the rulesets give one rule, and which rulesets hold each."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.safestring import SafeString

from rules.ruleset import (
    Ruleset,
)
from variants.loader import (
    all_rulesets,
    get_ruleset,
    load_base,
    option_ids,
)

from .rule_views import RuleView, rule_view


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
