"""What the adjudication page shows, built straight from the engine's rulings. It decides no rule.

``judged_page(text, variants)`` parses with the shared glue (:func:`mextrain_site.core.referee.parse`,
raising :class:`rules.errors.InputError`), lets the engine rule under each ruleset
(:func:`rules.answer.rule`) and arranges the answer for a player, in three layers:

1. the answer: the disputed move, the verdict, and per ruleset one line in plain words with the
   deciding rule quoted in the reader's language (:class:`Answer`); scores when a round ends;
2. why: the other reasons, each quoted;
3. everything: the table of candidate moves and the board.

The view models (frozen values) are in :mod:`.view_models`; a quote is the reference's
:class:`~mextrain_site.reference.citations.CitationView`. This module builds them.

Each reason is worded once per language and process (:class:`_Reasons`) and every URL pattern
reversed once per language and process (:class:`_Links`). Codes, rule keys and file names stay
out of what a player reads.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from django.urls import NoReverseMatch, get_script_prefix, reverse
from django.utils.translation import get_language, get_language_bidi, gettext

from mextrain_site.core.bidi import FSI, PDI
from mextrain_site.core.i18n import WORDING, source_title
from mextrain_site.core.referee import Request, choose_rulesets, parse
from mextrain_site.reference.citations import CitationView, citation_view, published
from mextrain_site.reference.sources import anchor_for
from rules.answer import Ruling, rule, smallest_set
from rules.errors import ErrorCode, InputError
from rules.explain import Judgement
from rules.limits import MAX_PAGE_WORK
from rules.memo import Memo
from rules.messages import Message
from rules.moves import Move
from rules.position import ImpossiblePositionError, Position
from rules.reasons import DISPUTE_ANSWERS, Reason, ReasonCode, TrainRole
from rules.ruleset import Citation, Ruleset, Source, Status
from rules.scoring import hand_points, terms
from rules.tiles import Tile
from variants.loader import base_ids

from .board import BoardLabels, board_svg
from .view_models import (
    Answer,
    BoardView,
    Cell,
    CheckView,
    Column,
    EchoLine,
    HandScore,
    Judged,
    ReasonView,
    ReplayStop,
    Retry,
    Row,
    ScoreView,
    TileCount,
    Unknown,
)

ECHO_CONTEXT = 3
"""Lines shown either side of a bad line in the echo of the text."""

SCORING_RULE = "scoring.double_blank"
"""The rule a score quotes: what a hand counts, the double-blank's value included."""


def display_order(ids: Sequence[str]) -> list[str]:
    """Ruleset ids in the order the site lists them (by base, then id), deduplicated."""
    bases = base_ids()

    def key(ident: str) -> tuple[int, str]:
        base = ident.split("+", 1)[0]
        return (bases.index(base) if base in bases else len(bases), ident)

    return sorted(dict.fromkeys(ids), key=key)


_PATTERNS: dict[tuple[str, str, str], str] = {}
"""Reversed URL patterns by (script prefix, language, URL name): the URL configuration is fixed
for the life of the process; only the prefixes vary."""


class _Links:
    """The page's links (into the rule reference, the share form's action), each pattern reversed
    once per language and process."""

    SLOT = "__slot__"

    def __init__(self, language: str | None = None) -> None:
        self.prefix = (get_script_prefix(), get_language() or "" if language is None else language)

    def __call__(self, name: str, arg: str | None = None, fragment: str = "") -> str:
        """The URL called ``name``, with its one argument (None: a URL that takes none)."""
        key = (*self.prefix, name)
        pattern = _PATTERNS.get(key)
        if pattern is None:
            try:
                pattern = reverse(name) if arg is None else reverse(name, args=[self.SLOT])
            except NoReverseMatch:
                pattern = ""
            _PATTERNS[key] = pattern
        if not pattern:
            return ""
        url = pattern if arg is None else pattern.replace(self.SLOT, arg)
        return url + (f"#{fragment}" if fragment else "")


# -- wording the engine's reasons ----------------------------------------------------------------


