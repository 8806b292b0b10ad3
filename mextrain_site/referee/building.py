"""The Build editor's model: a position edited one tap at a time. Pure Python, no Django.

The editor's state *is* the position text. Each tap names an :class:`Edit` (a kind and its
arguments, written ``kind:arg:arg`` in the page, e.g. ``train-add:Cy:6-4``); :func:`apply`
turns a :class:`~rules.position.Position` into the next one, and the page writes it back with
``Position.format()``. The choices the page offers (:func:`train_tiles`, :func:`hand_tiles`,
:func:`open_ends`, ...) are only those whose result the parser accepts; :func:`apply`
re-parses what it wrote as a last guard, so the editor never produces a text the parser
refuses (the property tests drive it with random edits to hold it to that).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from rules.messages import Message
from rules.moves import MEXICAN, Action, Move
from rules.position import MAX_PLAYERS, SCORE, MoveLine, Position, PositionError, TrainLine
from rules.tiles import MAX_PIP, STANDARD_SETS, Tile, set_size

SEAT_NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo",
              "Kim", "Lea", "Max", "Ned", "Ola", "Pam", "Quin", "Rex", "Sue", "Tom")
"""Names a new table and an added seat get, so that a table can be built by taps alone."""
assert len(SEAT_NAMES) >= MAX_PLAYERS

NEW_TABLE = Position(players=SEAT_NAMES[:4], engine=12, trains=(TrainLine(),) * 4, mexican=TrainLine(),
                     turn=SEAT_NAMES[0])
"""What "New table" starts from: four seats, the 12-12 engine, nothing laid."""


class Kind(enum.Enum):
    """What a tap does; the value is how the page writes it (stable)."""

    NEW = "new"
    PLAYER_ADD = "player-add"
    PLAYER_REMOVE = "player-remove"      # name
    PLAYER_RENAME = "player-rename"      # name, new name
    PLAYER_EARLIER = "player-earlier"    # name: one seat earlier
    TURN = "turn"                        # name
    ENGINE = "engine"                    # pip
    SET = "set"                          # set maximum, or "default"
    TRAIN_ADD = "train-add"              # train, tile
    TRAIN_UNKNOWN = "train-unknown"      # train, open end
    TRAIN_MARKER = "train-marker"        # train
    TRAIN_POP = "train-pop"              # train
    BONEYARD = "boneyard"                # count, or "none"
    HAND_TILE = "hand"                   # player, tile (toggles)
    HAND_GIVEN = "hand-given"            # player (toggles: given empty / not given)
    CHECK = "check"                      # "draw", "pass", "done", "score" or "none"
    CHECK_PLAY = "check-play"            # tile, train
    MOVE_PLAY = "move-play"              # tile, train
    MOVE_DRAW = "move-draw"
    MOVE_POP = "move-pop"


ARITY = {Kind.PLAYER_REMOVE: 1, Kind.PLAYER_RENAME: 2, Kind.PLAYER_EARLIER: 1, Kind.TURN: 1, Kind.ENGINE: 1,
         Kind.SET: 1, Kind.TRAIN_ADD: 2, Kind.TRAIN_UNKNOWN: 2, Kind.TRAIN_MARKER: 1, Kind.TRAIN_POP: 1,
         Kind.BONEYARD: 1, Kind.HAND_TILE: 2, Kind.HAND_GIVEN: 1, Kind.CHECK: 1, Kind.CHECK_PLAY: 2,
         Kind.MOVE_PLAY: 2}


class EditError(ValueError):
    """An edit that cannot be made; ``message`` is a :class:`~rules.messages.Message`."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class Edit:
    kind: Kind
    args: tuple[str, ...] = ()

    @staticmethod
    def parse(text: str) -> Edit:
        """``kind:arg:arg`` (names hold no ':', so it separates safely)."""
        kind_text, *args = text.split(":")
        try:
            kind = Kind(kind_text)
        except ValueError:
            raise EditError(Message("unknown edit {found}", found=repr(kind_text))) from None
        if len(args) != ARITY.get(kind, 0):
            raise EditError(Message("unknown edit {found}", found=repr(text)))
        return Edit(kind, tuple(args))

    def __str__(self) -> str:
        return ":".join((self.kind.value, *self.args))


