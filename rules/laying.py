"""Laying tiles: the plays of a hand on the trains open to it, tile by tile then train by train.

One function, :func:`lay_tiles`, that both the engine's ``Analysis`` (rules.legality) and the fast
self-play (rules.fastplay) call, so the two find the same plays in the same order. It is the
innermost loop of self-play, so it is one of the modules compiled with mypyc when a C compiler is
there (``make native``, scripts/build_native.py); the pure module is the same code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .doubles import Binding
from .moves import Move
from .tiles import Tile


def lay_tiles(tiles: Sequence[Tile], ends: Sequence[int], moves_on: Sequence[Mapping[Tile, Move]],
              open_trains: tuple[int, ...], single: Binding | None, double: Binding | None) -> tuple[Move, ...]:
    """The plays of ``tiles`` (tile by tile, then train by train): a tile that is not a double on
    the trains ``single`` binds it to, else on ``open_trains``; a double likewise with ``double``.
    Analysis.legal_plays and the fast self-play (rules.fastplay) both lay their tiles here."""
    out = []
    if single is None and double is None:
        one = open_trains[0] if len(open_trains) == 1 else None
    elif single is not None and double is not None and single[0] == double[0] and single[0] == single[2]:
        one = single[0]
    else:
        one = None
    if one is not None:
        # a double binds every tile to one train, or one train only is open: one test per
        # tile, on that train only (after a draw, hand_tiles is the drawn tile alone)
        index = one
        end, moves = ends[index], moves_on[index]
        for tile in tiles:
            if tile[0] == end or tile[1] == end:
                out.append(moves[tile])
        return tuple(out)
    # After a draw where only the drawn tile may be played, the tiles are that tile alone.
    if single is None and double is None:
        # the commonest case, no double binding: one test per tile
        free_ends = set(map(ends.__getitem__, open_trains))
        for tile in tiles:
            high, low = tile
            if high in free_ends or low in free_ends:
                for index in open_trains:
                    end = ends[index]
                    if high == end or low == end:
                        moves = moves_on[index]
                        out.append(moves[tile])
        return tuple(out)
    free = [(ends[i], moves_on[i]) for i in open_trains]
    free_ends = {end for end, _ in free}
    if single is None:
        singles, single_ends = free, free_ends
    else:
        singles = [(ends[i], moves_on[i]) for i in dict.fromkeys((single[0], single[2]))]
        single_ends = {end for end, _ in singles}
    if double is None:
        doubles_, double_ends = free, free_ends
    else:
        doubles_ = [(ends[i], moves_on[i]) for i in dict.fromkeys((double[0], double[2]))]
        double_ends = {end for end, _ in doubles_}
    # may_hold() is true of every tile of the player's own hand: a tile is in one place
    # only (positions that hold a tile twice are refused, and moves keep it so; the soak and
    # the properties check it), so not on the table, in the boneyard or another hand.
    for tile in tiles:
        high, low = tile
        if high == low:
            if high not in double_ends:
                continue
            trains = doubles_
        elif high in single_ends or low in single_ends:
            trains = singles
        else:
            continue
        for end, moves in trains:
            if high == end or low == end:
                out.append(moves[tile])
    return tuple(out)
