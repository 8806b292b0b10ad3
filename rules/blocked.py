"""Whether a round is blocked: nobody can play, now or after the passes still to come.

The sources end a blocked round when nobody can play (000/002: no player has a legal play;
001: "…és senki sem tud kijátszani"). A pass puts the passer's marker down, and a marker can
open a train to a player who passed before; markers only ever go down while everyone passes.
So when the boneyard is empty and every hand is known, the round is blocked exactly when no
player could lay a tile even with every player's marker down (see docs/engine.md, "Blocked rounds").
Where the boneyard is never drawn from (``turn.cannot_play`` marker-no-draw, a house value), the
tiles left in it are out of play: the round is blocked when nobody can play, whatever it holds.
"""

from __future__ import annotations

from .legality import can_play
from .position import Phase
from .state import Progress, State, Train, evolve

# Enum members read once: in Python 3.11 EnumType.__getattr__ makes each read through the class
# (Action.PLAY) a slow attribute lookup, about 0.1 us, and these are read on every move.
_PLAY_PHASE = Phase.PLAY


def nobody_can_play(state: State) -> bool:
    """The boneyard is empty (or never drawn from: ``turn.cannot_play`` marker-no-draw), every
    hand is known, and no player could lay a tile on a train open to them, even once every player
    who cannot play has passed and put a marker down."""
    if not state.drawing_over or state.phase is not _PLAY_PHASE or not state.hands_known:
        return False
    fresh = Progress()
    if state.progress == fresh and can_play(state):
        # The player to move can play as things stand, so with more markers down too (a marker
        # only opens a train): the commonest case, and judging their move reuses the analysis.
        return False
    n = len(state.players)
    marked = tuple(Train(t.tiles, t.end, True, t.unknown_prefix, t.near) if i < n else t
                   for i, t in enumerate(state.trains))
    ends = {t.end for t in marked}
    for seat, hand in enumerate(state.hands):
        assert hand is not None
        if not any(high in ends or low in ends for high, low in hand.tiles):
            continue  # the commonest case: no tile matches an open end, judged without a state
        if can_play(evolve(state, trains=marked, to_move=seat, progress=fresh, round_over=False)):
            return False
    return True
