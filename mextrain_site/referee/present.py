"""What the adjudication page shows, built from the engine's rulings. It decides no rule.

``judged_page(text, variants)`` parses with the shared glue (:func:`mextrain_site.core.referee.parse`,
raising :class:`rules.errors.InputError`), lets the engine rule under each
ruleset (:func:`rules.answer.rule`, :func:`rules.answer.ruling_json`) and arranges the answer
for the template: the disputed move's verdict, the table of candidate actions with one column
per ruleset, replay stops, and the board pictures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.urls import NoReverseMatch, reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from mextrain_site.core.i18n import WORDING
from mextrain_site.core.referee import parse
from rules.answer import Ruling, rule, ruling_json
from rules.errors import ErrorCode, InputError
from rules.limits import MAX_PAGE_WORK
from rules.messages import Message
from rules.position import ImpossiblePositionError
from rules.ruleset import SPEC_BY_KEY, Ruleset
from variants.loader import base_ids

from .board import BoardLabels, board_svg

ECHO_CONTEXT = 3
"""Lines shown either side of a bad line in the echo of the text."""


def display_order(ids: Sequence[str]) -> list[str]:
    """Ruleset ids in the order the site lists them (by base, then id), deduplicated."""
    bases = base_ids()

    def key(ident: str) -> tuple[int, str]:
        base = ident.split("+", 1)[0]
        return (bases.index(base) if base in bases else len(bases), ident)

    return sorted(dict.fromkeys(ids), key=key)


def _url(name: str, *args: str, fragment: str = "") -> str:
    """A link into the rule reference, or "" if the reference does not offer that page."""
    try:
        return reverse(name, args=args) + (f"#{fragment}" if fragment else "")
    except NoReverseMatch:
        return ""


# -- view models ---------------------------------------------------------------------------------


@dataclass
class CitationView:
    seed: str
    quote: str
    gloss: str
    lang: str
    dir: str
    url: str = ""
    """The source text in the rule reference."""


@dataclass
class ReasonView:
    code: str
    text: str
    blocks: bool
    rule: str | None
    status: str
    """How firmly the source states the rule: stated, silent or ambiguous ('' without a rule)."""
    reading: str
    note: str
    citations: list[CitationView]
    description: str = ""
    """What the rule says in general (from the rule declarations), for lists of rules."""
    code_url: str = ""
    rule_url: str = ""


@dataclass
class Column:
    """One ruleset's answer."""

    ruleset: Ruleset
    ruling: Ruling | None
    data: dict[str, Any] | None
    error: str = ""
    """Why the position cannot arise under this ruleset (no ruling then)."""

    @property
    def id(self) -> str:
        return self.ruleset.id

    @property
    def title(self) -> str:
        return self.ruleset.title

    @property
    def url(self) -> str:
        return _url("reference:variant", self.ruleset.id)

    @property
    def to_move(self) -> str:
        return self.data["to_move"] if self.data else ""

    @property
    def notes(self) -> list[str]:
        return list(self.data["notes"]) if self.data else []

    @property
    def round_over(self) -> bool:
        return bool(self.data and self.data["round_over"])

    @property
    def scores(self) -> dict[str, int] | None:
        return self.data["scores"] if self.data else None

    @property
    def legal_count(self) -> int:
        return sum(1 for a in self.data["actions"] if a["legal"]) if self.data else 0


@dataclass
class CheckEntry:
    column: Column
    legal: bool
    reasons: list[ReasonView]
    """The reasons that decide: the forbidding ones when illegal, all of them when legal."""
    others: list[ReasonView]


@dataclass
class CheckView:
    move: str
    line: int
    entries: list[CheckEntry]

    @property
    def verdict(self) -> str:
        """'legal', 'illegal' or 'split' (the rulesets disagree)."""
        values = {e.legal for e in self.entries}
        if values == {True}:
            return "legal"
        if values == {False}:
            return "illegal"
        return "split"

    @property
    def legal_ids(self) -> list[str]:
        return [e.column.id for e in self.entries if e.legal]

    @property
    def illegal_ids(self) -> list[str]:
        return [e.column.id for e in self.entries if not e.legal]


@dataclass
class Cell:
    column: Column
    present: bool
    legal: bool = False
    reasons: list[ReasonView] = field(default_factory=list)

    @property
    def deciding(self) -> list[ReasonView]:
        """The reasons that decide the verdict: the forbidding ones, or all when legal."""
        return [r for r in self.reasons if r.blocks] if not self.legal else list(self.reasons)

    @property
    def others(self) -> list[ReasonView]:
        deciding = self.deciding
        return [r for r in self.reasons if r not in deciding]

    @property
    def headline(self) -> ReasonView | None:
        """The reason to show first: the first forbidding one, else the first at all."""
        deciding = self.deciding
        return deciding[0] if deciding else (self.reasons[0] if self.reasons else None)


