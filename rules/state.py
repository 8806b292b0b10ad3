"""The state of a round under one ruleset: frozen values (trains, hands, a turn's progress).

A :class:`State` is frozen; :mod:`rules.transitions` builds one from a position and returns the
next one after a move (``build``, ``apply``). This module holds the values only, so that the
judge (rules.legality, rules.blocked) and the transitions above it both build on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .moves import MEXICAN
from .position import Phase, TrainLine
from .ruleset import Ruleset
from .tiles import Tile

# Enum members read once: in Python 3.11 EnumType.__getattr__ makes each read through the class
# (Phase.FIRST_TURN) a slow attribute lookup, about 0.1 us, and this is read on every move.
_FIRST_TURN = Phase.FIRST_TURN


class Train(NamedTuple):
    """A train on the table: known tiles and its open end (the engine's number if unstarted).

    Trains, hands and a turn's progress are named tuples: a move makes new ones, and a tuple
    is the cheapest frozen value to make (change one with ``_replace``)."""

    tiles: tuple[Tile, ...]
    end: int
    marker: bool = False
    unknown_prefix: bool = False
    near: int | None = None

    @property
    def started(self) -> bool:
        return bool(self.tiles) or self.unknown_prefix

    @property
    def ends_in_double(self) -> bool:
        return bool(self.tiles) and self.tiles[-1].is_double

    def line(self) -> TrainLine:
        return TrainLine(self.tiles, self.unknown_prefix, self.near, self.marker)


class Hand(NamedTuple):
    """A known hand; ``unknown`` counts tiles drawn unseen."""

    tiles: tuple[Tile, ...]
    unknown: int = 0

    @property
    def empty(self) -> bool:
        return not self.tiles and not self.unknown


class Progress(NamedTuple):
    """What has happened so far in the current turn."""

    played: int = 0
    drew: bool = False
    """Drew since the last tile laid."""
    drawn: Tile | None = None
    """The drawn tile, when known."""
    doubles_laid: bool = False
    """The player laid a double this turn and plays again (a non-double would have ended it)."""
    special: bool = False
    """This turn is a special first turn in which several tiles may be laid."""
    train: int | None = None
    """In a special first turn, the train its tiles are laid on (first_turn.trains
    own-or-mexican: one train or the other, rules.legality.one_first_turn_train)."""


@dataclass(frozen=True)
class State:
    ruleset: Ruleset
    players: tuple[str, ...]
    set_max: int
    engine: int
    trains: tuple[Train, ...]
    """The players' trains in seat order, then the Mexican train."""
    hands: tuple[Hand | None, ...]
    boneyard: int | None
    boneyard_tiles: tuple[Tile, ...] | None
    """The tiles that may still be in the boneyard: exactly the boneyard when every draw was
    seen; after an unseen draw, also the tile that left (which one is not known)."""
    to_move: int
    phase: Phase
    pending_first: frozenset[int]
    open_doubles: tuple[int, ...]
    progress: Progress
    round_no: int | None = None
    seen_drawn: tuple[frozenset[Tile], ...] = ()
    """Per seat whose hand is not given: tiles seen drawn and not played yet."""
    passes: int = 0
    """Passes in a row with an empty boneyard since a train last opened to the passers: the
    evidence of a blocked round where hands are unknown (see rules.blocked)."""
    round_over: bool = False
    notes: tuple[str, ...] = ()
    pips: tuple[int, ...] = ()
    """How many tiles on the table show each pip (rules.doubles.pip_counts): kept up to date on
    every play, for the dead-double rule."""

    @property
    def board(self) -> frozenset[Tile]:
        """Every tile known to be on the table, the engine included: computed when asked (a
        play only adds to a train; rules.legality.Analysis keeps it for the questions of a state)."""
        engine = Tile.of(self.engine, self.engine)
        return frozenset([engine, *(t for train in self.trains for t in train.tiles)])

    @property
    def hands_known(self) -> bool:
        """Every hand is given and holds no tile drawn unseen (rules.blocked, rules.doubles.dead)."""
        return all(h is not None and not h.unknown for h in self.hands)

    @property
    def drawing_over(self) -> bool:
        """No tile will be drawn any more this round: the boneyard is empty, or the ruleset never
        draws from it (``turn.cannot_play`` marker-no-draw, ``Flags.boneyard_closed``). From then
        on passes count towards a blocked round (rules.blocked)."""
        return self.boneyard == 0 or self.ruleset.flags.boneyard_closed

    @property
    def mexican(self) -> int:
        return len(self.players)

    def train_name(self, index: int) -> str:
        return self.players[index] if index < len(self.players) else MEXICAN

    def train_index(self, name: str) -> int:
        return self.mexican if name == MEXICAN else self.players.index(name)

    def seat(self, name: str) -> int:
        return self.players.index(name)

    @property
    def player(self) -> str:
        return self.players[self.to_move]

    @property
    def next_seat(self) -> int:
        return (self.to_move + 1) % len(self.players)

    @property
    def first_turn_now(self) -> bool:
        """The player to move is taking their first turn of the round."""
        return self.phase is _FIRST_TURN and self.to_move in self.pending_first


def evolve(state: State, **changes: object) -> State:
    """A copy of ``state`` with ``changes``: ``dataclasses.replace`` without re-running
    ``__init__`` (the hot path of self-play). A state holds its fields and nothing else (what is
    derived from it lives in rules.legality.Analysis), so its dict is copied whole."""
    new = object.__new__(State)
    values = new.__dict__
    values.update(state.__dict__)
    values.update(changes)
    return new
