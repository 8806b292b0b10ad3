"""What a position may hold under a ruleset (issue 7).

- The set: without ``set:``, the one the ruleset's table gives for this many players, else the
  engine's number (the spec); a pip above it, or a round past its last double, is refused.
"""

from __future__ import annotations

from .messages import Message
from .position import ImpossiblePositionError, Position
from .ruleset import Ruleset
from .tiles import STANDARD_SETS


def default_set(ruleset: Ruleset, players: int, engine: int) -> int:
    """The set a position uses when it names none (the spec): the one the ruleset's table gives
    for this many players (its first such row whose set holds the engine), else the engine's
    number (the smallest standard set holding it). Never widened to fit the other pips."""
    for row in ruleset.flags.setup_deal:
        if row.min_players <= players <= row.max_players and row.set_max >= engine:
            return row.set_max
    return next(s for s in STANDARD_SETS if s >= engine)


def set_for(position: Position, ruleset: Ruleset) -> int:
    """The position's set under ``ruleset``; ImpossiblePositionError when a tile has a pip above it,
    or the round is past the set's last double (one round per double)."""
    if position.set_max is not None:
        return position.set_max  # the parser has refused pips and rounds beyond a named set
    set_max = default_set(ruleset, len(position.players), position.engine)
    top = position.highest
    if top is not None and top.tile.high > set_max:
        raise ImpossiblePositionError(Message("{tile} has a pip above the set's maximum {limit}", tile=top.tile,
                                              limit=set_max), top.line, top.column, "pip-above-set")
    if position.round is not None and position.round > set_max + 1:
        line, column = position.round_at
        raise ImpossiblePositionError(Message("expected a round number from 1 to {limit}, found {found}",
                                              limit=set_max + 1, found=repr(str(position.round))), line or None,
                                      column or None, "round-above-set")
    return set_max
