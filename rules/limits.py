"""What a position may hold under a ruleset, and how much work judging it may take (issue 7).

- The set: without ``set:``, the one the ruleset's table gives for this many players, else the
  engine's number (the spec); a pip above it, or a round past its last double, is refused.
- The boneyard: no more than the deal leaves; a hand: no larger than the deal and the boneyard allow.
- The work of one request: rulesets × (candidate actions + moves replayed), bounded by
  :data:`MAX_WORK` before anything is judged; the answer's size by :data:`MAX_ANSWER_BYTES`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .deal import last_round
from .errors import ErrorCode
from .messages import Message
from .moves import Action
from .position import ImpossiblePositionError, Position
from .ruleset import MissingEngine, Ruleset
from .tiles import STANDARD_SETS, set_size

_SET_ASIDE = MissingEngine.SET_ASIDE_BEFORE_DEAL

MAX_WORK = 3_000
"""Most candidate actions and replayed moves judged for one request, summed over its rulesets
(the worst request within it is answered in well under 0.5 s: ``make bench``)."""
MAX_PAGE_WORK = 1_200
"""The same for the page, which renders every judgement as HTML (about ten times the cost of the
JSON answer), a shared ruling included."""
MAX_ANSWER_BYTES = 4_000_000
"""Largest JSON answer sent, in bytes."""


def default_set(ruleset: Ruleset, players: int, engine: int | None, high: int = 0, round_no: int | None = None) -> int:
    """The set a position uses when it names none (the spec): the one the ruleset's table gives
    for this many players. Where it gives more than one (gamerules: double-9 or double-12 for four
    players), the first that holds the engine, ``high`` (the highest pip shown) and the round
    (rules.deal.last_round); else its first that holds the engine, and a pip or a round beyond
    it is refused. Never widened to fit the pips: past the table, the engine's number (the
    smallest standard set holding it). Without an engine (a scoring question; the engine is then
    the set's highest double), the table's first set for this many players, or where it has no
    row for them, the smallest standard set holding ``high``."""
    rows = [r.set_max for r in ruleset.flags.setup_deal if r.min_players <= players <= r.max_players]
    need = max(engine or 0, high)
    for set_max in rows:
        if set_max >= need and (round_no is None or round_no <= last_round(ruleset, set_max)):
            return set_max
    if engine is None:
        return rows[0] if rows else next(s for s in STANDARD_SETS if s >= high)
    return next((s for s in rows if s >= engine), None) or next(s for s in STANDARD_SETS if s >= engine)


def set_for(position: Position, ruleset: Ruleset) -> int:
    """The position's set under ``ruleset``; ImpossiblePositionError when a tile has a pip above it,
    or the round is past the game's last (rules.deal.last_round)."""
    if position.set_max is not None:
        set_max = position.set_max  # the parser has refused pips beyond a named set
    else:
        set_max = _default_for(position, ruleset)
    last = last_round(ruleset, set_max)
    if position.round is not None and position.round > last:
        line, column = position.round_at
        if isinstance(ruleset.flags.rounds_count, int):
            message = Message("a {ruleset} game has {count} rounds; found round {found}", ruleset=ruleset.id,
                              count=last, found=position.round)
            code = ErrorCode.ROUND_ABOVE_GAME
        else:
            message = Message("expected a round number from 1 to {limit}, found {found}", limit=last,
                              found=repr(str(position.round)))
            code = ErrorCode.ROUND_ABOVE_SET
        raise ImpossiblePositionError(message, line or None, column or None, code)
    return set_max


def _default_for(position: Position, ruleset: Ruleset) -> int:
    """The set of a position without ``set:`` (see :func:`default_set`), checked against its pips."""
    top = position.highest
    set_max = default_set(ruleset, len(position.players), position.engine, top.tile.high if top is not None else 0,
                          position.round)
    if top is not None and top.tile.high > set_max:
        # The set was chosen for the player, not named: say how to name one that holds the tile.
        larger = next(s for s in STANDARD_SETS if s >= top.tile.high)
        raise ImpossiblePositionError(
            Message("{tile} has a pip above the set's maximum {limit}; for a larger set, add a line like "
                    "'set: double-{larger}'", tile=top.tile, limit=set_max, larger=larger),
            top.line, top.column, ErrorCode.PIP_ABOVE_SET)
    return set_max


def deals(ruleset: Ruleset, players: int, set_max: int) -> Sequence[int]:
    """How many tiles each player may have taken: the table's row for this many players and this
    set (a table may give two); where it names none, any deal the set allows, at least one tile
    each (a row for fewer players deals more than a larger table takes, so it bounds nothing)."""
    rows = sorted({r.tiles for r in ruleset.flags.setup_deal if r.tiles is not None
                   and r.min_players <= players <= r.max_players and r.set_max == set_max})
    return rows or range(1, _dealable(ruleset, set_max) // players + 1)


def _dealable(ruleset: Ruleset, set_max: int) -> int:
    """The tiles dealt from: the set, less the engine where it is set aside before the deal
    (``engine.missing`` set-aside-before-deal: it was never in the boneyard)."""
    return set_size(set_max) - (ruleset.flags.engine_missing is _SET_ASIDE)


def checked_set(position: Position, ruleset: Ruleset) -> int:
    """:func:`set_for`, after checking that the boneyard and every hand given fit the deal: the
    boneyard holds at most what the smallest possible deal left (it only shrinks after), a hand at
    most the deal and every tile drawn since (what the deal left, less what is still there), under
    the deal that allows the most; where no deal fits the set, the set bounds a hand."""
    set_max = set_for(position, ruleset)
    players, boneyard = len(position.players), position.boneyard_count
    possible, left = deals(ruleset, players, set_max), _dealable(ruleset, set_max)
    if boneyard is not None and possible and boneyard > (most := left - players * min(possible)):
        line, column = position.boneyard_at
        raise ImpossiblePositionError(
            Message("the boneyard holds {count} tiles, but {ruleset}'s deal leaves at most {limit} for {players} "
                    "players with a double-{set} set", count=boneyard, ruleset=ruleset.id, limit=most,
                    players=players, set=set_max), line or None, column or None, ErrorCode.BONEYARD_TOO_LARGE)
    limit = max((d + max(0, left - players * d - (boneyard or 0)) for d in possible), default=set_size(set_max))
    for (name, tiles), (line, column) in zip(position.hands, position.hands_at or ((0, 0),) * len(position.hands)):
        if len(tiles) > limit:
            raise ImpossiblePositionError(
                Message("{name}'s hand holds {count} tiles; the deal and the boneyard allow at most {limit}",
                        name=name, count=len(tiles), limit=limit), line or None, column or None,
                ErrorCode.HAND_TOO_LARGE)
    return set_max


@dataclass(frozen=True, slots=True)
class Work:
    """The most judging a request can take: per ruleset, each candidate action and each move."""

    rulesets: int
    candidates: int
    moves: int

    @property
    def total(self) -> int:
        return self.rulesets * (self.candidates + self.moves)


def work(position: Position, rulesets: int) -> Work:
    """An upper bound on the judging a request asks for, known before anything is judged: the
    candidate actions of the largest hand given (each tile on each train, counting the tiles its
    holder's moves may draw into it; then draw, pass and done; and the check) and every move to
    replay. A hand not given has no tile candidates."""
    trains = len(position.players) + 1
    draws = Counter(m.move.player for m in position.moves if m.move.action is Action.DRAW)
    tiles = max((len(set(hand)) + draws[name] for name, hand in position.hands), default=0)
    return Work(rulesets, tiles * trains + 3 + (position.check is not None), len(position.moves))
