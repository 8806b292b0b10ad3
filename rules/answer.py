"""The JSON answer of the spec, built from a position and the rulesets to judge it under."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .explain import Judgement, dispute_reasons, explain, judge_all
from .moves import Move
from .position import SCORE, ImpossiblePositionError, Position
from .reasons import Reason, ReasonCode
from .replay import Replay, implicit_done, replay
from .ruleset import Ruleset
from .scoring import Count, count_hands, round_scores
from .state import State, build


class Wording(Protocol):
    """How the answer is worded for a reader: sentence templates, train names, engine messages."""

    def template(self, code: ReasonCode) -> str: ...

    def train_label(self, name: str) -> str: ...

    def message(self, text: str) -> str:
        """A rules.messages.Message (a note, an error) in the reader's language."""
        ...


Translate = Wording


class Detail(enum.Enum):
    """How much an answer holds and how: every candidate action with its reasons written out (the
    spec's shape); every candidate action naming its reasons by index in the answer's shared
    ``reasons`` list (an extension: a fraction of the size); or only the check (and scores)."""

    FULL = "full"
    COMPACT = "compact"
    CHECK = "check"

    @property
    def actions(self) -> bool:
        return self is not Detail.CHECK


@dataclass(frozen=True)
class Ruling:
    """Everything judged for one ruleset: the replay, the check and every candidate."""

    ruleset: Ruleset
    replay: Replay
    state: State
    check: Judgement | None
    actions: tuple[Judgement, ...]
    count: Count | None = None
    """The answer to ``check: score``."""
    to_move: str | None = None
    """The player to move; None when the position names none (a scoring question)."""

    @property
    def scores(self) -> dict[str, int] | None:
        return dict(self.count.scores) if self.count is not None else round_scores(self.state)


def rule(position: Position, ruleset: Ruleset, detail: Detail = Detail.FULL) -> Ruling:
    """Replay the position's moves and judge every candidate action under ``ruleset`` (with
    ``Detail.CHECK``, only the checked move). A position without a ``turn`` (a scoring question)
    has no candidates.

    Raises ImpossiblePositionError when the position cannot arise under this ruleset."""
    start = build(position, ruleset)
    result = replay(start, position.moves)
    state = result.state
    check = None
    if position.check is not None:
        checked = implicit_done(state, position.check)
        check = Judgement(position.check, explain(checked, position.check) + dispute_reasons(checked, position.check))
    judged = detail.actions and position.turn is not None and not state.round_over
    count = count_hands(state) if position.score else None
    to_move = state.player if position.turn is not None else None
    return Ruling(ruleset, result, state, check, judge_all(state) if judged else (), count, to_move)


class ReasonTable:
    """The reasons of one answer, worded once. A reason recurs across many actions and rulesets
    (the same train is closed to every tile, under every ruleset), so each distinct reason's
    JSON is built once and shared, and the answer's ``reasons`` list holds each once: an
    action names its reasons by their index in that list."""

    def __init__(self, translate: Translate | None) -> None:
        self.translate = translate
        self.memo: dict[Reason, dict[str, Any]] = {}
        self.rows: list[dict[str, Any]] = []
        self.index: dict[Reason, int] = {}

    def json(self, r: Reason) -> dict[str, Any]:
        found = self.memo.get(r)
        if found is None:
            found = self.memo[r] = reason_json(r, self.translate)
        return found

    def ref(self, r: Reason) -> int:
        i = self.index.get(r)
        if i is None:
            i = self.index[r] = len(self.rows)
            self.rows.append(self.json(r))
        return i


