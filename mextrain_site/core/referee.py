"""The glue every front end shares (CLI, API, pages): text in, rulesets chosen, answer out.

It decides no rule: it parses, picks the rulesets, and calls the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.answer import Detail, Translate, answer
from rules.errors import ErrorCode, InputError
from rules.messages import Message
from rules.position import MAX_TEXT, Position
from rules.ruleset import Ruleset
from variants.loader import VariantError, all_rulesets, get_ruleset

BadInput = InputError
"""Input that cannot be judged: the one input-error type (rules.errors)."""


@dataclass(frozen=True)
class Request:
    position: Position
    rulesets: tuple[Ruleset, ...]


def parse(text: str, variants: Sequence[str] | None = None) -> Request:
    """Parse a position and choose its rulesets: ``variants`` overrides the text's ``variant:``."""
    if len(text) > MAX_TEXT:
        raise InputError(Message("the position is {length} characters long; at most {limit} are accepted",
                                 length=len(text), limit=MAX_TEXT), code=ErrorCode.TOO_LARGE)
    position = Position.parse(text)
    return Request(position, choose_rulesets(position, variants))


def choose_rulesets(position: Position, variants: Sequence[str] | None) -> tuple[Ruleset, ...]:
    where: tuple[int | None, int | None]
    if variants:
        ids, where = list(variants), (None, None)
    elif position.variant:
        ids, where = [position.variant], position.variant_at
    else:
        return all_rulesets()
    out = []
    for ident in ids:
        try:
            out.append(get_ruleset(ident))
        except VariantError as exc:
            line, column = where
            if not line:
                raise
            raise InputError(exc.message, line, column, exc.code) from None
    # One entry per canonical id, in the order given (a Ruleset holds mappings: not hashable).
    return tuple({rs.id: rs for rs in out}.values())


def adjudicate(text: str, variants: Sequence[str] | None = None, translate: Translate | None = None,
               detail: Detail = Detail.FULL) -> dict[str, Any]:
    request = parse(text, variants)
    return answer(request.position, request.rulesets, translate, detail)