@dataclass
class Row:
    move: str
    cells: list[Cell]

    @property
    def disagree(self) -> bool:
        return len({c.legal for c in self.cells if c.present}) > 1

    @property
    def legal_somewhere(self) -> bool:
        return any(c.present and c.legal for c in self.cells)


@dataclass
class ReplayStop:
    line: int
    move: str
    applied: int
    ids: list[str]
    reasons: list[tuple[str, list[ReasonView]]]
    """(ruleset id, forbidding reasons) for each ruleset that stopped here."""

    @property
    def sentences(self) -> list[str]:
        """The forbidding reasons' sentences, each once."""
        return list(dict.fromkeys(r.text for _, reasons in self.reasons for r in reasons))


@dataclass
class BoardView:
    svg: SafeString
    ids: list[str]
    partial_open: list[tuple[str, list[str]]]
    """(train, ruleset ids) for open doubles that only some of the rulesets hold open."""
    stop: ReplayStop | None


@dataclass
class Judged:
    text: str
    columns: list[Column]
    check: CheckView | None
    rows: list[Row]
    stops: list[ReplayStop]
    boards: list[BoardView]

    @property
    def ruled(self) -> list[Column]:
        return [c for c in self.columns if c.ruling is not None]

    @property
    def impossible(self) -> list[Column]:
        return [c for c in self.columns if c.ruling is None]

    @property
    def open_rows(self) -> list[Row]:
        """Candidates legal under at least one ruleset."""
        return [r for r in self.rows if r.legal_somewhere]

    @property
    def closed_rows(self) -> list[Row]:
        """Candidates illegal under every ruleset."""
        return [r for r in self.rows if not r.legal_somewhere]

    @property
    def closed_rules(self) -> list[tuple[str, ReasonView]]:
        """The rules that forbid the moves illegal everywhere, once per ruleset and rule."""
        seen: dict[tuple[str, str], ReasonView] = {}
        for row in self.closed_rows:
            for cell in row.cells:
                for r in cell.deciding if cell.present else ():
                    key = (cell.column.id, r.rule or r.code)
                    if key not in seen and (r.citations or r.status in ("silent", "ambiguous")):
                        seen[key] = r
        return [(ident, r) for (ident, _), r in seen.items()]

    @property
    def disagreements(self) -> int:
        return sum(1 for r in self.rows if r.disagree)

    @property
    def to_move(self) -> list[str]:
        """The player to move, once per distinct answer (rulesets may stop a replay differently)."""
        return list(dict.fromkeys(c.to_move for c in self.ruled if not c.round_over))

    @property
    def multiple(self) -> bool:
        return len(self.columns) > 1

    @property
    def ids(self) -> list[str]:
        return [c.id for c in self.columns]


# -- building ------------------------------------------------------------------------------------


def _reason(r: dict[str, Any], ruleset: Ruleset) -> ReasonView:
    sources = {s.seed: s for s in ruleset.sources}
    key: str | None = r.get("rule")
    rule_ = ruleset.rules.get(key) if key else None
    cites = []
    for c in rule_.citations if rule_ else ():
        src = sources.get(c.seed)
        cites.append(CitationView(c.seed, c.quote, c.gloss, src.language if src else "",
                                  src.direction if src else "auto", _url("reference:source", c.seed)))
    return ReasonView(
        code=r["code"], text=r["text"], blocks=bool(r["blocks"]), rule=key,
        status=rule_.status.value if rule_ else "", reading=rule_.reading if rule_ else "",
        note=rule_.note if rule_ else "", citations=cites,
        description=SPEC_BY_KEY[key].description if key and key in SPEC_BY_KEY else "",
        code_url=_url("reference:reasons", fragment=r["code"]),
        rule_url=_url("reference:variant", ruleset.id, fragment=f"rule-{key}") if key else "",
    )


def _columns(text: str, variants: Sequence[str] | None) -> tuple[list[Column], int]:
    request = parse(text, variants or None, max_work=MAX_PAGE_WORK)
    columns = []
    for rs in request.rulesets:
        try:
            ruling = rule(request.position, rs)
        except ImpossiblePositionError as exc:
            columns.append(Column(rs, None, None, exc.worded(gettext)))
            continue
        columns.append(Column(rs, ruling, ruling_json(ruling, WORDING)))
    return columns, request.position.check_line


def judged_page(text: str, variants: Sequence[str] | None = None) -> Judged:
    """Judge ``text`` under ``variants`` (none: as the text says). Raises InputError."""
    columns, check_line = _columns(text, variants)
    ruled = [c for c in columns if c.data is not None]
    if not ruled:
        first = columns[0].error if columns else ""
        raise InputError(first or Message("the position cannot be judged"), code=ErrorCode.IMPOSSIBLE)
    return Judged(text, columns, _check(ruled, check_line), _rows(ruled), _stops(ruled), _boards(ruled))