QUOTE_LIMIT = 4096
_QUOTES: Memo[tuple[str, str, str | None], CitationView | None] = Memo(QUOTE_LIMIT)
"""Quotes by (language, ruleset id, rule key): built once per process. Bounded: house rulesets
are many, each with its own id."""

_SENTENCES: dict[str, Memo[Reason, str]] = {}
"""Reasons in words by language, then reason: a reason is an immutable value and recurs across
rulesets, moves and positions (the same train closed to every tile), so each is worded once per
process, as the API words it (:func:`rules.answer._worded`). Bounded by :data:`SENTENCE_LIMIT`
per language."""
SENTENCE_LIMIT = 20_000


_VIEWS: dict[tuple[str, str], Memo[Reason, ReasonView]] = {}
"""Reasons as the page shows them, by (language, ruleset id), then reason: each worded and quoted
once per ruleset and process (a ruleset is frozen, and a house ruleset's id names its content).
Bounded: :data:`VIEW_RULESETS` rulesets (house rulesets are many), :data:`VIEW_LIMIT` reasons each."""
VIEW_RULESETS = 256
VIEW_LIMIT = 5_000


_PLACEHOLDER = re.compile(r"\{\w+\}")


class _Wording:
    """The page's sentence templates and train names in the reader's language, each looked up once."""

    def __init__(self) -> None:
        self.templates: dict[ReasonCode, str] = {}
        self.trains: dict[tuple[str, TrainRole | None], str] = {}

    def template(self, code: ReasonCode) -> str:
        """The sentence's template; on a right-to-left page each placeholder isolated (U+2068 …
        U+2069), so that a move, a tile or a Latin name keeps its own order and the brackets and
        commas around it stay where the sentence puts them ("(9-2 -> mexican)" was shown as
        "(mexican <-" and "Bob (9-2" on two lines)."""
        found = self.templates.get(code)
        if found is None:
            found = WORDING.template(code)
            if get_language_bidi():
                found = _PLACEHOLDER.sub(f"{FSI}\\g<0>{PDI}", found)
            self.templates[code] = found
        return found

    def train_label(self, name: str, role: TrainRole | None = None) -> str:
        found = self.trains.get((name, role))
        if found is None:
            found = self.trains[name, role] = WORDING.train_label(name, role)
        return found


class _Reasons:
    """One ruleset's reasons as the page shows them, each worded and quoted once."""

    def __init__(self, ruleset: Ruleset, links: _Links, language: str, wording: _Wording) -> None:
        self.ruleset = ruleset
        self.links = links
        self.language = language
        self.wording = wording
        if len(_VIEWS) >= VIEW_RULESETS and (language, ruleset.id) not in _VIEWS:
            _VIEWS.clear()
        memo = _VIEWS.get((language, ruleset.id))
        self.memo = memo if memo is not None else _VIEWS.setdefault((language, ruleset.id), Memo(VIEW_LIMIT))
        sentences = _SENTENCES.get(language)
        self.sentences = sentences if sentences is not None else _SENTENCES.setdefault(language, Memo(SENTENCE_LIMIT))

    @functools.cached_property
    def sources(self) -> dict[str, Source]:
        """The ruleset's sources by seed (only a quote not yet made needs them)."""
        return {s.seed: s for s in self.ruleset.sources}

    @functools.cached_property
    def credit(self) -> str:
        """The source a quote credits: a house ruleset's base (the table did not write the
        passage; its name credits no quote)."""
        return source_title(published(self.ruleset))

    def text(self, r: Reason) -> str:
        """The reason's sentence alone (a table cell needs no quote)."""
        found = self.sentences.get(r)
        if found is None:
            found = self.sentences.keep(r, r.text(self.wording.template(r.code), self.wording.train_label))
        return found

    def __call__(self, r: Reason) -> ReasonView:
        found = self.memo.get(r)
        if found is None:
            key = r.rule_key
            rule_ = self.ruleset.rules.get(key) if key else None
            assumed = assumed_lang = ""
            if rule_ is not None and rule_.status in (Status.SILENT, Status.AMBIGUOUS) and rule_.reading:
                assumed = gettext(rule_.reading)
                assumed_lang = self.language if assumed != rule_.reading or self.language == "en" else "en"
            found = self.memo.keep(r, ReasonView(
                code=r.code.value,
                text=self.text(r),
                blocks=r.blocks,
                rule=key,
                quote=self.quote(key),
                assumed=assumed,
                assumed_lang=assumed_lang,
                silent=rule_ is not None and rule_.status is Status.SILENT,
                answers_dispute=r.code in DISPUTE_ANSWERS,
            ))
        return found

    def quote(self, key: str | None) -> CitationView | None:
        """The rule's first citation, preferring a source written in the reader's language.

        Rulesets are frozen and loaded once, so a quote is built once per process for each
        language, ruleset and rule."""
        memo_key = (self.language, self.ruleset.id, key)
        if memo_key in _QUOTES:
            return _QUOTES[memo_key]
        cites = self.ruleset.citations(key) if key else ()
        own = [c for c in cites if self._lang(c) == self.language]
        chosen = (own or list(cites))[:1]
        view = None
        if chosen:
            c = chosen[0]
            view = citation_view(c, self.sources.get(c.seed), self.credit,
                                 self.links("reference:source", c.seed, anchor_for(c.quote)))
        return _QUOTES.keep(memo_key, view)

    def _lang(self, c: Citation) -> str:
        src = self.sources.get(c.seed)
        return src.language if src else ""


