"""The glue every front end shares (CLI, API, pages): text in, rulesets chosen, answer out.

It decides no rule: it parses, picks the rulesets, and calls the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.answer import Translate, answer
from rules.position import MAX_TEXT, Position, PositionError
from rules.ruleset import Ruleset
from variants.loader import UnknownVariantError, all_rulesets, get_ruleset


class BadInput(ValueError):
    """Input that cannot be judged: the message says where and what was expected."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None, code: str = "syntax") -> None:
        super().__init__(message)
        self.message, self.line, self.column, self.code = message, line, column, code

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "line": self.line, "column": self.column}


@dataclass(frozen=True)
class Request:
    position: Position
    rulesets: tuple[Ruleset, ...]


def parse(text: str, variants: Sequence[str] | None = None) -> Request:
    """Parse a position and choose its rulesets: ``variants`` overrides the text's ``variant:``."""
    if len(text) > MAX_TEXT:
        raise BadInput(f"the position is {len(text)} characters long; at most {MAX_TEXT} are accepted", code="too-large")
    try:
        position = Position.parse(text)
    except PositionError as exc:
        raise BadInput(str(exc), exc.line, exc.column, exc.code) from None
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
        except UnknownVariantError as exc:
            line, column = where
            prefix = f"line {line}, column {column}: " if line else ""
            raise BadInput(prefix + str(exc), line, column, "unknown-variant") from None
    # One entry per canonical id, in the order given (a Ruleset holds mappings: not hashable).
    return tuple({rs.id: rs for rs in out}.values())


def adjudicate(text: str, variants: Sequence[str] | None = None, translate: Translate | None = None) -> dict[str, Any]:
    request = parse(text, variants)
    return answer(request.position, request.rulesets, translate)
