"""Load the ruleset files once per process and combine variants with their options.

``get_ruleset("masters+mandatory-doubles")`` returns a frozen :class:`rules.ruleset.Ruleset`.
Option order in an id does not matter: ids are canonicalised to the order in which the
file declares its options, so the same ruleset always has the same id.
"""

from __future__ import annotations

import enum
import functools
import sys
from collections.abc import Sequence
from pathlib import Path
from types import MappingProxyType

from rules.errors import ErrorCode, InputError
from rules.messages import Message
from rules.ruleset import Rule, Ruleset

from .schema import BaseRuleset, RulesetFileError, flags_from, parse_ruleset_file

VARIANTS_DIR = Path(__file__).resolve().parent
SOURCES_DIR = VARIANTS_DIR / "sources"
MAX_OPTIONS = 8


class OptionProblem(enum.Enum):
    """Why options cannot be combined (or, for UNKNOWN, why an option names nothing)."""

    UNKNOWN = "unknown"
    GIVEN_TWICE = "given-twice"
    TOO_MANY = "too-many"
    REQUIRES = "requires"
    CONFLICTS = "conflicts"


class RulesetError(InputError):
    """An id that names no ruleset file (``problem`` None), or options that cannot be combined.

    ``code`` is ``unknown-variant`` (a file or option that does not exist) or
    ``impossible-options``; ``option`` is the option at fault, ``needs`` the option it requires
    or conflicts with, ``suggestion`` the id of a combination that works (when there is one).
    Front ends word it from these fields or print ``message``."""

    def __init__(self, message: str, *, code: ErrorCode, variant: str, problem: OptionProblem | None = None,
                 option: str = "", needs: str = "", suggestion: str = "") -> None:
        super().__init__(message, code=code)
        self.variant, self.problem, self.option, self.needs, self.suggestion = variant, problem, option, needs, suggestion


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(VARIANTS_DIR.parent))
    except ValueError:
        return str(path)


def load_file(path: Path) -> BaseRuleset:
    return parse_ruleset_file(path.read_text(encoding="utf-8"), _display(path), path.stem)


@functools.cache
def base_ids() -> tuple[str, ...]:
    """Every ruleset file's id, in the order of their first source (the seed number)."""
    return tuple(v.id for v in sorted(_all_bases(), key=lambda v: (v.sources[0].seed, v.id)))


@functools.cache
def _all_bases() -> tuple[BaseRuleset, ...]:
    return tuple(load_base(p.stem) for p in sorted(VARIANTS_DIR.glob("*.yaml")))


