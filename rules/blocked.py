"""Whether a round is blocked: nobody can play, now or after the passes still to come.

The sources end a blocked round when nobody can play (000/002: no player has a legal play;
001: "…és senki sem tud kijátszani"). A pass puts the passer's marker down, and a marker can
open a train to a player who passed before; markers only ever go down while everyone passes.
So when the boneyard is empty and every hand is known, the round is blocked exactly when no
player could lay a tile even with every player's marker down (see the README, "Blocked rounds").
"""

from __future__ import annotations

from dataclasses import replace

from .judge import is_legal
from .moves import MEXICAN, Move
from .position import Phase
from .state import Progress, State, evolve


def hands_known(state: State) -> bool:
    """Every hand is given and holds no tile drawn unseen."""
    return all(h is not None and not h.unknown for h in state.hands)


def nobody_can_play(state: State) -> bool:
    """The boneyard is empty, every hand is known, and no player could lay a tile on a train
    open to them, even once every player who cannot play has passed and put a marker down."""
    if state.boneyard != 0 or state.phase is not Phase.PLAY or not hands_known(state):
        return False
    n = len(state.players)
    marked = tuple(replace(t, marker=True) if i < n else t for i, t in enumerate(state.trains))
    names = (*state.players, MEXICAN)
    fresh = Progress()
    for seat, hand in enumerate(state.hands):
        assert hand is not None
        fits = [(tile, i) for tile in hand.tiles for i, t in enumerate(marked) if tile.has(t.end)]
        if not fits:
            continue  # the commonest case: judged without building a state
        hypothetical = evolve(state, trains=marked, to_move=seat, progress=fresh, round_over=False)
        player = state.players[seat]
        if any(is_legal(hypothetical, Move.play(player, tile, names[i])) for tile, i in fits):
            return False
    return True
