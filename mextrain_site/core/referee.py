"""The glue every front end shares (CLI, API, pages): text in, rulesets chosen, answer out.

It decides no rule: it parses, picks the rulesets, and calls the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.answer import Detail, Encode, Translate, answer, answer_bytes
from rules.errors import ErrorCode, InputError
from rules.limits import MAX_WORK, checked_set, work
from rules.messages import Message
from rules.position import ImpossiblePositionError, MissingLineError, Position
from rules.ruleset import Ruleset
from variants.loader import RulesetError, all_rulesets

from .rulesets import resolve


@dataclass(frozen=True)
class Request:
    position: Position
    rulesets: tuple[Ruleset, ...]


def parse(text: str, variants: Sequence[str] | None = None, max_work: int = MAX_WORK,
          given: Sequence[Ruleset] = ()) -> Request:
    """Parse a position and choose its rulesets: ``variants`` overrides the text's ``variant:``;
    ``given`` rulesets (the CLI's ``--rules FILE.yaml``) are judged under too, and alone override it.
    A request asking for more than ``max_work`` judgements is refused (rules.limits)."""
    try:  # a text longer than MAX_TEXT is refused first (too-large), by Position.parse
        position = Position.parse(text)
    except MissingLineError as exc:
        if exc.partial is not None:  # errors at an exact place (a pip above the set) come first
            refuse_what_no_ruleset_admits(exc.partial, choose_rulesets(exc.partial, variants, given))
        raise
    rulesets = choose_rulesets(position, variants, given)
    refuse_what_no_ruleset_admits(position, rulesets)
    bound_the_work(position, rulesets, max_work)
    return Request(position, rulesets)


def refuse_what_no_ruleset_admits(position: Position, rulesets: Sequence[Ruleset]) -> None:
    """Bad input when a pip (or the round) is beyond the set, or a hand beyond the deal, under
    every ruleset judged: without 'set:' the set is each ruleset's own default, so where the
    rulesets differ, each answers for itself."""
    errors = []
    for rs in rulesets:
        try:
            checked_set(position, rs)
        except ImpossiblePositionError as exc:
            errors.append(exc)
    if errors and len(errors) == len(rulesets):
        raise errors[0]


def bound_the_work(position: Position, rulesets: Sequence[Ruleset], limit: int = MAX_WORK) -> None:
    """Refuse, before judging anything, a request that asks for more than ``limit`` judgements."""
    asked = work(position, len(rulesets))
    if asked.total > limit:
        raise InputError(Message("this asks for {total} judgements ({rulesets} rulesets × ({candidates} candidate "
                               "actions + {moves} moves)); at most {limit} are made per request: judge fewer "
                               "rulesets, or give a smaller hand or fewer moves",
                               total=asked.total, rulesets=asked.rulesets, candidates=asked.candidates,
                               moves=asked.moves, limit=limit), code=ErrorCode.TOO_LARGE)


def choose_rulesets(position: Position, variants: Sequence[str] | None,
                    given: Sequence[Ruleset] = ()) -> tuple[Ruleset, ...]:
    where: tuple[int | None, int | None]
    if given and not variants:
        return tuple({rs.id: rs for rs in given}.values())
    if variants:
        ids, where = list(variants), (None, None)
    elif position.variant:
        ids, where = [position.variant], position.variant_at
    else:
        return all_rulesets()
    out = []
    for ident in ids:
        try:
            out.append(resolve(ident))
        except RulesetError as exc:
            line, column = where
            if not line:
                raise
            raise InputError(exc.message, line, column, exc.code) from None
    # One entry per canonical id, in the order given (a Ruleset holds mappings: not hashable).
    return tuple({rs.id: rs for rs in (*out, *given)}.values())


def adjudicate(text: str, variants: Sequence[str] | None = None, translate: Translate | None = None,
               detail: Detail = Detail.FULL, given: Sequence[Ruleset] = ()) -> dict[str, Any]:
    request = parse(text, variants, given=given)
    return answer(request.position, request.rulesets, translate, detail)


def adjudicate_bytes(text: str, encode: Encode, variants: Sequence[str] | None = None,
                     translate: Translate | None = None, detail: Detail = Detail.FULL) -> bytes:
    """``encode(adjudicate(...))``, assembled from encoded fragments (rules.answer.answer_bytes): the API's answer."""
    request = parse(text, variants)
    return answer_bytes(request.position, request.rulesets, encode, translate, detail)
