"""The JSON answer of the spec, built from a position and the rulesets to judge it under."""

from __future__ import annotations

import enum
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

from .errors import ErrorCode
from .explain import Judgement, dispute_reasons, explain, judge_all
from .moves import Move
from .position import SCORE, ImpossiblePositionError, Position
from .reasons import Reason, ReasonCode, reason
from .replay import Replay, implicit_done, replay
from .ruleset import Ruleset, Status
from .scoring import Count, count_hands, round_scores
from .state import State, build
from .tiles import STANDARD_SETS


class Wording(Protocol):
    """How the answer is worded for a reader: sentence templates, train names, engine messages."""

    def template(self, code: ReasonCode) -> str: ...

    def train_label(self, name: str) -> str: ...

    def message(self, text: str) -> str:
        """A rules.messages.Message (a note, an error) in the reader's language."""
        ...

    def text(self, english: str) -> str:
        """A free text of a ruleset file (a citation's gloss or remark) in the reader's language."""
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
    apart: tuple[Reason, ...] = ()
    """Why the ruleset does not apply to the position as a whole (its deal does not allow the
    table's number of players: ``player-count``); empty when it applies. Such a ruleset is still
    judged, but a verdict summary counts it apart (:func:`applying`)."""

    @property
    def applies(self) -> bool:
        return not self.apart

    @property
    def scores(self) -> dict[str, int | None] | None:
        if self.count is not None:
            return dict(self.count.scores)
        scores = round_scores(self.state)
        return dict(scores) if scores is not None else None


def player_count(ruleset: Ruleset, players: int) -> tuple[Reason, ...]:
    """``player-count`` when the ruleset's deal does not allow ``players`` players (naming the
    ruleset by its source, and the range its source allows); else nothing."""
    allowed = ruleset.flags.players_count
    if allowed.min <= players <= allowed.max:
        return ()
    return (reason(ReasonCode.PLAYER_COUNT, ruleset=ruleset.publisher or ruleset.title, low=allowed.min,
                   high=allowed.max, count=players),)


def smallest_set(position: Position, ruleset: Ruleset, error: ImpossiblePositionError) -> int | None:
    """When ``error`` refuses the position only because a pip is above the set the ruleset gives
    for it (no ``set:`` line), the smallest standard set that holds every pip, under which the
    position can arise: the one to judge it again with (``set: double-N``). Else None."""
    top = position.highest
    if error.code is not ErrorCode.PIP_ABOVE_SET or position.set_max is not None or top is None:
        return None
    larger = next((s for s in STANDARD_SETS if s >= top.tile.high), None)
    if larger is None:
        return None
    try:
        build(replace(position, set_max=larger), ruleset)
    except ImpossiblePositionError:
        return None  # refused for another reason too
    return larger


def error_json(position: Position, ruleset: Ruleset, error: ImpossiblePositionError) -> dict[str, Any]:
    """A ruleset's entry when the position cannot arise under it: the error, and with
    ``smallest_set`` (``double-N``) the set under which it can, when a pip above the default set
    is all that refuses it."""
    out = error.as_dict()
    larger = smallest_set(position, ruleset, error)
    if larger is not None:
        out["smallest_set"] = f"double-{larger}"
    return {"error": out}


def applying(rulings: Sequence[Ruling]) -> tuple[Ruling, ...]:
    """The rulings of the rulesets that allow the table's number of players: the ones a verdict
    summary counts ("under the 3 rulesets that allow 3 players")."""
    return tuple(r for r in rulings if r.applies)


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
        explained = explain(checked, position.check)
        check = Judgement(position.check, explained + dispute_reasons(checked, position.check, explained))
    judged = detail.actions and position.turn is not None and not state.round_over
    count = count_hands(state) if position.score else None
    to_move = state.player if position.turn is not None else None
    return Ruling(ruleset, result, state, check, judge_all(state) if judged else (), count, to_move,
                  player_count(ruleset, len(position.players)))


