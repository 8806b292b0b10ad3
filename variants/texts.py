"""The free texts of the ruleset files: what a translator words in every language.

Titles, option labels and summaries, free-text rule values (equipment), notes, readings, alternatives, and
each citation's gloss and translator's remark are English prose written in ``variants/*.yaml``.
:func:`free_texts` lists each distinct one with the places it is written; the web layer puts them
in the gettext catalogues (``python manage.py ruleset_messages``, part of ``make messages``) and
words them through gettext. Quotes are not listed: a quote is the source's own words.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.ruleset import SPEC_BY_KEY, Citation, Rule, ValueKind

from .loader import base_ids, load_base


@dataclass(frozen=True)
class FreeText:
    text: str
    places: tuple[str, ...]
    """Where it is written: ``howto.yaml rules.engine.missing.cite[1].gloss``."""


def _citations(where: str, citations: Iterable[Citation]) -> Iterator[tuple[str, str]]:
    for i, c in enumerate(citations):
        yield c.gloss, f"{where}.cite[{i}].gloss"
        if c.remark:
            yield c.remark, f"{where}.cite[{i}].remark"


def _rule(where: str, rule: Rule) -> Iterator[tuple[str, str]]:
    if SPEC_BY_KEY[rule.key].kind is ValueKind.TEXT:
        yield rule.value, f"{where}.value"
    yield from _citations(where, rule.citations)
    for name in ("note", "reading", "alternative"):
        text = getattr(rule, name)
        if text:
            yield text, f"{where}.{name}"


def _file_texts(ident: str) -> Iterator[tuple[str, str]]:
    base = load_base(ident)
    file = f"{ident}.yaml"
    yield base.title, f"{file} title"
    for key, rule in base.rules.items():
        yield from _rule(f"{file} rules.{key}", rule)
    for name, option in base.options.items():
        where = f"{file} options.{name}"
        yield option.label, f"{where}.label"
        yield option.summary, f"{where}.summary"
        yield from _citations(where, option.citations)
        for key, rule in option.changes.items():
            yield from _rule(f"{where}.changes.{key}", rule)


def free_texts() -> tuple[FreeText, ...]:
    """Every distinct free text of every ruleset file, in file order, with its places."""
    places: dict[str, list[str]] = {}
    for ident in base_ids():
        for text, where in _file_texts(ident):
            places.setdefault(text, []).append(where)
    return tuple(FreeText(text, tuple(where)) for text, where in places.items())
