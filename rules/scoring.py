"""Scores at the end of a round, and the winner of a game over several rounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .reasons import Reason, ReasonCode, reason
from .ruleset import Ruleset, TieBreak
from .state import State
from .tiles import Tile

DOUBLE_BLANK = Tile.of(0, 0)


def hand_points(tiles: Sequence[Tile], ruleset: Ruleset) -> int:
    """The points a hand counts: its pips, the double-blank as the ruleset says."""
    blank = ruleset.flags.scoring_double_blank
    return sum(blank if t == DOUBLE_BLANK else t.pips for t in tiles)


@dataclass(frozen=True, slots=True)
class Term:
    """A scoring rule's term in a hand's count besides its tiles: a bonus or a penalty (the reason
    code names the rule, ``points`` what it adds; a bonus is negative)."""

    code: ReasonCode
    points: int


def terms(state: State, seat: int) -> tuple[Term, ...]:
    """The bonus and penalties a player's count adds to the tiles left in the hand, under the
    state's ruleset, as if the round ended now: the going-out bonus (an empty hand), a penalty for
    each double left open on the player's own train, and one for the player's marker still down.
    A rule worth 0 adds no term."""
    flags = state.ruleset.flags
    hand, train = state.hands[seat], state.trains[seat]
    out = []
    if flags.scoring_going_out_bonus and hand is not None and hand.empty:
        out.append(Term(ReasonCode.GOING_OUT_BONUS, flags.scoring_going_out_bonus))
    if flags.scoring_open_double_penalty and train.ends_in_double:
        out.append(Term(ReasonCode.OPEN_DOUBLE_PENALTY, flags.scoring_open_double_penalty))
    if flags.scoring_marker_penalty and train.marker:
        out.append(Term(ReasonCode.MARKER_PENALTY, flags.scoring_marker_penalty))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Count:
    """The answer to ``check: score``: each player's points and the reasons that decided them."""

    scores: Mapping[str, int | None]
    """Every player, in seat order; None for a hand that is not given or not known (tiles drawn unseen)."""
    reasons: tuple[Reason, ...]


def count_hands(state: State) -> Count:
    """What each known hand counts under the state's ruleset, whether or not the round is over
    (the bonus and penalties as if it ended now). A hand that is not given, or holds tiles drawn
    unseen, is not counted: its points are None, and a reason says why (every player is listed).
    The player who went out (an empty hand, or the position's ``out:`` line) counts 0."""
    blank = state.ruleset.flags.scoring_double_blank
    scores: dict[str, int | None] = {}
    reasons: list[Reason] = []
    for seat, (name, hand) in enumerate(zip(state.players, state.hands)):
        if hand is None or hand.unknown:
            scores[name] = None
            reasons.append(reason(ReasonCode.HAND_NOT_GIVEN if hand is None else ReasonCode.HAND_NOT_KNOWN, player=name))
            continue
        points = hand_points(hand.tiles, state.ruleset)
        if not hand.tiles:
            reasons.append(reason(ReasonCode.OUT_COUNTS_ZERO, player=name))
        else:
            reasons.append(reason(ReasonCode.HAND_COUNTS, player=name, points=points))
            if DOUBLE_BLANK in hand.tiles:
                reasons.append(reason(ReasonCode.DOUBLE_BLANK_COUNTS, player=name, value=blank))
        extra = terms(state, seat)
        for term in extra:
            reasons.append(reason(term.code, player=name, points=term.points))
        scores[name] = points + sum(t.points for t in extra)
    return Count(scores, tuple(reasons))


def round_scores(state: State) -> dict[str, int] | None:
    """Each player's points for a finished round; None while it goes on or a hand is unknown."""
    if not state.round_over or any(hand is None or hand.unknown for hand in state.hands):
        return None
    return {name: points or 0 for name, points in count_hands(state).scores.items()}  # every hand is known


@dataclass(frozen=True, slots=True)
class GameResult:
    totals: Mapping[str, int]
    winners: tuple[str, ...]
    """More than one when the ruleset's tie-breaks leave a tie."""
    decided_by: str
    """'lowest-total' or the tie-break that settled it, or 'tie'."""


def game_result(ruleset: Ruleset, rounds: Sequence[Mapping[str, int]]) -> GameResult:
    """The winner over several rounds: lowest total, then the ruleset's tie-breaks in order."""
    if not rounds:
        raise ValueError("a game needs at least one round")
    players = tuple(rounds[0])
    totals = {p: sum(r[p] for r in rounds) for p in players}
    best = min(totals.values())
    tied = [p for p in players if totals[p] == best]
    if len(tied) == 1:
        return GameResult(totals, tuple(tied), "lowest-total")
    for rule in ruleset.flags.winner_tie_breaks:
        if rule is TieBreak.MOST_ZERO_ROUNDS:
            key = {p: -sum(1 for r in rounds if r[p] <= 0) for p in tied}  # a going-out bonus scores below 0
        else:
            key = {p: min((r[p] for r in rounds if r[p] > 0), default=0) for p in tied}
        low = min(key.values())
        tied = [p for p in tied if key[p] == low]
        if len(tied) == 1:
            return GameResult(totals, tuple(tied), rule.value)
    return GameResult(totals, tuple(tied), "tie")