# -- what the table holds ------------------------------------------------------------------------


def complete(p: Position) -> Position:
    """The position with an engine and a player to move, as the editor always shows them: a scoring
    question may leave both out (the engine is then the set's highest double, as the engine takes
    it; the turn, the first player). The text is only rewritten when a tap changes something."""
    if p.engine is not None and p.turn is not None:
        return p
    top = max((t.high for _, tiles in p.hands for t in tiles), default=0)
    engine = p.engine if p.engine is not None else (
        p.set_max if p.set_max is not None else next(s for s in STANDARD_SETS if s >= top))
    return replace(p, engine=engine, turn=p.turn if p.turn is not None else p.players[0])


def engine_of(p: Position) -> int:
    """The engine's number (the editor's positions are :func:`complete`)."""
    assert p.engine is not None
    return p.engine


def mover(p: Position) -> str:
    """The player to move (the editor's positions are :func:`complete`)."""
    assert p.turn is not None
    return p.turn



def used(p: Position) -> dict[Tile, str]:
    """Every tile the position places, and where ("engine", a train's name, "hand <name>", "boneyard")."""
    out: dict[Tile, str] = {Tile.of(engine_of(p), engine_of(p)): "engine"}
    for name, line in (*zip(p.players, p.trains), (MEXICAN, p.mexican)):
        out.update((t, name) for t in line.tiles)
    for name, tiles in p.hands:
        out.update((t, f"hand {name}") for t in tiles)
    if isinstance(p.boneyard, tuple):
        out.update((t, "boneyard") for t in p.boneyard)
    return out


def set_max(p: Position) -> int:
    """The set the parser holds the position to: the one named, else the smallest standard set
    that holds every pip placed. The editor offers tiles of this set only."""
    if p.set_max is not None:
        return p.set_max
    top = max((t.high for t in used(p)), default=engine_of(p))
    return next(s for s in STANDARD_SETS if s >= top)


def room(p: Position) -> int:
    """How many more tiles the set can take (the boneyard's count included)."""
    unlisted = p.boneyard if isinstance(p.boneyard, int) else 0
    return set_size(set_max(p)) - len(used(p)) - unlisted


def unused(p: Position) -> list[Tile]:
    """Tiles of the set not placed anywhere, highest first (empty when the set is full)."""
    if room(p) <= 0:
        return []
    taken = used(p)
    top = set_max(p)
    return [Tile.of(a, b) for a in range(top, -1, -1) for b in range(a, -1, -1) if Tile.of(a, b) not in taken]


def train_names(p: Position) -> tuple[str, ...]:
    return (*p.players, MEXICAN)


def open_end(p: Position, train: str) -> int:
    return p.train(train).open_end(engine_of(p))


def train_tiles(p: Position, train: str) -> list[Tile]:
    """The tiles "add" offers on ``train``: unused, matching its open end."""
    end = open_end(p, train)
    return [t for t in unused(p) if t.has(end)]


def _placeholder(p: Position, end: int) -> Tile | None:
    """The known tile that stands for a train whose earlier tiles are unknown and whose open
    end is ``end``: an unused non-double ``x-end``, the engine's number first, then the highest."""
    free = set(unused(p))
    order = [engine_of(p), *range(set_max(p), -1, -1)]
    return next((Tile.of(x, end) for x in order if x != end and Tile.of(x, end) in free), None)


def open_ends(p: Position, train: str) -> list[int]:
    """The open ends "earlier tiles not known" offers on a train not yet started."""
    if p.train(train).started:
        return []
    return [end for end in range(set_max(p) + 1) if _placeholder(p, end) is not None]


