"""The JSON answer of the spec, built from a position and the rulesets to judge it under."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .judge import Judgement, Replay, explain, implicit_done, judge_all, replay
from .messages import word
from .moves import Move
from .position import ImpossiblePositionError, Position
from .reasons import Reason, ReasonCode
from .ruleset import Ruleset
from .scoring import round_scores
from .state import State, build


class Wording(Protocol):
    """How reasons are worded for a reader: sentence templates, train names and the free texts
    of the ruleset files (a citation's gloss and remark)."""

    def template(self, code: ReasonCode) -> str: ...

    def train_label(self, name: str) -> str: ...

    def text(self, english: str) -> str: ...


Translate = Wording


@dataclass(frozen=True)
class Ruling:
    """Everything judged for one ruleset: the replay, the check and every candidate."""

    ruleset: Ruleset
    replay: Replay
    state: State
    check: Judgement | None
    actions: tuple[Judgement, ...]

    @property
    def scores(self) -> dict[str, int] | None:
        return round_scores(self.state)


def rule(position: Position, ruleset: Ruleset) -> Ruling:
    """Replay the position's moves and judge every candidate action under ``ruleset``.

    Raises ImpossiblePositionError when the position cannot arise under this ruleset."""
    start = build(position, ruleset)
    result = replay(start, position.moves)
    state = result.state
    check = None
    if position.check is not None:
        checked = implicit_done(state, position.check)
        check = Judgement(position.check, explain(checked, position.check))
    return Ruling(ruleset, result, state, check, judge_all(state) if not state.round_over else ())


class _Writer:
    """Builds one ruleset's part of the answer. A reason recurs across many actions (the same
    train is closed to every tile), so each distinct reason's JSON is built once and shared."""

    def __init__(self, ruleset: Ruleset, translate: Translate | None) -> None:
        self.ruleset = ruleset
        self.translate = translate
        self.memo: dict[Reason, dict[str, Any]] = {}
        self.cites: dict[str | None, list[dict[str, str]]] = {}

    def reason(self, r: Reason) -> dict[str, Any]:
        found = self.memo.get(r)
        if found is None:
            key = r.rule_key
            cites = self.cites.get(key)
            if cites is None:
                cites = self.cites[key] = citations_json(self.ruleset, key, self.translate)
            found = self.memo[r] = reason_json(r, self.ruleset, self.translate, cites)
        return found

    def judgement(self, j: Judgement) -> dict[str, Any]:
        return {"move": str(j.move), "legal": j.legal, "reasons": [self.reason(r) for r in j.reasons]}


def citations_json(ruleset: Ruleset, key: str | None, translate: Translate | None = None) -> list[dict[str, str]]:
    cites = [dict(c) for c in ruleset.citations_json.get(key or "", ())]
    if translate is not None:
        for c in cites:
            c.update((field, translate.text(c[field])) for field in ("gloss", "remark") if field in c)
    return cites


def reason_json(r: Reason, ruleset: Ruleset, translate: Translate | None = None,
                citations: list[dict[str, str]] | None = None) -> dict[str, Any]:
    return {
        "code": r.code.value,
        "blocks": r.blocks,
        "text": r.text(translate.template(r.code), translate.train_label) if translate else r.text(),
        "rule": r.rule_key,
        "citations": citations if citations is not None else citations_json(ruleset, r.rule_key, translate),
    }


def judgement_json(j: Judgement, ruleset: Ruleset, translate: Translate | None = None) -> dict[str, Any]:
    return _Writer(ruleset, translate).judgement(j)


def ruling_json(ruling: Ruling, translate: Translate | None = None) -> dict[str, Any]:
    """One ruleset's entry of the answer. Equal reasons share one (read-only) dict."""
    rs, state, rep = ruling.ruleset, ruling.state, ruling.replay
    w = _Writer(rs, translate)
    replay_json: dict[str, Any] = {"ok": rep.ok, "moves_applied": rep.applied}
    if rep.failed is not None:
        replay_json["failed"] = {
            "move": str(rep.failed.move),
            "line": rep.failed.line,
            "reasons": [w.reason(r) for r in rep.reasons],
        }
    return {
        "replay": replay_json,
        "to_move": state.player,
        "phase": state.phase.value,
        "set": f"double-{state.set_max}",
        "open_doubles": [state.train_name(i) for i in state.open_doubles],
        "check": w.judgement(ruling.check) if ruling.check is not None else None,
        "actions": [w.judgement(j) for j in ruling.actions],
        "round_over": state.round_over,
        "scores": ruling.scores,
        "notes": [word(note, translate.text) for note in state.notes] if translate else list(state.notes),
    }


def answer(position: Position, rulesets: Sequence[Ruleset], translate: Translate | None = None) -> dict[str, Any]:
    """The spec's JSON answer: one entry per ruleset id, in the order given."""
    out: dict[str, Any] = {}
    for rs in rulesets:
        try:
            out[rs.id] = ruling_json(rule(position, rs), translate)
        except ImpossiblePositionError as exc:
            out[rs.id] = {"error": exc.as_dict()}
    return {"variants": out}


__all__ = ["Ruling", "answer", "rule", "ruling_json", "Move"]
