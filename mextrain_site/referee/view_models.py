"""What the adjudication page shows: the view models of a judged position, frozen values that
:mod:`.present` builds from the engine's rulings and :mod:`.ruling_html` writes out.

A quote is the reference's :class:`~mextrain_site.reference.citations.CitationView` (one view
model and one renderer of a citation for the referee and the reference). Nothing here decides a
rule: the values hold what the engine ruled, in the reader's words.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from mextrain_site.core.i18n import ruleset_name
from mextrain_site.reference.citations import CitationView
from mextrain_site.reference.wording import label
from rules.answer import Ruling
from rules.memo import Memo
from rules.ruleset import Ruleset
from rules.scoring import Term


def _names(titles: Iterable[str]) -> SafeString:
    """Ruleset names in a sentence: each in its own <bdi>, so a Hebrew sentence keeps its order."""
    return format_html_join(", ", "<bdi>{}</bdi>", ((t,) for t in titles))


@dataclass(frozen=True)
class ReasonView:
    code: str
    """Kept for the page's data attributes and tests; never shown to a player."""
    text: str
    blocks: bool
    rule: str | None
    quote: CitationView | None
    assumed: str = ""
    """For a rule the source is silent or ambiguous on: the reading the ruleset takes."""
    assumed_lang: str = ""
    silent: bool = False
    answers_dispute: bool = False


TITLE_LIMIT = 4096
_TITLES: Memo[tuple[str, int], tuple[Ruleset, str]] = Memo(TITLE_LIMIT)
"""Rulesets' names by (language, the ruleset's identity), each entry keeping its ruleset (so no
other can take its identity while it stands). Rulesets are loaded once per process (published
ones for good, house ones through a bounded cache)."""


@dataclass(frozen=True)
class Column:
    """One ruleset's answer (or why the position cannot arise under it)."""

    ruleset: Ruleset
    ruling: Ruling | None
    error: str = ""
    url: str = ""
    language: str = ""
    """The reader's language, which names the ruleset."""
    apart: str = ""
    """Why the ruleset is set apart from the verdict, in the reader's words ("Cardinal Games is for
    4 to 10 players; this position has 3."); "" when it fits the position."""
    smallest_set: int | None = None
    """When a pip above the ruleset's default set is all that refuses the position: the smallest
    set that holds it (judge again with ``set: double-N``)."""

    @property
    def id(self) -> str:
        return self.ruleset.id

    @functools.cached_property
    def title(self) -> str:
        """The ruleset as a player names it: its source's publisher or title, and its options by
        their labels (``Masters Traditional Games + Mandatory doubles``), named once per language,
        ruleset object and process (a ruleset is frozen)."""
        key = (self.language, id(self.ruleset))
        found = _TITLES.get(key)
        if found is None:
            found = _TITLES.keep(key, (self.ruleset, ruleset_name(self.ruleset)))
        return found[1]

    @property
    def applies(self) -> bool:
        """The ruleset allows the table's number of players: the verdict counts it."""
        return not self.apart

    @property
    def round_over(self) -> bool:
        return self.ruling is not None and self.ruling.state.round_over

    @property
    def to_move(self) -> str:
        """The player to move; "" when the position names none (a scoring question)."""
        return (self.ruling.to_move or "") if self.ruling is not None else ""

    @property
    def notes(self) -> tuple[str, ...]:
        return self.ruling.state.notes if self.ruling is not None else ()


@dataclass(frozen=True)
class Answer:
    """One ruleset's verdict on the disputed move: one line, one quote; the rest under 'why'."""

    column: Column
    legal: bool
    headline: ReasonView | None
    others: tuple[ReasonView, ...]


@dataclass(frozen=True)
class CheckView:
    move: str
    line: int
    answers: tuple[Answer, ...]
    """The rulesets the verdict counts: those that allow the table's number of players (every
    ruleset judged when none does)."""
    apart: tuple[Answer, ...] = ()
    """The rulesets set apart: their rules' answer, shown beside the verdict, not counted in it."""
    players: int = 0
    """The table's number of players."""

    @property
    def verdict(self) -> str:
        """'legal', 'illegal' or 'split' (the rulesets disagree)."""
        values = {a.legal for a in self.answers}
        if values == {True}:
            return "legal"
        if values == {False}:
            return "illegal"
        return "split"

    @property
    def legal_titles(self) -> SafeString:
        """The rulesets under which the move is legal, each isolated for right-to-left pages."""
        return _names(a.column.title for a in self.answers if a.legal)

    @property
    def illegal_titles(self) -> SafeString:
        return _names(a.column.title for a in self.answers if not a.legal)

    @property
    def has_others(self) -> bool:
        return any(a.others for a in self.answers + self.apart)


class Cell(NamedTuple):
    """One ruleset's verdict on one candidate move (a named tuple: a page has a hundred of these)."""

    ruleset: str
    """The ruleset's id."""
    present: bool
    """The move is a candidate under this ruleset."""
    legal: bool = False
    headline: str = ""
    """The reason the cell shows, in words: the first forbidding one, else the first at all."""


