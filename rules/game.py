"""A game over several rounds, as a score sheet keeps it: the rounds the ruleset plays, each
round's points counted from the tiles left in the hands (or taken as typed), and the winner by
the ruleset's own rule. Pure: the web layer stores what was entered and asks this module what
it means.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .deal import engine_double, rounds_in_game
from .errors import ErrorCode, InputError
from .limits import default_set
from .messages import Message
from .ruleset import Ruleset
from .scoring import DOUBLE_BLANK, GameResult, game_result
from .tiles import STANDARD_SETS, Tile

MAX_POINTS = 10_000
"""The most a typed round score may be (a hand of the double-18 set counts under 3,500)."""


@dataclass(frozen=True, slots=True)
class PlannedRound:
    number: int
    engine: Tile | None
    """The round's engine double, or None where the ruleset takes the highest double held."""


def plan(ruleset: Ruleset, set_max: int) -> tuple[PlannedRound, ...]:
    """The rounds of a whole game: how many, and the engine of each (rules.deal)."""
    out = []
    for number in range(1, rounds_in_game(ruleset, set_max) + 1):
        pip = engine_double(ruleset, set_max, number)
        out.append(PlannedRound(number, Tile.of(pip, pip) if pip is not None and pip >= 0 else None))
    return tuple(out)


def tile_points(tile: Tile, ruleset: Ruleset) -> int:
    """What one tile left in a hand counts: its pips, the double-blank as the ruleset says."""
    return ruleset.flags.scoring_double_blank if tile == DOUBLE_BLANK else tile.pips


Hand = tuple[Tile, ...] | int
"""The tiles left in a hand, or the points as typed."""


@dataclass(frozen=True, slots=True)
class HandCount:
    player: str
    points: int
    tiles: tuple[tuple[Tile, int], ...] | None
    """Each tile left and what it counts; None when the points were typed."""
    out: bool = False
    """The player went out: the going-out bonus (0 unless the ruleset gives one)."""


@dataclass(frozen=True, slots=True)
class RoundCount:
    hands: tuple[HandCount, ...]
    blocked: bool

    @property
    def scores(self) -> dict[str, int]:
        return {h.player: h.points for h in self.hands}


def count_round(ruleset: Ruleset, set_max: int, players: Sequence[str], hands: Mapping[str, Hand],
                out: str | None, blocked: bool) -> RoundCount:
    """Each player's points for a round: the player who went out scores the ruleset's going-out
    score (0 unless it gives a bonus); the others count their tiles under the ruleset or the points
    typed. A blocked round has nobody out: every hand counts (``round_end.blocked``). Raises
    InputError naming what is wrong: an unknown player, a tile twice, a tile outside the set, a
    negative or missing number."""
    for name in (*hands, *([out] if out is not None else [])):
        if name not in players:
            raise InputError(Message("there is no player called {player} in this game; the players: {players}",
                                     player=repr(name), players=", ".join(players)), code=ErrorCode.BAD_REQUEST)
    if blocked and out is not None:
        raise InputError(Message("a blocked round has nobody out; found {player} out", player=out),
                         code=ErrorCode.BAD_REQUEST)
    if not blocked and out is None:
        raise InputError(Message("expected who went out, or that the round was blocked"), code=ErrorCode.BAD_REQUEST)
    seen: dict[Tile, str] = {}
    counts = []
    for name in players:
        hand = hands.get(name)
        if name == out:
            if hand not in (None, 0, ()):
                raise InputError(Message("{player} went out, so has no tiles left and scores nothing", player=name),
                                 code=ErrorCode.BAD_REQUEST)
            counts.append(HandCount(name, ruleset.flags.scoring_going_out_bonus, (), out=True))
            continue
        if hand is None:
            raise InputError(Message("expected the points or the tiles left of {player}", player=name),
                             code=ErrorCode.BAD_REQUEST)
        if isinstance(hand, int):
            if not 0 <= hand <= MAX_POINTS:
                raise InputError(Message("expected points from 0 to {limit} for {player}, found {found}",
                                         limit=MAX_POINTS, player=name, found=hand), code=ErrorCode.BAD_REQUEST)
            counts.append(HandCount(name, hand, None))
            continue
        for tile in hand:
            if tile.high > set_max:
                raise InputError(Message("{tile} is not in the double-{set} set", tile=str(tile), set=set_max),
                                 code=ErrorCode.PIP_ABOVE_SET)
            if tile in seen:
                raise InputError(Message("{tile} is given twice (in {first}'s hand and in {second}'s)",
                                         tile=str(tile), first=seen[tile], second=name), code=ErrorCode.TILE_TWICE)
            seen[tile] = name
        worth = tuple((t, tile_points(t, ruleset)) for t in hand)
        counts.append(HandCount(name, sum(p for _, p in worth), worth))
    return RoundCount(tuple(counts), blocked)


