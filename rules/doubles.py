"""The open-double rule, in one place: which doubles are open, which one binds the next tile,
and when a double is dead.

The rule keys it reads: ``doubles.obligation`` (whether an open double must be satisfied),
``doubles.order`` (which of several binds), ``doubles.follow_up`` (where the layer's next tile
may go), ``doubles.dead`` (a double whose number is all played stops binding) and
``first_turn.doubles_apply`` (whether any of it applies during a special first turn).

Open doubles are train indices, in the order they were laid. The state keeps them
(:func:`opened` when a position is read, :func:`after_play` on every tile laid); the legality
layers ask :func:`binding` which train the next tile must go on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .reasons import ReasonCode
from .ruleset import DoubleObligation, DoubleOrder, Flags, FollowUp
from .tiles import Tile

# Enum members read once: in Python 3.11 EnumType.__getattr__ makes each read through the class
# (Action.PLAY) a slow attribute lookup, about 0.1 us, and these are read on every move.
_SATISFY, _NO_OBLIGATION, _OLDEST_FIRST = DoubleObligation.SATISFY, DoubleObligation.NONE, DoubleOrder.OLDEST_FIRST
_EITHER = DoubleOrder.EITHER

if TYPE_CHECKING:
    from .state import State


class _Train(Protocol):
    @property
    def ends_in_double(self) -> bool: ...

    @property
    def unknown_prefix(self) -> bool: ...

    @property
    def near(self) -> int | None: ...


Binding = tuple[int, ReasonCode, int]
"""The train a tile must go on, the reason code that says why, and the other train it may go on
instead (the same train when there is no choice): where ``doubles.order`` lets open doubles be
satisfied in either order, the first laid or the last laid."""


def opened(flags: Flags, trains: tuple[_Train, ...], listed: tuple[int, ...]) -> tuple[int, ...]:
    """The open doubles of a position as read: every train that ends in a double (nothing covers
    it), ``listed`` (the ``open-doubles:`` line, oldest first) first and the rest in seat order."""
    if flags.doubles_obligation is not DoubleObligation.SATISFY:
        return ()
    return listed + tuple(i for i, t in enumerate(trains) if t.ends_in_double and i not in listed)


def after_play(flags: Flags, open_doubles: tuple[int, ...], index: int, tile: Tile) -> tuple[int, ...]:
    """The open doubles once ``tile`` is laid on the train at ``index``: it covers that train's
    double; a double laid opens. Recorded even during a special first turn, where it does not
    bind yet: a double still uncovered when the first turns are over must then be satisfied."""
    if index in open_doubles:
        open_doubles = tuple(i for i in open_doubles if i != index)
    if tile.high == tile.low and flags.doubles_obligation is _SATISFY:
        open_doubles += (index,)
    return open_doubles


def apply_now(state: State) -> bool:
    """Whether the double rules apply to the tile laid now (not during a special first turn,
    unless the ruleset says they do)."""
    return not state.progress.special or state.ruleset.flags.first_turn_doubles_apply


def pip_counts(set_max: int, board: frozenset[Tile], trains: tuple[_Train, ...]) -> tuple[int, ...]:
    """How many tiles on the table show each pip (a double counts once; a hidden tile that the
    first known one of a ``...`` train is laid against counts for that pip). The state keeps
    them (State.pips), counted once when a position is read and updated by :func:`shown`."""
    counts = [0] * (set_max + 1)
    for t in board:
        counts[t.high] += 1
        if t.high != t.low:
            counts[t.low] += 1
    for train in trains:
        if train.unknown_prefix and train.near is not None:
            counts[train.near] += 1
    return tuple(counts)


def shown(pips: tuple[int, ...], tile: Tile) -> tuple[int, ...]:
    """The pip counts once ``tile`` is on the table too."""
    high, low = tile
    if high == low:
        return pips[:high] + (pips[high] + 1,) + pips[high + 1:]
    counts = list(pips)
    counts[high] += 1
    counts[low] += 1
    return tuple(counts)


def dead(state: State) -> frozenset[int]:
    """The open doubles that are dead: every tile that matches them is on the table (only where
    ``doubles.dead`` says such a double stops binding).

    On the table means shown there, or known to be there by elimination: a tile is on the table,
    in a hand or in the boneyard, so where a train hides earlier tiles (``...``) while every hand
    and the boneyard are known, a tile in none of them is one of the hidden ones."""
    if not state.open_doubles or not state.ruleset.flags.doubles_dead:
        return frozenset()
    counts, full, trains = state.pips, state.set_max + 1, state.trains
    found = [i for i in state.open_doubles if counts[trains[i].tiles[-1].high] >= full]
    if len(found) < len(state.open_doubles) and any(t.unknown_prefix for t in trains):
        off_table = _off_table_pips(state)
        if off_table is not None:
            found = [i for i in state.open_doubles if i in found or trains[i].tiles[-1].high not in off_table]
    return frozenset(found) if found else _NONE


def _off_table_pips(state: State) -> frozenset[int] | None:
    """Every pip a tile off the table shows, when where each tile is off the table is known (every
    hand given, none holding a tile drawn unseen; the boneyard empty or listed); else None."""
    if not state.hands_known or (state.boneyard != 0 and state.boneyard_tiles is None):
        return None
    off = [t for hand in state.hands if hand is not None for t in hand.tiles]
    if state.boneyard != 0 and state.boneyard_tiles is not None:
        off += state.boneyard_tiles
    return frozenset(pip for tile in off for pip in tile)


_NONE: frozenset[int] = frozenset()
UNBOUND: tuple[Binding | None, Binding | None] = (None, None)


def binding(state: State, dead_doubles: frozenset[int]) -> tuple[Binding | None, Binding | None]:
    """The train the next tile must go on because of an open double, with the reason code; None
    when no double binds it. A pair: for a tile that is not a double, and for one that is."""
    flags = state.ruleset.flags
    if flags.doubles_obligation is _NO_OBLIGATION or not state.open_doubles or not apply_now(state):
        return UNBOUND
    live = [i for i in state.open_doubles if i not in dead_doubles] if dead_doubles else state.open_doubles
    if not live:
        return UNBOUND
    order = flags.doubles_order
    target = live[0] if order is _OLDEST_FIRST or order is _EITHER else live[-1]
    other = live[-1] if order is _EITHER else target
    either = other != target
    if state.progress.doubles_laid:
        follow = flags.doubles_follow_up
        if follow is FollowUp.ANY_AVAILABLE_TRAIN:
            return UNBOUND
        bound = (target, ReasonCode.MUST_SATISFY_EITHER_DOUBLE if either else ReasonCode.MUST_SATISFY_OWN_DOUBLE, other)
        # where doubles may go anywhere first, a double is not bound
        return (bound, None) if follow is FollowUp.DOUBLES_ANYWHERE_THEN_SATISFY else (bound, bound)
    bound = (target, ReasonCode.MUST_SATISFY_EITHER_DOUBLE if either else ReasonCode.MUST_SATISFY_DOUBLE, other)
    return bound, bound