# -- building ------------------------------------------------------------------------------------


def _apart(column: Column, wording: _Wording) -> str:
    """Why the engine sets a ruleset apart (``player-count``), in the reader's words, the ruleset
    named as players name it in their language ("Cardinal Games is for 4 to 10 players; …")."""
    assert column.ruling is not None
    sentences = []
    for r in column.ruling.apart:
        named = r._replace(params=tuple((k, column.title if k == "ruleset" else v) for k, v in r.params))
        sentences.append(named.text(wording.template(r.code), wording.train_label))
    return " ".join(sentences)


def _columns(request: Request, links: _Links, language: str, wording: _Wording) -> list[Column]:
    columns = []
    for rs in request.rulesets:
        url = links("reference:variant", rs.id)
        try:
            ruling = rule(request.position, rs)
        except ImpossiblePositionError as exc:
            larger = smallest_set(request.position, rs, exc)
            columns.append(Column(rs, None, exc.worded(gettext), url, language, smallest_set=larger))
            continue
        column = Column(rs, ruling, "", url, language)
        columns.append(replace(column, apart=_apart(column, wording)) if ruling.apart else column)
    return columns


def with_set(text: str, set_max: int) -> str:
    """The text as typed, with the line ``set: double-N`` added after its ``players`` line (first
    when it has none): what "judge again with a larger set" posts."""
    lines = text.splitlines()
    at = next((i + 1 for i, line in enumerate(lines) if line.lstrip().startswith("players:")), 0)
    lines.insert(at, f"set: double-{set_max}")
    return "\n".join(lines) + "\n"


def _retry(text: str, sets: Sequence[int | None]) -> Retry | None:
    """The offer to judge again, when every refusal has a set that holds the position."""
    if not sets or None in sets:
        return None
    larger = max(s for s in sets if s is not None)
    return Retry(larger, with_set(text, larger))


def set_to_try(text: str, variants: Sequence[str] | None, error: InputError) -> Retry | None:
    """When no ruleset judged can take the position only because a pip is above the set each uses
    by default (the text names none), the offer to judge again with the smallest set that holds it."""
    if not isinstance(error, ImpossiblePositionError) or error.code is not ErrorCode.PIP_ABOVE_SET:
        return None
    try:
        position = Position.parse(text)
        rulesets = choose_rulesets(position, variants or None)
    except InputError:
        return None
    return _retry(text, [smallest_set(position, rs, error) for rs in rulesets])