class _Writer:
    """Builds one ruleset's part of the answer, gathering the rules its reasons name so that
    their citations stand once in ``rules``."""

    def __init__(self, ruleset: Ruleset, table: ReasonTable, inline: bool) -> None:
        self.ruleset = ruleset
        self.table = table
        self.inline = inline
        self.rules: dict[str, dict[str, Any]] = {}

    def named(self, r: Reason) -> None:
        key = r.rule_key
        if key is not None and key not in self.rules:
            self.rules[key] = rule_json(self.ruleset, key)

    def reasons(self, reasons: Sequence[Reason]) -> list[dict[str, Any]]:
        for r in reasons:
            self.named(r)
        return [self.table.json(r) for r in reasons]

    def judgement(self, j: Judgement) -> dict[str, Any]:
        return {"move": str(j.move), "legal": j.legal, "reasons": self.reasons(j.reasons)}

    def action(self, j: Judgement) -> dict[str, Any]:
        if self.inline:
            return self.judgement(j)
        for r in j.reasons:
            self.named(r)
        return {"move": str(j.move), "legal": j.legal, "reasons": [self.table.ref(r) for r in j.reasons]}

    def count(self, c: Count) -> dict[str, Any]:
        return {"move": SCORE, "legal": None, "reasons": self.reasons(c.reasons)}


def rule_json(ruleset: Ruleset, key: str) -> dict[str, Any]:
    """A rule's entry in an answer's ``rules`` map: its citations."""
    return {"citations": [dict(c) for c in ruleset.citations_json.get(key, ())]}


def reason_json(r: Reason, translate: Translate | None = None) -> dict[str, Any]:
    return {
        "code": r.code.value,
        "blocks": r.blocks,
        "text": r.text(translate.template(r.code), translate.train_label) if translate else r.text(),
        "rule": r.rule_key,
    }


def ruling_json(ruling: Ruling, translate: Translate | None = None, detail: Detail = Detail.FULL,
                table: ReasonTable | None = None, inline: bool = True) -> dict[str, Any]:
    """One ruleset's entry of the answer. With a ``table`` (compact detail) the actions name their
    reasons by index in it (the answer's ``reasons``); without one they hold the reasons
    themselves, as the spec shows. Equal reasons share one (read-only) dict."""
    rs, state, rep = ruling.ruleset, ruling.state, ruling.replay
    w = _Writer(rs, table if table is not None else ReasonTable(translate), inline=inline or table is None)
    replay_json: dict[str, Any] = {"ok": rep.ok, "moves_applied": rep.applied}
    if rep.failed is not None:
        replay_json["failed"] = {
            "move": str(rep.failed.move),
            "line": rep.failed.line,
            "reasons": w.reasons(rep.reasons),
        }
    check: dict[str, Any] | None = None
    if ruling.check is not None:
        check = w.judgement(ruling.check)
    elif ruling.count is not None:
        check = w.count(ruling.count)
    out: dict[str, Any] = {
        "replay": replay_json,
        "to_move": ruling.to_move,
        "phase": state.phase.value,
        "set": f"double-{state.set_max}",
        "open_doubles": [state.train_name(i) for i in state.open_doubles],
        "check": check,
    }
    if detail.actions:
        out["actions"] = [w.action(j) for j in ruling.actions]
    out.update({
        "round_over": state.round_over,
        "scores": ruling.scores,
        "notes": [translate.message(n) if translate else str(n) for n in state.notes],
        "rules": w.rules,
    })
    return out


def answer(position: Position, rulesets: Sequence[Ruleset], translate: Translate | None = None,
           detail: Detail = Detail.FULL) -> dict[str, Any]:
    """The spec's JSON answer: one entry per ruleset id, in the order given. Every distinct reason is
    worded once and shared; with compact detail, ``reasons`` holds each once and the actions name
    them by index."""
    table = ReasonTable(translate)
    compact = detail is Detail.COMPACT
    out: dict[str, Any] = {}
    for rs in rulesets:
        try:
            out[rs.id] = ruling_json(rule(position, rs, detail), translate, detail, table, inline=not compact)
        except ImpossiblePositionError as exc:
            out[rs.id] = {"error": exc.as_dict()}
    if compact:
        return {"variants": out, "reasons": table.rows}
    return {"variants": out}


__all__ = ["Detail", "ReasonTable", "Ruling", "answer", "rule", "ruling_json", "Move"]