def _chains_from(line: TrainLine, engine: int) -> bool:
    """Whether a train's known tiles still chain from the engine ``engine``."""
    if line.unknown_prefix or not line.tiles:
        return True
    end = engine
    for t in line.tiles:
        if not t.has(end):
            return False
        end = t.other(end)
    return True


def engines(p: Position) -> list[int]:
    """Engine doubles the position allows: free, every train still chains from it, and the set
    (named, or the one its pips need) still holds every tile."""
    taken = used(p)
    others = [t for t in taken if t != Tile.of(engine_of(p), engine_of(p))]
    unlisted = p.boneyard if isinstance(p.boneyard, int) else 0
    lines = (*p.trains, p.mexican)

    def fits(e: int) -> bool:
        top = max([e, *(t.high for t in others)])
        room_set = p.set_max if p.set_max is not None else next(s for s in STANDARD_SETS if s >= top)
        return (top <= room_set and Tile.of(e, e) not in others and len(taken) + unlisted <= set_size(room_set)
                and all(_chains_from(line, e) for line in lines))

    return [e for e in range(MAX_PIP + 1) if e == p.engine or fits(e)]


def sets(p: Position) -> list[int]:
    """Standard sets that hold every tile placed (and the boneyard's count)."""
    placed = used(p)
    top = max(t.high for t in placed)
    unlisted = p.boneyard if isinstance(p.boneyard, int) else 0
    return [s for s in STANDARD_SETS if s >= top and len(placed) + unlisted <= set_size(s)]


def boneyard_counts(p: Position) -> range:
    """Counts the boneyard may hold: up to what the set has left."""
    current = p.boneyard_count or 0  # a listed boneyard's tiles are freed when a count replaces the list
    return range(0, room(p) + current + 1)


def hand_tiles(p: Position, player: str) -> list[tuple[Tile, bool]]:
    """The grid for a hand: each tile it may hold, and whether it holds it now."""
    mine = set(p.hand(player) or ())
    offered = set(unused(p)) | mine
    top = set_max(p)
    return [(Tile.of(a, b), Tile.of(a, b) in mine) for a in range(top, -1, -1) for b in range(a, -1, -1)
            if Tile.of(a, b) in offered]


def played_this_turn(p: Position) -> set[Tile]:
    return {m.move.tile for m in p.moves if m.move.action is Action.PLAY and m.move.tile is not None}


def playable(p: Position) -> list[Tile]:
    """Tiles of the hand of the player to move not yet played in ``moves``."""
    done = played_this_turn(p)
    return [t for t in p.hand(mover(p)) or () if t not in done]


# -- edits --------------------------------------------------------------------------------------


def apply(p: Position, edit: Edit) -> Position:
    """The position after ``edit``. Raises :class:`EditError` for an edit the table does not
    allow; the result always parses back to itself."""
    result = _open_doubles_kept(_EDITS[edit.kind](complete(p), *edit.args))
    try:
        again = Position.parse(result.format())
    except PositionError as exc:  # a guard: the choices offered should never come here
        raise EditError(exc.message) from None
    return complete(again)


def _open_doubles_kept(p: Position) -> Position:
    """``open-doubles`` keeps the trains that still end in a double (one covered is satisfied)."""
    if not p.open_doubles:
        return p
    kept = tuple(n for n in p.open_doubles if p.train(n).tiles and p.train(n).tiles[-1].is_double)
    return p if kept == p.open_doubles else replace(p, open_doubles=kept or None)


def _player(p: Position, name: str) -> str:
    if name not in p.players:
        raise EditError(Message("expected {what} ({names}), found {found}", what=Message("a player in 'players'"),
                                names=", ".join(p.players), found=repr(name)))
    return name


def _train(p: Position, name: str) -> str:
    if name != MEXICAN:
        _player(p, name)
    return name


def _tile(text: str) -> Tile:
    try:
        return Tile.parse(text)
    except ValueError as exc:
        raise EditError(exc.args[0]) from None