def winner(ruleset: Ruleset, rounds: Sequence[Mapping[str, int]]) -> GameResult:
    """The winner over the rounds played: lowest total, then ``winner.tie_breaks`` in order
    (rules.scoring.game_result); ``decided_by`` is 'tie' when the ruleset leaves a tie standing."""
    return game_result(ruleset, rounds)


def leaders(totals: Mapping[str, int]) -> tuple[str, ...]:
    """Who has the lowest total so far (more than one when they are level); none before a round."""
    if not totals:
        return ()
    best = min(totals.values())
    return tuple(p for p, t in totals.items() if t == best)


MAX_NAME = 24
"""Longest player name, in characters."""
_NAME_RE = re.compile(r"[^\s:#;*]+\Z")
_NOT_A_NAME_RE = re.compile(r"[\d-]+|\.\.\.|…")


def most_players(ruleset: Ruleset) -> int:
    """The most players the ruleset's deal table allows (its player range when the table is empty)."""
    rows = ruleset.flags.setup_deal
    return max(r.max_players for r in rows) if rows else ruleset.flags.players_count.max


def sets_for(ruleset: Ruleset, players: int) -> tuple[int, ...]:
    """The sets the deal table names for this many players, the default first (rules.limits); where
    it has no row for them, every set it names."""
    rows = ruleset.flags.setup_deal
    named = tuple(dict.fromkeys(r.set_max for r in rows if r.min_players <= players <= r.max_players))
    return named or tuple(dict.fromkeys(r.set_max for r in rows)) or (default_set(ruleset, players, None),)


def check_table(ruleset: Ruleset, players: Sequence[str], set_max: int | None) -> int:
    """Refuse a table the ruleset cannot score: 2 to :func:`most_players` players, each a name the
    position format accepts (one word, so that the referee can be opened on the table), none twice;
    a standard set. Returns the set: the one given (a table may play with the set it has), else the
    first the deal table names for this many players."""
    most = most_players(ruleset)
    if not 2 <= len(players) <= most:
        raise InputError(Message("expected 2 to {most} players under {ruleset}, found {count}",
                                 most=most, ruleset=ruleset.id, count=len(players)), code=ErrorCode.BAD_REQUEST)
    for name in players:
        if not _NAME_RE.match(name) or _NOT_A_NAME_RE.fullmatch(name) or len(name) > MAX_NAME:
            raise InputError(Message("expected a player's name of one word of at most {limit} characters, "
                                     "without ':', '#', ';' or '*' and not a number; found {found}",
                                     limit=MAX_NAME, found=repr(name)), code=ErrorCode.BAD_REQUEST)
    twice = next((n for i, n in enumerate(players) if n in players[:i]), None)
    if twice is not None:
        raise InputError(Message("{player} is named twice; each player needs a name of their own", player=twice),
                         code=ErrorCode.BAD_REQUEST)
    if set_max is None:
        return sets_for(ruleset, len(players))[0]
    if set_max not in STANDARD_SETS:
        raise InputError(Message("expected a standard set ({sets}); found {found}",
                                 sets=", ".join(map(str, STANDARD_SETS)), found=set_max),
                         code=ErrorCode.BAD_REQUEST)
    return set_max
