"""Load the ruleset files once per process and combine variants with their options.

``get_ruleset("masters+mandatory-doubles")`` returns a frozen :class:`rules.ruleset.Ruleset`.
Option order in an id does not matter: ids are canonicalised to the order in which the
file declares its options, so the same ruleset always has the same id.
"""

from __future__ import annotations

import functools
from pathlib import Path
from types import MappingProxyType

from rules.messages import Message
from rules.ruleset import Rule, Ruleset

from .schema import BaseVariant, RulesetFileError, flags_from, parse_variant

VARIANTS_DIR = Path(__file__).resolve().parent
SOURCES_DIR = VARIANTS_DIR / "sources"
MAX_OPTIONS = 8


class UnknownVariantError(ValueError):
    """An id that names no ruleset, or options that cannot be combined."""


def _display(path: Path) -> str:
    try:
        return str(path.relative_to(VARIANTS_DIR.parent))
    except ValueError:
        return str(path)


def load_file(path: Path) -> BaseVariant:
    return parse_variant(path.read_text(encoding="utf-8"), _display(path), path.stem)


@functools.cache
def base_ids() -> tuple[str, ...]:
    """Every ruleset file's id, in the order of their first source (the seed number)."""
    return tuple(v.id for v in sorted(_all_bases(), key=lambda v: (v.sources[0].seed, v.id)))


@functools.cache
def _all_bases() -> tuple[BaseVariant, ...]:
    return tuple(load_base(p.stem) for p in sorted(VARIANTS_DIR.glob("*.yaml")))


@functools.cache
def file_ids() -> frozenset[str]:
    """The id of every ruleset file: an id is checked against these before any file is opened
    (an id is user input, and may be longer than a file name may be)."""
    return frozenset(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


def load_base(ident: str) -> BaseVariant:
    if ident not in file_ids():
        known = ", ".join(sorted(file_ids()))
        shown = ident if len(ident) <= 40 else ident[:40] + "…"
        raise UnknownVariantError(Message("unknown variant {variant}; known variants: {known}",
                                          variant=repr(shown), known=known))
    return _load_base(ident)


@functools.cache
def _load_base(ident: str) -> BaseVariant:
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


@functools.lru_cache(maxsize=256)
def get_ruleset(full_id: str) -> Ruleset:
    """The ruleset for ``base`` or ``base+option+option``; raises UnknownVariantError."""
    base_id, chosen = split_id(full_id)
    base = load_base(base_id)
    if len(chosen) > MAX_OPTIONS:
        raise UnknownVariantError(Message("too many options in {variant} (at most {limit})", variant=repr(full_id),
                                          limit=MAX_OPTIONS))
    for name in chosen:
        if name not in base.options:
            known = ", ".join(base.options) or "none"
            raise UnknownVariantError(Message("{variant} has no option {option}; its options: {known}",
                                              variant=repr(base_id), option=repr(name), known=known))
        if chosen.count(name) > 1:
            raise UnknownVariantError(Message("option {option} is given twice in {variant}", option=repr(name),
                                              variant=repr(full_id)))
    for name in chosen:
        spec = base.options[name]
        for needed in spec.requires:
            if needed not in chosen:
                raise UnknownVariantError(Message("option {option} of {variant} requires {needed}: use {suggestion}",
                                                  option=repr(name), variant=repr(base_id), needed=repr(needed),
                                                  suggestion=f"{base_id}+{needed}+{name}"))
        for other in spec.conflicts:
            if other in chosen:
                raise UnknownVariantError(Message("option {option} of {variant} cannot be combined with {other}",
                                                  option=repr(name), variant=repr(base_id), other=repr(other)))
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
        raise UnknownVariantError(f"unknown source {seed[:60]!r}")
    return (SOURCES_DIR / seed).read_text(encoding="utf-8")
