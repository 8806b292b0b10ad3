"""Explaining moves: every reason behind a verdict, forbidding or explaining.

``explain(state, move)`` returns the reasons; a move is legal when none of them forbids it.
The facts it words are the ones the fast path tests (:class:`rules.legality.Analysis`), so a
verdict and its reasons cannot disagree; the hypothesis properties and the self-play soak check
it on every state reached. ``judge_all`` explains every candidate action of a state.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from . import doubles
from .legality import Analysis, Latest, actions, analyse, candidates, plays_by_tile
from .moves import Action, Move
from .reasons import Reason, ReasonCode, reason
from .ruleset import CannotPlay, DoubleObligation, DoubleOrder, FirstTurnOut, FollowUp, MarkerPlaced, MarkerRemoved
from .state import State
from .tiles import Tile

R = ReasonCode


class Judgement(NamedTuple):
    """A move with every reason that bears on it. A named tuple: answers memoize the JSON of
    each distinct judgement, and a tuple is hashed and compared in C."""

    move: Move
    reasons: tuple[Reason, ...]

    @property
    def legal(self) -> bool:
        return not any(r.code.blocks for r in self.reasons)


def explain(state: State, move: Move) -> tuple[Reason, ...]:
    """Every reason that bears on ``move``; blocking ones make it illegal."""
    return _explainer(analyse(state)).explain(move)


def judge_all(state: State) -> tuple[Judgement, ...]:
    """Every candidate action of the player to move, explained (in the order of candidates())."""
    a = analyse(state)
    e = _explainer(a)
    if a.state.round_over:
        return tuple([e.judgement(m, e.explain(m)) for m in candidates(state)])
    # every candidate is the player's own: the plays go tile by tile to plays() (explain() would
    # first check the round, the player and the action, and look the train up by name)
    by_tile = plays_by_tile(a.player, state.players)
    trains = range(len(state.trains))
    judgements = e.interned.judgements
    out: list[Judgement] = []
    rows = e.interned.rows
    for tile in dict.fromkeys(a.hand_tiles or ()):
        moves = by_tile.get(tile) or by_tile.make(tile)
        key = e.row_key(tile, moves)
        row = rows.get(key)
        if row is not None:
            out += row[1]
            continue
        reasons = e.plays(tile, trains)
        # the same judgement object as before when the move and its (interned) reasons are (_Interned)
        found = list(map(judgements.get, zip(map(id, moves), map(id, reasons))))
        if not all(found):  # all(): a found entry (a tuple) is true; no comparison with None
            found = [j or e.judgement(m, r) for j, m, r in zip(found, moves, reasons)]
        if not any(j.legal for j in found):  # type: ignore[union-attr]
            rows.setdefault(key, (moves, tuple(found)))  # type: ignore[arg-type]
        out += found  # type: ignore[arg-type]
    out += [e.judgement(m, e.explain(m)) for m in actions(a.player)]
    return tuple(out)


_make = tuple.__new__
"""Makes a named tuple from its fields, without the generated ``__new__``: the hot path."""


class _Interned:
    """Each distinct judgement of a play made once per process, and the parts it is made of.

    A judgement recurs across requests (the same tile on the same train of the same table), and
    an answer words each distinct judgement once (rules.answer): when the same judgement is the
    same object, an answer finds its words by the object's identity instead of hashing and
    comparing the nested tuples of its reasons. So the parts of a play's reasons that a state
    works out (the tile's, the train's, own-train-first) are interned when made, once per state;
    the ends reason by the train, its open end and the tile; a play's reasons by the identities
    of its parts; a judgement by the identities of its move and its reasons. Every table is
    dropped at once (:func:`_interned`) when one passes ``_INTERN_LIMIT`` entries: identities are
    keys only while the tables keep their objects alive."""

    __slots__ = ("parts", "ends", "reasons", "judgements", "signatures", "rows")

    def __init__(self) -> None:
        self.parts: dict[tuple[Reason, ...], tuple[Reason, ...]] = {}
        self.ends: dict[tuple[str, int], dict[Tile, Reason]] = {}
        """By the train's name and open end, then by the tile."""
        self.reasons: dict[tuple[int, int, int, int, int], tuple[Reason, ...]] = {}
        """By the identities of the parts: the tile's, the ends', the train's forbidding ones,
        own-train-first's, the train's explaining ones."""
        self.judgements: dict[tuple[int, int], Judgement] = {}
        self.signatures: dict[tuple[tuple[int, int, int, bool], ...], tuple[tuple[int, int, int, bool], ...]] = {}
        """Every train's parts of a state, by identities (_Explainer.row_key)."""
        self.rows: dict[tuple[int, int, int, int, int], tuple[tuple[Move, ...], tuple[Judgement, ...]]] = {}
        """The judgements of a tile on every train, all forbidden, by _Explainer.row_key (with the
        moves, which the key names by identity)."""

    def part(self, reasons: tuple[Reason, ...]) -> tuple[Reason, ...]:
        found = self.parts.get(reasons)
        if found is None:  # setdefault: one call, so two threads cannot both think they made it
            found = self.parts.setdefault(reasons, reasons)
        return found

    @property
    def size(self) -> int:
        return max(len(self.parts), len(self.ends), len(self.reasons), len(self.judgements), len(self.signatures),
                   len(self.rows))