class ReasonTable:
    """The reasons of one answer, worded once. A reason recurs across many actions and rulesets
    (the same train is closed to every tile, under every ruleset), so each distinct reason's
    JSON is built once and shared, and the answer's ``reasons`` list holds each once: an
    action names its reasons by their index in that list."""

    def __init__(self, translate: Translate | None) -> None:
        self.translate = translate
        self.worded = _worded(translate)
        self.memo = self.worded.reasons
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


class _Worded:
    """What one language's answers share across the process: each distinct reason worded once, and
    each distinct judgement's action written once (with the rules its reasons name)."""

    __slots__ = ("reasons", "actions", "rules")

    def __init__(self) -> None:
        self.rules: dict[tuple[str, str], dict[str, Any]] = {}
        """Each rule's entry of ``rules`` (its citations), by ruleset id and rule key: an id
        names one ruleset's content (a house ruleset's id is a digest of its rules)."""
        self.reasons: dict[Reason, dict[str, Any]] = {}
        self.actions: dict[Judgement, tuple[dict[str, Any], tuple[str, ...], frozenset[str]]] = {}
        """Each judgement's JSON, with the rules its reasons name: in order, and as a set."""


_WORDED: dict[str, _Worded] = {}
_WORDED_LIMIT = 8192
"""A wording that names its language (``language``, as the site's gettext wording does) words
each distinct reason and judgement once per process, not once per request, and answers share
the (read-only) dicts. A language's memo starts afresh when it passes ``_WORDED_LIMIT`` entries,
which bounds the memory a long-running server spends."""


def _language(translate: Translate | None) -> str | None:
    """The language the process-wide memos of ``translate``'s wording are kept under: "" for
    English without a wording, None for a wording that does not name its language (it gets
    memos of its own)."""
    return "" if translate is None else getattr(translate, "language", None)


def _worded(translate: Translate | None) -> _Worded:
    """The memo of ``translate``'s wording: the process-wide one for its language (English
    without a wording), or a fresh one for a wording that does not name its language."""
    language = _language(translate)
    if language is None:
        return _Worded()
    memo = _WORDED.get(language)
    if memo is None or max(len(memo.reasons), len(memo.actions), len(memo.rules)) > _WORDED_LIMIT:
        memo = _WORDED[language] = _Worded()
    return memo


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
            self.rules[key] = self.rule(key)

    def rule(self, key: str) -> dict[str, Any]:
        """The rule's entry of ``rules``, worded once per ruleset and language (rule_json)."""
        memo = self.table.worded.rules
        found = memo.get((self.ruleset.id, key))
        if found is None:
            found = memo[self.ruleset.id, key] = rule_json(self.ruleset, key, self.table.translate)
        return found

    def reasons(self, reasons: Sequence[Reason]) -> list[dict[str, Any]]:
        for r in reasons:
            self.named(r)
        return [self.table.json(r) for r in reasons]

    def judgement(self, j: Judgement) -> dict[str, Any]:
        return {"move": str(j.move), "legal": j.legal, "reasons": self.reasons(j.reasons)}

    def action(self, j: Judgement) -> dict[str, Any]:
        if self.inline:
            actions = self.table.worded.actions
            found = actions.get(j)
            if found is None:
                keys = tuple({r.rule_key: None for r in j.reasons if r.rule_key is not None})
                found = actions[j] = (self.judgement(j), keys, frozenset(keys))
            elif not self.rules.keys() >= found[2]:  # most actions name only rules named already
                for key in found[1]:
                    if key not in self.rules:
                        self.rules[key] = self.rule(key)
            return found[0]
        for r in j.reasons:
            self.named(r)
        return {"move": str(j.move), "legal": j.legal, "reasons": [self.table.ref(r) for r in j.reasons]}

    def replay_and_check(self, ruling: Ruling) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """The entry's ``replay`` and ``check`` (written first: the rules they name come first)."""
        rep = ruling.replay
        replay_json: dict[str, Any] = {"ok": rep.ok, "moves_applied": rep.applied}
        if rep.failed is not None:
            replay_json["failed"] = {
                "move": str(rep.failed.move),
                "line": rep.failed.line,
                "reasons": self.reasons(rep.reasons),
            }
        check: dict[str, Any] | None = None
        if ruling.check is not None:
            check = self.judgement(ruling.check)
        elif ruling.count is not None:
            check = self.count(ruling.count)
        return replay_json, check

    def count(self, c: Count) -> dict[str, Any]:
        return {"move": SCORE, "legal": None, "reasons": self.reasons(c.reasons)}


