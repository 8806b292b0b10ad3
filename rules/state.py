"""The state of a round under one ruleset, and how a move changes it.

A :class:`State` is frozen; :func:`apply` returns the next one. ``apply`` does not judge:
callers judge first (:func:`rules.judge.explain`), and :func:`rules.judge.replay` does both.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from functools import cached_property

from .errors import ErrorCode
from .limits import checked_set
from .messages import Message
from .moves import MEXICAN, Action, Move
from .position import ImpossiblePositionError, Phase, Position, TrainLine, check_tile_count
from .ruleset import (
    DoubleObligation,
    EngineTile,
    FirstTurnOut,
    FirstTurnTiles,
    FirstTurnTrains,
    FirstTurnWho,
    Flags,
    MarkerPlaced,
    Ruleset,
)
from .tiles import Tile


@dataclass(frozen=True, slots=True)
class Train:
    """A train on the table: known tiles and its open end (the engine's number if unstarted)."""

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


@dataclass(frozen=True, slots=True)
class Hand:
    """A known hand; ``unknown`` counts tiles drawn unseen."""

    tiles: tuple[Tile, ...]
    unknown: int = 0

    @property
    def empty(self) -> bool:
        return not self.tiles and not self.unknown


@dataclass(frozen=True, slots=True)
class Progress:
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
    board: frozenset[Tile]
    """Every tile known to be on the table, the engine included."""
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
        return self.phase is Phase.FIRST_TURN and self.to_move in self.pending_first

    @cached_property
    def pip_counts(self) -> tuple[int, ...]:
        """How many tiles on the table show each pip (a double counts once)."""
        counts = [0] * (self.set_max + 1)
        for t in self.board:
            counts[t.high] += 1
            if not t.is_double:
                counts[t.low] += 1
        for train in self.trains:
            if train.unknown_prefix and train.near is not None:
                counts[train.near] += 1  # the hidden tile the first known one is laid against
        return tuple(counts)

    def is_dead(self, index: int) -> bool:
        """The double ending this train can no longer be satisfied: every match is played."""
        train = self.trains[index]
        if not train.ends_in_double:
            return False
        d = train.tiles[-1].high
        return self.pip_counts[d] >= self.set_max + 1


def build(position: Position, ruleset: Ruleset) -> State:
    """The state a position describes, under a ruleset (before any ``moves``)."""
    flags = ruleset.flags
    lines = (*position.trains, position.mexican)
    board: set[Tile] = set()
    for line in lines:
        board.update(line.tiles)
    known: set[Tile] = set(board)
    for _, tiles in position.hands:
        known.update(tiles)
    if isinstance(position.boneyard, tuple):
        known.update(position.boneyard)
    set_max = checked_set(position, ruleset)
    engine = position.engine if position.engine is not None else _default_engine(position, set_max)
    board.add(Tile.of(engine, engine))
    known.add(Tile.of(engine, engine))
    bone_count = position.boneyard_count
    unlisted = position.boneyard if isinstance(position.boneyard, int) else 0
    check_tile_count(len(known) + unlisted, set_max)
    trains = tuple(
        Train(line.tiles, line.open_end(engine), line.marker, line.unknown_prefix, line.near) for line in lines
    )
    hands = tuple(Hand(h) if (h := position.hand(p)) is not None else None for p in position.players)
    to_move = position.players.index(position.turn) if position.turn is not None else 0
    n = len(position.players)
    pending: frozenset[int] = frozenset()
    untouched = not any(t.started or t.marker for t in trains)
    if position.phase is Phase.FIRST_TURN:
        if flags.first_turn_who is FirstTurnWho.FIRST_PLAYER_ONLY:
            # only the first player's turn is special: once a train is started, it is over
            pending = frozenset({to_move}) if untouched else frozenset()
        else:
            pending = frozenset({to_move} | {i for i in range(n) if not trains[i].started and not trains[i].marker})
    open_doubles: tuple[int, ...] = ()
    if flags.doubles_obligation is DoubleObligation.SATISFY:
        # A double ending a train is open; `open-doubles:` gives the order they were laid in.
        listed = tuple(position.players.index(name) if name != MEXICAN else n for name in position.open_doubles or ())
        open_doubles = listed + tuple(i for i in range(n + 1) if trains[i].ends_in_double and i not in listed)
    notes = []
    rng = flags.players_count
    if not rng.min <= n <= rng.max:
        notes.append(Message("{ruleset} is for {low} to {high} players; this position has {count}.",
                             ruleset=ruleset.id, low=rng.min, high=rng.max, count=n))
    if position.round is not None and flags.engine_tile is EngineTile.ROUND_DOUBLE:
        expected = set_max - (position.round - 1)
        if expected != engine:
            notes.append(Message("under {ruleset} round {round} is played with the {expected}-{expected} engine, "
                                 "not {engine}-{engine}.", ruleset=ruleset.id, round=position.round,
                                 expected=expected, engine=engine))
    if pending and trains[n].started and flags.first_turn_trains is FirstTurnTrains.OWN_ONLY:
        notes.append(Message("under {ruleset} nobody starts the Mexican train during the first turns, "
                             "yet it is started here.", ruleset=ruleset.id))
    phase = position.phase if pending else Phase.PLAY
    out = any(h is not None and h.empty for h in hands)
    state = State(
        ruleset=ruleset,
        players=position.players,
        set_max=set_max,
        engine=engine,
        trains=trains,
        hands=hands,
        boneyard=bone_count,
        boneyard_tiles=position.boneyard if isinstance(position.boneyard, tuple) else None,
        board=frozenset(board),
        to_move=to_move,
        phase=phase,
        pending_first=pending,
        open_doubles=open_doubles,
        progress=_turn_start(flags, phase, pending, to_move),
        round_no=position.round,
        seen_drawn=tuple(frozenset() for _ in position.players),
        round_over=out and (phase is Phase.PLAY or flags.first_turn_going_out is FirstTurnOut.ROUND_ENDS),
        notes=tuple(notes),
    )
    return evolve(state, round_over=True) if not state.round_over and _blocked(state) else state


def _blocked(state: State) -> bool:
    """Nobody can play, as far as the known hands tell (rules.blocked): the round is over."""
    if state.boneyard != 0:
        return False
    from .blocked import nobody_can_play  # it judges plays, and the judge builds on this module

    return nobody_can_play(state)


def _default_engine(position: Position, set_max: int) -> int:
    """A scoring question may leave the engine out: the set's highest double, unless a hand holds it."""
    engine = Tile.of(set_max, set_max)
    for name, tiles in position.hands:
        if engine in tiles:
            raise ImpossiblePositionError(
                Message("{name}'s hand holds {tile}, the engine of a double-{set} set; give the 'engine:' line",
                        name=name, tile=engine, set=set_max), code=ErrorCode.TILE_TWICE)
    if isinstance(position.boneyard, tuple) and engine in position.boneyard:
        raise ImpossiblePositionError(
            Message("the boneyard holds {tile}, the engine of a double-{set} set; give the 'engine:' line",
                    tile=engine, set=set_max), code=ErrorCode.TILE_TWICE)
    return set_max


def _turn_start(flags: Flags, phase: Phase, pending: frozenset[int], seat: int) -> Progress:
    """A fresh turn: special (several tiles) when it is the seat's first turn and the ruleset has one."""
    special = phase is Phase.FIRST_TURN and seat in pending and flags.first_turn_tiles is FirstTurnTiles.CHAIN
    return _SPECIAL if special else _FRESH


_STATE_FIELDS = tuple(f.name for f in fields(State))


def evolve(state: State, **changes: object) -> State:
    """A copy of ``state`` with ``changes``: ``dataclasses.replace`` without re-running
    ``__init__`` (the hot path of self-play), and without the per-state caches."""
    new = object.__new__(State)
    values = state.__dict__
    new.__dict__.update({name: values[name] for name in _STATE_FIELDS})
    new.__dict__.update(changes)
    return new


def doubles_apply_now(state: State) -> bool:
    return not state.progress.special or state.ruleset.flags.first_turn_doubles_apply


def apply(state: State, move: Move) -> State:
    """The state after ``move``, which the caller has judged legal."""
    if move.action is Action.PLAY:
        return _play(state, move)
    if move.action is Action.DRAW:
        return _draw(state, move)
    if move.action is Action.PASS:
        trains = list(state.trains)
        own = trains[state.to_move]
        trains[state.to_move] = replace(own, marker=True)
        # A new marker opens the passer's train to the others (where marked trains are open):
        # their passes so far no longer show that they cannot play; the passer's own still does.
        opened = not own.marker and state.ruleset.flags.turn_marked_trains_open
        passes = (1 if opened else state.passes + 1) if state.boneyard == 0 and not state.first_turn_now else 0
        return _end_turn(state, trains=tuple(trains), passes=passes)
    return _end_turn(state)


def _play(state: State, move: Move) -> State:
    flags = state.ruleset.flags
    assert move.tile is not None and move.train is not None
    tile, seat, index = move.tile, state.to_move, state.train_index(move.train)
    hands = list(state.hands)
    hand = hands[seat]
    seen_drawn = state.seen_drawn
    bone_tiles = state.boneyard_tiles
    from_unseen = False
    if hand is not None:
        if tile in hand.tiles:
            hand = Hand(tuple(t for t in hand.tiles if t != tile), hand.unknown)
        else:
            hand = Hand(hand.tiles, max(0, hand.unknown - 1))
            from_unseen = True
        hands[seat] = hand
    elif tile in seen_drawn[seat]:
        seen_drawn = tuple(s - {tile} if i == seat else s for i, s in enumerate(seen_drawn))
    else:
        from_unseen = True
    if from_unseen and bone_tiles is not None and tile in bone_tiles:
        bone_tiles = tuple(t for t in bone_tiles if t != tile)  # it was the tile drawn unseen
    trains = list(state.trains)
    train = trains[index]
    marker = train.marker
    if index == seat:
        marker = False  # markers.removed: owner-plays-own-train
    trains[index] = replace(train, tiles=train.tiles + (tile,), end=tile.other(train.end), marker=marker)
    progress = state.progress
    if (flags.markers_placed is MarkerPlaced.WHEN_OWN_TRAIN_UNPLAYABLE and index != seat and not progress.special):
        trains[seat] = replace(trains[seat], marker=True)
    open_doubles = tuple(i for i in state.open_doubles if i != index)
    applies = doubles_apply_now(state)
    if tile.is_double and flags.doubles_obligation is DoubleObligation.SATISFY:
        # Recorded even during a special first turn, where it does not bind yet: a double
        # still uncovered when the first turns are over must then be satisfied.
        open_doubles += (index,)
    changes = dict(hands=tuple(hands), trains=tuple(trains), board=state.board | {tile}, open_doubles=open_doubles,
                   passes=0, seen_drawn=seen_drawn, boneyard_tiles=bone_tiles)
    if hand is not None and hand.empty:
        if state.first_turn_now and flags.first_turn_going_out is FirstTurnOut.FINISH_ROUND_OF_TURNS:
            return _end_turn(state, **changes)
        return evolve(state, round_over=True, **changes)
    if progress.special:
        return evolve(state, progress=replace(progress, played=progress.played + 1, drew=False, drawn=None),
                      **changes)
    if tile.is_double and flags.doubles_play_again and applies:
        return evolve(state, progress=replace(progress, played=progress.played + 1, drew=False, drawn=None,
                                              doubles_laid=True),
                      **changes)
    return _end_turn(state, **changes)


def _draw(state: State, move: Move) -> State:
    seat = state.to_move
    hands = list(state.hands)
    hand = hands[seat]
    seen_drawn = state.seen_drawn
    if hand is not None:
        hands[seat] = Hand(hand.tiles + (move.tile,), hand.unknown) if move.tile is not None else Hand(
            hand.tiles, hand.unknown + 1)
    elif move.tile is not None:
        seen_drawn = tuple(s | {move.tile} if i == seat else s for i, s in enumerate(seen_drawn))
    bone_tiles = state.boneyard_tiles
    if bone_tiles is not None and move.tile is not None:
        bone_tiles = tuple(t for t in bone_tiles if t != move.tile)
    count = state.boneyard - 1 if state.boneyard is not None else None
    return evolve(
        state,
        hands=tuple(hands),
        boneyard=count,
        boneyard_tiles=bone_tiles,
        seen_drawn=seen_drawn,
        # A player who draws on a special first turn (where that is allowed) has a normal
        # turn from then on: the drawn tile, if it can be played, is the whole turn.
        progress=replace(state.progress, drew=True, drawn=move.tile, special=False),
    )


def _end_turn(state: State, **changes: object) -> State:
    """Pass the turn to the next seat, closing the first-turn phase and the round as due."""
    n = len(state.players)
    pending = state.pending_first
    phase = state.phase
    flags = state.ruleset.flags
    if phase is Phase.FIRST_TURN:
        if flags.first_turn_who is FirstTurnWho.FIRST_PLAYER_ONLY:
            pending = frozenset()
        else:
            pending = pending - {state.to_move}
        if not pending:
            phase = Phase.PLAY
    hands = changes.get("hands", state.hands)
    passes = changes.get("passes", state.passes)
    assert isinstance(hands, tuple) and isinstance(passes, int)
    out = any(h is not None and h.empty for h in hands)
    over = (phase is Phase.PLAY and out) or passes >= n
    nxt = (state.to_move + 1) % n
    new = evolve(state, to_move=nxt, phase=phase, pending_first=pending, round_over=over or state.round_over,
                 progress=_turn_start(flags, phase, pending, nxt), **changes)
    return evolve(new, round_over=True) if not new.round_over and _blocked(new) else new


_FRESH = Progress()
_SPECIAL = Progress(special=True)