_INTERNED = _Interned()
_INTERN_LIMIT = 20_000
"""Bounds the memory a long-running server spends on interned judgements and their parts (about
10 MB at most; the typical position under all four rulesets makes about 400 entries)."""


def _interned() -> _Interned:
    global _INTERNED
    if _INTERNED.size > _INTERN_LIMIT:
        _INTERNED = _Interned()
    return _INTERNED


_TrainPart = tuple[tuple[Reason, ...], tuple[Reason, ...], bool]
"""The reasons of a play that depend on the train (and whether the tile is a double): forbidding
ones, explaining ones, and whether the play satisfies the double that binds it."""


class _Explainer:
    """Words one state's analysis. A reason recurs across candidates (a train closed to one
    tile is closed to all), so the parts of a play's reasons that depend on the tile alone or
    on the train alone are built once."""

    __slots__ = ("a", "names", "index", "access", "tile_parts", "train_parts", "ends_params", "own_first", "bound",
                 "interned", "ends", "signature")

    def __init__(self, analysis: Analysis) -> None:
        self.a = analysis
        self.names = analysis.names
        self.interned = interned = _interned()
        """The tables this explainer's reasons are interned in (the same ones all along)."""
        self.ends = [interned.ends.setdefault((name, end), {}) for end, name in zip(analysis.ends, self.names)]
        """Per train: the ends reasons of each tile laid on it (interned)."""
        self.index = {name: i for i, name in enumerate(self.names)}
        self.access: dict[int, tuple[Reason, ...]] = {}
        self.tile_parts: dict[Tile, tuple[Reason, ...]] = {}
        trains = len(self.names)
        single, double = analysis.binding
        parts: list[_TrainPart | None] = [None] * trains
        self.train_parts: tuple[list[_TrainPart | None], list[_TrainPart | None]] = (
            parts, parts if single == double else [None] * trains)
        """By whether the tile is a double, then by the train's index. A train's part depends on
        whether the tile is a double only through the double that binds it (``binding``): when
        the same double binds both kinds of tile, as it does under most rulesets, both kinds
        share one list, worked out once."""
        self.ends_params = [(end, ("end", end), ("train", name)) for end, name in zip(analysis.ends, self.names)]
        """Per train: its open end, and the parameters of ends-match that name it."""
        self.bound: list[Reason | None] = [None, None]
        """binds(), by whether the tile is a double."""
        self.signature: list[int | None] = [None, None]
        """row_key(): the identity of the interned signature of every train, by whether the tile is a double."""
        self.own_first: dict[Tile | None, tuple[Reason, ...]] = {}
        """own-train-first (interned, alone in a tuple), by the tile it names (the same for most tiles)."""

    def explain(self, move: Move) -> tuple[Reason, ...]:
        a = self.a
        if a.state.round_over:
            return (reason(R.ROUND_OVER),)
        if move.player != a.player:
            return (reason(R.NOT_YOUR_TURN, to_move=a.player, player=move.player),)
        if move.action is Action.PLAY:
            return self.play(move)
        if move.action is Action.DRAW:
            reasons = self.draw(move)
        elif move.action is Action.PASS:
            reasons = self.pass_()
        else:
            reasons = self.done()
        if len(reasons) > 1:
            reasons = tuple(sorted(reasons, key=_forbidding_first))
        return reasons

    def play(self, move: Move) -> tuple[Reason, ...]:
        """The reasons of a play, forbidding ones first, each group in the order of the rules:
        the tile (held? the drawn one?), the ends, the open doubles, the train, own-train-first."""
        tile = move.tile
        assert tile is not None and move.train is not None
        index = self.index[move.train] if move.train in self.index else self.a.state.train_index(move.train)
        return self.play_at(tile, index)

    def play_at(self, tile: Tile, index: int) -> tuple[Reason, ...]:
        """The reasons of the player to move laying ``tile`` on the train at ``index``."""
        return self.plays(tile, (index,))[0]

    def plays(self, tile: Tile, indices: Iterable[int]) -> list[tuple[Reason, ...]]:
        """The reasons of the player to move laying ``tile`` on each train of ``indices``, in
        order; what depends on the tile alone is worked out once."""
        a = self.a
        high, low = tile
        double = high == low
        held = self.held(tile)
        tile_param = ("tile", tile)
        own = self.own_for(tile)
        seat, ends_params, ends_by_train = a.seat, self.ends_params, self.ends
        interned = self.interned
        composed = interned.reasons
        parts = self.train_parts[double]
        held_id = id(held)
        out = []
        for index in indices:
            part = parts[index]
            if part is None:
                part = parts[index] = self._train_part(index, double)
            forbidding, explaining, satisfying = part
            own_part = own if own and not satisfying and index != seat else ()
            on = ends_by_train[index]
            ends = on.get(tile)
            if ends is None:
                end, end_param, train_param = ends_params[index]
                code = _ENDS_MATCH if high == end or low == end else _ENDS_DO_NOT_MATCH
                ends = on.setdefault(tile, _make(Reason, (code, (tile_param, end_param, train_param), None)))
            matches = ends[0] is _ENDS_MATCH  # Reason.code
            if matches and not (held or forbidding or own_part):
                reasons = [ends, *explaining]
                self.consequences(tile, index, reasons)
                out.append(interned.part(tuple(reasons)))
                continue
            # forbidding reasons first (the tile's, the ends', the train's), then explaining ones
            key = (held_id, id(ends), id(forbidding), id(own_part), id(explaining))
            found = composed.get(key)
            if found is None:
                found = composed.setdefault(key, (*held, *forbidding, *own_part, ends, *explaining) if matches
                                            else (*held, ends, *forbidding, *own_part, *explaining))
            out.append(found)
        return out

    def judgement(self, move: Move, reasons: tuple[Reason, ...]) -> Judgement:
        """The judgement of ``move`` with these reasons, interned (see _Interned)."""
        reasons = self.interned.part(reasons)
        judgements = self.interned.judgements
        found = judgements.get((id(move), id(reasons)))
        if found is None:
            found = judgements.setdefault((id(move), id(reasons)), _make(Judgement, (move, reasons)))
        return found

    def held(self, tile: Tile) -> tuple[Reason, ...]:
        """The forbidding reasons that depend on the tile alone (interned), once per tile."""
        found = self.tile_parts.get(tile)
        if found is None:
            found = self.tile_parts[tile] = self._tile_part(tile)
        return found

    def own_for(self, tile: Tile) -> tuple[Reason, ...]:
        """Own-train-first (interned, alone in a tuple) when it forbids ``tile`` on another train
        (unless a double binds it there); else ()."""
        a = self.a
        if not a.own_first:
            return ()
        own_end = a.ends[a.seat]
        own_match = tile.high == own_end or tile.low == own_end
        if not own_match and a.own_tile is None:
            return ()
        own_tile = tile if own_match else a.own_tile
        found = self.own_first.get(own_tile)
        if found is None:
            found = self.own_first[own_tile] = self.interned.part(
                (reason(R.OWN_TRAIN_FIRST, player=a.player, own_tile=own_tile),))
        return found

    def row_key(self, tile: Tile, moves: tuple[Move, ...]) -> tuple[int, int, int, int, int]:
        """What the plays of ``tile`` (``moves``, on every train) are made of, by identities:
        the moves, the tile's reasons, every train's (its ends reasons, its forbidding and
        explaining ones, whether it satisfies a double), own-train-first's, and the player's seat.
        Plays that are all forbidden are worded from these alone (a legal play's consequences
        read more of the state): such a row of judgements is interned by this key."""
        double = tile.high == tile.low
        signature = self.signature[double]
        if signature is None:
            parts = self.train_parts[double]
            trains = []
            for index in range(len(self.names)):
                part = parts[index]
                if part is None:
                    part = parts[index] = self._train_part(index, double)
                trains.append((id(self.ends[index]), id(part[0]), id(part[1]), part[2]))
            made = tuple(trains)
            signature = self.signature[double] = id(self.interned.signatures.setdefault(made, made))
            if self.train_parts[0] is self.train_parts[1]:
                self.signature[not double] = signature
        return (id(moves), id(self.held(tile)), signature, id(self.own_for(tile)), self.a.seat)

    def _tile_part(self, tile: Tile) -> tuple[Reason, ...]:
        """The forbidding reasons that depend on the tile alone."""
        a = self.a
        out: list[Reason] = []
        if not a.may_hold(tile):
            out.append(reason(R.TILE_NOT_IN_HAND, player=a.player, tile=tile))
        if a.drawn_only is not None and tile != a.drawn_only:
            out.append(reason(R.MUST_PLAY_DRAWN_TILE, player=a.player, drawn=a.drawn_only))
        if a.barred and a.bars(tile):
            if a.no_doubles:
                out.append(reason(R.ONE_DOUBLE_A_TURN, player=a.player))
            if tile == a.last_double:
                out.append(reason(R.NO_GOING_OUT_ON_DOUBLE, tile=tile, player=a.player))
        return self.interned.part(tuple(out))

    def _train_part(self, index: int, double: bool) -> _TrainPart:
        """The reasons that depend on the train (and whether the tile is a double): forbidding
        ones, explaining ones, and whether the play satisfies the double that binds it."""
        a = self.a
        state = a.state
        label = a.names[index]
        out: list[Reason] = []
        bound = a.binding[double]
        satisfying = bound is not None and (bound[0] == index or bound[2] == index)
        if bound is not None:
            if satisfying:
                out.append(reason(R.SATISFIES_DOUBLE, double=state.trains[index].tiles[-1], train=label))
            else:
                out.append(self.binds(double))
        if index in a.dead:
            out.append(reason(R.DEAD_DOUBLE, double=state.trains[index].tiles[-1], train=label))
        if not satisfying:
            out.extend(self.train_access(index))
        part = self.interned.part
        return (part(tuple([r for r in out if r.code.blocks])), part(tuple([r for r in out if not r.code.blocks])),
                satisfying)

    def binds(self, double: bool) -> Reason:
        """Why a tile (a double or not) must go on the train of the open double that binds it
        (the same for every other train: worded once)."""
        found = self.bound[double]
        if found is None:
            bound = self.a.binding[double]
            assert bound is not None
            bound_index, code, other = bound
            state = self.a.state
            if other != bound_index:  # either order: the first laid or the last laid
                found = reason(code, double=state.trains[bound_index].tiles[-1], required=state.train_name(bound_index),
                               last=state.trains[other].tiles[-1], train=state.train_name(other))
            else:
                found = reason(code, player=self.a.player, double=state.trains[bound_index].tiles[-1],
                               required=state.train_name(bound_index))
            self.bound[double] = found
        return found

    def train_access(self, index: int) -> tuple[Reason, ...]:
        """The reasons that say whether the player may use the train at ``index`` at all."""
        found = self.access.get(index)
        if found is None:
            found = self.access[index] = self._train_access(index)
        return found

    def _train_access(self, index: int) -> tuple[Reason, ...]:
        a = self.a
        code, player, label = a.access[index], a.player, a.names[index]
        if code is R.OWN_TRAIN:
            own = reason(R.OWN_TRAIN, train=label, player=player)
            lifts = (a.state.trains[a.seat].marker
                     and a.state.ruleset.flags.markers_removed is MarkerRemoved.OWNER_PLAYS_OWN_TRAIN)
            return (own, reason(R.LIFTS_MARKER, player=player)) if lifts else (own,)
        if code is R.MEXICAN_OPEN:
            return (reason(code),)
        if code is R.TRAIN_MARKED:
            return (reason(code, train=label),)
        if code is R.TRAIN_NOT_OPEN or code is R.OWN_TRAIN_NOT_STARTED:
            return (reason(code, train=label, player=player),)
        return (reason(code, player=player),)  # first-turn limits, the Mexican train closed

    def consequences(self, tile: Tile, index: int, out: list[Reason]) -> None:
        """What a legal play brings about (appended to ``out``)."""
        a = self.a
        state = a.state
        flags = state.ruleset.flags
        player = a.player
        hand = state.hands[a.seat]
        if hand is not None and not hand.unknown and hand.tiles == (tile,):
            if a.first_turn_now and flags.first_turn_going_out is FirstTurnOut.FINISH_ROUND_OF_TURNS:
                out.append(reason(R.GOES_OUT_FIRST_TURN, player=player))
            else:
                out.append(reason(R.GOES_OUT, player=player))
            return
        special = state.progress.special
        if special:
            out.append(reason(R.FIRST_TURN_CHAIN, player=player))
        elif tile.is_double and flags.doubles_play_again:
            out.append(reason(R.PLAYS_AGAIN_AFTER_DOUBLE, tile=tile, player=player))
        if (flags.markers_placed is MarkerPlaced.WHEN_OWN_TRAIN_UNPLAYABLE and index != a.seat and not special
                and not state.trains[a.seat].marker):  # a marker already down stays: nothing goes on
            out.append(reason(R.PLACES_MARKER, player=player))
        if flags.markers_removed is MarkerRemoved.OWNER_PLAYS_ANY_TILE and state.trains[a.seat].marker:
            out.append(reason(R.LIFTS_MARKER_ANY_TILE, player=player))

    def must_play(self) -> tuple[Reason, ...]:
        """Whether drawing or passing is ruled out because the player can play."""
        a = self.a
        if not a.state.ruleset.flags.turn_must_play:
            return ()
        if a.hand_tiles is None:
            return (reason(R.HAND_UNKNOWN, player=a.player),)
        plays = a.legal_plays()
        if plays:
            return (reason(R.MUST_PLAY_IF_ABLE, player=a.player, example=f"{plays[0].tile} -> {plays[0].train}"),)
        return ()

    def draw(self, move: Move) -> tuple[Reason, ...]:
        a = self.a
        state, player = a.state, a.player
        if state.progress.special and state.progress.played:
            return (reason(R.END_FIRST_TURN_WITH_DONE, player=player),)
        out: list[Reason] = []
        if a.no_draw is not None:
            out.append(reason(a.no_draw))
        drew = state.progress.drew
        if drew:
            if state.ruleset.flags.turn_cannot_play is not CannotPlay.DRAW_UNTIL_PLAYABLE:
                out.append(reason(R.ALREADY_DREW, player=player))
            elif a.legal_plays():
                out.append(reason(R.STOP_DRAWING, player=player))
        if state.boneyard == 0:
            out.append(reason(R.BONEYARD_EMPTY))
        elif move.tile is not None and not a.may_draw(move.tile):
            out.append(reason(R.NOT_IN_BONEYARD, tile=move.tile))
        out.extend(self.must_play())
        if not any(r.code.blocks for r in out):
            out.append(reason(R.DRAWS_AGAIN if drew else R.CANNOT_PLAY_DRAW, player=player))
        return tuple(out)

    def pass_(self) -> tuple[Reason, ...]:
        a = self.a
        state, player = a.state, a.player
        if state.progress.special and state.progress.played:
            return (reason(R.END_FIRST_TURN_WITH_DONE, player=player),)
        must = self.must_play()
        out = list(must)
        # the draw before a pass is the rule for a player who cannot play: beside must-play-if-able
        # it would send a player who can play to the boneyard, which is closed to them too
        if a.draw_due and not any(r.code is R.MUST_PLAY_IF_ABLE for r in must):
            out.append(reason(R.KEEP_DRAWING if state.progress.drew else R.MUST_DRAW_FIRST, player=player))
        if not any(r.code.blocks for r in out):
            out.append(reason(R.FIRST_TURN_PASS if a.no_draw is R.NO_DRAW_ON_FIRST_TURN else R.CANNOT_PLAY_PASS,
                              player=player))
            if not state.trains[a.seat].marker:  # a marker already down stays: nothing goes on
                out.append(reason(R.PLACES_MARKER, player=player))
        return tuple(out)

    def done(self) -> tuple[Reason, ...]:
        a = self.a
        progress, player = a.state.progress, a.player
        if not progress.special:
            return (reason(R.NOT_A_FIRST_TURN),)
        if not progress.played:
            return (reason(R.NOTHING_LAID_YET, player=player),)
        return (reason(R.ENDS_FIRST_TURN, player=player),)