def judged_page(text: str, variants: Sequence[str] | None = None) -> Judged:
    """Judge ``text`` under ``variants`` (none: as the text says). Raises InputError."""
    active = get_language()
    language = active or "en"
    links = _Links(active or "")
    request = parse(text, variants or None, max_work=MAX_PAGE_WORK)
    wording = _Wording()
    columns = _columns(request, links, language, wording)
    ruled = [c for c in columns if c.ruling is not None]
    if not ruled:
        first = columns[0].error if columns else ""
        raise InputError(first or Message("the position cannot be judged"), code=ErrorCode.IMPOSSIBLE)
    words = {c.id: _Reasons(c.ruleset, links, language, wording) for c in ruled}
    stops = _stops(ruled, words)
    check = _check(ruled, request.position.check_line, words, len(request.position.players))
    impossible = [c.smallest_set for c in columns if c.ruling is None]
    return Judged(text, tuple(columns), check, _rows(ruled, words), stops, _boards(ruled, stops),
                  _scores(ruled, words, request.position.out), _retry(text, impossible))


def _ordered(j: Judgement, words: _Reasons, contested: set[str]) -> list[ReasonView]:
    """A verdict's reasons, the deciding one first.

    Illegal: the forbidding reasons first. Legal: first what answers the dispute (a rule that
    forbids such a move elsewhere does not apply here), then reasons under a rule that forbids
    the move under another ruleset, then the rest."""
    views = [words(r) for r in j.reasons]
    if not j.legal:
        return [v for v in views if v.blocks] + [v for v in views if not v.blocks]

    def rank(v: ReasonView) -> int:
        if v.answers_dispute:
            return 0
        return 1 if v.rule in contested else 2
    return sorted(views, key=rank)


def _check(ruled: list[Column], line: int, words: dict[str, _Reasons], players: int) -> CheckView | None:
    """The verdict on the disputed move: counted over the rulesets that allow the table's number
    of players (over all when none does), the others' answers set apart beside it."""
    judged = [(c, c.ruling.check) for c in ruled if c.ruling is not None and c.ruling.check is not None]
    if not judged:
        return None
    counted = [(c, j) for c, j in judged if c.applies] or judged
    contested = {r.rule_key for _, j in counted if not j.legal for r in j.reasons if r.blocks and r.rule_key}
    answers = []
    for col, j in judged:
        views = _ordered(j, words[col.id], contested)
        answers.append(Answer(col, j.legal, views[0] if views else None, tuple(views[1:])))
    counts = {c.id for c, _ in counted}
    return CheckView(str(judged[0][1].move), line, tuple(a for a in answers if a.column.id in counts),
                     tuple(a for a in answers if a.column.id not in counts), players)


def _rows(ruled: list[Column], words: dict[str, _Reasons]) -> tuple[Row, ...]:
    """One row per candidate move (in the order the rulesets list them), one cell per ruleset:
    legal or not, and the reason it shows (the first forbidding one, else the first at all).

    The page's busiest loop (a hundred cells for the example): each ruleset's reasons by move
    in one dict, the cells made as plain tuples (a named tuple's own constructor is Python)."""
    tables: list[tuple[str, dict[Move, tuple[Reason, ...]], Callable[[Reason], str]]] = []
    order: dict[Move, object] = {}
    for col in ruled:
        assert col.ruling is not None
        actions = {j.move: j.reasons for j in col.ruling.actions}
        tables.append((col.id, actions, words[col.id].text))
        order.update(actions)  # the keys, in the order first listed
    absent = {ident: Cell(ident, False) for ident, _, _ in tables}
    new = tuple.__new__
    rows = []
    for move in order:
        cells: list[Cell] = []
        seen_legal = seen_illegal = False
        for ident, actions, text in tables:
            reasons = actions.get(move)
            if reasons is None:
                cells.append(absent[ident])
                continue
            for r in reasons:
                if r.code.blocks:
                    cells.append(new(Cell, (ident, True, False, text(r))))
                    seen_illegal = True
                    break
            else:
                cells.append(new(Cell, (ident, True, True, text(reasons[0]) if reasons else "")))
                seen_legal = True
        rows.append(Row(str(move), tuple(cells), seen_legal and seen_illegal, seen_legal))
    return tuple(rows)


