"""Legality, the fast path: "is this move legal" and "which moves are legal", without building
a single reason.

Layered as python-chess layers its board:

- :func:`pseudo_legal_plays`: the tiles the player may hold, on every train whose open end they
  match (what a player at the table would try first);
- :func:`is_legal` / :func:`legal_plays` / :func:`legal_moves`: the verdicts;
- :func:`rules.explain.explain`: every reason behind a verdict, built from the same facts.

The facts both layers read are computed once per state in an :class:`Analysis` (which doubles
bind, which trains are open to the player, what the player may hold ...): explain() words them,
the fast path only tests them, so the two cannot drift apart; a hypothesis property and the
self-play soak check that they agree on every state reached.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

from . import doubles
from .laying import lay_tiles
from .memo import Memo
from .messages import Message
from .moves import MEXICAN, Action, Move, MoveSyntaxError
from .moves import parse_move as parse_move_text
from .position import Phase
from .reasons import ReasonCode
from .ruleset import CannotPlay, CannotStart, DoublesPerTurn, FirstTurnTrains, Flags
from .state import Hand, State
from .tiles import Tile

CACHE_LIMIT = 4096
"""Moves, names and a train's access are frozen, so each is made once and shared (:class:`Memo`):
at most this many of each kind, which bounds the memory a long-running server spends on them."""

# Enum members read once: in Python 3.11 EnumType.__getattr__ makes each read through the class
# (Action.PLAY) a slow attribute lookup, about 0.1 us, and these are read on every move.
_FIRST_TURN = Phase.FIRST_TURN
_OWN_OR_MEXICAN = FirstTurnTrains.OWN_OR_MEXICAN
_MARKER_NO_DRAW = CannotPlay.MARKER_NO_DRAW
_DRAW_UNTIL_PLAYABLE = CannotPlay.DRAW_UNTIL_PLAYABLE

R = ReasonCode


_Holding = tuple[frozenset[Tile], dict[Tile, int], int, "bool | frozenset[Tile]"]
"""What may_hold() asks (Analysis._holding_facts): the tiles surely elsewhere, the seat known
to hold each tile, the player's seat, and whether a tile seen nowhere may be the player's (or
the tiles it may be)."""


class Analysis:
    """What judging a state asks, computed once: an explicit cache, held by whoever judges
    (:func:`analyse` keeps the latest one). A state is frozen, so its analysis never goes stale."""

    __slots__ = ("state", "seat", "player", "ends", "hand_tiles", "drawn_only", "first_turn_now",
                 "dead", "binding", "access", "own_first", "own_tile", "open_trains", "no_draw", "_names", "_board",
                 "_holders", "_holding", "_plays", "barred", "no_doubles", "last_double")
    no_doubles: bool
    last_double: Tile | None
    barred: bool

    def __init__(self, state: State) -> None:
        self.state = state
        self._plays: tuple[Move, ...] | None = None
        # _names, _board and _holders are set when first asked for (the fast path never asks)
        flags = state.ruleset.flags
        seat = self.seat = state.to_move
        self.player = state.players[seat]
        trains = state.trains
        # the trains' columns at once (in C): Train.tiles, .end, .marker, ...
        _, self.ends, markers, *_ = zip(*trains)
        progress = state.progress
        hand = state.hands[seat]
        tiles: tuple[Tile, ...] | None
        if progress.drew and flags.turn_drawn_tile_only:
            drawn = progress.drawn
            tiles = None if hand is None else (drawn,) if drawn is not None else ()
        else:
            drawn = None
            tiles = None if hand is None else hand[0]  # Hand.tiles
        self.drawn_only: Tile | None = drawn
        """After a draw, where only the drawn tile may be played: that tile."""
        self.hand_tiles = tiles
        """The tiles the player may choose from (after a draw, the drawn tile only); None when
        the hand is not given."""
        self.first_turn_now = first = state.phase is _FIRST_TURN and seat in state.pending_first
        if state.open_doubles:
            self.dead = doubles.dead(state) if flags.doubles_dead else _NONE_DEAD
            self.binding = doubles.binding(state, self.dead)
        else:
            self.dead, self.binding = _NONE_DEAD, doubles.UNBOUND
        """Indexed by whether the tile is a double: the train an open double binds it to."""
        found = _ACCESS.get((state.ruleset.id, seat, first, markers))
        self.access, self.open_trains = found if found is not None else train_access(state, seat, first)
        """Per train, the code that decides whether the player may use it (when no double binds)."""
        if first and progress.train is not None and flags.first_turn_trains is _OWN_OR_MEXICAN:
            self.access, self.open_trains = one_first_turn_train(self.access, progress.train)
        if flags.limits_plays:
            self._limits(flags, hand)
        else:
            self.barred = False  # no_doubles and last_double are read only when barred
        self.own_first = flags.turn_own_train_first and not progress.special
        own_tile = None
        if tiles and self.own_first:
            own_end = self.ends[seat]
            for t in tiles:
                if t.high == own_end or t.low == own_end:
                    own_tile = t
                    break
        self.own_tile = own_tile
        """A tile the player could add to the own train (for own-train-first)."""
        no_draw = None
        if first and flags.first_turn_cannot_start is CannotStart.MARKER_NO_DRAW:
            no_draw = R.NO_DRAW_ON_FIRST_TURN
        elif flags.turn_cannot_play is _MARKER_NO_DRAW:
            no_draw = R.NO_DRAW_RULE
        self.no_draw = no_draw
        """The rule, if any, that says this player does not draw at all now."""

    def _limits(self, flags: Flags, hand: Hand | None) -> None:
        """The house rules that forbid plays the published rulesets allow (``Flags.limits_plays``)."""
        state = self.state
        self.no_doubles = flags.doubles_per_turn is DoublesPerTurn.ONE and state.progress.doubles_laid
        """A double was laid this turn, and a turn lays at most one."""
        last: Tile | None = None
        if not flags.round_end_last_tile_double and hand is not None and not hand.unknown and len(hand.tiles) == 1:
            tile = hand.tiles[0]
            last = tile if tile.high == tile.low else None
        self.last_double = last
        """The player's last tile, when it is a double and nobody may go out on one."""
        self.barred = self.no_doubles or last is not None
        if not flags.turn_other_trains_before_own and not state.trains[self.seat].started:
            self.access, self.open_trains = own_train_only(self.access, self.seat)

    def bars(self, tile: Tile) -> bool:
        """A double rule of the house forbids laying ``tile`` at all (asked when ``barred``)."""
        return tile.high == tile.low and (self.no_doubles or tile == self.last_double)

    @property
    def names(self) -> tuple[str, ...]:
        """The trains' names, in index order."""
        names: tuple[str, ...] | None = getattr(self, "_names", None)
        if names is None:
            names = self._names = train_names(self.state.players)
        return names

    # -- what the player may hold ---------------------------------------------------------
    @property
    def board(self) -> frozenset[Tile]:
        """Every tile known to be on the table (State.board, computed once)."""
        board: frozenset[Tile] | None = getattr(self, "_board", None)
        if board is None:
            board = self._board = self.state.board
        return board

    @property
    def holders(self) -> dict[Tile, int]:
        """The seat known to hold each tile: from the hands given, and tiles seen drawn."""
        found: dict[Tile, int] | None = getattr(self, "_holders", None)
        if found is None:
            found = {}
            for seat, hand in enumerate(self.state.hands):
                if hand is not None:
                    found.update(dict.fromkeys(hand.tiles, seat))
            for seat, tiles in enumerate(self.state.seen_drawn):
                found.update(dict.fromkeys(tiles, seat))
            self._holders = found
        return found

    @property
    def surely_listed(self) -> bool:
        """The boneyard is listed and every draw was seen: it holds exactly the tiles listed."""
        bone = self.state.boneyard_tiles
        return bone is not None and len(bone) == self.state.boneyard

    def surely_in_boneyard(self, tile: Tile) -> bool:
        """The boneyard is listed, every draw was seen, and ``tile`` is in it."""
        return self.surely_listed and tile in self.state.boneyard_tiles  # type: ignore[operator]

    def may_hold(self, tile: Tile) -> bool:
        """Whether the player to move can hold ``tile``, as far as the position tells: not when
        it is on the table or surely in the boneyard; when a known hand holds it, only if that is
        the player's; else when the player's hand is not given (it may hold any tile not seen
        elsewhere), or it holds tiles drawn unseen and the tile may be in the boneyard.

        A tile of the player's own hand (given) is the player's without working anything out: a
        tile is in one place only (positions that hold a tile twice are refused, and moves keep it
        so; the soak and the properties check it), as _legal_plays() also relies on."""
        hand = self.state.hands[self.seat]
        if hand is not None and tile in hand[0]:  # Hand.tiles
            return True
        facts: _Holding | None = getattr(self, "_holding", None)
        if facts is None:
            facts = self._holding = self._holding_facts()
        elsewhere, holders, seat, unseen = facts
        if tile in elsewhere:
            return False
        holder = holders.get(tile)
        if holder is not None:
            return holder == seat
        return unseen if type(unseen) is bool else tile in unseen

    def _holding_facts(self) -> _Holding:
        """What may_hold() asks of every tile, worked out once."""
        state = self.state
        bone = state.boneyard_tiles
        elsewhere = self.board | frozenset(bone) if self.surely_listed and bone else self.board
        hand = state.hands[self.seat]
        unseen: bool | frozenset[Tile]
        if hand is None:
            unseen = True  # an unknown hand may hold any tile not seen elsewhere
        elif not hand.unknown:
            unseen = False
        else:  # a tile outside the known hand can only be one drawn unseen, out of the listed boneyard
            unseen = True if bone is None else frozenset(bone)
        return elsewhere, self.holders, self.seat, unseen

    def may_draw(self, tile: Tile) -> bool:
        """Whether ``tile`` can be the one drawn: it may be in the boneyard."""
        bone = self.state.boneyard_tiles
        return not (tile in self.board or (bone is not None and tile not in bone) or tile in self.holders)

    # -- verdicts ---------------------------------------------------------------------------
    def own_train_first_blocks(self, tile: Tile, index: int) -> bool:
        """Own-train-first forbids laying ``tile`` on another train (none binding it)."""
        if not self.own_first or index == self.seat:
            return False
        own_end = self.ends[self.seat]
        return self.own_tile is not None or tile.high == own_end or tile.low == own_end

    def play_ok(self, tile: Tile, index: int) -> bool:
        """Whether laying ``tile`` on the train at ``index`` is legal."""
        if not self.may_hold(tile):
            return False
        if self.drawn_only is not None and tile != self.drawn_only:
            return False
        end = self.ends[index]
        if tile.high != end and tile.low != end:
            return False
        if self.barred and self.bars(tile):
            return False
        bound = self.binding[tile.high == tile.low]
        if bound is not None:
            return bound[0] == index or bound[2] == index  # satisfying a double is open on any train
        return not self.access[index].blocks and not self.own_train_first_blocks(tile, index)

    def legal_plays(self) -> tuple[Move, ...]:
        """The tile plays open to the player to move, tile by tile in hand order, then train by train."""
        plays = self._plays
        if plays is None:
            plays = self._plays = self._legal_plays() if not self.state.round_over else ()
        return plays

    def _legal_plays(self) -> tuple[Move, ...]:
        """play_ok() for every tile of the hand on every train, the loops turned inside out: the
        trains a tile may go on depend only on whether it is a double."""
        tiles = self.hand_tiles
        if self.barred and tiles:
            tiles = tuple([t for t in tiles if not self.bars(t)])
        if not tiles:
            return ()
        # Without a binding double, a train is open to every tile or to none (own-train-first
        # closes the others when the player can add to the own train).
        seat = self.seat
        if self.own_first and self.own_tile is not None:
            open_trains: tuple[int, ...] = (seat,) if not self.access[seat].blocks else ()
        else:
            open_trains = self.open_trains
        single, double = self.binding
        return lay_tiles(tiles, self.ends, plays_by_train(self.player, self.state.players), open_trains, single, double)


    @property
    def must_play(self) -> bool:
        """Drawing and passing are ruled out: the ruleset says play if able, and the player can."""
        return (self.state.ruleset.flags.turn_must_play and self.hand_tiles is not None
                and bool(self.legal_plays()))

    @property
    def draw_due(self) -> bool:
        """A player who cannot play draws now, before any pass: the ruleset draws (now), the
        player has not drawn yet (or draws until a tile can be played, and still cannot play),
        and the boneyard is not known to be empty."""
        state = self.state
        return self.no_draw is None and state.boneyard != 0 and (not state.progress.drew or self.draws_again)

    @property
    def draws_again(self) -> bool:
        """The player has drawn, the ruleset draws until a tile can be played, and none can."""
        return (self.state.ruleset.flags.turn_cannot_play is _DRAW_UNTIL_PLAYABLE
                and not self.legal_plays())

    def draw_ok(self, tile: Tile | None) -> bool:
        if self.done_ok() or not self.draw_due:
            return False
        if tile is not None and not self.may_draw(tile):
            return False
        return not self.must_play

    def pass_ok(self) -> bool:
        return not self.done_ok() and not self.draw_due and not self.must_play

    def done_ok(self) -> bool:
        """A special first turn in which tiles were laid ends with done (and only so)."""
        progress = self.state.progress
        return progress.special and bool(progress.played)

    def is_legal(self, move: Move) -> bool:
        state = self.state
        if state.round_over or move.player != self.player:
            return False
        action = move.action
        if action is Action.PLAY:
            assert move.tile is not None and move.train is not None
            return self.play_ok(move.tile, state.train_index(move.train))
        if action is Action.DRAW:
            return self.draw_ok(move.tile)
        if action is Action.PASS:
            return self.pass_ok()
        return self.done_ok()

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal action of the player to move: the plays, then draw, pass, done."""
        if self.state.round_over:
            return ()
        plays = self._plays
        if plays is None:
            plays = self._plays = self._legal_plays()
        # draw_ok(None), pass_ok() and done_ok(), each decided once: done excludes the others,
        # and draw and pass exclude each other
        progress = self.state.progress
        if progress.special and progress.played:  # done_ok()
            return (*plays, actions(self.player)[2])
        if plays and self.hand_tiles is not None and self.state.ruleset.flags.turn_must_play:
            return plays  # must_play, with the plays found once
        draw, pass_, _ = actions(self.player)
        return (*plays, draw if self.draw_due else pass_)



Access = tuple[tuple[ReasonCode, ...], tuple[int, ...]]
_ACCESS: Memo[tuple[str, int, bool, tuple[bool, ...]], Access] = Memo(CACHE_LIMIT)


def train_access(state: State, seat: int, first_turn_now: bool) -> Access:
    """Per train, the code that decides whether the player at ``seat`` may use it at all; and
    the trains those codes leave open. It depends on the ruleset, the seat, the first turn and
    the markers only: found once for each."""
    key = (state.ruleset.id, seat, first_turn_now, tuple([t.marker for t in state.trains]))
    found = _ACCESS.get(key)
    if found is None:
        codes = _train_access(state, seat, first_turn_now)
        found = _ACCESS.keep(key, (codes, tuple(i for i, code in enumerate(codes) if not code.blocks)))
    return found


def _train_access(state: State, seat: int, first_turn_now: bool) -> tuple[ReasonCode, ...]:
    flags = state.ruleset.flags
    trains = state.trains
    marked = R.TRAIN_MARKED if flags.turn_marked_trains_open else R.TRAIN_NOT_OPEN
    codes = [marked if t.marker else R.TRAIN_NOT_OPEN for t in trains]
    mexican = len(codes) - 1
    codes[mexican] = R.MEXICAN_OPEN if flags.turn_mexican_open else R.MEXICAN_CLOSED
    if first_turn_now:
        limit = flags.first_turn_trains
        if limit is FirstTurnTrains.OWN_ONLY:
            codes = [R.FIRST_TURN_OWN_TRAIN_ONLY] * len(codes)
        elif limit is FirstTurnTrains.OWN_OR_MEXICAN:
            codes[:mexican] = [R.FIRST_TURN_TRAINS] * mexican
    codes[seat] = R.OWN_TRAIN
    return tuple(codes)


def one_first_turn_train(access: tuple[ReasonCode, ...], train: int) -> Access:
    """``access`` once a special first turn has laid a tile on ``train``, where the first turn
    builds the own train or the Mexican train (Cardinal, 004: "Στη συνέχεια, έχει δύο επιλογές",
    then he has two options): the other train is closed for the rest of the turn. Rare (one
    turn a round), so not kept."""
    codes = tuple(R.FIRST_TURN_ONE_TRAIN if i != train and not code.blocks else code
                  for i, code in enumerate(access))
    return codes, tuple(i for i, code in enumerate(codes) if not code.blocks)


_OWN_ONLY: Memo[tuple[tuple[ReasonCode, ...], int], Access] = Memo(CACHE_LIMIT)


def own_train_only(access: tuple[ReasonCode, ...], seat: int) -> Access:
    """``access`` for a player whose own train is not started, where no other train may be used
    before it is (``turn.other_trains_before_own`` false): every train open to them is closed,
    save their own. Found once for each."""
    found = _OWN_ONLY.get((access, seat))
    if found is None:
        codes = tuple(R.OWN_TRAIN_NOT_STARTED if i != seat and not code.blocks else code
                      for i, code in enumerate(access))
        found = _OWN_ONLY.keep((access, seat), (codes, tuple(i for i, code in enumerate(codes) if not code.blocks)))
    return found


_NONE_DEAD: frozenset[int] = frozenset()
K = TypeVar("K")
V = TypeVar("V")


class Latest(Generic[K, V]):
    """``make(key)``, kept for the latest key (by identity): judging many moves of one state
    (every candidate, or a move and then its reasons) asks the same key again and again."""

    def __init__(self, make: Callable[[K], V]) -> None:
        self.make = make
        self.last: tuple[K, V] | None = None

    def __call__(self, key: K) -> V:
        last = self.last  # one read: another thread may replace it meanwhile
        if last is not None and last[0] is key:
            return last[1]
        value = self.make(key)
        self.last = (key, value)
        return value


analyse: Latest[State, Analysis] = Latest(Analysis)
"""The analysis of a state, computed once while it is the latest asked about."""


# -- the named layers -------------------------------------------------------------------------


def pseudo_legal_plays(state: State) -> Iterator[Move]:
    """Every tile the player to move may hold on every train whose open end it matches, whether
    or not the train is open to them or a double binds it elsewhere."""
    a = analyse(state)
    for tile in dict.fromkeys(a.hand_tiles or ()):
        if a.may_hold(tile):
            for index, end in enumerate(a.ends):
                if tile.high == end or tile.low == end:
                    yield play(a.player, tile, a.names[index])


def is_legal(state: State, move: Move) -> bool:
    return analyse(state).is_legal(move)


def legal_plays(state: State) -> tuple[Move, ...]:
    """The tile plays open to the player to move."""
    return analyse(state).legal_plays()


def legal_moves(state: State) -> tuple[Move, ...]:
    """Every legal action of the player to move (none once the round is over)."""
    return analyse(state).legal_moves()


def can_play(state: State) -> bool:
    """Whether the player to move can lay a tile now (False when their hand is not given)."""
    return bool(analyse(state).legal_plays())


def candidates(state: State) -> tuple[Move, ...]:
    """Every candidate action of the player to move: each tile on each train, draw, pass, done."""
    a = analyse(state)
    player = a.player
    moves_on = plays_by_train(player, state.players)
    plays = [on.get(tile) or on.make(tile) for tile in dict.fromkeys(a.hand_tiles or ()) for on in moves_on]
    return (*plays, *actions(player))


def verdicts(state: State) -> tuple[tuple[Move, bool], ...]:
    """Every candidate action with whether it is legal: what a judgement decides, no reasons."""
    legal = set(legal_moves(state))  # every legal candidate, decided once
    return tuple((m, m in legal) for m in candidates(state))


def parse_move(state: State, text: str) -> Move:
    """Read one move against ``state``: names (players, trains) in any case, resolved to the
    state's own. Raises MoveSyntaxError naming the column and what was expected."""
    move = parse_move_text(text)
    names = {p.casefold(): p for p in state.players}
    player = names.get(move.player.casefold())
    if player is None:
        raise MoveSyntaxError(_unknown(Message("a player in 'players'"), move.player, state), 1)
    train = move.train
    if train is not None:
        resolved = MEXICAN if train.lower() == MEXICAN else names.get(train.casefold())
        if resolved is None:
            raise MoveSyntaxError(_unknown(Message("a train: a player's name or 'mexican'"), train, state),
                                  text.index(train, text.find("->")) + 1)
        train = resolved
    return Move(player, move.action, move.tile, train)