def _check(ruled: list[Column], line: int) -> CheckView | None:
    entries = []
    move = ""
    for col in ruled:
        assert col.data is not None
        check = col.data["check"]
        if check is None or check["legal"] is None:  # no move in dispute; check: score shows in the scores
            continue
        move = check["move"]
        reasons = [_reason(r, col.ruleset) for r in check["reasons"]]
        deciding = [r for r in reasons if r.blocks] if not check["legal"] else reasons
        others = [r for r in reasons if r not in deciding]
        entries.append(CheckEntry(col, bool(check["legal"]), deciding, others))
    return CheckView(move, line, entries) if entries else None


def _rows(ruled: list[Column]) -> list[Row]:
    order: dict[str, None] = {}
    by_col: list[dict[str, dict[str, Any]]] = []
    for col in ruled:
        assert col.data is not None
        actions = {a["move"]: a for a in col.data["actions"]}
        by_col.append(actions)
        order.update(dict.fromkeys(actions))
    rows = []
    for move in order:
        cells = []
        for col, actions in zip(ruled, by_col):
            a = actions.get(move)
            if a is None:
                cells.append(Cell(col, False))
            else:
                cells.append(Cell(col, True, bool(a["legal"]), [_reason(r, col.ruleset) for r in a["reasons"]]))
        rows.append(Row(move, cells))
    return rows


def _stops(ruled: list[Column]) -> list[ReplayStop]:
    stops: dict[tuple[int, str], ReplayStop] = {}
    for col in ruled:
        assert col.data is not None
        rep = col.data["replay"]
        if rep["ok"]:
            continue
        failed = rep["failed"]
        key = (failed["line"], failed["move"])
        stop = stops.setdefault(key, ReplayStop(failed["line"], failed["move"], rep["moves_applied"], [], []))
        stop.ids.append(col.id)
        stop.reasons.append((col.id, [_reason(r, col.ruleset) for r in failed["reasons"] if r["blocks"]]))
    return list(stops.values())


def _board_key(ruling: Ruling) -> tuple[object, ...]:
    s = ruling.state
    hand = s.hands[s.to_move]
    return (s.players, s.engine, s.trains, s.to_move, hand, s.boneyard, s.round_over,
            ruling.replay.applied, ruling.replay.failed)


def _boards(ruled: list[Column]) -> list[BoardView]:
    groups: dict[tuple[object, ...], list[Column]] = {}
    for col in ruled:
        assert col.ruling is not None
        groups.setdefault(_board_key(col.ruling), []).append(col)
    stops = {(s.line, s.move): s for s in _stops(ruled)}
    boards = []
    several = len(groups) > 1
    for n, cols in enumerate(groups.values(), start=1):
        first = cols[0]
        assert first.ruling is not None
        state = first.ruling.state
        opened: dict[int, list[str]] = {}
        for col in cols:
            assert col.ruling is not None
            for i in col.ruling.state.open_doubles:
                opened.setdefault(i, []).append(col.id)
        labels = BoardLabels(open_doubles={i: len(ids) == len(cols) for i, ids in opened.items()})
        partial = [(WORDING.train_label(state.train_name(i)), ids) for i, ids in opened.items() if len(ids) != len(cols)]
        ids = [c.id for c in cols]
        failed = first.ruling.replay.failed
        stop = stops.get((failed.line, str(failed.move))) if failed is not None else None
        if several:
            caption = gettext("The board under %(ids)s") % {"ids": ", ".join(ids)}
        else:
            caption = gettext("The board")
        if stop is not None:
            caption += " — " + gettext("before the move on line %(line)s") % {"line": stop.line}
        same_set = len({c.ruling.state.set_max for c in cols if c.ruling is not None}) == 1
        svg = board_svg(state, labels, caption=caption, ident=f"board-{n}", show_set=same_set)
        boards.append(BoardView(svg, ids, partial, stop))
    return boards


# -- bad input -----------------------------------------------------------------------------------


@dataclass
class EchoLine:
    number: int
    before: str
    mark: str
    after: str
    bad: bool


def echo(text: str, line: int | None, column: int | None) -> list[EchoLine]:
    """The lines around ``line``, numbered as the parser numbers them, the bad one marked."""
    if not line:
        return []
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return []
    lo, hi = max(1, line - ECHO_CONTEXT), min(len(lines), line + ECHO_CONTEXT)
    out = []
    for number in range(lo, hi + 1):
        body = lines[number - 1]
        if number == line and column and 1 <= column <= len(body) + 1:
            start = column - 1
            end = start
            while end < len(body) and not body[end].isspace():
                end += 1
            mark = body[start:end] or " "
            out.append(EchoLine(number, body[:start], mark, body[end:], True))
        else:
            out.append(EchoLine(number, body, "", "", number == line))
    return out
