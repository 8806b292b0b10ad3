"""The state of a round under one ruleset, and how a move changes it.

A :class:`State` is frozen; :func:`apply` returns the next one. ``apply`` does not judge:
callers judge first (:func:`rules.legality.is_legal`), and :func:`rules.replay.replay` does both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from . import doubles
from .deal import engine_double
from .errors import ErrorCode
from .limits import checked_set
from .messages import Message
from .moves import MEXICAN, Action, Move
from .position import ImpossiblePositionError, Phase, Position, TrainLine, check_tile_count
from .ruleset import (
    EngineTile,
    FirstTurnOut,
    FirstTurnTiles,
    FirstTurnTrains,
    FirstTurnWho,
    Flags,
    MarkerPlaced,
    MarkerRemoved,
    Ruleset,
)
from .tiles import Tile

# Enum members read once: in Python 3.11 EnumType.__getattr__ makes each read through the class
# (Action.PLAY) a slow attribute lookup, about 0.1 us, and these are read on every move.
_PLAY, _DRAW, _PASS = Action.PLAY, Action.DRAW, Action.PASS
_FIRST_TURN, _PLAY_PHASE = Phase.FIRST_TURN, Phase.PLAY
_MARKER_WHEN_UNPLAYABLE = MarkerPlaced.WHEN_OWN_TRAIN_UNPLAYABLE


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
    engine = position.engine if position.engine is not None else _default_engine(position, ruleset, set_max, known)
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
    listed = tuple(position.players.index(name) if name != MEXICAN else n for name in position.open_doubles or ())
    open_doubles = doubles.opened(flags, trains, listed)
    notes = []  # a ruleset whose deal does not allow n players: rules.answer.player_count
    if position.round is not None and (expected := engine_double(ruleset, set_max, position.round)) is not None:
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
        to_move=to_move,
        phase=phase,
        pending_first=pending,
        open_doubles=open_doubles,
        progress=_turn_start(flags, phase, pending, to_move),
        round_no=position.round,
        seen_drawn=tuple(frozenset() for _ in position.players),
        round_over=out and (phase is Phase.PLAY or flags.first_turn_going_out is FirstTurnOut.ROUND_ENDS),
        notes=tuple(notes),
        pips=doubles.pip_counts(set_max, frozenset(board), trains),
    )
    return evolve(state, round_over=True) if not state.round_over and _blocked(state) else state


def _blocked(state: State) -> bool:
    """Nobody can play, as far as the known hands tell (rules.blocked): the round is over."""
    global _nobody_can_play
    judge = _nobody_can_play
    if judge is None:
        from .blocked import nobody_can_play  # it judges plays, and the judge builds on this module

        judge = _nobody_can_play = nobody_can_play
    return judge(state)


_nobody_can_play: Callable[[State], bool] | None = None
"""rules.blocked.nobody_can_play, imported on first use (every turn once the boneyard is empty)."""


def _default_engine(position: Position, ruleset: Ruleset, set_max: int, seen: set[Tile]) -> int:
    """A scoring question may leave the engine out. Where the ruleset fixes it (the set's highest
    double every round, or the round's double and the position names the round), that double,
    which no hand or listed boneyard may then hold. Else any double not ``seen`` (in a hand, the
    listed boneyard or a train) may be the engine (the highest held was placed, and a higher one
    may have been drawn since): the highest of those, the spec's set's highest double when nobody
    holds it."""
    by_round = ruleset.flags.engine_tile is EngineTile.ROUND_DOUBLE
    # the round not given, its double is not known
    fixed = None if by_round and position.round is None else engine_double(ruleset, set_max, position.round or 1)
    if fixed is None:
        free = next((p for p in range(set_max, -1, -1) if Tile.of(p, p) not in seen), None)
        if free is not None:
            return free
        fixed = set_max
    engine = Tile.of(fixed, fixed)
    whose = (Message("the engine of round {round}", round=position.round)
             if by_round and position.round is not None else
             Message("the engine of a double-{set} set", set=set_max))
    for (name, tiles), (line, column) in zip(position.hands, position.hands_at or ((0, 0),) * len(position.hands)):
        if engine in tiles:
            raise ImpossiblePositionError(
                Message("{name}'s hand holds {tile}, {whose}; give the 'engine:' line", name=name, tile=engine,
                        whose=whose), line or None, column or None, ErrorCode.TILE_TWICE)
    if isinstance(position.boneyard, tuple) and engine in position.boneyard:
        raise ImpossiblePositionError(
            Message("the boneyard holds {tile}, {whose}; give the 'engine:' line", tile=engine, whose=whose),
            code=ErrorCode.TILE_TWICE)
    return fixed


def _turn_start(flags: Flags, phase: Phase, pending: frozenset[int], seat: int) -> Progress:
    """A fresh turn: special (several tiles) when it is the seat's first turn and the ruleset has one."""
    special = phase is _FIRST_TURN and seat in pending and flags.first_turn_tiles is FirstTurnTiles.CHAIN
    return _SPECIAL if special else _FRESH


def evolve(state: State, **changes: object) -> State:
    """A copy of ``state`` with ``changes``: ``dataclasses.replace`` without re-running
    ``__init__`` (the hot path of self-play). A state holds its fields and nothing else (what is
    derived from it lives in rules.legality.Analysis), so its dict is copied whole."""
    new = object.__new__(State)
    values = new.__dict__
    values.update(state.__dict__)
    values.update(changes)
    return new


def apply(state: State, move: Move) -> State:
    """The state after ``move``, which the caller has judged legal."""
    action = move[1]  # Move.action
    if action is _PLAY:
        return _play(state, move)
    if action is _DRAW:
        return _draw(state, move)
    if action is _PASS:
        seat = state.to_move
        trains = state.trains
        own = trains[seat]
        marked = _make(Train, (own[0], own[1], True, own[3], own[4]))  # own._replace(marker=True)
        values = dict(state.__dict__)
        values["trains"] = trains[:seat] + (marked,) + trains[seat + 1:]
        # A new marker opens the passer's train to the others (where marked trains are open):
        # their passes so far no longer show that they cannot play; the passer's own still does.
        opened = not own.marker and state.ruleset.flags.turn_marked_trains_open
        values["passes"] = (1 if opened else state.passes + 1) if state.drawing_over and not state.first_turn_now else 0
        return _end_turn(state, values)
    return _end_turn(state, dict(state.__dict__))


def _play(state: State, move: Move) -> State:
    flags = state.ruleset.flags
    tile, train_name = move[2], move[3]
    assert tile is not None and train_name is not None
    players = state.players
    seat = state.to_move
    index = len(players) if train_name == MEXICAN else players.index(train_name)  # state.train_index
    changes = dict(state.__dict__)  # one copy, changed in place: the hot path of self-play
    hands = state.hands
    hand = hands[seat]
    from_unseen = False
    if hand is not None:
        held = hand[0]
        if tile in held:
            at = held.index(tile)  # a tile is in a hand once: positions refuse a tile twice
            hand = _make(Hand, (held[:at] + held[at + 1:], hand[1]))
        else:
            hand = Hand(held, max(0, hand.unknown - 1))
            from_unseen = True
        changes["hands"] = hands[:seat] + (hand,) + hands[seat + 1:]
    else:
        seen_drawn = state.seen_drawn
        if tile in seen_drawn[seat]:
            changes["seen_drawn"] = seen_drawn[:seat] + (seen_drawn[seat] - {tile},) + seen_drawn[seat + 1:]
        else:
            from_unseen = True
    if from_unseen:
        bone_tiles = state.boneyard_tiles
        if bone_tiles is not None and tile in bone_tiles:
            changes["boneyard_tiles"] = tuple(t for t in bone_tiles if t != tile)  # it was the tile drawn unseen
    high, low = tile
    trains = state.trains
    tiles, end, marker, unknown_prefix, near = trains[index]
    # markers.removed: owner-plays-own-train
    laid = _make(Train, (tiles + (tile,), low if high == end else high, marker and index != seat, unknown_prefix, near))
    progress = state.progress
    if flags.markers_placed is _MARKER_WHEN_UNPLAYABLE and index != seat and not progress.special:
        changed = list(trains)
        changed[index] = laid
        own = changed[seat]
        changed[seat] = _make(Train, (own[0], own[1], True, own[3], own[4]))  # marker down
        changes["trains"] = tuple(changed)
    else:
        changes["trains"] = trains[:index] + (laid,) + trains[index + 1:]
    if index != seat and trains[seat][2] and flags.markers_removed is MarkerRemoved.OWNER_PLAYS_ANY_TILE:
        changed = list(changes["trains"])
        changed[seat] = trains[seat]._replace(marker=False)
        changes["trains"] = tuple(changed)
    changes["pips"] = doubles.shown(state.pips, tile)
    double = high == low
    if double or state.open_doubles:
        changes["open_doubles"] = doubles.after_play(flags, state.open_doubles, index, tile)
    changes["passes"] = 0
    if hand is not None and not hand[0] and not hand[1]:
        if state.first_turn_now and flags.first_turn_going_out is FirstTurnOut.FINISH_ROUND_OF_TURNS:
            return _end_turn(state, changes)
        changes["round_over"] = True
        return _new(changes)
    if progress.special:
        changes["progress"] = Progress(progress.played + 1, False, None, progress.doubles_laid, True, index)
        return _new(changes)
    if double and flags.doubles_play_again and doubles.apply_now(state):
        changes["progress"] = Progress(progress.played + 1, False, None, True, progress.special)
        return _new(changes)
    return _end_turn(state, changes)


_make = tuple.__new__
"""Makes a named tuple from its fields, without the generated ``__new__``: the hot path."""


def _new(values: dict[str, object]) -> State:
    """A state holding ``values``, every field (see evolve)."""
    new = _object_new(State)
    _set_dict(new, values)
    return new


_object_new = object.__new__
_set_dict = State.__dict__["__dict__"].__set__
"""Sets an instance's dict: what ``object.__setattr__(new, "__dict__", values)`` does, without looking the name up."""


def _draw(state: State, move: Move) -> State:
    seat = state.to_move
    tile = move.tile
    hands = state.hands
    hand = hands[seat]
    seen_drawn = state.seen_drawn
    if hand is not None:
        drawn = _make(Hand, (hand[0] + (tile,), hand[1]) if tile is not None else (hand[0], hand[1] + 1))
        hands = hands[:seat] + (drawn,) + hands[seat + 1:]
    elif tile is not None:
        seen_drawn = seen_drawn[:seat] + (seen_drawn[seat] | {tile},) + seen_drawn[seat + 1:]
    bone_tiles = state.boneyard_tiles
    if bone_tiles is not None and tile is not None and tile in bone_tiles:
        at = bone_tiles.index(tile)  # listed once: positions refuse a tile twice
        bone_tiles = bone_tiles[:at] + bone_tiles[at + 1:]
    count = state.boneyard - 1 if state.boneyard is not None else None
    progress = state.progress
    values = dict(state.__dict__)
    values["hands"] = hands
    values["boneyard"] = count
    values["boneyard_tiles"] = bone_tiles
    values["seen_drawn"] = seen_drawn
    # A player who draws on a special first turn (where that is allowed) has a normal
    # turn from then on: the drawn tile, if it can be played, is the whole turn.
    values["progress"] = Progress(progress.played, True, tile, progress.doubles_laid, False)
    return _new(values)


def _end_turn(state: State, values: dict[str, object]) -> State:
    """Pass the turn to the next seat, closing the first-turn phase and the round as due;
    ``values`` are the fields of the state after the move (changed in place)."""
    n = len(state.players)
    pending = state.pending_first
    phase = state.phase
    flags = state.ruleset.flags
    if phase is _FIRST_TURN:
        if flags.first_turn_who is FirstTurnWho.FIRST_PLAYER_ONLY:
            pending = frozenset()
        else:
            pending = pending - {state.to_move}
        if not pending:
            phase = Phase.PLAY
    hands: tuple[Hand | None, ...] = values["hands"]  # type: ignore[assignment]
    passes: int = values["passes"]  # type: ignore[assignment]
    if phase is state.phase:
        # Any other empty hand would have ended the round already: only the mover's can be new.
        hand = hands[state.to_move]
        out = hand is not None and not hand.tiles and not hand.unknown
    else:
        out = any(h is not None and h.empty for h in hands)
    over = (phase is _PLAY_PHASE and out) or passes >= n
    nxt = (state.to_move + 1) % n
    values["to_move"] = nxt
    values["phase"] = phase
    values["pending_first"] = pending
    values["round_over"] = over or state.round_over
    values["progress"] = _turn_start(flags, phase, pending, nxt)
    new = _new(values)
    # _blocked() is false while tiles may still be drawn: asked only once drawing is over
    return evolve(new, round_over=True) if new.drawing_over and not new.round_over and _blocked(new) else new


_FRESH = Progress()
_SPECIAL = Progress(special=True)
