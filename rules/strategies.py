"""Players for self-play: small, deterministic policies that choose one of the legal moves.

Each strategy sees only what its player may see at the table, a :class:`PlayerView`: the own
hand, the trains on the table (tiles, open ends, markers), the open doubles, how many tiles each
hand and the boneyard hold, and the own turn so far. Never another hand or the boneyard's order:
:func:`choose` builds the view from the state and hands the policy nothing else (besides the
legal moves, which depend on the own hand and the table only). The draw offered is the bare
"draw"; the self-play loop takes the boneyard's top tile afterwards.

- ``random``: a legal move chosen uniformly with the caller's ``Random`` (today's self-play);
- ``greedy``: the highest-pip tile it can lay, on its own train when it can lay one there;
- ``planner``: plans the longest chain of its own tiles from its own train's open end and keeps
  it for itself; lays a double when it holds a tile to follow it; lays the other tiles outside
  its plan elsewhere (the Mexican train, marked trains), highest pips first; then extends its
  own train along the plan; a double it cannot follow only when nothing else can be laid.

``greedy`` and ``planner`` never draw on chance: given the same view and moves they choose the
same move (ties broken by pips, then the train's order: own, Mexican, the others in seat order).
Neither passes up a play: they draw, pass or end the turn only when no tile can be laid.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence
from typing import Final, NamedTuple, final

from .memo import Memo
from .moves import MEXICAN, Action, Move
from .state import Progress, State, Train
from .tiles import Tile

_PLAY: Final = Action.PLAY  # Final: compiled, a static of the module


class Strategy(enum.StrEnum):
    RANDOM = "random"
    GREEDY = "greedy"
    PLANNER = "planner"


class PlayerView(NamedTuple):
    """What the player to move sees: the table, the own hand, and counts of everything hidden.
    A named tuple: frozen, and made on every move of a strategic player at C speed."""

    seat: int
    player: str
    players: tuple[str, ...]
    hand: tuple[Tile, ...]
    """The own tiles (empty when the state does not give the hand)."""
    trains: tuple[Train, ...]
    """The players' trains in seat order, then the Mexican train (all on the table, public)."""
    open_doubles: tuple[int, ...]
    hand_counts: tuple[int | None, ...]
    """How many tiles each hand holds (None where the state does not know)."""
    boneyard: int | None
    progress: Progress
    """The own turn so far (a tile drawn this turn is the player's own)."""
    set_max: int
    engine: int


def view(state: State) -> PlayerView:
    """The view of the player to move: nothing of another hand but its size, nothing of the
    boneyard but its count."""
    seat = state.to_move
    hand = state.hands[seat]
    return PlayerView(seat, state.players[seat], state.players, hand.tiles if hand is not None else (), state.trains,
                      state.open_doubles, tuple([None if h is None else len(h.tiles) + h.unknown for h in state.hands]),
                      state.boneyard, state.progress, state.set_max, state.engine)


def choose(strategy: Strategy, state: State, options: Sequence[Move], rng: random.Random) -> Move:
    """The move ``strategy`` makes among ``options`` (the legal moves of ``state``, not empty),
    seeing only :func:`view` of the state. ``rng`` is read by ``random`` only."""
    if strategy is Strategy.RANDOM:
        return rng.choice(options)
    return POLICIES[strategy](view(state), options)


def greedy(me: PlayerView, options: Sequence[Move]) -> Move:
    """The highest-pip tile on the own train if one can go there, else the highest-pip play."""
    plays = [m for m in options if m.action is _PLAY]
    if not plays:
        return _no_play(options)
    own = [m for m in plays if m.train == me.player]
    return _best(own or plays, me)


def planner(me: PlayerView, options: Sequence[Move]) -> Move:
    """Keep the longest chain from the own train's end for the own train; lay a double that can
    be followed; lay the other tiles elsewhere, highest pips first; then follow the plan."""
    plays = [m for m in options if m.action is _PLAY]
    if not plays:
        return _no_play(options)
    if len(plays) == 1 and not me.progress.special:
        return plays[0]  # no choice to weigh (a special first turn may rather end with done)
    own_name = me.player
    chain = longest_chain(me.hand, me.trains[me.seat].end)
    plan = frozenset(chain)
    first = chain[0] if chain else None
    # a double it can follow: one of its other tiles shows the double's number
    doubles = [m for m in plays if m.tile is not None and m.tile.high == m.tile.low
               and (m.tile not in plan or (m.train == own_name and m.tile == first))
               and _can_follow(me.hand, m.tile)]
    if doubles:
        return _best(doubles, me)
    if me.progress.special and first is not None:
        for m in plays:
            if m.tile == first and m.train == own_name:
                return m
    # a double it cannot follow waits (it would stay open), unless nothing else is left
    spare_elsewhere = [m for m in plays if m.tile not in plan and m.train != own_name
                       and m.tile is not None and m.tile.high != m.tile.low]
    if spare_elsewhere:
        return _best(spare_elsewhere, me)
    for m in plays:
        if m.tile == first and m.train == own_name:
            return m
    return _best(plays, me)