def _number(text: str) -> int:
    if not re.fullmatch(r"[0-9]{1,3}", text):  # ASCII digits only: int() reads '²' no better than the parser
        raise EditError(Message("expected a number, found {found}", found=repr(text)))
    return int(text)


def _with_train(p: Position, name: str, line: TrainLine) -> Position:
    if name == MEXICAN:
        return replace(p, mexican=line)
    i = p.players.index(name)
    return replace(p, trains=p.trains[:i] + (line,) + p.trains[i + 1:])


def _with_hand(p: Position, name: str, tiles: tuple[Tile, ...] | None) -> Position:
    hands = dict(p.hands)
    if tiles is None:
        hands.pop(name, None)
    else:
        hands[name] = tiles
    out = None if tiles and p.out == name else p.out  # tiles in hand: the player did not go out
    return replace(p, hands=tuple((n, hands[n]) for n in p.players if n in hands), out=out)


def _new(p: Position) -> Position:
    return NEW_TABLE


def _player_add(p: Position) -> Position:
    if len(p.players) >= MAX_PLAYERS:
        raise EditError(Message("expected at most {limit} players, found {count}", limit=MAX_PLAYERS,
                              count=len(p.players) + 1))
    taken = {n.casefold() for n in p.players}
    name = next(n for n in SEAT_NAMES if n.casefold() not in taken)
    return replace(p, players=(*p.players, name), trains=(*p.trains, TrainLine()))


def _drop_player(p: Position, name: str) -> Position:
    """Moves, the disputed move and open doubles that name ``name`` go with the seat."""
    def keeps(m: Move) -> bool:
        return name not in (m.player, m.train)
    check = p.check if p.check is not None and keeps(p.check) else None
    return replace(p, moves=tuple(m for m in p.moves if keeps(m.move)), check=check,
                   open_doubles=None if p.open_doubles is None else tuple(n for n in p.open_doubles if n != name),
                   out=None if p.out == name else p.out)


def _player_remove(p: Position, name: str) -> Position:
    _player(p, name)
    if len(p.players) <= 2:
        raise EditError(Message("expected at least two player names, separated by spaces"))
    i = p.players.index(name)
    q = _with_hand(_drop_player(p, name), name, None)
    players = p.players[:i] + p.players[i + 1:]
    turn = p.turn if p.turn != name else players[i % len(players)]
    return replace(q, players=players, trains=p.trains[:i] + p.trains[i + 1:], turn=turn)


def _player_rename(p: Position, name: str, new: str) -> Position:
    _player(p, name)
    new = new.strip()
    if new == name:
        return p

    def to(n: str | None) -> str | None:
        return new if n == name else n

    def moved(m: Move) -> Move:
        return Move(new if m.player == name else m.player, m.action, m.tile, to(m.train))

    q = replace(p, players=tuple(new if n == name else n for n in p.players), turn=to(p.turn) or p.turn, out=to(p.out),
                hands=tuple((new if n == name else n, t) for n, t in p.hands),
                moves=tuple(MoveLine(moved(m.move)) for m in p.moves),
                check=None if p.check is None else moved(p.check),
                open_doubles=None if p.open_doubles is None else tuple(new if n == name else n for n in p.open_doubles))
    try:  # a typed name: the parser says what it expects of one
        Position.parse(q.format())
    except PositionError as exc:
        raise EditError(exc.message) from None
    return q


def _player_earlier(p: Position, name: str) -> Position:
    i = p.players.index(_player(p, name))
    if i == 0:
        return p
    order = list(range(len(p.players)))
    order[i - 1], order[i] = order[i], order[i - 1]
    players = tuple(p.players[k] for k in order)
    q = replace(p, players=players, trains=tuple(p.trains[k] for k in order))
    return _with_hand(q, name, p.hand(name)) if p.hands else q


def _turn(p: Position, name: str) -> Position:
    _player(p, name)
    if name == p.turn:
        return p
    # the moves and the disputed move are the old player's turn
    return replace(p, turn=name, moves=(), check=None)