def rule_json(ruleset: Ruleset, key: str, translate: Translate | None = None) -> dict[str, Any]:
    """A rule's entry in an answer's ``rules`` map: its citations, glosses and remarks worded for the reader."""
    cites = [dict(c) for c in ruleset.citations_json.get(key, ())]
    if translate is not None:
        for c in cites:
            c.update((field, translate.text(c[field])) for field in ("gloss", "remark") if field in c)
    out: dict[str, Any] = {"citations": cites}
    found = ruleset.rules.get(key)
    if found is not None and found.status is not Status.STATED:
        # the source is silent (or can be read two ways): the answer says so, and gives the reading
        out["status"] = found.status.value
        out["reading"] = translate.text(found.reading) if translate is not None else found.reading
    return out


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
    rs, state = ruling.ruleset, ruling.state
    w = _Writer(rs, table if table is not None else ReasonTable(translate), inline=inline or table is None)
    apart = w.reasons(ruling.apart)
    replay_json, check = w.replay_and_check(ruling)
    out: dict[str, Any] = {
        "applies": ruling.applies,
        "applies_reasons": apart,
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


Encode = Callable[[Any], bytes]
"""A JSON encoder writing compact UTF-8 (no spaces, no ASCII escapes): the web layer's orjson.dumps."""


class _Encoded:
    """What one language's answers share across the process, encoded by one encoder: each distinct
    judgement's JSON (with the rules its reasons name, in order) and each rule's entry of ``rules``,
    as bytes, each with a leading comma. An answer in full detail is assembled from these fragments
    instead of a tree of dicts encoded whole each time: a judgement recurs across requests (the
    same tile on the same train)."""

    __slots__ = ("encode", "actions", "by_id", "rules", "keys", "key_lists")

    def __init__(self, encode: Encode) -> None:
        self.encode = encode
        self.actions: dict[Judgement, tuple[bytes, int]] = {}
        """Each judgement's fragment, and the number of the list of rules its reasons name."""
        self.by_id: dict[int, tuple[bytes, int, Judgement]] = {}
        """The same, by the identity of a judgement object: the engine makes each distinct
        judgement of a play once (rules.explain._Interned), and finding it by identity spares
        hashing and comparing its nested reasons. The entry holds the judgement, so that no
        other object can take its identity while the entry lasts."""
        self.rules: dict[tuple[str, str], bytes] = {}
        self.keys: list[tuple[str, ...]] = []
        """Each distinct list of rules named by a judgement, numbered (an answer gathers the lists
        its judgements name by number: a small int hashes at once, a tuple of strings does not)."""
        self.key_lists: dict[tuple[str, ...], int] = {}

    def action(self, j: Judgement, table: ReasonTable) -> tuple[bytes, int]:
        keys = tuple({r.rule_key: None for r in j.reasons if r.rule_key is not None})
        number = self.key_lists.get(keys)
        if number is None:
            number = self.key_lists[keys] = len(self.keys)
            self.keys.append(keys)
        judged = {"move": str(j.move), "legal": j.legal, "reasons": [table.json(r) for r in j.reasons]}
        found = self.actions[j] = (b"," + self.encode(judged), number)
        return found

    def identified(self, j: Judgement, table: ReasonTable) -> tuple[bytes, int, Judgement]:
        """``j``'s entry, found (or made) by value, then kept by identity."""
        fragment, keys = self.actions.get(j) or self.action(j, table)
        return self.by_id.setdefault(id(j), (fragment, keys, j))

    def rule(self, key: str, writer: _Writer) -> bytes:
        """The rule's entry of ``rules`` for the writer's ruleset (made by the writer when new)."""
        found = self.rules.get((writer.ruleset.id, key))
        if found is None:
            found = self.rules[writer.ruleset.id, key] = b"," + self.encode(key) + b":" + self.encode(writer.rule(key))
        return found


_ENCODED: dict[tuple[str, Encode], _Encoded] = {}
"""By language and encoder; bounded by ``_WORDED_LIMIT`` as ``_WORDED`` is."""


def _encoded(translate: Translate | None, encode: Encode) -> _Encoded:
    language = _language(translate)
    if language is None:
        return _Encoded(encode)
    memo = _ENCODED.get((language, encode))
    if memo is None or max(len(memo.actions), len(memo.by_id), len(memo.rules)) > _WORDED_LIMIT:
        memo = _ENCODED[language, encode] = _Encoded(encode)
    return memo


def _write_ruling(ruling: Ruling, translate: Translate | None, table: ReasonTable, encode: Encode,
                  memo: _Encoded, out: list[bytes]) -> None:
    """One ruleset's entry of a full-detail answer, as ``encode(ruling_json(...))`` gives it, made
    from the encoded fragments of its judgements and rules (appended to ``out``, joined once)."""
    rs, state = ruling.ruleset, ruling.state
    w = _Writer(rs, table, inline=True)
    apart = w.reasons(ruling.apart)
    replay_json, check = w.replay_and_check(ruling)
    actions = ruling.actions
    found = list(map(memo.by_id.get, map(id, actions)))
    if not all(found):  # an entry (a tuple) is true: no comparison with None
        found = [e if e is not None else memo.identified(j, table) for e, j in zip(found, actions)]
    entries = cast(list[tuple[bytes, int, Judgement]], found)
    rules = dict.fromkeys(w.rules)  # the rules the replay and the check name, then the actions'
    # in the order they are first named: each distinct list once
    key_lists = memo.keys
    for number in dict.fromkeys(map(_KEYS, entries)):
        rules.update(dict.fromkeys(key_lists[number]))
    out += (
        b'{"applies":', encode(ruling.applies),
        b',"applies_reasons":', encode(apart),
        b',"replay":', encode(replay_json),
        b',"to_move":', encode(ruling.to_move),
        b',"phase":', encode(state.phase.value),
        b',"set":', encode(f"double-{state.set_max}"),
        b',"open_doubles":', encode([state.train_name(i) for i in state.open_doubles]),
        b',"check":', encode(check),
        b',"actions":[',
    )
    if entries:
        out.append(entries[0][0][1:])
        out += map(_FRAGMENT, entries[1:])
    out += (
        b'],"round_over":', encode(state.round_over),
        b',"scores":', encode(ruling.scores),
        b',"notes":', encode([translate.message(n) if translate else str(n) for n in state.notes]),
        b',"rules":{',
    )
    if rules:
        fragments = [memo.rule(key, w) for key in rules]
        out.append(fragments[0][1:])
        out += fragments[1:]
    out.append(b"}}")


_FRAGMENT = operator.itemgetter(0)
_KEYS = operator.itemgetter(1)


def answer_bytes(position: Position, rulesets: Sequence[Ruleset], encode: Encode,
                 translate: Translate | None = None, detail: Detail = Detail.FULL) -> bytes:
    """``encode(answer(...))``, byte for byte (tests/api/test_answer_bytes.py checks it); in full
    detail assembled from the encoded fragments each distinct judgement and rule has once per
    process (a compact or check answer is small: encoded whole)."""
    if detail is not Detail.FULL:
        return encode(answer(position, rulesets, translate, detail))
    table = ReasonTable(translate)
    memo = _encoded(translate, encode)
    out = [b'{"variants":{']
    for n, rs in enumerate(rulesets):
        out.append(b"," + encode(rs.id) + b":" if n else encode(rs.id) + b":")
        try:
            ruling = rule(position, rs, detail)
        except ImpossiblePositionError as exc:
            out.append(encode(error_json(position, rs, exc)))
            continue
        _write_ruling(ruling, translate, table, encode, memo, out)
    out.append(b"}}")
    return b"".join(out)


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
            out[rs.id] = error_json(position, rs, exc)
    if compact:
        return {"variants": out, "reasons": table.rows}
    return {"variants": out}


__all__ = ["Detail", "Encode", "ReasonTable", "Ruling", "answer", "answer_bytes", "applying", "error_json", "player_count", "rule",
           "ruling_json", "smallest_set", "Move"]
