"""Judging moves: every candidate action, legal or not, with its reasons.

``explain(state, move)`` returns the reasons; a move is legal when none of them forbids it
(:func:`is_legal`), so the verdict and its reasons can never disagree. ``replay`` checks each
move before applying it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from .moves import Action, Move
from .position import MoveLine
from .reasons import Reason, ReasonCode, reason
from .ruleset import (
    CannotPlay,
    CannotStart,
    DoubleObligation,
    DoubleOrder,
    FirstTurnTrains,
    FollowUp,
)
from .state import State, apply, doubles_apply_now
from .tiles import Tile

R = ReasonCode
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Judgement:
    move: Move
    reasons: tuple[Reason, ...]

    @property
    def legal(self) -> bool:
        return not any(r.blocks for r in self.reasons)


def is_legal(state: State, move: Move) -> bool:
    return not any(r.blocks for r in explain(state, move))


def explain(state: State, move: Move) -> tuple[Reason, ...]:
    """Every reason that bears on ``move``; blocking ones make it illegal."""
    if state.round_over:
        return (reason(R.ROUND_OVER),)
    if move.player != state.player:
        return (reason(R.NOT_YOUR_TURN, to_move=state.player, player=move.player),)
    if move.action is Action.PLAY:
        reasons = _explain_play(state, move)
    elif move.action is Action.DRAW:
        reasons = _explain_draw(state, move)
    elif move.action is Action.PASS:
        reasons = _explain_pass(state)
    else:
        reasons = _explain_done(state)
    if len(reasons) > 1:
        reasons = tuple(sorted(reasons, key=_forbidding_first))
    return reasons


def _forbidding_first(r: Reason) -> bool:
    return not r.code.blocks


# -- analysis shared by many candidates: computed once per state ----------------------------


def _memo(state: State, key: Hashable, compute: Callable[[], T]) -> T:
    """What is derived from a state, kept on it: states are frozen, and a judgement asks the
    same questions for every candidate (the memo is not a field: copies start without it)."""
    memo: dict[Hashable, Any] = state.__dict__.setdefault("_memo", {})
    if key not in memo:
        memo[key] = compute()
    return memo[key]  # type: ignore[no-any-return]


def hand_tiles(state: State) -> tuple[Tile, ...] | None:
    """The tiles the player to move may choose from (after a draw, the drawn tile only)."""
    hand = state.hands[state.to_move]
    if hand is None:
        return None
    progress = state.progress
    if progress.drew and state.ruleset.flags.turn_drawn_tile_only:
        return (progress.drawn,) if progress.drawn is not None else ()
    return hand.tiles


def required_train(state: State, tile: Tile) -> tuple[int, ReasonCode] | None:
    """The train ``tile`` must go on because of an open double, and the reason code."""
    if not state.open_doubles:
        return None
    return _memo(state, ("required", tile.is_double), lambda: _required_train(state, tile))


def _required_train(state: State, tile: Tile) -> tuple[int, ReasonCode] | None:
    flags = state.ruleset.flags
    if flags.doubles_obligation is DoubleObligation.NONE or not state.open_doubles:
        return None
    if not doubles_apply_now(state):
        return None
    live = [i for i in state.open_doubles if not (flags.doubles_dead and state.is_dead(i))]
    if not live:
        return None
    target = live[0] if flags.doubles_order is DoubleOrder.OLDEST_FIRST else live[-1]
    if state.progress.doubles_laid:
        follow = flags.doubles_follow_up
        if follow is FollowUp.ANY_AVAILABLE_TRAIN:
            return None
        if follow is FollowUp.DOUBLES_ANYWHERE_THEN_SATISFY and tile.is_double:
            return None
        return target, R.MUST_SATISFY_OWN_DOUBLE
    return target, R.MUST_SATISFY_DOUBLE


def holders(state: State) -> dict[Tile, int]:
    """The seat known to hold each tile: from the hands given, and tiles seen drawn."""
    def compute() -> dict[Tile, int]:
        found: dict[Tile, int] = {}
        for seat, hand in enumerate(state.hands):
            for t in hand.tiles if hand is not None else ():
                found[t] = seat
        for seat, tiles in enumerate(state.seen_drawn):
            for t in tiles:
                found[t] = seat
        return found
    return _memo(state, "holders", compute)


def _surely_in_boneyard(state: State, tile: Tile) -> bool:
    """The boneyard is listed, every draw was seen, and ``tile`` is in it."""
    bone = state.boneyard_tiles
    return bone is not None and len(bone) == state.boneyard and tile in bone


def _may_hold(state: State, seat: int, tile: Tile) -> bool:
    """Whether the player at ``seat`` can hold ``tile``, as far as the position tells."""
    if tile in state.board or _surely_in_boneyard(state, tile):
        return False
    holder = holders(state).get(tile)
    if holder is not None:
        return holder == seat
    hand = state.hands[seat]
    if hand is None:
        return True  # an unknown hand may hold any tile not seen elsewhere
    # a tile outside the known hand can only be one drawn unseen, out of the listed boneyard
    bone = state.boneyard_tiles
    return hand.unknown > 0 and (bone is None or tile in bone)


def _own_train_tile(state: State) -> Tile | None:
    """A tile the player could add to the own train (for own-train-first)."""
    def compute() -> Tile | None:
        tiles = hand_tiles(state) or ()
        end = state.trains[state.to_move].end
        return next((t for t in tiles if t.has(end)), None)
    return _memo(state, "own-tile", compute)


def _explain_play(state: State, move: Move) -> tuple[Reason, ...]:
    flags = state.ruleset.flags
    tile, seat = move.tile, state.to_move
    assert tile is not None and move.train is not None
    index = state.train_index(move.train)
    train = state.trains[index]
    label = _train_names(state.players)[index]
    player = state.players[seat]
    out: list[Reason] = []
    if not _may_hold(state, seat, tile):
        out.append(reason(R.TILE_NOT_IN_HAND, player=player, tile=tile))
    progress = state.progress
    if progress.drew and flags.turn_drawn_tile_only and progress.drawn is not None and tile != progress.drawn:
        out.append(reason(R.MUST_PLAY_DRAWN_TILE, player=player, drawn=progress.drawn))
    ends = (("tile", tile), ("end", train.end), ("train", label))  # built directly: the hottest reason
    out.append(Reason(R.ENDS_MATCH if tile.has(train.end) else R.ENDS_DO_NOT_MATCH, ends))
    required = required_train(state, tile)
    satisfying = required is not None and required[0] == index
    if required is not None:
        req_index, code = required
        double = state.trains[req_index].tiles[-1]
        if satisfying:
            out.append(reason(R.SATISFIES_DOUBLE, double=double, train=label))
        else:
            out.append(reason(code, player=player, double=double, required=state.train_name(req_index)))
    for dead in state.open_doubles:
        if flags.doubles_dead and state.is_dead(dead) and dead == index:
            out.append(reason(R.DEAD_DOUBLE, double=state.trains[dead].tiles[-1], train=label))
    if not satisfying:
        out.extend(_train_access(state, index, label))
        if flags.turn_own_train_first and index != seat and not progress.special:
            own_end = state.trains[seat].end
            own_tile = tile if tile.has(own_end) else _own_train_tile(state)
            if own_tile is not None:
                out.append(reason(R.OWN_TRAIN_FIRST, player=player, own_tile=own_tile))
    if not any(r.blocks for r in out):
        out.extend(_consequences(state, tile, index))
    return tuple(out)


def dispute_reasons(state: State, move: Move) -> tuple[Reason, ...]:
    """For the move in dispute, when it is a legal play: why an open double elsewhere, or the
    own train, does not stop it (a rule that forbids such a move under another ruleset, or in
    a nearby position). These reasons never forbid, so adding them to ``explain``'s cannot
    change a verdict; they are asked for the checked move only, not for every candidate."""
    if (move.action is not Action.PLAY or move.tile is None or move.train is None or state.round_over
            or move.player != state.player or any(r.blocks for r in explain(state, move))):
        return ()
    index = state.train_index(move.train)
    required = required_train(state, move.tile)
    if required is not None and required[0] == index:
        return ()  # it satisfies the double: SATISFIES_DOUBLE says so
    return tuple(_rules_not_applying(state, move.tile, index))


def _rules_not_applying(state: State, tile: Tile, index: int) -> Iterator[Reason]:
    flags = state.ruleset.flags
    player = state.player
    if flags.doubles_obligation is DoubleObligation.NONE:  # no double is held open: any that ends a train
        others = [i for i, t in enumerate(state.trains) if i != index and t.tiles and t.tiles[-1].is_double]
    else:
        others = [d for d in state.open_doubles if d != index]
    if others:
        d = others[0] if flags.doubles_order is DoubleOrder.OLDEST_FIRST else others[-1]
        double, train = state.trains[d].tiles[-1], state.train_name(d)
        if flags.doubles_obligation is DoubleObligation.NONE:
            yield reason(R.DOUBLE_NOT_BINDING, double=double, train=train)
        elif not doubles_apply_now(state):
            yield reason(R.DOUBLE_WAITS_FIRST_TURN, double=double, train=train)
        elif flags.doubles_dead and state.is_dead(d):
            yield reason(R.DEAD_DOUBLE, double=double, train=train)
        elif state.progress.doubles_laid and flags.doubles_follow_up is FollowUp.ANY_AVAILABLE_TRAIN:
            yield reason(R.FOLLOW_UP_ANY_TRAIN, player=player, double=double)
        elif state.progress.doubles_laid and tile.is_double:
            yield reason(R.DOUBLE_BEFORE_SATISFYING, tile=tile, double=double, train=train)
    if (flags.turn_own_train_first and index != state.to_move and not state.progress.special
            and hand_tiles(state) is not None and _own_train_tile(state) is None):
        yield reason(R.OWN_TRAIN_UNPLAYABLE, player=player)


def _train_access(state: State, index: int, label: str) -> tuple[Reason, ...]:
    """The access reasons for a train: they do not depend on the tile, so once per state."""
    def compute() -> tuple[Reason, ...]:
        out: list[Reason] = []
        _access(state, index, label, out)
        return tuple(out)
    return _memo(state, ("access", index), compute)


def _access(state: State, index: int, label: str, out: list[Reason]) -> None:
    """Whether the player to move may use the train at ``index`` at all (appended to ``out``)."""
    flags = state.ruleset.flags
    seat, player = state.to_move, state.player
    if state.first_turn_now:
        trains = flags.first_turn_trains
        if trains is FirstTurnTrains.OWN_ONLY and index != seat:
            out.append(reason(R.FIRST_TURN_OWN_TRAIN_ONLY, player=player))
            return
        if trains is FirstTurnTrains.OWN_OR_MEXICAN and index not in (seat, state.mexican):
            out.append(reason(R.FIRST_TURN_TRAINS, player=player))
            return
    if index == seat:
        out.append(reason(R.OWN_TRAIN, train=label, player=player))
        if state.trains[seat].marker:
            out.append(reason(R.LIFTS_MARKER, player=player))
        return
    if index == state.mexican:
        if flags.turn_mexican_open:
            out.append(reason(R.MEXICAN_OPEN))
        else:
            out.append(reason(R.MEXICAN_CLOSED, player=player))
    elif state.trains[index].marker and flags.turn_marked_trains_open:
        out.append(reason(R.TRAIN_MARKED, train=label))
    else:
        out.append(reason(R.TRAIN_NOT_OPEN, train=label, player=player))


def _consequences(state: State, tile: Tile, index: int) -> Iterator[Reason]:
    flags = state.ruleset.flags
    player = state.player
    hand = state.hands[state.to_move]
    if hand is not None and not hand.unknown and hand.tiles == (tile,):
        if state.first_turn_now and flags.first_turn_going_out.value == "finish-round-of-turns":
            yield reason(R.GOES_OUT_FIRST_TURN, player=player)
        else:
            yield reason(R.GOES_OUT, player=player)
        return
    if state.progress.special:
        yield reason(R.FIRST_TURN_CHAIN, player=player)
    elif tile.is_double and flags.doubles_play_again and doubles_apply_now(state):
        yield reason(R.PLAYS_AGAIN_AFTER_DOUBLE, tile=tile, player=player)
    if flags.markers_placed.value == "when-own-train-unplayable" and index != state.to_move and not state.progress.special:
        yield reason(R.PLACES_MARKER, player=player)


def legal_plays(state: State) -> tuple[Move, ...]:
    """The tile plays open to the player to move."""
    def compute() -> tuple[Move, ...]:
        # Only tiles that match a train's open end can be legal there (ends-match is a
        # blocking reason), so the rest need not be explained; explain() still decides.
        tiles = hand_tiles(state) or ()
        names = _train_names(state.players)
        ends = [t.end for t in state.trains]
        player = state.player
        out = []
        for tile in dict.fromkeys(tiles):
            for index, end in enumerate(ends):
                if tile.high == end or tile.low == end:
                    move = Move(player, Action.PLAY, tile, names[index])
                    if not any(r.blocks for r in _explain_play(state, move)):
                        out.append(move)
        return tuple(out)
    if state.round_over:
        return ()
    return _memo(state, "legal-plays", compute)


def play_candidates(state: State) -> Iterator[Move]:
    tiles = hand_tiles(state)
    if tiles is None:
        return
    player = state.player
    names = _train_names(state.players)
    for tile in dict.fromkeys(tiles):
        for name in names:
            yield Move(player, Action.PLAY, tile, name)


@cache
def _train_names(players: tuple[str, ...]) -> tuple[str, ...]:
    return (*players, "mexican")



def _must_play(state: State) -> Iterator[Reason]:
    """Whether drawing or passing is ruled out because the player can play."""
    if not state.ruleset.flags.turn_must_play:
        return
    if hand_tiles(state) is None:
        yield reason(R.HAND_UNKNOWN, player=state.player)
        return
    plays = legal_plays(state)
    if plays:
        yield reason(R.MUST_PLAY_IF_ABLE, player=state.player, example=f"{plays[0].tile} -> {plays[0].train}")


def _no_draw_now(state: State) -> Reason | None:
    """The rule, if any, that says this player does not draw at all now."""
    flags = state.ruleset.flags
    if state.first_turn_now and flags.first_turn_cannot_start is CannotStart.MARKER_NO_DRAW:
        return reason(R.NO_DRAW_ON_FIRST_TURN)
    if flags.turn_cannot_play is CannotPlay.MARKER_NO_DRAW:
        return reason(R.NO_DRAW_RULE)
    return None


def _explain_draw(state: State, move: Move) -> tuple[Reason, ...]:
    out: list[Reason] = []
    player = state.player
    if state.progress.special and state.progress.played:
        return (reason(R.END_FIRST_TURN_WITH_DONE, player=player),)
    no_draw = _no_draw_now(state)
    if no_draw is not None:
        out.append(no_draw)
    if state.progress.drew:
        out.append(reason(R.ALREADY_DREW, player=player))
    if state.boneyard == 0:
        out.append(reason(R.BONEYARD_EMPTY))
    elif move.tile is not None:
        bone = state.boneyard_tiles
        if move.tile in state.board or (bone is not None and move.tile not in bone) or move.tile in holders(state):
            out.append(reason(R.NOT_IN_BONEYARD, tile=move.tile))
    out.extend(_must_play(state))
    if not any(r.blocks for r in out):
        out.append(reason(R.CANNOT_PLAY_DRAW, player=player))
    return tuple(out)


def _explain_pass(state: State) -> tuple[Reason, ...]:
    player = state.player
    if state.progress.special and state.progress.played:
        return (reason(R.END_FIRST_TURN_WITH_DONE, player=player),)
    out = list(_must_play(state))
    no_draw = _no_draw_now(state)
    if no_draw is None and not state.progress.drew and state.boneyard != 0:
        out.append(reason(R.MUST_DRAW_FIRST, player=player))
    if not any(r.blocks for r in out):
        if no_draw is not None and no_draw.code is R.NO_DRAW_ON_FIRST_TURN:
            out.append(reason(R.FIRST_TURN_PASS, player=player))
        else:
            out.append(reason(R.CANNOT_PLAY_PASS, player=player))
        out.append(reason(R.PLACES_MARKER, player=player))
    return tuple(out)


def _explain_done(state: State) -> tuple[Reason, ...]:
    player = state.player
    if not state.progress.special:
        return (reason(R.NOT_A_FIRST_TURN),)
    if not state.progress.played:
        return (reason(R.NOTHING_LAID_YET, player=player),)
    return (reason(R.ENDS_FIRST_TURN, player=player),)


def candidates(state: State) -> tuple[Move, ...]:
    """Every candidate action of the player to move: each tile on each train, draw, pass, done."""
    player = state.player
    return (*play_candidates(state), Move(player, Action.DRAW), Move(player, Action.PASS), Move(player, Action.DONE))


def judge_all(state: State) -> tuple[Judgement, ...]:
    return tuple(Judgement(m, explain(state, m)) for m in candidates(state))


def legal_moves(state: State) -> Iterator[Move]:
    """Lazily, every legal action of the player to move."""
    if state.round_over:
        return
    yield from legal_plays(state)
    player = state.player
    for m in (Move(player, Action.DRAW), Move(player, Action.PASS), Move(player, Action.DONE)):
        if is_legal(state, m):
            yield m


# -- replay ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replay:
    state: State
    """The state after the last move applied (before the failing one)."""
    applied: int
    failed: MoveLine | None = None
    reasons: tuple[Reason, ...] = ()

    @property
    def ok(self) -> bool:
        return self.failed is None


def implicit_done(state: State, move: Move) -> State:
    """A move by the next player ends a multi-tile first turn (as if 'done' were played)."""
    if (
        not state.round_over
        and move.player != state.player
        and state.progress.special
        and state.progress.played
        and move.player == state.players[state.next_seat]
    ):
        return apply(state, Move(state.player, Action.DONE))
    return state


def replay(state: State, moves: Iterable[MoveLine]) -> Replay:
    applied = 0
    for line in moves:
        move = line.move
        before = state
        state = implicit_done(state, move)
        reasons = explain(state, move)
        if any(r.blocks for r in reasons):
            return Replay(before, applied, line, reasons)
        state = apply(state, move)
        applied += 1
    return Replay(state, applied)