def _can_follow(hand: tuple[Tile, ...], double: Tile) -> bool:
    pip = double.high
    return any(t != double and (t.high == pip or t.low == pip) for t in hand)


def _best(plays: Sequence[Move], me: PlayerView) -> Move:
    """The play of the most pips; on a tie, the higher tile, then the train: own, Mexican, the
    others from the player's left."""
    n = len(me.players)
    best = plays[0]
    best_key = (1, 0, 0)
    for m in plays:  # the first of the least keys, as min() would find it (no closure to compile)
        tile = m.tile
        assert tile is not None
        if m.train == me.player:
            train = 0
        elif m.train == MEXICAN:
            train = 1
        else:
            train = 2 + (me.players.index(m.train or "") - me.seat) % n
        key = (-(tile[0] + tile[1]), -tile[0], train)
        if key < best_key:
            best, best_key = m, key
    return best


def _no_play(options: Sequence[Move]) -> Move:
    """Draw, pass or done: the one action offered besides plays (the first, should there be more)."""
    return options[0]


CHAIN_BUDGET = 16
"""How many chains the search for the longest may try: a hand of 15 tiles can hold more chains
than a player would ever weigh, so the search keeps the best it found within the budget."""
_CHAINS: Final[Memo[tuple[tuple[Tile, ...], int], tuple[Tile, ...]]] = Memo(4096)


def longest_chain(hand: tuple[Tile, ...], end: int) -> tuple[Tile, ...]:
    """The longest chain of ``hand``'s tiles that can be laid one after another from ``end``
    (the most pips among the longest; the first found on a tie, tiles tried highest first);
    searched depth first, at most :data:`CHAIN_BUDGET` chains."""
    key = (hand, end)
    found = _CHAINS.get(key)
    if found is not None:
        return found
    tiles = sorted(hand, reverse=True)
    adjacent: dict[int, list[tuple[int, int, int, Tile]]] = {}
    doubles: dict[int, tuple[int, int, Tile]] = {}
    for i, tile in enumerate(tiles):
        high, low = tile
        if high == low:
            doubles[high] = (1 << i, high + low, tile)  # a set holds one double of each number
        else:
            adjacent.setdefault(high, []).append((1 << i, low, high + low, tile))
            adjacent.setdefault(low, []).append((1 << i, high, high + low, tile))
    if end not in adjacent and end not in doubles:
        return _CHAINS.keep(key, ())
    search = _ChainSearch(adjacent, doubles, len(tiles))
    search.search(end, 0, 0)
    return _CHAINS.keep(key, search.best)


@final
class _ChainSearch:
    """The depth-first search of :func:`longest_chain`: its state in typed attributes (compiled
    with mypyc, a native class; a closure's variables would be cells looked up by name)."""

    def __init__(self, adjacent: dict[int, list[tuple[int, int, int, Tile]]],
                 doubles: dict[int, tuple[int, int, Tile]], total: int) -> None:
        self.adjacent = adjacent
        self.doubles = doubles
        self.total = total
        self.best: tuple[Tile, ...] = ()
        self.best_len = 0
        self.best_pips = 0
        self.path: list[Tile] = []
        self.budget = CHAIN_BUDGET
        self.no_way: list[tuple[int, int, int, Tile]] = []

    def search(self, pip: int, used: int, pips: int) -> None:
        path = self.path
        # a double of the open number goes first: laying it never shortens a chain
        double = self.doubles.get(pip)
        laid = double is not None and not used & double[0]
        if laid:
            assert double is not None
            used |= double[0]
            pips += double[1]
            path.append(double[2])
        leaf = True
        for bit, other, p, tile in self.adjacent.get(pip, self.no_way):
            if used & bit or self.budget <= 0:
                continue
            leaf = False
            path.append(tile)
            self.search(other, used | bit, pips + p)
            path.pop()
        if leaf:
            self.budget -= 1
            length = len(path)
            if length > self.best_len or (length == self.best_len and pips > self.best_pips):
                self.best, self.best_len, self.best_pips = tuple(path), length, pips
                if length == self.total:
                    self.budget = 0
        if laid:
            path.pop()


POLICIES = {Strategy.GREEDY: greedy, Strategy.PLANNER: planner}