def _stops(ruled: list[Column], words: dict[str, _Reasons]) -> tuple[ReplayStop, ...]:
    """Where each replay stopped, once per (line, move): the rulesets that stopped there, and the
    forbidding reasons' sentences, each once."""
    stops: dict[tuple[int, str], tuple[int, dict[str, None], dict[str, None]]] = {}
    for col in ruled:
        assert col.ruling is not None
        rep = col.ruling.replay
        if rep.failed is None:
            continue
        applied, titles, sentences = stops.setdefault((rep.failed.line, str(rep.failed.move)), (rep.applied, {}, {}))
        titles[col.title] = None
        sentences.update((words[col.id](r).text, None) for r in rep.reasons if r.blocks)
    return tuple(ReplayStop(line, move, applied, tuple(titles), tuple(sentences))
                 for (line, move), (applied, titles, sentences) in stops.items())


def _scores(ruled: list[Column], words: dict[str, _Reasons], out: str | None) -> tuple[ScoreView, ...]:
    """What each hand counts, when the round is over or ``check: score`` asks, grouped by
    rulesets that count alike. The engine gives each hand's points (None for a hand not given or
    holding tiles drawn unseen: listed, not left out); the page writes the sum out tile by tile,
    each tile counted by the engine's rule (:func:`rules.scoring.hand_points`), and marks the
    player who went out (``out``)."""
    groups: dict[tuple[object, ...], tuple[ScoreView, list[str]]] = {}
    for col in ruled:
        assert col.ruling is not None
        scores = col.ruling.scores
        if scores is None:
            continue
        state = col.ruling.state
        hands = []
        for seat, (name, hand) in enumerate(zip(state.players, state.hands)):
            if name not in scores:
                continue
            points = scores[name]
            if points is None or hand is None:
                unknown = Unknown.NOT_GIVEN if hand is None else Unknown.DRAWN_UNSEEN
                hands.append(HandScore(name, (), None, went_out=name == out, unknown=unknown))
                continue
            tiles = tuple(TileCount(str(t), hand_points((t,), col.ruleset)) for t in hand.tiles)
            hands.append(HandScore(name, tiles, points, terms(state, seat), went_out=name == out))
        blank = hand_points((Tile.of(0, 0),), col.ruleset)
        key = (tuple((h.player, h.sum) for h in hands), blank)
        group = groups.get(key)
        if group is None:
            round_over = state.round_over and col.ruling.count is None
            group = groups[key] = (ScoreView((), tuple(hands), blank, words[col.id].quote(SCORING_RULE), round_over), [])
        group[1].append(col.title)
    return tuple(replace(view, titles=tuple(titles)) for view, titles in groups.values())


def _board_key(ruling: Ruling) -> tuple[object, ...]:
    s = ruling.state
    hand = s.hands[s.to_move]
    return (s.players, s.engine, s.trains, s.to_move, hand, s.boneyard, s.round_over,
            ruling.replay.applied, ruling.replay.failed)


def _boards(ruled: list[Column], stop_list: tuple[ReplayStop, ...]) -> tuple[BoardView, ...]:
    groups: dict[tuple[object, ...], list[Column]] = {}
    for col in ruled:
        assert col.ruling is not None
        groups.setdefault(_board_key(col.ruling), []).append(col)
    stops = {(s.line, s.move): s for s in stop_list}
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
                opened.setdefault(i, []).append(col.title)
        labels = BoardLabels(open_doubles={i: len(ids) == len(cols) for i, ids in opened.items()})
        partial = tuple((WORDING.train_label(state.train_name(i), TrainRole.OF), tuple(ids)) for i, ids in opened.items()
                        if len(ids) != len(cols))
        titles = tuple(c.title for c in cols)
        failed = first.ruling.replay.failed
        stop = stops.get((failed.line, str(failed.move))) if failed is not None else None
        if several:
            caption = gettext("The board under %(ids)s") % {"ids": ", ".join(titles)}
        else:
            caption = gettext("The board")
        if stop is not None:
            caption += " — " + gettext("before the move on line %(line)s") % {"line": stop.line}
        same_set = len({c.ruling.state.set_max for c in cols if c.ruling is not None}) == 1
        svg = board_svg(state, labels, caption=caption, ident=f"board-{n}", show_set=same_set,
                        rtl=get_language_bidi())
        boards.append(BoardView(svg, titles, partial, stop))
    return tuple(boards)


# -- bad input -----------------------------------------------------------------------------------


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
