"""Unchecked self-play on mutable values: the same games as the engine's frozen states, faster.

Self-play (rules.simulate with ``check=False``, rules.statistics) plays rounds whose every hand
and boneyard tile is known, and never asks why a move is legal. :class:`Table` holds such a round
in lists (hands, train ends, markers, pip counts) changed in place, and mirrors, step by step,
what the engine decides on a state: ``rules.legality.Analysis`` (the legal moves, in the same
order), ``rules.doubles`` (which open double binds, which is dead), ``rules.transitions`` (the
move applied, the turn passed on) and ``rules.blocked`` (a round nobody can play on). It starts
from the engine's own state (``build`` of the deal) and gives back a :class:`~rules.state.State`
equal to the engine's at the end.

It is a second implementation of the rules, so it must agree with the first: the tests play
seeded rounds both ways under every ruleset and option, at every player count, and under house
rulesets with each value the published ones do not use, and compare every move and the final
state (tests/engine/test_fastplay.py). Checked self-play and every judgement use the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .doubles import Binding
from .laying import lay_tiles
from .legality import (
    CACHE_LIMIT,
    Access,
    actions,
    one_first_turn_train,
    own_train_only,
    plays_by_train,
    train_access,
)
from .memo import Memo
from .moves import MEXICAN, Action, Move
from .position import Phase
from .reasons import ReasonCode
from .ruleset import (
    CannotPlay,
    CannotStart,
    DoubleObligation,
    DoubleOrder,
    DoublesPerTurn,
    FirstTurnOut,
    FirstTurnTiles,
    FirstTurnTrains,
    FirstTurnWho,
    FollowUp,
    MarkerPlaced,
    MarkerRemoved,
)
from .state import Hand, Progress, State, Train
from .strategies import PlayerView
from .tiles import Tile

# Final: compiled, each is a static of the module, not a look-up in its namespace
_PLAY: Final = Action.PLAY
_DRAW: Final = Action.DRAW
_PASS: Final = Action.PASS
_FIRST_TURN: Final = Phase.FIRST_TURN
_PLAY_PHASE: Final = Phase.PLAY
_MARKER: Final = Train((), 0, True)
_NO_MARKER: Final = Train((), 0, False)

COMPILED: bool = not __file__.endswith(".py")
"""Whether this module runs compiled by mypyc (scripts/build_native.py) or as Python source:
the same games either way, the compiled ones in well under half the time."""

_BOUND: Final = ReasonCode.MUST_SATISFY_DOUBLE
_new: Final = tuple.__new__
"""Makes a named tuple from all its fields at C speed (the class's own __new__ is Python)."""
_ACCESS: Final[Memo[tuple[str, int, bool, tuple[bool, ...]], Access]] = Memo(CACHE_LIMIT)


class _Access:
    """What rules.legality.train_access reads of a state: the ruleset and the trains' markers."""

    __slots__ = ("ruleset", "trains")

    def __init__(self, ruleset: object, markers: Sequence[bool]) -> None:
        self.ruleset = ruleset
        self.trains = tuple(_MARKER if m else _NO_MARKER for m in markers)


class Table:
    """A round in play, every tile known, held in lists changed by each move."""

    def __init__(self, state: State) -> None:
        listed = state.boneyard_tiles
        if not state.hands_known or (len(listed) if listed is not None else 0) != state.boneyard:
            raise ValueError("fast self-play needs every hand and the boneyard known")
        if any(t.unknown_prefix for t in state.trains):
            raise ValueError("fast self-play needs every train's tiles known")
        self.start = state
        self.ruleset = state.ruleset
        self.flags = f = state.ruleset.flags
        self.players = state.players
        self.n = len(state.players)
        self.hands = [list(h.tiles) for h in state.hands if h is not None]
        self.bone = list(listed or ())
        self.listed = listed is not None
        """An empty boneyard may be given as a count (0) rather than a list."""
        self.drawn_count = 0
        self.tiles = [list(t.tiles) for t in state.trains]
        self.ends = [t.end for t in state.trains]
        self.markers = [t.marker for t in state.trains]
        self._made = list(state.trains)
        self.pips = list(state.pips)
        self.open_doubles = list(state.open_doubles)
        self.to_move = state.to_move
        self.phase = state.phase
        self.pending = state.pending_first
        p = state.progress
        self.played, self.drew, self.drawn, self.doubles_laid, self.special, self.train = p
        self.passes = state.passes
        self.round_over = state.round_over
        # the ruleset's values read on every move, once
        self.drawn_only_rule = f.turn_drawn_tile_only
        self.must_play = f.turn_must_play
        self.closed = f.boneyard_closed
        self.satisfy = f.doubles_obligation is DoubleObligation.SATISFY
        self.no_obligation = f.doubles_obligation is DoubleObligation.NONE
        self.first_turn_doubles = f.first_turn_doubles_apply
        self.play_again = f.doubles_play_again
        self.marker_when_unplayable = f.markers_placed is MarkerPlaced.WHEN_OWN_TRAIN_UNPLAYABLE
        self.lift_on_any = f.markers_removed is MarkerRemoved.OWNER_PLAYS_ANY_TILE
        self.marked_open = f.turn_marked_trains_open
        self.own_train_first = f.turn_own_train_first
        self.no_draw_rule = ReasonCode.NO_DRAW_RULE if f.turn_cannot_play is CannotPlay.MARKER_NO_DRAW else None
        self.no_draw_first = f.first_turn_cannot_start is CannotStart.MARKER_NO_DRAW
        self.until_playable = f.turn_cannot_play is CannotPlay.DRAW_UNTIL_PLAYABLE
        self.limits = f.limits_plays
        self.going_out_finishes = f.first_turn_going_out is FirstTurnOut.FINISH_ROUND_OF_TURNS
        self.first_player_only = f.first_turn_who is FirstTurnWho.FIRST_PLAYER_ONLY
        self.chain_first = f.first_turn_tiles is FirstTurnTiles.CHAIN
        self.own_or_mexican = f.first_turn_trains is FirstTurnTrains.OWN_OR_MEXICAN
        self.dead_doubles = f.doubles_dead
        self.order = f.doubles_order
        self.follow_up = f.doubles_follow_up
        self.one_double = f.doubles_per_turn is DoublesPerTurn.ONE
        self.last_double_ok = f.round_end_last_tile_double
        self.others_before_own = f.turn_other_trains_before_own
        self.moves_on = [plays_by_train(name, state.players) for name in state.players]
        self.train_index: dict[str | None, int] = {name: i for i, name in enumerate((*state.players, MEXICAN))}
        """The index of each train by its name (a move names the train it goes on)."""
        self.actions = [actions(name) for name in state.players]
        self._access: dict[int, Access] = {}
        """:meth:`access` for this round's seats, by seat, first turn and markers in one int."""

    # -- what rules.legality.Analysis decides -----------------------------------------------

    def access(self, seat: int, first: bool, markers: Sequence[bool]) -> Access:
        """rules.legality.train_access, kept for every round of the ruleset (:data:`_ACCESS`)."""
        local = seat * 2 + first
        for marked in markers:
            local = local * 2 + marked
        found = self._access.get(local)
        if found is None:
            listed = tuple(markers)
            key = (self.ruleset.id, seat, first, listed)
            found = _ACCESS.get(key)
            if found is None:
                found = _ACCESS.keep(key, train_access(_Access(self.ruleset, listed), seat, first))  # type: ignore[arg-type]
            self._access[local] = found
        return found

    def binding(self) -> tuple[Binding | None, Binding | None]:
        """rules.doubles.binding (with dead doubles): the trains a single and a double may go on."""
        live = self.open_doubles
        if self.no_obligation or not live or (self.special and not self.first_turn_doubles):
            return None, None
        if self.dead_doubles:
            full = len(self.pips)
            live = [i for i in live if self.pips[self.tiles[i][-1][0]] < full]
            if not live:
                return None, None
        order = self.order
        target = live[0] if order is DoubleOrder.OLDEST_FIRST or order is DoubleOrder.EITHER else live[-1]
        other = live[-1] if order is DoubleOrder.EITHER else target
        bound = (target, _BOUND, other)  # the reason code is never read here
        if self.doubles_laid:
            follow = self.follow_up
            if follow is FollowUp.ANY_AVAILABLE_TRAIN:
                return None, None
            return (bound, None) if follow is FollowUp.DOUBLES_ANYWHERE_THEN_SATISFY else (bound, bound)
        return bound, bound

    def plays(self, seat: int, markers: Sequence[bool], fresh: bool) -> tuple[Move, ...]:
        """Analysis._legal_plays for ``seat`` with these markers (``fresh``: at the start of a
        turn in the play phase, as rules.blocked asks)."""
        hand = self.hands[seat]
        if fresh:
            drew = special = doubles_laid = False
            first = False
            train = None
        else:
            drew, special, doubles_laid, train = self.drew, self.special, self.doubles_laid, self.train
            first = self.phase is _FIRST_TURN and seat in self.pending if self.pending else False
        tiles: list[Tile] = hand
        if drew and self.drawn_only_rule:
            drawn = self.drawn
            if drawn is None:
                return ()
            tiles = [drawn]
        elif not tiles:
            return ()
        if not self.open_doubles:
            single = double = None
        elif not fresh:
            single, double = self.binding()
        else:
            saved = self.special, self.doubles_laid
            self.special, self.doubles_laid = special, doubles_laid
            single, double = self.binding()
            self.special, self.doubles_laid = saved
        access, open_trains = self.access(seat, first, markers)
        if first and train is not None and self.own_or_mexican:
            access, open_trains = one_first_turn_train(access, train)
        barred = False
        no_doubles = False
        last: Tile | None = None
        if self.limits:
            no_doubles = self.one_double and doubles_laid
            if not self.last_double_ok and len(hand) == 1 and hand[0][0] == hand[0][1]:
                last = hand[0]
            barred = no_doubles or last is not None
            if not self.others_before_own and not self.tiles[seat]:
                access, open_trains = own_train_only(access, seat)
        own_first = self.own_train_first and not special
        own_tile = False
        if own_first:  # found before the barred doubles are left out, as Analysis does
            own_end = self.ends[seat]
            for high, low in tiles:
                if high == own_end or low == own_end:
                    own_tile = True
                    break
        if barred and tiles:
            tiles = [t for t in tiles if not (t[0] == t[1] and (no_doubles or t == last))]
        if not tiles:
            return ()
        if own_first and own_tile:
            open_trains = (seat,) if not access[seat].blocks else ()
        return lay_tiles(tiles, self.ends, self.moves_on[seat], open_trains, single, double)

    def legal_moves(self) -> tuple[Move, ...]:
        """Analysis.legal_moves: the plays, then draw, pass or done."""
        if self.round_over:
            return ()
        seat = self.to_move
        plays = self.plays(seat, self.markers, False)
        draw, pass_, done = self.actions[seat]
        if self.special and self.played:
            return (*plays, done)
        if plays and self.must_play:
            return tuple(plays)
        first = self.phase is _FIRST_TURN and seat in self.pending
        no_draw = ReasonCode.NO_DRAW_ON_FIRST_TURN if first and self.no_draw_first else self.no_draw_rule
        count = len(self.bone) - self.drawn_count
        due = no_draw is None and count != 0 and (not self.drew or (self.until_playable and not plays))
        return (*plays, draw if due else pass_)

    # -- what rules.transitions does --------------------------------------------------------

    def apply(self, move: Move) -> None:
        action = move[1]
        if action is _PLAY:
            self._play(move)
        elif action is _DRAW:
            self.hands[self.to_move].append(self.bone[self.drawn_count])
            self.drawn = self.bone[self.drawn_count]
            self.drawn_count += 1
            self.drew = True
            self.special = False
            self.train = None
        elif action is _PASS:
            seat = self.to_move
            was_marked = self.markers[seat]
            self.markers[seat] = True
            opened = not was_marked and self.marked_open
            if self.drawing_over and not (self.phase is _FIRST_TURN and seat in self.pending):
                self.passes = 1 if opened else self.passes + 1
            else:
                self.passes = 0
            self._end_turn()
        else:
            self._end_turn()

    @property
    def drawing_over(self) -> bool:
        return self.drawn_count == len(self.bone) or self.closed

    def _play(self, move: Move) -> None:
        tile = move[2]
        assert tile is not None
        seat = self.to_move
        index = self.train_index[move[3]]
        hand = self.hands[seat]
        hand.remove(tile)
        high, low = tile
        self.tiles[index].append(tile)
        self.ends[index] = low if high == self.ends[index] else high
        markers = self.markers
        was_marked = markers[seat]
        if index == seat:
            markers[index] = False
        elif self.marker_when_unplayable and not self.special:
            markers[seat] = True
        if index != seat and was_marked and self.lift_on_any:
            markers[seat] = False
        pips = self.pips
        pips[high] += 1
        double = high == low
        if not double:
            pips[low] += 1
        if double or self.open_doubles:
            if index in self.open_doubles:
                self.open_doubles.remove(index)
            if double and self.satisfy:
                self.open_doubles.append(index)
        self.passes = 0
        if not hand:
            if self.phase is _FIRST_TURN and seat in self.pending and self.going_out_finishes:
                self._end_turn()
                return
            self.round_over = True
            return
        if self.special:
            self.played += 1
            self.drew, self.drawn, self.special, self.train = False, None, True, index
            return
        if double and self.play_again:
            self.played += 1
            self.drew, self.drawn, self.doubles_laid, self.special, self.train = False, None, True, False, None
            return
        self._end_turn()

    def _end_turn(self) -> None:
        n = self.n
        seat = self.to_move
        phase = old_phase = self.phase
        pending = self.pending
        if phase is _FIRST_TURN:
            pending = frozenset() if self.first_player_only else pending - {seat}
            if not pending:
                phase = _PLAY_PHASE
        if phase is old_phase:
            out = not self.hands[seat]
        else:
            out = not all(self.hands)
        over = (phase is _PLAY_PHASE and out) or self.passes >= n
        nxt = (seat + 1) % n
        self.to_move = nxt
        self.phase = phase
        self.pending = pending
        self.round_over = over or self.round_over
        self.played, self.drew, self.drawn, self.doubles_laid, self.train = 0, False, None, False, None
        self.special = phase is _FIRST_TURN and nxt in pending and self.chain_first
        if (self.drawn_count == len(self.bone) or self.closed) and not self.round_over and self.nobody_can_play():
            self.round_over = True

    def nobody_can_play(self) -> bool:
        """rules.blocked.nobody_can_play, in the play phase at the start of a turn."""
        if self.phase is not _PLAY_PHASE:
            return False
        if not self.special and self.plays(self.to_move, self.markers, True):
            return False
        n = self.n
        marked = (True,) * n + (self.markers[n],)
        ends = set(self.ends)
        for seat, hand in enumerate(self.hands):
            if not any(high in ends or low in ends for high, low in hand):
                continue
            if self.plays(seat, marked, True):
                return False
        return True

    # -- back to the engine's values --------------------------------------------------------

    def view(self) -> PlayerView:
        """rules.strategies.view of the state this table holds: what the player to move sees."""
        seat = self.to_move
        start = self.start
        return _new(PlayerView, (
            seat, self.players[seat], self.players, tuple(self.hands[seat]), self.trains(),
            tuple(self.open_doubles), tuple([len(h) for h in self.hands]), len(self.bone) - self.drawn_count,
            _new(Progress, (self.played, self.drew, self.drawn, self.doubles_laid, self.special, self.train)),
            start.set_max, start.engine))

    def trains(self) -> tuple[Train, ...]:
        """The trains as the engine's values; each made again only once it has changed (a train
        only grows, so its length and marker tell)."""
        made = self._made
        markers = self.markers
        for i, tiles in enumerate(self.tiles):
            train = made[i]
            if len(tiles) != len(train[0]) or markers[i] is not train[2]:
                made[i] = _new(Train, (tuple(tiles), self.ends[i], markers[i], False, train[4]))
        return tuple(made)

    def state(self) -> State:
        start = self.start
        return State(
            ruleset=self.ruleset,
            players=self.players,
            set_max=start.set_max,
            engine=start.engine,
            trains=self.trains(),
            hands=tuple(Hand(tuple(h)) for h in self.hands),
            boneyard=len(self.bone) - self.drawn_count,
            boneyard_tiles=tuple(self.bone[self.drawn_count:]) if self.listed else None,
            to_move=self.to_move,
            phase=self.phase,
            pending_first=self.pending,
            open_doubles=tuple(self.open_doubles),
            progress=Progress(self.played, self.drew, self.drawn, self.doubles_laid, self.special, self.train),
            round_no=start.round_no,
            seen_drawn=start.seen_drawn,
            passes=self.passes,
            round_over=self.round_over,
            notes=start.notes,
            pips=tuple(self.pips),
        )