def _engine(p: Position, pip: str) -> Position:
    e = _number(pip)
    if e not in engines(p):
        raise EditError(Message("the engine {engine}-{engine} does not fit the trains or the set", engine=e))
    return replace(p, engine=e)


def _set(p: Position, value: str) -> Position:
    if value == "default":
        return replace(p, set_max=None)
    s = _number(value)
    if s not in sets(p):
        raise EditError(Message("a double-{set} set cannot hold the tiles placed", set=s))
    return replace(p, set_max=s)


def _train_add(p: Position, train: str, tile: str) -> Position:
    t = _tile(tile)
    line = p.train(_train(p, train))
    if t not in train_tiles(p, train):
        raise EditError(Message("{tile} is not free or does not match the open end {end}", tile=t,
                              end=open_end(p, train)))
    if not line.tiles and line.unknown_prefix:  # cannot happen: '...' always has a tile
        raise EditError(Message("expected at least one tile after '...' (the open end)"))
    return _with_train(p, train, replace(line, tiles=(*line.tiles, t)))


def _train_unknown(p: Position, train: str, end: str) -> Position:
    line = p.train(_train(p, train))
    e = _number(end)
    if e not in open_ends(p, train):
        raise EditError(Message("no free tile can end the train in {end}", end=e))
    tile = _placeholder(p, e)
    assert tile is not None
    return _with_train(p, train, replace(line, tiles=(tile,), unknown_prefix=True, near=tile.other(e)))


def _train_marker(p: Position, train: str) -> Position:
    if _train(p, train) == MEXICAN:
        raise EditError(Message("the Mexican train carries no player's marker; expected no '*'"))
    line = p.train(train)
    return _with_train(p, train, replace(line, marker=not line.marker))


def _train_pop(p: Position, train: str) -> Position:
    line = p.train(_train(p, train))
    if not line.tiles:
        return p
    tiles = line.tiles[:-1]
    if not tiles:
        line = TrainLine(marker=line.marker)
    else:
        line = replace(line, tiles=tiles)
    return _with_train(p, train, line)


def _boneyard(p: Position, value: str) -> Position:
    if value == "none":
        return replace(p, boneyard=None)
    n = _number(value)
    if n not in boneyard_counts(p):
        raise EditError(Message("the set has room for {room} more tiles, not {count}",
                              room=boneyard_counts(p).stop - 1, count=n))
    return replace(p, boneyard=n)


def _hand_tile(p: Position, player: str, tile: str) -> Position:
    t = _tile(tile)
    hand = p.hand(_player(p, player)) or ()
    if t in hand:
        q = _with_hand(p, player, tuple(x for x in hand if x != t))
        if player != p.turn:
            return q
        # what the player to move no longer holds cannot be played, before or in dispute
        cut = next((i for i, m in enumerate(p.moves) if m.move.tile == t), len(p.moves))
        check = None if p.check is not None and p.check.tile == t else p.check
        return replace(q, moves=p.moves[:cut], check=check)
    if t not in set(unused(p)):
        raise EditError(Message("{tile} is already placed, or the set holds no more tiles", tile=t))
    return _with_hand(p, player, tuple(sorted((*hand, t), reverse=True)))


def _hand_given(p: Position, player: str) -> Position:
    if p.hand(_player(p, player)) is None:
        return _with_hand(p, player, ())
    q = _with_hand(p, player, None)
    return replace(q, moves=(), check=None) if player == p.turn else q


def _check(p: Position, what: str) -> Position:
    if what == "none":
        return replace(p, check=None, score=False)
    if what == SCORE:  # what each given hand counts
        return replace(p, check=None, score=True)
    try:
        action = Action(what)
    except ValueError:
        raise EditError(Message("unknown edit {found}", found=repr(what))) from None
    if action is Action.PLAY:
        raise EditError(Message("unknown edit {found}", found=repr(what)))
    return replace(p, check=Move(mover(p), action), score=False)


