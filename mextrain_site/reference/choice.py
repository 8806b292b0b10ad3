"""Choosing options for a ruleset: which combinations can be applied, and the messages (in the
reader's language) for those that cannot, with a combination that works.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext, pgettext

from rules.ruleset import (
    Ruleset,
)
from variants.loader import (
    get_ruleset,
    load_base,
    option_closure,
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


def choose(base_id: str, options: Sequence[str]) -> Choice:
    """Validate options for a base (which must exist); translated messages for each problem."""
    base = load_base(base_id)
    wanted = tuple(dict.fromkeys(o for o in options if o))
    choice = Choice(base_id, wanted)
    known = ", ".join(base.options) or pgettext("no options", "none")
    for name in wanted:
        if name not in base.options:
            choice.errors.append(
                gettext("The ruleset “%(ruleset)s” has no option “%(option)s”. Its options: %(known)s.")
                % {"ruleset": base_id, "option": name, "known": known}
            )
    valid = [n for n in wanted if n in base.options]
    for name in valid:
        for needed in base.options[name].requires:
            if needed not in valid:
                choice.errors.append(
                    gettext("The option “%(option)s” only works together with “%(needed)s”.")
                    % {"option": name, "needed": needed}
                )
        for other in base.options[name].conflicts:
            if other in valid and valid.index(other) > valid.index(name):
                choice.errors.append(
                    gettext("The options “%(option)s” and “%(other)s” cannot be combined.") % {"option": name, "other": other}
                )
    if choice.errors:
        closure: list[str] = []
        for name in valid:
            closure.extend(option_closure(base_id, name))
        ordered = [n for n in base.options if n in closure]
        if ordered and not any(o in ordered for n in ordered for o in base.options[n].conflicts):
            choice.suggestion = "+".join((base_id, *ordered))
        return choice
    try:
        choice.ruleset = get_ruleset("+".join((base_id, *valid)))
    except ValueError as exc:  # anything the loader refuses that was not caught above
        choice.errors.append(str(exc))
    return choice