def _unknown(what: str, found: str, state: State) -> str:
    """The parser's own message for a name it does not know (rules.position)."""
    return Message("expected {what} ({names}), found {found}", what=what, names=", ".join(state.players),
                   found=repr(found))


_TRAIN_NAMES: Memo[tuple[str, ...], tuple[str, ...]] = Memo(CACHE_LIMIT)


def train_names(players: tuple[str, ...]) -> tuple[str, ...]:
    """The trains' names in index order: the players', then ``mexican``."""
    names = _TRAIN_NAMES.get(players)
    if names is None:
        names = _TRAIN_NAMES.keep(players, (*players, MEXICAN))
    return names


class _Plays(dict[Tile, Move]):
    """The moves of one player on one train, by tile."""

    __slots__ = ("player", "train")

    def __init__(self, player: str, train: str) -> None:
        super().__init__()
        self.player = player
        self.train = train

    def make(self, tile: Tile) -> Move:
        move = self[tile] = Move(self.player, Action.PLAY, tile, self.train)
        return move

    __missing__ = make
    """``plays[tile]`` makes the move the first time (a found one is looked up at C speed)."""


_PLAYS: Memo[tuple[str, str], _Plays] = Memo(CACHE_LIMIT)
_PLAYS_BY_TRAIN: Memo[tuple[str, tuple[str, ...]], tuple[_Plays, ...]] = Memo(CACHE_LIMIT)
_ACTIONS: Memo[str, tuple[Move, Move, Move]] = Memo(CACHE_LIMIT)