def _play(p: Position, tile: str, train: str) -> Move:
    t = _tile(tile)
    if t not in playable(p):
        raise EditError(Message("{tile} is not in the hand of {name}", tile=t, name=mover(p)))
    return Move.play(mover(p), t, _train(p, train))


def _check_play(p: Position, tile: str, train: str) -> Position:
    return replace(p, check=_play(p, tile, train), score=False)


def _move_play(p: Position, tile: str, train: str) -> Position:
    move = _play(p, tile, train)
    check = None if p.check is not None and p.check.tile == move.tile else p.check
    return replace(p, moves=(*p.moves, MoveLine(move)), check=check)


def _move_draw(p: Position) -> Position:
    return replace(p, moves=(*p.moves, MoveLine(Move(mover(p), Action.DRAW))))


def _move_pop(p: Position) -> Position:
    return replace(p, moves=p.moves[:-1])


_EDITS: dict[Kind, Callable[..., Position]] = {
    Kind.NEW: _new, Kind.PLAYER_ADD: _player_add, Kind.PLAYER_REMOVE: _player_remove,
    Kind.PLAYER_RENAME: _player_rename, Kind.PLAYER_EARLIER: _player_earlier, Kind.TURN: _turn,
    Kind.ENGINE: _engine, Kind.SET: _set, Kind.TRAIN_ADD: _train_add, Kind.TRAIN_UNKNOWN: _train_unknown,
    Kind.TRAIN_MARKER: _train_marker, Kind.TRAIN_POP: _train_pop, Kind.BONEYARD: _boneyard,
    Kind.HAND_TILE: _hand_tile, Kind.HAND_GIVEN: _hand_given, Kind.CHECK: _check, Kind.CHECK_PLAY: _check_play,
    Kind.MOVE_PLAY: _move_play, Kind.MOVE_DRAW: _move_draw, Kind.MOVE_POP: _move_pop,
}
assert set(_EDITS) == set(Kind)


def offered(p: Position) -> list[Edit]:
    """Every edit the page offers for ``p`` (renames aside): what the property tests pick from."""
    out = [Edit(Kind.NEW), Edit(Kind.SET, ("default",)), Edit(Kind.BONEYARD, ("none",)), Edit(Kind.MOVE_DRAW),
           Edit(Kind.MOVE_POP)]
    if len(p.players) < MAX_PLAYERS:
        out.append(Edit(Kind.PLAYER_ADD))
    for name in p.players:
        out += [Edit(Kind.TURN, (name,)), Edit(Kind.PLAYER_EARLIER, (name,)), Edit(Kind.HAND_GIVEN, (name,))]
        if len(p.players) > 2:
            out.append(Edit(Kind.PLAYER_REMOVE, (name,)))
        out += [Edit(Kind.HAND_TILE, (name, str(t))) for t, _ in hand_tiles(p, name)]
    for train in train_names(p):
        out += [Edit(Kind.TRAIN_ADD, (train, str(t))) for t in train_tiles(p, train)]
        out += [Edit(Kind.TRAIN_UNKNOWN, (train, str(e))) for e in open_ends(p, train)]
        out.append(Edit(Kind.TRAIN_POP, (train,)))
        if train != MEXICAN:
            out.append(Edit(Kind.TRAIN_MARKER, (train,)))
        for t in playable(p):
            out += [Edit(Kind.CHECK_PLAY, (str(t), train)), Edit(Kind.MOVE_PLAY, (str(t), train))]
    out += [Edit(Kind.ENGINE, (str(e),)) for e in engines(p)]
    out += [Edit(Kind.SET, (str(s),)) for s in sets(p)]
    out += [Edit(Kind.BONEYARD, (str(n),)) for n in boneyard_counts(p)]
    out += [Edit(Kind.CHECK, (a,)) for a in ("draw", "pass", "done", SCORE, "none")]
    return out