@dataclass(frozen=True, slots=True)
class Row:
    move: str
    cells: tuple[Cell, ...]
    disagree: bool
    """The rulesets under which the move is a candidate do not all say the same."""
    legal_somewhere: bool


@dataclass(frozen=True)
class ReplayStop:
    line: int
    move: str
    applied: int
    titles: tuple[str, ...]
    sentences: tuple[str, ...]
    """The forbidding reasons' sentences, each once."""


@dataclass(frozen=True)
class TileCount:
    tile: str
    points: int


class Unknown(enum.Enum):
    """Why a hand is not counted."""

    NOT_GIVEN = "not-given"
    """The position gives no ``hand`` line for the player (nor ``out:``)."""
    DRAWN_UNSEEN = "drawn-unseen"
    """The player drew tiles that the position does not show."""


@dataclass(frozen=True)
class HandScore:
    player: str
    tiles: tuple[TileCount, ...]
    total: int | None
    """The points; None for a hand not counted (:attr:`unknown` says why)."""
    terms: tuple[Term, ...] = ()
    """The bonus and penalties the ruleset adds (rules.scoring.terms)."""
    went_out: bool = False
    """The player who went out (``out:``): no tile left."""
    unknown: Unknown | None = None

    @property
    def sum(self) -> str:
        """The count written out: '0-0 counts 50 + 12-11 counts 23 = 73', with the bonus and
        penalties as terms: '... + Marker penalty adds 25 = 98'; for a hand not counted, why."""
        if self.unknown is Unknown.NOT_GIVEN or self.total is None and self.unknown is None:
            return gettext("hand not given")
        if self.unknown is Unknown.DRAWN_UNSEEN or self.total is None:
            return gettext("hand not known: tiles drawn unseen")
        if not self.tiles and not self.terms:
            return gettext("no tiles left = %(total)s") % {"total": self.total}
        parts = [gettext("%(tile)s counts %(points)s") % {"tile": t.tile, "points": t.points} for t in self.tiles]
        if not self.tiles:
            parts.append(gettext("no tiles left"))
        parts += [gettext("%(rule)s adds %(points)s") % {"rule": label(t.code.rule or ""), "points": t.points}
                  for t in self.terms]
        return " + ".join(parts) + f" = {self.total}"


@dataclass(frozen=True)
class ScoreView:
    """What each known hand counts, for the rulesets that count it alike."""

    titles: tuple[str, ...]
    hands: tuple[HandScore, ...]
    blank: int
    """What the double-blank counts under these rulesets."""
    quote: CitationView | None
    round_over: bool


@dataclass(frozen=True)
class BoardView:
    svg: SafeString
    titles: tuple[str, ...]
    partial_open: tuple[tuple[str, tuple[str, ...]], ...]
    """(train, ruleset titles) for open doubles that only some of the rulesets hold open."""
    stop: ReplayStop | None


@dataclass(frozen=True)
class Retry:
    """The offer to judge again with a larger set, when a pip above the set the rulesets use by
    default is all that refuses the position: the text as typed with ``set: double-N`` added."""

    set_max: int
    text: str

    @property
    def line(self) -> str:
        return f"set: double-{self.set_max}"


@dataclass(frozen=True)
class Judged:
    text: str
    columns: tuple[Column, ...]
    check: CheckView | None
    rows: tuple[Row, ...]
    stops: tuple[ReplayStop, ...]
    boards: tuple[BoardView, ...]
    scores: tuple[ScoreView, ...] = ()
    retry: Retry | None = None
    """Offered when every ruleset that cannot judge the position is refused only for a pip above
    its default set."""

    @property
    def ruled(self) -> list[Column]:
        return [c for c in self.columns if c.ruling is not None]

    @property
    def impossible(self) -> list[Column]:
        return [c for c in self.columns if c.ruling is None]

    @property
    def apart(self) -> list[Column]:
        """The rulesets judged but set apart (their deal does not allow the table's number of players)."""
        return [c for c in self.columns if c.ruling is not None and not c.applies]

    @functools.cached_property
    def open_rows(self) -> list[Row]:
        """Candidates legal under at least one ruleset."""
        return [r for r in self.rows if r.legal_somewhere]

    @functools.cached_property
    def closed_rows(self) -> list[Row]:
        """Candidates illegal under every ruleset."""
        return [r for r in self.rows if not r.legal_somewhere]

    @functools.cached_property
    def disagreements(self) -> int:
        return sum(1 for r in self.rows if r.disagree)

    @property
    def to_move(self) -> list[str]:
        """The player to move, once per distinct answer (rulesets may stop a replay differently)."""
        return list(dict.fromkeys(c.to_move for c in self.ruled if not c.round_over and c.to_move))

    @property
    def notes(self) -> list[str]:
        return list(dict.fromkeys(n for c in self.ruled for n in c.notes))

    @property
    def multiple(self) -> bool:
        return len(self.columns) > 1


@dataclass(frozen=True)
class EchoLine:
    """One line of the echo of a text refused: the bad one marked where the parser stopped."""

    number: int
    before: str
    mark: str
    after: str
    bad: bool