_ENDS_MATCH, _ENDS_DO_NOT_MATCH = R.ENDS_MATCH, R.ENDS_DO_NOT_MATCH
assert _ENDS_DO_NOT_MATCH.blocks and not _ENDS_MATCH.blocks


def _forbidding_first(r: Reason) -> bool:
    return not r.code.blocks


_explainer: Latest[Analysis, _Explainer] = Latest(_Explainer)
"""The explainer of an analysis, kept while it is the latest asked about."""


def dispute_reasons(state: State, move: Move, explained: tuple[Reason, ...] | None = None) -> tuple[Reason, ...]:
    """For the move in dispute, when it is a legal play: why an open double elsewhere, or the
    own train, does not stop it (a rule that forbids such a move under another ruleset, or in
    a nearby position). These reasons never forbid, so adding them to ``explain``'s cannot
    change a verdict; they are asked for the checked move only, not for every candidate.
    ``explained``: explain()'s reasons for the move, when the caller has them already."""
    if (move.action is not Action.PLAY or move.tile is None or move.train is None or state.round_over
            or move.player != state.player
            or any(r.code.blocks for r in (explain(state, move) if explained is None else explained))):
        return ()
    a = analyse(state)
    index = state.train_index(move.train)
    required = a.binding[move.tile.is_double]
    if required is not None and (required[0] == index or required[2] == index):
        return ()  # it satisfies the double: SATISFIES_DOUBLE says so
    return tuple(_rules_not_applying(a, move.tile, index))


def _rules_not_applying(a: Analysis, tile: Tile, index: int) -> Iterator[Reason]:
    state = a.state
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
        elif not doubles.apply_now(state):
            yield reason(R.DOUBLE_WAITS_FIRST_TURN, double=double, train=train)
        elif d in a.dead:
            yield reason(R.DEAD_DOUBLE, double=double, train=train)
        elif state.progress.doubles_laid and flags.doubles_follow_up is FollowUp.ANY_AVAILABLE_TRAIN:
            yield reason(R.FOLLOW_UP_ANY_TRAIN, player=player, double=double)
        elif state.progress.doubles_laid and tile.is_double:
            yield reason(R.DOUBLE_BEFORE_SATISFYING, tile=tile, double=double, train=train)
    if a.own_first and index != state.to_move and a.hand_tiles is not None and a.own_tile is None:
        yield reason(R.OWN_TRAIN_UNPLAYABLE, player=player)