def plays_on(player: str, train: str) -> _Plays:
    found = _PLAYS.get((player, train))
    if found is None:
        found = _PLAYS.keep((player, train), _Plays(player, train))
    return found


def plays_by_train(player: str, players: tuple[str, ...]) -> tuple[_Plays, ...]:
    """The player's moves on each train, in train order."""
    key = (player, players)
    found = _PLAYS_BY_TRAIN.get(key)
    if found is None:
        found = _PLAYS_BY_TRAIN.keep(key, tuple(plays_on(player, name) for name in train_names(players)))
    return found


class _PlaysOfTile(dict[Tile, tuple[Move, ...]]):
    """The moves of one player laying each tile on every train, in train order, by tile."""

    __slots__ = ("trains",)

    def __init__(self, trains: tuple[_Plays, ...]) -> None:
        super().__init__()
        self.trains = trains

    def make(self, tile: Tile) -> tuple[Move, ...]:
        moves = self[tile] = tuple([on.get(tile) or on.make(tile) for on in self.trains])
        return moves


_PLAYS_BY_TILE: Memo[tuple[str, tuple[str, ...]], _PlaysOfTile] = Memo(CACHE_LIMIT)


def plays_by_tile(player: str, players: tuple[str, ...]) -> _PlaysOfTile:
    """The player's moves laying a tile on each train, in train order (the moves plays_by_train holds)."""
    key = (player, players)
    found = _PLAYS_BY_TILE.get(key)
    if found is None:
        found = _PLAYS_BY_TILE.keep(key, _PlaysOfTile(plays_by_train(player, players)))
    return found


def play(player: str, tile: Tile, train: str) -> Move:
    """The move laying ``tile`` on ``train``."""
    moves = plays_on(player, train)
    move = moves.get(tile)
    return move if move is not None else moves.make(tile)


def actions(player: str) -> tuple[Move, Move, Move]:
    """The player's draw (no tile named), pass and done."""
    found = _ACTIONS.get(player)
    if found is None:
        found = _ACTIONS.keep(player, (Move(player, Action.DRAW), Move(player, Action.PASS), Move(player, Action.DONE)))
    return found
