"""Replaying a position's moves: each is judged (the fast path) before it is applied; the first
illegal one stops the replay, explained."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .explain import explain
from .legality import is_legal
from .moves import Action, Move
from .position import MoveLine
from .reasons import Reason
from .state import State
from .transitions import apply


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
        if not is_legal(state, move):
            return Replay(before, applied, line, explain(state, move))
        state = apply(state, move)
        applied += 1
    return Replay(state, applied)
