"""One round of self-play for the statistics: the strategies choose, the fast table plays.

The per-move loop of a statistics job (rules.statistics.play_chunk calls :func:`play_round` for
every round of every game): deal, play on a :class:`rules.fastplay.Table` with each seat choosing
by its strategy, and count what the metrics need as the moves go. It is one of the modules
compiled with mypyc when a C compiler is there (scripts/build_native.py); the pure module is the
same code and plays the same games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, NamedTuple

from . import fastplay
from .deal import deal
from .moves import Action
from .randoms import choice
from .ruleset import Ruleset
from .simulate import MAX_STEPS, InvariantError, finished_scores
from .strategies import POLICIES, Strategy
from .tiles import Tile
from .transitions import build

_PLAY: Final = Action.PLAY  # read once (see rules.simulate); Final: compiled, a static of the module
_DRAW: Final = Action.DRAW


class Played(NamedTuple):
    """What the metrics count of one round played (:func:`play_round`)."""

    scores: dict[str, int]
    first: int
    """The seat of the round's first player."""
    first_out: bool
    blocked: bool
    turns: int
    draws: int
    open_turns: int
    open_sum: int
    open_doubles: int


def play_round(ruleset: Ruleset, names: tuple[str, ...], round_no: int, rng: random.Random, set_max: int,
               seats: Sequence[Strategy]) -> Played:
    """One round, unchecked, each seat choosing by its strategy, with what the metrics count."""
    dealt = deal(ruleset, names, round_no, rng, set_max)
    table = fastplay.Table(build(dealt.position, ruleset))
    first = table.to_move
    policies = [None if s is Strategy.RANDOM else POLICIES[s] for s in seats]
    legal, apply_move, hands, trains = table.legal_moves, table.apply, table.hands, table.tiles
    train_index = table.train_index
    turns = draws = open_turns = open_sum = 0
    ever_open: set[Tile] = set()
    now_open: set[Tile] = set()
    """The doubles that end a train: left open (kept as tiles are laid, not searched for)."""
    out_seat: int | None = None
    for _ in range(MAX_STEPS):
        if table.round_over:
            break
        options = legal()
        if not options:
            raise InvariantError(f"{ruleset.id}, round {round_no}: no legal move and the round is not over")
        seat = table.to_move
        policy = policies[seat]
        if policy is None:
            move = choice(rng, options)  # a lone option too: the random numbers drawn stay the same
        elif len(options) == 1:
            move = options[0]  # no choice to make, no view to build
        else:
            move = policy(table.view(), options)
        if move[1] is _PLAY:
            tile = move[2]
            assert tile is not None
            if now_open:  # the tile laid covers the train's end: a double there is no longer open
                laid_on = trains[train_index[move[3]]]
                if laid_on:
                    now_open.discard(laid_on[-1])
            apply_move(move)
            if tile[0] == tile[1]:
                now_open.add(tile)
            if out_seat is None and not hands[seat]:
                out_seat = seat
        else:
            if move[1] is _DRAW:  # the bare draw: the table takes the boneyard's top tile
                draws += 1
            apply_move(move)
        if table.to_move != seat or table.round_over:
            turns += 1
            if now_open:
                open_turns += 1
                open_sum += len(now_open)
                ever_open |= now_open
    else:
        raise InvariantError(f"{ruleset.id}, round {round_no}: the round did not end within {MAX_STEPS} moves")
    state = table.state()
    scores = finished_scores(state, f"{ruleset.id}, round {round_no}")
    blocked = not any(h is not None and not h.tiles and not h.unknown for h in state.hands)
    return Played(scores, first, out_seat == first, blocked, turns, draws, open_turns, open_sum, len(ever_open))
