"""Choosing options for a ruleset: which combinations can be applied, and the messages (in the
reader's language) for those that cannot, with a combination that works.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext, pgettext

from mextrain_site.core.i18n import option_label, ruleset_name
from rules.ruleset import (
    Ruleset,
)
from variants.loader import (
    OptionProblem,
    RulesetError,
    get_ruleset,
    load_base,
    option_problems,
)


@dataclass
class Choice:
    """The outcome of asking for a base ruleset with some options."""

    base: str
    options: tuple[str, ...]
    ruleset: Ruleset | None = None
    errors: list[str] = field(default_factory=list)
    suggestion: str | None = None
    """A full id that would work, when the options asked for need others."""
    suggestion_name: str = ""
    """That ruleset as a player names it."""


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
    choice.suggestion_name = ruleset_name(get_ruleset(working)) if choice.suggestion else ""
    return choice


def option_problem_text(problem: RulesetError) -> str:
    """A problem with the options chosen, worded for the page."""
    p = problem.problem
    base = get_ruleset(problem.variant)

    def named(option: str) -> str:
        return option_label(base, option)

    if p is OptionProblem.UNKNOWN:  # the option as it was asked for (it names nothing), the others by name
        known = ", ".join(map(named, load_base(problem.variant).options)) or pgettext("no options", "none")
        return (gettext("The ruleset “%(ruleset)s” has no option “%(option)s”. Its options: %(known)s.")
                % {"ruleset": ruleset_name(base), "option": problem.option, "known": known})
    if p is OptionProblem.REQUIRES:
        return (gettext("The option “%(option)s” only works together with “%(needed)s”.")
                % {"option": named(problem.option), "needed": named(problem.needs)})
    if p is OptionProblem.CONFLICTS:
        return (gettext("The options “%(option)s” and “%(other)s” cannot be combined.")
                % {"option": named(problem.option), "other": named(problem.needs)})
    return problem.worded(gettext)