@functools.cache
def file_ids() -> frozenset[str]:
    """The id of every ruleset file: an id is checked against these before any file is opened
    (an id is user input, and may be longer than a file name may be)."""
    return frozenset(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


def load_base(ident: str) -> BaseRuleset:
    if ident not in file_ids():
        known = ", ".join(sorted(file_ids()))
        shown = ident if len(ident) <= 40 else ident[:40] + "…"
        raise RulesetError(Message("unknown variant {variant}; known variants: {known}", variant=repr(shown), known=known),
                           code=ErrorCode.UNKNOWN_VARIANT, variant=ident)
    return _load_base(ident)


@functools.cache
def _load_base(ident: str) -> BaseRuleset:
    return load_file(VARIANTS_DIR / f"{ident}.yaml")


def check_files() -> list[RulesetFileError]:
    """Validate every ruleset file afresh (no cache): the errors found."""
    errors = []
    for path in sorted(VARIANTS_DIR.glob("*.yaml")):
        try:
            load_file(path)
        except RulesetFileError as exc:
            errors.append(exc)
    return errors


def split_id(full_id: str) -> tuple[str, tuple[str, ...]]:
    base, *options = full_id.strip().split("+")
    return base.strip(), tuple(o.strip() for o in options)


def option_problems(base_id: str, chosen: Sequence[str]) -> tuple[RulesetError, ...]:
    """Every reason the options ``chosen`` cannot be applied to the ruleset file ``base_id`` (which
    must exist), in the order of ``chosen``: the one place options are validated."""
    base = load_base(base_id)
    full_id = "+".join((base_id, *chosen))
    working = working_combination(base_id, chosen)
    if len(chosen) > MAX_OPTIONS:
        return (RulesetError(Message("too many options in {variant} (at most {limit})", variant=repr(full_id),
                                     limit=MAX_OPTIONS),
                             code=ErrorCode.IMPOSSIBLE_OPTIONS, variant=base_id, problem=OptionProblem.TOO_MANY,
                             suggestion=working),)
    out = []
    known = ", ".join(base.options) or "none"
    for i, name in enumerate(chosen):
        if name not in base.options:
            out.append(RulesetError(Message("{variant} has no option {option}; its options: {known}",
                                            variant=repr(base_id), option=repr(name), known=known),
                                    code=ErrorCode.UNKNOWN_VARIANT, variant=base_id, problem=OptionProblem.UNKNOWN,
                                    option=name, suggestion=working))
        elif name in chosen[:i]:
            out.append(RulesetError(Message("option {option} is given twice in {variant}", option=repr(name),
                                            variant=repr(full_id)),
                                    code=ErrorCode.IMPOSSIBLE_OPTIONS, variant=base_id,
                                    problem=OptionProblem.GIVEN_TWICE, option=name, suggestion=working))
    valid = [n for n in dict.fromkeys(chosen) if n in base.options]
    for name in valid:
        spec = base.options[name]
        for needed in spec.requires:
            if needed not in valid:
                out.append(RulesetError(Message("option {option} of {variant} requires {needed}: use {suggestion}",
                                                option=repr(name), variant=repr(base_id), needed=repr(needed),
                                                suggestion=working),
                                        code=ErrorCode.IMPOSSIBLE_OPTIONS, variant=base_id,
                                        problem=OptionProblem.REQUIRES, option=name, needs=needed, suggestion=working))
        for other in spec.conflicts:
            if other in valid and valid.index(other) > valid.index(name):
                out.append(RulesetError(Message("option {option} of {variant} cannot be combined with {other}",
                                                option=repr(name), variant=repr(base_id), other=repr(other)),
                                        code=ErrorCode.IMPOSSIBLE_OPTIONS, variant=base_id,
                                        problem=OptionProblem.CONFLICTS, option=name, needs=other,
                                        suggestion=working))
    return tuple(out)


def working_combination(base_id: str, chosen: Sequence[str]) -> str:
    """The canonical id of a combination that works and keeps what it can of ``chosen``: the
    known options with every option they need, minus any that conflicts with one kept before it."""
    base = load_base(base_id)
    wanted: set[str] = set()
    for name in chosen:
        if name in base.options:
            wanted.update(option_closure(base_id, name))
    kept: list[str] = []
    for name in base.options:
        if name in wanted and not any(name in base.options[k].conflicts or k in base.options[name].conflicts
                                      for k in kept):
            kept.append(name)
    kept = [n for n in kept if all(r in kept for r in option_closure(base_id, n))]
    return "+".join((base_id, *kept))


@functools.lru_cache(maxsize=256)
def get_ruleset(full_id: str) -> Ruleset:
    """The ruleset for ``base`` or ``base+option+option``; raises RulesetError (the first problem)."""
    base_id, chosen = split_id(full_id)
    base = load_base(base_id)
    problems = option_problems(base_id, chosen)
    if problems:
        raise problems[0]
    ordered = tuple(name for name in base.options if name in chosen)
    canonical = "+".join((base_id, *ordered))
    if canonical != full_id:
        return get_ruleset(canonical)
    rules: dict[str, Rule] = dict(base.rules)
    for name in ordered:
        rules.update(base.options[name].changes)
    frozen = MappingProxyType(rules)
    return Ruleset(
        id=canonical,
        base=base_id,
        title=base.title,
        publisher=base.publisher,
        sources=base.sources,
        rules=frozen,
        flags=flags_from(frozen),
        options=ordered,
        available_options=base.options,
    )


def all_rulesets() -> tuple[Ruleset, ...]:
    """The base rulesets, without options."""
    return tuple(get_ruleset(i) for i in base_ids())


def option_ids() -> tuple[str, ...]:
    """Every base id, and every base with each single option (plus what it requires)."""
    out = []
    for ident in base_ids():
        base = load_base(ident)
        out.append(ident)
        for name in base.options:
            out.append(get_ruleset("+".join((ident, *option_closure(ident, name)))).id)
    return tuple(dict.fromkeys(out))


def option_closure(base_id: str, name: str) -> tuple[str, ...]:
    """The option with every option it needs, directly or not, in the file's order."""
    base = load_base(base_id)
    seen: list[str] = []

    def visit(n: str) -> None:
        for req in base.options[n].requires:
            visit(req)
        if n not in seen:
            seen.append(n)

    visit(name)
    return tuple(n for n in base.options if n in seen)


@functools.cache
def seed_names() -> frozenset[str]:
    """The file name of every source text: a name is checked against these before any file is opened."""
    return frozenset(p.name for p in SOURCES_DIR.iterdir() if p.is_file())


def seed_text(seed: str) -> str:
    if seed not in seed_names():
        raise RulesetError(f"unknown source {seed[:60]!r}", code=ErrorCode.NOT_FOUND, variant="")
    return (SOURCES_DIR / seed).read_text(encoding="utf-8")


def read_text(name: str, limit: int) -> str:
    """A local file (``-``: standard input) as UTF-8 text, at most ``limit`` bytes: the front ends'
    one way to read what a user names (the CLIs' position and house ruleset files).
    Raises InputError (``io``, ``too-large``, ``encoding``) with one line naming the file."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read(limit + 1)
        else:
            with open(name, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise InputError(f"cannot read {name!r}: {exc.strerror}", code=ErrorCode.IO) from None
    if len(data) > limit:
        raise InputError(f"{name!r} is larger than {limit} bytes", code=ErrorCode.TOO_LARGE)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name!r} is not UTF-8 text (byte {exc.start + 1})", code=ErrorCode.ENCODING) from None
